"""What the tests of the `hlo` command check of every failing command: one line on standard
error, no traceback."""

from __future__ import annotations

from typing import Any


def one_line_error(capsys: Any, nothing_on_stdout: bool = False) -> str:
    """The error the command printed, checked to be one line without a traceback (and, with
    `nothing_on_stdout`, that standard output stayed empty)."""
    captured = capsys.readouterr()
    err = str(captured.err).strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    if nothing_on_stdout:
        assert captured.out == ""
    return err
