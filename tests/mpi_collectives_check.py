"""Run under `mpiexec -n 4` by tests/test_mpi.py: every collective fixture of XLA:CPU
(tests/golden/collectives.npz) and further modules (broadcast, tuple operands, exact integer
reducers, reducers MPI lacks, ragged and tuple all-to-all, sizes that do not split evenly) through
the MPI backend; each rank checks its device's result bit for bit against XLA:CPU's, or against the
in-process backend's. Rank 0 prints `checked N cases` or the failures; the exit code says which."""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np
from mpi4py import MPI

import hlo
from hlo.runtime.run import compile_module

FIXTURES = np.load(Path(__file__).parent / "golden" / "collectives.npz")

ADD = """
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}
"""


def reducer(name: str, t: str, op: str) -> str:
    return f"""
{name} {{
  a = {t}[] parameter(0)
  b = {t}[] parameter(1)
  ROOT r = {t}[] {op}(a, b)
}}
"""


# (module text, per-device argument maker)
EXTRA = {
    "broadcast_tuple_permute": (
        """HloModule m, replica_count=4

ENTRY e {
  x = f32[5,3] parameter(0)
  y = s8[7] parameter(1)
  b = f32[5,3] collective-broadcast(x), replica_groups={{2,0},{1,3}}
  c = s8[7] collective-broadcast(y), replica_groups={{2,0,1,3}}
  p = (f32[5,3], s8[7]) collective-permute(x, y), source_target_pairs={{0,0},{1,3},{3,2}}
  ROOT t = (f32[5,3], s8[7], (f32[5,3], s8[7])) tuple(b, c, p)
}
""",
        lambda d, rng: [
            rng.standard_normal((5, 3)).astype(np.float32),
            rng.integers(-128, 128, 7).astype(np.int8),
        ],
    ),
    "scalars": (
        "HloModule m, replica_count=4\n"
        + reducer("adds", "s32", "add")
        + reducer("addf", "f32", "add")
        + """
ENTRY e {
  x = s32[] parameter(0)
  y = f32[] parameter(1)
  s = s32[] all-reduce(x), replica_groups={}, to_apply=adds
  t = f32[] all-reduce(y), replica_groups={{1,2,3,0}}, to_apply=addf
  b = f32[] collective-broadcast(y), replica_groups={{3,2,1,0}}
  p = s32[] collective-permute(x), source_target_pairs={{0,1},{1,0}}
  ROOT o = (s32[], f32[], f32[], s32[]) tuple(s, t, b, p)
}
""",
        lambda d, rng: [np.int32(rng.integers(-1000, 1000)), np.float32(rng.standard_normal())],
    ),
    "exact_integer_reducers": (
        "HloModule m, replica_count=4\n"
        + reducer("mx", "u16", "maximum")
        + reducer("sum8", "s8", "add")
        + reducer("x64", "u64", "xor")
        + """
ENTRY e {
  a = u16[8,6] parameter(0)
  b = s8[13] parameter(1)
  c = u64[4] parameter(2)
  rs = u16[8,3] reduce-scatter(a), replica_groups={{0,1},{2,3}}, dimensions={1}, to_apply=mx
  ar = s8[13] all-reduce(b), replica_groups={}, to_apply=sum8
  ax = u64[4] all-reduce(c), replica_groups={{0,2,3,1}}, to_apply=x64
  ROOT t = (u16[8,3], s8[13], u64[4]) tuple(rs, ar, ax)
}
""",
        lambda d, rng: [
            rng.integers(0, 1 << 16, (8, 6)).astype(np.uint16),
            rng.integers(-128, 128, 13).astype(np.int8),
            rng.integers(0, 1 << 63, 4, dtype=np.uint64) * 2 + 1,
        ],
    ),
    "folded_floats": (
        "HloModule m, replica_count=4\n"
        + reducer("addh", "f16", "add")
        + reducer("mxb", "bf16", "maximum")
        + reducer("mulc", "c64", "multiply")
        + """
sub {
  a = f64[] parameter(0)
  b = f64[] parameter(1)
  d = f64[] subtract(a, b)
  ROOT r = f64[] multiply(d, a)
}

ENTRY e {
  a = f16[1001] parameter(0)
  b = bf16[6,4] parameter(1)
  c = c64[5] parameter(2)
  d = f64[3,2] parameter(3)
  ah = f16[1001] all-reduce(a), replica_groups={}, to_apply=addh
  b2 = bf16[6,4] negate(b)
  tb = (bf16[6,4], bf16[6,4]) all-reduce(b, b2), replica_groups={{3,1,0,2}}, to_apply=mxb
  cm = c64[5] all-reduce(c), replica_groups={}, to_apply=mulc
  ds = f64[3,2] all-reduce(d), replica_groups={{1,0},{3,2}}, to_apply=sub
  rs = bf16[6,1] reduce-scatter(b), replica_groups={}, dimensions={1}, to_apply=mxb
  ROOT t = (f16[1001], (bf16[6,4], bf16[6,4]), c64[5], f64[3,2], bf16[6,1]) tuple(ah, tb, cm, ds, rs)
}
""",
        lambda d, rng: [
            (rng.standard_normal(1001) * 1000).astype(np.float16),
            np.where(rng.random((6, 4)) < 0.2, np.nan, rng.standard_normal((6, 4))).astype(
                ml_dtypes.bfloat16
            ),
            (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(np.complex64),
            rng.standard_normal((3, 2)),
        ],
    ),
    "gathers_and_all_to_alls": (
        """HloModule m, replica_count=4

ENTRY e {
  x = f32[4,6] parameter(0)
  z = f32[0,3] parameter(1)
  g = f32[4,24] all-gather(x), replica_groups={}, dimensions={1}
  a = f32[4,6] all-to-all(x), replica_groups={{1,3},{0,2}}, dimensions={1}
  t = (f32[4,6], f32[4,6]) all-to-all(x, x), replica_groups={{0,1},{2,3}}
  e = f32[0,12] all-gather(z), replica_groups={}, dimensions={1}
  ROOT r = (f32[4,24], f32[4,6], (f32[4,6], f32[4,6]), f32[0,12]) tuple(g, a, t, e)
}
""",
        lambda d, rng: [rng.standard_normal((4, 6)).astype(np.float32), np.zeros((0, 3), np.float32)],
    ),
    "ragged_all_to_all": (
        """HloModule m, replica_count=4

ENTRY e {
  x = f32[8] parameter(0)
  o = f32[8] parameter(1)
  io = s32[4] parameter(2)
  ss = s32[4] parameter(3)
  oo = s32[4] parameter(4)
  rs = s32[4] parameter(5)
  ROOT r = f32[8] ragged-all-to-all(x, o, io, ss, oo, rs), replica_groups={}
}
""",
        lambda d, rng: [
            np.arange(8, dtype=np.float32) + 10 * d,
            np.full(8, -1, np.float32),
            np.array([0, 2, 4, 6], np.int32),
            np.array([2, 2, 2, 2], np.int32),
            np.array([2 * d] * 4, np.int32),
            np.array([2, 2, 2, 2], np.int32),
        ],
    ),
    "partition_groups_in_a_loop": (
        "HloModule m, replica_count=2, num_partitions=2\n"
        + ADD
        + """
cond {
  s = (s32[], f32[3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT c = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[3]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[3] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  r = f32[3] all-reduce(v), channel_id=1, replica_groups={{0},{1}}, to_apply=add
  p = f32[3] collective-permute(r), channel_id=2, source_target_pairs={{0,1},{1,0}}
  ROOT t = (s32[], f32[3]) tuple(j, p)
}

ENTRY e {
  x = f32[3] parameter(0)
  z = s32[] constant(0)
  init = (s32[], f32[3]) tuple(z, x)
  ROOT w = (s32[], f32[3]) while(init), condition=cond, body=body
}
""",
        lambda d, rng: [rng.standard_normal(3).astype(np.float32)],
    ),
}


def leaves(value: object) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in leaves(v)]
    return [np.asarray(value)]


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return got.tobytes() == want.tobytes()


def main() -> int:
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    failures: list[str] = []
    checked = 0
    cases = sorted({int(k.split("_")[0][4:]) for k in FIXTURES.files})
    for k in cases:
        text = str(FIXTURES[f"case{k}_hlo"])
        dtype = str(FIXTURES[f"case{k}_dtype"])
        replicas, partitions = int(FIXTURES[f"case{k}_replicas"]), int(FIXTURES[f"case{k}_partitions"])
        if replicas * partitions != size:
            continue

        def decode(a: np.ndarray, dtype: str = dtype) -> np.ndarray:
            return a.view(ml_dtypes.bfloat16) if dtype == "bf16" else a

        executable = compile_module(hlo.parse_module(text))
        got = executable.run_mpi([decode(FIXTURES[f"case{k}_in{rank}"])], replicas, partitions, 60)
        if not same_bits(np.asarray(got), decode(FIXTURES[f"case{k}_out{rank}"])):
            failures.append(f"fixture case {k} on rank {rank}: got {got}")
        checked += 1
    for name, (text, make) in EXTRA.items():
        module = hlo.parse_module(text, f"{name}.hlo")
        replicas, partitions = module.config.replica_count, module.config.num_partitions
        args = [make(d, np.random.default_rng(d)) for d in range(size)]
        threads = hlo.run(module, args, num_replicas=replicas, num_partitions=partitions)
        got = compile_module(module).run_mpi(args[rank], replicas, partitions, 60)
        want = leaves(threads[rank])
        mine = leaves(got)
        if len(mine) != len(want) or not all(map(same_bits, mine, want)):
            failures.append(f"{name} on rank {rank}: got {mine}, in process {want}")
        checked += 1
    everything = comm.gather(failures, root=0)
    if rank == 0:
        found = [f for fs in everything for f in fs]
        print("\n".join(found) if found else f"checked {checked} cases")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
