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

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from libtext.pdf._blocks import attach_markers, order_lines
from libtext.pdf._columns import find_gutter, split_at_gutter
from libtext.pdf._dropped import lost_label, restore_dropped
from libtext.pdf._letters import script_letters
from libtext.pdf._lines import TITLE_WORDS, RawLine, join_items, margin_note, margin_number
from libtext.pdf._pages import Page, has_images, page_size, page_text, text_page
from libtext.pdf._reader import PageReader
from libtext.pdf._repairs import (
    BRACKET_SPACE,
    LEAD_NUMBER,
    LEFT_STOP,
    bracket_spaces,
    fix_marks,
    ligatures_in_order,
    order_leading_number,
    order_punctuation,
)
from libtext.pdf._rows import join_rows
from libtext.pdf._shown import upright, visible
from libtext.pdf._spaces import closed_letters, lost_spaces
from libtext.pdf._text import is_mark
from libtext.pdf._unmapped import restore_unmapped, unmapped_suspect
from libtext.pdf._visual import TOUCH, Direction, turns_at, visual_direction, visual_parts

__all__ = ["RawLine", "RawPage", "ligatures_in_order", "read_page", "reading_order"]

_MARKS = re.compile("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")
_HEBREW = re.compile("[\u05d0-\u05ea]")
_LATIN = re.compile("[A-Za-z]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# A surrogate half, a left-to-right letter or digit, a mark, or a bidi control (Typst
# writes one into a contents row; pdfium puts it inside the last word): one search.
_UNTRUSTED = re.compile(
    r"[\ud800-\udfffA-Za-z0-9\u00c0-\u024f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
    r"\u202a-\u202e\u2066-\u2069]"
)
# Whether a line holds a :data:`PUNCT_RUN`: two punctuation marks in a row, found
# without trying the greedy run at each mark (about twice as fast on a line).
_PUNCT_PAIR = re.compile(r"[^\w\s][^\w\s]")
# A gap wider than this many font sizes separates two items on one baseline.
_SPLIT_GAP = 2.0


@dataclass(slots=True)
class RawPage:
    """A page as read: ``chars`` counts pdfium's characters (0: no text layer)."""

    number: int
    width: float
    height: float
    lines: list[RawLine]
    chars: int
    has_images: bool = False


def read_page(raw: Any, page: Page, number: int) -> RawPage:
    """Read one open page into raw lines (logical order, marks fixed).

    A page turned by its ``/Rotate`` whose text is drawn turned the other way (a
    scan, an imposed sheet) holds its text sideways in its own coordinates; it is
    read from an upright copy, as it is shown.

    The caller keeps the cyclic garbage collector out of a document's read
    (``libtext.pdf._no_collection``): a page makes tens of thousands of short-lived
    objects (boxes, glyphs, parts), freed by their counts.
    """
    copy = upright(raw, page)
    if copy is None:
        return _read_shown(raw, page.raw, number)
    doc, shown = copy
    try:
        return _read_shown(raw, shown.raw, number)
    finally:
        shown.close()
        doc.close()


def _read_shown(raw: Any, page: Any, number: int) -> RawPage:
    """Read the page of pdfium's handle ``page``."""
    width, height = page_size(raw, page)
    tp = text_page(raw, page)
    try:
        n = int(raw.FPDFText_CountChars(tp))
        if n <= 0:
            return RawPage(number, width, height, [], 0, has_images(raw, page))
        text = page_text(raw, tp, n)
        if lost_label(text) and restore_dropped(raw, page, tp):
            raw.FPDFText_ClosePage(tp)
            tp = None
            tp = text_page(raw, page)
            n = int(raw.FPDFText_CountChars(tp))
            text = page_text(raw, tp, n)
        if len(text) != n:  # pdfium skipped or inserted characters: go one by one
            text = "".join(chr(raw.FPDFText_GetUnicode(tp, i) or 0xFFFD) for i in range(n))
        if unmapped_suspect(text):
            # Glyphs the ToUnicode maps to nothing: their codes read as Latin letters.
            text = restore_unmapped(raw, tp, text)
        if "\ufffe" in text:
            # pdfium's mark for a hyphen that ends a line (a word broken there): the
            # page shows a hyphen.
            text = text.replace("\ufffe", "-")
        hebrew, latin = script_letters(text)
        # y is measured from the top of the visible page (the crop box, which need not
        # start at 0), so that header and footer bands mean the same on every page.
        bbox = raw.FS_RECTF()
        boxed = raw.FPDF_GetPageBoundingBox(page, bbox)
        top = float(bbox.top) if boxed else height
        left = float(bbox.left) if boxed else 0.0
        # The crop box as drawn (a page turned by /Rotate is shown with its sides swapped).
        box = (float(bbox.right) - left, top - float(bbox.bottom)) if boxed else (width, height)
        reader = PageReader(raw, tp, top, "R" if hebrew >= latin else "L", page)
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
        lines = visible(lines, left, *box)
        return RawPage(number, width, height, order_lines(lines, reader.direction), n)
    finally:
        if tp is not None:
            raw.FPDFText_ClosePage(tp)


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
    r: PageReader, text: str, segments: list[tuple[int, int]], gutter: float | None = None
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
    pieces: tuple[PageReader, tuple[int, int], tuple[int, int]] | None = None,
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
    hebrew, latin = script_letters("".join(p.text for p in pieces))
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
        ocr=main.ocr,
    )


def _joined_line(r: PageReader, text: str, group: list[tuple[int, int]]) -> RawLine:
    """One line from segments pdfium split, its text re-read from the glyphs' boxes."""
    idx: list[int] = []
    # Size and weight are the longest piece's, at a letter in its middle, as for a
    # line in one piece: not a bold bullet's or a superscript's at a piece's start.
    lo, hi = max(group, key=lambda seg: seg[1] - seg[0])
    mid = _letter(text, (lo + hi) // 2, lo, hi)
    size = round(max(r.size(mid), 1.0), 1)
    for a, b in group:
        if idx and _apart(r, idx[-1], a, size):
            idx.append(a - 1)  # the line break between: a space
        idx.extend(range(a, b))
    boxes = [r.box(i) for i in idx if not text[i].isspace()]
    x0, x1 = min(lo for lo, _ in boxes), max(hi for _, hi in boxes)
    if _visual_pieces(r, text, group) or _untrusted_pieces(text, group):
        # Pieces of a line in visual order (LuaTeX), or whose order pdfium guessed (a
        # Hebrew piece with marks, Latin letters or digits, read from its glyphs
        # alone): read from the glyphs, as one.
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
    line_text = fix_marks(r, text, idx, size)
    return RawLine(line_text, size, r.bold(mid), round(r.baseline(mid), 2), x0, x1)


# Pieces of a line whose ink stands this many font sizes apart, at least, are words.
_PIECE_GAP = 0.1


def _apart(r: PageReader, i: int, j: int, size: float) -> bool:
    """Whether characters ``i`` and ``j`` (the ends of two pieces of a line) stand
    apart: a word space; pieces that touch (a number drawn a digit at a time) are one."""
    (lp, rp), (lq, rq) = r.box(i), r.box(j)
    return max(lp, lq) - min(rp, rq) > _PIECE_GAP * size


def _untrusted_pieces(text: str, group: list[tuple[int, int]]) -> bool:
    """Whether a Hebrew piece of the line holds what pdfium orders by guess (a mark, a
    Latin letter, a digit): alone, it would be read from its glyphs."""
    for a, b in group:
        piece = text[a:b]
        if _HEBREW.search(piece) is not None and _UNTRUSTED.search(piece) is not None:
            return True
    return False


def _visual_pieces(r: PageReader, text: str, group: list[tuple[int, int]]) -> bool:
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


def _read_segment(r: PageReader, text: str, a: int, b: int, out: list[RawLine]) -> None:
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
        for item in _items(r, _split_on_gaps(r, text, list(range(a, b)), size), size):
            if len(item) == 1:
                out.extend(_make_line(r, text, item[0][0], item[0][-1] + 1))
            else:
                out.append(_joined_line(r, text, [(p[0], p[-1] + 1) for p in item]))
    else:
        out.extend(_make_line(r, text, a, b, (min(l0, l1), max(r0, r1)), mid))


# Baselines this many font sizes apart are two printed lines (a superscript or a
# fraction's parts stay closer to their line).
_OTHER_BASELINE = 0.8


def _baseline_runs(
    r: PageReader, text: str, a: int, b: int, size: float
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
    return _top_to_bottom(r, text, runs)


def _top_to_bottom(r: PageReader, text: str, runs: list[list[int]]) -> list[tuple[int, int]]:
    """The runs top to bottom, without trailing spaces (a function of its own: the
    sort key's closure in :func:`_baseline_runs` would cost every line a frame object,
    compiled)."""
    out = []
    for lo, hi in sorted(runs, key=lambda run: r.baseline(run[0])):  # top to bottom
        while hi > lo and text[hi - 1].isspace():
            hi -= 1
        out.append((lo, hi))
    return out


def _split_on_gaps(r: PageReader, text: str, idx: list[int], size: float) -> list[list[int]]:
    """The items of a line far wider than its text, cut where the ink leaves a gap.

    Between two items the stream holds a space (pdfium's), or, in a run written
    without any space character in the order it is drawn (LuaTeX sets a running
    header's title and page number apart by glue, as it does its words), nothing at
    all: there a cut needs the part
    read so far and the rest of the line to stand apart on the page by the gap (two
    characters of one item in logical order may stand far apart: a number inside a
    Hebrew line).
    """
    gap = _SPLIT_GAP * max(size, 1.0)
    glued = not any(text[i].isspace() for i in idx) and _drawn_along(r, idx)
    parts: list[list[int]] = [[]]
    prev: int | None = None
    pending: list[int] = []
    span = (0.0, 0.0)  # the ink of the part read so far
    for n, i in enumerate(idx):
        if text[i].isspace():
            pending.append(i)
            continue
        if prev is not None:
            (lp, rp), (lq, rq) = r.box(prev), r.box(i)
            if max(lp, lq) - min(rp, rq) > gap and (
                pending or (glued and _clear_of(r, text, idx[n:], span, gap))
            ):
                parts.append([])
                pending = []
        parts[-1].extend(pending)
        pending = []
        lo, hi = r.box(i)
        span = (min(span[0], lo), max(span[1], hi)) if parts[-1] else (lo, hi)
        parts[-1].append(i)
        prev = i
    return [p for p in parts if p]


def _drawn_along(r: PageReader, idx: list[int]) -> bool:
    """Whether the characters stand one after another along the line, all one way (a
    run drawn in order: a formula's scripts and limits are not)."""
    mids = [sum(r.box(i)) for i in idx]
    steps = [b - a for a, b in itertools.pairwise(mids)]
    return all(d > 0 for d in steps) or all(d < 0 for d in steps)


def _items(r: PageReader, parts: list[list[int]], size: float) -> list[list[list[int]]]:
    """``parts`` grouped by where they stand: parts on one baseline whose ink lies
    within the gap of each other are one item, in the stream's order. pdfium may give a header's
    pieces out of order (a pointed title's last letters after the page number at
    the far corner): cut where the stream jumps, the title's halves are one item."""
    gap = _SPLIT_GAP * max(size, 1.0)
    by_y = sorted(range(len(parts)), key=lambda n: r.baseline(parts[n][0]))
    bands: list[list[int]] = []
    for n in by_y:
        y = r.baseline(parts[n][0])
        if bands and y - r.baseline(parts[bands[-1][-1]][0]) <= _SAME_LINE * max(size, 1.0):
            bands[-1].append(n)
        else:
            bands.append([n])
    groups: list[list[int]] = []
    for band in bands:
        spans = []
        for n in band:
            boxes = [r.box(i) for i in parts[n]]
            spans.append((min(lo for lo, _ in boxes), max(hi for _, hi in boxes), n))
        reach = -1e9
        first = len(groups)
        for lo, hi, n in sorted(spans):
            if len(groups) > first and lo - reach <= gap:
                groups[-1].append(n)
                reach = max(reach, hi)
            else:
                groups.append([n])
                reach = hi
    return [[parts[n] for n in sorted(g)] for g in sorted(groups, key=min)]


def _clear_of(
    r: PageReader, text: str, rest: list[int], span: tuple[float, float], gap: float
) -> bool:
    """Whether the ink of ``rest`` stands ``gap`` or more to one side of ``span``."""
    boxes = [r.box(i) for i in rest if not text[i].isspace()]
    return min(lo for lo, _ in boxes) - span[1] > gap or span[0] - max(hi for _, hi in boxes) > gap


def _make_line(
    r: PageReader,
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
    # An OCR layer sizes each word to its box (a one-letter word boxed large is no
    # heading): the median of all its letters. Set text has one size per run: the
    # dominant one from three samples (a note marker at one end does not decide).
    ocr = r.invisible(mid)
    ocr_size = r.line_size(text, a, b) if ocr else 0.0
    if ocr_size > 0:
        size = round(ocr_size, 1)
    else:
        s_mid = r.size(mid)
        s_first = r.size(_solid(text, a, a, b))
        if s_first == s_mid:
            size = round(s_mid, 1)
        else:
            s_last = r.size(_solid(text, b - 1, a, b))
            size = round(s_first if s_first == s_last else s_mid, 1)
    bold = r.bold(mid)
    colour = _line_colour(r, text, a, b, mid) if ocr_size == 0 else None
    if extent is None:
        (l0, r0), (l1, r1) = r.box(a), r.box(b - 1)
        extent = (min(l0, l1), max(r0, r1))
    line_text = text[a:b]
    first_hebrew = _HEBREW.search(line_text)
    if geometry or (a, b) != framed or _needs_geometry(r, line_text, extent, a, b, first_hebrew):
        glyphs = r.glyphs(text, a, b)
        direction = _near_direction(text, b, r.direction) if _mixed(line_text) else r.direction
        parts = visual_parts(
            glyphs,
            size,
            visual_direction(glyphs, direction),
            r.metrics,
            ocr=ocr,
        )
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
                colour=colour,
                ocr=ocr,
            )
            for p in parts
        ]
    drawn = line_text
    # Read as pdfium gave it, a Hebrew line holds no mark, Latin letter or digit
    # (:func:`_needs_geometry` sends those to the glyphs), and a line without Hebrew
    # gains none from the repairs below: one search answers for the whole line.
    hebrew = first_hebrew is not None
    if "\u200d" in line_text or "\u200c" in line_text:
        line_text = ligatures_in_order(line_text, _shifted_box(r, a))
    if not hebrew and _MARKS.search(line_text):
        line_text = fix_marks(r, text, list(range(a, b)), size)
    else:
        # These repairs move characters within runs without spaces: a space's place
        # in the line stays that of its character on the page.
        if _PUNCT_PAIR.search(line_text):
            line_text = order_punctuation(r, line_text, a)
        if LEAD_NUMBER.match(line_text):
            line_text = order_leading_number(r, line_text, a)
        if ocr:
            line_text = _ocr_spaces(r, line_text, a, size)
        else:
            if " " in line_text:
                line_text = _drop_hidden_spaces(r, line_text, a, size)
                if len(line_text) == b - a:
                    line_text = closed_letters(line_text, a, r.box)
            if len(line_text) == b - a:
                line_text = lost_spaces(line_text, a, size, r.boxes, r.looses, r.font_of, r.slanted)
    if (
        line_text == drawn
        and " " in drawn
        and ("(" in drawn or ")" in drawn or "[" in drawn or "]" in drawn)
        and BRACKET_SPACE.search(drawn)
    ):
        line_text = bracket_spaces(r, line_text, a, size)
    line = RawLine(
        line_text,
        size,
        bold,
        round(r.baseline(mid), 2),
        extent[0],
        extent[1],
        colour=colour,
        ocr=ocr,
    )
    if r.direction == "R" and not hebrew and line_text == drawn and " " in drawn:
        line.cells = _tab_cells(r, text, a, b, size)
    if (
        r.direction == "R"
        and not line.cells
        and line.text[:1] in _STOPS  # what LEFT_STOP starts with: most lines skip the sub
        and not (hebrew if line_text == drawn else _HEBREW.search(line_text))
    ):
        line.text = LEFT_STOP.sub(r"\2\1", line.text)
    return [line]


# The stops :data:`LEFT_STOP` starts with (a set: "" is in every string).
_STOPS = frozenset(".,:;!?")


def _shifted_box(r: PageReader, a: int) -> Callable[[int], tuple[float, float]]:
    """``r.box`` of character ``a + k`` by ``k``: made here, as a closure in
    :func:`_make_line` would put that function's locals in a frame object on every
    line (compiled)."""
    return lambda k: r.box(a + k)


def _line_colour(r: PageReader, text: str, a: int, b: int, mid: int) -> tuple[int, int, int] | None:
    """The fill colour of the line's middle letter (a long line's: the text's colour);
    a short line's only if its first and last letters share it, else None: a title set
    in colour is coloured throughout, a line with a link word in it is not."""
    got = r.fill(mid)
    if got is None or text.count(" ", a, b) >= TITLE_WORDS:
        return got
    if r.fill(_solid(text, a, a, b)) != got:
        return None
    return got if r.fill(_solid(text, b - 1, a, b)) == got else None


# Latin parts of a right-to-left page's line this many font sizes apart are a tab
# apart: maybe a table's cells, which pdfium read left to right as one line.
_TAB_GAP = 1.5


def _tab_cells(
    r: PageReader, text: str, a: int, b: int, size: float
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


def _cell(r: PageReader, text: str, a: int, b: int) -> tuple[float, float, str]:
    boxes = [r.box(i) for i in range(a, b) if not text[i].isspace()]
    return min(lo for lo, _ in boxes), max(hi for _, hi in boxes), text[a:b]


# Font names that say a font draws ornaments, not letters.
_ORNAMENT_FONT = re.compile(r"ornament|ornement|dingbat|fleuron|wingding|webding", re.I)


def _without_ornaments(r: PageReader, text: str, a: int, b: int) -> tuple[int, int]:
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


def _drop_hidden_spaces(r: PageReader, line: str, a: int, size: float) -> str:
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


def _ocr_spaces(r: PageReader, line: str, a: int, size: float) -> str:
    """``line`` with the word spaces an OCR text layer leaves out.

    An OCR engine lays each recognised word over its image, stretched to the word's
    box: the letters of a word abut, and two words stand apart by the gap between
    their boxes, often without a space character between them (pdfium infers one
    only from a wide gap). The positions come from the page's image, so the gaps
    are authoritative: a gap clearly wider than the line's usual one is a space.
    ``line[k]`` is character ``a + k`` of the page.
    """
    # Punctuation hugs the word before it: a gap before it is the OCR box's slack.
    # The pairs and their gaps come from one C loop: an OCR book runs this on every line.
    pairs, gaps = r.pair_gaps(line, a)
    if not pairs:
        return line
    ordered = sorted(gaps)
    usual = max(ordered[len(ordered) // 2], 0.0)
    limit = usual + _OCR_GAP * size
    # Hebrew has no one-letter words: a lone letter (a prefix the engine boxed on its
    # own) belongs to the word after it (in order: a cut dropped here is gone for the
    # next letter's test).
    out: list[str] = []
    last = 0
    kept = -2
    for n in range(len(gaps)):
        if gaps[n] <= limit:
            continue
        k = pairs[n]
        if _HEBREW.match(line[k - 1]) and (k == 1 or line[k - 2].isspace() or kept == k - 1):
            continue
        kept = k
        out.append(line[last:k])
        last = k
    if not out:
        return line
    out.append(line[last:])
    return " ".join(out)


# A line of a number and its punctuation only (a paragraph's last word, "2019.").
_NUMBER_PUNCT = re.compile(r"(?=.*\d)(?=.*[.,:;!?])[\d.,:;!?\-/ ]+")


def _needs_geometry(
    r: PageReader,
    line: str,
    extent: tuple[float, float],
    a: int,
    b: int,
    m: re.Match[str] | None,
) -> bool:
    """Whether pdfium's order of this line cannot be trusted (see :mod:`._visual`);
    ``m`` is the line's first Hebrew letter (``_HEBREW.search(line)``).

    That is a line with surrogate halves, a Hebrew line with Latin letters or digits
    (pdfium guesses their order), a Hebrew line in visual order: its first letter
    left of its last, where the text stream came from LuaTeX (a word of two letters
    too), or a Latin line read right to left.
    """
    if m is None:
        if _SURROGATE.search(line):
            return True
        if r.direction == "R" and _NUMBER_PUNCT.fullmatch(line):
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
        # Two letters (a page's Hebrew numeral, a short word): visual when the first
        # stands left of the second.
        return second == last == first + 1 and _center(r, a + first) < _center(r, a + last)

    if second == first + 1 and last == penult + 1:
        # Within the first word and within the last, letters run left to right
        # (whatever order pdfium gave the words in: a table row's cells).
        rising = _center(r, a + first) < _center(r, a + second)
        if rising and _center(r, a + penult) < _center(r, a + last):
            return True
        return _word_runs_rightwards(r, line, a)
    # Both the line's ends and its first two letters run left to right: a line that
    # pdfium merely took in two halves (its second half first) is not visual.
    c0 = _center(r, a + first)
    if c0 < _center(r, a + last) and c0 < _center(r, a + second):
        return True
    return _word_runs_rightwards(r, line, a)


# A Hebrew word of the stream: two letters or more, no space between.
_HEBREW_WORD = re.compile("[\u05d0-\u05ea]{2,}")


def _word_runs_rightwards(r: PageReader, line: str, a: int) -> bool:
    """Whether a word of a logical-order line has its letters drawn left to right: Typst
    writes some words of a justified right-to-left line in visual order, in a stream
    whose other words are logical. pdfium gives those words reversed; the glyphs'
    boxes order them. Every line of a right-to-left page asks this: the words' end
    letters are read in one batch, not a cached call each."""
    ends: list[int] = []
    for w in _HEBREW_WORD.finditer(line):
        ends.append(a + w.start())
        ends.append(a + w.end() - 1)
    boxes = r.boxes(ends) if ends else []
    for k in range(0, len(boxes), 2):
        (l0, r0), (l1, r1) = boxes[k], boxes[k + 1]
        if l0 + r0 < l1 + r1:  # _center's sums: the first letter's left of the last's
            return True
    return False


def _center(r: PageReader, i: int) -> float:
    """Twice the middle of character ``i``'s ink box (a function, not a closure: the
    compiled twin would make the closure's frame on every call of its caller)."""
    lo, hi = r.box(i)
    return lo + hi


def _runs_leftwards(r: PageReader, line: str, a: int) -> bool:
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


def reading_order(lines: list[RawLine]) -> list[RawLine]:
    """Top to bottom; items sharing a baseline right to left on a right-to-left page.

    A page set in columns keeps the content order (column after column), which is
    its reading order; sorting by height would interleave the columns.
    """
    if len(lines) < 2:
        return lines
    sample = "".join(ln.text[:20] for ln in lines[:40])
    hebrew, latin = script_letters(sample)
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


# The text after a line that tells its paragraph's direction (a line or two).
_NEAR = 160


def _mixed(line: str) -> bool:
    return _HEBREW.search(line) is not None and _LATIN.search(line) is not None


def _near_direction(text: str, b: int, page: Direction) -> Direction:
    """The direction for a line of two scripts on a page of more Latin letters whose
    ends do not tell its own (a Hebrew paragraph on a page of English): right to left
    when the first line of one script that follows it closely in the stream (its
    paragraph goes on there) is Hebrew, else the page's. Lines of two scripts (Hebrew
    items with their web addresses) tell nothing: letter counts would follow the
    addresses. A Hebrew page keeps its direction: there a Latin line after a mixed one
    is as often a list's next item (a LuaTeX stream is in visual order)."""
    if page == "R":
        return page
    for line in text[b : b + _NEAR].splitlines()[1:-1]:  # the last may be cut short
        hebrew, latin = script_letters(line)
        if hebrew and not latin:
            return "R"
        if latin and not hebrew:
            return page
    return page


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
