"""The bundled modules of `hlo run --example NAME`.

Each is a jax program's HLO dump, `examples/NAME.hlo`, with `examples/NAME.json` beside it: what
it computes, which program made it, and a name for each output (the leaves of the result, depth
first). The names are data, not code, because XLA's HLO does not keep them: jax's result names
stay in its StableHLO and never reach the dump.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from importlib import resources

NAMES = ("cnn", "mlp", "transformer")


@dataclass(frozen=True)
class Example:
    name: str
    text: str
    description: str
    program: str
    outputs: tuple[str, ...]

    @property
    def title(self) -> str:
        return f"example {self.name} ({self.description})"


def load_example(name: str) -> Example:
    """The module text and its sidecar (the names are checked by argparse's choices)."""
    folder = resources.files("hlo") / "examples"
    info = json.loads((folder / f"{name}.json").read_text())
    return Example(
        name,
        (folder / f"{name}.hlo").read_text(),
        info["description"],
        info["program"],
        tuple(info["outputs"]),
    )


def inputs_origin(args: argparse.Namespace, device: int) -> str:
    """Where a bundled example's inputs came from, so its printed numbers can be reproduced."""
    if args.inputs:
        return args.inputs.replace("{device}", str(device))
    mode = args.inputs_mode or "random"
    if mode != "random":
        return mode
    if args.random is not None:
        values = f"floats uniform in [{args.random[0]:g}, {args.random[1]:g})"
    else:
        values = "floats from a standard normal distribution"
    seed = f"seed {args.seed}" + (f" + device {device}" if device else "")
    return f"random, {seed} ({values}; --seed N for others, --inputs IN.npz for your own)"
