"""The module's stack-frame tables from MLIR locations, as XLA's StableHLO -> HLO conversion
builds them (its StackFrameIndexBuilder): JAX writes each Python frame as a named file location
(`loc("f"("a.py":3:17 to :31))`) and a call stack as call sites (`callsite(callee at caller)`).
A frame is (file location, parent frame); a file location is keyed by file, function, line and
column, and keeps the end line and column of the first location seen. An op's metadata gets the
id of its innermost frame. Fused locations give no frames (as in jaxlib 0.10.2's conversion).

Ids depend on the order locations are first seen. XLA canonicalizes the module before
converting it, which moves constants to the top of their block, then the constants it folds
(broadcasts, reshapes and converts of constants); `FrameIndex.prepare` walks a block in that
order. It converts a function's callees before the function itself (post-order from the
entry: `FrameIndex.prepare_module`)."""

from __future__ import annotations

import re
from typing import Any

from ..ir.metadata import FileLocation, StackFrame, StackFrameIndex
from .attrs import Raw
from .locations import _split_at
from .syntax import Block, Func

_FILE = re.compile(r'"((?:[^"\\]|\\.)*)":(\d+):(\d+)(?:\s+to\s+(\d+)?:(\d+))?\s*$')
_NAMED = re.compile(r'"((?:[^"\\]|\\.)*)"\s*\((.*)\)\s*$', re.S)
_FOLDED = frozenset({"stablehlo.broadcast_in_dim", "stablehlo.reshape", "stablehlo.convert"})


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


class FrameIndex:
    """The tables being built, and the frame id of each location text seen."""

    def __init__(self, aliases: dict[str, Any]) -> None:
        self.aliases = aliases
        self.files: dict[str, int] = {}
        self.functions: dict[str, int] = {}
        self.locations: dict[tuple[int, int, int, int], int] = {}
        self.location_rows: list[FileLocation] = []
        self.frames: dict[tuple[int, int], int] = {}
        self.ids: dict[str, int] = {}

    def prepare_module(self, entry: Func, funcs: dict[str, Func]) -> None:
        """See the locations of every function the entry reaches, each after the functions it
        calls (in the order of their first call), the entry last: XLA converts callees first."""
        done: set[str] = set()

        def visit(func: Func) -> None:
            done.add(func.name)
            for name in _callees(func.body):
                if name not in done and name in funcs:
                    visit(funcs[name])
            self.prepare(func.body)

        visit(entry)

    def prepare(self, block: Block) -> None:
        """See every location of `block` (and its regions) in the order XLA's canonicalized
        module has them: constants and what folds into constants first."""
        constants: set[str] = set()
        written, folded, rest = [], [], []
        for op in block.ops:
            if op.name == "stablehlo.constant":
                written.append(op)
            elif op.name in _FOLDED and op.operands and op.operands[0] in constants:
                folded.append(op)
            else:
                rest.append(op)
                continue
            constants.update(op.results)
        for op in written + folded + rest:
            self.frame(op.loc)
            for region in op.regions:
                for b in region:
                    self.prepare(b)

    def frame(self, loc: Any) -> int:
        """The innermost frame of `loc` (a Raw `loc(...)`), 0 when it has none."""
        if not isinstance(loc, Raw) or not loc.text.startswith("loc("):
            return 0
        if loc.text not in self.ids:
            self.ids[loc.text] = self._add(loc.text[4:-1].strip(), 0, 0)
        return self.ids[loc.text]

    def _add(self, text: str, parent: int, depth: int) -> int:
        if depth > 100:
            return parent
        if text.startswith("#"):
            target = self.aliases.get(text)
            if isinstance(target, Raw) and target.text.startswith("loc("):
                return self._add(target.text[4:-1].strip(), parent, depth + 1)
            return parent
        if text.startswith("callsite("):
            callee, _, caller = _split_at(text[len("callsite(") : -1])
            return self._add(callee.strip(), self._add(caller.strip(), parent, depth + 1), depth + 1)
        m = _NAMED.match(text)
        if m is None:
            return parent
        child = self._resolve(m.group(2).strip(), depth)
        place = _FILE.match(child)
        if place is None:  # a name around a call stack, not a frame
            return self._add(m.group(2).strip(), parent, depth + 1)
        return self._location_frame(_unescape(m.group(1)), place, parent)

    def _resolve(self, text: str, depth: int) -> str:
        """`text` with aliases followed (the child of a named location may be one)."""
        while text.startswith("#") and depth < 100:
            target = self.aliases.get(text)
            if not (isinstance(target, Raw) and target.text.startswith("loc(")):
                return text
            text, depth = target.text[4:-1].strip(), depth + 1
        return text

    def _location_frame(self, function: str, place: re.Match[str], parent: int) -> int:
        file = _unescape(place.group(1))
        line, column = int(place.group(2)), int(place.group(3))
        end_line = int(place.group(4)) if place.group(4) else line
        end_column = int(place.group(5)) if place.group(5) else column
        file_id = self.files.setdefault(file, len(self.files) + 1)
        function_id = self.functions.setdefault(function, len(self.functions) + 1)
        key = (file_id, function_id, line, column)
        if key not in self.locations:
            self.location_rows.append(FileLocation(file_id, function_id, line, end_line, column, end_column))
            self.locations[key] = len(self.location_rows)
        return self.frames.setdefault((self.locations[key], parent), len(self.frames) + 1)

    def index(self) -> StackFrameIndex | None:
        if not self.frames:
            return None
        return StackFrameIndex(
            tuple(self.files),
            tuple(self.functions),
            tuple(self.location_rows),
            tuple(StackFrame(loc, parent) for loc, parent in self.frames),
        )


def _callees(block: Block) -> list[str]:
    """The functions `block` calls (func.call and a composite's decomposition), in order."""
    out = []
    for op in block.ops:
        callee = op.attrs.get("callee", op.attrs.get("decomposition"))
        if op.name in ("func.call", "stablehlo.composite") and callee is not None:
            out.append(str(getattr(callee, "name", callee)).lstrip("@"))
        for region in op.regions:
            for b in region:
                out += _callees(b)
    return out
