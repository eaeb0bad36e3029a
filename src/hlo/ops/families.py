"""Imports every op family so that each registers its ops."""

from . import (  # noqa: F401
    called_kernels,
    collectives,
    control_flow,
    convolution,
    custom_call,
    dot,
    elementwise,
    gather_scatter,
    io,
    linalg,
    reduce,
    rng,
    shape_ops,
    tuple_ops,
)
