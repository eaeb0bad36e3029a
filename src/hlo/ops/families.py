"""Imports every op family so that each registers its ops."""

from . import (  # noqa: F401
    batch_norm,
    collectives,
    compare,
    conditional,
    control_flow,
    convolution,
    convolution_builders,
    custom_call,
    custom_call_builders,
    dot,
    elementwise,
    gather,
    io,
    linalg,
    map_op,
    ragged_dot,
    reduce,
    reduce_window,
    rng,
    scaled_dot,
    scan,
    scatter,
    shape_ops,
    sort,
    tuple_ops,
)

# isort: split
# The collectives' kernels, imported after the ops they run are defined.
from . import collective_kernels, collective_move_kernels  # noqa: F401
