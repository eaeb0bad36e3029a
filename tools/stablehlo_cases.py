"""The per-op StableHLO cases of make_stablehlo_fixtures.py: every op of the StableHLO spec that
XLA:CPU runs, in the pretty form JAX prints (and a few in the generic form), over the element
types it takes. Each case is one module whose @main takes the listed arguments."""

# ruff: noqa: E501  (tables of cases)
from __future__ import annotations

from dataclasses import dataclass, field

MLIR = {
    "pred": "i1", "s8": "i8", "s16": "i16", "s32": "i32", "s64": "i64", "u8": "ui8", "u16": "ui16",
    "u32": "ui32", "u64": "ui64", "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64",
    "c64": "complex<f32>", "c128": "complex<f64>", "s4": "i4", "u4": "ui4", "f8e4m3fn": "f8E4M3FN",
    "f8e5m2": "f8E5M2",
}  # fmt: skip
FLOATS = ["f16", "bf16", "f32", "f64"]
COMPLEX = ["c64", "c128"]
INTS = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]
N = 8  # elements of the elementwise cases


@dataclass
class Case:
    name: str
    text: str
    args: list[tuple[str, tuple[int, ...], str]] = field(default_factory=list)  # (type, shape, kind)
    # What XLA:CPU runs instead when XLA cannot convert the case itself (the static op the case
    # means, as StableHLO's shape refinement rewrites it)
    reference: str = ""


CASES: list[Case] = []


def t(ty: str, shape: tuple[int, ...] = (N,)) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{MLIR[ty]}>"


def module(args: list[str], results: list[str], body: str) -> str:
    params = ", ".join(f"%arg{k}: {a}" for k, a in enumerate(args))
    res = results[0] if len(results) == 1 else "(" + ", ".join(results) + ")"
    return f"func.func public @main({params}) -> {res} {{\n{body}\n}}\n"


def add(
    name: str,
    args: list[tuple[str, tuple[int, ...], str]],
    results: list[str],
    body: str,
    reference: str = "",
) -> None:
    params = [t(a, s) for a, s, _ in args]
    ref = module(params, results, reference) if reference else ""
    CASES.append(Case(name, module(params, results, body), args, ref))


# -- elementwise ----------------------------------------------------------------------------------
UNARY = {
    "abs": FLOATS + ["s8", "s32", "s64"] + COMPLEX, "cbrt": FLOATS, "ceil": FLOATS, "floor": FLOATS,
    "cosine": FLOATS + COMPLEX, "sine": FLOATS + COMPLEX, "exponential": FLOATS + COMPLEX,
    "exponential_minus_one": FLOATS + COMPLEX, "log": FLOATS + COMPLEX, "log_plus_one": FLOATS + COMPLEX,
    "logistic": FLOATS + COMPLEX, "negate": FLOATS + INTS + COMPLEX, "not": INTS + ["pred"],
    "popcnt": INTS, "count_leading_zeros": INTS, "round_nearest_afz": FLOATS,
    "round_nearest_even": FLOATS, "rsqrt": FLOATS + COMPLEX, "sqrt": FLOATS + COMPLEX,
    "sign": FLOATS + ["s8", "s32", "s64"] + COMPLEX, "tan": FLOATS + COMPLEX, "tanh": FLOATS + COMPLEX,
}  # fmt: skip
for op, types in UNARY.items():
    for ty in types:
        res = {"c64": "f32", "c128": "f64"}.get(ty, ty) if op == "abs" else ty
        fn = (
            f"    %0 = stablehlo.{op} %arg0 : {t(ty)}"
            if res == ty
            else f"    %0 = stablehlo.{op} %arg0 : ({t(ty)}) -> {t(res)}"
        )
        add(f"{op}_{ty}", [(ty, (N,), "edges")], [t(res)], fn + f"\n    return %0 : {t(res)}")
for ty in FLOATS:
    add(
        f"is_finite_{ty}",
        [(ty, (N,), "edges")],
        [t("pred")],
        f"    %0 = stablehlo.is_finite %arg0 : ({t(ty)}) -> {t('pred')}\n    return %0 : {t('pred')}",
    )
for ty, part in (("c64", "f32"), ("c128", "f64")):
    for op in ("real", "imag"):
        add(
            f"{op}_{ty}",
            [(ty, (N,), "edges")],
            [t(part)],
            f"    %0 = stablehlo.{op} %arg0 : ({t(ty)}) -> {t(part)}\n    return %0 : {t(part)}",
        )
    add(
        f"complex_{part}",
        [(part, (N,), "edges"), (part, (N,), "edges")],
        [t(ty)],
        f"    %0 = stablehlo.complex %arg0, %arg1 : {t(ty)}\n    return %0 : {t(ty)}",
    )

# Complex power and atan2 are left out: hlo's engine has no complex atan2 kernel yet, and complex
# 0^0 differs (XLA:CPU gives NaN); both are engine matters, not the reader's.
BINARY = {
    "add": FLOATS + INTS + COMPLEX + ["pred"], "subtract": FLOATS + INTS + COMPLEX,
    "multiply": FLOATS + INTS + COMPLEX + ["pred"], "divide": FLOATS + INTS + COMPLEX,
    "remainder": FLOATS + INTS, "maximum": FLOATS + INTS + ["pred"], "minimum": FLOATS + INTS + ["pred"],
    "power": FLOATS + ["s32", "s64", "u32"], "atan2": FLOATS,
    "and": INTS + ["pred"], "or": INTS + ["pred"], "xor": INTS + ["pred"],
    "shift_left": INTS, "shift_right_arithmetic": INTS, "shift_right_logical": INTS,
}  # fmt: skip
for op, types in BINARY.items():
    for ty in types:
        add(
            f"{op}_{ty}",
            [(ty, (N,), "edges"), (ty, (N,), "edges")],
            [t(ty)],
            f"    %0 = stablehlo.{op} %arg0, %arg1 : {t(ty)}\n    return %0 : {t(ty)}",
        )

for direction in ("EQ", "NE", "LT", "LE", "GT", "GE"):
    for ty, ctype in (
        ("f32", "FLOAT"),
        ("f32", "TOTALORDER"),
        ("s32", "SIGNED"),
        ("u32", "UNSIGNED"),
        ("bf16", "FLOAT"),
        ("pred", "UNSIGNED"),
        ("f64", "FLOAT"),
    ):
        add(
            f"compare_{direction}_{ty}_{ctype}",
            [(ty, (N,), "edges"), (ty, (N,), "edges")],
            [t("pred")],
            f"    %0 = stablehlo.compare {direction}, %arg0, %arg1, {ctype} : ({t(ty)}, {t(ty)}) -> {t('pred')}\n    return %0 : {t('pred')}",
        )

CONVERTS = [
    ("f32", x)
    for x in [
        "f16",
        "bf16",
        "f64",
        "s8",
        "s32",
        "s64",
        "u8",
        "u32",
        "pred",
        "c64",
        "f8e4m3fn",
        "f8e5m2",
        "s4",
        "u4",
    ]
]
CONVERTS += [
    (x, "f32")
    for x in ["f16", "bf16", "f64", "s8", "s32", "s64", "u8", "u32", "pred", "f8e4m3fn", "f8e5m2", "s4", "u4"]
]
CONVERTS += [("s32", "s8"), ("s64", "u32"), ("u8", "s8"), ("c64", "c128"), ("f64", "bf16"), ("s32", "pred")]
CONVERTS += [("c64", "pred"), ("c128", "pred"), ("c64", "s32"), ("c128", "f32"), ("c64", "f64")]
for a, b in CONVERTS:
    add(
        f"convert_{a}_{b}",
        [(a, (N,), "edges")],
        [t(b)],
        f"    %0 = stablehlo.convert %arg0 : ({t(a)}) -> {t(b)}\n    return %0 : {t(b)}",
    )

for a, b, shape_b in (
    ("f32", "s32", (N,)),
    ("f32", "u8", (N, 4)),
    ("f64", "u64", (N,)),
    ("bf16", "s16", (N,)),
    ("u8", "f8e4m3fn", (N,)),
):
    add(
        f"bitcast_convert_{a}_{b}",
        [(a, (N,), "edges")],
        [t(b, shape_b)],
        f"    %0 = stablehlo.bitcast_convert %arg0 : ({t(a)}) -> {t(b, shape_b)}\n    return %0 : {t(b, shape_b)}",
    )

for ty in ["f32", "s32", "bf16", "pred"]:
    add(
        f"select_{ty}",
        [("pred", (N,), "edges"), (ty, (N,), "edges"), (ty, (N,), "edges")],
        [t(ty)],
        f"    %0 = stablehlo.select %arg0, %arg1, %arg2 : {t('pred')}, {t(ty)}\n    return %0 : {t(ty)}",
    )
    add(
        f"clamp_{ty}",
        [(ty, (N,), "edges"), (ty, (N,), "edges"), (ty, (N,), "edges")],
        [t(ty)],
        f"    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : {t(ty)}\n    return %0 : {t(ty)}",
    )

for ty in ["f32", "bf16"]:
    for e, m in ((5, 10), (8, 7), (4, 3), (5, 2), (1, 0)):
        add(
            f"reduce_precision_{ty}_e{e}m{m}",
            [(ty, (N,), "edges")],
            [t(ty)],
            f"    %0 = stablehlo.reduce_precision %arg0, format = e{e}m{m} : {t(ty)}\n    return %0 : {t(ty)}",
        )

# -- shapes and data movement -------------------------------------------------------------------
F = "f32"
add(
    "broadcast_in_dim",
    [(F, (1, 3), "normal")],
    [t(F, (2, 4, 3))],
    f"    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : ({t(F, (1, 3))}) -> {t(F, (2, 4, 3))}\n    return %0 : {t(F, (2, 4, 3))}",
)
add(
    "broadcast_in_dim_transposing",
    [("s32", (2, 3), "normal")],
    [t("s32", (3, 4, 2))],
    f"    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 0] : ({t('s32', (2, 3))}) -> {t('s32', (3, 4, 2))}\n    return %0 : {t('s32', (3, 4, 2))}",
)
add(
    "broadcast",
    [(F, (2, 3), "normal")],
    [t(F, (4, 2, 3))],
    f"    %0 = stablehlo.broadcast %arg0, sizes = [4] : ({t(F, (2, 3))}) -> {t(F, (4, 2, 3))}\n    return %0 : {t(F, (4, 2, 3))}",
)
add(
    "reshape",
    [(F, (2, 3, 4), "normal")],
    [t(F, (6, 4))],
    f"    %0 = stablehlo.reshape %arg0 : ({t(F, (2, 3, 4))}) -> {t(F, (6, 4))}\n    return %0 : {t(F, (6, 4))}",
)
add(
    "transpose",
    [("bf16", (2, 3, 4), "normal")],
    [t("bf16", (4, 2, 3))],
    f"    %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] : ({t('bf16', (2, 3, 4))}) -> {t('bf16', (4, 2, 3))}\n    return %0 : {t('bf16', (4, 2, 3))}",
)
add(
    "reverse",
    [(F, (3, 4), "normal")],
    [t(F, (3, 4))],
    f"    %0 = stablehlo.reverse %arg0, dims = [0, 1] : {t(F, (3, 4))}\n    return %0 : {t(F, (3, 4))}",
)
add(
    "concatenate",
    [(F, (2, 3), "normal"), (F, (4, 3), "normal")],
    [t(F, (6, 3))],
    f"    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : ({t(F, (2, 3))}, {t(F, (4, 3))}) -> {t(F, (6, 3))}\n    return %0 : {t(F, (6, 3))}",
)
add(
    "slice_strided",
    [(F, (6, 8), "normal")],
    [t(F, (3, 2))],
    f"    %0 = stablehlo.slice %arg0 [0:6:2, 1:7:3] : ({t(F, (6, 8))}) -> {t(F, (3, 2))}\n    return %0 : {t(F, (3, 2))}",
)
add(
    "iota_u8",
    [],
    [t("u8", (3, 4))],
    f"    %0 = stablehlo.iota dim = 1 : {t('u8', (3, 4))}\n    return %0 : {t('u8', (3, 4))}",
)
add(
    "iota_f32",
    [],
    [t(F, (5,))],
    f"    %0 = stablehlo.iota dim = 0 : {t(F, (5,))}\n    return %0 : {t(F, (5,))}",
)
add(
    "dynamic_slice",
    [(F, (6, 8), "normal"), ("s32", (), "index"), ("s32", (), "index")],
    [t(F, (2, 3))],
    f"    %0 = stablehlo.dynamic_slice %arg0, %arg1, %arg2, sizes = [2, 3] : ({t(F, (6, 8))}, {t('s32', ())}, {t('s32', ())}) -> {t(F, (2, 3))}\n    return %0 : {t(F, (2, 3))}",
)
add(
    "dynamic_update_slice",
    [(F, (6, 8), "normal"), (F, (2, 3), "normal"), ("s64", (), "index"), ("s64", (), "index")],
    [t(F, (6, 8))],
    f"    %0 = stablehlo.dynamic_update_slice %arg0, %arg1, %arg2, %arg3 : ({t(F, (6, 8))}, {t(F, (2, 3))}, {t('s64', ())}, {t('s64', ())}) -> {t(F, (6, 8))}\n    return %0 : {t(F, (6, 8))}",
)
add(
    "pad",
    [(F, (3, 4), "normal"), (F, (), "normal")],
    [t(F, (6, 8))],
    f"    %0 = stablehlo.pad %arg0, %arg1, low = [1, -1], high = [0, 2], interior = [1, 1] : ({t(F, (3, 4))}, {t(F, ())}) -> {t(F, (6, 8))}\n    return %0 : {t(F, (6, 8))}",
)
add(
    "tuple_get_tuple_element",
    [(F, (2,), "normal"), ("s32", (3,), "normal")],
    [t("s32", (3,))],
    f"    %0 = stablehlo.tuple %arg0, %arg1 : tuple<{t(F, (2,))}, {t('s32', (3,))}>\n    %1 = stablehlo.get_tuple_element %0[1] : (tuple<{t(F, (2,))}, {t('s32', (3,))}>) -> {t('s32', (3,))}\n    return %1 : {t('s32', (3,))}",
)
add(
    "optimization_barrier",
    [(F, (2,), "normal"), ("s32", (3,), "normal")],
    [t(F, (2,)), t("s32", (3,))],
    f"    %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : {t(F, (2,))}, {t('s32', (3,))}\n    return %0#0, %0#1 : {t(F, (2,))}, {t('s32', (3,))}",
)
add(
    "constants",
    [],
    [t(F, (2, 2)), t("c64", (2,)), t("pred", (3,)), t("bf16", (2,)), t("u8", (2,))],
    "    %0 = stablehlo.constant dense<[[1.500000e+00, -2.000000e+00], [0x7FC00000, 0xFF800000]]> : tensor<2x2xf32>\n"
    "    %1 = stablehlo.constant dense<[(1.000000e+00,2.000000e+00), (-0.000000e+00,3.500000e+00)]> : tensor<2xcomplex<f32>>\n"
    "    %2 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>\n"
    '    %3 = stablehlo.constant dense<"0x803F0040"> : tensor<2xbf16>\n'
    "    %4 = stablehlo.constant dense<255> : tensor<2xui8>\n"
    "    return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<2xcomplex<f32>>, tensor<3xi1>, tensor<2xbf16>, tensor<2xui8>",
)

# -- dot, convolution, fft --------------------------------------------------------------------------
for ty, acc in (
    ("f32", "f32"),
    ("f64", "f64"),
    ("bf16", "bf16"),
    ("s32", "s32"),
    ("s8", "s32"),
    ("c64", "c64"),
    ("f16", "f32"),
):
    add(
        f"dot_general_{ty}_{acc}",
        [(ty, (2, 3, 4), "normal"), (ty, (2, 4, 5), "normal")],
        [t(acc, (2, 3, 5))],
        f"    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : ({t(ty, (2, 3, 4))}, {t(ty, (2, 4, 5))}) -> {t(acc, (2, 3, 5))}\n    return %0 : {t(acc, (2, 3, 5))}",
    )
add(
    "dot",
    [(F, (3, 4), "normal"), (F, (4,), "normal")],
    [t(F, (3,))],
    f"    %0 = stablehlo.dot %arg0, %arg1 : ({t(F, (3, 4))}, {t(F, (4,))}) -> {t(F, (3,))}\n    return %0 : {t(F, (3,))}",
)
add(
    "convolution",
    [(F, (1, 6, 6, 2), "normal"), (F, (3, 3, 2, 4), "normal")],
    [t(F, (1, 3, 3, 4))],
    f"    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]}} {{batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}} : ({t(F, (1, 6, 6, 2))}, {t(F, (3, 3, 2, 4))}) -> {t(F, (1, 3, 3, 4))}\n    return %0 : {t(F, (1, 3, 3, 4))}",
)
add(
    "convolution_generic",
    [(F, (2, 4, 5), "normal"), (F, (6, 2, 3), "normal")],
    [t(F, (2, 6, 4))],
    f'    %0 = "stablehlo.convolution"(%arg0, %arg1) <{{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 2 : i64, lhs_dilation = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 2>, window_strides = array<i64: 2>}}> : ({t(F, (2, 4, 5))}, {t(F, (6, 2, 3))}) -> {t(F, (2, 6, 4))}\n    return %0 : {t(F, (2, 6, 4))}',
)
for kind, a, r, lengths in (
    ("FFT", ("c64", (3, 8)), ("c64", (3, 8)), "[8]"),
    ("IFFT", ("c128", (4, 4)), ("c128", (4, 4)), "[4, 4]"),
    ("RFFT", ("f32", (2, 8)), ("c64", (2, 5)), "[8]"),
    ("IRFFT", ("c64", (2, 5)), ("f32", (2, 8)), "[8]"),
):
    add(
        f"fft_{kind}",
        [(a[0], a[1], "normal")],
        [t(*r)],
        f"    %0 = stablehlo.fft %arg0, type = {kind}, length = {lengths} : ({t(*a)}) -> {t(*r)}\n    return %0 : {t(*r)}",
    )

# -- reductions, windows, sort, gather, scatter ---------------------------------------------------
add(
    "reduce_applies",
    [(F, (3, 4), "normal")],
    [t(F, (4,))],
    f"    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : ({t(F, (3, 4))}, tensor<f32>) -> {t(F, (4,))}\n    return %0 : {t(F, (4,))}",
)
add(
    "reduce_argmax_variadic",
    [(F, (3, 4), "normal"), ("s32", (3, 4), "normal")],
    [t(F, (3,)), t("s32", (3,))],
    "    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>\n    %c = stablehlo.constant dense<0> : tensor<i32>\n"
    f"    %0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [1] : ({t(F, (3, 4))}, {t('s32', (3, 4))}, tensor<f32>, tensor<i32>) -> ({t(F, (3,))}, {t('s32', (3,))})\n"
    "     reducer(%a: tensor<f32>, %b: tensor<f32>) (%i: tensor<i32>, %j: tensor<i32>)  {\n"
    "      %1 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "      %2 = stablehlo.select %1, %a, %b : tensor<i1>, tensor<f32>\n"
    "      %3 = stablehlo.select %1, %i, %j : tensor<i1>, tensor<i32>\n"
    "      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>\n    }\n"
    f"    return %0#0, %0#1 : {t(F, (3,))}, {t('s32', (3,))}",
)
add(
    "reduce_window_max",
    [(F, (4, 6), "normal")],
    [t(F, (2, 3))],
    "    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
    f'    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{{padding = dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}}> ({{\n'
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.maximum %a, %b : tensor<f32>\n      stablehlo.return %1 : tensor<f32>\n"
    f"    }}) : ({t(F, (4, 6))}, tensor<f32>) -> {t(F, (2, 3))}\n    return %0 : {t(F, (2, 3))}",
)
add(
    "select_and_scatter",
    [(F, (4, 4), "normal"), (F, (2, 2), "normal")],
    [t(F, (4, 4))],
    "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
    f'    %0 = "stablehlo.select_and_scatter"(%arg0, %arg1, %cst) <{{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}}> ({{\n'
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n      stablehlo.return %1 : tensor<i1>\n    }, {\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %1 : tensor<f32>\n"
    f"    }}) : ({t(F, (4, 4))}, {t(F, (2, 2))}, tensor<f32>) -> {t(F, (4, 4))}\n    return %0 : {t(F, (4, 4))}",
)
add(
    "sort_two_keys",
    [(F, (2, 5), "normal"), ("s32", (2, 5), "normal")],
    [t(F, (2, 5)), t("s32", (2, 5))],
    f'    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{{dimension = 1 : i64, is_stable = true}}> ({{\n'
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):\n      %1 = stablehlo.compare GT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n      stablehlo.return %1 : tensor<i1>\n"
    f"    }}) : ({t(F, (2, 5))}, {t('s32', (2, 5))}) -> ({t(F, (2, 5))}, {t('s32', (2, 5))})\n    return %0#0, %0#1 : {t(F, (2, 5))}, {t('s32', (2, 5))}",
)
add(
    "gather",
    [(F, (5, 4), "normal"), ("s32", (3, 1), "index")],
    [t(F, (3, 2))],
    f'    %0 = "stablehlo.gather"(%arg0, %arg1) <{{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}}> : ({t(F, (5, 4))}, {t("s32", (3, 1))}) -> {t(F, (3, 2))}\n    return %0 : {t(F, (3, 2))}',
)
add(
    "scatter_add",
    [(F, (5, 4), "normal"), ("s32", (3, 1), "index"), (F, (3, 4), "normal")],
    [t(F, (5, 4))],
    f'    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}}> ({{\n'
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %1 : tensor<f32>\n"
    f"    }}) : ({t(F, (5, 4))}, {t('s32', (3, 1))}, {t(F, (3, 4))}) -> {t(F, (5, 4))}\n    return %0 : {t(F, (5, 4))}",
)
add(
    "map",
    [(F, (6,), "normal"), (F, (6,), "normal")],
    [t(F, (6,))],
    f'    %0 = "stablehlo.map"(%arg0, %arg1) <{{dimensions = array<i64: 0>}}> ({{\n'
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.multiply %a, %b : tensor<f32>\n      %2 = stablehlo.add %1, %a : tensor<f32>\n      stablehlo.return %2 : tensor<f32>\n"
    f"    }}) : ({t(F, (6,))}, {t(F, (6,))}) -> {t(F, (6,))}\n    return %0 : {t(F, (6,))}",
)

# -- control flow, calls ------------------------------------------------------------------------
add(
    "while_captures",
    [("s32", (), "index"), (F, (3,), "normal")],
    [t("s32", ()), t(F, (3,))],
    "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
    f"    %0:2 = stablehlo.while(%i = %arg0, %x = %arg1) : tensor<i32>, {t(F, (3,))}\n    cond {{\n"
    "      %c5 = stablehlo.constant dense<5> : tensor<i32>\n      %1 = stablehlo.compare LT, %i, %c5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n      stablehlo.return %1 : tensor<i1>\n    } do {\n"
    f"      %1 = stablehlo.add %i, %c : tensor<i32>\n      %2 = stablehlo.add %x, %arg1 : {t(F, (3,))}\n      stablehlo.return %1, %2 : tensor<i32>, {t(F, (3,))}\n    }}\n"
    f"    return %0#0, %0#1 : tensor<i32>, {t(F, (3,))}",
)
add(
    "if_captures",
    [("pred", (), "index"), (F, (3,), "normal"), (F, (3,), "normal")],
    [t(F, (3,))],
    f'    %0 = "stablehlo.if"(%arg0) ({{\n      %1 = stablehlo.add %arg1, %arg2 : {t(F, (3,))}\n      stablehlo.return %1 : {t(F, (3,))}\n    }}, {{\n      %1 = stablehlo.sine %arg1 : {t(F, (3,))}\n      stablehlo.return %1 : {t(F, (3,))}\n'
    f"    }}) : (tensor<i1>) -> {t(F, (3,))}\n    return %0 : {t(F, (3,))}",
)
add(
    "case_three_branches",
    [("s32", (), "index"), (F, (3,), "normal")],
    [t(F, (3,)), t("s32", ())],
    f'    %0:2 = "stablehlo.case"(%arg0) ({{\n      %c = stablehlo.constant dense<7> : tensor<i32>\n      stablehlo.return %arg1, %c : {t(F, (3,))}, tensor<i32>\n    }}, {{\n'
    f"      %1 = stablehlo.negate %arg1 : {t(F, (3,))}\n      %c = stablehlo.constant dense<8> : tensor<i32>\n      stablehlo.return %1, %c : {t(F, (3,))}, tensor<i32>\n    }}, {{\n"
    f"      %1 = stablehlo.exponential %arg1 : {t(F, (3,))}\n      %c = stablehlo.constant dense<9> : tensor<i32>\n      stablehlo.return %1, %c : {t(F, (3,))}, tensor<i32>\n"
    f"    }}) : (tensor<i32>) -> ({t(F, (3,))}, tensor<i32>)\n    return %0#0, %0#1 : {t(F, (3,))}, tensor<i32>",
)
CASES.append(
    Case(
        "call_private_function",
        (
            f"func.func public @main(%arg0: {t(F, (4,))}) -> ({t(F, (4,))}, {t(F, (4,))}) {{\n"
            f"    %0:2 = call @twice(%arg0) : ({t(F, (4,))}) -> ({t(F, (4,))}, {t(F, (4,))})\n    %1 = func.call @twice_more(%0#1) : ({t(F, (4,))}) -> {t(F, (4,))}\n    return %0#0, %1 : {t(F, (4,))}, {t(F, (4,))}\n}}\n"
            f"func.func private @twice(%arg0: {t(F, (4,))}) -> ({t(F, (4,))}, {t(F, (4,))}) {{\n    %0 = stablehlo.add %arg0, %arg0 : {t(F, (4,))}\n    return %0, %arg0 : {t(F, (4,))}, {t(F, (4,))}\n}}\n"
            f"func.func private @twice_more(%arg0: {t(F, (4,))}) -> {t(F, (4,))} {{\n    %0 = stablehlo.multiply %arg0, %arg0 : {t(F, (4,))}\n    return %0 : {t(F, (4,))}\n}}\n"
        ),
        [(F, (4,), "normal")],
    )
)
CASES.append(
    Case(
        "composite",
        (
            f"func.func public @main(%arg0: {t(F, (4,))}) -> {t(F, (4,))} {{\n"
            f'    %0 = stablehlo.composite "my.square" %arg0 {{composite_attributes = {{power = 2 : i64}}, decomposition = @square}} : ({t(F, (4,))}) -> {t(F, (4,))}\n    return %0 : {t(F, (4,))}\n}}\n'
            f"func.func private @square(%arg0: {t(F, (4,))}) -> {t(F, (4,))} {{\n    %0 = stablehlo.multiply %arg0, %arg0 : {t(F, (4,))}\n    return %0 : {t(F, (4,))}\n}}\n"
        ),
        [(F, (4,), "normal")],
    )
)

# -- rng, linear algebra, batch norm ------------------------------------------------------------
for alg in ("THREE_FRY", "PHILOX"):
    add(
        f"rng_bit_generator_{alg}",
        [("u64", (2,), "normal")],
        [t("u64", (2,)), t("u32", (2, 3))],
        f"    %0, %1 = stablehlo.rng_bit_generator %arg0, algorithm = {alg} : ({t('u64', (2,))}) -> ({t('u64', (2,))}, {t('u32', (2, 3))})\n    return %0, %1 : {t('u64', (2,))}, {t('u32', (2, 3))}",
    )
add(
    "batch_norm_inference",
    [
        (F, (2, 3), "normal"),
        (F, (3,), "normal"),
        (F, (3,), "normal"),
        (F, (3,), "normal"),
        (F, (3,), "index"),
    ],
    [t(F, (2, 3))],
    f'    %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) <{{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}}> : ({t(F, (2, 3))}, {t(F, (3,))}, {t(F, (3,))}, {t(F, (3,))}, {t(F, (3,))}) -> {t(F, (2, 3))}\n    return %0 : {t(F, (2, 3))}',
)
add(
    "batch_norm_training",
    [(F, (4, 3), "normal"), (F, (3,), "normal"), (F, (3,), "normal")],
    [t(F, (4, 3)), t(F, (3,)), t(F, (3,))],
    f'    %0:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) <{{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}}> : ({t(F, (4, 3))}, {t(F, (3,))}, {t(F, (3,))}) -> ({t(F, (4, 3))}, {t(F, (3,))}, {t(F, (3,))})\n    return %0#0, %0#1, %0#2 : {t(F, (4, 3))}, {t(F, (3,))}, {t(F, (3,))}',
)
add(
    "replica_and_partition_id",
    [],
    [t("u32", ()), t("u32", ())],
    "    %0 = stablehlo.replica_id : tensor<ui32>\n    %1 = stablehlo.partition_id : tensor<ui32>\n    return %0, %1 : tensor<ui32>, tensor<ui32>",
)
add(
    "all_reduce_one_device",
    [(F, (4,), "normal")],
    [t(F, (4,))],
    f'    %0 = "stablehlo.all_reduce"(%arg0) <{{replica_groups = dense<[[0]]> : tensor<1x1xi64>}}> ({{\n    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %1 : tensor<f32>\n'
    f"    }}) : ({t(F, (4,))}) -> {t(F, (4,))}\n    return %0 : {t(F, (4,))}",
)
add(
    "generic_form_elementwise",
    [(F, (4,), "normal"), (F, (4,), "normal")],
    [t("pred", (4,))],
    f'    %0 = "stablehlo.add"(%arg0, %arg1) : ({t(F, (4,))}, {t(F, (4,))}) -> {t(F, (4,))}\n'
    f'    %1 = "stablehlo.compare"(%0, %arg1) <{{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>}}> : ({t(F, (4,))}, {t(F, (4,))}) -> {t("pred", (4,))}\n'
    f'    "func.return"(%1) : ({t("pred", (4,))}) -> ()',
)

# -- CHLO ops JAX emits ---------------------------------------------------------------------------
CHLO = {
    "erf": FLOATS, "erfc": FLOATS, "erf_inv": FLOATS, "lgamma": FLOATS, "digamma": FLOATS,
    "bessel_i1e": FLOATS, "tan": ["f32", "f64"], "sinh": ["f32", "f64"], "cosh": ["f32", "f64"],
    "asin": ["f32", "f64"], "acos": ["f32", "f64"], "atan": FLOATS, "asinh": ["f32", "f64"],
    "acosh": ["f32", "f64"], "atanh": ["f32", "f64"], "tan_": COMPLEX, "sinh_": COMPLEX,
    "cosh_": COMPLEX, "asin_": COMPLEX, "acos_": COMPLEX, "asinh_": COMPLEX, "acosh_": COMPLEX,
    "atanh_": COMPLEX, "atan_": COMPLEX,
}  # fmt: skip
# The special functions also over a spread of values (the edges, then values around their
# interesting ranges), where their approximations switch formulas.
SPREAD = {"erfc": "spread", "erf_inv": "unit", "lgamma": "spread", "digamma": "spread",
          "bessel_i1e": "spread"}  # fmt: skip
M = 64  # elements of the spread cases
for key, types in CHLO.items():
    op = key.rstrip("_")  # "tan_": the complex types of tan (a key of its own)
    for ty in types:
        add(
            f"chlo_{op}_{ty}",
            [(ty, (N,), "edges")],
            [t(ty)],
            f"    %0 = chlo.{op} %arg0 : {t(ty)} -> {t(ty)}\n    return %0 : {t(ty)}",
        )
        if op in SPREAD:
            add(
                f"chlo_{op}_spread_{ty}",
                [(ty, (M,), SPREAD[op])],
                [t(ty, (M,))],
                f"    %0 = chlo.{op} %arg0 : {t(ty, (M,))} -> {t(ty, (M,))}\n    return %0 : {t(ty, (M,))}",
            )
# Binary special functions, as jax prints them (`chlo.zeta %x, %q : T, T -> T`).
CHLO_BINARY = {"next_after": ("spread", "spread"), "zeta": ("order", "spread"),
               "polygamma": ("order", "spread")}  # fmt: skip
for op, kinds in CHLO_BINARY.items():
    for ty in FLOATS:
        ts = t(ty, (M,))
        add(
            f"chlo_{op}_{ty}",
            [(ty, (M,), kinds[0]), (ty, (M,), kinds[1])],
            [ts],
            f"    %0 = chlo.{op} %arg0, %arg1 : {ts}, {ts} -> {ts}\n    return %0 : {ts}",
        )
    add(
        f"chlo_{op}_edges_f32",
        [("f32", (N,), "edges"), ("f32", (N,), "edges")],
        [t("f32")],
        f"    %0 = chlo.{op} %arg0, %arg1 : {t('f32')}, {t('f32')} -> {t('f32')}\n    return %0 : {t('f32')}",
    )
add(
    "chlo_top_k",
    [(F, (3, 6), "normal")],
    [t(F, (3, 2)), t("s32", (3, 2))],
    f"    %values, %indices = chlo.top_k(%arg0, k = 2) : {t(F, (3, 6))} -> ({t(F, (3, 2))}, {t('s32', (3, 2))})\n    return %values, %indices : {t(F, (3, 2))}, {t('s32', (3, 2))}",
)
for op in ("is_inf", "is_pos_inf", "is_neg_inf"):
    add(
        f"chlo_{op}_f32",
        [("f32", (N,), "edges")],
        [t("pred")],
        f"    %0 = chlo.{op} %arg0 : {t('f32')} -> {t('pred')}\n    return %0 : {t('pred')}",
    )
add(
    "chlo_conj_c64",
    [("c64", (N,), "edges")],
    [t("c64")],
    f"    %0 = chlo.conj %arg0 : {t('c64')} -> {t('c64')}\n    return %0 : {t('c64')}",
)
add(
    "chlo_broadcast_add",
    [(F, (2, 3), "normal"), (F, (3,), "normal")],
    [t(F, (2, 3))],
    f"    %0 = chlo.broadcast_add %arg0, %arg1 : ({t(F, (2, 3))}, {t(F, (3,))}) -> {t(F, (2, 3))}\n    return %0 : {t(F, (2, 3))}",
)
add(
    "chlo_broadcast_multiply_dims",
    [(F, (2, 3), "normal"), (F, (3,), "normal")],
    [t(F, (2, 3))],
    f"    %0 = chlo.broadcast_multiply %arg0, %arg1 {{broadcast_dimensions = array<i64: 1>}} : ({t(F, (2, 3))}, {t(F, (3,))}) -> {t(F, (2, 3))}\n    return %0 : {t(F, (2, 3))}",
)
add(
    "chlo_broadcast_compare",
    [("s32", (2, 3), "normal"), ("s32", (1, 3), "normal")],
    [t("pred", (2, 3))],
    f"    %0 = chlo.broadcast_compare %arg0, %arg1 {{comparison_direction = #chlo<comparison_direction GE>}} : ({t('s32', (2, 3))}, {t('s32', (1, 3))}) -> {t('pred', (2, 3))}\n    return %0 : {t('pred', (2, 3))}",
)

# -- more of the spec: linear algebra, collectives on one device, sizes, tokens ----------------
add(
    "cholesky_lower",
    [(F, (3, 3), "spd")],
    [t(F, (3, 3))],
    f"    %0 = stablehlo.cholesky %arg0, lower = true : {t(F, (3, 3))}\n    return %0 : {t(F, (3, 3))}",
)
add(
    "triangular_solve",
    [(F, (3, 3), "spd"), (F, (3, 2), "normal")],
    [t(F, (3, 2))],
    f'    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}}> : ({t(F, (3, 3))}, {t(F, (3, 2))}) -> {t(F, (3, 2))}\n    return %0 : {t(F, (3, 2))}',
)
add(
    "batch_norm_grad",
    [
        (F, (4, 3), "normal"),
        (F, (3,), "normal"),
        (F, (3,), "normal"),
        (F, (3,), "index"),
        (F, (4, 3), "normal"),
    ],
    [t(F, (4, 3)), t(F, (3,)), t(F, (3,))],
    f'    %0:3 = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg2, %arg3, %arg4) <{{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}}> : ({t(F, (4, 3))}, {t(F, (3,))}, {t(F, (3,))}, {t(F, (3,))}, {t(F, (4, 3))}) -> ({t(F, (4, 3))}, {t(F, (3,))}, {t(F, (3,))})\n    return %0#0, %0#1, %0#2 : {t(F, (4, 3))}, {t(F, (3,))}, {t(F, (3,))}',
)
add(
    "get_dimension_size",
    [(F, (5, 3), "normal")],
    [t("s32", ())],
    f"    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : ({t(F, (5, 3))}) -> tensor<i32>\n    return %0 : tensor<i32>",
)
add(
    "clamp_scalar_bounds",
    [(F, (), "normal"), (F, (N,), "edges"), (F, (), "normal")],
    [t(F)],
    f"    %0 = stablehlo.clamp %arg0, %arg1, %arg2 : (tensor<f32>, {t(F)}, tensor<f32>) -> {t(F)}\n    return %0 : {t(F)}",
)
add(
    "rng_bit_generator_DEFAULT",
    [("u64", (2,), "normal")],
    [t("u64", (2,)), t("u64", (3,))],
    f"    %0, %1 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT : ({t('u64', (2,))}) -> ({t('u64', (2,))}, {t('u64', (3,))})\n    return %0, %1 : {t('u64', (2,))}, {t('u64', (3,))}",
)
add(
    "all_gather_one_device",
    [(F, (2, 3), "normal")],
    [t(F, (2, 3))],
    f'    %0 = "stablehlo.all_gather"(%arg0) <{{all_gather_dim = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}}> : ({t(F, (2, 3))}) -> {t(F, (2, 3))}\n    return %0 : {t(F, (2, 3))}',
)
add(
    "reduce_scatter_one_device",
    [(F, (2, 4), "normal")],
    [t(F, (2, 4))],
    f'    %0 = "stablehlo.reduce_scatter"(%arg0) <{{scatter_dimension = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}}> ({{\n    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      %1 = stablehlo.add %a, %b : tensor<f32>\n      stablehlo.return %1 : tensor<f32>\n'
    f"    }}) : ({t(F, (2, 4))}) -> {t(F, (2, 4))}\n    return %0 : {t(F, (2, 4))}",
)
add(
    "all_to_all_one_device",
    [(F, (2, 4), "normal")],
    [t(F, (2, 4))],
    f'    %0 = "stablehlo.all_to_all"(%arg0) <{{concat_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>, split_count = 1 : i64, split_dimension = 1 : i64}}> : ({t(F, (2, 4))}) -> {t(F, (2, 4))}\n    return %0 : {t(F, (2, 4))}',
)
add(
    "collective_permute_one_device",
    [(F, (2, 4), "normal")],
    [t(F, (2, 4))],
    f'    %0 = "stablehlo.collective_permute"(%arg0) <{{source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>}}> : ({t(F, (2, 4))}) -> {t(F, (2, 4))}\n    return %0 : {t(F, (2, 4))}',
)
add(
    "after_all_and_create_token",
    [(F, (2,), "normal")],
    [t(F, (2,))],
    "    %t0 = stablehlo.create_token : !stablehlo.token\n    %t1 = stablehlo.after_all %t0, %t0 : !stablehlo.token\n"
    f"    %0 = stablehlo.negate %arg0 : {t(F, (2,))}\n    return %0 : {t(F, (2,))}",
)

# -- dynamic ops whose shape operands are constants (static results) -----------------------------
add(
    "dynamic_pad_constant",
    [(F, (2, 3), "normal"), (F, (), "normal")],
    [t(F, (5, 9))],
    "    %lo = stablehlo.constant dense<[0, 1]> : tensor<2xi64>\n    %hi = stablehlo.constant dense<[2, 1]> : tensor<2xi64>\n"
    "    %in = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
    f"    %0 = stablehlo.dynamic_pad %arg0, %arg1, %lo, %hi, %in : ({t(F, (2, 3))}, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> {t(F, (5, 9))}\n    return %0 : {t(F, (5, 9))}",
)
add(
    "dynamic_pad_negative",
    [("s32", (4, 3), "normal"), ("s32", (), "normal")],
    [t("s32", (3, 5))],
    "    %lo = stablehlo.constant dense<[-1, 1]> : tensor<2xi32>\n    %hi = stablehlo.constant dense<[0, 1]> : tensor<2xi32>\n"
    "    %in = stablehlo.constant dense<0> : tensor<2xi32>\n"
    f"    %0 = stablehlo.dynamic_pad %arg0, %arg1, %lo, %hi, %in : ({t('s32', (4, 3))}, tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> {t('s32', (3, 5))}\n    return %0 : {t('s32', (3, 5))}",
)
add(
    "real_dynamic_slice_constant",
    [(F, (3, 4), "normal")],
    [t(F, (2, 2))],
    "    %s = stablehlo.constant dense<[1, 0]> : tensor<2xi64>\n    %l = stablehlo.constant dense<[3, 4]> : tensor<2xi64>\n"
    "    %k = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
    f"    %0 = stablehlo.real_dynamic_slice %arg0, %s, %l, %k : ({t(F, (3, 4))}, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> {t(F, (2, 2))}\n    return %0 : {t(F, (2, 2))}",
)
add(
    "dynamic_gather_constant",
    [(F, (3, 4, 2), "normal"), ("s64", (2, 3, 2), "index")],
    [t(F, (2, 3, 2, 2))],
    "    %sz = stablehlo.constant dense<[1, 2, 2]> : tensor<3xi64>\n"
    f'    %0 = "stablehlo.dynamic_gather"(%arg0, %arg1, %sz) {{dimension_numbers = #stablehlo.gather<offset_dims = [2, 3], collapsed_slice_dims = [0], start_index_map = [1, 0], index_vector_dim = 2>, indices_are_sorted = false}} : ({t(F, (3, 4, 2))}, {t("s64", (2, 3, 2))}, tensor<3xi64>) -> {t(F, (2, 3, 2, 2))}\n    return %0 : {t(F, (2, 3, 2, 2))}',
)
_CONV = "dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, window_strides = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>"
# XLA cannot convert dynamic_conv itself ("can't be translated to XLA HLO"): the values are those
# of the convolution with the same padding, which is what shape refinement makes of it.
add(
    "dynamic_conv_constant",
    [(F, (1, 5, 4, 2), "normal"), (F, (3, 2, 2, 3), "normal")],
    [t(F, (1, 3, 5, 3))],
    "    %p = stablehlo.constant dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>\n"
    f'    %0 = "stablehlo.dynamic_conv"(%arg0, %arg1, %p) {{{_CONV}}} : ({t(F, (1, 5, 4, 2))}, {t(F, (3, 2, 2, 3))}, tensor<2x2xi64>) -> {t(F, (1, 3, 5, 3))}\n    return %0 : {t(F, (1, 3, 5, 3))}',
    reference=f'    %0 = "stablehlo.convolution"(%arg0, %arg1) {{{_CONV}, padding = dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>}} : ({t(F, (1, 5, 4, 2))}, {t(F, (3, 2, 2, 3))}) -> {t(F, (1, 3, 5, 3))}\n    return %0 : {t(F, (1, 3, 5, 3))}',
)
