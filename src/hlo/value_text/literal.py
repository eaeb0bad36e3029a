"""Literal text as XLA writes it: the one-line form inside `constant(...)` and the form with
shapes of custom-call `literal=` (spec: notes/xla_printer.md §7): what str() of a Literal gives.
Reading it back is hlo.text.literal_codec."""

from __future__ import annotations

import math

import numpy as np

from ..dtypes import PrimitiveType
from ..literal import Literal
from .elements import format_element, format_elements
from .shape import print_shape

_MAX_INLINE_ELEMENTS = 10  # XLA prints a constant's values only up to this many elements


def print_literal(lit: Literal, with_shape: bool = False) -> str:
    """XLA's Literal::PrintWithoutShapeOneline, or with `with_shape` PrintWithLayoutOneline
    (each array preceded by its shape and layout, as custom-call `literal=` prints it)."""
    if lit.is_tuple:
        return "( " + ", ".join(print_literal(e, with_shape) for e in lit.elements) + " )"
    prefix = print_shape(lit.shape, True) + " " if with_shape else ""
    if lit.is_elided:
        return prefix + "{...}"
    return prefix + _dense_text(lit.array, lit.element_type)


def print_constant_operand(lit: Literal, print_large_constants: bool) -> str:
    """What `constant(...)` holds: the values of arrays of at most 10 elements, or of anything
    with `print_large_constants`; `{...}` otherwise (so every tuple constant by default)."""
    small = lit.shape.is_array and lit.shape.element_count <= _MAX_INLINE_ELEMENTS
    if lit.is_elided or not (small or print_large_constants):
        return "{...}"
    return print_literal(lit)


def _dense_text(array: np.ndarray, ptype: PrimitiveType) -> str:
    """Braces and spacing of printer §7.2, built level by level from the innermost rows."""
    dims = array.shape
    rank = len(dims)
    if rank == 0:
        return format_element(array[()], ptype)

    def open_(level: int, group: int) -> str:
        if rank == 1:
            return "{"
        if level == rank - 1:
            return "{ " if dims[level] > 1 else "{"
        space = " " if dims[level] > 0 else ""
        if rank > 3 and level > 0:  # index comments past rank 3: /*i<dim>=<index>*/
            return f"{{ /*i{level - 1}={group % dims[level - 1]}*/{space}"
        return "{ "

    def close(level: int) -> str:
        if rank == 1 or (level == rank - 1 and dims[level] <= 1):
            return "}"
        return " }"

    if 0 in dims:  # nothing below the first empty dimension: its sub-arrays are all empty
        zero = dims.index(0)
        items = [open_(zero, g) + close(zero) for g in range(math.prod(dims[:zero]))]
        level = zero - 1
    else:
        items = format_elements(array, ptype)
        level = rank - 1
    while level >= 0:
        d = dims[level]
        items = [
            open_(level, g) + ", ".join(items[g * d : (g + 1) * d]) + close(level)
            for g in range(math.prod(dims[:level]))
        ]
        level -= 1
    return items[0]
