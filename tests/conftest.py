"""Shared test helpers: the conformance data copied from XLA's tests (tests/conformance/)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from hlo import COMBINE_DIMENSION, UNBOUNDED, Layout, PrimitiveType, Shape, SplitConfig, Tile, dtypes
from hlo.text.shape_codec import parse_shape

CONFORMANCE = Path(__file__).parent / "conformance"

# The fixtures' XLA:CPU ran with 2 threads in its pool, which decides how it cuts long float sums
# (hlo.numerics.threads.xla_threads): the same on any machine the tests run on.
os.environ.setdefault("HLO_XLA_THREADS", "2")


def load(name: str, kind: str | None = None) -> list[dict[str, Any]]:
    """The rows of a conformance .jsonl file (e.g. 'layout/tiling'), optionally of one kind."""
    rows = [json.loads(line) for line in (CONFORMANCE / f"{name}.jsonl").read_text().splitlines() if line]
    return [r for r in rows if kind is None or r.get("kind") == kind]


def cases(name: str, kind: str | None = None) -> Any:
    """pytest parameters for the rows of a conformance file, with readable ids."""
    rows = load(name, kind)
    return pytest.mark.parametrize(
        "row",
        rows,
        ids=[
            f"{i}-{r.get('name') or r.get('shape') or r.get('text') or ''}"[:80] for i, r in enumerate(rows)
        ],
    )


def ptype(name: str) -> PrimitiveType:
    t = dtypes.from_text(name)
    assert t is not None, name
    return t


def structured_layout(d: dict[str, Any]) -> Layout:
    return Layout(
        tuple(d["minor_to_major"]),
        tiles=tuple(Tile(tuple(COMBINE_DIMENSION if x == "*" else x for x in t)) for t in d.get("tiles", [])),
        tail_padding_alignment_in_elements=d.get("tail_padding_alignment_in_elements", 1),
        index_primitive_type=ptype(d["index_primitive_type"]) if "index_primitive_type" in d else None,
        pointer_primitive_type=ptype(d["pointer_primitive_type"]) if "pointer_primitive_type" in d else None,
        element_size_in_bits=d.get("element_size_in_bits", 0),
        memory_space=d.get("memory_space", 0),
        split_configs=tuple(
            SplitConfig(s["dimension"], tuple(s["split_indices"])) for s in d.get("split_configs", [])
        ),
        physical_shape=parse_shape(d["physical_shape"]) if "physical_shape" in d else None,
        dynamic_shape_metadata_prefix_bytes=d.get("dynamic_shape_metadata_prefix_bytes", 0),
    )


def structured_shape(d: dict[str, Any]) -> Shape:
    """A Shape from the conformance files' structured form (see tests/conformance/README.md)."""
    if "tuple" in d:
        return Shape.make_tuple(structured_shape(s) for s in d["tuple"])
    if "buffer" in d:
        return Shape.buffer(structured_shape(d["buffer"]))
    et = ptype(d["element_type"])
    if not et.is_array_type:
        return Shape(et)
    dims = tuple(UNBOUNDED if x == "?" else x for x in d["dimensions"])
    layout = structured_layout(d["layout"]) if "layout" in d else None
    return Shape(et, dims, tuple(d.get("dynamic_dimensions", ())), layout)


def mpiexec_or_skip() -> str:
    """The mpiexec of the mpich wheel (beside this Python) or on PATH; skips the calling test
    module when there is none."""
    import os
    import shutil
    import sys

    pytest.importorskip("mpi4py")
    found = shutil.which(
        "mpiexec", path=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    )
    if found is None:
        pytest.skip(
            "no mpiexec (install the mpi extra: mpi4py with the mpich wheel)", allow_module_level=True
        )
    return found
