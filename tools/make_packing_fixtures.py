"""Dev tool: record how XLA:CPU packs sub-byte arrays in device memory.

Puts small arrays of each sub-byte type on the CPU device, reads the raw device buffer and the
layout XLA gives the parameter, and writes tests/golden/packing.json. Needs jax (the `dev` extra);
the tests only read the JSON.
"""

from __future__ import annotations

import ctypes
import json
import re
from pathlib import Path

import jax
import ml_dtypes
import numpy as np

OUT = Path(__file__).resolve().parent.parent / "tests" / "golden" / "packing.json"

CASES = {
    "s4": (ml_dtypes.int4, [1, 2, 3, -1, 5, -8, 7]),
    "u4": (ml_dtypes.uint4, [1, 2, 15, 0, 9]),
    "s2": (ml_dtypes.int2, [1, -2, -1, 0, 1]),
    "u2": (ml_dtypes.uint2, [3, 0, 1, 2, 3, 1]),
    "f4e2m1fn": (ml_dtypes.float4_e2m1fn, [0.5, -1.0, 6.0, 0.0, 3.0]),
}


def main() -> None:
    rows = []
    for name, (dtype, values) in CASES.items():
        host = np.array(values, dtype=dtype)
        try:
            device = jax.device_put(host)
        except Exception as e:  # a type this jaxlib cannot place on the CPU
            print(f"skip {name}: {e}")
            continue
        text = jax.jit(lambda a: a).lower(device).compile().as_text()
        layout = re.search(r"entry_computation_layout=\{\((\S+?)\)->", text)
        assert layout is not None
        shape = layout.group(1)
        nbytes = -(-len(values) * 4 // 8) if "E(4)" in shape else len(values)
        if "E(2)" in shape:
            nbytes = -(-len(values) * 2 // 8)
        buf = device.addressable_data(0).unsafe_buffer_pointer()
        raw = ctypes.string_at(buf, nbytes)
        rows.append(
            {"shape": shape, "values": [float(v) for v in host.astype(np.float32)], "bytes": raw.hex()}
        )
        print(name, shape, raw.hex())
    OUT.write_text(json.dumps({"source": f"XLA:CPU, jax {jax.__version__}", "cases": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
