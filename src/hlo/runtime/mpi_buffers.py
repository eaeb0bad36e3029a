"""Collectives over MPI on raw buffers: the fast path of the MPI backend (runtime.mpi).

Each group of devices a collective uses gets a sub-communicator whose ranks are the group's
positions, made by every rank in the same order at the start of a run (`group_comms`) and kept
for later runs. Arrays travel as bytes, so every element type (ml_dtypes' narrow floats too)
moves unchanged. Reductions stay bit-exact with the in-process backend: integer reducers whose
result does not depend on the order (wrapping sums, max, bitwise) use MPI's own reductions; every
other reduction is a reduce-scatter by all-to-all, each member folding its slice of the group's
values in group order with the in-process fold, and an all-gather of the folded slices: the
traffic of MPI's ring all-reduce, with XLA:CPU's order of operations.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..ir.module import Module
from ..ops.collective_groups import Devices, Pattern, participants

Wait = Callable[[Any], None]

_MPI_OPS = {
    "sum": "SUM",
    "prod": "PROD",
    "max": "MAX",
    "min": "MIN",
    "and": "BAND",
    "or": "BOR",
    "xor": "BXOR",
}
_MPI_INTEGERS = {
    np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
}

_COMMS: dict[tuple[int, tuple[tuple[int, ...], ...]], Any] = {}
_PARTITIONS: dict[tuple[int, int, int], tuple[weakref.ref[Module], list[tuple[tuple[int, ...], ...]]]] = {}


def group_comms(comm: Any, module: Module, devices: Devices) -> dict[tuple[int, ...], Any]:
    """For every group (of two or more devices) that this rank shares with others in a collective
    of `module`, a communicator whose rank k is the group's k-th device. Collective over `comm`:
    every rank makes the same calls in the same order."""
    from mpi4py import MPI

    rank = comm.Get_rank()
    key = (id(module), devices.replicas, devices.partitions)
    cached = _PARTITIONS.get(key)
    if cached is None or cached[0]() is not module:
        _PARTITIONS.clear()  # one module at a time is the common case
        cached = _PARTITIONS[key] = (weakref.ref(module), _partitions(module, devices))
    comms: dict[tuple[int, ...], Any] = {}
    for partition in cached[1]:
        comm_key = (comm.py2f(), partition)
        if comm_key not in _COMMS:
            mine = [k for k, g in enumerate(partition) if rank in g]
            color = mine[0] if mine else MPI.UNDEFINED
            order = partition[mine[0]].index(rank) if mine else 0
            _COMMS[comm_key] = comm.Split(color, order)
        for group in partition:
            if rank in group:
                comms[group] = _COMMS[comm_key]
    return comms


def _partitions(module: Module, devices: Devices) -> list[tuple[tuple[int, ...], ...]]:
    """The distinct ways the module's collectives cut the devices into groups, in module order."""
    from ..ops.collective_groups import group_mode

    partitions: list[tuple[tuple[int, ...], ...]] = []
    for computation in module.computations:
        for instr in computation.instructions:
            groups_attr = instr.attrs.get("replica_groups")
            if groups_attr is None or instr.attrs.get("source_target_pairs") is not None:
                continue
            mode, groups = group_mode(instr), groups_attr.groups()
            found = {participants(devices, d, mode, groups, f"%{instr.name}") for d in range(devices.count)}
            partition = tuple(sorted(g for g in found if len(g) > 1))
            if partition and partition not in partitions:
                partitions.append(partition)
    return partitions


_SCRATCH: list[np.ndarray] = [np.empty(0, np.uint8)]


def _scratch(nbytes: int) -> np.ndarray:
    """A reused receive buffer of `nbytes` (one device per process: no other user), so large
    all-reduces do not fault in fresh pages every time."""
    if _SCRATCH[0].size < nbytes:
        _SCRATCH[0] = np.empty(nbytes, np.uint8)
    return _SCRATCH[0][:nbytes]


def _contiguous(a: np.ndarray) -> np.ndarray:
    """`a` in C order, its shape kept (np.ascontiguousarray makes a scalar 1-d)."""
    return a if a.flags.c_contiguous else a.copy(order="C")


def _bytes(a: np.ndarray) -> np.ndarray:
    """An array's memory as bytes (a copy in C order if it is not)."""
    return _contiguous(a).reshape(-1).view(np.uint8)


def _pieces(x: np.ndarray, n: int, dim: int) -> np.ndarray:
    """`x` cut in `n` equal pieces along `dim`, stacked first: shape (n, *piece), contiguous."""
    s = x.shape
    split = x.reshape(*s[:dim], n, s[dim] // n, *s[dim + 1 :])
    return np.ascontiguousarray(np.moveaxis(split, dim, 0))


def _joined(stacked: np.ndarray, dim: int) -> np.ndarray:
    """The inverse of cutting along `dim`: the pieces (stacked first) concatenated along `dim`."""
    if dim == 0:
        return stacked.reshape(-1, *stacked.shape[2:])
    return np.concatenate(list(stacked), axis=dim)


def run_pattern(comm: Any, pattern: Pattern, x: np.ndarray, wait: Wait) -> np.ndarray:
    """This member's result of `pattern` (not "permute") for array `x` over group comm `comm`."""
    n, me = comm.Get_size(), comm.Get_rank()
    x = _contiguous(x)
    kind = pattern.kind
    if kind == "broadcast":
        out = x if me == 0 else np.empty_like(x)
        if x.size:
            wait(comm.Ibcast(_bytes(out) if me == 0 else out.reshape(-1).view(np.uint8), root=0))
        return out
    if kind == "gather":
        stacked = np.empty((n, *x.shape), x.dtype)
        if x.size:
            wait(comm.Iallgather(_bytes(x), stacked.reshape(-1).view(np.uint8)))
        return _joined(stacked, pattern.dim)
    if kind == "all_to_all":
        sent = _pieces(x, n, pattern.dim)
        got = np.empty_like(sent)
        if x.size:
            wait(comm.Ialltoall(sent.reshape(-1).view(np.uint8), got.reshape(-1).view(np.uint8)))
        return _joined(got, pattern.dim)
    fold = pattern.fold
    assert fold is not None
    exact = _mpi_op(pattern, x.dtype)
    if kind == "reduce_scatter":
        sent = _pieces(x, n, pattern.dim)
        if exact is not None:
            out = np.empty(sent.shape[1:], x.dtype)
            wait(comm.Ireduce_scatter_block(sent, out, exact))
            return out
        got = np.empty_like(sent)
        if x.size:
            wait(comm.Ialltoall(sent.reshape(-1).view(np.uint8), got.reshape(-1).view(np.uint8)))
        return np.asarray(fold(list(got))).reshape(sent.shape[1:])
    if exact is not None:
        out = np.empty_like(x)
        wait(comm.Iallreduce(x, out, exact))
        return out
    return _folded_all_reduce(comm, x, fold, wait)


def _mpi_op(pattern: Pattern, dtype: np.dtype) -> Any:
    """MPI's reduction when it gives the in-process fold's bits (integers, order-free reducer)."""
    if pattern.exact is None or dtype not in _MPI_INTEGERS:
        return None
    from mpi4py import MPI

    return getattr(MPI, _MPI_OPS[pattern.exact])


def _folded_all_reduce(comm: Any, x: np.ndarray, fold: Callable[..., Any], wait: Wait) -> np.ndarray:
    """All-reduce as reduce-scatter + all-gather: member k folds slice k of every member's
    values in group order. Slices are equal (the tail padded): MPI's all-to-all with equal
    counts is several times faster than its `v` form."""
    from mpi4py import MPI

    n, me = comm.Get_size(), comm.Get_rank()
    flat = x.reshape(-1)
    size = flat.size
    if size == 0:
        return np.empty_like(x)
    chunk = -(-size // n)
    if size % n:
        flat = np.concatenate([flat, np.zeros(n * chunk - size, flat.dtype)])
    got = _scratch(n * chunk * flat.dtype.itemsize).view(flat.dtype).reshape(n, chunk)
    wait(comm.Ialltoall(flat.view(np.uint8), got.reshape(-1).view(np.uint8)))
    out = np.empty(n * chunk, flat.dtype)
    fold(list(got), out=out[me * chunk : (me + 1) * chunk])
    wait(comm.Iallgather(MPI.IN_PLACE, out.view(np.uint8)))
    return out[:size].reshape(x.shape)


def permute(
    comm: Any, tag: int, device: int, group: Sequence[int], pairs: Sequence[tuple[int, int]],
    arrays: Sequence[np.ndarray], wait: Wait,
) -> list[np.ndarray]:  # fmt: skip
    """Collective-permute over the world communicator: send to the devices this one's pairs
    target, receive from the one that targets it (zeros if none does)."""
    me, n = group.index(device), len(group)
    targets = [group[t] for s, t in pairs if s == me and t < n]
    sources = {t: s for s, t in pairs if s < n}
    source = group[sources[me]] if me in sources else None
    out = [np.zeros_like(a) if source is None else np.empty_like(a) for a in arrays]
    if source == device:
        out = [a.copy() for a in arrays]
    requests = []
    if source is not None and source != device:
        requests += [comm.Irecv(o.reshape(-1).view(np.uint8), source=source, tag=tag) for o in out if o.size]
    sent = [_bytes(a) for a in arrays]
    for t in targets:
        if t != device:
            requests += [comm.Isend(b, dest=t, tag=tag) for b in sent if b.size]
    for r in requests:
        wait(r)
    return out
