"""The compiled loop tier's op emitters (hlo.numerics.jit_codegen): for each op, the lines that
compute what its interpreter kernel computes, with the same bits. Elementwise ops are rows of
tables: an expression of the operands' elements, or NumPy's own loop of a ufunc (called through
its address: the interpreter's function itself, so transcendental functions agree by
construction). Data movement ops are index loops over static shapes."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..dtypes import PrimitiveType
from ..ir.attrs import ComparisonType
from ..ir.instruction import Instruction
from ..ir.opcode import Opcode
from . import contraction
from .jit_codegen import Gen, Unsupported, Val, emits, type_name

Op = Opcode
P = PrimitiveType


def _kind(t: PrimitiveType) -> str:
    if t is P.PRED:
        return "pred"
    if t.is_floating_point:
        return "float"
    return "signed" if t.is_signed_integral else "unsigned"


def _wide(t: PrimitiveType) -> str:
    """The wide integer type integer arithmetic runs in before it wraps to t."""
    return "np.int64" if t.is_signed_integral else "np.uint64"


def _low(t: PrimitiveType) -> str:
    return f"{_wide(t)}({-(2 ** (t.bit_width - 1)) if t.is_signed_integral else 0})"


def _tiny(t: PrimitiveType) -> str:
    """The smallest normal of float type t: below it, the CPU's flush-to-zero mode reads zero."""
    return f"{type_name(t)}({float(np.finfo(np.dtype(t.numpy_dtype)).tiny)!r})"


def _zero_limit(g: Gen, t: PrimitiveType) -> str:
    """Below this magnitude a float counts as zero: the smallest normal when flushing, else the
    smallest subnormal (exact zeros only)."""
    if g.flush:
        return _tiny(t)
    return f"{type_name(t)}({float(np.finfo(np.dtype(t.numpy_dtype)).smallest_subnormal)!r})"


def _selected(g: Gen, t: PrimitiveType, expr: str) -> str:
    """A selected float value (max, min, sign), flushed as the CPU's mode flushes it."""
    return f"_flush({expr}, {_tiny(t)})" if g.flush and t.is_floating_point else expr


# -- binary ops: an expression per kind of element type ---------------------------------------
def _int(op: str) -> Callable[[Gen, PrimitiveType, str, str], str]:
    return lambda g, t, a, b: f"{_wide(t)}({a}) {op} {_wide(t)}({b})"


def _arith(op: str) -> Callable[[Gen, PrimitiveType, str, str], str]:
    def expr(g: Gen, t: PrimitiveType, a: str, b: str) -> str:
        if t.is_floating_point:
            return f"{a} {op} {b}"
        if t is P.PRED:
            raise Unsupported("pred arithmetic")
        return _int(op)(g, t, a, b)

    return expr


def _divide(g: Gen, t: PrimitiveType, a: str, b: str) -> str:
    if t.is_floating_point:
        return f"{a} / {b}"
    w = _wide(t)
    return f"_int_div({w}({a}), {w}({b}), {_low(t)}, {w}(1))"


def _remainder(g: Gen, t: PrimitiveType, a: str, b: str) -> str:
    if not t.is_integral:
        raise Unsupported("float remainder")  # the interpreter runs it with the CPU's mode off
    w = _wide(t)
    return f"_int_rem({w}({a}), {w}({b}), {_low(t)}, {w}(1))"


def _ftz(g: Gen) -> str:
    """The flush-to-zero variant of max/min the result's rank needs: the interpreter decides a
    tie of values equal to zero differently for arrays and for scalars."""
    if not g.flush:
        return ""
    return "_ftz_scalar" if g.result_rank == 0 else "_ftz"


def _extreme(fn: str, py: str) -> Callable[[Gen, PrimitiveType, str, str], str]:
    def expr(g: Gen, t: PrimitiveType, a: str, b: str) -> str:
        if t.is_floating_point:
            tiny = f", {_tiny(t)}" if g.flush else ""
            return _selected(g, t, f"_{fn}{_ftz(g)}({a}, {b}{tiny})")
        return f"{py}({a}, {b})"

    return expr


def _bitwise(op: str) -> Callable[[Gen, PrimitiveType, str, str], str]:
    def expr(g: Gen, t: PrimitiveType, a: str, b: str) -> str:
        if t.is_floating_point:
            raise Unsupported("bitwise op on floats")
        return f"{a} {op} {b}" if t is P.PRED else _int(op)(g, t, a, b)

    return expr


def _shift(kind: str) -> Callable[[Gen, PrimitiveType, str, str], str]:
    def expr(g: Gen, t: PrimitiveType, a: str, b: str) -> str:
        if not t.is_integral:
            raise Unsupported("shift of a non-integer")
        bits, ubits = t.bit_width, f"np.uint64({(1 << t.bit_width) - 1})"
        signed, unsigned = f"np.int{bits}", f"np.uint{bits}"
        amount = f"np.uint64({unsigned}({b}))"
        if kind == "left":
            return f"_shl(np.uint64({unsigned}({a})), {amount}, np.uint64({bits}), {ubits})"
        if kind == "logical":
            return f"_shrl(np.uint64({unsigned}({a})), {amount}, np.uint64({bits}), {ubits})"
        return f"_shra(np.int64({signed}({a})), {amount}, np.uint64({bits}), {ubits}, np.int64({bits - 1}))"

    return expr


BINARY: dict[Opcode, Callable[[Gen, PrimitiveType, str, str], str]] = {
    Op.ADD: _arith("+"),
    Op.SUBTRACT: _arith("-"),
    Op.MULTIPLY: _arith("*"),
    Op.DIVIDE: _divide,
    Op.REMAINDER: _remainder,
    Op.MAXIMUM: _extreme("fmax", "max"),
    Op.MINIMUM: _extreme("fmin", "min"),
    Op.AND: _bitwise("&"),
    Op.OR: _bitwise("|"),
    Op.XOR: _bitwise("^"),
    Op.SHIFT_LEFT: _shift("left"),
    Op.SHIFT_RIGHT_LOGICAL: _shift("logical"),
    Op.SHIFT_RIGHT_ARITHMETIC: _shift("arithmetic"),
}


def _operand_types(g: Gen, instr: Instruction, args: list[Val]) -> PrimitiveType:
    types = {a.shape.element_type for a in args}
    if len(types) != 1:
        raise Unsupported("operands of mixed element types")
    return types.pop()


@emits(*BINARY, elementwise=True)
def binary(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    t = _operand_types(g, instr, args)
    fma = contraction.mark(instr)
    if fma is not None:  # an add XLA:CPU fuses with its multiply: operands (x, y, z)
        return g.elementwise(instr.shape, args, lambda x, y, z: fused_multiply_add(g, t, fma, x, y, z))
    make = BINARY[instr.opcode]
    return g.elementwise(instr.shape, args, lambda a, b: make(g, t, a, b))


def fused_multiply_add(g: Gen, t: PrimitiveType, fma: contraction.Fma, x: str, y: str, z: str) -> str:
    """fma(+-x, y, +-z), one rounding, as the interpreter (hlo.numerics.contraction.kernel)."""
    x = f"_fneg({x})" if fma.product_sign < 0 else x
    z = f"_fneg({z})" if fma.addend_sign < 0 else z
    fused = f"{'_fma32' if t is P.F32 else '_fma64'}({x}, {y}, {z})"
    return f"_flush({fused}, {_tiny(t)})" if g.flush else fused


# -- unary ops ---------------------------------------------------------------------------------
def _negate(g: Gen, t: PrimitiveType, a: str) -> str:
    if t is P.PRED:
        raise Unsupported("negate of pred")
    return f"-{a}" if t.is_floating_point else f"-{_wide(t)}({a})"


def _abs(g: Gen, t: PrimitiveType, a: str) -> str:
    if not t.is_floating_point and not t.is_signed_integral:
        raise Unsupported("abs of an unsigned type")
    return f"abs({a})" if t.is_floating_point else f"abs({_wide(t)}({a}))"


def _not(g: Gen, t: PrimitiveType, a: str) -> str:
    if t.is_floating_point:
        raise Unsupported("not of a float")
    return f"not {a}" if t is P.PRED else f"~{_wide(t)}({a})"


def _sign(g: Gen, t: PrimitiveType, a: str) -> str:
    if t.is_floating_point:
        return _selected(g, t, f"_fsign({a}, {type_name(t)}(1), {_zero_limit(g, t)})")
    if t.is_signed_integral:
        return f"(1 if {a} > 0 else -1 if {a} < 0 else 0)"
    raise Unsupported("sign of an unsigned type")


def _is_finite(g: Gen, t: PrimitiveType, a: str) -> str:
    if not t.is_floating_point:
        raise Unsupported("is-finite of a non-float")
    return f"np.isfinite({a})"


UNARY: dict[Opcode, Callable[[Gen, PrimitiveType, str], str]] = {
    Op.NEGATE: _negate,
    Op.ABS: _abs,
    Op.NOT: _not,
    Op.SIGN: _sign,
    Op.IS_FINITE: _is_finite,
}


@emits(*UNARY, elementwise=True)
def unary(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    t = args[0].shape.element_type
    make = UNARY[instr.opcode]
    return g.elementwise(instr.shape, args, lambda a: make(g, t, a))


# Unary float ops whose interpreter kernel is one NumPy ufunc (in the CPU's current mode).
UFUNCS = {
    Op.TANH: "xla_tanh", Op.ERF: "xla_erf", Op.SINH: "sinh", Op.COSH: "cosh", Op.SQRT: "sqrt",
    # XLA:CPU's own exp, expm1 and logistic: the interpreter's LLVM loops (hlo.numerics.xla_exp_loop)
    Op.EXP: "xla_exp", Op.EXPM1: "xla_expm1", Op.LOGISTIC: "xla_logistic",
    Op.RSQRT: "xla_rsqrt",  # the CPU's estimate refined (hlo.numerics.xla_rsqrt)
    Op.FLOOR: "floor", Op.CEIL: "ceil", Op.ROUND_NEAREST_EVEN: "rint",
    Op.ASIN: "arcsin", Op.ACOS: "arccos", Op.ASINH: "arcsinh", Op.ACOSH: "arccosh", Op.ATANH: "arctanh",
}  # fmt: skip
# sin, cos, tan and cbrt are not among them: XLA:CPU calls the C library's functions there
# (hlo.numerics.libm; LIBM_OPS below), not NumPy's loops; nor log and log1p (XLA_LOG_OPS). tanh
# and f32 erf ("xla_*") are XLA:CPU's own approximations, compiled loops with the signature of
# NumPy's (hlo.numerics.odd_rational)


LIBM_OPS = {Op.SIN: "sine", Op.COS: "cosine", Op.TAN: "tan", Op.CBRT: "cbrt"}


@emits(*LIBM_OPS, elementwise=True)
def libm_call(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    """The C library's function by address, one call per element (as the interpreter computes
    it, hlo.numerics.libm)."""
    from . import libm

    t = args[0].shape.element_type
    name = LIBM_OPS[instr.opcode]
    if not libm.takes(name, np.dtype(t.numpy_dtype)):
        raise Unsupported(f"{name} of {t.text}")
    row = g.ufunc(f"libm_{name}", t)
    width = "f32" if t is PrimitiveType.F32 else "f64"
    return g.elementwise(instr.shape, args, lambda a: f"_libm1_{width}(fp[{row}, 0], {a})")


XLA_LOG_OPS = {Op.LOG: "log", Op.LOG1P: "log-plus-one"}


@emits(*XLA_LOG_OPS, elementwise=True)
def xla_log_call(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    """XLA:CPU's log and log1p: the machine code the interpreter runs (hlo.numerics.xla_log_loop),
    called by address per element as the C library's functions are."""
    t = args[0].shape.element_type
    if t not in (PrimitiveType.F32, PrimitiveType.F64):
        raise Unsupported(f"{instr.opcode.text} of {t.text}")
    row = g.ufunc(f"xla_{XLA_LOG_OPS[instr.opcode]}", t)
    width = "f32" if t is PrimitiveType.F32 else "f64"
    return g.elementwise(instr.shape, args, lambda a: f"_libm1_{width}(fp[{row}, 0], {a})")


def call_ufunc(g: Gen, name: str, x: Val) -> Val:
    """NumPy's own loop of a unary ufunc over x (a new value of x's shape and type)."""
    t = x.shape.element_type
    if not t.is_floating_point:
        raise Unsupported(f"{name} of a non-float")
    row = g.ufunc(name, t)
    var = g.name()
    if x.scalar:
        g.line(f"{var} = _ufunc1(fp[{row}], {x.var})")
    else:
        g.line(f"{var} = np.empty_like({x.var})")
        g.line(f"_ufunc(fp[{row}], {x.var}, {var})")
    return Val(x.shape, var)


@emits(*UFUNCS)
def ufunc(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    return call_ufunc(g, UFUNCS[instr.opcode], args[0])


@emits(Op.ROUND_NEAREST_AFZ)
def round_afz(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    t = type_name(instr.shape.element_type)
    whole = call_ufunc(g, "trunc", args[0])
    return g.elementwise(instr.shape, [args[0], whole], lambda x, w: f"_round_afz({x}, {w}, {t}(1))")


# -- compare, select, clamp, convert -----------------------------------------------------------
_DIRECTIONS = {"EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">="}


@emits(Op.COMPARE, elementwise=True)
def compare(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    if instr.attrs.get("type") is ComparisonType.TOTALORDER:
        raise Unsupported("total-order compare")
    _operand_types(g, instr, args)
    direction = instr.attrs["direction"]
    op = _DIRECTIONS[getattr(direction, "value", str(direction)).upper()]
    return g.elementwise(instr.shape, args, lambda a, b: f"{a} {op} {b}")


@emits(Op.SELECT, elementwise=True)
def select(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    return g.elementwise(instr.shape, args, lambda p, a, b: f"{a} if {p} else {b}")


@emits(Op.CLAMP, elementwise=True)
def clamp(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    """min(max(x, low), high) with XLA's max and min, the selected value flushed (as the
    interpreter's clamp)."""
    t = instr.shape.element_type
    if t.is_floating_point:
        ftz, tiny = _ftz(g), (f", {_tiny(t)}" if g.flush else "")
        return g.elementwise(
            instr.shape,
            args,
            lambda lo, x, hi: _selected(g, t, f"_fmin{ftz}(_fmax{ftz}({x}, {lo}{tiny}), {hi}{tiny})"),
        )
    if t is P.PRED:
        raise Unsupported("clamp of pred")
    return g.elementwise(instr.shape, args, lambda lo, x, hi: f"min(max({x}, {lo}), {hi})")


def _convert(g: Gen, s: PrimitiveType, t: PrimitiveType, a: str) -> str:
    target = type_name(t)
    if t is P.PRED:
        if s.is_floating_point:  # what the CPU's mode reads as zero is zero
            return f"not (abs({a}) < {_zero_limit(g, s)})"
        return f"{a} != 0"
    if s is P.PRED:
        return f"{target}(1) if {a} else {target}(0)"
    if s.is_floating_point and t.is_integral:
        bits = t.bit_width
        if t.is_signed_integral:
            low, high = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
            return f"_f2s({a}, {float(low)!r}, {float(2 ** (bits - 1))!r}, {low}, {high})"
        return f"_f2u({a}, {float(2**bits)!r}, np.uint64({2**bits - 1}))"
    if s.is_floating_point and t.is_floating_point and g.flush:
        return f"_flush({target}({a}), {_tiny(t)})"  # the CPU's conversion flushes; keep it unfoldable
    return a


@emits(Op.CONVERT, elementwise=True)
def convert(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    s, t = args[0].shape.element_type, instr.shape.element_type
    if s is t:
        return args[0]
    return g.elementwise(instr.shape, args, lambda a: _convert(g, s, t, a))


@emits(Op.FUSION, Op.CALL)
def inline_call(g: Gen, instr: Instruction, args: list[Val]) -> Val:
    """A fusion (any kind) or call: its computation, inline, as the interpreter runs it."""
    calls = instr.attrs.get("calls", instr.attrs.get("to_apply"))
    name = calls[0] if isinstance(calls, tuple) else calls
    return g.computation(g.module.computation(name), args)
