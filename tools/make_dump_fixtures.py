"""Make tests/golden/dumps_proto/: what XLA really dumps for a few jax programs, and the golden text
corpus (tests/golden/dumps/*.hlo) as XLA's own HloModuleProtos. Dev only: needs jax (dev extra).

    python tools/make_dump_fixtures.py

1. Each program in PROGRAMS runs under
   XLA_FLAGS="--xla_dump_to=DIR --xla_dump_hlo_as_proto --xla_dump_hlo_as_text --xla_dump_hlo_snapshots"
   (set before jax is imported), and a selection of DIR is copied as `<program>.<suffix>`:
   before_optimizations.{txt,hlo.pb}, cpu_after_optimizations.{txt,hlo.pb}, snapshot.pb (an
   HloSnapshot: the optimized module, the arguments and the result of the run; for `loop` also
   the HloUnoptimizedSnapshot of --xla_dump_hlo_unoptimized_snapshots),
   buffer-assignment.txt and memory-usage-report.txt. One module is also written in protobuf
   text format (`.pbtxt`) and one truncated (`.truncated.pb`) for the error tests.
2. For every `tests/golden/dumps/*.hlo` and `tests/golden/sharded/*.hlo`, XLA parses the text and
   serializes its HloModuleProto (`corpus/<name>.hlo.pb`); the tests check that hlo reads each
   back to the text XLA printed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DUMP = Path(tempfile.mkdtemp(prefix="xla_dump_"))
# With --xla_dump_hlo_unoptimized_snapshots XLA dumps nothing else: that run is a second process.
UNOPTIMIZED = sys.argv[1:2] == ["--unoptimized"]
os.environ["XLA_FLAGS"] = f"--xla_dump_to={DUMP} " + (
    "--xla_dump_hlo_unoptimized_snapshots"
    if UNOPTIMIZED
    else "--xla_dump_hlo_as_proto --xla_dump_hlo_as_text --xla_dump_hlo_snapshots"
)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax._src.lib import xla_client as xc  # noqa: E402  (private: pinned jax in the dev extra)

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "golden" / "dumps_proto"
SUFFIXES = {
    "before_optimizations.txt": "before.txt",
    "before_optimizations.hlo.pb": "before.hlo.pb",
    "cpu_after_optimizations.txt": "after.txt",
    "cpu_after_optimizations.hlo.pb": "after.hlo.pb",
    "cpu_after_optimizations-buffer-assignment.txt": "buffer-assignment.txt",
    "cpu_after_optimizations-memory-usage-report.txt": "memory-usage-report.txt",
}


def mlp(params: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    def loss(p: dict[str, jax.Array]) -> jax.Array:
        h = jnp.tanh(x @ p["w1"] + p["b1"])
        return jnp.mean((h @ p["w2"] - y) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    return value, grads["w1"]


def loop(x: jax.Array, n: jax.Array) -> jax.Array:
    def body(i: jax.Array, acc: jax.Array) -> jax.Array:
        piece = jnp.sin(lax.dynamic_slice(acc, (i,), (1,))) + 1.0
        return lax.dynamic_update_slice(acc, piece, (i,)) * 0.9

    return lax.fori_loop(0, n, body, x)


def gather_sort(table: jax.Array, idx: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    rows = table[idx]
    order = jnp.argsort(rows[:, 0])
    return rows[order], jnp.sort(table, axis=0), lax.top_k(table[:, 1], 3)[0]


def programs() -> dict[str, tuple[object, tuple[object, ...]]]:
    rng = np.random.default_rng(7)
    f32 = np.float32
    params = {
        "w1": rng.standard_normal((4, 8)).astype(f32), "b1": rng.standard_normal(8).astype(f32),
        "w2": rng.standard_normal((8, 2)).astype(f32),
    }  # fmt: skip
    return {
        "mlp": (
            mlp,
            (params, rng.standard_normal((3, 4)).astype(f32), rng.standard_normal((3, 2)).astype(f32)),
        ),
        "loop": (loop, (rng.standard_normal(6).astype(f32), np.int32(5))),
        "gather_sort": (
            gather_sort,
            (rng.standard_normal((6, 3)).astype(f32), np.array([4, 0, 5, 2], np.int32)),
        ),
    }


def dump_programs() -> None:
    for name, (fn, args) in programs().items():
        before = set(DUMP.iterdir())
        jax.block_until_ready(jax.jit(fn)(*args))
        new = sorted(set(DUMP.iterdir()) - before)
        jit_name = f".jit_{fn.__name__}."  # type: ignore[attr-defined]
        for path in new:
            if jit_name not in path.name:
                continue
            rest = path.name.split(jit_name, 1)[1]
            if rest in SUFFIXES:
                shutil.copy(path, OUT / f"{name}.{SUFFIXES[rest]}")
            elif rest.startswith("snapshot.") and rest.endswith(".pb"):
                shutil.copy(path, OUT / f"{name}.snapshot.pb")
        print(name, "->", sorted(p.name for p in OUT.glob(f"{name}.*")))


def extras() -> None:
    from google.protobuf import text_format

    sys.path.insert(0, str(REPO / "src"))
    from hlo.proto import hlo_pb2

    proto = hlo_pb2.HloProto()
    proto.ParseFromString((OUT / "loop.before.hlo.pb").read_bytes())
    (OUT / "loop.before.pbtxt").write_text(text_format.MessageToString(proto.hlo_module))
    data = (OUT / "mlp.after.hlo.pb").read_bytes()
    (OUT / "mlp.truncated.pb").write_bytes(data[: len(data) // 2])


def corpus() -> None:
    (OUT / "corpus").mkdir(exist_ok=True)
    for folder in ("dumps", "sharded"):
        for path in sorted((REPO / "tests" / "golden" / folder).glob("*.hlo")):
            module = xc.hlo.hlo_module_from_text(path.read_text())
            name = path.stem if folder == "dumps" else f"sharded.{path.stem}"
            (OUT / "corpus" / f"{name}.hlo.pb").write_bytes(module.as_serialized_hlo_module_proto())


def unoptimized_snapshot() -> None:
    """(In the second process) the loop program's HloUnoptimizedSnapshot."""
    fn, args = programs()["loop"]
    jax.block_until_ready(jax.jit(fn)(*args))
    (found,) = DUMP.glob("*.hlo_unoptimized_snapshot.pb")
    shutil.copy(found, OUT / "loop.unoptimized_snapshot.pb")
    shutil.rmtree(DUMP)


def main() -> None:
    # Source paths in metadata relative to the repository: the fixtures hold no machine paths.
    jax.config.update("jax_hlo_source_file_canonicalization_regex", "^" + re.escape(f"{REPO}/"))
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    dump_programs()
    subprocess.run([sys.executable, __file__, "--unoptimized"], check=True)
    extras()
    corpus()
    (OUT / "README.md").write_text(
        "Made by tools/make_dump_fixtures.py with jax "
        + jax.__version__
        + " on XLA:CPU; see its docstring.\n"
    )
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"{OUT.relative_to(REPO)}: {size / 1e6:.2f} MB")
    shutil.rmtree(DUMP)


if __name__ == "__main__":
    if UNOPTIMIZED:
        jax.config.update("jax_hlo_source_file_canonicalization_regex", "^" + re.escape(f"{REPO}/"))
        unoptimized_snapshot()
    else:
        main()
