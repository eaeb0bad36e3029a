"""Make tests/golden/ops/<family>.npz: single ops run on XLA:CPU over every element type they
accept and edge values (NaN, +-inf, -0, subnormals, extremes, INT_MIN, halfway cases). Dev only:
needs jax (../shared/ORACLE.md).

    python tools/make_op_fixtures.py            # every family
    python tools/make_op_fixtures.py convert    # some

Each case k of a family file holds `case{k}_hlo` (the module), `case{k}_arg{j}` and `case{k}_out`
(raw bits as unsigned integers for types NumPy cannot store; `case{k}_types` names the XLA
types of the args and the result) and `case{k}_exact` (bit-exact or within float rounding).
"""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "ops"

DTYPES = {
    "pred": np.bool_, "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
    "c64": np.complex64, "c128": np.complex128, "s4": ml_dtypes.int4, "u4": ml_dtypes.uint4,
    "f8e4m3fn": ml_dtypes.float8_e4m3fn, "f8e5m2": ml_dtypes.float8_e5m2,
}  # fmt: skip
INTS = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]
FLOATS = ["f16", "bf16", "f32", "f64"]

F32_EDGES = [
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 0.49999997, 1e-40, -1e-40, 1.1754944e-38,
    3.4e38, -3.4e38, np.inf, -np.inf, np.nan, -np.nan, 1e-3, 100.0, 7.9, -7.9, 1e10, 65504.0, 70000.0,
    0.7, -0.3, 3.0,
]  # fmt: skip


def edges(t: str) -> np.ndarray:
    dtype = np.dtype(DTYPES[t])
    if t == "pred":
        return np.array([False, True, True, False])
    if t in ("f64",):
        return np.array([*F32_EDGES, 1e-310, -1e-310, 1.7e308, 2.0**53 + 1], dtype=np.float64)
    if t in FLOATS or t.startswith("f8"):
        with np.errstate(all="ignore"):
            return np.array(F32_EDGES, dtype=np.float32).astype(dtype)
    if t in ("c64", "c128"):
        re = np.array([0.0, -0.0, 1.0, -2.5, np.inf, np.nan, 1e-40, 3.0])
        im = np.array([0.0, 1.0, -0.0, 0.5, 1.0, 0.0, 2.0, -4.0])
        return (re + 1j * im).astype(dtype)
    info = ml_dtypes.iinfo(dtype) if t in ("s4", "u4") else np.iinfo(dtype)
    values = [
        0,
        1,
        -1,
        2,
        -2,
        5,
        -5,
        7,
        100,
        -100,
        int(info.min),
        int(info.max),
        int(info.min) + 1,
        int(info.max) - 1,
    ]
    kept = [v for v in values if int(info.min) <= v <= int(info.max)]
    return np.array(kept, dtype=object).astype(np.dtype(np.uint64) if t == "u64" else np.int64).astype(dtype)


def pairs(t: str) -> tuple[np.ndarray, np.ndarray]:
    e = edges(t)
    a, b = np.meshgrid(e, e, indexing="ij")
    return a.reshape(-1), b.reshape(-1)


UNARY = {
    "abs": INTS[:4] + FLOATS + ["c64"], "negate": INTS + FLOATS + ["c64", "s4"], "sign": INTS[:4] + FLOATS,
    "floor": FLOATS, "ceil": FLOATS, "round-nearest-afz": FLOATS, "round-nearest-even": FLOATS,
    "exponential": FLOATS + ["c64"], "exponential-minus-one": FLOATS, "log": FLOATS + ["c64"],
    "log-plus-one": FLOATS, "logistic": FLOATS, "sqrt": FLOATS + ["c64"], "rsqrt": FLOATS, "cbrt": FLOATS,
    "sine": FLOATS, "cosine": FLOATS, "tan": FLOATS, "tanh": FLOATS, "erf": ["f32", "f64", "bf16", "f16"],
    "is-finite": FLOATS, "not": INTS + ["pred", "s4"], "popcnt": INTS + ["s4", "u4"],
    "count-leading-zeros": INTS + ["s4", "u4"], "real": ["c64", "f32"], "imag": ["c64", "f32"],
    "acos": FLOATS, "acosh": FLOATS, "asin": FLOATS, "asinh": FLOATS, "atanh": FLOATS, "cosh": FLOATS,
    "sinh": FLOATS,
}  # fmt: skip
EXACT_UNARY = {
    "abs", "negate", "sign", "floor", "ceil", "round-nearest-afz", "round-nearest-even", "is-finite", "not",
    "popcnt", "count-leading-zeros", "real", "imag", "sqrt", "tanh", "erf",
}  # fmt: skip
# XLA:CPU's own approximations hlo reproduces bit for bit for real floats (hlo.numerics.xla_log,
# xla_exp)
EXACT_REAL_UNARY = {"log", "log-plus-one", "exponential", "exponential-minus-one", "logistic"}
BINARY = {
    "add": INTS + FLOATS + ["c64", "s4", "pred"], "subtract": INTS + FLOATS, "multiply": INTS + FLOATS + ["s4"],
    "divide": INTS + FLOATS + ["s4", "u4"], "remainder": INTS + FLOATS, "power": INTS[:4] + ["u8", "f32", "f64"],
    "maximum": INTS + FLOATS + ["pred"], "minimum": INTS + FLOATS, "atan2": ["f32", "f64", "f16", "bf16"],
    "and": INTS + ["pred"], "or": INTS + ["pred"], "xor": INTS + ["pred"], "shift-left": INTS + ["s4"],
    "shift-right-logical": INTS + ["s4"], "shift-right-arithmetic": INTS + ["s4"], "complex": ["f32", "f64"],
    "mulhi": INTS,
}  # fmt: skip
EXACT_BINARY = {"mulhi", "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
                "shift-left", "shift-right-logical", "shift-right-arithmetic", "complex"}  # fmt: skip


def result_type(op: str, t: str) -> str:
    if op in ("is-finite",):
        return "pred"
    if op in ("abs", "real", "imag") and t == "c64":
        return "f32"
    if op == "complex":
        return {"f32": "c64", "f64": "c128"}[t]
    return t


def module(body: str) -> str:
    return "HloModule m\n\nENTRY main {\n" + body + "\n}\n"


Case = tuple[str, list[np.ndarray], list[str], bool]


def family_elementwise_unary() -> Iterator[Case]:
    for op, types in UNARY.items():
        for t in types:
            x = edges(t)
            n = len(x)
            r = result_type(op, t)
            text = module(f"  a = {t}[{n}] parameter(0)\n  ROOT r = {r}[{n}] {op}(a)")
            exact = (
                op in EXACT_UNARY
                or t not in [*FLOATS, "c64", "c128"]
                or (op in EXACT_REAL_UNARY and t in FLOATS)
            )
            yield text, [x], [t, r], exact


def family_elementwise_binary() -> Iterator[Case]:
    for op, types in BINARY.items():
        for t in types:
            a, b = pairs(t)
            n = len(a)
            r = result_type(op, t)
            text = module(
                f"  a = {t}[{n}] parameter(0)\n  b = {t}[{n}] parameter(1)\n  ROOT r = {r}[{n}] {op}(a, b)"
            )
            exact = op in EXACT_BINARY or t not in [*FLOATS, "c64", "c128"]
            yield text, [a, b], [t, t, r], exact


def family_compare() -> Iterator[Case]:
    for t in INTS + FLOATS + ["pred", "s4"]:
        a, b = pairs(t)
        n = len(a)
        kinds = ["", ", type=TOTALORDER"] if t in FLOATS else [""]
        for direction in ("EQ", "NE", "LT", "LE", "GT", "GE"):
            for kind in kinds:
                text = module(
                    f"  a = {t}[{n}] parameter(0)\n  b = {t}[{n}] parameter(1)\n"
                    f"  ROOT r = pred[{n}] compare(a, b), direction={direction}{kind}"
                )
                yield text, [a, b], [t, t, "pred"], True
    for t in ("f32", "s32", "bf16"):
        a, b = pairs(t)
        n = len(a)
        p = np.arange(n) % 3 == 0
        text = module(f"  p = pred[{n}] parameter(0)\n  a = {t}[{n}] parameter(1)\n  b = {t}[{n}] parameter(2)\n"
                      f"  ROOT r = {t}[{n}] select(p, a, b)")  # fmt: skip
        yield text, [p, a, b], ["pred", t, t, t], True
        lo, hi = edges(t)[:n], edges(t)[::-1][:n]
        x = edges(t)
        m = len(x)
        text = module(f"  lo = {t}[] parameter(0)\n  x = {t}[{m}] parameter(1)\n  hi = {t}[] parameter(2)\n"
                      f"  ROOT r = {t}[{m}] clamp(lo, x, hi)")  # fmt: skip
        del lo, hi
        yield text, [x[3:4].reshape(()), x, x[7:8].reshape(())], [t, t, t, t], True


def family_convert() -> Iterator[Case]:
    types = ["pred", *INTS, *FLOATS, "c64", "s4", "u4", "f8e4m3fn", "f8e5m2"]
    for source in types:
        x = edges(source)
        n = len(x)
        for target in types:
            if source == target or (source == "c64" and target != "c64" and target not in FLOATS):
                continue
            text = module(f"  a = {source}[{n}] parameter(0)\n  ROOT r = {target}[{n}] convert(a)")
            yield text, [x], [source, target], True
    for source, target, dims_in, dims_out in [
        ("f32", "u16", "4", "4,2"), ("f32", "s8", "4", "4,4"), ("u8", "s32", "3,4", "3"), ("f64", "u32", "2", "2,2"),
        ("f32", "s32", "5", "5"), ("s8", "s4", "4", "4,2"), ("bf16", "u8", "3", "3,2"), ("u4", "u8", "3,2", "3"),
    ]:  # fmt: skip
        shape = tuple(int(d) for d in dims_in.split(","))
        rng = np.random.default_rng(len(dims_in))
        raw = rng.integers(0, 256, size=(*shape, np.dtype(DTYPES[source]).itemsize), dtype=np.uint8)
        x = raw.view(DTYPES[source]).reshape(shape) if source not in ("s4", "u4") else raw.reshape(shape) % 16
        if source == "u4":
            x = x.astype(ml_dtypes.uint4)
        text = module(
            f"  a = {source}[{dims_in}] parameter(0)\n  ROOT r = {target}[{dims_out}] bitcast-convert(a)"
        )
        yield text, [x], [source, target], True
    for t in ("f32", "f64", "bf16", "f16"):
        x = edges(t)
        n = len(x)
        for e, m in ((8, 7), (5, 10), (5, 2), (4, 3), (1, 0), (8, 0), (11, 52)):
            text = module(
                f"  a = {t}[{n}] parameter(0)\n  ROOT r = {t}[{n}] reduce-precision(a), exponent_bits={e}, mantissa_bits={m}"
            )
            yield text, [x], [t, t], True


def _random(t: str, shape: tuple[int, ...], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if t == "pred":
        return rng.random(shape) < 0.5
    dtype = np.dtype(DTYPES[t])
    if t in FLOATS or t in ("c64",):
        return (rng.standard_normal(shape) * 3).astype(np.float32).astype(dtype)
    if t in ("s4", "u4"):
        return rng.integers(-8 if t == "s4" else 0, 8 if t == "s4" else 16, size=shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(int(info.min), -200), min(int(info.max), 200), size=shape, endpoint=True).astype(
        dtype
    )


def family_data_movement() -> Iterator[Case]:
    for t in ("f32", "s32", "bf16", "s4", "pred", "u8", "c64", "f64"):
        x = _random(t, (3, 4), 1)
        ops = [
            ("r = {t}[4,3,2] broadcast(a), dimensions={{1,0}}", []),
            ("r = {t}[2,6] reshape(a)", []),
            ("r = {t}[4,3] transpose(a), dimensions={{1,0}}", []),
            ("r = {t}[3,4] reverse(a), dimensions={{0,1}}", []),
            ("r = {t}[2,2] slice(a), slice={{[0:3:2], [1:4:2]}}", []),
            ("r = {t}[6,7] pad(a, v), padding=1_2_0x-1_-2_2", ["v"]),
            ("r = {t}[3,8] concatenate(a, a), dimensions={{1}}", []),
        ]
        for body, extra in ops:
            params = f"  a = {t}[3,4] parameter(0)\n"
            args = [x]
            if extra:
                params += f"  v = {t}[] parameter(1)\n"
                args.append(_random(t, (), 2))
            yield module(params + "  ROOT " + body.format(t=t)), args, [t] * len(args) + [t], True
        for starts in ((1, 2), (-1, 5), (7, -3), (2, 1)):
            for it in ("s32", "u32", "s8"):
                if it != "s32" and min(starts) < 0 and it.startswith("u"):
                    continue
                i0, i1 = (np.array(v, dtype=DTYPES[it]) for v in starts)
                text = module(
                    f"  a = {t}[3,4] parameter(0)\n  i = {it}[] parameter(1)\n  j = {it}[] parameter(2)\n"
                    f"  ROOT r = {t}[2,3] dynamic-slice(a, i, j), dynamic_slice_sizes={{2,3}}"
                )
                yield text, [x, i0, i1], [t, it, it, t], True
                u = _random(t, (2, 2), 3)
                text = module(
                    f"  a = {t}[3,4] parameter(0)\n  u = {t}[2,2] parameter(1)\n  i = {it}[] parameter(2)\n"
                    f"  j = {it}[] parameter(3)\n  ROOT r = {t}[3,4] dynamic-update-slice(a, u, i, j)"
                )
                yield text, [x, u, i0, i1], [t, t, it, it, t], True
    for t in ("s32", "f32", "bf16", "u8", "f16", "s4", "c64", "s64"):
        yield module(f"  ROOT r = {t}[3,20] iota(), iota_dimension=1"), [], [t], True


def family_indexing() -> Iterator[Case]:
    operand = _random("f32", (5, 4), 4)
    for idx in ([[0], [3], [9], [-2]], [[1], [1], [4], [0]]):
        indices = np.array(idx, np.int32)
        text = module(
            "  a = f32[5,4] parameter(0)\n  i = s32[4,1] parameter(1)\n"
            "  ROOT r = f32[4,2,3] gather(a, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0}, "
            "index_vector_dim=1, slice_sizes={2,3}"
        )
        yield text, [operand, indices], ["f32", "s32", "f32"], True
        updates = _random("f32", (4, 2, 3), 5)
        for combiner, root in (
            ("add", "add(p, q)"),
            ("max", "maximum(p, q)"),
            ("set", "q"),
            ("mix", "subtract(p, q)"),
        ):
            text = (
                f"HloModule m\n\n{combiner} {{\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n"
                f"  ROOT r = f32[] {root if root != 'q' else 'copy(q)'}\n}}\n\nENTRY main {{\n"
                "  a = f32[5,4] parameter(0)\n  i = s32[4,1] parameter(1)\n  u = f32[4,2,3] parameter(2)\n"
                f"  ROOT r = f32[5,4] scatter(a, i, u), update_window_dims={{1,2}}, inserted_window_dims={{}}, "
                f"scatter_dims_to_operand_dims={{0}}, index_vector_dim=1, to_apply={combiner}\n}}\n"
            )
            yield text, [operand, indices, updates], ["f32", "s32", "f32", "f32"], combiner in ("max", "set")
    keys = np.array([[3.0, np.nan, -0.0, 0.0, -np.inf, 1.0, np.nan, 2.0]], np.float32)
    for direction in ("LT", "GT"):
        text = (
            f"HloModule m\n\nless {{\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n"
            f"  ROOT r = pred[] compare(p, q), direction={direction}, type=TOTALORDER\n}}\n\nENTRY main {{\n"
            "  a = f32[1,8] parameter(0)\n  ROOT r = f32[1,8] sort(a), dimensions={1}, is_stable=true, to_apply=less\n}\n"
        )
        yield text, [keys], ["f32", "f32"], True
    values = np.array([[1, 5, 5, 2, 9, 9, 0]], np.int32)
    text = module("  a = s32[1,7] parameter(0)\n  t = (s32[1,3], s32[1,3]) topk(a), k=3, largest=true\n"
                  "  ROOT r = s32[1,3] get-tuple-element(t), index=1")  # fmt: skip
    yield text, [values], ["s32", "s32"], True
    text = module("  a = f32[1,8] parameter(0)\n  t = (f32[1,4], s32[1,4]) topk(a), k=4, largest=true\n"
                  "  ROOT r = s32[1,4] get-tuple-element(t), index=1")  # fmt: skip
    yield text, [keys], ["f32", "s32"], True


def family_reductions() -> Iterator[Case]:
    for t, op in (("s8", "add"), ("s32", "multiply"), ("u8", "add"), ("f32", "maximum"), ("f32", "minimum"),
                  ("pred", "and"), ("pred", "or"), ("bf16", "add"), ("f16", "add"), ("s4", "add")):  # fmt: skip
        x = _random(t, (4, 6), 6)
        init = (
            "true"
            if (t, op) == ("pred", "and")
            else "false"
            if t == "pred"
            else "0"
            if op != "multiply"
            else "1"
        )
        if op in ("maximum", "minimum"):
            x[0, 0] = np.nan
            init = "-inf" if op == "maximum" else "inf"
        text = (
            f"HloModule m\n\nf {{\n  p = {t}[] parameter(0)\n  q = {t}[] parameter(1)\n  ROOT r = {t}[] {op}(p, q)\n}}\n\n"
            f"ENTRY main {{\n  a = {t}[4,6] parameter(0)\n  z = {t}[] constant({init})\n"
            f"  ROOT r = {t}[6] reduce(a, z), dimensions={{0}}, to_apply=f\n}}\n"
        )
        yield text, [x], [t, t], t not in FLOATS
        text = (
            f"HloModule m\n\nf {{\n  p = {t}[] parameter(0)\n  q = {t}[] parameter(1)\n  ROOT r = {t}[] {op}(p, q)\n}}\n\n"
            f"ENTRY main {{\n  a = {t}[4,6] parameter(0)\n  z = {t}[] constant({init})\n"
            f"  ROOT r = {t}[3,3] reduce-window(a, z), window={{size=2x3 stride=1x2 pad=0_0x1_1 lhs_dilate=1x1 rhs_dilate=1x1}}, to_apply=f\n}}\n"
        )
        yield text, [x], [t, t], t not in FLOATS
    for lt, rt, out in (("s8", "s8", "s32"), ("s32", "s32", "s32"), ("bf16", "bf16", "f32"), ("bf16", "bf16", "bf16"),
                        ("f16", "f16", "f16"), ("u8", "u8", "u32"), ("f64", "f64", "f64"), ("c64", "c64", "c64")):  # fmt: skip
        a, b = _random(lt, (2, 3, 4), 7), _random(rt, (2, 4, 5), 8)
        text = module(
            f"  a = {lt}[2,3,4] parameter(0)\n  b = {rt}[2,4,5] parameter(1)\n"
            f"  ROOT r = {out}[2,3,5] dot(a, b), lhs_batch_dims={{0}}, lhs_contracting_dims={{2}}, rhs_batch_dims={{0}}, rhs_contracting_dims={{1}}"
        )
        yield text, [a, b], [lt, rt, out], lt not in FLOATS and lt != "c64"
    for t, out in (("s8", "s32"), ("f32", "f32"), ("bf16", "bf16")):
        x, k = _random(t, (2, 7, 6, 4), 9), _random(t, (3, 2, 2, 6), 10)
        text = module(
            f"  x = {t}[2,7,6,4] parameter(0)\n  k = {t}[3,2,2,6] parameter(1)\n"
            f"  ROOT r = {out}[2,4,3,6] convolution(x, k), window={{size=3x2 stride=2x2 pad=1_1x0_1 rhs_dilate=1x2}}, "
            "dim_labels=b01f_01io->b01f, feature_group_count=2"
        )
        yield text, [x, k], [t, t, out], t == "s8"


def family_empty_and_unit() -> Iterator[Case]:
    """Arrays with a size-0 or size-1 dimension through common ops."""
    add_fn = "HloModule m\n\nadd {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  ROOT r = f32[] add(p, q)\n}\n\n"
    bodies = [
        ("f32[0,3]", "  ROOT r = f32[0,3] exponential(a)"),
        ("f32[0,3]", "  z = f32[] constant(1)\n  ROOT r = f32[3] reduce(a, z), dimensions={0}, to_apply=add"),
        ("f32[0,3]", "  z = f32[] constant(1)\n  ROOT r = f32[0] reduce(a, z), dimensions={1}, to_apply=add"),
        ("f32[1,3]", "  z = f32[] constant(1)\n  ROOT r = f32[3] reduce(a, z), dimensions={0}, to_apply=add"),
        (
            "f32[0,3]",
            "  b = f32[3,4] parameter(1)\n  ROOT r = f32[0,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
        ),
        (
            "f32[2,0]",
            "  b = f32[0,4] parameter(1)\n  ROOT r = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}",
        ),
        ("f32[0,3]", "  ROOT r = f32[2,3] pad(a, z), padding=1_1_0x0_0_0\n  z = f32[] constant(7)"),
        ("f32[0,3]", "  b = f32[2,3] parameter(1)\n  ROOT r = f32[2,3] concatenate(a, b), dimensions={0}"),
        ("f32[1,1]", "  ROOT r = f32[4,1,1] broadcast(a), dimensions={1,2}"),
        ("f32[0,3]", "  ROOT r = f32[3,0] transpose(a), dimensions={1,0}"),
        (
            "f32[1,5]",
            "  z = f32[] constant(0)\n  ROOT r = f32[1,4] reduce-window(a, z), window={size=1x2}, to_apply=add",
        ),
        (
            "f32[0,5]",
            "  z = f32[] constant(0)\n  ROOT r = f32[0,4] reduce-window(a, z), window={size=1x2}, to_apply=add",
        ),
    ]
    for shape, body in bodies:
        dims = tuple(int(d) for d in shape[4:-1].split(","))
        x = _random("f32", dims, 11)
        text = add_fn + f"ENTRY main {{\n  a = {shape} parameter(0)\n" + body + "\n}\n"
        args = [x]
        types = ["f32"]
        if "parameter(1)" in body:
            other = body.split("parameter(1)")[0].split("=")[-1].strip()
            args.append(_random("f32", tuple(int(d) for d in other[4:-1].split(",")), 12))
            types.append("f32")
        # constants after use are not valid HLO: put the constant first
        text = text.replace("  ROOT r = f32[2,3] pad(a, z), padding=1_1_0x0_0_0\n  z = f32[] constant(7)",
                            "  z = f32[] constant(7)\n  ROOT r = f32[2,3] pad(a, z), padding=1_1_0x0_0_0")  # fmt: skip
        yield text, args, [*types, "f32"], True


def family_dynamic() -> Iterator[Case]:
    """Bounded dynamic dimensions set by set-dimension-size inside the module (XLA:CPU refuses
    dynamic entry parameters) through elementwise ops, reductions, slicing, reshape, broadcast,
    concatenation and transposition."""
    add_fn = "HloModule m\n\nadd {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n  ROOT r = f32[] add(p, q)\n}\n\n"
    set_size = "  n = s32[] parameter(1)\n  d = f32[<=10] set-dimension-size(a, n), dimensions={0}\n"
    bodies = [
        "  z = f32[] constant(0)\n  ROOT r = f32[] reduce(d, z), dimensions={0}, to_apply=add",
        "  e = f32[<=10] multiply(d, d)\n  z = f32[] constant(0)\n  ROOT r = f32[] reduce(e, z), dimensions={0}, to_apply=add",
        "  s = f32[<=5] slice(d), slice={[2:7]}\n  ROOT g = s32[] get-dimension-size(s), dimensions={0}",
        "  s = f32[<=5] slice(d), slice={[2:7]}\n  z = f32[] constant(0)\n  ROOT r = f32[] reduce(s, z), dimensions={0}, to_apply=add",
        "  b = f32[<=10,1] reshape(d)\n  ROOT g = s32[] get-dimension-size(b), dimensions={0}",
        "  b = f32[3,<=10] broadcast(d), dimensions={1}\n  z = f32[] constant(0)\n  ROOT r = f32[3] reduce(b, z), dimensions={1}, to_apply=add",
        "  c = f32[<=20] concatenate(d, d), dimensions={0}\n  ROOT g = s32[] get-dimension-size(c), dimensions={0}",
        "  c = f32[<=20] concatenate(d, d), dimensions={0}\n  z = f32[] constant(0)\n  ROOT r = f32[] reduce(c, z), dimensions={0}, to_apply=add",
        "  ROOT g = s32[] get-dimension-size(d), dimensions={0}",
    ]
    for body in bodies:
        text = add_fn + "ENTRY main {\n  a = f32[10] parameter(0)\n" + set_size + body + "\n}\n"
        # XLA:CPU reports a slice's dynamic size as size - start unclamped (-2, or 8 for a bound
        # of 5): hlo clamps it into the slice; sizes where both agree only
        sizes = (4, 7) if "get-dimension-size(s)" in body else (0, 4, 7, 10)
        for n in sizes:
            yield text, [np.arange(1, 11, dtype=np.float32), np.array(n, np.int32)], ["f32", "s32", "?"], True


FAMILIES = {
    "elementwise_unary": family_elementwise_unary,
    "elementwise_binary": family_elementwise_binary,
    "compare": family_compare,
    "convert": family_convert,
    "data_movement": family_data_movement,
    "indexing": family_indexing,
    "reductions": family_reductions,
    "empty_and_unit": family_empty_and_unit,
    "dynamic": family_dynamic,
}


def run_on_cpu(text: str, args: list[np.ndarray]) -> list[np.ndarray]:
    import jax
    import jax.extend
    from jax._src.lib import _jax
    from jax._src.lib import xla_client as xc

    jax.config.update("jax_enable_x64", True)
    hlo_module = xc.hlo.hlo_module_from_text(text)
    computation = xc.XlaComputation(hlo_module.as_serialized_hlo_module_proto())
    mlir = _jax.mlir.xla_computation_to_mlir_module(computation)
    backend = jax.extend.backend.get_backend("cpu")
    executable = backend.compile_and_load(
        mlir, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions()
    )
    return [np.asarray(o) for o in executable.execute([jax.device_put(a) for a in args])]


def storable(x: np.ndarray) -> np.ndarray:
    """NumPy-native arrays as they are; ml_dtypes arrays as their raw bits."""
    if not x.dtype.type.__module__.startswith("numpy"):  # ml_dtypes (their kind varies by version)
        return x.view(np.uint8 if x.dtype.itemsize == 1 else np.uint16)
    return x


def write_family(path: Path, cases: Iterable[Any]) -> None:
    """Run each case (text, args, types, exact[, reference]) on XLA:CPU, unless it brings its own
    reference, and write the cases XLA:CPU accepts to `path` in the fixture format."""
    arrays: dict[str, np.ndarray] = {}
    k = 0
    refused = 0
    for text, args, types, exact, *given in cases:
        try:
            (out,) = given or run_on_cpu(text, args)
        except Exception as e:  # XLA:CPU refuses some type/op pairs: leave them out
            refused += 1
            print(f"  refused: {text.splitlines()[-2].strip()}: {str(e).splitlines()[0][:100]}")
            continue
        arrays[f"case{k}_hlo"] = np.array(text)
        if types[-1] == "?":
            types = [*types[:-1], {"float32": "f32", "int32": "s32"}[str(out.dtype)]]
        arrays[f"case{k}_types"] = np.array(types)
        arrays[f"case{k}_exact"] = np.array(exact)
        for j, a in enumerate(args):
            arrays[f"case{k}_arg{j}"] = storable(np.asarray(a))
        arrays[f"case{k}_out"] = storable(out)
        k += 1
    np.savez_compressed(path, **arrays)
    print(f"{path.stem}: {k} cases ({refused} refused by XLA:CPU)")


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name in names or list(FAMILIES):
        write_family(OUT / f"{name}.npz", FAMILIES[name]())


if __name__ == "__main__":
    main(sys.argv[1:])
