"""Dev check (needs jaxlib): the HloModuleProtos hlo writes for the attributes of
tests/test_proto_writer.py are read by XLA itself (HloModule::CreateFromProto through
jaxlib's XlaComputation), and XLA prints them as hlo reads them back.

    PYTHONPATH=src python tools/check_proto_writer.py
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hlo.proto.writer import module_to_proto
from hlo.replay.load import load_bytes
from hlo.text.parser import parse_module


def _lines(text: str) -> set[str]:
    """Instruction lines without the header: XLA orders instructions by use, hlo as written."""
    return set(text.splitlines()[1:])


def main() -> int:
    xc = importlib.import_module("jax._src.lib").xla_client
    tests = importlib.import_module("test_proto_writer")
    failed = 0
    texts = {n: getattr(tests, n) for n in ("CUSTOM_LITERAL", "DOMAIN", "PERMUTE", "MESH", "ELIDED", "SCAN")}
    texts["SPARSE_CONV"] = tests.SPARSE_CONV
    texts["RECOVERY_TABLE"] = next(r for r in tests._rows() if r["name"] == "OriginalValueRecoveryTable")[
        "text"
    ]
    for name, text in texts.items():
        data = module_to_proto(parse_module(text)).SerializeToString()
        try:
            xla_text = xc.XlaComputation(data).as_hlo_text()
        except Exception as e:  # XLA's errors come as many types
            print(f"{name}: XLA refuses it: {str(e).splitlines()[0]}")
            failed += 1
            continue
        ours = load_bytes(data, name).module.to_text("default")
        same = _lines(parse_module(xla_text).to_text("default")) == _lines(ours)
        print(f"{name}: XLA reads it{'' if same else ', but prints another module'}")
        if not same:
            print(xla_text)
        failed += not same
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
