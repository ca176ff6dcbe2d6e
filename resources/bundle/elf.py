"""Just enough of ELF (64-bit, little-endian: Linux on x86-64 or arm64) for the bundle:
the libraries a shared object links to, and whether it carries debugging information.

Used by honest-eval.spec (to leave out the libraries that only left-out Qt plugins need)
and by build_bundle.py (to strip debugging information, which a Python built from source
keeps in libpython and its extension modules: ~25 MB). Standard library only.
"""
from __future__ import annotations

import mmap
import struct

SHT_DYNAMIC = 6
DT_NULL, DT_NEEDED = 0, 1


def _sections(data) -> list:
    """The section headers: (name, type, flags, addr, offset, size, link, ...)."""
    if data[:6] != b"\x7fELF\x02\x01":            # ELF, 64-bit, little-endian
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    entsize, count = struct.unpack_from("<HH", data, 0x3A)
    return [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * entsize)
            for i in range(count)] if shoff else []


def _string(data, offset: int) -> str:
    return data[offset:data.find(b"\0", offset)].decode("utf-8", "replace")


def _read(path: str, read):
    try:
        with open(path, "rb") as handle:
            if handle.seek(0, 2) < 64:
                return read(b"")
            with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
                return read(data)
    except (OSError, ValueError, IndexError, struct.error):
        return read(b"")


def needed(path: str) -> list:
    """The ``DT_NEEDED`` names of an ELF shared object or program (empty for other files)."""
    def read(data):
        sections = _sections(data) if data else []
        found = []
        for section in sections:
            if section[1] != SHT_DYNAMIC:
                continue
            strings = sections[section[6]][4]        # the linked string table's offset
            for offset in range(section[4], section[4] + section[5], 16):
                tag, value = struct.unpack_from("<qQ", data, offset)
                if tag == DT_NULL:
                    break
                if tag == DT_NEEDED:
                    found.append(_string(data, strings + value))
        return found

    return _read(path, read)


def has_debug_info(path: str) -> bool:
    """True when the file is ELF with a ``.debug_info`` section."""
    def read(data):
        sections = _sections(data) if data else []
        if not sections:
            return False
        names_index = struct.unpack_from("<H", data, 0x3E)[0]
        if names_index >= len(sections):
            return False
        names = sections[names_index][4]
        return any(_string(data, names + s[0]) == ".debug_info" for s in sections)

    return _read(path, read)
