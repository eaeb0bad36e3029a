"""The nodes of a fused group's generated code (hlo.numerics.fused_source): one value per element
of a block, as a scalar expression written by the loop tier's emitters, a load, or a NumPy ufunc
loop over the whole block."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..dtypes import PrimitiveType
from ..ir.module import Module
from ..shape import Shape
from .jit_codegen import Gen, Unsupported, Val, type_name


@dataclass
class Node:
    """One value per element: `expr` (a scalar expression of other nodes' variables), a load
    (`expr` reads an input at the element), or a ufunc over the block (`ufunc`, of `args[0]`)."""

    var: str
    type: PrimitiveType
    expr: str = ""
    args: list[str] = field(default_factory=list)
    load: bool = False
    ufunc: str = ""
    row: int = -1  # the ufunc's row of `fp`


class Elements(Gen):
    """A Gen whose elementwise results are scalar nodes (the emitters' expressions kept)."""

    def __init__(self, module: Module, flush: bool, rank: int) -> None:
        super().__init__(module, flush)
        self.nodes: dict[str, Node] = {}
        self.result_rank = rank

    def add(self, node: Node) -> str:
        self.nodes[node.var] = node
        return node.var

    def elementwise(self, shape: Shape, args: list[Val], expr: Callable[..., str]) -> Val:
        t = shape.element_type
        var = self.name("n")
        text = f"{type_name(t)}({expr(*(a.var for a in args))})"
        self.add(Node(var, t, text, [a.var for a in args]))
        return Val(shape, var)

    def ufunc_node(self, name: str, x: Val) -> str:
        t = x.shape.element_type
        if not t.is_floating_point:
            raise Unsupported(f"{name} of a non-float")
        operand = self.nodes[x.var]
        if operand.load and not operand.expr.startswith("r_"):  # a scalar or a broadcast: in a buffer
            x = Val(x.shape, self.add(Node(self.name("n"), t, x.var, [x.var])))
        return self.add(Node(self.name("n"), t, args=[x.var], ufunc=name, row=self.ufunc(name, t)))
