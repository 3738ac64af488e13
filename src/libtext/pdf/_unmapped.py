"""Hebrew glyphs a producer's ToUnicode maps to nothing, named by the font's own cmap.

WeasyPrint (over Pango) writes an empty ToUnicode entry for a pointed letter the shaper
drew as one glyph (bet with dagesh, shin with dagesh and its dot); pdfium then gives
the glyph's character code, which reads as a Latin letter (``Ś`` for ``שּׁ``). The
embedded font still maps the letter's presentation form (U+FB1D-U+FB4F) to that glyph
in its ``cmap``: with an Identity encoding the code is the glyph, and the cmap names it.
A code is replaced only when the font maps a Hebrew character to its glyph and does not
map the character pdfium gave (the font cannot have drawn that one as itself).
"""

from __future__ import annotations

import ctypes
import re
import struct
from collections.abc import Callable
from typing import Any

__all__ = ["restore_unmapped", "unmapped_suspect"]

# A Latin letter that a glyph code would read as, on a page with Hebrew letters.
_SUSPECT = re.compile("[\u00c0-\u024f]")
_HEBREW = re.compile("[\u05d0-\u05ea]")
# The Hebrew characters a glyph may stand for: points, letters, presentation forms.
_HEBREW_POINTS = range(0x0591, 0x05F5)
_HEBREW_FORMS = range(0xFB1D, 0xFB50)
# Fonts larger than this are not read for their cmap (a hostile file's "font").
_MAX_FONT = 32 * 1024 * 1024


def unmapped_suspect(text: str) -> bool:
    """Whether a page's text may hold such codes: Latin-1/Extended letters and Hebrew."""
    return _SUSPECT.search(text) is not None and _HEBREW.search(text) is not None


def restore_unmapped(raw: Any, tp: Any, text: str) -> str:
    """``text`` (the page's, one character per pdfium character) with each code that
    the glyph's font names as a Hebrew character replaced by that character."""
    fonts: dict[int, tuple[dict[int, int], set[int]] | None] = {}
    out = list(text)
    changed = False
    for m in _SUSPECT.finditer(text):
        i = m.start()
        obj = raw.FPDFText_GetTextObject(tp, i)
        if not obj:
            continue
        font = raw.FPDFTextObj_GetFont(obj)
        key = ctypes.cast(font, ctypes.c_void_p).value if font else None
        if key is None:
            continue
        if key not in fonts:
            fonts[key] = _hebrew_glyphs(_font_data(raw, font))
        known = fonts[key]
        if known is None:
            continue
        by_glyph, mapped = known
        code = ord(text[i])
        if code in mapped or code not in by_glyph:
            continue
        out[i] = chr(by_glyph[code])
        changed = True
    return "".join(out) if changed else text


def _font_data(raw: Any, font: Any) -> bytes:
    size = ctypes.c_size_t()
    if not raw.FPDFFont_GetFontData(font, None, 0, ctypes.byref(size)):
        return b""
    if not 0 < size.value <= _MAX_FONT:
        return b""
    buf = (ctypes.c_ubyte * size.value)()
    if not raw.FPDFFont_GetFontData(font, buf, size.value, ctypes.byref(size)):
        return b""
    return bytes(buf)[: size.value]


def _hebrew_glyphs(data: bytes) -> tuple[dict[int, int], set[int]] | None:
    """From an sfnt font's cmap: glyph -> the Hebrew character it is mapped from, and
    the codes below U+0250 it maps (the Latin letters it can draw as themselves)."""
    lookup = _cmap(data)
    if lookup is None:
        return None
    by_glyph: dict[int, int] = {}
    for cp in (*_HEBREW_POINTS, *_HEBREW_FORMS):
        gid = lookup(cp)
        if gid and gid not in by_glyph:
            by_glyph[gid] = cp
    if not by_glyph:
        return None
    mapped = {cp for cp in range(0x00C0, 0x0250) if lookup(cp)}
    return by_glyph, mapped


def _cmap(data: bytes) -> Callable[[int], int] | None:
    """A code point -> glyph function from the font's Unicode cmap subtable (format 4
    or 12), or None."""
    try:
        if len(data) < 12 or data[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
            return None
        (count,) = struct.unpack_from(">H", data, 4)
        table = -1
        for k in range(count):
            tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * k)
            if tag == b"cmap":
                table = offset
        if table < 0:
            return None
        (n,) = struct.unpack_from(">H", data, table + 2)
        best: tuple[int, int] | None = None
        for k in range(n):
            platform, encoding, offset = struct.unpack_from(">HHI", data, table + 4 + 8 * k)
            (fmt,) = struct.unpack_from(">H", data, table + offset)
            unicode = platform == 0 or (platform == 3 and encoding in (1, 10))
            if unicode and fmt in (4, 12) and (best is None or fmt > best[0]):
                best = (fmt, table + offset)
        if best is None:
            return None
        fmt, at = best
        return _format12(data, at) if fmt == 12 else _format4(data, at)
    except struct.error:
        return None


def _format4(data: bytes, at: int) -> Callable[[int], int]:
    (seg2,) = struct.unpack_from(">H", data, at + 6)
    segs = seg2 // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + seg2)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * seg2)
    ranges_at = at + 16 + 3 * seg2
    ranges = struct.unpack_from(f">{segs}H", data, ranges_at)

    def lookup(cp: int) -> int:
        for s in range(segs):
            if ends[s] >= cp:
                if starts[s] > cp:
                    return 0
                if ranges[s] == 0:
                    return int(cp + deltas[s]) & 0xFFFF
                where = ranges_at + 2 * s + ranges[s] + 2 * (cp - starts[s])
                if where + 2 > len(data):
                    return 0
                gid = int(struct.unpack_from(">H", data, where)[0])
                return int(gid + deltas[s]) & 0xFFFF if gid else 0
        return 0

    return lookup


def _format12(data: bytes, at: int) -> Callable[[int], int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    groups = min(groups, max(0, (len(data) - at - 16) // 12))
    table = [struct.unpack_from(">III", data, at + 16 + 12 * g) for g in range(groups)]

    def lookup(cp: int) -> int:
        for start, end, gid in table:
            if start <= cp <= end:
                return int(gid + cp - start)
        return 0

    return lookup
