"""Lines of one baseline that pdfium gives apart (or together) where a reader does not.

* A list's number and a siddur's speaker label (``ש״ץ׃``) are set off from their
  text by a tab or a hanging indent, often in another font or size: pdfium makes
  them lines of their own, and the number (``1.``) lands before or after its text
  in the reading order. A label stands at the line's start (the right on a
  right-to-left page), a little apart from the text on its baseline: it is put back
  in front of that text.
* A table row's cells are read across as one line.
* A margin line number ("5", "10" beside every fifth line) is not part of the line
  it stands beside.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from libtext.pdf._visual import Direction

__all__ = ["RawLine", "join_items", "margin_note", "margin_number"]


class RawLine:
    """A line as read, before classification (y: baseline distance from the top).

    Defined here, below the reader (``libtext.pdf._read`` imports it from here), so
    the two never import each other. A plain class, not a dataclass (a book makes tens
    of thousands: the compiled twin builds a plain class's ``__init__`` natively, a
    dataclass's in Python); equal as a dataclass would be, field by field.
    """

    __slots__ = (
        "aside",
        "block",
        "bold",
        "brackets_fixed",
        "cells",
        "colour",
        "ocr",
        "size",
        "text",
        "x0",
        "x1",
        "y",
    )

    def __init__(
        self,
        text: str,
        size: float,
        bold: bool,
        y: float,
        x0: float,
        x1: float,
        brackets_fixed: bool = False,
        block: int = -1,
        cells: list[tuple[float, float, str]] | None = None,
        aside: bool = False,
        colour: tuple[int, int, int] | None = None,
        ocr: bool = False,
    ) -> None:
        self.text = text
        self.size = size
        self.bold = bold
        self.y = y
        self.x0 = x0
        self.x1 = x1
        self.brackets_fixed = brackets_fixed  # read from glyph positions, brackets paired
        self.block = block  # its text block (see :mod:`._blocks`), -1: none found
        # Parts a tab apart inside the line as pdfium gave it (x0, x1, text), when they
        # may be a table's cells (see ``libtext.pdf._rows``); else empty.
        self.cells: list[tuple[float, float, str]] = [] if cells is None else cells
        self.aside = aside  # a number or a note in the margin, cut from the line beside it
        # Fill colour (red, green, blue) of the middle letter; a short line's only if its
        # ends share it, else None (a link word in it): see ``libtext.pdf._read._line_colour``.
        self.colour = colour
        self.ocr = ocr  # read from an OCR layer (invisible text): its size is its own

    def _fields(self) -> tuple[object, ...]:
        return (
            self.text,
            self.size,
            self.bold,
            self.y,
            self.x0,
            self.x1,
            self.brackets_fixed,
            self.block,
            self.cells,
            self.aside,
            self.colour,
            self.ocr,
        )

    def __reduce__(self) -> tuple[type[RawLine], tuple[object, ...]]:
        # A guard's worker sends its pages' lines pickled; the compiled class is made
        # through its __init__ only.
        return RawLine, self._fields()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RawLine):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"RawLine(text={self.text!r}, size={self.size!r}, bold={self.bold!r}, "
            f"y={self.y!r}, x0={self.x0!r}, x1={self.x1!r}, "
            f"brackets_fixed={self.brackets_fixed!r}, block={self.block!r}, "
            f"cells={self.cells!r}, aside={self.aside!r}, colour={self.colour!r}, "
            f"ocr={self.ocr!r})"
        )


# A line of more words than this is no title: its ends' colour is not asked
# (``libtext.pdf._read``), nor is it a title set in colour (``libtext.pdf._layout``).
TITLE_WORDS = 10


# A list number or letter with its punctuation: "1.", "(3)", "א.", "b)" (and the
# punctuation first, as pdfium gives a right-to-left line's number: ".1").
_NUMBER = re.compile(
    r"[(\[]?(?:\d{1,3}|[\u05d0-\u05ea]{1,2}|[A-Za-z]|[ivxIVX]{1,4})[.)\]:]"
    r"|[.)\]:](?:\d{1,3}|[\u05d0-\u05ea]{1,2}|[A-Za-z])"
)
_PUNCT_FIRST = re.compile(r"([.)\]:])(\d{1,3}|[A-Za-z])")
# A run-in label: a word or two closed by a colon (or sof pasuq) or a full stop.
_RUN_IN = re.compile(r"\S{1,12}(?: \S{1,12})?[:\u05c3.]")
# The widest gap (in font sizes) between a label and its text: a tab or an indent.
_LABEL_GAP = 3.0


def _label_text(text: str, direction: Direction) -> str | None:
    """The label's logical text, or None when ``text`` is no label."""
    if _NUMBER.fullmatch(text):
        m = _PUNCT_FIRST.fullmatch(text)
        if m is not None and direction == "R":
            return m.group(2) + m.group(1)  # pdfium's ".1" on a right-to-left line
        return text
    return None


def _is_run_in(label: RawLine, body: RawLine) -> bool:
    """A short item ending in a colon, set apart from its text by size or weight."""
    if not _RUN_IN.fullmatch(label.text):
        return False
    return label.size < 0.95 * body.size or label.bold != body.bold


def _baselines(lines: list[RawLine]) -> Iterator[list[int]]:
    """The indices of ``lines`` grouped by shared baseline, top to bottom."""
    order = sorted(range(len(lines)), key=lambda k: lines[k].y)
    start = 0
    while start < len(order):
        end = start + 1
        first = lines[order[start]]
        while end < len(order) and abs(lines[order[end]].y - first.y) <= 0.3 * max(
            min(first.size, lines[order[end]].size), 1.0
        ):
            end += 1
        yield order[start:end]
        start = end


def join_items(lines: list[RawLine], direction: Direction, gutter: float | None) -> list[RawLine]:
    """``lines`` with labels joined to their text, then a table row's cells to each other
    (then :func:`libtext.pdf._rows.join_rows` joins tables' rows and tab-set parts)."""
    groups = [g for g in _baselines(lines) if len(g) > 1] if len(lines) > 1 else []
    if not groups:
        return lines  # one item per baseline: the usual page
    cells = _Cells(lines, direction, gutter)  # measured before any joining
    gone: set[int] = set()
    for group in groups:
        _join_group(group, lines, direction, gutter, gone)
    for group in groups:
        cells.join([k for k in group if k not in gone], gone)
    return [ln for k, ln in enumerate(lines) if k not in gone]


def _join_group(
    group: list[int],
    lines: list[RawLine],
    direction: Direction,
    gutter: float | None,
    gone: set[int],
) -> None:
    """Join the labels among one baseline's lines (``group``, indices into ``lines``)."""
    for k in group:
        label = lines[k]
        if k in gone or len(label.text) > 26:
            continue
        # The nearest line on the label's text side: left of it right to left.
        best: int | None = None
        best_gap = 0.0
        for j in group:
            if j == k or j in gone:
                continue
            other = lines[j]
            gap = label.x0 - other.x1 if direction == "R" else other.x0 - label.x1
            if gap < -0.1 * other.size:
                continue
            if best is None or gap < best_gap:
                best, best_gap = j, gap
        if best is None:
            continue
        body = lines[best]
        if best_gap > _LABEL_GAP * max(body.size, 1.0) or len(body.text) <= len(label.text):
            continue
        if gutter is not None and min(label.x1, body.x1) <= gutter <= max(label.x0, body.x0):
            continue  # the two columns' lines
        if _label_text(body.text.split(" ", 1)[0], direction) is not None and " " not in body.text:
            continue
        text = _label_text(label.text, direction)
        if text is None and _is_run_in(label, body):
            text = label.text
        if text is None:
            continue
        body.text = f"{text} {body.text}"
        body.x0, body.x1 = min(body.x0, label.x0), max(body.x1, label.x1)
        body.brackets_fixed = body.brackets_fixed and label.brackets_fixed
        gone.add(k)


# A character's ink extent across the line, and its font size (by index into the text).
_Box = Callable[[int], tuple[float, float]]
_Size = Callable[[int], float]


def _letter_size(text: str, a: int, b: int, size: _Size) -> float | None:
    """The size of the first letter from the middle of ``text[a:b]`` on (the line's
    letters, not a number or a note at its end), or None without one."""
    mid = (a + b) // 2
    while mid < b - 1 and not text[mid].isalpha():
        mid += 1
    em = size(mid)
    return em if em > 0 and text[mid].isalpha() else None


# A margin line number is this much smaller than its line's text, at least...
_MARGIN_SIZE = 0.9
# ... and set this many of the line's font sizes apart from it (a word space is ~0.3).
_MARGIN_GAP = 0.8


def margin_number(text: str, a: int, b: int, box: _Box, size: _Size) -> tuple[int, int] | None:
    """The span of a margin line number that pdfium put at an end of ``text[a:b]``.

    Editions that number every fifth line set the number in the margin, smaller than
    the text and beyond the column's edge: on the line's baseline, so pdfium makes
    it part of the line ("land of Hav- 5"). A number of 1 to 4 digits alone at an end,
    clearly smaller than the line's letters and farther from them than a word space,
    is such a number: not part of the line. (A verse number or a list number stands
    a word space from its text.)
    """
    if b - a < 6 or not (text[a].isdigit() or text[b - 1].isdigit()):
        return None
    em = _letter_size(text, a, b, size)
    if em is None:
        return None
    for end in (True, False):
        k = b if end else a
        step = -1 if end else 1
        first = k if not end else k - 1
        j = first
        while a <= j < b and text[j].isdigit():
            j += step
        digits = abs(j - first)
        if not 1 <= digits <= 4 or not (a <= j < b) or not text[j].isspace():
            continue
        span = (j + 1, b) if end else (a, j)
        while a <= j < b and text[j].isspace():
            j += step
        if not a <= j < b:
            continue
        if size(first) > _MARGIN_SIZE * em:
            continue
        lo = min(box(i)[0] for i in range(*span))
        hi = max(box(i)[1] for i in range(*span))
        n_lo, n_hi = box(j)
        if max(lo, n_lo) - min(hi, n_hi) > _MARGIN_GAP * em:
            return span
    return None


# A margin note is a few words long at most.
_NOTE_WORDS = 3


def margin_note(text: str, a: int, b: int, box: _Box, size: _Size) -> tuple[int, int] | None:
    """The span of a short note set small in the margin that pdfium put at an end of
    ``text[a:b]``, else None.

    A siddur's source reference (``תהלים צו``) beside a verse shares the verse line's
    baseline, so pdfium reads it as the line's first or last words. A run of one to
    three words at an end, in the line's script, all clearly smaller than the line's
    letters and farther from them than a word space, is such a note (as
    :func:`margin_number` for a number).
    """
    if b - a < 12 or not (text[a].isalpha() or text[b - 1].isalpha()):
        return None  # a note's end is a letter (asked again below, after the sizes)
    em = _letter_size(text, a, b, size)
    if em is None:
        return None
    limit = _MARGIN_SIZE * em
    for end in (False, True):
        step = -1 if end else 1
        edge = b - 1 if end else a
        if not text[edge].isalpha() or size(edge) > limit:
            continue
        k = edge
        for _ in range(_NOTE_WORDS):
            while a <= k < b and not text[k].isspace():
                k += step
            j = k
            while a <= j < b and text[j].isspace():
                j += step
            if not (a <= j < b):
                break
            if size(j) <= limit:
                k = j  # the note's next word
                continue
            span = (k + 1, b) if end else (a, k)
            note = text[span[0] : span[1]]
            if max(len(w) for w in note.split()) < 2 or _script(note) != _script(text[a:b]):
                break  # a bullet; or two columns' lines in two scripts (see _columns)
            inked = [box(i) for i in range(*span) if not text[i].isspace()]
            lo, hi = min(x for x, _ in inked), max(x for _, x in inked)
            n_lo, n_hi = box(j)
            if max(lo, n_lo) - min(hi, n_hi) > _MARGIN_GAP * em:
                return span
            break
    return None


# Table cells of one row stand this many font sizes apart, at least and at most.
_CELL_GAP = (1.0, 6.0)
# A cell is narrower than this share of the page's text, and holds a few words.
_CELL_WIDTH = 0.4
_CELL_WORDS = 3
_RTL = re.compile("[\u0590-\u05ff]")
_LTR = re.compile("[A-Za-z]")


def _script(text: str) -> str:
    return "R" if len(_RTL.findall(text)) >= len(_LTR.findall(text)) else "L"


class _Cells:
    """The cells of a table row, joined into one line in reading order.

    A table row is read across, cell after cell, as one line of text (as the row's
    words are found by a search or a reader). Cells are narrow items of a few words,
    of one size and one script on a baseline, a tab's width apart. Not cells: the
    lines of columns (a line of a justified block has the edges of the line above or
    below it; its last line starts where the line above it does), a bilingual row's
    cells (two scripts), a list number (see :func:`_join_group`) or a running
    header's ends (far apart).
    """

    def __init__(self, lines: list[RawLine], direction: Direction, gutter: float | None) -> None:
        self.lines = lines
        self.direction: Direction = direction
        self.gutter = gutter
        self.span = max(ln.x1 for ln in lines) - min(ln.x0 for ln in lines)
        # Each item as read, before any joining.
        self.items = [(ln.x0, ln.x1, ln.y, ln.size, len(ln.text.split())) for ln in lines]
        self.seen: dict[int, bool] = {}  # items known to be (or not) in a justified block

    def join(self, group: list[int], gone: set[int]) -> None:
        """Join the cells among one baseline's items (``group``); joined ones go to ``gone``."""
        lines, items, direction = self.lines, self.items, self.direction
        group.sort(key=lambda k: -lines[k].x1 if direction == "R" else lines[k].x0)
        for k, j in itertools.pairwise(group):
            a, b = lines[k], lines[j]
            if self.span <= 0 or not _cells(
                items[k], items[j], a, b, direction, self.span, self.gutter
            ):
                continue
            if _in_block(items, k, direction, self.seen) or _in_block(
                items, j, direction, self.seen
            ):
                continue
            # b is read after a: join a into b, so that a chain of cells ends in one line.
            b.text = f"{a.text} {b.text}"
            b.x0, b.x1 = min(a.x0, b.x0), max(a.x1, b.x1)
            b.y = a.y
            b.brackets_fixed = a.brackets_fixed and b.brackets_fixed
            gone.add(k)


_Item = tuple[float, float, float, float, int]  # x0, x1, y, size, words


def _cells(
    first: _Item,
    second: _Item,
    a: RawLine,
    b: RawLine,
    direction: Direction,
    span: float,
    gutter: float | None,
) -> bool:
    """Whether ``a`` (a cell, or the row so far) and the item after it, ``b``, are
    cells of one row; ``first`` and ``second`` are the two cells as read."""
    em = max(min(a.size, b.size), 1.0)
    gap = first[0] - second[1] if direction == "R" else second[0] - first[1]
    if not _CELL_GAP[0] * em <= gap <= _CELL_GAP[1] * em:
        return False
    if abs(a.size - b.size) > 0.05 * em or a.bold != b.bold:
        return False
    if max(first[4], second[4]) > _CELL_WORDS:
        return False
    if max(first[1] - first[0], second[1] - second[0]) > _CELL_WIDTH * span:
        return False
    if gutter is not None and min(first[1], second[1]) <= gutter <= max(first[0], second[0]):
        return False
    return _script(a.text) == _script(b.text) == direction


def _justified(items: list[_Item], k: int, seen: dict[int, bool]) -> bool:
    """Whether item ``k`` is a line of a justified block: a line just above or below it
    has its two edges (cells of equal width are rarely wider than 3 em)."""
    got = seen.get(k)
    if got is None:
        x0, x1, y, size, _ = items[k]
        got = seen[k] = x1 - x0 > 3 * size and any(
            0 < abs(oy - y) <= 2.5 * size and abs(ox0 - x0) <= 0.5 and abs(ox1 - x1) <= 0.5
            for ox0, ox1, oy, _, _ in items
        )
    return got


def _in_block(items: list[_Item], k: int, direction: Direction, seen: dict[int, bool]) -> bool:
    """Whether item ``k`` is a line of a justified block, or the last line of one (it
    starts where the justified line above it starts)."""
    if _justified(items, k, seen):
        return True
    x0, x1, y, size, _ = items[k]
    start = x1 if direction == "R" else x0
    return any(
        0 < y - items[m][2] <= 2.5 * size
        and abs((items[m][1] if direction == "R" else items[m][0]) - start) <= 0.5
        and _justified(items, m, seen)
        for m in range(len(items))
    )
