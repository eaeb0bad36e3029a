"""CHLO ops expanded into HLO, as XLA's CHLO legalization expands them."""

from __future__ import annotations

from .ops_table import Handler

EXPANSIONS: dict[str, Handler] = {}
