"""The fast engine: pdfium's logical-order text, cut into lines with font size and weight.

pdfium already gives right-to-left text in logical order, one ``\\r\\n`` per printed
line, in about a millisecond per page. Calling it once per character from Python (to
get sizes and boxes) would cost more than the extraction itself, so this module asks
about a few characters per line only: three samples for size and weight, the ends for
the box. Per-character work is done only where a line needs it:

* lines with nikud: marks are re-attached to their letters, the spaces pdfium invents
  inside pointed words and the stray glyphs of precomposed letters are dropped;
* lines far wider than their text: items on one baseline far apart (a running
  header's two halves, a page number) are split;
* Hebrew lines that pdfium read left to right (they start with a Latin word), and
  runs of punctuation between Hebrew words: re-ordered by their glyphs' positions.
"""

from __future__ import annotations

import ctypes
import gc
import itertools
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from libtext.pdf._blocks import attach_markers, order_lines
from libtext.pdf._columns import find_gutter, split_at_gutter
from libtext.pdf._dropped import LOST_LABEL, restore_dropped
from libtext.pdf._lines import RawLine, join_items, margin_note, margin_number
from libtext.pdf._pdfium import PageChars, char_calls
from libtext.pdf._rows import join_rows
from libtext.pdf._spaces import lost_spaces
from libtext.pdf._text import attach_marks, is_mark, line_direction, neutral_run_direction
from libtext.pdf._visual import (
    TOUCH,
    Direction,
    Glyph,
    turns_at,
    visual_direction,
    visual_parts,
)

__all__ = ["RawLine", "RawPage", "ligatures_in_order", "read_page", "reading_order"]

_MARKS = re.compile("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")
_HEBREW = re.compile("[\u05d0-\u05ea]")
_LATIN = re.compile("[A-Za-z]")
_HEBREW_LETTERS = tuple(map(chr, range(0x05D0, 0x05EB)))
_LATIN_LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_LTR_CHAR = re.compile(r"[A-Za-z0-9\u00c0-\u024f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# A surrogate half, an _LTR_CHAR or a _MARKS: one search for the three.
_UNTRUSTED = re.compile(
    r"[\ud800-\udfffA-Za-z0-9\u00c0-\u024f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]"
)
_PUNCT_RUN = re.compile(r"[^\w\s]{2,}")
_LEAD_NUMBER = re.compile(r"([.,:;]+)(\d{1,4})(?=\s)")
_LTR_RUN = re.compile(r"[A-Za-z0-9\u00c0-\u024f](?:[^\u0590-\u05ff]*[A-Za-z0-9\u00c0-\u024f])?")
# A gap wider than this many font sizes separates two items on one baseline.
_SPLIT_GAP = 2.0
# Under nikud, pdfium inserts spaces inside words; a real space is wider than this.
_WORD_GAP = 0.2


@dataclass(slots=True)
class RawPage:
    """A page as read: ``chars`` counts pdfium's characters (0: no text layer)."""

    number: int
    width: float
    height: float
    lines: list[RawLine]
    chars: int
    has_images: bool = False


class _Boxes(Protocol):
    """What the mark and punctuation repairs ask of a page: boxes and pdfium's calls.

    A protocol, not :class:`_Reader`, so that a test can hand them recorded boxes
    (compiled, a parameter typed with a class accepts that class only).
    """

    raw: Any
    tp: Any

    def box(self, i: int) -> tuple[float, float]: ...


class _Reader:
    """Per-page access to pdfium's text page through a few reusable ctypes buffers."""

    def __init__(
        self,
        raw: Any,
        textpage: Any,
        height: float,
        direction: Direction = "R",
        page: Any = None,
    ) -> None:
        self.raw = raw
        self.tp = textpage
        self.page = page
        self.height = height
        self.direction: Direction = direction
        self._rect = raw.FS_RECTF()
        self._matrix = raw.FS_MATRIX()
        self._calls: PageChars = char_calls(raw, textpage, self._matrix, page)
        self._name = ctypes.create_string_buffer(128)
        self._flags = ctypes.c_int()
        # The gutter search, the line reader and the glyph reader ask for the same
        # characters' boxes and sizes: one ctypes call each per page (but for the
        # gutter search's batches, see boxes()).
        self._boxes: dict[int, tuple[float, float]] = {}
        self._sizes: dict[int, float] = {}
        self._baselines: dict[int, float] = {}
        self._middles: dict[int, float] = {}
        self._replaced: dict[int, tuple[float, float] | None] | None = None
        self._unions: dict[int, tuple[float, float] | None] = {}
        self._bold_fonts: dict[int, bool] = {}
        self._char_objects: dict[int, int | None] = {}
        self._modes: dict[int, int] = {}

    def looses(self, indices: list[int]) -> list[float]:
        """The advance boxes (where each sits among its neighbours) of many characters,
        from one batch, flat: left, right of the first, left, right of the second, ..."""
        return self._calls.looses(indices)

    def invisible(self, i: int) -> bool:
        """Whether character ``i`` is drawn invisibly: an OCR engine's text over a scan."""
        obj = self._text_object(i)
        if not obj:
            return False
        return bool(self._render_mode(obj) == self.raw.FPDF_TEXTRENDERMODE_INVISIBLE)

    def _text_object(self, i: int) -> int | None:
        # A line's weight and its visibility are asked of the same character.
        if i in self._char_objects:
            return self._char_objects[i]
        got = self._char_objects[i] = self._calls.text_object(i)
        return got

    def _render_mode(self, obj: int) -> int:
        got = self._modes.get(obj)
        if got is None:
            got = self._modes[obj] = self._calls.render_mode(obj)
        return got

    def box(self, i: int) -> tuple[float, float]:
        got = self._boxes.get(i)
        if got is None:
            lo, hi, self._middles[i] = self._calls.box_middle(i)
            got = self._boxes[i] = (lo, hi)
        return got

    def middle(self, i: int) -> float:
        """The vertical middle of character ``i``'s ink box (page coordinates)."""
        got = self._middles.get(i)
        if got is None:
            lo, hi, got = self._calls.box_middle(i)
            self._middles[i] = got
            self._boxes[i] = (lo, hi)
        return got

    def boxes(self, indices: list[int]) -> list[tuple[float, float]]:
        """:meth:`box` of many characters in one batch, not kept: the gutter search
        reads the letters around a page's spaces once, and keeping them cost more
        than asking again for the few that are read later."""
        return self._calls.boxes(indices)

    def glyphs(self, text: str, a: int, b: int) -> list[Glyph]:
        """Characters ``a`` to ``b - 1`` with their advance boxes and ink centres (for
        marks), the boxes read in one batch."""
        flat = self._calls.glyph_boxes(a, b)
        out: list[Glyph] = []
        for k in range(b - a):
            i = a + k
            ch = text[i]
            left, right, lo, hi = flat[4 * k], flat[4 * k + 1], flat[4 * k + 2], flat[4 * k + 3]
            if ch.isspace():
                generated = self._calls.is_generated(i)
                out.append(Glyph(ch, left, right, (lo + hi) / 2, generated, i))
                continue
            if left == lo and right == hi:
                # pdfium gives the characters of a replacement text (/ActualText) equal
                # slices of its first glyph's box; everywhere else the loose box (the
                # advance) differs from the ink box.
                span = self.replacement_box(i)
                if span is not None:
                    out.append(Glyph(ch, span[0], span[1], (span[0] + span[1]) / 2, index=i))
                    continue
            out.append(Glyph(ch, left, right, (lo + hi) / 2, False, i))
        return out

    def replacement_box(self, i: int) -> tuple[float, float] | None:
        """Where character ``i`` of a replacement text (/ActualText) is drawn, else None.

        A marked-content sequence with /ActualText (Word writes one per pointed
        letter: the letter's glyph and its marks' glyphs, some raised on glyphs of
        their own) reads as its replacement text (PDF 32000-1, 14.9.4); pdfium lays
        that text over one glyph alone, often a mark's. The text belongs where all
        of the sequence's glyphs are: their union, shared by its base letters in the
        line's direction, each mark with its letter.
        """
        if self._replaced is None:
            self._replaced = {}
        if i in self._replaced:
            return self._replaced[i]
        calls = self._calls
        key = calls.text_object(i)
        if key is None:
            union = None
        elif key in self._unions:
            union = self._unions[key]  # a text object's characters share the answer
        else:
            union = self._unions[key] = calls.span_union(key)
        if key is None or union is None:
            self._replaced[i] = None
            return None
        n = calls.count_chars()
        first, last = i, i
        while first > 0 and calls.text_object(first - 1) == key:
            first -= 1
        while last + 1 < n and calls.text_object(last + 1) == key:
            last += 1
        chars = [chr(calls.unicode(k)) for k in range(first, last + 1)]
        bases = [k for k, ch in enumerate(chars) if not is_mark(ch) and not ch.isspace()] or [0]
        lo, hi = union
        step = (hi - lo) / len(bases)
        rtl = self.direction == "R" or any(_HEBREW.match(chars[k]) for k in bases)
        owner = 0
        for k in range(len(chars)):
            if k in bases:
                owner = bases.index(k)
            slot = len(bases) - 1 - owner if rtl else owner
            self._replaced[first + k] = (lo + slot * step, lo + (slot + 1) * step)
        return self._replaced[i]

    def baseline(self, i: int) -> float:
        got = self._baselines.get(i)
        if got is None:
            got = self._baselines[i] = self.height - self._calls.origin(i)[1]
        return got

    def size(self, i: int) -> float:
        """The size a reader sees: the ``Tf`` operand times the text and page matrices.

        InDesign and Quartz write ``1 Tf`` and scale by the text matrix; Windows' Print
        to PDF writes ``327.68 Tf`` scaled down by 0.081: the operand alone says nothing.
        """
        got = self._sizes.get(i)
        if got is not None:
            return got
        size = self._calls.font_size(i)
        m = self._matrix
        if self._calls.matrix(i):
            scale = math.sqrt(abs(m.a * m.d - m.b * m.c))
            size = size * scale if scale > 0 else size
        self._sizes[i] = size
        return size

    def metrics(self, i: int) -> tuple[float, float]:
        """Character ``i``'s size and baseline."""
        return self.size(i), self.baseline(i)

    def bold(self, i: int) -> bool:
        """Bold by its font (weight, name, ForceBold), or drawn filled and stroked.

        The font's part is asked once per font and page: a page has a few fonts and
        dozens of lines.
        """
        calls = self._calls
        obj = self._text_object(i)
        font = calls.font(obj) if obj else None
        if not obj or not font:
            return self._font_bold(i) or (obj is not None and self._stroked(obj))
        by_font = self._bold_fonts.get(font)
        if by_font is None:
            by_font = self._bold_fonts[font] = self._font_bold(i)
        return by_font or self._stroked(obj)

    def font_of(self, i: int) -> int | None:
        """Character ``i``'s font (a handle: equal for one font of the page)."""
        obj = self._text_object(i)
        return self._calls.font(obj) if obj else None

    def slanted(self, i: int) -> bool:
        """Whether character ``i`` is drawn slanted (a shear in its matrix: a producer's
        oblique or italic of an upright font)."""
        if not self._calls.matrix(i):
            return False
        m = self._matrix
        a, b, c, d = float(m.a), float(m.b), float(m.c), float(m.d)
        return abs(c) > 0.05 * abs(d) and abs(b) < 0.05 * abs(a)

    def font_name(self, i: int) -> str:
        n = self.raw.FPDFText_GetFontInfo(self.tp, i, self._name, 128, ctypes.byref(self._flags))
        return self._name.value.decode("latin-1", "replace") if n else ""

    def _font_bold(self, i: int) -> bool:
        weight = self.raw.FPDFText_GetFontWeight(self.tp, i)
        if weight >= 600:
            return True
        n = self.raw.FPDFText_GetFontInfo(self.tp, i, self._name, 128, ctypes.byref(self._flags))
        name = self._name.value.decode("latin-1", "replace").lower() if n else ""
        # Flag bit 19 is ForceBold (PDF 32000-1, table 123).
        return any(w in name for w in ("bold", "black", "heavy", "semibold", "demi")) or bool(
            self._flags.value & (1 << 18)
        )

    def _stroked(self, obj: int) -> bool:
        # Word and others fake bold by stroking the glyph outline as well as filling it.
        return bool(self._render_mode(obj) == self.raw.FPDF_TEXTRENDERMODE_FILL_STROKE)


def read_page(raw: Any, page: Any, number: int) -> RawPage:
    """Read one pypdfium2 page into raw lines (logical order, marks fixed).

    The cyclic garbage collector is kept out of the read: a page makes tens of
    thousands of short-lived objects (boxes, glyphs, parts), freed by their counts;
    collecting the young ones every few hundred allocations is work for nothing (the
    next allocation after the read collects whatever cycle it left).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _read_page(raw, page, number)
    finally:
        if enabled:
            gc.enable()


def _read_page(raw: Any, page: Any, number: int) -> RawPage:
    width, height = (float(v) for v in page.get_size())
    textpage = page.get_textpage()
    try:
        tp = textpage.raw
        n = int(raw.FPDFText_CountChars(tp))
        if n <= 0:
            has_images = any(True for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE]))
            return RawPage(number, width, height, [], 0, has_images)
        text = textpage.get_text_range()
        if LOST_LABEL.search(text) and restore_dropped(raw, page.raw, tp):
            textpage.close()
            textpage = page.get_textpage()
            tp = textpage.raw
            n = int(raw.FPDFText_CountChars(tp))
            text = textpage.get_text_range()
        if len(text) != n:  # pdfium skipped or inserted characters: go one by one
            text = "".join(chr(raw.FPDFText_GetUnicode(tp, i) or 0xFFFD) for i in range(n))
        if "\ufffe" in text:
            # pdfium's mark for a hyphen that ends a line (a word broken there): the
            # page shows a hyphen.
            text = text.replace("\ufffe", "-")
        hebrew, latin = _script_letters(text)
        # y is measured from the top of the visible page (the crop box, which need not
        # start at 0), so that header and footer bands mean the same on every page.
        bbox = raw.FS_RECTF()
        top = float(bbox.top) if raw.FPDF_GetPageBoundingBox(page.raw, bbox) else height
        reader = _Reader(raw, tp, top, "R" if hebrew >= latin else "L", page.raw)
        segments: list[tuple[int, int]] = []
        start = 0
        while start < n:
            end = text.find("\n", start)
            if end < 0:
                end = n
            seg = text[start:end]
            stripped = seg.strip()
            if stripped:
                a = start + (len(seg) - len(seg.lstrip()))
                segments.append((a, a + len(stripped)))
            start = end + 1
        gutter = find_gutter(text, segments, reader.box, reader.size, reader.boxes)
        if gutter is not None:
            segments = split_at_gutter(text, segments, gutter, reader.box)
        lines = join_items(_read_lines(reader, text, segments, gutter), reader.direction, gutter)
        lines = join_rows(lines, reader.direction, gutter)
        lines = attach_markers(lines, reader.direction)
        return RawPage(number, width, height, order_lines(lines, reader.direction), n)
    finally:
        textpage.close()


def _solid(text: str, i: int, lo: int, hi: int) -> int:
    """The nearest index at or after ``i`` (else before) that is a letter, not a space/mark."""
    for j in range(i, hi):
        ch = text[j]
        if not ch.isspace() and not is_mark(ch):
            return j
    for j in range(i - 1, lo - 1, -1):
        ch = text[j]
        if not ch.isspace() and not is_mark(ch):
            return j
    return i


def _letter(text: str, i: int, lo: int, hi: int) -> int:
    """The nearest letter or digit to ``i`` (else :func:`_solid`'s pick): a line's size
    is its words', not that of an ornament or a small bullet between them."""
    for d in range(min(12, hi - lo)):
        for j in (i + d, i - d):
            if lo <= j < hi and text[j].isalnum():
                return j
    return _solid(text, i, lo, hi)


def _only_marks(text: str, a: int, b: int) -> bool:
    """Whether a segment holds only marks, or a point or two (set low, pdfium cut the
    line at it): a piece of the line around it."""
    return all(is_mark(ch) or ch.isspace() for ch in text[a:b]) or (
        b - a <= 2 and all(ch in _LOW_POINTS for ch in text[a:b])
    )


_LOW_POINTS = frozenset(".,")


def _read_lines(
    r: _Reader, text: str, segments: list[tuple[int, int]], gutter: float | None = None
) -> list[RawLine]:
    """The lines of a page's segments, re-joining lines pdfium broke in two.

    pdfium breaks a printed line when a point dips below the baseline on a line whose
    words are drawn one by one; the halves then share a baseline and abut (sometimes
    with the lone point as a segment between them). Comparing the lines already read
    costs nothing more in the usual case.
    """
    read: list[list[RawLine]] = []
    for a, b in segments:
        out: list[RawLine] = []
        _read_segment(r, text, a, b, out)
        read.append(out)
    lines: list[RawLine] = []
    k = 0
    while k < len(segments):
        group = [k]
        while True:
            nxt = group[-1] + 1
            if nxt + 1 < len(segments) and _only_marks(text, *segments[nxt]):
                nxt += 1
            if nxt < len(segments) and _abut(
                read[group[-1]], read[nxt], gutter, (r, segments[group[-1]], segments[nxt])
            ):
                group.extend(range(group[-1] + 1, nxt + 1))
            else:
                break
        if len(group) == 1:
            lines.extend(read[k])
        else:
            if all(r.invisible(segments[g][0]) for g in group):
                lines.append(_ocr_joined([read[g][0] for g in group]))
            else:
                lines.append(_joined_line(r, text, [segments[g] for g in group]))
        k = group[-1] + 1
    return lines


# Pieces of one line share a baseline to this many font sizes; an OCR layer's words
# (a scan is never quite level) to this many.
_SAME_LINE = 0.3
_SAME_OCR_LINE = 0.45


def _abut(
    before: list[RawLine],
    after: list[RawLine],
    gutter: float | None = None,
    pieces: tuple[_Reader, tuple[int, int], tuple[int, int]] | None = None,
) -> bool:
    """Whether two single lines share a baseline and touch (one line cut in two);
    ``pieces`` (the reader and the two segments) tells an OCR layer's words."""
    if len(before) != 1 or len(after) != 1:
        return False
    p, q = before[0], after[0]
    if gutter is not None and min(p.x1, q.x1) <= gutter <= max(p.x0, q.x0):
        return False  # the two columns' lines
    size = max(min(p.size, q.size), 1.0)
    apart = abs(p.y - q.y)
    if apart > _SAME_LINE * size and (
        apart > _SAME_OCR_LINE * size
        or pieces is None
        or not (pieces[0].invisible(pieces[1][0]) and pieces[0].invisible(pieces[2][0]))
    ):
        return False
    return max(p.x0, q.x0) - min(p.x1, q.x1) < 1.5 * size


def _ocr_joined(pieces: list[RawLine]) -> RawLine:
    """One line of an OCR layer's pieces (whole words, each read with its spaces), in
    the line's direction on the page: the layer may give a line's last words first,
    a little off its baseline."""
    hebrew, latin = _script_letters("".join(p.text for p in pieces))
    sign = -1.0 if hebrew >= latin else 1.0
    ordered = sorted(pieces, key=lambda p: sign * (p.x0 + p.x1))
    main = max(pieces, key=lambda p: len(p.text))
    return RawLine(
        " ".join(p.text for p in ordered),
        main.size,
        main.bold,
        main.y,
        min(p.x0 for p in pieces),
        max(p.x1 for p in pieces),
        all(p.brackets_fixed for p in pieces),
    )


def _joined_line(r: _Reader, text: str, group: list[tuple[int, int]]) -> RawLine:
    """One line from segments pdfium split, its text re-read from the glyphs' boxes."""
    idx: list[int] = []
    for a, b in group:
        if idx:
            idx.append(a - 1)  # the line break between: a space
        idx.extend(range(a, b))
    mid = group[len(group) // 2][0]
    mid = _solid(text, mid, mid, group[len(group) // 2][1])
    size = round(max(r.size(mid), 1.0), 1)
    boxes = [r.box(i) for i in idx if not text[i].isspace()]
    x0, x1 = min(lo for lo, _ in boxes), max(hi for _, hi in boxes)
    if _visual_pieces(r, text, group):
        # Pieces of a line in visual order (LuaTeX): read from the glyphs, as one.
        glyphs = [g for a, b in group for g in r.glyphs(text, a, b)]
        parts = visual_parts(glyphs, size, visual_direction(glyphs, r.direction), r.metrics)
        if len(parts) == 1:
            return RawLine(
                parts[0].text,
                size,
                r.bold(mid),
                round(r.baseline(mid), 2),
                x0,
                x1,
                parts[0].brackets_fixed,
            )
    line_text = _fix_marks(r, text, idx, size)
    return RawLine(line_text, size, r.bold(mid), round(r.baseline(mid), 2), x0, x1)


def _visual_pieces(r: _Reader, text: str, group: list[tuple[int, int]]) -> bool:
    """Whether the Hebrew letters of a line's pieces, in the stream's order, run left to
    right on the page (its first letter left of its last): a visual order. pdfium may
    also give the right piece first, so each piece is looked at alone too: the line
    is visual when more of its letters stand in pieces that run left to right."""
    first = last = -1
    ahead = 0
    for a, b in group:
        letters = [i for i in range(a, b) if _HEBREW.match(text[i])]
        if not letters:
            continue
        first = letters[0] if first < 0 else first
        last = letters[-1]
        if len(letters) > 1:
            (l0, r0), (l1, r1) = r.box(letters[0]), r.box(letters[-1])
            ahead += len(letters) if l0 + r0 < l1 + r1 else -len(letters)
    if first < 0 or first == last:
        return False
    (l0, r0), (l1, r1) = r.box(first), r.box(last)
    return l0 + r0 < l1 + r1 or ahead > 0


def _read_segment(r: _Reader, text: str, a: int, b: int, out: list[RawLine]) -> None:
    number = margin_number(text, a, b, r.box, r.size)
    if number is None:
        number = margin_note(text, a, b, r.box, r.size)
    if number is not None:
        # A margin line number: a line of its own, and the rest without it.
        lo, hi = number
        rest = (hi, b) if lo == a else (a, lo)
        seg = text[rest[0] : rest[1]]
        start = rest[0] + len(seg) - len(seg.lstrip())
        _read_segment(r, text, start, start + len(seg.strip()), out)
        for line in _make_line(r, text, lo, hi):
            line.aside = True
            out.append(line)
        return
    first, last = a, b - 1
    mid = _letter(text, (a + b) // 2, a, b)
    size = max(r.size(mid), 1.0)
    runs = _baseline_runs(r, text, a, b, size)
    if runs is not None:
        for lo, hi in runs:
            # A run may begin or end with a margin line number on its baseline.
            number = margin_number(text, lo, hi, r.box, r.size)
            if number is not None:
                rest = (number[1], hi) if number[0] == lo else (lo, number[0])
                seg = text[rest[0] : rest[1]]
                start = rest[0] + len(seg) - len(seg.lstrip())
                out.extend(_make_line(r, text, start, start + len(seg.strip()), geometry=True))
                for line in _make_line(r, text, *number):
                    line.aside = True
                    out.append(line)
                continue
            out.extend(_make_line(r, text, lo, hi, geometry=True))
        return
    l0, r0 = r.box(first)
    l1, r1 = r.box(last)
    extent = max(r0, r1) - min(l0, l1)
    if b - a > 1 and extent > 0.9 * size * (b - a):
        for part in _split_on_gaps(r, text, list(range(a, b)), size):
            out.extend(_make_line(r, text, part[0], part[-1] + 1))
    else:
        out.extend(_make_line(r, text, a, b, (min(l0, l1), max(r0, r1)), mid))


# Baselines this many font sizes apart are two printed lines (a superscript or a
# fraction's parts stay closer to their line).
_OTHER_BASELINE = 0.8


def _baseline_runs(
    r: _Reader, text: str, a: int, b: int, size: float
) -> list[tuple[int, int]] | None:
    """The runs of a segment that pdfium took from two printed lines, else None.

    pdfium joins the next line's text into a line when a producer writes no line
    break between them (LuaTeX, with two columns side by side): the segment's ends
    then sit on baselines a line apart. Each run of characters on one baseline is a
    line; the words in each came in pdfium's guess of an order, so they are read from
    their glyphs.
    """
    # The ink boxes' middles first (read with the boxes already), then the baselines.
    if b - a < 4 or abs(r.middle(a) - r.middle(b - 1)) <= 0.5 * _OTHER_BASELINE * size:
        return None
    if abs(r.baseline(a) - r.baseline(b - 1)) <= _OTHER_BASELINE * size:
        return None
    runs: list[list[int]] = []
    base: float | None = None
    for i in range(a, b):
        if text[i].isspace() or is_mark(text[i]):
            continue
        y = r.baseline(i)
        if base is None or abs(y - base) > _OTHER_BASELINE * size:
            runs.append([i, i + 1])
            base = y
        else:
            runs[-1][1] = i + 1
    if not 2 <= len(runs) <= 4:
        return None  # scattered (a formula): leave the segment as it is
    sizes = [r.size(lo) for lo, _ in runs]
    if any(
        hi - lo <= 3 and size > 1.25 * min(sizes)
        for (lo, hi), size in zip(runs, sizes, strict=True)
    ):
        return None  # a large initial letter beside its lines: part of the first word
    # Marks after a run's last letter are its own.
    for k in range(len(runs) - 1):
        runs[k][1] = runs[k + 1][0]
    runs[-1][1] = b
    out = []
    for lo, hi in sorted(runs, key=lambda run: r.baseline(run[0])):  # top to bottom
        while hi > lo and text[hi - 1].isspace():
            hi -= 1
        out.append((lo, hi))
    return out


def _split_on_gaps(r: _Reader, text: str, idx: list[int], size: float) -> list[list[int]]:
    parts: list[list[int]] = [[]]
    prev: int | None = None
    pending: list[int] = []
    for i in idx:
        if text[i].isspace():
            pending.append(i)
            continue
        if prev is not None and pending:
            (lp, rp), (lq, rq) = r.box(prev), r.box(i)
            if max(lp, lq) - min(rp, rq) > _SPLIT_GAP * max(size, 1.0):
                parts.append([])
                pending = []
        parts[-1].extend(pending)
        pending = []
        parts[-1].append(i)
        prev = i
    return [p for p in parts if p]


def _make_line(
    r: _Reader,
    text: str,
    a: int,
    b: int,
    extent: tuple[float, float] | None = None,
    mid: int | None = None,
    *,
    geometry: bool = False,
) -> list[RawLine]:
    """The line of ``text[a:b]`` (no leading/trailing spaces); two if it spans columns."""
    # Without its ornaments, a line is read from its glyphs: pdfium ordered it by
    # the Latin letter it took them for.
    framed = (a, b)
    a, b = _without_ornaments(r, text, a, b)
    if (a, b) != framed:
        extent = None
    if mid is None or not a <= mid < b:
        mid = _letter(text, (a + b) // 2, a, b)
    # Dominant size from three samples (a note marker at one end does not decide).
    s_mid = r.size(mid)
    s_first = r.size(_solid(text, a, a, b))
    if s_first == s_mid:
        size = round(s_mid, 1)
    else:
        s_last = r.size(_solid(text, b - 1, a, b))
        size = round(s_first if s_first == s_last else s_mid, 1)
    bold = r.bold(mid)
    if extent is None:
        (l0, r0), (l1, r1) = r.box(a), r.box(b - 1)
        extent = (min(l0, l1), max(r0, r1))
    line_text = text[a:b]
    if geometry or (a, b) != framed or _needs_geometry(r, line_text, extent, a, b):
        glyphs = r.glyphs(text, a, b)
        parts = visual_parts(glyphs, size, visual_direction(glyphs, r.direction), r.metrics)
        y = round(r.baseline(mid), 2)
        return [
            RawLine(
                p.text,
                size if p.size is None else round(p.size, 1),
                bold,
                y if p.baseline is None else round(p.baseline, 2),
                p.x0,
                p.x1,
                p.brackets_fixed,
                cells=p.cells,
            )
            for p in parts
        ]
    if "\u200d" in line_text or "\u200c" in line_text:
        line_text = ligatures_in_order(line_text, lambda k: r.box(a + k))
    if _MARKS.search(line_text):
        line_text = _fix_marks(r, text, list(range(a, b)), size)
    elif (
        _LATIN.search(line_text) and _HEBREW.search(line_text) and line_direction(line_text) == "L"
    ):
        line_text = _rtl_from_geometry(r, text, a, b) or line_text
    else:
        # These repairs move characters within runs without spaces: a space's place
        # in the line stays that of its character on the page.
        if _PUNCT_RUN.search(line_text):
            line_text = _order_punctuation(r, line_text, a)
        if _LEAD_NUMBER.match(line_text):
            line_text = _order_leading_number(r, line_text, a)
        if r.invisible(mid):
            line_text = _ocr_spaces(r, line_text, a, size)
        else:
            if " " in line_text:
                line_text = _drop_hidden_spaces(r, line_text, a, size)
            if len(line_text) == b - a:
                line_text = lost_spaces(line_text, a, size, r.boxes, r.looses, r.font_of, r.slanted)
    line = RawLine(line_text, size, bold, round(r.baseline(mid), 2), extent[0], extent[1])
    if (
        r.direction == "R"
        and " " in line_text
        and not _HEBREW.search(line_text)
        and line_text == text[a:b]
    ):
        line.cells = _tab_cells(r, text, a, b, size)
    return [line]


# Latin parts of a right-to-left page's line this many font sizes apart are a tab
# apart: maybe a table's cells, which pdfium read left to right as one line.
_TAB_GAP = 1.5


def _tab_cells(
    r: _Reader, text: str, a: int, b: int, size: float
) -> list[tuple[float, float, str]]:
    """The parts of ``text[a:b]`` a tab apart (x0, x1, text), or [] for a line of one part."""
    cells: list[tuple[float, float, str]] = []
    start = a
    prev = a
    for i in range(a + 1, b):
        if text[i].isspace():
            continue
        if text[i - 1].isspace():
            (lp, rp), (lq, rq) = r.box(prev), r.box(i)
            if max(lp, lq) - min(rp, rq) > _TAB_GAP * size:
                cells.append(_cell(r, text, start, prev + 1))
                start = i
        prev = i
    if not cells:
        return []
    cells.append(_cell(r, text, start, b))
    return cells


def _cell(r: _Reader, text: str, a: int, b: int) -> tuple[float, float, str]:
    boxes = [r.box(i) for i in range(a, b) if not text[i].isspace()]
    return min(lo for lo, _ in boxes), max(hi for _, hi in boxes), text[a:b]


# Font names that say a font draws ornaments, not letters.
_ORNAMENT_FONT = re.compile(r"ornament|ornement|dingbat|fleuron|wingding|webding", re.I)


def _without_ornaments(r: _Reader, text: str, a: int, b: int) -> tuple[int, int]:
    """``text[a:b]`` without the ornament glyphs that frame a Hebrew line.

    An ornament font maps its glyphs to whatever its glyph names say, often Latin
    letters: a heading drawn between two fleurons reads ``B יקום פרקן C``. A single
    Latin letter at an end of a Hebrew line, in a font that none of the line's
    letters next to it use, is an ornament when its font says so by name or when the
    same font frames a short line (a title) at both ends.
    """
    if b - a < 5:
        return a, b
    # A Latin letter standing alone at an end.
    lone = [
        i
        for i, inner in ((a, a + 1), (b - 1, b - 2))
        if text[i].isascii() and text[i].isalpha() and text[inner].isspace()
    ]
    if not lone or not _HEBREW.search(text, a, b):
        return a, b
    ends: list[int] = []
    for i in lone:
        font = r.font_of(i)
        inner = i + 1 if i == a else i - 1
        while a < inner < b - 1 and text[inner].isspace():
            inner += 1 if i == a else -1
        if font is None or r.font_of(inner) == font:
            continue
        ends.append(i)
    if not ends:
        return a, b
    # Frames are drawn around a title, a few words long.
    framed = (
        len(ends) == 2
        and r.font_of(ends[0]) == r.font_of(ends[1])
        and len(text[a + 1 : b - 1].split()) <= 6
    )
    if not framed and not _ORNAMENT_FONT.search(r.font_name(ends[0])):
        return a, b
    lo, hi = (a + 1 if a in ends else a), (b - 1 if b - 1 in ends else b)
    while lo < hi and text[lo].isspace():
        lo += 1
    while hi > lo and text[hi - 1].isspace():
        hi -= 1
    return lo, hi


def _last_hebrew(line: str, end: int) -> int:
    """The index of the last Hebrew letter before ``end`` (-1: none); a loop from the
    end, as a line's last letter is near it."""
    for k in range(end - 1, -1, -1):
        if "\u05d0" <= line[k] <= "\u05ea":
            return k
    return -1


def _drop_hidden_spaces(r: _Reader, line: str, a: int, size: float) -> str:
    """``line`` without the stream's spaces that take no room on the page.

    A space character is a word space only where the glyphs on its two sides stand
    apart by about its width. Word writes some right-to-left spaces over a letter
    (its origin inside the letter beside it) or draws the next word back over the
    space (a justified line's negative adjustment), and the page shows the two
    letters touching: one word, whatever the stream says. Where the letters run in
    opposite directions (a Hebrew letter against a Latin word or a number) the
    stream's space stays: it is the direction change's boundary, which Word draws
    without room, and no word holds both scripts. ``line[k]`` is character
    ``a + k`` of the page (or one of its run moved within the run: not a space).
    """
    if len(line) < 3:
        return line
    # The spaces between two characters that run the same way, then their
    # neighbours' advance boxes in one batch.
    spaces: list[int] = []
    k = line.find(" ", 1)
    end = len(line) - 1
    while 0 < k < end:
        p, q = line[k - 1], line[k + 1]
        if not (p.isspace() or q.isspace() or turns_at(p, q)):
            spaces.append(k)
        k = line.find(" ", k + 1)
    if not spaces:
        return line
    sides = r.looses([a + j for k in spaces for j in (k - 1, k + 1)])
    touch = TOUCH * size
    chars: list[str] | None = None
    for n, k in enumerate(spaces):
        lp, rp, lq, rq = sides[4 * n : 4 * n + 4]
        if (lp if lp > lq else lq) - (rp if rp < rq else rq) >= touch:
            continue
        # A space pdfium inferred (from the glyphs' advances) or one without a width
        # (XeTeX writes those after pointed letters and along rotated text) is
        # not the stream's claim that room was left.
        lo, hi = r.box(a + k)
        if hi - lo > 0.1 * size and not r._calls.is_generated(a + k):
            if chars is None:
                chars = list(line)
            chars[k] = ""
    if chars is None:
        return line
    return "".join(chars)


# In an OCR text layer, letters of one word abut; a gap this much wider (in font
# sizes) than the line's usual one parts two words.
_OCR_GAP = 0.06
# A letter after a letter (no space between), not punctuation: where an OCR layer may
# have lost a word space (``\S`` is ``not str.isspace()``).
_OCR_PAIR = re.compile(r"(?<=\S)[^\s.,:;!?]")


def _ocr_spaces(r: _Reader, line: str, a: int, size: float) -> str:
    """``line`` with the word spaces an OCR text layer leaves out.

    An OCR engine lays each recognised word over its image, stretched to the word's
    box: the letters of a word abut, and two words stand apart by the gap between
    their boxes, often without a space character between them (pdfium infers one
    only from a wide gap). The positions come from the page's image, so the gaps
    are authoritative: a gap clearly wider than the line's usual one is a space.
    ``line[k]`` is character ``a + k`` of the page.
    """
    # Punctuation hugs the word before it: a gap before it is the OCR box's slack.
    # Lists by position, not dictionaries: an OCR book runs this on every line.
    count = len(line)
    pairs = [m.start() for m in _OCR_PAIR.finditer(line)]
    if not pairs:
        return line
    # The advance boxes of the pairs' letters only, each once; ``at[p]`` is where the
    # second letter of pair ``p`` is in the batch (the first is just before it).
    drawn: list[int] = []
    at: list[int] = []
    for k in pairs:
        if not drawn or drawn[-1] != a + k - 1:
            drawn.append(a + k - 1)
        drawn.append(a + k)
        at.append(2 * len(drawn) - 2)
    flat = r.looses(drawn)
    gaps: list[float] = []
    for n in at:
        # max(left, left) - min(right, right), in the builtins' order of ties.
        lp, rp, lq, rq = flat[n - 2], flat[n - 1], flat[n], flat[n + 1]
        gaps.append((lq if lq > lp else lp) - (rq if rq < rp else rp))
    ordered = sorted(gaps)
    usual = max(ordered[len(ordered) // 2], 0.0)
    limit = usual + _OCR_GAP * size
    cut = [False] * count
    for k, gap in zip(pairs, gaps, strict=True):
        if gap > limit:
            cut[k] = True
    # Hebrew has no one-letter words: a lone letter (a prefix the engine boxed on its
    # own) belongs to the word after it (in order: a cut dropped here is gone for the
    # next letter's test).
    for k in pairs:
        if (
            cut[k]
            and _HEBREW.match(line[k - 1])
            and (k == 1 or line[k - 2].isspace() or cut[k - 1])
        ):
            cut[k] = False
    out: list[str] = []
    last = 0
    for k in pairs:
        if cut[k]:
            out.append(line[last:k])
            last = k
    if not out:
        return line
    out.append(line[last:])
    return " ".join(out)


# A line of a number and its punctuation only (a paragraph's last word, "2019.").
_NUMBER_PUNCT = re.compile(r"(?=.*\d)(?=.*[.,:;!?])[\d.,:;!?\-/ ]+")


def _needs_geometry(r: _Reader, line: str, extent: tuple[float, float], a: int, b: int) -> bool:
    """Whether pdfium's order of this line cannot be trusted (see :mod:`._visual`).

    That is a line with surrogate halves, a Hebrew line with Latin letters or digits
    (pdfium guesses their order), a Hebrew line in visual order: its first letter
    left of its last, where the text stream came from LuaTeX, or a Latin line read
    right to left.
    """
    m = _HEBREW.search(line)
    if m is None:
        if _SURROGATE.search(line):
            return True
        if _NUMBER_PUNCT.fullmatch(line) and r.direction == "R":
            return True  # "2019." at a right-to-left paragraph's end: read as drawn
        return _LATIN.search(line) is not None and _runs_leftwards(r, line, a)
    if _UNTRUSTED.search(line):
        return True
    # The first and last letters: punctuation at an end ("(" or ".") says nothing.
    n = _HEBREW.search(line, m.start() + 1)
    if n is None:
        return False
    first, second = m.start(), n.start()
    last = _last_hebrew(line, len(line))
    penult = _last_hebrew(line, last)
    if penult <= first:
        return False

    if second == first + 1 and last == penult + 1:
        # Within the first word and within the last, letters run left to right
        # (whatever order pdfium gave the words in: a table row's cells).
        rising = _center(r, a + first) < _center(r, a + second)
        return rising and _center(r, a + penult) < _center(r, a + last)
    # Both the line's ends and its first two letters run left to right: a line that
    # pdfium merely took in two halves (its second half first) is not visual.
    c0 = _center(r, a + first)
    return c0 < _center(r, a + last) and c0 < _center(r, a + second)


def _center(r: _Reader, i: int) -> float:
    """Twice the middle of character ``i``'s ink box (a function, not a closure: the
    compiled twin would make the closure's frame on every call of its caller)."""
    lo, hi = r.box(i)
    return lo + hi


def _runs_leftwards(r: _Reader, line: str, a: int) -> bool:
    """Whether a line without Hebrew was given right to left: its first letter right of
    its last. pdfium reads a Latin line of a right-to-left page (an English reference
    in a Hebrew book) in the page's direction when the producer drew its words from
    the right; its glyphs' positions say the order.
    """
    first = _solid(line, 0, 0, len(line))
    last = _solid(line, len(line) - 1, 0, len(line))
    if last - first < 2:
        return False
    (l0, r0), (l1, r1) = r.box(a + first), r.box(a + last)
    return l0 + r0 > l1 + r1


def ligatures_in_order(line: str, box: Callable[[int], tuple[float, float]]) -> str:
    """Put back in order the letters of ligature glyphs that pdfium reversed.

    A font maps a ligature glyph to its letters with a joiner between them (``א‍ל``,
    alef ZWJ lamed). The letters share the glyph's box, and when pdfium turns a
    right-to-left line drawn left to right into logical order it reverses them with
    the glyphs (``ל‍א``); the mapping's own order is the logical one. ``box(k)`` is
    the box of ``line[k]``.
    """
    if line_direction(line) != "R":
        return line
    chars = list(line)
    k = 0
    while k < len(chars):
        if chars[k] not in "\u200c\u200d":
            k += 1
            continue
        own = box(k)
        first, last = k, k
        while first > 0 and box(first - 1) == own:
            first -= 1
        while last + 1 < len(chars) and box(last + 1) == own:
            last += 1
        glyph = chars[first : last + 1]
        if last > first and any(_HEBREW.match(ch) for ch in glyph):
            chars[first : last + 1] = glyph[::-1]
        k = last + 1
    return "".join(chars)


def _fix_marks(r: _Boxes, text: str, idx: list[int], size: float) -> str:
    """Put each mark after its letter and drop the spaces pdfium invents inside words."""
    chars = [text[i] for i in idx]
    boxes = [r.box(i) for i in idx]
    _drop_unmapped_glyphs(r, idx, chars, boxes, size)
    centers = [(lo + hi) / 2 for lo, hi in boxes]
    owner = attach_marks(chars, centers, boxes, tolerance=0.15 * size)
    marks: dict[int, list[str]] = {}
    for k, o in enumerate(owner):
        if o != k:
            marks.setdefault(o, []).append(chars[k])
    bases = [k for k in range(len(chars)) if owner[k] == k and not chars[k].isspace()]
    out: list[str] = []
    for n, run in enumerate(_runs(chars, boxes, bases, size)):
        if n:
            out.append(" ")
        prev: int | None = None
        for k in run:
            if prev is not None and any(chars[j].isspace() for j in range(prev + 1, k)):
                (lp, rp), (lq, rq) = boxes[prev], boxes[k]
                gap = max(lp, lq) - min(rp, rq)
                hebrew = "\u05d0" <= chars[prev] <= "\u05ea" and "\u05d0" <= chars[k] <= "\u05ea"
                if not (hebrew and gap < _WORD_GAP * size):
                    out.append(" ")
            out.append(chars[k])
            out.extend(marks.get(k, ()))
            prev = k
    return unicodedata.normalize("NFC", "".join(out))


def _runs(
    chars: list[str], boxes: list[tuple[float, float]], bases: list[int], size: float
) -> list[list[int]]:
    """The base letters in reading order, as runs.

    On a right-to-left line each letter is left of the one before (or a little right
    of it, inside a number or a Latin word). When pdfium loses its way, usually on a
    justified line whose words are drawn one by one and carry points, the text jumps
    back to the right: the runs are then ordered from right to left.
    """
    if not bases:
        return []
    runs = [[bases[0]]]
    for prev, k in itertools.pairwise(bases):
        if boxes[k][0] > boxes[prev][1] + 2 * size:
            runs.append([])
        runs[-1].append(k)
    if len(runs) > 1 and line_direction("".join(chars)) == "R":
        runs.sort(key=lambda run: -max(boxes[k][1] for k in run))
    return runs


def _drop_unmapped_glyphs(
    r: _Boxes, idx: list[int], chars: list[str], boxes: list[tuple[float, float]], size: float
) -> None:
    """Drop the stray characters of precomposed pointed letters (in place).

    Some fonts draw a pointed letter (``פְּ``) as one glyph; its text then comes out
    as the letter and its marks with a sliver of a box, plus one more character for
    the glyph itself: pdfium's guess when the glyph has no Unicode mapping (``0``),
    or whatever a faulty mapping says (``&``). That character is dropped and its box,
    the real extent of the letter, is lent to the letter it covers.
    """
    stray = [
        k
        for k in range(len(chars))
        if not ("\u05d0" <= chars[k] <= "\u05ea" or is_mark(chars[k]) or chars[k].isspace())
    ]
    for k in reversed(stray):
        lo, hi = boxes[k]
        unmapped: bool | None = None
        for j in range(max(0, k - 4), min(len(chars), k + 4)):
            if j == k or not "\u05d0" <= chars[j] <= "\u05ea":
                continue
            blo, bhi = boxes[j]
            if not (lo - 0.5 <= blo and bhi <= hi + 0.5):
                # Some fonts (Miriam) draw the glyph beside the letter's sliver: an
                # unmapped glyph touching a sliver takes its place too.
                gap = max(lo, blo) - min(hi, bhi)
                if gap > 0.25 * size or bhi - blo >= 0.15 * size:
                    continue
                if unmapped is None:
                    unmapped = bool(r.raw.FPDFText_HasUnicodeMapError(r.tp, idx[k]))
                if not unmapped:
                    continue
                boxes[j] = (min(lo, blo), max(hi, bhi))
                del chars[k], boxes[k], idx[k]
                break
            # A letter drawn inside a precomposed glyph has a sliver of a box, the
            # same box as its marks.
            sliver = bhi - blo < 0.15 * size or any(
                is_mark(chars[m]) and abs(boxes[m][0] - blo) + abs(boxes[m][1] - bhi) < 0.05
                for m in (j - 1, j + 1, j - 2)
                if 0 <= m < len(chars)
            )
            if not sliver:
                if unmapped is None:
                    unmapped = bool(r.raw.FPDFText_HasUnicodeMapError(r.tp, idx[k]))
                if not unmapped:
                    continue  # a real letter under real punctuation: keep both
            boxes[j] = (lo, hi)
            del chars[k], boxes[k], idx[k]
            break


def _order_punctuation(r: _Boxes, line: str, a: int) -> str:
    """Put runs of punctuation between right-to-left text in right-to-left order.

    pdfium can swap adjacent neutral marks after a parenthesis (``(א):.`` for
    ``(א).:``); their positions on the page say the order.
    """
    chars = list(line)
    for m in _PUNCT_RUN.finditer(line):
        start, end = m.span()
        if neutral_run_direction(line, start, end) != "R":
            continue
        centers = {k: sum(r.box(a + k)) / 2 for k in range(start, end)}
        chars[start:end] = [line[k] for k in sorted(centers, key=lambda k: -centers[k])]
    return "".join(chars)


def _order_leading_number(r: _Reader, line: str, a: int) -> str:
    """Put a right-to-left line's leading ``1.`` back in logical order.

    pdfium gives a note number followed by a full stop at the start of a Hebrew line
    as ``.1``; the glyphs' positions say which comes first (on a right-to-left line,
    the one on the right).
    """
    m = _LEAD_NUMBER.match(line)
    if m is None or line_direction(line) != "R":
        return line
    punct, digits = m.group(1), m.group(2)
    p_center = sum(r.box(a)) / 2
    d_center = sum(r.box(a + len(punct))) / 2
    if p_center < d_center:  # the mark is on the left: it follows the number
        return digits + punct + line[m.end() :]
    return line


def _rtl_from_geometry(r: _Reader, text: str, a: int, b: int) -> str | None:
    """Re-read a mixed line that pdfium ordered left to right although it is Hebrew.

    pdfium picks a line's direction from its own guess; a Hebrew line starting with a
    Latin name comes out in visual order. When the rightmost glyph is Hebrew, the
    line is right-to-left: sort the glyphs by position, reverse, and turn the
    left-to-right runs (Latin, digits) back.
    """
    boxes = [r.box(i) for i in range(a, b)]
    order = sorted(range(b - a), key=lambda k: (boxes[k][0] + boxes[k][1]) / 2)
    rightmost = next((text[a + k] for k in reversed(order) if not text[a + k].isspace()), "")
    if not _HEBREW.match(rightmost):
        return None
    logical = "".join(text[a + k] for k in order)[::-1]
    return " ".join(_LTR_RUN.sub(lambda m: m.group(0)[::-1], logical).split())


def reading_order(lines: list[RawLine]) -> list[RawLine]:
    """Top to bottom; items sharing a baseline right to left on a right-to-left page.

    A page set in columns keeps the content order (column after column), which is
    its reading order; sorting by height would interleave the columns.
    """
    if len(lines) < 2:
        return lines
    sample = "".join(ln.text[:20] for ln in lines[:40])
    hebrew, latin = _script_letters(sample)
    rtl = hebrew >= latin
    ordered = sorted(lines, key=lambda ln: ln.y)
    groups: list[list[RawLine]] = [[ordered[0]]]
    for ln in ordered[1:]:
        if abs(ln.y - groups[-1][0].y) <= 0.3 * min(ln.size, groups[-1][0].size):
            groups[-1].append(ln)
        else:
            groups.append([ln])
    if _in_columns(groups, lines):
        return lines
    out: list[RawLine] = []
    for group in groups:
        out.extend(sorted(group, key=lambda g: -g.x1 if rtl else g.x0))
    return out


def _script_letters(text: str) -> tuple[int, int]:
    """How many Hebrew and how many Latin letters ``text`` holds (the page's and the
    reading order's direction vote): ``str.count`` per letter, twice findall's speed."""
    return sum(map(text.count, _HEBREW_LETTERS)), sum(map(text.count, _LATIN_LETTERS))


def _in_columns(groups: list[list[RawLine]], lines: list[RawLine]) -> bool:
    """True when many baselines hold two or more wide, side-by-side lines of text."""
    span = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
    if span <= 0:
        return False
    shared = 0
    for group in groups:
        wide = sorted((g for g in group if g.x1 - g.x0 > 0.25 * span), key=lambda g: g.x0)
        if any(b.x0 >= a.x1 for a, b in itertools.pairwise(wide)):
            shared += 1
    return shared >= 5 and shared >= len(groups) // 4
