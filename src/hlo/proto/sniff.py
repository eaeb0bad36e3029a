"""Telling a text-format proto from other text without importing protobuf (most files hlo
loads are HLO text: reading them should not pay for protobuf's import)."""

from __future__ import annotations


def looks_like_text_proto(text: str) -> bool:
    head = text.lstrip()
    while head.startswith("#"):
        head = head.split("\n", 1)[1].lstrip() if "\n" in head else ""
    return head.startswith(
        ("name:", "name :", "hlo_module", "hlo {", "hlo{", "computations", "entry_computation")
    )
