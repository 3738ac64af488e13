"""Parts of one printed line that pdfium gives as items of their own on a baseline.

* A table's rows: cells whose edges line up over several rows (a column of cells
  runs down the page) are read across, one line a row, the cells in the table's
  direction (from the right in a right-to-left table, its Latin cells included).
* Tab-set parts: a contents row's page number at the far margin, a refrain at the
  far end of a verse (the text frame's, which a page of short verse lines shows by its
  running header), a label a tab before its text (a running header's title and page
  number, on the page's first or last baseline, stay apart: they are two of the
  page's fields; but a page number that pdfium gave in the title's own run, in a row
  apart from the text, stays with its header: one line, a header).
  A part that stands alone (no line just above or below it in its own column) is
  not a column's line: it is joined to the part beside it, in the line's direction.

Not joined: the lines of two columns or of a parallel text (lines run down beside
each other, long), a note or a number in the margin (outside the text's width, set
smaller), anything across a gutter.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from libtext.pdf._lines import RawLine
    from libtext.pdf._visual import Direction

__all__ = ["join_rows"]

_HEBREW = re.compile("[\u05d0-\u05ea]")
# Items whose baselines are this many font sizes apart share a baseline.
_SAME_BASELINE = 0.3
# A line just above or below an item stands this many font sizes from it, at most.
_NEIGHBOUR = 1.8
# Rows of a table follow each other this many font sizes apart, at most.
_ROW_PITCH = 2.6
# Cells of one table column share an edge (or a middle) to this many font sizes.
_ALIGN = 1.0
# Of a table's columns, all but one hold cells of this many words at most.
_CELL_WORDS = 4
# A contents row's title has this many words at most (a line of running text more).
_ENTRY_WORDS = 8
# A table's cells differ in size by this factor at most (an OCR layer's sizes vary),
# and the parts of one line by this one.
_SIZE_RATIO = 1.3
_PART_SIZE_RATIO = 1.2
# A running header's page number may be set in a size of its own.
_BAND_SIZE_RATIO = 1.5
# What a tab sets apart from its line: a page number (digits, or a Hebrew numeral:
# see :func:`_numeral`), or a label closed by a colon.
_TAB_ITEM = re.compile(r"[(\[]?\d{1,4}[.)\]]?|\S{1,12}(?: \S{1,12})?:")
# A page number: digits (``12``, ``-12-``, ``[12]``) or a short Hebrew numeral (``יב``).
_PAGE_NUMBER = re.compile(
    r"[-–(\[]?\s*\d{1,4}\s*[-–)\]]?|[\u05d0-\u05ea]{1,3}['\"\u05f3\u05f4]?[\u05d0-\u05ea]?"
)
_NUMERAL = re.compile("[\u05d0-\u05ea\u05f3\u05f4'\"]{2,6}")
_LETTER_VALUE = {ch: v for v, ch in zip(range(1, 23), "אבגדהוזחטיכלמנסעפצקרשת", strict=True)}
_LATIN = re.compile("[A-Za-z]")
_WORD_CHARS = re.compile("[A-Za-z\u05d0-\u05ea]")
# A tab is this many font sizes wide at least.
_TAB = 2.0


class _Item:
    """A part of a baseline: a line, or a cell of a line read with tab gaps inside.

    A plain class (built natively by the compiled twin, as :class:`._lines.RawLine`);
    equal as a dataclass would be, field by field.
    """

    __slots__ = ("line", "text", "x0", "x1")

    def __init__(self, line: int, x0: float, x1: float, text: str) -> None:
        self.line = line  # index of its line
        self.x0 = x0
        self.x1 = x1
        self.text = text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Item):
            return NotImplemented
        return (self.line, self.x0, self.x1, self.text) == (
            other.line,
            other.x0,
            other.x1,
            other.text,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"_Item(line={self.line!r}, x0={self.x0!r}, x1={self.x1!r}, text={self.text!r})"


def join_rows(lines: list[RawLine], direction: Direction, gutter: float | None) -> list[RawLine]:
    """``lines`` with each table row and each line set in tab-separated parts as one."""
    groups = _baseline_groups(lines)
    if not any(len(g) > 1 or lines[g[0]].cells for g in groups):
        return lines
    body = _body_extent(lines)
    gone: set[int] = set()
    _join_tables(lines, groups, direction, gutter, body, gone)
    frame = _frame(lines, groups, body)
    # A running header's or footer's parts (the page's first or last baseline) are
    # left to the page's roles (its fields apart), but for a page number that pdfium
    # gave in the title's own run (read aside, as a margin number at the run's end) in
    # a row that stands apart from the text: the header keeps its page number.
    # The last baseline, though, when it follows the text at its pitch and holds no
    # page number, is the text's last line (a title page's imprint, its place and
    # year at the two ends), not a footer's fields.
    for n, group in enumerate(groups):
        group = [k for k in group if k not in gone]
        if len(group) < 2:
            continue
        if n not in (0, len(groups) - 1) or _last_in_text(lines, group, groups, n):
            _join_parts(lines, group, direction, gutter, (body, frame), gone)
        elif _apart(lines, group, groups, n):
            _join_parts(lines, group, direction, gutter, (body, frame), gone, band=True)
    return [ln for k, ln in enumerate(lines) if k not in gone]


def _baseline_groups(lines: list[RawLine]) -> list[list[int]]:
    """Indices of ``lines`` by shared baseline, top to bottom."""
    order = sorted(range(len(lines)), key=lambda k: lines[k].y)
    groups: list[list[int]] = []
    for k in order:
        if groups:
            first = lines[groups[-1][0]]
            if abs(lines[k].y - first.y) <= _SAME_BASELINE * max(
                min(first.size, lines[k].size), 1.0
            ):
                groups[-1].append(k)
                continue
        groups.append([k])
    return groups


def _apart(lines: list[RawLine], group: list[int], groups: list[list[int]], n: int) -> bool:
    """Whether the page's first or last baseline (``groups[n]``) stands apart from the
    next one, more than a line's pitch: a running header's or footer's band."""
    if len(groups) < 2:
        return False
    other = groups[1] if n == 0 else groups[-2]
    size = max(max(lines[k].size for k in group), 1.0)
    return abs(lines[other[0]].y - lines[group[0]].y) > _NEIGHBOUR * size


def _last_in_text(lines: list[RawLine], group: list[int], groups: list[list[int]], n: int) -> bool:
    """Whether the page's last baseline (``groups[n]``) is a line of the text: it
    follows the line above at the text's pitch and none of its parts is a number."""
    if n == 0 or n != len(groups) - 1 or _apart(lines, group, groups, n):
        return False
    return not any(_PAGE_NUMBER.fullmatch(lines[k].text.strip()) for k in group)


def _body_extent(lines: list[RawLine]) -> tuple[float, float]:
    """The width the page's running text takes (lines of more than a few words):
    a note or a number beyond it stands in the margin."""
    # At most four words split off: enough to tell, not every word of every line.
    wide = [ln for ln in lines if len(ln.text.split(None, 3)) > 3] or lines
    return min(ln.x0 for ln in wide), max(ln.x1 for ln in wide)


def _frame(
    lines: list[RawLine], groups: list[list[int]], body: tuple[float, float]
) -> tuple[float, float]:
    """The width of the page's text frame: its running text's, or its running header's
    or footer's (a band apart on the first or last baseline), whichever is wider: a
    page of short verse lines is as wide as its header."""
    lo, hi = body
    for n in {0, len(groups) - 1}:
        if _apart(lines, groups[n], groups, n):
            lo = min(lo, *(lines[k].x0 for k in groups[n]))
            hi = max(hi, *(lines[k].x1 for k in groups[n]))
    return lo, hi


def _inside(ln: RawLine, body: tuple[float, float]) -> bool:
    em = max(ln.size, 1.0)
    return ln.x0 >= body[0] - em and ln.x1 <= body[1] + em


def _order(items: list[_Item], direction: Direction) -> list[_Item]:
    return sorted(items, key=lambda it: -it.x1 if direction == "R" else it.x0)


def _row_direction(texts: list[str], direction: Direction) -> Direction:
    """A row is read in the page's direction, but a row with no Hebrew letter left
    to right."""
    return direction if any(_HEBREW.search(t) for t in texts) else "L"


def _numeral(text: str) -> bool:
    """Whether ``text`` is a Hebrew numeral of three letters or more, or one marked
    with a geresh or gershayim (a two-letter word is as often a word as a number):
    letters of falling value, no final forms."""
    if not _NUMERAL.fullmatch(text):
        return False
    letters = [ch for ch in text if ch in _LETTER_VALUE or "\u05d0" <= ch <= "\u05ea"]
    marked = len(letters) < len(text)
    if not letters or (len(letters) < 3 and not marked):
        return False
    values = [_LETTER_VALUE.get(ch, 0) for ch in letters]
    if 0 in values:
        return False  # a final form: a word
    return all(a >= b for a, b in itertools.pairwise(values)) or letters[-2:] in (
        ["ט", "ו"],
        ["ט", "ז"],
    )


def _tab_item(text: str) -> bool:
    # A numeral may close a sentence (a year at the end of an imprint: ``תשכ"ב.``).
    return _TAB_ITEM.fullmatch(text) is not None or _numeral(text.removesuffix("."))


def _script(text: str) -> str:
    """ "R" (Hebrew letters only), "L" (Latin letters only), "" (both or neither)."""
    hebrew, latin = bool(_HEBREW.search(text)), bool(_LATIN.search(text))
    return "R" if hebrew and not latin else "L" if latin and not hebrew else ""


def _crosses_gutter(a: float, b: float, gutter: float | None) -> bool:
    return gutter is not None and min(a, b) < gutter < max(a, b)


# --- tables --------------------------------------------------------------------------


def _cells_of(lines: list[RawLine], group: list[int]) -> list[_Item]:
    items: list[_Item] = []
    for k in group:
        ln = lines[k]
        if ln.cells:
            items.extend(_Item(k, x0, x1, text) for x0, x1, text in ln.cells)
        else:
            items.append(_Item(k, ln.x0, ln.x1, ln.text))
    return items


def _aligned(a: _Item, b: _Item, em: float) -> bool:
    return (
        abs(a.x0 - b.x0) <= _ALIGN * em
        or abs(a.x1 - b.x1) <= _ALIGN * em
        or abs((a.x0 + a.x1) - (b.x0 + b.x1)) <= 2 * _ALIGN * em
    )


def _same_columns(row: list[_Item], other: list[_Item], em: float) -> bool:
    if len(row) != len(other):
        return False
    left = sorted(row, key=lambda it: it.x0)
    right = sorted(other, key=lambda it: it.x0)
    for k, (a, b) in enumerate(zip(left, right, strict=True)):
        if not _aligned(a, b, em):
            return False
        # A cell stays in its column: it does not reach the next column's cells.
        if k + 1 < len(left) and (a.x1 >= right[k + 1].x0 or b.x1 >= left[k + 1].x0):
            return False
    return True


def _join_tables(
    lines: list[RawLine],
    groups: list[list[int]],
    direction: Direction,
    gutter: float | None,
    body: tuple[float, float],
    gone: set[int],
) -> None:
    """Join each table row's cells into one line (see the module's docstring)."""
    rows: list[tuple[list[int], list[_Item]]] = []
    for group in groups:
        items = _cells_of(lines, group)
        if rows and not _next_row(lines, rows[-1], (group, items)):
            _table(lines, rows, direction, gutter, body, gone)
            rows = []
        if len(items) > 1:
            rows.append((group, items))
        else:
            _table(lines, rows, direction, gutter, body, gone)
            rows = []
    _table(lines, rows, direction, gutter, body, gone)


def _next_row(
    lines: list[RawLine], prev: tuple[list[int], list[_Item]], row: tuple[list[int], list[_Item]]
) -> bool:
    a, b = lines[prev[0][0]], lines[row[0][0]]
    em = max(min(a.size, b.size), 1.0)
    return 0 < b.y - a.y <= _ROW_PITCH * em and _same_columns(prev[1], row[1], em)


def _table(
    lines: list[RawLine],
    rows: list[tuple[list[int], list[_Item]]],
    direction: Direction,
    gutter: float | None,
    body: tuple[float, float],
    gone: set[int],
) -> None:
    if len(rows) < 2:
        return
    members = [lines[k] for group, _ in rows for k in group]
    if not all(_inside(ln, body) for ln in members) and any(
        len(ln.text.split()) > _ENTRY_WORDS for ln in members
    ):
        # Notes or numbers in the margin beside a column of running text; but the
        # rows of a contents page reach the far margin, beyond its titles' width.
        return
    sizes = [ln.size for ln in members]
    if max(sizes) > _SIZE_RATIO * max(min(sizes), 1.0):
        return  # a parallel text in two sizes
    columns = list(zip(*(sorted(items, key=lambda it: it.x0) for _, items in rows), strict=True))
    long = sum(any(len(it.text.split()) > _CELL_WORDS for it in col) for col in columns)
    if long > 1 or sum(_justified(col) for col in columns) > 1:
        return  # columns of running text
    if not any(
        all(not _HEBREW.search(it.text) and len(it.text.split()) <= _CELL_WORDS for it in col)
        for col in columns
    ):
        return  # a Hebrew table's rows are read across already (see _lines._Cells)
    if any(
        _crosses_gutter(a.x1, b.x0, gutter)
        for col_a, col_b in itertools.pairwise(columns)
        for a, b in zip(col_a, col_b, strict=True)
    ):
        return
    texts = [it.text for _, items in rows for it in items]
    row_dir = _row_direction(texts, direction)
    for group, items in rows:
        _merge(lines, group, _order(items, row_dir), gone)


def _justified(column: tuple[_Item, ...]) -> bool:
    """Whether most of a column's lines share both edges with the line above: a
    justified text column's (a table's cells align on one side)."""
    same = sum(
        abs(a.x0 - b.x0) <= 0.5 and abs(a.x1 - b.x1) <= 0.5 for a, b in itertools.pairwise(column)
    )
    return 2 * same >= len(column) - 1


def _merge(lines: list[RawLine], group: list[int], items: list[_Item], gone: set[int]) -> None:
    """Make the first line of ``group`` the row read from ``items`` (in order)."""
    keep = lines[group[0]]
    keep.text = " ".join(it.text for it in items)
    keep.x0 = min(lines[k].x0 for k in group)
    keep.x1 = max(lines[k].x1 for k in group)
    keep.brackets_fixed = all(lines[k].brackets_fixed for k in group)
    keep.cells = []
    gone.update(group[1:])


# --- tab-set parts of one line -------------------------------------------------------


def _in_column(lines: list[RawLine], k: int, group: list[int], gap: tuple[float, float]) -> bool:
    """Whether a line just above or below line ``k`` lies under it without crossing
    the ``gap`` beside it: then ``k`` is a line of a column, not a part."""
    ln = lines[k]
    reach = _NEIGHBOUR * max(ln.size, 1.0)
    mid = (gap[0] + gap[1]) / 2
    for j, other in enumerate(lines):
        if j in group or abs(other.y - ln.y) > reach:
            continue
        if other.x1 > ln.x0 and other.x0 < ln.x1 and not other.x0 < mid < other.x1:
            return True
    return False


def _join_parts(
    lines: list[RawLine],
    group: list[int],
    direction: Direction,
    gutter: float | None,
    extents: tuple[tuple[float, float], tuple[float, float]],
    gone: set[int],
    *,
    band: bool = False,
) -> None:
    """Join the parts of one baseline that are no column's lines, in reading order
    (``band``: a running header's or footer's row, whose page number may be aside)."""
    texts = [lines[k].text for k in group]
    row_dir = _row_direction(texts, direction)
    order = sorted(group, key=lambda k: -lines[k].x1 if row_dir == "R" else lines[k].x0)
    run = [order[0]]
    for k in order[1:]:
        p, q = lines[run[-1]], lines[k]
        gap = (q.x1, p.x0) if row_dir == "R" else (p.x1, q.x0)
        if _parts(lines, run[-1], k, group, gap, gutter, extents, band=band, far=row_dir):
            run.append(k)
            continue
        _join_run(lines, run, gone)
        run = [k]
    _join_run(lines, run, gone)


def _parts(
    lines: list[RawLine],
    a: int,
    b: int,
    group: list[int],
    gap: tuple[float, float],
    gutter: float | None,
    extents: tuple[tuple[float, float], tuple[float, float]],
    *,
    band: bool = False,
    far: Direction = "R",
) -> bool:
    """Whether lines ``a`` and ``b`` (``b`` after ``a`` in reading order, ``far`` its
    direction) are tab-set parts of one printed line."""
    p, q = lines[a], lines[b]
    if gap[1] <= gap[0] or _crosses_gutter(gap[0], gap[1], gutter):
        return False
    ratio = _BAND_SIZE_RATIO if band else _PART_SIZE_RATIO
    if max(p.size, q.size) > ratio * max(min(p.size, q.size), 1.0):
        return False
    if {_script(p.text), _script(q.text)} == {"R", "L"}:
        return False  # a parallel text's two languages
    body, frame = extents
    far_end = not band and _at_far_end(p, q, frame, far)
    if not (far_end or (_inside(p, body) and _inside(q, body))):
        return False
    if gap[1] - gap[0] < _TAB * max(min(p.size, q.size), 1.0):
        return False  # a formula's pieces, or words a little apart
    return any(
        (_tab_item(lines[k].text) or (k == b and far_end))
        and lines[k].aside == band
        and len(_WORD_CHARS.findall(lines[other].text)) >= 2
        and not _in_column(lines, k, group, gap)
        for k, other in ((a, b), (b, a))
    )


def _at_far_end(p: RawLine, q: RawLine, frame: tuple[float, float], far: Direction) -> bool:
    """Whether ``q``, a few words, is tab-set at the far end of the text frame's width
    and ``p`` starts at its near end (a refrain at the end of a verse): one line spread
    across the width, when no line above or below stands beside ``q``."""
    em = max(min(p.size, q.size), 1.0)
    if len(q.text.split()) > _CELL_WORDS:
        return False
    if far == "R":
        return p.x1 >= frame[1] - em and q.x0 <= frame[0] + em
    return p.x0 <= frame[0] + em and q.x1 >= frame[1] - em


def _join_run(lines: list[RawLine], run: list[int], gone: set[int]) -> None:
    if len(run) < 2:
        return
    keep = lines[run[0]]
    keep.text = " ".join(lines[k].text for k in run)
    keep.x0 = min(lines[k].x0 for k in run)
    keep.x1 = max(lines[k].x1 for k in run)
    keep.brackets_fixed = all(lines[k].brackets_fixed for k in run)
    gone.update(run[1:])
