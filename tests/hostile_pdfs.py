"""Hostile PDFs written from scratch, from their parameters (not from libtext's output).

Each builder returns the bytes of a syntactically plausible PDF (header, numbered
objects, a cross-reference table with real offsets, a trailer) built to exhaust a
reader: a Flate stream inflating to gigabytes, a huge page tree, one content stream
shared by thousands of pages, deep and cyclic references, a cross-reference loop.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def build(objects: dict[int, bytes], *, root: int = 1, prev_loop: bool = False) -> bytes:
    """A PDF with ``objects`` (number -> body) and a correct xref table.

    ``prev_loop``: the trailer's ``/Prev`` points at its own xref table, so a reader that
    follows ``/Prev`` without a visited set never stops.
    """
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets: dict[int, int] = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        if number in offsets:
            out += b"%010d 00000 n \n" % offsets[number]
        else:
            out += b"0000000000 65535 f \n"
    trailer = b"/Size %d /Root %d 0 R" % (size, root)
    if prev_loop:
        trailer += b" /Prev %d" % xref
    out += b"trailer\n<< " + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def stream(data: bytes, *, flate: bool = False, extra: bytes = b"") -> bytes:
    if flate:
        data = zlib.compress(data, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def page(contents: int, parent: int = 2) -> bytes:
    return (
        b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (parent, contents)
    )


def text_ops(words: list[str], per_line: int = 8) -> bytes:
    """A content stream drawing ``words`` in Helvetica, ``per_line`` words a line."""
    lines = [" ".join(words[i : i + per_line]) for i in range(0, len(words), per_line)]
    ops = [b"BT /F1 10 Tf 12 TL 40 760 Td"]
    ops += [b"(%s) Tj T*" % line.encode("ascii") for line in lines]
    ops.append(b"ET")
    return b"\n".join(ops)


def simple(pages: int = 1, words: int = 20) -> bytes:
    """A valid small PDF of ``pages`` pages (the control case)."""
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 3: FONT}
    kids = []
    for i in range(pages):
        contents, number = 4 + 2 * i, 5 + 2 * i
        objects[contents] = stream(text_ops([f"word{k}" for k in range(words)]))
        objects[number] = page(contents)
        kids.append(b"%d 0 R" % number)
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), pages)
    return build(objects)


def deflate_repeated(block: bytes, times: int) -> bytes:
    """zlib data that inflates to ``block * times``, built in about a second for gigabytes.

    After a full flush the compressor starts afresh, so the compressed form of each
    further copy of ``block`` is the same bytes: written once, repeated ``times - 1``
    times; the trailer's checksum is computed over the whole inflated data.
    """
    comp = zlib.compressobj(9)
    first = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    again = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    tail = comp.flush()[:-4]  # the final empty block, without the checksum of 2 copies
    one = zlib.adler32(block)
    adler = one
    for _ in range(times - 1):
        adler = adler32_combine(adler, one, len(block))
    return first + again * (times - 1) + tail + adler.to_bytes(4, "big")


def adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """The Adler-32 of ``a + b`` from those of ``a`` and ``b`` (zlib's adler32_combine)."""
    base = 65521
    rem = len2 % base
    sum1 = adler1 & 0xFFFF
    sum2 = rem * sum1 % base
    sum1 += (adler2 & 0xFFFF) + base - 1
    sum2 += (adler1 >> 16) + (adler2 >> 16) + base - rem
    sum1 = sum1 - base if sum1 >= base else sum1
    sum1 = sum1 - base if sum1 >= base else sum1
    sum2 = sum2 - 2 * base if sum2 >= 2 * base else sum2
    sum2 = sum2 - base if sum2 >= base else sum2
    return sum1 | (sum2 << 16)


def flate_bomb(inflated: int) -> bytes:
    """One page whose content stream inflates to ``inflated`` bytes of spaces."""
    block = b" " * (16 * 2**20)
    data = deflate_repeated(block, max(1, inflated // len(block)))
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
        3: FONT,
        4: b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream",
        5: page(4),
    }
    return build(objects)


def many_pages(count: int, *, declared: int | None = None) -> bytes:
    """``count`` empty pages under one node whose ``/Count`` says ``declared`` (default true)."""
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 3: FONT, 4: stream(b"")}
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(count))
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, declared or count)
    for i in range(count):
        objects[5 + i] = page(4)
    return build(objects)


def shared_stream(pages: int, words: int) -> bytes:
    """``pages`` pages that all draw one Flate content stream of ``words`` words."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        3: FONT,
        4: stream(text_ops([f"w{k % 1000}" for k in range(words)]), flate=True),
    }
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(pages))
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages)
    for i in range(pages):
        objects[5 + i] = page(4)
    return build(objects)


def deep_references(depth: int) -> bytes:
    """A page tree ``depth`` levels deep, each level an indirect object, plus nested arrays."""
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 3: FONT, 4: stream(b"")}
    for level in range(depth):
        number, child = 10 + level, 11 + level
        parent = 2 if level == 0 else number - 1
        objects[number] = b"<< /Type /Pages /Parent %d 0 R /Kids [%d 0 R] /Count 1 >>" % (
            parent,
            child,
        )
    objects[10 + depth] = page(4, parent=9 + depth)
    objects[2] = b"<< /Type /Pages /Kids [10 0 R] /Count 1 /Deep %s%s >>" % (
        b"[" * depth,
        b"]" * depth,
    )
    return build(objects)


def cyclic_references() -> bytes:
    """A page tree whose nodes are each other's kids, and contents that refer in a circle."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [6 0 R 2 0 R] /Count 3 >>",
        3: FONT,
        4: b"5 0 R",
        5: b"4 0 R",
        6: b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 7 0 R 6 0 R] /Count 2 >>",
        7: page(4, parent=6),
    }
    return build(objects)


def xref_loop() -> bytes:
    """A valid-looking one-page PDF whose trailer's ``/Prev`` points back at itself."""
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
        3: FONT,
        4: stream(b""),
        5: page(4),
    }
    return build(objects, prev_loop=True)


def long_line(chars: int = 60_000) -> bytes:
    """One page drawing one text line of ``chars`` characters (``ab ab ...``), under 1 KB.

    Text rules that read a line at a time (a contents entry ends in a page number) meet
    a line as long as a chapter: a rule that backtracks freezes the process that runs it.
    """
    words = b"ab " * (chars // 3)
    ops = b"BT /F1 10 Tf 40 760 Td (" + words[:chars].rstrip() + b") Tj ET"
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
        3: FONT,
        4: stream(ops, flate=True),
        5: page(4),
    }
    return build(objects)


HOSTILE: dict[str, Callable[[], bytes]] = {
    "flate_bomb": lambda: flate_bomb(2 * 2**30),
    "100k_pages": lambda: many_pages(100_000),
    "2000_pages_one_stream": lambda: shared_stream(2000, 40_000),
    "deep_references": lambda: deep_references(5000),
    "cyclic_references": cyclic_references,
    "xref_loop": xref_loop,
    "long_line": long_line,
}
"""The hostile cases of the issue, by name, at the sizes the tests use."""
