"""Coverage-guided fuzzing of hlo's input surfaces with atheris (a dev tool, never imported by
the package; `pip install atheris`).

Each input is one byte that picks the target and the rest as text: a shape, a layout, or an HLO
module that is parsed, verified, printed, re-parsed and (when small) run. The promise checked is
the one hlo makes to users: every input gives a result or an `hlo` error (an HloError); any other
exception, a hang (libFuzzer's -timeout) or an out-of-memory kill (-rss_limit_mb) is a finding.
The seed corpus is the real dumps of tests/golden/dumps plus shape and layout strings.

    python tools/fuzz_atheris.py -max_total_time=1800 -timeout=30 -rss_limit_mb=3000 CORPUS_DIR

Findings are written by libFuzzer as crash-* files; each one fixed is kept as a regression case
in tests/test_hardening*.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

with atheris.instrument_imports():
    import numpy as np

    import hlo
    from hlo.cli.run import random_value
    from hlo.errors import HloError
    from hlo.text.shape_codec import parse_layout

SHAPES = (
    "f32[3,5]{1,0:T(2,2)}", "bf16[8,128]{1,0:T(8,128)(2,1)S(1)}", "(f32[2], s32[<=4])",
    "s4[9]{0:T(2)E(4)}", "pred[1000]{0:T(1024)(32)(4,1)}", "f32[?,3]", "token[]",
)  # fmt: skip
LIMITS: dict[str, float] = {"max_iterations": 1000, "memory_limit": 64 << 20, "timeout": 10.0}
MAX_ELEMENTS = 1 << 16


def small(module: hlo.Module) -> bool:
    """Whether every array of the module is small enough to run it in the fuzz loop."""
    for comp in module.computations:
        for instr in comp.instructions:
            for leaf in _leaves(instr.shape):
                if leaf.is_array and _elements(leaf) > MAX_ELEMENTS:
                    return False
    return True


def _leaves(shape: hlo.Shape) -> list[hlo.Shape]:
    if shape.is_tuple:
        return [leaf for s in shape.tuple_shapes for leaf in _leaves(s)]
    return [shape]


def _elements(shape: hlo.Shape) -> int:
    n = 1
    for d in shape.dimensions:
        n *= max(d, 1)
    return n


def one(data: bytes) -> None:
    if not data:
        return
    target, text = data[0] % 4, data[1:].decode("utf-8", "replace")
    try:
        if target == 0:
            s = hlo.parse_shape(text)
            hlo.parse_shape(str(s))
            if s.is_array and _elements(s) <= MAX_ELEMENTS:
                hlo.byte_size(s)
        elif target == 1:
            parse_layout(text)
        else:
            m = hlo.parse_module(text, "fuzz.hlo")
            printed = m.to_text()
            hlo.parse_module(printed, "printed.hlo")
            hlo.verify(m)
            if target == 3 and small(m) and m.config.replica_count * m.config.num_partitions <= 4:
                rng = np.random.default_rng(0)
                args = [random_value(s, rng) for s in m.entry.parameter_shapes]
                hlo.run(m, *args, **LIMITS)
    except HloError:
        pass


def seeds(corpus: Path) -> None:
    """Fill an empty corpus directory with the golden dumps and the shape strings."""
    if any(corpus.iterdir()):
        return
    dumps = Path(__file__).resolve().parent.parent / "tests" / "golden" / "dumps"
    for k, path in enumerate(sorted(dumps.glob("*.hlo"))):
        (corpus / f"dump{k}").write_bytes(bytes([2 + k % 2]) + path.read_bytes())
    for k, s in enumerate(SHAPES):
        (corpus / f"shape{k}").write_bytes(b"\0" + s.encode())
        (corpus / f"layout{k}").write_bytes(b"\1" + s[s.find("{") + 1 : -1].encode())


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        if not arg.startswith("-") and Path(arg).is_dir():
            seeds(Path(arg))
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()
