"""bessel_i1e and next_after as XLA's CHLO legalization expands them (see chlo_expand.py).

bessel_i1e: Cephes' Chebyshev series, in |x|/2 - 2 up to 8 and in 32/|x| - 2 beyond (double
precision uses all the coefficients, single precision the last 17 and 7). next_after: one step
of the integer the float's bits spell, towards y."""

from __future__ import annotations

import math

from ..dtypes import PrimitiveType
from ..ir.attrs import ComparisonDirection as Dir
from ..ir.opcode import Opcode
from ..shape import Shape
from .chlo_expand import Expr, upcast
from .computation_converter import ComputationConverter
from .ops_table import Handler
from .syntax import Op

Op_ = Opcode

# -- bessel_i1e -----------------------------------------------------------------------------------
_I1E_A = (2.7779141127610464e-18, -2.111421214358166e-17, 1.5536319577362005e-16,
          -1.1055969477353862e-15, 7.6006842947354077e-15, -5.0421855047279118e-14,
          3.2237933659455748e-13, -1.9839743977649436e-12, 1.1736186298890901e-11,
          -6.6634897235020271e-11, 3.6255902815521172e-10, -1.8872497517228294e-09,
          9.3815373864957726e-09, -4.4450591287963281e-08, 2.0032947535521353e-07,
          -8.5687202646954547e-07, 3.4702513081376785e-06, -1.3273163656039436e-05,
          4.7815651075500542e-05, -0.00016176081582589674, 0.00051228595616857576,
          -0.0015135724506312532, 0.0041564229443128882, -0.010564084894626197,
          0.024726449030626516, -0.052945981208094989, 0.10264365868984709,
          -0.17641651835783406, 0.25258718644363365)  # fmt: skip
_I1E_B = (7.5172963108421052e-18, 4.4143483230717077e-18, -4.6503053684893586e-17,
          -3.2095259219934238e-17, 2.96262899764595e-16, 3.3082023109209285e-16,
          -1.8803547755107825e-15, -3.8144030724370075e-15, 1.0420276984128802e-14,
          4.272440016711951e-14, -2.1015418427726643e-14, -4.0835511110921974e-13,
          -7.1985517762459084e-13, 2.0356285441470896e-12, 1.4125807436613782e-11,
          3.2526035830154884e-11, -1.8974958123505413e-11, -5.5897434621965838e-10,
          -3.835380385964237e-09, -2.6314688468895196e-08, -2.5122362378702088e-07,
          -3.8825648088776906e-06, -0.00011058893876262371, -0.0097610974913614687,
          0.77857623501828011)  # fmt: skip


def _chebyshev(e: Expr, y: str, coefficients: tuple[float, ...]) -> str:
    """Clenshaw's recurrence b0 = y b1 - b2 + c from b1 = b2 = 0, then (b0 - b2) / 2. The first
    step is y * 0 + c (kept: it makes NaN of an infinite y) and the subtractions of the zero b2
    are left out, as in XLA's expansion."""
    b0 = e.add(e.mul(y, e.const(0.0)), e.const(coefficients[0]))
    b1 = b0
    b0 = e.add(e.mul(y, b1), e.const(coefficients[1]))
    b2 = b1
    for c in coefficients[2:]:
        b2, b1 = b1, b0
        b0 = e.add(e.sub(e.mul(y, b1), b2), e.const(c))
    return e.mul(e.sub(b0, b2), e.const(0.5))


def bessel_i1e(e: Expr, x: str) -> str:
    a, b = (_I1E_A, _I1E_B) if e.f64 else (_I1E_A[12:], _I1E_B[18:])
    ax = e.op(Op_.ABS, x)
    two = e.const(2.0)
    near = e.mul(ax, _chebyshev(e, e.sub(e.mul(ax, e.const(0.5)), two), a))
    far_y = e.sub(e.div(e.const(32.0), ax), two)
    far = e.div(_chebyshev(e, far_y, b), e.op(Op_.SQRT, ax))
    value = e.select(e.cmp(Dir.LE, ax, e.const(8.0)), near, far)
    return e.mul(e.op(Op_.SIGN, x), value)


# -- next_after -----------------------------------------------------------------------------------
_BITS = {16: PrimitiveType.S16, 32: PrimitiveType.S32, 64: PrimitiveType.S64}


def next_after(cc: ComputationConverter, op: Op, ins: list[str]) -> list[str]:
    """The float after x towards y: x's bits plus or minus one (the smallest subnormal of y's
    sign from zero), y when x == y, NaN when either is."""
    shape = op.result_types[0]
    e = Expr(cc, shape, op.pos)
    width = shape.element_type.bit_width
    ints = Shape.array(_BITS[width], shape.dimensions)
    x, y = ins

    def bits(value: str) -> str:
        return cc.emit(Op_.BITCAST_CONVERT, (value,), ints, None, op.pos)

    def int_op(opcode: Opcode, a: str, b: str) -> str:
        return cc.emit(opcode, (a, b), ints, None, op.pos)

    def int_cmp(direction: Dir, a: str, b: str) -> str:
        return cc.emit(Op_.COMPARE, (a, b), e.pred, {"direction": direction}, op.pos)

    def int_select(p: str, a: str, b: str) -> str:
        return cc.emit(Op_.SELECT, (p, a, b), ints, None, op.pos)

    either_nan = e.both(Op_.OR, e.cmp(Dir.NE, x, x), e.cmp(Dir.NE, y, y))
    nan_bits = bits(e.const(math.nan))
    equal = e.cmp(Dir.EQ, x, y)
    x_bits, y_bits = bits(x), bits(y)
    magnitude = e.splat((1 << (width - 1)) - 1, ints)
    zero = e.splat(0, ints)
    x_abs = int_op(Op_.AND, x_bits, magnitude)
    x_zero = int_cmp(Dir.EQ, x_abs, zero)
    y_abs = int_op(Op_.AND, y_bits, magnitude)
    y_zero = int_cmp(Dir.EQ, y_abs, zero)
    sign = e.splat(-(1 << (width - 1)), ints)
    y_sign = int_op(Op_.AND, y_bits, sign)
    one = e.splat(1, ints)
    from_zero = int_select(y_zero, y_bits, int_op(Op_.OR, y_sign, one))
    x_sign = int_op(Op_.AND, x_bits, sign)
    away = e.both(Op_.OR, int_cmp(Dir.GT, x_abs, y_abs), int_cmp(Dir.NE, x_sign, y_sign))
    step = int_select(away, e.splat(-1, ints), one)
    result = int_select(x_zero, from_zero, int_op(Op_.ADD, x_bits, step))
    result = int_select(equal, y_bits, result)
    result = int_select(either_nan, nan_bits, result)
    return [cc.emit(Op_.BITCAST_CONVERT, (result,), shape, None, op.pos)]


EXPANSIONS: dict[str, Handler] = {"bessel_i1e": upcast(bessel_i1e), "next_after": next_after}
