"""Shape and layout text as XLA's printer writes it (ShapeUtil::HumanStringWithLayout,
Layout::Print): what str() of a Shape or Layout gives. Reading it back is hlo.text.shape_codec."""

from __future__ import annotations

from ..layout import Layout
from ..shape import UNBOUNDED, Shape

_TUPLE_INDEX_INTERVAL = 5  # XLA marks every 5th tuple element with /*index=N*/


def print_layout(layout: Layout) -> str:
    parts = ["{", ",".join(map(str, layout.minor_to_major))]
    attrs: list[str] = []
    if layout.dim_level_types:
        attrs.append("D(" + ",".join(_dim_level(layout, i) for i in range(len(layout.dim_level_types))) + ")")
    if layout.tiles:
        attrs.append("T" + "".join(str(t) for t in layout.tiles))
    if layout.tail_padding_alignment_in_elements != 1:
        attrs.append(f"L({layout.tail_padding_alignment_in_elements})")
    if layout.index_primitive_type is not None:
        attrs.append(f"#({layout.index_primitive_type.text})")
    if layout.pointer_primitive_type is not None:
        attrs.append(f"*({layout.pointer_primitive_type.text})")
    if layout.element_size_in_bits:
        attrs.append(f"E({layout.element_size_in_bits})")
    if layout.memory_space:
        attrs.append(f"S({layout.memory_space})")
    if layout.split_configs:
        attrs.append("SC" + "".join(str(s) for s in layout.split_configs))
    if layout.physical_shape is not None:
        attrs.append(f"P({print_shape(layout.physical_shape)})")
    if layout.dynamic_shape_metadata_prefix_bytes > 0:
        attrs.append(f"M({layout.dynamic_shape_metadata_prefix_bytes})")
    if attrs:
        parts.append(":" + "".join(attrs))
    parts.append("}")
    return "".join(parts)


def _dim_level(layout: Layout, i: int) -> str:
    text = layout.dim_level_types[i].value
    if layout.dim_unique and not layout.dim_unique[i]:
        text += "+"
    if layout.dim_ordered and not layout.dim_ordered[i]:
        text += "~"
    return text


def _print_dimension(shape: Shape, i: int) -> str:
    d = shape.dimensions[i]
    if shape.dynamic_dimensions[i]:
        return "?" if d == UNBOUNDED else f"<={d}"
    return str(d)


def print_shape(shape: Shape, print_layout_: bool = True) -> str:
    """XLA's ShapeUtil::HumanStringWithLayout (or HumanString without the layout)."""
    if shape.is_tuple:
        if not shape.tuple_shapes:
            return "()"
        out = ["(", shape.tuple_shapes[0].to_string(print_layout_)]
        for i, s in enumerate(shape.tuple_shapes[1:], start=1):
            out.append(f", /*index={i}*/" if i % _TUPLE_INDEX_INTERVAL == 0 else ", ")
            out.append(s.to_string(print_layout_))
        out.append(")")
        return "".join(out)
    if shape.is_buffer:
        assert shape.buffer_shape is not None
        return f"b({print_shape(shape.buffer_shape, print_layout_)})"
    text = shape.element_type.text
    if not shape.is_array or not shape.dimensions:
        text += "[]"
    else:
        text += "[" + ",".join(_print_dimension(shape, i) for i in range(len(shape.dimensions))) + "]"
    if print_layout_ and shape.is_array and shape.layout is not None:
        layout_text = print_layout(shape.layout)
        if shape.dimensions or layout_text != "{}":
            text += layout_text
    return text


def print_program_shape(
    parameters: list[Shape], names: list[str], result: Shape, print_layout_: bool = False
) -> str:
    """XLA's ProgramShape printing: `(name: shape, ...) -> shape`; a nameless one is `(unknown)`."""
    params = ", ".join(
        f"{name or '(unknown)'}: {print_shape(shape, print_layout_)}"
        for name, shape in zip(names, parameters)
    )
    return f"({params}) -> {print_shape(result, print_layout_)}"
