"""Dev tool (run by make_stablehlo_fixtures.py): the stack-frame fixtures of StableHLO in, into
tests/golden/stablehlo/frames/.

* ``<name>.mlir``: small jax programs lowered with locations (``as_text(debug_info=True)``; the
  machine's path prefix cut), and ``handwritten.mlir``, locations jax does not write (plain file
  locations, multi-line ranges, fused and nested names).
* ``<name>.xla.json``, also for ``programs/*.loc.mlir``: what jaxlib's conversion
  (``mlir_module_to_xla_computation``) makes of the locations: the module's FileNames,
  FunctionNames, FileLocations and StackFrames tables (from the HloModuleProto, ids as XLA gives
  them) and each instruction's op_name and stack_frame_id."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax._src.lib import _jax  # private: pinned jax version in the dev extra

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "stablehlo" / "frames"
sys.path.insert(0, str(ROOT / "src"))

from hlo.proto import hlo_pb2  # noqa: E402

HANDWRITTEN = """module @m {
  func.func public @main(%arg0: tensor<3xf32> loc("x")) -> tensor<3xf32> {
    %0 = stablehlo.sine %arg0 : tensor<3xf32> loc(#l1)
    %1 = stablehlo.cosine %0 : tensor<3xf32> loc(#l2)
    %2 = stablehlo.exponential %1 : tensor<3xf32> loc(#l3)
    %3 = stablehlo.negate %2 : tensor<3xf32> loc(#l4)
    %4 = stablehlo.abs %3 : tensor<3xf32> loc(#l5)
    %5 = stablehlo.tanh %4 : tensor<3xf32> loc("plain")
    return %5 : tensor<3xf32>
  }
}
#a = loc("a.py":3:17)
#b = loc("b \\"q\\".py":4:2 to 6:9)
#c = loc("a.py":7:1 to :5)
#fa = loc("g"(#a))
#fb = loc("h"(#b))
#fc = loc("main"(#c))
#cs = loc(callsite(#fa at #fc))
#cs2 = loc(callsite(#fb at #cs))
#l1 = loc("jit(f)/sin"(#cs))
#l2 = loc("jit(f)/cos"(#cs2))
#l3 = loc("jit(f)/exp"(fused[#fb, #fa]))
#l4 = loc("jit(f)/neg"(fused["nothing", #cs2]))
#l5 = loc("outer"("jit(f)/abs"(#fc)))
"""

# Functions calling functions: XLA converts callees first, in the order of their first call.
NESTED_CALLS = """module @m {
  func.func public @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.sine %arg0 : tensor<3xf32> loc(#l1)
    %1 = func.call @g(%0) : (tensor<3xf32>) -> tensor<3xf32> loc(#l2)
    %2 = func.call @f(%1) : (tensor<3xf32>) -> tensor<3xf32> loc(#l2)
    return %2 : tensor<3xf32>
  }
  func.func private @f(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<3xf32> loc(#l3)
    %1 = func.call @h(%0) : (tensor<3xf32>) -> tensor<3xf32> loc(#l5)
    return %1 : tensor<3xf32>
  }
  func.func private @g(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.cosine %arg0 : tensor<3xf32> loc(#l4)
    return %0 : tensor<3xf32>
  }
  func.func private @h(%arg0: tensor<3xf32>) -> tensor<3xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<3xf32> loc(#l6)
    return %0 : tensor<3xf32>
  }
}
#a = loc("a.py":1:1)
#b = loc("a.py":2:1)
#c = loc("a.py":3:1)
#d = loc("a.py":4:1)
#e = loc("a.py":5:1)
#l1 = loc("sin"("m1"(#a)))
#l2 = loc("call"("m2"(#b)))
#l3 = loc("exp"("f3"(#c)))
#l4 = loc("cos"("g4"(#d)))
#l5 = loc("call"("f5"(#e)))
#l6 = loc("tanh"("h6"(#a)))
"""


def _scaled(x: jax.Array) -> jax.Array:
    return jnp.sin(x) * 2


def calls(x: jax.Array) -> jax.Array:
    """Nested Python calls, a reduction (a region), constants XLA folds."""
    return _scaled(x) + jnp.cos(x).sum()


def loop(x: jax.Array) -> jax.Array:
    return jax.lax.fori_loop(0, 3, lambda i, v: jnp.tanh(v) * _scaled(v) + i, x)


PROGRAMS = {"calls": calls, "loop": loop}


def tables(text: str) -> dict[str, object]:
    xla = _jax.mlir.mlir_module_to_xla_computation(text, use_tuple_args=False, return_tuple=True)
    p = hlo_pb2.HloModuleProto.FromString(xla.as_serialized_hlo_module_proto())
    ix = p.stack_frame_index
    return {
        "file_names": list(ix.file_names),
        "function_names": list(ix.function_names),
        "file_locations": [
            [x.file_name_id, x.function_name_id, x.line, x.end_line, x.column, x.end_column]
            for x in ix.file_locations
        ],
        "stack_frames": [[f.file_location_id, f.parent_frame_id] for f in ix.stack_frames],
        "instructions": [
            [c.name, i.name, i.opcode, i.metadata.op_name, i.metadata.stack_frame_id]
            for c in p.computations
            for i in c.instructions
            if i.metadata.op_name or i.metadata.stack_frame_id
        ],
    }


def write_frames() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    texts = {"handwritten": HANDWRITTEN, "nested_calls": NESTED_CALLS}
    for name, fn in PROGRAMS.items():
        text = jax.jit(fn).lower(np.linspace(-1, 1, 4, dtype=np.float32)).as_text(debug_info=True)
        texts[name] = re.sub(r'loc\("[^"]*?/(tools|tests|src)/', r'loc("\1/', text)  # no machine paths
    for name, text in texts.items():
        (OUT / f"{name}.mlir").write_text(text)
    for path in [*(OUT / f"{n}.mlir" for n in texts), *sorted((OUT.parent / "programs").glob("*.loc.mlir"))]:
        name = path.name.removesuffix(".mlir")
        (OUT / f"{name}.xla.json").write_text(json.dumps(tables(path.read_text()), indent=1) + "\n")
        print(f"frames {name}")


if __name__ == "__main__":
    write_frames()
