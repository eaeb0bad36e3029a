"""Reference results of a run on several devices, for `hlo run --compare`: a path with
`{device}` names one file per device (out0, out1, ... each, as `hlo run --output` writes with
`{device}`), or one .npz holds every device's outputs as out{device}_{k} (the form of the
sharded fixtures)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np

from ..errors import HloError
from .reference import load_reference


def load_device_references(path: str, devices: int, count: int) -> list[list[np.ndarray]]:
    """Each device's `count` reference outputs, in device order."""
    if "{device}" in path:
        return [load_reference(path.replace("{device}", str(d)), count) for d in range(devices)]
    if not Path(path).is_file():
        raise HloError(f"{path}: the reference file does not exist")
    if not zipfile.is_zipfile(path):
        raise HloError(
            f"{path}: a run on {devices} devices compares with a .npz of out{{device}}_{{k}} arrays "
            "or one file per device (a path with {device})"
        )
    try:
        data = np.load(path)
    except (OSError, ValueError) as e:
        raise HloError(f"{path}: cannot read the reference: {e}") from None
    keys = [[f"out{d}_{k}" for k in range(count)] for d in range(devices)]
    wanted = {k for row in keys for k in row}
    missing = [k for row in keys for k in row if k not in data.files]
    if missing:
        raise HloError(
            f"{path}: {missing[0]}: missing ({devices} devices with {count} outputs each: "
            f"out0_0..out{devices - 1}_{count - 1})"
        )
    extra = [k for k in data.files if k.startswith("out") and k not in wanted]
    if extra:
        raise HloError(f"{path}: {extra[0]}: not an output of the {devices} devices' {count} outputs")
    return [[data[k] for k in row] for row in keys]
