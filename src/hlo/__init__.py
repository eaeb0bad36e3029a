"""hlo: XLA's HLO in Python: shapes, layouts and physical memory, the HLO text format, every
operation's shape rule, and an engine that runs HLO modules on NumPy."""

from .dtypes import PrimitiveType
from .errors import CollectiveError, EvalError, HloError, ParseError, ShapeError, VerifyError
from .layout import COMBINE_DIMENSION, Layout, PaddingValue, SplitConfig, Tile
from .memory import byte_size, from_physical, linear_index, multi_index, to_physical
from .shape import UNBOUNDED, Shape
from .text.shape_codec import parse_layout, parse_shape

__all__ = [
    "COMBINE_DIMENSION",
    "UNBOUNDED",
    "CollectiveError",
    "EvalError",
    "HloError",
    "Layout",
    "PaddingValue",
    "ParseError",
    "PrimitiveType",
    "Shape",
    "ShapeError",
    "SplitConfig",
    "Tile",
    "VerifyError",
    "byte_size",
    "from_physical",
    "linear_index",
    "multi_index",
    "parse_layout",
    "parse_shape",
    "to_physical",
]
