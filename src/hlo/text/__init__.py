"""HLO text: the lexer, the parser and the printer, with one codec per attribute kind. Importing
this package installs the IR's text services (hlo.ir.services): str() of IR objects, attribute
spellings in messages, shape text given to builder functions."""

from ..ir.services import Services
from .codec_table import spell_attribute
from .printer import print_computation, print_instruction, print_module
from .shape_codec import parse_shape

Services.print_instruction = print_instruction
Services.print_computation = print_computation
Services.print_module = print_module
Services.spell_attribute = spell_attribute
Services.parse_shape = parse_shape
