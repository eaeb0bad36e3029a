"""Shardings in StableHLO as the HLO shardings XLA's conversion gives them: `mhlo.sharding` as
written, and Shardy's (`#sdy.sharding<@mesh, [{"x"}, {}]>` over `sdy.mesh @mesh = <["x"=2, "y"=2]>`,
what JAX writes) with each dimension tiled over its mesh axes (major first), the mesh axes no
dimension uses replicated in a last tile dimension. The devices are the mesh's iota, its axes
transposed into that order (`<=[2,2]T(1,0)`)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from ..errors import HloError
from ..ir.frozen import FrozenDict
from ..ir.opcode import Opcode
from ..ir.sharding import HloSharding, NamedSharding, Sharding, ShardingKind, TupleSharding
from ..text.sharding_codec import parse_sharding_string

if TYPE_CHECKING:
    from .computation_converter import ComputationConverter
    from .convert import ModuleConverter
    from .syntax import Func

_MESH_AXIS = re.compile(r'"([^"]+)"\s*=\s*(\d+)')
_SHARDING = re.compile(r"#sdy\.sharding<\s*@([\w.$\-]+)\s*,\s*\[(.*)\]\s*(.*)>\s*$", re.S)
_DIM = re.compile(r"\{([^{}]*)\}")


class ShardyError(ValueError):
    """A Shardy sharding this reader cannot express as an HLO sharding (the message says why)."""


def meshes(module_attrs: dict[str, Any]) -> dict[str, list[tuple[str, int]]]:
    """The module's meshes (`sdy.mesh.NAME` attributes) as their (axis, size) lists."""
    out = {}
    for key, value in module_attrs.items():
        if key.startswith("sdy.mesh."):
            text = getattr(value, "text", str(value))
            out[key[len("sdy.mesh.") :]] = [(a, int(n)) for a, n in _MESH_AXIS.findall(text.split("{", 1)[0])]
    return out


def hlo_sharding(text: str, mesh_table: dict[str, list[tuple[str, int]]]) -> Sharding:
    """The HLO sharding of one `#sdy.sharding<...>`."""
    m = _SHARDING.match(text.strip())
    if m is None:
        raise ShardyError("only #sdy.sharding<@mesh, [...]> with a named mesh is read")
    mesh_name, dims_text, rest = m.groups()
    if rest.strip():
        raise ShardyError(f"replicated, unreduced and manual axes are not supported ({rest.strip()})")
    axes = mesh_table.get(mesh_name)
    if axes is None:
        raise ShardyError(f"no sdy.mesh @{mesh_name} in the module")
    sizes = dict(axes)
    names = [a for a, _ in axes]
    order: list[str] = []
    tiles: list[int] = []
    for dim in _DIM.findall(dims_text):
        used = [p.strip() for p in dim.split(",") if p.strip() and p.strip() != "?"]
        for part in used:
            if not (part.startswith('"') and part.endswith('"')) or part[1:-1] not in sizes:
                raise ShardyError(
                    f"the axis {part} is not an axis of @{mesh_name} (sub-axes are not supported)"
                )
        order += [p[1:-1] for p in used]
        tiles.append(math.prod(sizes[p[1:-1]] for p in used))
    if math.prod(tiles) == 1:
        return parse_sharding_string("{replicated}")
    rest_axes = [a for a in names if a not in order]
    replicated = math.prod(sizes[a] for a in rest_axes)
    perm = [names.index(a) for a in order + rest_axes]
    devices = ",".join(str(t) for t in tiles + ([replicated] if replicated > 1 else []))
    if perm == sorted(perm):
        iota = f"<=[{math.prod(sizes.values())}]"
    else:
        iota = f"<=[{','.join(str(sizes[a]) for a in names)}]T({','.join(map(str, perm))})"
    last = " last_tile_dim_replicate" if replicated > 1 else ""
    return parse_sharding_string(f"{{devices=[{devices}]{iota}{last}}}")


def mesh_attributes(module_attrs: dict[str, Any]) -> dict[str, str]:
    """The module's meshes as XLA's conversion keeps them: one frontend attribute
    `xla.sdy.meshes={mesh = #sdy.mesh<["x"=2, "y"=2]>, ...}`."""
    parts = [
        f"{key[len('sdy.mesh.') :]} = #sdy.mesh{getattr(value, 'text', str(value)).split('{', 1)[0].strip()}"
        for key, value in module_attrs.items()
        if key.startswith("sdy.mesh.")
    ]
    return {"xla.sdy.meshes": "{" + ", ".join(parts) + "}"} if parts else {}


def func_sharding(attrs: dict[str, Any], mc: ModuleConverter, pos: int) -> dict[str, Any]:
    """The sharding and frontend attributes of a function's argument or result: `mhlo.sharding`
    as written, or the HLO sharding of `sdy.sharding` (kept as the frontend attribute
    `xla.sdy.sharding`, as XLA's conversion keeps it)."""
    out = sharding_of({k: v for k, v in attrs.items() if k != "sdy.sharding"}, mc, pos)
    sdy = attrs.get("sdy.sharding")
    if sdy is None:
        return out
    text = getattr(sdy, "text", str(sdy))
    if "sharding" not in out:
        try:
            out["sharding"] = hlo_sharding(text, meshes(mc.mlir.attrs))
        except ShardyError as e:
            raise mc.error(f"sdy.sharding {text}: {e}", pos) from None
    out["frontend_attributes"] = FrozenDict({**out.get("frontend_attributes", {}), "xla.sdy.sharding": text})
    return out


def sharded_root(comp: ComputationConverter, func: Func, root: str) -> str:
    """The entry's root with the function's result shardings: on the root tuple of several
    results (replicated where a result has none); for one result, on a get-tuple-element of a
    one-element tuple, as XLA's conversion builds it."""
    shardings = [func_sharding(a, comp.mc, func.pos).get("sharding") for a in func.result_attrs]
    if not any(s is not None for s in shardings):
        return root
    if len(shardings) == 1:
        t = comp.tuple_of([root], func.pos)
        return comp.emit(
            Opcode.GET_TUPLE_ELEMENT, (t,), comp.shape(root), {"index": 0}, func.pos, sharding=shardings[0]
        )
    replicated = HloSharding(ShardingKind.REPLICATED)
    leaves = tuple(s if isinstance(s, (HloSharding, NamedSharding)) else replicated for s in shardings)
    comp.instructions = [
        i.replace(sharding=TupleSharding(leaves)) if i.name == root else i for i in comp.instructions
    ]
    return root


def sharding_of(attrs: dict[str, Any], mc: ModuleConverter, pos: int) -> dict[str, Any]:
    """`mhlo.sharding = "{devices=...}"` as an HLO sharding; `sdy.*` attributes are kept as
    frontend attributes (data only)."""
    out: dict[str, Any] = {}
    text = attrs.get("mhlo.sharding")
    if isinstance(text, str):
        try:
            out["sharding"] = parse_sharding_string(text)
        except HloError as e:
            raise mc.error(f"malformed mhlo.sharding {text!r}: {e.message}", pos) from None
    extra = {k: _attr_text(v) for k, v in attrs.items() if k.startswith("sdy.")}
    fa = attrs.get("mhlo.frontend_attributes")
    if isinstance(fa, dict):
        extra.update({k: str(v) for k, v in fa.items()})
    if extra:
        out["frontend_attributes"] = FrozenDict(extra)
    return out


def _attr_text(value: Any) -> str:
    return getattr(value, "text", str(value))
