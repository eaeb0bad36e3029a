"""The runtime: runs verified HLO modules (plan once, then execute the kernels of hlo.ops) on one
device, on several devices in threads, or over MPI ranks."""

from ..numerics.context import RunOptions
from .run import Executable, compile_module, run

__all__ = ["Executable", "RunOptions", "compile_module", "run"]
