"""XLA re-interns a module's stack-frame tables when it builds the module from text or from an
HloModuleProto: only frames some instruction's metadata refers to are kept (ancestors first, in
order of first reference) and the ids are renumbered. The order of reference is the order the
instructions come in: the text's, or the proto's (computations as stored, each one's
instructions by id), which can differ from the order the module prints in."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..ir.computation import Computation
from ..ir.metadata import FileLocation, StackFrame, StackFrameIndex
from ..ir.module import Module


class _Interner:
    def __init__(self, source: StackFrameIndex) -> None:
        self.src = source
        self.files: list[str] = []
        self.functions: list[str] = []
        self.locations: list[FileLocation] = []
        self.frames: list[StackFrame] = []
        self.frame_ids: dict[int, int] = {}

    def _name(self, table: list[str], value: str) -> int:
        if value not in table:
            table.append(value)
        return table.index(value) + 1

    def frame(self, old_id: int, seen: frozenset[int] = frozenset()) -> int:
        """The new id of frame `old_id` (1-based), 0 if it is invalid or cyclic."""
        if old_id in self.frame_ids:
            return self.frame_ids[old_id]
        src = self.src
        if not 1 <= old_id <= len(src.stack_frames) or old_id in seen:
            return 0
        f = src.stack_frames[old_id - 1]
        if not 1 <= f.file_location_id <= len(src.file_locations):
            return 0
        loc = src.file_locations[f.file_location_id - 1]
        if not (
            1 <= loc.file_name_id <= len(src.file_names)
            and 1 <= loc.function_name_id <= len(src.function_names)
        ):
            return 0
        parent = self.frame(f.parent_frame_id, seen | {old_id}) if f.parent_frame_id else 0
        new_loc = replace(
            loc,
            file_name_id=self._name(self.files, src.file_names[loc.file_name_id - 1]),
            function_name_id=self._name(self.functions, src.function_names[loc.function_name_id - 1]),
        )
        if new_loc not in self.locations:
            self.locations.append(new_loc)
        frame = StackFrame(self.locations.index(new_loc) + 1, parent)
        if frame not in self.frames:
            self.frames.append(frame)
        self.frame_ids[old_id] = self.frames.index(frame) + 1
        return self.frame_ids[old_id]

    def index(self) -> StackFrameIndex | None:
        if not self.frames:
            return None
        return StackFrameIndex(
            tuple(self.files), tuple(self.functions), tuple(self.locations), tuple(self.frames)
        )


def canonicalize_stack_frames(
    module: Module, index: StackFrameIndex | None, order: Iterable[int] = ()
) -> Module:
    """`module` with the tables of `index` re-interned; `order`, the stack_frame_ids in the order
    the instructions came in if not the module's own order."""
    interner = _Interner(index or StackFrameIndex())
    for frame_id in order:
        if frame_id:
            interner.frame(frame_id)
    computations: list[Computation] = []
    changed = False
    for c in module.computations:
        instructions = []
        for i in c.instructions:
            md = i.metadata
            if md is not None and md.stack_frame_id:
                new_id = interner.frame(md.stack_frame_id)
                if new_id != md.stack_frame_id:
                    i = i.replace(metadata=replace(md, stack_frame_id=new_id))
                    changed = True
            instructions.append(i)
        computations.append(c.replace(instructions=tuple(instructions)) if changed else c)
    return module.replace(computations=tuple(computations), stack_frames=interner.index())
