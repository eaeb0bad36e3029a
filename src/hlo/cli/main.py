"""Entry point of the `hlo` command: dispatches to the command modules; an `HloError` is printed
as a diagnostic and exits 1, never as a traceback."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from ..errors import HloError
from . import check, fmt, layout, run

# name -> (add its arguments, run it and return the exit code)
COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "fmt": (fmt.add_arguments, fmt.run),
    "check": (check.add_arguments, check.run),
    "layout": (layout.add_arguments, layout.run),
    "run": (run.add_arguments, run.run),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hlo", description="XLA's HLO in Python.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (add_arguments, _) in COMMANDS.items():
        doc = sys.modules[COMMANDS[name][1].__module__].__doc__ or ""
        add_arguments(sub.add_parser(name, help=doc.split("\n")[0], description=doc))
    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command][1](args)
    except HloError as e:
        print(str(e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
