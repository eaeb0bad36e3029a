"""Print an HLO module in XLA's canonical text (long form by default).

`--short` prints XLA's short parsable form (no %, no operand shapes, no metadata); `--form` names
any other form (default, canonical, fingerprint).
"""

from __future__ import annotations

import argparse

from ..text.print_options import FORMS
from .textfiles import parse_module, read_text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("module", help="an HLO text file ('-' reads standard input)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--long", dest="form", action="store_const", const="long", help="the long form (default)"
    )
    group.add_argument("--short", dest="form", action="store_const", const="short", help="the short form")
    group.add_argument("--form", dest="form", choices=sorted(FORMS), help="any printer form")
    parser.set_defaults(form="long")


def run(args: argparse.Namespace) -> int:
    text, name = read_text(args.module)
    print(parse_module(text, name).to_text(args.form), end="")
    return 0
