"""Entry point of the `hlo` command: dispatches to the command modules. Every failure is one line
on standard error and exit status 1 (an `HloError`, a bad command line, a closed output pipe),
never a traceback; Ctrl-C ends with exit status 130."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from ..errors import HloError
from . import bisect, check, extract, fmt, graph, layout, memory, run

# name -> (add its arguments, run it and return the exit code)
COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "fmt": (fmt.add_arguments, fmt.run),
    "check": (check.add_arguments, check.run),
    "layout": (layout.add_arguments, layout.run),
    "run": (run.add_arguments, run.run),
    "graph": (graph.add_arguments, graph.run),
    "memory": (memory.add_arguments, memory.run),
    "extract": (extract.add_arguments, extract.run),
    "bisect": (bisect.add_arguments, bisect.run),
}


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    """argparse with its complaints raised, so they end as one line and status 1 (not 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def version() -> str:
    from .. import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="hlo", description="XLA's HLO in Python.")
    parser.add_argument("--version", action="version", version=f"hlo {version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for name, (add_arguments, _) in COMMANDS.items():
        doc = sys.modules[COMMANDS[name][1].__module__].__doc__ or ""
        add_arguments(sub.add_parser(name, help=doc.split("\n")[0], description=doc))
    try:
        args = parser.parse_args(argv)
        return COMMANDS[args.command][1](args)
    except (HloError, UsageError) as e:
        print(str(e), file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`hlo run M | head -1`): stop quietly, as other command-line tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("hlo: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug in hlo: one line, the traceback on request
        if os.environ.get("HLO_TRACEBACK"):
            raise
        print(f"hlo: internal error: {type(e).__name__}: {e} (HLO_TRACEBACK=1 shows where)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
