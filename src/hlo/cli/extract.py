"""Extract one instruction into a standalone module (XLA's hlo-extractor): its root is INSTR, its
parameters the values `--height` hops up (0: INSTR's operands; default: the whole cone up to the
entry's parameters). Constants and iotas in the cone stay; called computations come along.

The module's HLO text goes to `-o OUT` or standard output. With `--values DIR` (written by `hlo run
--dump-values DIR`) the extracted module's inputs, taken from DIR, are written next to OUT as
OUT's name with `.inputs.npz` (arg0, arg1, ...), so that `hlo run OUT --inputs IN.npz` computes
INSTR's value again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import HloError
from ..replay.extract import extract_with_sources, values_of
from ..replay.load import load
from ..replay.npz import save
from ..replay.output import check_writable, write_output
from ..replay.values import read_dump


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("module", help="a module file: HLO text, .pb, .pbtxt, a snapshot, StableHLO")
    parser.add_argument("instruction", help="the instruction to extract (the new root)")
    parser.add_argument(
        "--height", type=int, help="keep this many levels of operands (0: operands become parameters)"
    )
    parser.add_argument("--computation", help="the computation holding the instruction (default: entry)")
    parser.add_argument("-o", "--output", help="write the module here (default: standard output)")
    parser.add_argument(
        "--values", metavar="DIR", help="a --dump-values directory: write the inputs next to OUT"
    )


def inputs_path(output: str) -> str:
    """Where `--values` writes the inputs: beside OUT, its name with `.inputs.npz`."""
    path = Path(output)
    return str(
        path.with_name(path.stem + ".inputs.npz")
        if path.suffix
        else path.with_name(path.name + ".inputs.npz")
    )


def run(args: argparse.Namespace) -> int:
    if args.values and not args.output:
        raise HloError("hlo extract: --values needs -o OUT (the inputs are written next to OUT)")
    if args.output:
        check_writable(args.output)
    loaded = load(args.module)
    try:
        extraction = extract_with_sources(loaded.module, args.instruction, args.height, args.computation)
    except HloError as e:
        if e.span is not None:
            raise
        raise HloError(f"{loaded.name}: {e.message}") from None
    arguments = values_of(extraction, read_dump(args.values), args.values) if args.values else None
    text = extraction.module.to_text()
    if not args.output:
        sys.stdout.write(text)
        return 0
    write_output(args.output, text)
    params = len(extraction.sources)
    print(f"wrote {args.output} ({params} parameter{'s' if params != 1 else ''})", file=sys.stderr)
    if arguments is not None:
        where = inputs_path(args.output)
        save(where, arguments, prefix="arg")
        print(f"wrote {where}: hlo run {args.output} --inputs {where}", file=sys.stderr)
    return 0
