"""What `hlo bisect -o DIR` writes about the first divergent instruction: a standalone module
computing only it (extract.py, height 0: its operands are the parameters), the inputs of that module
from hlo's run (the operands' values, which agree with the reference), the reference's values of
the same operands when it holds them all, and the reference's value of the instruction, so that
`hlo run NAME.hlo --inputs NAME.inputs.npz --compare NAME.expected.npz` shows the divergence again
on its own."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import HloError
from ..numerics.contraction import fused_product
from .bisect import Bisection, Values
from .bisect_check import reference_operands
from .extract import Extraction, extract_with_sources
from .npz import save
from .output import write_output


@dataclass(frozen=True)
class Repro:
    module: str  # the written files' paths
    inputs: str
    reference_inputs: str | None
    expected: str | None

    def command(self, reference_inputs: bool = False) -> str:
        """The `hlo run` that shows the divergence again: on hlo's operands, or on the
        reference's (for an instruction that differs even given those)."""
        compare = f" --compare {self.expected}" if self.expected else ""
        inputs = self.reference_inputs if reference_inputs and self.reference_inputs else self.inputs
        return f"hlo run {self.module} --inputs {inputs}{compare}"

    @property
    def files(self) -> list[str]:
        return [f for f in (self.module, self.inputs, self.reference_inputs, self.expected) if f]


def write_repro(result: Bisection, directory: str, name: str | None = None) -> Repro:
    """Write the files of the first divergence (or of the instruction `name`) into `directory`
    (made if missing)."""
    name = name or result.first
    if name is None:
        raise HloError("no divergent instruction to write")
    folder = Path(directory)
    if not folder.parent.is_dir():
        raise HloError(f"{directory}: cannot write: the directory {str(folder.parent)!r} does not exist")
    folder.mkdir(exist_ok=True)
    extraction = extract_with_sources(result.module, name, height=0, keep=fused_product(result.module, name))
    stem = str(folder / re.sub(r"[^A-Za-z0-9_.-]", "_", name))
    module_path, inputs_path = stem + ".hlo", stem + ".inputs.npz"
    write_output(module_path, extraction.module.to_text())
    save(inputs_path, _arguments(extraction, result.ours, "hlo's run"), prefix="arg")
    reference_inputs = expected = None
    args = reference_operands(result, extraction.sources)
    if args is not None:  # (None: the reference lacks an operand)
        reference_inputs = stem + ".reference_inputs.npz"
        save(reference_inputs, args, prefix="arg")
    ours, theirs = result.ours[name], result.reference.get(name, {})
    if set(ours) <= set(theirs):
        expected = stem + ".expected.npz"
        save(expected, [np.asarray(theirs[i]).astype(ours[i].dtype) for i in sorted(ours)])
    return Repro(module_path, inputs_path, reference_inputs, expected)


def _arguments(extraction: Extraction, values: Values, what: str) -> list[np.ndarray]:
    out = []
    for source in extraction.sources:
        leaves = values.get(source.name, {})
        if source.index not in leaves:
            raise HloError(f"{what} holds no value of %{source.name}")
        out.append(leaves[source.index])
    return out
