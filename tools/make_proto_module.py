"""Regenerate src/hlo/proto/*_pb2.py from the .proto files beside them (dev only: needs
grpcio-tools, `pip install grpcio-tools`). The generated modules are committed, so users need
neither protoc nor grpcio-tools, only the protobuf runtime pinned in pyproject.toml.

    python tools/make_proto_module.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from grpc_tools import protoc  # type: ignore[import-not-found]

SRC = Path(__file__).resolve().parent.parent / "src"
PROTOS = ("hlo/proto/xla_data.proto", "hlo/proto/hlo.proto")


def main() -> int:
    for proto in PROTOS:
        status = protoc.main(["protoc", f"--proto_path={SRC}", f"--python_out={SRC}", str(SRC / proto)])
        if status != 0:
            print(f"protoc failed on {proto}", file=sys.stderr)
            return status
    print("wrote", ", ".join(p.replace(".proto", "_pb2.py") for p in PROTOS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
