"""Print an HLO module in XLA's canonical text (long form by default), or convert it.

The module may be HLO text, an HloModuleProto or HloProto (binary `.pb` or text `.pbtxt`) or an
HloSnapshot; the content tells which. `--short` prints XLA's short parsable form (no %, no operand
shapes, no metadata); `--form` names any other form (default, canonical, fingerprint). `--to pb`
or `--to pbtxt` writes the module as an HloModuleProto (binary or text format) instead, `-o FILE`
writes to a file. A module that fails verification is printed, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import HloError
from ..replay.load import load
from ..replay.output import write_output
from ..text.print_options import FORMS
from ..verifier import verify


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "module", help="a module file: HLO text, .pb, .pbtxt, a snapshot ('-' reads standard input)"
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--long", dest="form", action="store_const", const="long", help="the long form (default)"
    )
    group.add_argument("--short", dest="form", action="store_const", const="short", help="the short form")
    group.add_argument("--form", dest="form", choices=sorted(FORMS), help="any printer form")
    parser.add_argument("--to", choices=("text", "pb", "pbtxt"), default="text", help="the output format")
    parser.add_argument("-o", "--output", help="write to this file instead of standard output")
    parser.set_defaults(form="long")


def run(args: argparse.Namespace) -> int:
    loaded = load(args.module)
    if args.to == "text":
        data: bytes | str = loaded.module.to_text(args.form)
    else:
        from ..proto.writer import module_to_proto_bytes

        data = module_to_proto_bytes(loaded, args.to == "pbtxt")
    if args.output:
        write_output(args.output, data)
        print(f"wrote {args.output} ({args.to})", file=sys.stderr)
    elif isinstance(data, bytes):
        if sys.stdout.isatty():
            raise HloError("hlo fmt --to pb: binary output; give -o FILE or redirect standard output")
        sys.stdout.buffer.write(data)
    else:
        print(data, end="")
    errors = verify(loaded.module, all_errors=False)
    for e in errors[:1]:
        print(str(e) if e.span is not None else f"{loaded.name}: {e}", file=sys.stderr)
    return 1 if errors else 0
