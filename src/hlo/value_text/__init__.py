"""How values print: shapes, layouts, literals and numbers as XLA writes them. Part of the values
layer, so str() of a Shape, Layout or Literal needs nothing above it; parsing them back is the
text layer's (hlo.text.shape_codec, hlo.text.literal_codec)."""
