"""erf_inv and erfc as XLA's CHLO legalization expands them (see chlo_expand.py).

erf_inv: Giles' polynomials in w = -log1p(-x^2): two coefficient sets (w < 5 or not) in single
precision, three (w < 6.25, w < 16, beyond) in double. erfc: Cephes' rational approximations
(1 - x T(x^2) for |x| < 1, exp(-x^2) times a ratio of polynomials beyond), with f32's and f64's
own coefficients."""

from __future__ import annotations

import math

from ..ir.attrs import ComparisonDirection as Dir
from ..ir.opcode import Opcode
from .chlo_expand import Expr, by_width, upcast
from .ops_table import Handler

Op_ = Opcode


# -- erf_inv --------------------------------------------------------------------------------------
_ERFINV_SMALL = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
                 -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)  # fmt: skip
_ERFINV_LARGE = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
                 -0.0076224613, 0.00943887047, 1.00167406, 2.83297682)  # fmt: skip


def erf_inv32(e: Expr, x: str) -> str:
    w = e.op(Op_.NEGATE, e.op(Op_.LOG1P, e.mul(x, e.op(Op_.NEGATE, x))))
    small = e.cmp(Dir.LT, w, e.const(5.0))
    w = e.select(small, e.sub(w, e.const(2.5)), e.sub(e.op(Op_.SQRT, w), e.const(3.0)))

    def coefficient(i: int) -> str:
        return e.select(small, e.const(_ERFINV_SMALL[i]), e.const(_ERFINV_LARGE[i]))

    p = coefficient(0)
    for i in range(1, 9):
        p = e.add(coefficient(i), e.mul(p, w))
    result = e.mul(p, x)
    at_one = e.cmp(Dir.EQ, e.op(Op_.ABS, x), e.const(1.0))
    return e.select(at_one, e.mul(x, e.const(math.inf)), result)


# Double precision: w < 6.25 (23 coefficients), w < 16 (19), beyond (17), highest first.
_ERFINV64_A = (-3.6444120640178196996e-21, -1.685059138182016589e-19, 1.2858480715256400167e-18,
               1.115787767802518096e-17, -1.333171662854620906e-16, 2.0972767875968561637e-17,
               6.6376381343583238325e-15, -4.0545662729752068639e-14, -8.1519341976054721522e-14,
               2.6335093153082322977e-12, -1.2975133253453532498e-11, -5.4154120542946279317e-11,
               1.051212273321532285e-09, -4.1126339803469836976e-09, -2.9070369957882005086e-08,
               4.2347877827932403518e-07, -1.3654692000834678645e-06, -1.3882523362786468719e-05,
               0.0001867342080340571352, -0.00074070253416626697512, -0.0060336708714301490533,
               0.24015818242558961693, 1.6536545626831027356)  # fmt: skip
_ERFINV64_B = (2.2137376921775787049e-09, 9.0756561938885390979e-08, -2.7517406297064545428e-07,
               1.8239629214389227755e-08, 1.5027403968909827627e-06, -4.013867526981545969e-06,
               2.9234449089955446044e-06, 1.2475304481671778723e-05, -4.7318229009055733981e-05,
               6.8284851459573175448e-05, 2.4031110387097893999e-05, -0.0003550375203628474796,
               0.00095328937973738049703, -0.0016882755560235047313, 0.0024914420961078508066,
               -0.0037512085075692412107, 0.005370914553590063617, 1.0052589676941592334,
               3.0838856104922207635)  # fmt: skip
_ERFINV64_C = (-2.7109920616438573243e-11, -2.5556418169965252055e-10, 1.5076572693500548083e-09,
               -3.7894654401267369937e-09, 7.6157012080783393804e-09, -1.4960026627149240478e-08,
               2.9147953450901080826e-08, -6.7711997758452339498e-08, 2.2900482228026654717e-07,
               -9.9298272942317002539e-07, 4.5260625972231537039e-06, -1.9681778105531670567e-05,
               7.5995277030017761139e-05, -0.00021503011930044477347, -0.00013871931833623122026,
               1.0103004648645343977, 4.8499064014085844221)  # fmt: skip


def erf_inv64(e: Expr, x: str) -> str:
    w = e.op(Op_.NEGATE, e.op(Op_.LOG1P, e.mul(x, e.op(Op_.NEGATE, x))))
    lt_625 = e.cmp(Dir.LT, w, e.const(6.25))
    lt_16 = e.cmp(Dir.LT, w, e.const(16.0))

    def coefficient(i: int) -> str:
        inner = e.select(lt_625, e.const(_ERFINV64_A[i]), e.const(_ERFINV64_B[i]))
        return e.select(lt_16, inner, e.const(_ERFINV64_C[i])) if i < len(_ERFINV64_C) else inner

    shifted = e.sub(w, e.const(3.125))
    root = e.sub(e.op(Op_.SQRT, w), e.select(lt_16, e.const(3.25), e.const(5.0)))
    w = e.select(lt_625, shifted, root)
    p = coefficient(0)
    # All three sets while they last, then the two longer ones, then the longest alone; a set
    # that has ended keeps its value.
    for i in range(1, len(_ERFINV64_A)):
        if i < len(_ERFINV64_C):
            p = e.add(coefficient(i), e.mul(p, w))
        elif i < len(_ERFINV64_B):
            p = e.select(lt_16, e.add(coefficient(i), e.mul(p, w)), p)
        else:
            p = e.select(lt_625, e.add(e.mul(p, w), e.const(_ERFINV64_A[i])), p)
    result = e.mul(p, x)
    at_one = e.cmp(Dir.EQ, e.op(Op_.ABS, x), e.const(1.0))
    return e.select(at_one, e.mul(x, e.const(math.inf)), result)


# -- erfc -----------------------------------------------------------------------------------------
_ERFC_P = (2.326819970068386e-2, -1.387039388740657e-1, 3.687424674597105e-1, -5.824733027278666e-1,
           6.210004621745983e-1, -4.944515323274145e-1, 3.404879937665872e-1, -2.741127028184656e-1,
           5.638259427386472e-1)  # fmt: skip
_ERFC_R = (-1.047766399936249e1, 1.297719955372516e1, -7.495518717768503e0,
           2.921019019210786e0, -1.015265279202700e0, 4.218463358204948e-1,
           -2.820767439740514e-1, 5.641895067754075e-1)  # fmt: skip
_ERF_T = (7.853861353153693e-5, -8.010193625184903e-4, 5.188327685732524e-3, -2.685381193529856e-2,
          1.128358514861418e-1, -3.761262582423300e-1, 1.128379165726710e0)  # fmt: skip
_MAXLOG = 88.72283905206835


def _erfc_large(e: Expr, x: str) -> str:
    x2 = e.mul(x, x)
    z = e.op(Op_.NEGATE, x2)
    ax = e.op(Op_.ABS, x)
    one = e.const(1.0)
    inv_x2 = e.div(one, x2)
    exp_z = e.op(Op_.EXP, z)
    scaled = e.mul(exp_z, e.div(one, ax))
    two = e.const(2.0)
    below_two = e.cmp(Dir.LT, ax, two)
    p = e.poly(inv_x2, _ERFC_P)
    r = e.poly(inv_x2, _ERFC_R)
    approx = e.mul(scaled, e.select(below_two, p, r))
    zero = e.const(0.0)
    clamped = e.select(e.cmp(Dir.LT, z, e.const(-_MAXLOG)), zero, approx)
    negative = e.cmp(Dir.LT, x, zero)
    return e.select(negative, e.sub(two, clamped), clamped)


def erfc32(e: Expr, x: str) -> str:
    large = _erfc_large(e, x)
    one = e.const(1.0)
    small = e.sub(one, e.mul(x, e.poly(e.mul(x, x), _ERF_T)))
    return e.select(e.cmp(Dir.LT, e.op(Op_.ABS, x), one), small, large)


# Double precision (Cephes' erfc): P/Q for |x| < 8, R/S beyond, T/U below 1 (Q, S and U with a
# leading 1).
_ERFC64_P = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
             4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
             9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)  # fmt: skip
_ERFC64_Q = (1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
             9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
             1.65666309194161350182e3, 5.57535340817727675546e2)  # fmt: skip
_ERFC64_R = (5.64189583547755073984e-1, 1.27536670759978104416e0, 5.01905042251180477414e0,
             6.16021097993053585195e0, 7.40974269950448939160e0, 2.97886665372100240670e0)  # fmt: skip
_ERFC64_S = (2.26052863220117276590e0, 9.39603524938001434673e0, 1.20489539808096656605e1,
             1.70814450747565897222e1, 9.60896809063285878198e0, 3.36907645100081516050e0)  # fmt: skip
_ERF64_T = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
            7.00332514112805075473e3, 5.55923013010394962768e4)  # fmt: skip
_ERF64_U = (3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3,
            2.26290000613890934246e4, 4.92673942608635921086e4)  # fmt: skip
_MAXLOG64 = 709.782712893384


def _monic(e: Expr, x: str, coefficients: tuple[float, ...]) -> str:
    """Horner's rule with an implicit leading 1: ((x + c0) x + c1) ..."""
    p = e.add(x, e.const(coefficients[0]))
    for c in coefficients[1:]:
        p = e.add(e.mul(p, x), e.const(c))
    return p


def erfc64(e: Expr, x: str) -> str:
    one = e.const(1.0)
    below_one = e.cmp(Dir.LT, e.op(Op_.ABS, x), one)
    x2 = e.mul(x, x)
    small = e.sub(one, e.div(e.mul(x, e.poly(x2, _ERF64_T)), _monic(e, x2, _ERF64_U)))
    zero = e.const(0.0)
    negative = e.cmp(Dir.LT, x, zero)
    two = e.const(2.0)
    z = e.op(Op_.NEGATE, e.mul(x, x))
    underflow = e.cmp(Dir.LT, z, e.const(-_MAXLOG64))
    ax = e.op(Op_.ABS, x)
    below_eight = e.cmp(Dir.LT, ax, e.const(8.0))
    exp_z = e.op(Op_.EXP, z)
    near = e.div(e.mul(exp_z, e.poly(ax, _ERFC64_P)), _monic(e, ax, _ERFC64_Q))
    far = e.div(e.mul(exp_z, e.poly(ax, _ERFC64_R)), _monic(e, ax, _ERFC64_S))
    y = e.select(underflow, zero, e.select(below_eight, near, far))
    large = e.select(negative, e.sub(two, y), y)
    return e.select(below_one, small, large)


EXPANSIONS: dict[str, Handler] = {
    "erf_inv": upcast(by_width(erf_inv32, erf_inv64)),
    "erfc": upcast(by_width(erfc32, erfc64)),
}
