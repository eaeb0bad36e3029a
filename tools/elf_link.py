"""A small static linker for the native code tools (make_native_loops.py, make_native_image.py):
reads the relocatable x86-64 ELF objects LLVM emits and lays each one's code and constants out
in one position-independent blob, as hlo.numerics.native_image maps it.

What it resolves: PC-relative references (R_X86_64_PC32 to constant pools and functions,
R_X86_64_PLT32 calls) between the sections of an object, and calls of functions the object does
not define (imports: each gets a stub `jmp *slot(%rip)` and an 8-byte slot that the loader fills
with the function's address). Anything else (absolute addresses, the GOT) it refuses: the blob
must run wherever it is mapped. Unwinding tables (.eh_frame) are left out."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

SHT_SYMTAB, SHT_RELA, SHT_NOBITS = 2, 4, 8
SHF_ALLOC = 0x2
R_X86_64_PC32, R_X86_64_PLT32 = 2, 4
STB_GLOBAL, STT_FUNC, STT_SECTION = 1, 2, 3
SHN_UNDEF = 0
_STUB = bytes.fromhex("ff25")  # jmp *rel32(%rip), followed by the 4-byte displacement


@dataclass
class _Section:
    name: str
    kind: int
    flags: int
    offset: int
    size: int
    link: int
    info: int
    align: int


@dataclass
class Linked:
    """One object laid out: its bytes, its global functions' offsets, and for each import the
    offset of its 8-byte slot (all relative to the blob's start)."""

    code: bytearray = field(default_factory=bytearray)
    functions: dict[str, int] = field(default_factory=dict)
    slots: dict[str, int] = field(default_factory=dict)


def sections(elf: bytes) -> list[_Section]:
    """The section headers of a 64-bit little-endian ELF object, with their names."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise SystemExit("not a 64-bit little-endian ELF object")
    shoff = struct.unpack_from("<Q", elf, 0x28)[0]
    entsize, count, names_index = struct.unpack_from("<HHH", elf, 0x3A)
    raw = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + k * entsize) for k in range(count)]
    names_at = raw[names_index][4]

    def name(at: int) -> str:
        return elf[names_at + at : elf.index(b"\0", names_at + at)].decode()

    return [_Section(name(r[0]), r[1], r[2], r[4], r[5], r[6], r[7], max(1, r[8])) for r in raw]


def section_bytes(elf: bytes, name: str) -> bytes:
    found = [s for s in sections(elf) if s.name == name]
    return elf[found[0].offset : found[0].offset + found[0].size] if found else b""


def link(elf: bytes, align: int = 64) -> Linked:
    """Lay out the object's allocated sections (code, constants, data) one after another, then a
    stub and a slot per import, and resolve every relocation (SystemExit on one it cannot)."""
    table = sections(elf)
    out = Linked()
    base: dict[int, int] = {}
    for index, s in enumerate(table):
        if not s.flags & SHF_ALLOC or s.name.startswith(".eh_frame"):
            continue
        at = -len(out.code) % max(s.align, align if s.name.startswith(".text") else 1)
        out.code.extend(b"\0" * at)
        base[index] = len(out.code)
        out.code.extend(b"\0" * s.size if s.kind == SHT_NOBITS else elf[s.offset : s.offset + s.size])
    symtab = next(s for s in table if s.kind == SHT_SYMTAB)
    names = table[symtab.link]
    symbols = []
    for k in range(symtab.size // 24):
        name_at, info, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", elf, symtab.offset + 24 * k)
        name = elf[names.offset + name_at : elf.index(b"\0", names.offset + name_at)].decode()
        symbols.append((name, info, shndx, value))
        if info >> 4 == STB_GLOBAL and info & 0xF == STT_FUNC and shndx in base:
            out.functions[name] = base[shndx] + value
    stubs: dict[str, int] = {}
    for s in table:
        if s.kind != SHT_RELA or s.info not in base:
            continue
        for k in range(s.size // 24):
            offset, info, addend = struct.unpack_from("<QQq", elf, s.offset + 24 * k)
            kind, (name, _, shndx, value) = info & 0xFFFFFFFF, symbols[info >> 32]
            if kind not in (R_X86_64_PC32, R_X86_64_PLT32):
                raise SystemExit(f"relocation {kind} against {name!r} in {s.name}: not position-independent")
            if shndx == SHN_UNDEF:
                if kind != R_X86_64_PLT32:
                    raise SystemExit(f"{name!r} is not defined here and is not called")
                if name not in stubs:
                    stubs[name] = _import(out, name)
                target = stubs[name]
            elif shndx in base:
                target = base[shndx] + value
            else:
                raise SystemExit(f"{name!r} lies in a section that is not laid out")
            at = base[s.info] + offset
            struct.pack_into("<i", out.code, at, target + addend - at)
    return out


def _import(out: Linked, name: str) -> int:
    """A stub jumping through a new slot for `name`; its offset."""
    out.code.extend(b"\0" * (-len(out.code) % 8))
    slot = len(out.code)
    out.code.extend(b"\0" * 8)
    out.slots[name] = slot
    stub = len(out.code)
    out.code.extend(_STUB + struct.pack("<i", slot - (stub + 6)))
    return stub
