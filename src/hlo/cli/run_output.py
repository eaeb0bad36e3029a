"""How `hlo run` gives its results: the leaves of a result, depth first, written to an `.npz` as
out0, out1, ... or printed in XLA's literal text (large values summarized), and arguments shown."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from ..literal import Literal
from ..replay.npz import save
from ..replay.values import SUMMARY_THRESHOLD, summary
from ..shape import Shape
from ..text.literal_codec import print_literal
from .examples import Example, inputs_origin


def report(args: argparse.Namespace, module: Any, name: str, result: Any, device: int | None) -> None:
    """The results of one device (`device` None: of the only one): saved with --output (one file
    unless its path has `{device}`: the first device's), printed as XLA literals otherwise or with
    --print, large values summarized unless --print-full."""
    leaves = list(flatten(result))
    if args.output:
        path = args.output.replace("{device}", str(device)) if device is not None else args.output
        if device is not None and "{device}" not in args.output and device > 0:
            return  # one output file: the first device's results
        save(path, leaves)
        print(f"wrote {path} ({len(leaves)} output{'s' if len(leaves) != 1 else ''})", file=sys.stderr)
    if args.print or not (args.output or args.compare or args.reference or getattr(args, "snapshot", False)):
        where = f" device {device}" if device is not None else ""
        print(f"{name}{where}: {len(leaves)} result{'s' if len(leaves) != 1 else ''}")
        example: Example | None = getattr(args, "example_info", None)
        if example is not None:
            print(f"  from {example.program}")
            print(f"  inputs: {inputs_origin(args, device or 0)}")
        for k, (value, shape) in enumerate(zip(leaves, flatten_shape(module.entry.root.shape))):
            label = f"out{k} ({example.outputs[k]})" if example is not None else f"out{k}"
            if value.size > SUMMARY_THRESHOLD and not args.print_full:
                print(f"{label}: {shape.to_string(print_layout=False)} {summary(value)}")
                continue
            literal = print_literal(Literal(_static(shape, value), value))
            print(f"{label}: {shape.to_string(print_layout=False)} {literal}")


def show(value: Any, full: bool) -> str:
    """A value (an argument) as --print-args shows it: dtype, shape and the elements, or a summary."""
    if isinstance(value, tuple):
        return "(" + ", ".join(show(v, full) for v in value) + ")"
    array = np.asarray(value)
    if array.size > SUMMARY_THRESHOLD and not full:
        return summary(array)
    return f"{array.dtype}{list(array.shape)} " + np.array2string(array, threshold=array.size + 1)


def _static(shape: Shape, value: np.ndarray) -> Shape:
    return Shape.array(shape.element_type, value.shape)


def flatten(value: Any) -> Any:
    """The leaves of a result, depth first (the order of out0, out1, ...)."""
    if isinstance(value, tuple):
        for v in value:
            yield from flatten(v)
    elif isinstance(value, (np.ndarray, np.generic)):
        yield np.asarray(value)  # a NumPy scalar is a 0-d result, never dropped


def flatten_shape(shape: Shape) -> Any:
    """The array shapes of a result shape's leaves, in the order of `flatten`."""
    if shape.is_tuple:
        for s in shape.tuple_shapes:
            yield from flatten_shape(s)
    elif shape.is_array:
        yield shape
