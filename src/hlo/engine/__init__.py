"""The engine: runs HLO modules on NumPy (plan once, then execute the kernels of hlo.ops)."""

from .plan import KernelContext, Plan, RunOptions
from .run import Executable, compile_module, run
from .values import TOKEN

__all__ = ["TOKEN", "Executable", "KernelContext", "Plan", "RunOptions", "compile_module", "run"]
