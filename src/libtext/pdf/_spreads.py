"""Spreads: two book pages printed side by side on one PDF page, read as two pages.

A scanned or exported book often puts two facing pages on one landscape PDF page.
Read as one page, its halves' lines would be one block, with two running headers
and two page numbers in it. A spread is told by its geometry and its folios: a
landscape page, a gutter down its middle that no line crosses, and on each side of
it a page number in the top or bottom band, the two numbers consecutive. The half
with the lower number is read first (the right one in a right-to-left book, the left
one in a left-to-right book), and each half is classified as a page of its own (its
header, its page number, its footnotes), then the PDF page holds both, half after
half (see :class:`~libtext.models.PageHalf`).
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from libtext.pdf._blocks import order_lines
from libtext.pdf._layout import page_number_value
from libtext.pdf._read import RawLine, RawPage

__all__ = ["Spread", "find_spread", "split_spreads"]

# The gutter runs through this middle share of the page's width.
_MIDDLE = 0.2
# A folio stands in the top or bottom band of this share of the page's height.
_FOLIO_BAND = 0.15
# Each half holds at least this many lines.
_HALF_LINES = 3
# Spreads found by their folios on this share of the pages make a book of spreads.
_BOOK_SHARE = 0.3
# Two folios are mirror images across the middle within this share of the width.
_MIRROR = 0.06
# A running header that carries the page number at one end is this many words at most.
_HEADER_WORDS = 8


@dataclass(slots=True)
class Spread:
    """A spread's two halves in reading order: their sides, lines and folios."""

    sides: tuple[str, str]
    halves: tuple[list[RawLine], list[RawLine]]
    labels: tuple[str, str]
    cut: float


def _folios(lines: list[RawLine], height: float) -> list[tuple[int, str, RawLine]]:
    """The page numbers standing in the top or bottom band among ``lines``: a line of
    its own, or either end of a short running header (``פרקי אבות יב``)."""
    out = []
    for ln in lines:
        if _FOLIO_BAND * height < ln.y < (1 - _FOLIO_BAND) * height:
            continue
        text = ln.text.strip()
        value = page_number_value(text) if len(text) <= 12 else None
        if value is not None:
            out.append((value, text, ln))
            continue
        words = text.split()
        if 1 < len(words) <= _HEADER_WORDS:
            for word in (words[0], words[-1]):
                value = page_number_value(word) if len(word) <= 4 else None
                if value is not None:
                    out.append((value, word, ln))
    return out


def _mirrored(a: RawLine, b: RawLine, width: float) -> bool:
    """Whether two folios stand as facing pages set them: on one band's baseline, one
    the mirror image of the other across the middle (both at the outer corners, both
    centred on their pages, or both at the inner ones), or each in the same place on
    its half (a document whose pages are all alike, printed two to a sheet)."""
    level = abs(a.y - b.y) <= max(a.size, b.size)
    ca, cb = (a.x0 + a.x1) / 2, (b.x0 + b.x1) / 2
    mirror = abs(ca + cb - width) <= _MIRROR * width
    same = abs(abs(ca - cb) - width / 2) <= _MIRROR * width
    return level and (mirror or same)


def find_spread(page: RawPage, first: str = "") -> Spread | None:
    """``page`` as a spread's two halves in reading order, or None if it is one page.

    ``first`` (``"right"`` or ``"left"``): the page is one of a book of spreads read
    from that side, and a gutter down its middle is enough (an OCR layer misreads
    some folios).
    """
    lines = page.lines
    if page.width <= page.height or len(lines) < 2 * _HALF_LINES:
        return None
    lo, hi = (0.5 - _MIDDLE) * page.width, (0.5 + _MIDDLE) * page.width
    least = max(median(ln.size for ln in lines), 1.0)
    spans = sorted((ln.x0, ln.x1) for ln in lines)
    reach, best = spans[0][1], None
    for a, b in spans[1:]:
        # A free interval [reach, a] wide enough, whose middle lies in the middle band.
        wide = a - reach >= least and lo <= (reach + a) / 2 <= hi
        if wide and (best is None or a - reach > best[1] - best[0]):
            best = (reach, a)
        reach = max(reach, b)
    if best is None:
        return None
    cut = (best[0] + best[1]) / 2
    left = [ln for ln in lines if ln.x1 <= cut]
    right = [ln for ln in lines if ln.x0 >= cut]
    if len(left) < _HALF_LINES or len(right) < _HALF_LINES:
        return None
    pairs = [
        (a, b)
        for a in _folios(left, page.height)
        for b in _folios(right, page.height)
        if abs(a[0] - b[0]) == 1 and _mirrored(a[2], b[2], page.width)
    ]
    if pairs:
        (lv, ll, _), (rv, rl, _) = pairs[0]
        rtl = rv < lv  # a right-to-left book
    elif first:
        lf, rf = _folios(left, page.height), _folios(right, page.height)
        ll, rl = (lf[0][1] if lf else ""), (rf[0][1] if rf else "")
        rtl = first == "right"
    else:
        return None
    # Each half read as the page it is (the whole page's blocks may have been cut
    # across the gutter: a header above one half read before the other's text).
    if rtl:
        return Spread(
            ("right", "left"), (order_lines(right, "R"), order_lines(left, "R")), (rl, ll), cut
        )
    return Spread(
        ("left", "right"), (order_lines(left, "L"), order_lines(right, "L")), (ll, rl), cut
    )


def _moved(ln: RawLine, shift: float) -> RawLine:
    """A copy of ``ln`` moved ``shift`` points left (a compiled ``RawLine`` takes no
    ``dataclasses.replace``)."""
    return RawLine(
        ln.text,
        ln.size,
        ln.bold,
        ln.y,
        ln.x0 - shift,
        ln.x1 - shift,
        ln.brackets_fixed,
        ln.block,
        colour=ln.colour,
        ocr=ln.ocr,
    )


def split_spreads(pages: list[RawPage]) -> tuple[list[RawPage], list[Spread | None]]:
    """The pages to classify (a spread's halves as pages of their own) and each PDF
    page's spread (None for a single page).

    When most of a document's pages are spreads, the pages to classify are numbered
    one after the other from the first page's number, so that the printed numbers
    follow them as they follow a book's pages; otherwise each keeps its PDF page's.
    """
    spreads = [find_spread(p) for p in pages]
    found = [s.sides[0] for s in spreads if s is not None]
    if not found:
        return pages, spreads
    if len(found) >= max(2, _BOOK_SHARE * len(pages)):
        # A book of spreads: a page with a gutter down its middle is one too, read
        # from the side the others are.
        first = max(set(found), key=found.count)
        spreads = [s or find_spread(p, first) for p, s in zip(pages, spreads, strict=True)]
    count = sum(1 for s in spreads if s is not None)
    # A book of spreads: its halves numbered in turn; a spread here and there keeps
    # the document's numbering (both halves the PDF page's number).
    book = 2 * count >= len(pages)
    units: list[RawPage] = []
    number = pages[0].number
    for page, spread in zip(pages, spreads, strict=True):
        if not book:
            number = page.number
        if spread is None:
            units.append(RawPage(number, page.width, page.height, page.lines, page.chars))
            number += 1
            continue
        for side, half in zip(spread.sides, spread.halves, strict=True):
            # Each half on a page of its own width, from its own left edge: a heading
            # centred on its half is centred on that page.
            shift = spread.cut if side == "right" else 0.0
            width = page.width - spread.cut if side == "right" else spread.cut
            moved = [_moved(ln, shift) for ln in half]
            units.append(RawPage(number, width, page.height, moved, page.chars))
            number += 1
    return units, spreads
