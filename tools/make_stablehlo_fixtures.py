"""Dev tool: StableHLO fixtures made with jax and XLA:CPU, into tests/golden/stablehlo/.

* ``programs/<name>.mlir``: the StableHLO (``jax.jit(f).lower(*args).as_text()``) of every golden
  program of ``make_golden_dumps.py``, lowered with the same arguments; their inputs and XLA:CPU's
  outputs are the dumps' ``tests/golden/dumps/<name>.npz`` (checked equal here). A few programs
  also in the generic MLIR form (``<name>.generic.mlir``) and with locations
  (``<name>.loc.mlir``, ``debug_info=True``).
* ``ops.mlir`` and ``ops.npz``: one small module per case (every op of the StableHLO spec that
  XLA:CPU runs, over the element types it takes, on edge values), separated by
  ``// ----- case NAME`` lines; ``ops.npz`` holds ``NAME.argK`` and ``NAME.outK`` computed by
  XLA:CPU from that very text (types NumPy cannot store are widened: bf16 and f8 to float32).

* ``frames/``: the stack-frame tables jaxlib's conversion makes of locations
  (stablehlo_frames.py); ``shardings/``: sharded programs and jaxlib's HLO of each
  (stablehlo_shardings.py).

It then checks the HLO that ``hlo.parse_stablehlo`` makes against jaxlib's own conversion of the
same text (``mlir_module_to_xla_computation``): the same ops with the same shapes and attributes
for every op case (XLA canonicalizes real programs first, dropping dead code and duplicate
constants, so for programs it only reports the differences).

    python tools/make_stablehlo_fixtures.py            # everything
    python tools/make_stablehlo_fixtures.py --check    # only compare with jaxlib's conversion
"""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import jax
import jax.extend
import numpy as np
from jax._src.lib import _jax  # private: pinned jax version in the dev extra
from jax._src.lib import xla_client as xc

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
OUT = ROOT / "tests" / "golden" / "stablehlo"
sys.path.insert(0, str(TOOLS))
sys.path.insert(0, str(ROOT / "src"))

import hlo  # noqa: E402
import make_golden_dumps as golden  # noqa: E402
import make_op_fixtures as opfix  # noqa: E402
import stablehlo_frames  # noqa: E402
from hlo.stablehlo.parser import parse_mlir  # noqa: E402
from stablehlo_cases import CASES, Case  # noqa: E402

GENERIC = ["control_flow", "while_loop", "cnn", "gather_scatter"]
WITH_LOCATIONS = ["mlp_grad", "sort"]


# -- programs -------------------------------------------------------------------------------------
def write_programs() -> None:
    (OUT / "programs").mkdir(parents=True, exist_ok=True)
    for name, program in golden.PROGRAMS.items():
        case = program.build(np.random.default_rng(golden.seed_for(name)))
        stored = np.load(golden.OUT_DIR / f"{name}.npz")
        leaves = jax.tree_util.tree_leaves(case.args)
        for k, a in enumerate(leaves):
            if not np.array_equal(golden.storable(a), stored[f"arg{k}"], equal_nan=True):
                raise RuntimeError(f"{name}: argument {k} differs from the golden dump's")
        with jax.enable_x64(case.x64):
            lowered = jax.jit(case.fn, keep_unused=True).lower(*case.args)
            (OUT / "programs" / f"{name}.mlir").write_text(lowered.as_text())
            if name in GENERIC:
                generic = lowered.compiler_ir("stablehlo").operation.get_asm(print_generic_op_form=True)
                (OUT / "programs" / f"{name}.generic.mlir").write_text(generic)
            if name in WITH_LOCATIONS:
                text = lowered.as_text(debug_info=True)
                text = re.sub(r'loc\("[^"]*?/(tools|tests|src)/', r'loc("\1/', text)  # no machine paths
                (OUT / "programs" / f"{name}.loc.mlir").write_text(text)
        print(f"program {name}")


# -- op cases -------------------------------------------------------------------------------------
def run_on_cpu(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    jax.config.update("jax_enable_x64", True)  # 64-bit arguments stay 64-bit
    backend = jax.extend.backend.get_backend("cpu")
    exe = backend.compile_and_load(text, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions())
    outs = exe.execute([jax.device_put(a) for a in args])
    return [np.asarray(o) for o in outs]


SPREAD_KINDS = {
    # around the switch points of the special functions' approximations (1, 2, 8, poles at
    # non-positive integers), and far out
    "spread": lambda rng, n: np.concatenate([
        [0.5, 1.0, -1.0, 2.0, -2.0, 8.0, -8.0, 7.99, 8.01, -3.0, 30.0, 200.0, -0.5, 1e-3, 1e-20],
        rng.standard_normal(size=n) * 4,
    ]),
    # inside (-1, 1), to its ends (erf_inv: w = -log(1 - x^2) beyond 5, 6.25 and 16)
    "unit": lambda rng, n: np.concatenate([
        [0.9, -0.99, 0.999, 0.9999, 0.99999, 1 - 1e-7, -(1 - 1e-12), 0.5, 1e-30],
        np.tanh(rng.standard_normal(size=n) * 3),
    ]),
    # orders of polygamma and first arguments of zeta: small integers, and some that are not
    "order": lambda rng, n: np.resize([0.0, 1.0, 2.0, 3.0, 4.0, 1.5, -1.0, 2.0, 5.0, 1.0, 3.0, 7.0], n),
}  # fmt: skip


def case_args(case: Case) -> list[np.ndarray]:
    rng = np.random.default_rng(len(case.name) * 7919 + sum(map(ord, case.name)))
    out = []
    for t, shape, kind in case.args:
        dtype = np.dtype(opfix.DTYPES[t])
        if kind == "edges":
            values = opfix.edges(t)
            n = int(np.prod(shape))
            values = np.resize(np.roll(values, len(out)), n).reshape(shape)
        elif kind == "spd":  # symmetric positive definite (cholesky, triangular solves)
            a = rng.standard_normal(size=shape)
            values = a @ a.T + shape[0] * np.eye(shape[0])
        elif kind in SPREAD_KINDS:
            n = int(np.prod(shape))
            values = np.resize(np.concatenate([opfix.edges(t), SPREAD_KINDS[kind](rng, n)]), n).reshape(shape)
        elif kind == "index":
            values = rng.integers(0, 3, size=shape)
        else:
            values = (
                rng.standard_normal(size=shape) * 3
                if dtype.kind in "fcV"
                else rng.integers(-5, 9, size=shape)
            )
        with np.errstate(all="ignore"):
            out.append(np.asarray(values).astype(dtype))
    return out


def generic_form(case_text: str) -> str:
    """A case (its `// ----- case NAME` line and module) with the module in MLIR's generic form,
    as jaxlib's MLIR printer writes it."""
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    header, _, text = case_text.partition("\n")
    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        generic = module.operation.get_asm(print_generic_op_form=True)
    return f"{header}\n{generic.strip()}\n"


def write_ops() -> None:
    texts, arrays = [], {}
    for case in CASES:
        args = case_args(case)
        try:
            outs = run_on_cpu(case.reference or case.text, args)
        except Exception as e:
            print(f"skip {case.name}: XLA:CPU refused it: {str(e).splitlines()[0][:150]}")
            continue
        texts.append(f"// ----- case {case.name}\n{case.text.strip()}\n")
        for k, a in enumerate(args):
            arrays[f"{case.name}.arg{k}"] = storable(a)
        for k, o in enumerate(outs):
            arrays[f"{case.name}.out{k}"] = storable(o)
    (OUT / "ops.mlir").write_text("\n".join(texts))
    (OUT / "ops.generic.mlir").write_text("\n".join(generic_form(t) for t in texts))
    np.savez_compressed(OUT / "ops.npz", **arrays)
    print(f"{len(texts)} op cases of {len(CASES)}")


NATIVE = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"}  # fmt: skip


def storable(a: np.ndarray) -> np.ndarray:
    """`a` as np.savez can store and load it: ml_dtypes' types (float8_e5m2 too, whose NumPy kind
    is 'f') widened, exactly: floats to float32, 2- and 4-bit integers to int8/uint8."""
    a = np.asarray(a)
    if a.dtype.name in NATIVE:
        return a
    if "int" in a.dtype.name:
        return a.astype(np.uint8 if a.dtype.name.startswith("uint") else np.int8)
    return a.astype(np.float32)


# -- comparison with jaxlib's conversion --------------------------------------------------------
_CALLS = re.compile(
    r", (to_apply|calls|condition|body|branch_computations|true_computation|false_computation|select|scatter|called_computations)=(\{[^}]*\}|[\w.\-]+)"
)
SKIP = {"parameter", "tuple", "get-tuple-element", "constant", "copy"}


def signature(module: hlo.Module) -> Counter[str]:
    """Each instruction as `opcode shape attributes` (names, operands and callee names left out)."""
    out: Counter[str] = Counter()
    for comp in module.computations:
        for instr in comp.instructions:
            if instr.opcode.text in SKIP:
                continue
            text = instr.replace(metadata=None, frontend_attributes=hlo.ir.frozen.FrozenDict()).__str__()
            _, _, rest = text.partition(" = ")
            shape, _, rest = rest.partition(f" {instr.opcode.text}(")
            depth, i = 1, 0
            while depth and i < len(rest):
                depth += {"(": 1, ")": -1}.get(rest[i], 0)
                i += 1
            attrs = _CALLS.sub("", rest[i:])
            shape = re.sub(r"\{[\d,]*\}", "", shape)
            out[f"{instr.opcode.text} {shape}{attrs}"] += 1
    return out


REFERENCES = {case.name: case.reference for case in CASES if case.reference}


def compare(name: str, text: str) -> list[str]:
    main = next(f for f in parse_mlir(text, name).funcs if f.name == "main")
    n_results = len(main.result_types)
    xla_text = _jax.mlir.mlir_module_to_xla_computation(
        REFERENCES.get(name, text), use_tuple_args=False, return_tuple=n_results != 1
    ).as_hlo_text()
    theirs = signature(hlo.parse_module(xla_text, f"{name} (jaxlib)"))
    try:
        ours = signature(hlo.parse_stablehlo(text, name))
    except hlo.HloError as e:
        return [f"  hlo cannot read it: {e.message}"]
    missing, extra = theirs - ours, ours - theirs
    return [f"  jaxlib only: {k} x{v}" for k, v in missing.items()] + [
        f"  hlo only:    {k} x{v}" for k, v in extra.items()
    ]


# Op cases whose HLO differs from jaxlib's conversion on purpose (by case-name prefix): XLA runs
# MLIR rewrites before converting that hlo leaves out; the values still match XLA:CPU's.
KNOWN = {
    ("exponential_c", "log_c", "log_plus_one_c", "sqrt_c"): "XLA expands complex exp/log/log1p/sqrt into real arithmetic; hlo keeps the op",
    ("chlo_sinh", "chlo_cosh", "chlo_asin", "chlo_acos", "chlo_asinh", "chlo_acosh", "chlo_atanh", "chlo_tan_c"): "XLA expands these CHLO ops into formulas; hlo runs the HLO op of the same name",
    ("chlo_atan_c",): "XLA expands complex atan into real arithmetic; hlo runs -i atanh(iz)",
    ("broadcast_in_dim", "chlo_broadcast_compare"): "XLA rewrites broadcasts with expanding size-1 or permuted dimensions into other reshape/transpose/broadcast chains",
    ("composite",): "XLA also keeps an unused copy of the decomposition function",
}  # fmt: skip


def known(name: str) -> str | None:
    return next((why for prefixes, why in KNOWN.items() if name.startswith(prefixes)), None)


def check_all() -> int:
    failures = 0
    ops_text = (OUT / "ops.mlir").read_text()
    for block in ops_text.split("// ----- case ")[1:]:
        name, _, text = block.partition("\n")
        diff = compare(name, text)
        if diff and known(name):
            print(f"op case {name}: differs as expected ({known(name)})")
        elif diff:
            failures += 1
            print(f"op case {name} differs from jaxlib's conversion:\n" + "\n".join(diff))
    for path in sorted((OUT / "programs").glob("*.mlir")):
        diff = compare(path.name, path.read_text())
        if diff:
            print(
                f"program {path.name}: {len(diff)} differences from jaxlib's conversion (canonicalized by XLA)"
            )
    print(f"{failures} op cases differ from jaxlib's conversion other than as expected")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only compare with jaxlib's conversion")
    args = parser.parse_args(argv)
    if not args.check:
        OUT.mkdir(parents=True, exist_ok=True)
        write_programs()
        write_ops()
        stablehlo_frames.write_frames()
        # 4 CPU devices: XLA_FLAGS must be set before jax starts, so in a process of its own
        subprocess.run([sys.executable, str(TOOLS / "stablehlo_shardings.py")], check=True)
    return check_all()


if __name__ == "__main__":
    sys.exit(main())
