"""Make tests/golden/dumps_proto/frames.{before,after}.module.pb and .xla.txt: the HloModuleProtos
jax and XLA:CPU build for tools/frames/train.py's step (stack-frame tables over several files,
in the order the builders made them), and XLA's long-form print of each proto as XLA loads it
(frames.loss.after.*: the optimized loss alone); frames.{before,after}.reparsed.txt and .reparsed2.txt: that
text parsed and printed again by XLA, once and twice (its text parser re-interns the tables).
Dev only: needs jax (dev extra).

    python tools/make_frame_protos.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jax
import numpy as np
from jax._src.lib import xla_client as xc

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "golden" / "dumps_proto"


def long_options() -> xc.hlo.HloPrintOptions:
    options = xc.hlo.HloPrintOptions()
    options.print_large_constants = True
    options.print_metadata = True
    options.print_operand_shape = True
    return options


def main() -> None:
    sys.path.insert(0, str(REPO))
    from tools.frames import train

    jax.config.update("jax_hlo_source_file_canonicalization_regex", "^" + re.escape(f"{REPO}/"))
    rng = np.random.default_rng(5)
    ws = [(0.3 * rng.standard_normal((8, 8))).astype(np.float32) for _ in range(3)]
    x, y = rng.standard_normal((4, 8)).astype(np.float32), rng.standard_normal((4, 8)).astype(np.float32)
    args = (ws, x, y, rng.standard_normal((5, 4, 8)).astype(np.float32), np.float32(1.0))
    lowered = jax.jit(train.step).lower(*args)
    before = lowered.compiler_ir("hlo").as_serialized_hlo_module_proto()
    after = lowered.compile().runtime_executable().hlo_modules()[0].as_serialized_hlo_module_proto()
    for stage, proto in (("before", before), ("after", after)):
        (OUT / f"frames.{stage}.module.pb").write_bytes(proto)
        text = xc.hlo.HloModule.from_serialized_hlo_module_proto(proto).to_string(long_options())
        (OUT / f"frames.{stage}.xla.txt").write_text(str(text))
        for name in ("reparsed", "reparsed2"):  # XLA's text round trip twice: both renumber
            text = xc.hlo.hlo_module_from_text(str(text)).to_string(long_options())
            (OUT / f"frames.{stage}.{name}.txt").write_text(str(text))
        print(stage, len(proto), "bytes")
    # the optimized loss alone: every frame in use, yet XLA renumbers the tables as it loads the
    # proto (it re-interns them by first reference, instructions by id)
    proto = jax.jit(train.loss).lower(ws, x, y).compile().runtime_executable().hlo_modules()[0]
    proto = proto.as_serialized_hlo_module_proto()
    (OUT / "frames.loss.after.module.pb").write_bytes(proto)
    text = xc.hlo.HloModule.from_serialized_hlo_module_proto(proto).to_string(long_options())
    (OUT / "frames.loss.after.xla.txt").write_text(str(text))


if __name__ == "__main__":
    main()
