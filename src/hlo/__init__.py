"""hlo: XLA's HLO in Python: shapes, layouts and physical memory, the HLO text format, every
operation's shape rule, and an engine that runs HLO modules on NumPy."""

from . import ops
from .builder import XlaBuilder, XlaComputation, XlaOp
from .dtypes import PrimitiveType
from .errors import CollectiveError, EvalError, HloError, ParseError, ShapeError, VerifyError
from .interop import from_jax
from .ir.computation import Computation
from .ir.instruction import Instruction
from .ir.module import Module
from .ir.opcode import Opcode
from .layout import COMBINE_DIMENSION, Layout, PaddingValue, SplitConfig, Tile
from .literal import Literal
from .memory import byte_size, linear_index, multi_index
from .ops.custom_call_targets import register_c_custom_call, register_custom_call
from .physical_bytes import from_physical, to_physical
from .replay.load import load
from .runtime import Executable, RunOptions, compile_module, run
from .shape import UNBOUNDED, Shape
from .stablehlo import looks_like_stablehlo, parse_stablehlo
from .text.parser import ParseOptions, parse_module
from .text.print_options import PrintOptions
from .text.shape_codec import parse_layout, parse_shape
from .verifier import verify


def _version() -> str:
    """The installed distribution's version, so `hlo.__version__`, `hlo --version` and pip agree;
    a source tree that was never installed says so rather than guessing."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hlo")
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":  # looked up when asked: importlib.metadata costs ~10 ms to import
        return _version()
    raise AttributeError(f"module 'hlo' has no attribute {name!r}")

HloModule = Module

__all__ = [
    "COMBINE_DIMENSION",
    "UNBOUNDED",
    "CollectiveError",
    "Computation",
    "EvalError",
    "Executable",
    "HloError",
    "HloModule",
    "Instruction",
    "Layout",
    "Literal",
    "Module",
    "Opcode",
    "PaddingValue",
    "ParseError",
    "ParseOptions",
    "PrimitiveType",
    "PrintOptions",
    "RunOptions",
    "Shape",
    "ShapeError",
    "SplitConfig",
    "Tile",
    "VerifyError",
    "XlaBuilder",
    "XlaComputation",
    "XlaOp",
    "__version__",
    "byte_size",
    "compile_module",
    "from_jax",
    "from_physical",
    "linear_index",
    "load",
    "looks_like_stablehlo",
    "multi_index",
    "ops",
    "parse_layout",
    "parse_module",
    "parse_shape",
    "parse_stablehlo",
    "register_c_custom_call",
    "register_custom_call",
    "run",
    "to_physical",
    "verify",
]
