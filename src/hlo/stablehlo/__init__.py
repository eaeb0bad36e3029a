"""StableHLO in: MLIR text as JAX (`jax.jit(f).lower(x).as_text()`), PyTorch/XLA and TensorFlow
export it, read into the same IR the HLO text parser gives (named and laid out as XLA's own
StableHLO -> HLO conversion), so that verify, run, fmt and memory work on it."""

from __future__ import annotations

import re

from ..ir.module import Module
from .convert import convert_module
from .cursor import Cursor, StableHloError
from .parser import parse_mlir

_MLIR_START = re.compile(
    r"\s*(?:(?://[^\n]*|#[\w$.\-]+\s*=[^\n]*)\s*)*(?:module\b|func\.func\b|\"builtin\.module\"|\"func\.func\")"
)


def looks_like_stablehlo(text: str) -> bool:
    """Whether `text` is MLIR (a `module`, a `func.func`, possibly after comments and alias
    definitions) rather than HLO text (`HloModule ...`)."""
    return _MLIR_START.match(text) is not None


def parse_stablehlo(text: str, filename: str = "<string>") -> Module:
    """The StableHLO module in `text` as an hlo Module (raises StableHloError, a ParseError,
    with `file:line:col` for text it cannot read or ops HLO cannot express)."""
    cursor = Cursor(text, filename)
    mlir = parse_mlir(text, filename)
    return convert_module(mlir, cursor)


__all__ = ["StableHloError", "looks_like_stablehlo", "parse_stablehlo"]
