"""What the shape-rule tests share: checking each instruction of HLO text against its op's shape
rule the way the verifier does (the written result shape, its element type as the preferred
one), for the op families a test covers."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import hlo
from hlo import ops
from hlo.ops.registry import REGISTRY, ShapeContext


def _families_of(rule: Callable[..., Any]) -> set[str]:
    """The module that holds a shape rule, by its name and by the family it declares."""
    module = rule.__module__
    name = module.rsplit(".", 1)[-1]
    return {name, getattr(sys.modules[module], "FAMILY", name)}


def rule_errors(text: str, families: Iterable[str], same_dynamic: bool = False) -> list[str]:
    """The messages of the instructions of `text` whose op (of one of the `families`: module
    names under hlo.ops, or the FAMILY a module split out of one declares) breaks its shape rule
    or gives another shape than written (with `same_dynamic`, also other dynamic dimensions,
    leaf by leaf). Called computations are the module's, as the verifier sees them."""
    wanted = set(families)
    module = hlo.parse_module(text)

    def program_shape(name: str) -> tuple[tuple[hlo.Shape, ...], hlo.Shape]:
        callee = module.computation(name)
        return callee.parameter_shapes, callee.result_shape

    errors = []
    for c in module.computations:
        for i in c.instructions:
            rule = REGISTRY[i.opcode].shape_rule
            if rule is None or not _families_of(rule) & wanted:
                continue
            operands = tuple(c.by_name[o].shape for o in i.operands)
            preferred = i.shape.element_type if i.shape.is_array else None
            ctx = ShapeContext(i.opcode, operands, i.attrs, program_shape, preferred, shape=i.shape)
            try:
                inferred = rule(ctx)
            except hlo.ShapeError as e:
                errors.append(f"%{i.name}: {e.message}")
                continue
            dynamic_differs = same_dynamic and [s.dynamic_dimensions for _, s in inferred.leaves()] != [
                s.dynamic_dimensions for _, s in i.shape.leaves()
            ]
            if not inferred.compatible(i.shape) or dynamic_differs:
                errors.append(f"%{i.name}: gives {inferred}, not {i.shape}")
    return errors


# A builder test's program: the parameters (of the shapes a case gives) and the builder -> the result.
BuildFn = Callable[[list[Any], hlo.XlaBuilder], Any]


def build_ops(shapes: Sequence[str], fn: BuildFn) -> tuple[str, list[str], hlo.XlaBuilder]:
    """Build fn(parameters of `shapes`, builder): the result shape without layout, the opcodes
    emitted (parameters aside) and the builder."""
    b = hlo.XlaBuilder("t")
    params = [ops.Parameter(b, k, s, f"p{k}") for k, s in enumerate(shapes)]
    result = fn(params, b)
    emitted = [i.opcode.text for i in b.instructions if i.opcode is not hlo.Opcode.PARAMETER]
    return result.shape.to_string(print_layout=False), emitted, b


def entry_module(body: str) -> str:
    """HLO text of a module whose entry computation is `body`."""
    return "HloModule m\nENTRY e {\n" + body + "\n}\n"


def assert_round_trip(comp: hlo.XlaComputation, rule_errors: Callable[[str], list[str]]) -> None:
    """A built computation's text parses back to the same text and names, and the module
    verifies and agrees with the shape rules of the families a test covers (`rule_errors`)."""
    text = comp.to_text()
    again = hlo.parse_module(text)
    assert again.to_text() == text
    assert [c.by_name for c in again.computations] == [c.by_name for c in comp.module.computations]
    assert hlo.verify(comp.module, all_errors=True) == []
    assert rule_errors(text) == []
