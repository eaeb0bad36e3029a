"""Find the first instruction whose value differs from a reference's: the module runs on hlo
instruction by instruction and every entry instruction's value is compared, in the order the run
computed them, with the reference's value of the instruction of the same name.

`--reference` is `xla` (the same module on XLA:CPU through jaxlib, every instruction made an output;
needs `hlo[xla]`), a directory written by `hlo run --dump-values DIR` (another run, another machine;
its recorded arguments are the inputs unless `--inputs` is given), or another module file run by hlo
on the same inputs (instructions are matched by name; those absent on one side are skipped).
Inputs: `--inputs IN.npz`, a snapshot's arguments, or random ones from `--seed`.

The first divergent instruction is printed with its largest absolute and relative differences, the
worst element and whether its operands agree (for a fusion or loop, also the first instruction
inside that differs). Its operands agree only within tolerance, so it is run again on the
reference's operands: if it then gives the reference's value, it only magnified their differences
(a cancellation), and the first divergent instruction that still differs is named as the cause.
`-o OUTDIR` writes, for each, a module computing only it, its inputs (hlo's operands, and the
reference's) and the reference's value, and prints the command that shows the divergence again.

Exit status: 0 when every instruction compared agrees, 1 when one differs (as `hlo run --compare`
on a mismatch). A bad input also ends with status 1, with one line on standard error and nothing
on standard output; a divergence prints its report on standard output.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..errors import HloError
from ..numerics.context import RunOptions
from ..replay.bisect import AllValues, Bisection, Values, bisect, differences, inside, of_computation, record
from ..replay.bisect_check import at_fault, first_at_fault
from ..replay.bisect_reference import dump_reference, module_reference
from ..replay.bisect_repro import write_repro
from ..replay.inputs import make_inputs
from ..replay.load import Loaded, load
from ..replay.npz import load_inputs
from ..replay.output import check_writable
from ..replay.reference import require_jaxlib
from .limits import DEFAULT_MAX_ITERATIONS, memory_size


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("module", help="a module file: HLO text, .pb, .pbtxt, a snapshot, StableHLO")
    parser.add_argument(
        "--reference", required=True, metavar="xla|DIR|OTHER",
        help="xla (XLA:CPU, needs jaxlib), a --dump-values directory, or another module file",
    )  # fmt: skip
    parser.add_argument("--inputs", help="a .npz file with arg0, arg1, ...")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random inputs and rng ops")
    parser.add_argument("--cast", action="store_true", help="convert --inputs arrays of another type")
    parser.add_argument("--rtol", type=float, help="relative tolerance (default per element type)")
    parser.add_argument("--atol", type=float, help="absolute tolerance (default per element type)")
    parser.add_argument("-o", "--output", metavar="OUTDIR", help="write a repro of the divergence here")
    parser.add_argument(
        "--memory-limit", type=memory_size, metavar="BYTES",
        help="the most one value may take (e.g. 4G; default: half the memory this process may use; 0: none)",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    if args.seed < 0:
        raise HloError(f"hlo bisect: --seed must be >= 0, not {args.seed}")
    if args.output and not os.path.isdir(args.output):
        check_writable(args.output)
    if args.reference != "xla" and not os.path.exists(args.reference):
        raise HloError(
            f"{args.reference}: the reference does not exist "
            "(xla, a --dump-values directory or a module file)"
        )
    loaded = load(args.module)
    module = loaded.module
    devices = module.config.replica_count * module.config.num_partitions
    if devices > 1:
        raise HloError(f"{loaded.name}: hlo bisect runs one device; the module runs on {devices}")
    options = RunOptions(
        seed=args.seed, max_iterations=DEFAULT_MAX_ITERATIONS, memory_limit=args.memory_limit
    )
    reference: Values | None = None
    reference_all: AllValues = {}
    recorded: list[Any] | None = None
    where = args.reference
    if args.reference != "xla" and os.path.isdir(args.reference):
        reference, reference_all, recorded = dump_reference(module, args.reference)
        where = f"the values in {args.reference}"
    inputs, source = _inputs(args, loaded, recorded)
    if args.reference == "xla":
        require_jaxlib()  # before hlo's run, which may be long
    ours_all = record(module, inputs, options)
    ours = of_computation(ours_all, module.entry_name)
    if args.reference == "xla":
        from ..replay.xla_values import xla_values

        reference, where = xla_values(module, inputs, list(ours)), "XLA:CPU"
    elif reference is None:
        reference, reference_all = module_reference(module, args.reference, inputs, options)
    result = bisect(module, ours, reference, args.rtol, args.atol)
    if result.first is not None and reference_all:
        first = module.entry[result.first]
        result.inside = inside(module, first, ours_all, reference_all, args.rtol, args.atol)
    print(f"{loaded.name}: compared with {where}; inputs: {source}")
    return report(result, args.output, args.rtol, args.atol)


def _inputs(args: argparse.Namespace, loaded: Loaded, recorded: list[Any] | None) -> tuple[list[Any], str]:
    """The arguments, and where they come from: --inputs, the reference dump's recorded ones, a
    snapshot's, or random ones from --seed."""
    module = loaded.module
    if args.inputs:
        return load_inputs(args.inputs, module.entry.parameter_shapes, args.cast), args.inputs
    if recorded is not None:
        return recorded, f"the arguments recorded in {args.reference}"
    if loaded.arguments is not None:
        return list(loaded.arguments), "the snapshot's arguments"
    return make_inputs(module, "random", args.seed, 0, None, args.memory_limit), f"seed {args.seed}"


def _cause(result: Bisection, rtol: float | None, atol: float | None) -> str | None:
    """Whether the first divergence is the instruction's own (bisect_check.py); prints what it
    finds and returns a later instruction found at fault instead, if any."""
    first = result.first
    assert first is not None
    fault = at_fault(result, first, rtol, atol)
    if fault is None:
        return None
    if fault:
        print("  given the reference's operands, hlo still differs: this instruction computes differently")
        return None
    print("  given the reference's operands, hlo gives the reference's value: the operands' differences")
    print("  (within tolerance) grow past it here")
    cause, cause_fault, checked = first_at_fault(result, rtol, atol)
    if cause is None:
        print(
            f"  none of the {checked} differing instructions checked differs given the reference's "
            "operands: rounding differences, magnified"
        )
        return None
    how = "still differs" if cause_fault else "cannot be told (the reference lacks an operand)"
    print(f"  the first that differs given the reference's operands: %{cause} ({how})")
    print(f"    {result.module.entry[cause]}")
    return cause if cause_fault else None


def report(
    result: Bisection, output: str | None, rtol: float | None = None, atol: float | None = None
) -> int:
    compared = len(result.checked)
    reasons: dict[str, int] = {}
    for why in result.skipped.values():
        reasons[why] = reasons.get(why, 0) + 1
    listed = ", ".join(f"{n} {why}" for why, n in reasons.items())
    note = f" ({len(result.skipped)} skipped: {listed})" if reasons else ""
    if result.first is None:
        print(f"no instruction differs: {compared} compared{note}")
        return 0
    instr = result.module.entry[result.first]
    differing = len(result.differing)
    print(f"first divergence: %{instr.name} ({differing} of {compared} compared instructions differ{note})")
    print(f"  {instr}")
    checked = result.checked[instr.name]
    for leaf, r in zip(checked.leaves, checked.reports):
        if r.ok:
            continue
        print(f"  {r.describe()}")
        if not r.problem:
            abs_max, rel_max = differences(result.ours[instr.name][leaf], result.reference[instr.name][leaf])
            print(f"  largest differences: abs {abs_max:.6g}, rel {rel_max:.6g}")
    if result.inside is not None:
        computation, nested = result.inside
        bad = next(r for r in nested.reports if not r.ok)
        print(f"  inside it (values of the last call), the first to differ is in {computation}:")
        print(f"    {result.module.computation(computation)[nested.name]}")
        print(f"    {bad.describe()}")
    agreement = result.operand_agreement(instr)
    if agreement:
        print("  operands: " + ", ".join(f"%{n} {how}" for n, how in agreement))
    cause = _cause(result, rtol, atol)
    if output:
        for name in dict.fromkeys([instr.name] + ([cause] if cause else [])):
            repro = write_repro(result, output, name)
            print("wrote " + ", ".join(repro.files))
            print(f"re-run: {repro.command(reference_inputs=name == cause)}")
    else:
        print("  (-o OUTDIR writes a module computing only this instruction, its inputs and the reference)")
    return 1
