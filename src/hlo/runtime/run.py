"""Running a module: verify once, plan once, check the arguments, execute (DESIGN.md: the data
flows text/builder -> IR -> verifier -> plan -> kernels -> values)."""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..builder import XlaComputation
from ..errors import EvalError, HloError
from ..ir.module import Module
from ..numerics import entry_tier, threads
from ..numerics.context import RunOptions
from ..numerics.subnormals import flushing_subnormals
from ..numerics.values import as_argument
from ..verifier import verify
from . import allocator, blas_threads
from .plan import Plan, set_deadline
from .planner import PlanContext, plan_computation


class Executable:
    """A verified, planned module; call it with the entry's arguments."""

    def __init__(self, module: Module, options: RunOptions | None = None) -> None:
        verify(module)
        allocator.keep_freed_memory()  # one run's freed arrays reused by the next (runtime/allocator.py)
        self.module = module
        self.options = options or RunOptions()
        self.context = PlanContext(module, self.options)
        self.entry: Plan = plan_computation(module.entry, self.context)
        # Many instructions on small values: compiled once hot (one device in process only).
        self.compiled = entry_tier.for_entry(module, self.options, self.context.folded)
        self.planned_steps = self.entry.steps  # (instrumented steps run on the interpreter)

    def __call__(self, *args: Any, infeed: Any = None, outfeed: list[Any] | None = None) -> Any:
        """Run on `args`; `infeed` values feed infeed instructions in order, outfeed values are
        appended to the `outfeed` list."""
        values = self.arguments(args)
        state = self.context.state
        state.clear()
        state["infeed"] = deque(infeed or ())
        if outfeed is not None:
            state["outfeed"] = outfeed
        set_deadline(self.options.timeout)
        with (
            np.errstate(all="ignore"),
            flushing_subnormals(self.options.flush_denormals),
            threads.using(blas_threads.cores()),
        ):
            if self.compiled is not None and self.entry.steps is self.planned_steps:
                return self.compiled(values, self.entry)
            return self.entry(*values)

    def arguments(self, args: Sequence[Any]) -> list[Any]:
        entry = self.module.entry
        params = entry.parameter_shapes
        if len(args) != len(params):
            raise EvalError(
                f"{entry.name} takes {len(params)} argument{'s' if len(params) != 1 else ''} "
                f"({', '.join(str(s) for s in params)}): got {len(args)}"
            )
        return [
            as_argument(a, s, f"argument {k} ({p.name})")
            for k, (a, s, p) in enumerate(zip(args, params, entry.parameters))
        ]

    def run_devices(self, per_device: Sequence[Sequence[Any]], replicas: int, partitions: int) -> list[Any]:
        """One run per device, in threads meeting at collectives; the results in device order."""
        from ..ops.collective_groups import Devices
        from .replicas import Rendezvous, check_collectives, run_devices

        devices = Devices(replicas, partitions)
        check_collectives(self.module, devices)
        rendezvous = Rendezvous(devices)
        values = []
        for device, args in enumerate(per_device):
            try:
                values.append(self.arguments(args))
            except HloError as e:  # before any device starts: name the device whose arguments are wrong
                raise type(e)(f"device {device}: {e.message}", e.span) from None

        def one(device: int) -> Any:
            state = self.context.state
            state.clear()
            state.update(
                device=device, replica=device // partitions, partition=device % partitions,
                devices=devices, rendezvous=rendezvous, infeed=deque(),
            )  # fmt: skip
            set_deadline(self.options.timeout)
            with (
                np.errstate(all="ignore"),
                flushing_subnormals(self.options.flush_denormals),
                threads.using(blas_threads.cores() // devices.count),
            ):
                return self.entry(*values[device])

        with blas_threads.shared_by(devices.count):
            return run_devices(one, devices, rendezvous)

    def run_mpi(self, args: Sequence[Any], replicas: int, partitions: int, timeout: float = 300.0) -> Any:
        """This MPI rank's device (device = rank) of a run over `replicas x partitions` ranks."""
        from ..ops.collective_groups import Devices
        from .mpi import MpiRendezvous, comm_world

        comm = comm_world()
        rank, size = comm.Get_rank(), comm.Get_size()
        if size != replicas * partitions:
            raise HloError(
                f"the MPI backend runs one device per rank: {size} ranks for {replicas} replicas x "
                f"{partitions} partitions"
            )
        from .replicas import check_collectives

        check_device_counts(self.module, replicas, partitions)
        check_collectives(self.module, Devices(replicas, partitions))
        rendezvous = MpiRendezvous(comm, Devices(replicas, partitions), timeout)
        rendezvous.prepare(self.module)
        sharing = rendezvous.ranks_here()  # collective: before anything that may fail on one rank
        state = self.context.state
        state.clear()
        state.update(
            device=rank, replica=rank // partitions, partition=rank % partitions,
            devices=rendezvous.devices, rendezvous=rendezvous, infeed=deque(),
        )  # fmt: skip
        try:
            values = self.arguments(args)
            set_deadline(self.options.timeout)
            with (
                np.errstate(all="ignore"),
                blas_threads.shared_by(sharing),
                flushing_subnormals(self.options.flush_denormals),
                threads.using(blas_threads.cores() // sharing),
            ):
                result = self.entry(*values)
        except HloError as e:
            rendezvous.finish(rank, e.message)
            raise
        rendezvous.finish(rank, passed=state.get("collective_counts"))
        return result


# Devices in one process are threads with their own copies of every value: beyond this many
# a run is an accident (10**9 replicas would take the machine's memory before any error).
MAX_DEVICES = 4096

_CACHE: dict[int, tuple[weakref.ref[Module], Executable]] = {}


def compile_module(module: Module | XlaComputation, options: RunOptions | None = None) -> Executable:
    """The executable of a module (cached per module object and options)."""
    if isinstance(module, XlaComputation):
        module = module.module
    if not isinstance(module, Module):
        raise HloError(f"hlo.run takes an HloModule or an XlaComputation, not {type(module).__name__}")
    options = options or RunOptions()
    cached = _CACHE.get(id(module))
    if cached is not None and cached[0]() is module and cached[1].options == options:
        return cached[1]
    executable = Executable(module, options)
    key = id(module)
    _CACHE[key] = (weakref.ref(module, _forget(key)), executable)
    return executable


def _forget(key: int) -> Callable[[weakref.ref[Module]], None]:
    """A weakref callback dropping the cache entry of a module that is gone (and only that
    entry: a new module may reuse the id)."""

    def forget(ref: weakref.ref[Module]) -> None:
        cache = _CACHE  # None while the interpreter shuts down
        if cache is not None and key in cache and cache[key][0] is ref:
            del cache[key]

    return forget


def run(
    module: Module | XlaComputation,
    *args: Any,
    infeed: Any = None,
    outfeed: list[Any] | None = None,
    **options: Any,
) -> Any:
    """Run the entry computation on `args`: the result as a NumPy array of the exact result type
    (ml_dtypes for bf16, f8, int4), or a tuple of results. `options` are RunOptions fields;
    `infeed` is a sequence of values for infeed instructions, `outfeed` a list that receives
    what outfeed instructions send.

    Limits (RunOptions): `max_iterations` (default None here: a while loop may run for ever;
    `hlo run` stops one after 1,000,000 iterations), `timeout` (seconds for the whole run,
    default None), `memory_limit` (bytes one value may take; default None: half of the memory
    the process may use, `runtime`'s budget; 0: no check)."""
    replicas = options.pop("num_replicas", None)
    partitions = options.pop("num_partitions", None)
    try:
        run_options = RunOptions(**options)
    except TypeError:
        known = ", ".join(["num_replicas", "num_partitions", *RunOptions.__dataclass_fields__])
        raise HloError(f"hlo.run: unknown option among {sorted(options)}; the options are {known}") from None
    executable = compile_module(module, run_options)
    m = executable.module
    check_device_counts(m, replicas, partitions)
    replicas = m.config.replica_count if replicas is None else replicas
    partitions = m.config.num_partitions if partitions is None else partitions
    if not isinstance(replicas, int) or not isinstance(partitions, int) or replicas < 1 or partitions < 1:
        raise HloError(
            f"hlo.run: num_replicas and num_partitions must be positive ints: {replicas}, {partitions}"
        )
    count = replicas * partitions
    if count > MAX_DEVICES:
        raise HloError(
            f"hlo.run: {replicas} replicas x {partitions} partitions is {count} devices; in process each "
            f"is a thread, at most {MAX_DEVICES} (over MPI, one per rank)"
        )
    if count == 1:
        return executable(*args, infeed=infeed, outfeed=outfeed)
    return executable.run_devices(_per_device(args, count, len(m.entry.parameters)), replicas, partitions)


def _per_device(args: Sequence[Any], count: int, params: int) -> list[Sequence[Any]]:
    """One argument list per device: `run(m, [args0, args1, ...])` gives each device its own,
    `run(m, *args)` gives every device the same."""
    candidate = args[0] if len(args) == 1 and isinstance(args[0], list) and len(args[0]) == count else None
    if candidate is not None and all(
        isinstance(a, (list, tuple)) and (params != 1 or len(a) == 1) for a in candidate
    ):
        return list(candidate)
    return [args] * count


def check_device_counts(module: Module, replicas: int | None, partitions: int | None) -> None:
    """Device counts asked for must agree with the ones the module header states."""
    config = module.config
    for what, given, declared in (
        ("num_replicas", replicas, config.replica_count),
        ("num_partitions", partitions, config.num_partitions),
    ):
        if given is not None and declared > 1 and given != declared:
            header = "replica_count" if what == "num_replicas" else "num_partitions"
            raise HloError(f"hlo.run: {what}={given}, but the module's header says {header}={declared}")
