"""What the IR's conveniences need from the layers above it, installed by those layers when they
are imported (`import hlo` imports them all): `str()` and `to_text()` of instructions,
computations and modules and the HLO spelling of attribute values in messages (the text layer),
the names of called computations (the op registry), and shape text given to builder functions
(the text layer). The IR itself imports nothing above it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Services:
    """Filled in by hlo.text and hlo.ops.registry; each is None until its layer is imported."""

    print_instruction: Callable[..., str] | None = None
    print_computation: Callable[..., str] | None = None
    print_module: Callable[..., str] | None = None
    spell_attribute: Callable[[Any, Any], str] | None = None  # (AttrKind, value) -> text
    parse_shape: Callable[[str], Any] | None = None
    called_computation_names: Callable[[Any], tuple[str, ...]] | None = None


def require(service: Callable[..., Any] | None, what: str) -> Callable[..., Any]:
    if service is None:
        raise RuntimeError(f"{what} needs hlo's text layer: `import hlo` first")
    return service


def spell(kind: Any, value: Any) -> str:
    """`value` as HLO text spells an attribute of this kind (for messages)."""
    return require(Services.spell_attribute, "printing an attribute")(kind, value)


def parse_shape(text: str) -> Any:
    """The Shape that `text` spells (`f32[4]{0}`)."""
    return require(Services.parse_shape, "parsing a shape")(text)
