"""Number formatting as XLA's printer does it (C `%g`, absl::StrCat of doubles)."""

from __future__ import annotations

import math


def c_g(value: float, precision: int, signed_nan: bool = True) -> str:
    """C's `%.{precision}g`; NaN is `nan` or, if its sign bit is set and `signed_nan`, `-nan`
    (Python's own formatting drops the sign of NaN)."""
    if math.isnan(value):
        return "-nan" if signed_nan and math.copysign(1.0, value) < 0 else "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{precision}g}"


def six_digits(value: float, signed_nan: bool = False) -> str:
    """absl::StrCat of a double: `%.6g`, NaN as `nan` (XLA's epsilon, statistics)."""
    return c_g(value, 6, signed_nan)
