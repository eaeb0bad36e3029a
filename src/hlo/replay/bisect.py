"""`hlo bisect`: where a run first goes wrong. The module runs on hlo with every instruction's value
recorded (the instrumentation of `--dump-values`); each entry instruction's value is compared with
a reference's value of the instruction of the same name, in the order the run computed them (an
order in which operands come before their users), and the first that differs beyond tolerance is
the divergence: its operands agree, so the instruction itself computes differently.

Tolerances are compare.py's (numpy.isclose per element; NaN matches NaN, infinities match in
place; integers and predicates exact; per-type defaults, looser for f16 and bf16)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..ir.instruction import Instruction
from ..ir.module import Module
from ..numerics.context import RunOptions
from ..runtime.run import Executable
from .compare import OutputReport, compare_output
from .instrument import Watch, instrument
from .values import leaf_values

Leaves = dict[tuple[int, ...], np.ndarray]  # leaf index (() for an array) -> value
Values = dict[str, Leaves]  # instruction name -> its leaves


AllValues = dict[tuple[str, str], Leaves]  # (computation, instruction) -> its leaves


def record(module: Module, inputs: list[Any], options: RunOptions | None = None) -> AllValues:
    """Every instruction's value from one run on hlo, in the order the run computed them (the
    entry's parameters first); a called computation's values are those of its last call, and
    instructions the run skips (dead code) are absent."""
    # Op by op (no fused steps: every value is recorded), in a plan of its own (instrument()
    # changes the steps).
    executable = Executable(module, dataclasses.replace(options or RunOptions(), fuse=False))
    watch = Watch(record=True)
    instrument(executable, watch)
    executable(*inputs)
    entry = module.entry_name
    values: AllValues = {
        (entry, p.name): dict(leaf_values(v)) for p, v in zip(module.entry.parameters, inputs)
    }
    for key, value in watch.values.items():
        values[key] = dict(leaf_values(value))
    return values


def of_computation(values: AllValues, computation: str) -> Values:
    """The values of one computation's instructions, by name, in their order."""
    return {name: leaves for (c, name), leaves in values.items() if c == computation}


@dataclass(frozen=True)
class Checked:
    """One instruction compared: a report per leaf both sides hold."""

    name: str
    reports: tuple[OutputReport, ...]
    leaves: tuple[tuple[int, ...], ...]  # the leaf index of each report

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.reports)


@dataclass
class Bisection:
    module: Module
    ours: Values
    reference: Values
    checked: dict[str, Checked] = field(default_factory=dict)  # in the run's order
    skipped: dict[str, str] = field(default_factory=dict)  # name -> why
    first: str | None = None
    inside: tuple[str, Checked] | None = None  # (computation, instruction) first differing in its callees

    @property
    def differing(self) -> list[str]:
        return [n for n, c in self.checked.items() if not c.ok]

    def operand_agreement(self, instr: Instruction) -> list[tuple[str, str]]:
        """(operand, "agrees" | "differs" | why it was not compared) for each distinct operand."""
        out = []
        for name in dict.fromkeys(instr.operands):
            if name in self.checked:
                out.append((name, "agrees" if self.checked[name].ok else "differs"))
            else:
                out.append((name, self.skipped.get(name, "not compared")))
        return out


def bisect(
    module: Module,
    ours: Values,
    reference: Values,
    rtol: float | None = None,
    atol: float | None = None,
) -> Bisection:
    """Compare every instruction both sides hold; `first` is the first that differs."""
    result = Bisection(module, ours, reference)
    result.checked, result.skipped = compare_values(ours, reference, rtol, atol)
    result.first = next((n for n, c in result.checked.items() if not c.ok), None)
    return result


def compare_values(
    ours: Values, reference: Values, rtol: float | None = None, atol: float | None = None
) -> tuple[dict[str, Checked], dict[str, str]]:
    """(compared instructions in `ours`'s order, skipped ones with why)."""
    checked: dict[str, Checked] = {}
    skipped: dict[str, str] = {}
    for name, leaves in ours.items():
        want = reference.get(name)
        if want is None:
            skipped[name] = "absent from the reference"
            continue
        reports, indices = [], []
        for index, got in leaves.items():
            if index not in want:
                continue
            ref = np.asarray(want[index])
            if ref.shape != got.shape:
                skipped[name] = f"shape {list(ref.shape)} in the reference"
                break
            if ref.dtype != got.dtype:
                if not _convertible(ref.dtype, got.dtype):
                    skipped[name] = f"type {ref.dtype} in the reference"
                    break
                ref = ref.astype(got.dtype)
            reports.append(compare_output(_leaf_name(name, index), got, ref, rtol, atol))
            indices.append(index)
        else:
            if reports:
                checked[name] = Checked(name, tuple(reports), tuple(indices))
            else:
                skipped[name] = "no value of the same leaves in the reference"
    return checked, skipped


def inside(
    module: Module,
    instr: Instruction,
    ours: AllValues,
    reference: AllValues,
    rtol: float | None = None,
    atol: float | None = None,
) -> tuple[str, Checked] | None:
    """The first differing instruction in what `instr` calls (a fusion's body, a loop's body;
    the values of the last call on both sides), descending while that one calls more; None when
    the reference holds no differing value there."""
    found: tuple[str, Checked] | None = None
    callees = list(instr.called_computations)
    while callees:
        name = callees.pop(0)
        checked, _ = compare_values(of_computation(ours, name), of_computation(reference, name), rtol, atol)
        first = next((c for c in checked.values() if not c.ok), None)
        if first is not None:
            found = (name, first)
            callees = list(module.computation(name)[first.name].called_computations)
    return found


def _convertible(ref: np.dtype, got: np.dtype) -> bool:
    """A widened bf16/f8/int4 value (as .npz holds them) compares in its own type again."""
    return ref.itemsize > got.itemsize and ref.kind in "fiu" and got.kind in "fiuV" and got.kind != "b"


def _leaf_name(name: str, index: tuple[int, ...]) -> str:
    return f"%{name}" + ("{" + ",".join(map(str, index)) + "}" if index else "")


def differences(got: np.ndarray, want: np.ndarray) -> tuple[float, float]:
    """The largest absolute and relative differences over the elements finite on both sides."""
    g = np.asarray(got).astype(np.complex128 if got.dtype.kind == "c" else np.float64)
    w = np.asarray(want).astype(g.dtype)
    with np.errstate(all="ignore"):
        finite = np.isfinite(g) & np.isfinite(w)
        if not finite.any():
            return 0.0, 0.0
        err = np.abs(g - w)[finite]
        mag = np.abs(w)[finite]
        rel = np.where(mag > 0, err / np.where(mag > 0, mag, 1), np.where(err > 0, np.inf, 0.0))
        return float(err.max()), float(rel.max())
