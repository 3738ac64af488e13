"""A page's reading order from its geometry: blocks found by whitespace, read block by block.

pdfium gives a page's lines in content order, which is the reading order of a plain
page but not of a page with columns: two columns set side by side with shared
baselines (a Hebrew text and its translation, a two-column sefer) come out line by
line across both. The page is cut recursively along the whitespace that separates
its lines' boxes (an XY-cut): a vertical river that no line crosses parts columns, a
wider than usual horizontal gap parts bands (a title above two columns, the notes
below them). A river need not run through the whole page: consecutive rows that
share one (two columns under a title spanning both) are a region of their own.
Blocks are read in the page's direction (right first on a right-to-left page); of
two side-by-side blocks in different scripts, the Hebrew one first (a parallel
text). Items on one row that form no columns are read across in the page's
direction.

Parts of one baseline that do not form columns running down the page (a table's
cells, a list's number and its text) are left to be read across: a river is a
column boundary only when the lines on either side of it are text, not a column
of short items beside it row by row.
"""

from __future__ import annotations

import itertools
import re
from statistics import median
from typing import TYPE_CHECKING

from libtext.pdf._letters import script_letters

if TYPE_CHECKING:
    from libtext.pdf._lines import RawLine
    from libtext.pdf._visual import Direction

__all__ = ["order_lines"]

# A river is at least this many (median) font sizes wide.
_RIVER = 0.5
# A band boundary: a gap between rows wider than the usual one by this many font sizes.
_BAND = 0.6
# Notes are set smaller than this share of the text's size.
_NOTE_SIZE = 0.9

_Row = list[int]


def order_lines(lines: list[RawLine], direction: Direction) -> list[RawLine]:
    """``lines`` in reading order: block after block, each top to bottom."""
    if len(lines) < 2:
        return lines
    out: list[list[int]] = []
    _cut(lines, list(range(len(lines))), direction, out, 0)
    for n, block in enumerate(out):
        for k in block:
            lines[k].block = n
    return [lines[k] for block in out for k in block]


def _top(ln: RawLine) -> float:
    return ln.y - 0.7 * ln.size


def _bottom(ln: RawLine) -> float:
    return ln.y + 0.15 * ln.size


def _em(lines: list[RawLine], node: list[int]) -> float:
    # statistics.median's own steps, typed (compiled: no generic Python call per node).
    sizes = sorted([lines[k].size for k in node])
    n = len(sizes)
    mid = sizes[n // 2] if n % 2 else (sizes[n // 2 - 1] + sizes[n // 2]) / 2
    return max(mid, 1.0)


def _cut(
    lines: list[RawLine], node: list[int], direction: Direction, out: list[list[int]], depth: int
) -> None:
    """Append ``node``'s blocks (line indices in reading order) to ``out`` in reading order."""
    if len(node) == 1:
        out.append(node)
        return
    em = _em(lines, node)
    if depth < 40:
        parts = _vertical(lines, node, em, direction)
        if parts is not None:
            for part in parts:
                _cut(lines, part, direction, out, depth + 1)
            return
    rows = _rows(lines, node)
    if len(rows) == 1:
        out.append(_across(lines, rows[0], direction))
        return
    if depth < 40:
        runs = _runs(lines, rows, _least(lines, node), em)
        if len(runs) > 1:
            for run in runs:
                _cut(lines, [k for row in run for k in row], direction, out, depth + 1)
            return
        bands = _bands(lines, rows, em)
        if len(bands) > 1:
            for band in bands:
                _cut(lines, [k for row in band for k in row], direction, out, depth + 1)
            return
    out.append([k for row in rows for k in _across(lines, row, direction)])


def _least(lines: list[RawLine], node: list[int]) -> float:
    """The narrowest river: half the size of the smaller type on the page part (a
    translation beside a text set large is parted by a gap of its own size)."""
    sizes = sorted(lines[k].size for k in node)
    return max(_RIVER * sizes[len(sizes) // 5], 3.0)


def _across(lines: list[RawLine], row: list[int], direction: Direction) -> list[int]:
    """One row's items in their script's direction, else the page's.

    A Hebrew text's line cut into pieces on a page of mostly English (a haggadah's
    Hebrew beside its translation) reads from the right all the same.
    """
    script = _script(lines, row) if len(row) > 1 else ""
    if script == "R" or (direction == "R" and script != "L"):
        return sorted(row, key=lambda k: -lines[k].x1)
    return sorted(row, key=lambda k: lines[k].x0)


def _rows(lines: list[RawLine], node: list[int]) -> list[_Row]:
    """``node``'s items grouped into rows (their boxes overlap vertically), top to bottom."""
    order = sorted(node, key=lambda k: _top(lines[k]))
    rows: list[_Row] = []
    bottom = -1e9
    for k in order:
        ln = lines[k]
        if rows and _top(ln) < bottom:
            rows[-1].append(k)
            bottom = max(bottom, _bottom(ln))
        else:
            rows.append([k])
            bottom = _bottom(ln)
    return rows


def _gaps(spans: list[tuple[float, float]], least: float) -> list[tuple[float, float]]:
    """The uncovered intervals at least ``least`` wide between sorted ``spans``' union."""
    out = []
    reach = spans[0][1]
    for lo, hi in spans[1:]:
        if lo - reach >= least:
            out.append((reach, lo))
        reach = max(reach, hi)
    return out


def _script(lines: list[RawLine], part: list[int]) -> str:
    hebrew, latin = script_letters("".join(lines[k].text for k in part))
    return "R" if hebrew > 2 * latin else "L" if latin > 2 * hebrew else ""


def _vertical(
    lines: list[RawLine], node: list[int], em: float, direction: Direction
) -> list[list[int]] | None:
    """``node`` cut at its widest vertical river into parts in reading order, else None."""
    spans = sorted((lines[k].x0, lines[k].x1) for k in node)
    least = _least(lines, node)
    gaps = _gaps(spans, least)
    if not gaps:
        return None
    lo, hi = max(gaps, key=lambda g: g[1] - g[0])
    cut = (lo + hi) / 2
    left = [k for k in node if lines[k].x1 <= cut]
    right = [k for k in node if lines[k].x1 > cut]
    if not left or not right:
        return None
    over = _over_both(lines, left, right, least)
    if over is not None:
        return over
    if len(_rows(lines, node)) > 1 and (
        len(_rows(lines, left)) < 2 or len(_rows(lines, right)) < 2
    ):
        return None  # not a column on each side: read across, row by row
    if _cells_beside(lines, left, right, em):
        return None
    for side, other in ((right, left), (left, right)):
        notes = _notes_under(lines, side, other, em)
        if notes:
            gone = set(notes)
            return [[k for k in node if k not in gone], notes]
    first, second = (right, left) if direction == "R" else (left, right)
    # A parallel text: the Hebrew block first, whatever the page's direction.
    scripts = (_script(lines, first), _script(lines, second))
    if scripts == ("L", "R"):
        first, second = second, first
    return [first, second]


def _notes_under(lines: list[RawLine], side: list[int], other: list[int], em: float) -> list[int]:
    """The notes set below ``side``'s text, lower than all of ``other``, else [].

    Notes at the foot of a page of two columns may stand under one column alone (a
    right-to-left page's first); with nothing set across the page above them (no
    running header as one line) the river runs from the page's top to its bottom,
    and read with their column they would come before the other column. Below a
    band's gap, smaller type opened by its marker, and lower than the other side's
    last line: the notes of both columns, read after them (with what stands below
    them: a page number in the foot's corner).
    """
    rows = _rows(lines, side)
    if len(rows) < 3:
        return []
    gaps, limit = _row_gaps(lines, rows, em)
    lowest = max(_bottom(lines[k]) for k in other)
    for i in range(1, len(gaps)):
        first = rows[i + 1]
        if gaps[i] > limit and _opens_note(lines, first, em):
            if min(_top(lines[k]) for k in first) < lowest:
                return []
            return [k for row in rows[i + 1 :] for k in row]
    return []


def _opens_note(lines: list[RawLine], row: _Row, em: float) -> bool:
    """Whether ``row`` is smaller type opened by a note's marker."""
    return (
        all(lines[k].size < _NOTE_SIZE * em for k in row)
        and _MARKER.fullmatch(lines[row[0]].text.split(" ", 1)[0]) is not None
    )


def _over_both(
    lines: list[RawLine], left: list[int], right: list[int], least: float
) -> list[list[int]] | None:
    """The lines above both columns, then the rest, when some of them stand out of
    the column they would be read with, or None.

    A title centred over a page's two columns may fall just short of the gutter (set
    over the whole text block, not a column): the river then runs past it, and read
    with the column on its side it would come after the other column. A line above
    the other column's top that reaches out of its own column's edges into the gutter
    (or beyond) is no line of that column: what stands above the other column's top
    is a band read first.
    """
    for side, other in ((left, right), (right, left)):
        top = min(_top(lines[k]) for k in other)
        above = [k for k in side if _bottom(lines[k]) <= top]
        level = [k for k in side if _bottom(lines[k]) > top]
        if not above or not level:
            continue
        lo = min(lines[k].x0 for k in level)
        hi = max(lines[k].x1 for k in level)
        if any(lines[k].x0 < lo - least or lines[k].x1 > hi + least for k in above):
            return [above, [*level, *other]]
    return None


def _short(ln: RawLine) -> bool:
    return len(ln.text.split()) <= 4 and ln.x1 - ln.x0 < 12 * max(ln.size, 1.0)


def _cells_beside(lines: list[RawLine], left: list[int], right: list[int], em: float) -> bool:
    """Whether two sides of a river are a table's columns or labels beside text.

    Such a side is short items, each on a baseline of the other side: read across,
    row by row, not as a column. Lines of text on both sides (two columns, a
    parallel text) are columns, whatever their baselines.
    """
    for side, other in ((left, right), (right, left)):
        if len(side) < 2:
            continue
        if not all(_short(lines[k]) for k in side) or _justified(lines, side):
            continue
        ys = [lines[j].y for j in other]
        beside = sum(1 for k in side if any(abs(lines[k].y - y) <= 0.3 * em for y in ys))
        if beside >= 0.7 * len(side):
            return True
    return False


def _justified(lines: list[RawLine], side: list[int]) -> bool:
    """Whether most of ``side``'s lines share both edges with another of its lines: a
    justified column of text, however narrow (table cells align on one edge, and a
    cell repeated down a column is narrow)."""
    edges = [
        (round(lines[k].x0), round(lines[k].x1))
        for k in side
        if lines[k].x1 - lines[k].x0 >= 6 * lines[k].size and len(lines[k].text.split()) >= 2
    ]
    shared = sum(
        1
        for n, (a, b) in enumerate(edges)
        if any(abs(a - c) <= 1 and abs(b - d) <= 1 for m, (c, d) in enumerate(edges) if m != n)
    )
    return shared >= max(3, len(side) // 2)


def _bands(lines: list[RawLine], rows: list[_Row], em: float) -> list[list[_Row]]:
    """``rows`` parted where the gap between two rows is clearly wider than usual."""
    gaps, limit = _row_gaps(lines, rows, em)
    bands: list[list[_Row]] = [[rows[0]]]
    for i, gap in enumerate(gaps):
        if gap > limit:
            bands.append([])
        bands[-1].append(rows[i + 1])
    return bands


def _row_gaps(lines: list[RawLine], rows: list[_Row], em: float) -> tuple[list[float], float]:
    """The gaps between consecutive rows, and the width above which one parts bands."""
    # Plain loops for min() and max() of each row (ties kept as theirs): run at every
    # level of the cut.
    tops: list[float] = []
    bottoms: list[float] = []
    for row in rows:
        top = _top(lines[row[0]])
        bottom = _bottom(lines[row[0]])
        for k in row[1:]:
            t, b = _top(lines[k]), _bottom(lines[k])
            if t < top:
                top = t
            if b > bottom:
                bottom = b
        tops.append(top)
        bottoms.append(bottom)
    gaps = [tops[i + 1] - bottoms[i] for i in range(len(rows) - 1)]
    usual = median(gaps)
    return gaps, max(usual + _BAND * em, 1.8 * usual)


def _free(
    lines: list[RawLine], row: _Row, lo: float, hi: float, least: float
) -> list[tuple[float, float]]:
    """The intervals of [lo, hi] that ``row`` leaves free, at least ``least`` wide."""
    spans = sorted((lines[k].x0, lines[k].x1) for k in row)
    out = []
    reach = lo
    for a, b in spans:
        if a - reach >= least:
            out.append((reach, a))
        reach = max(reach, b)
    if hi - reach >= least:
        out.append((reach, hi))
    return out


def _meet(
    a: list[tuple[float, float]], b: list[tuple[float, float]], least: float
) -> list[tuple[float, float]]:
    out = []
    for a0, a1 in a:
        for b0, b1 in b:
            lo, hi = max(a0, b0), min(a1, b1)
            if hi - lo >= least:
                out.append((lo, hi))
    return out


def _runs(lines: list[RawLine], rows: list[_Row], least: float, em: float) -> list[list[_Row]]:
    """``rows`` as the longest run of consecutive rows that share a vertical river with
    text on both sides (two columns under a title that spans both), and the rows
    before and after it; one part when no two rows share one. A run ends at a band's
    gap below which no row is parted and a note begins (smaller type, opened by its
    marker): the notes set far below two columns, under one of them alone, are no
    line of that column."""
    # Columns side by side put two items on some rows, a river apart: without two
    # such rows (a page of one column) there is no run to look for.
    parted = [
        len(row) > 1 and bool(_gaps(sorted((lines[k].x0, lines[k].x1) for k in row), least))
        for row in rows
    ]
    if sum(parted) < 2:
        return [rows]
    # Whether a row from each on is parted; whether each row opens a note.
    later = [False] * (len(rows) + 1)
    for i in range(len(rows) - 1, -1, -1):
        later[i] = parted[i] or later[i + 1]
    note = [_opens_note(lines, row, em) for row in rows]
    lo = min(lines[k].x0 for row in rows for k in row)
    hi = max(lines[k].x1 for row in rows for k in row)
    free = [_free(lines, row, lo, hi, least) for row in rows]
    gaps, limit = _row_gaps(lines, rows, em)
    best: tuple[int, int, int] | None = None  # lines, first row, last row
    # The lines in the rows from each on: a run starting there holds no more. Once
    # that is no more than the best run's, no later run can replace it (runs are
    # compared by their lines, the first kept): the search stops, as the column
    # test is skipped for a run that could not replace the best.
    after = list(itertools.accumulate(len(row) for row in reversed(rows)))[::-1]
    for i in range(len(rows) - 1):
        if best is not None and after[i] <= best[0]:
            break
        shared = free[i]
        j = i
        while j + 1 < len(rows) and (gaps[j] <= limit or later[j + 1] or not note[j + 1]):
            nxt = _meet(shared, free[j + 1], least)
            if not nxt:
                break
            shared, j = nxt, j + 1
        if j == i:
            continue
        count = after[i] - (after[j + 1] if j + 1 < len(rows) else 0)
        if (best is None or count > best[0]) and any(
            _columns(lines, rows[i : j + 1], g) for g in shared
        ):
            best = (count, i, j)
    if best is None or (best[1], best[2]) == (0, len(rows) - 1):
        return [rows]
    _, i, j = best
    return [part for part in (rows[:i], rows[i : j + 1], rows[j + 1 :]) if part]


def _columns(lines: list[RawLine], run: list[_Row], gap: tuple[float, float]) -> bool:
    """Whether ``run`` has lines on both sides of ``gap`` in two rows or more each: a
    column runs down the page (a page number above a title beside it does not)."""
    left = sum(1 for row in run if any(lines[k].x1 <= gap[0] for k in row))
    right = sum(1 for row in run if any(lines[k].x0 >= gap[1] for k in row))
    return left >= 2 and right >= 2


# A note marker or verse number: a few digits, a Hebrew numeral or an asterisk.
_MARKER = re.compile(r"\d{1,3}|[\u05d0-\u05ea]{1,2}[\u05f3\u05f4'\"]?|[*\u2020\u2021]")


def attach_markers(lines: list[RawLine], direction: Direction) -> list[RawLine]:
    """``lines`` with raised markers joined to the line they open (``5 וַיֹּאמֶר``).

    A verse number or a note's marker set small and raised before a line's first
    word is drawn apart from it, so it comes as an item of its own: read in place,
    it would open the line above or stand alone. It is joined, with a space, to the
    line whose start (its script's, or the page's on a right-to-left page) it stands
    at, within a few of that line's sizes. A note's call set the same way touching
    the end of a line's last word (a word processor's footnote reference) is joined
    to that word, without a space (and in mid-line, the rest of the printed line to
    it). A small number on a line's own baseline (a margin line number) is not raised
    and stays apart.
    """
    if len(lines) < 2:
        return lines
    gone: set[int] = set()
    for k, mark in enumerate(lines):
        if len(mark.text) > 4 or not _MARKER.fullmatch(mark.text.strip()):
            continue
        best: tuple[float, int] | None = None
        for j, ln in enumerate(lines):
            if j == k or j in gone or len(ln.text) <= 4 or mark.size > 0.92 * ln.size:
                continue
            raised = ln.y - mark.y
            if not 0.15 * ln.size <= raised <= 0.8 * ln.size:
                continue
            script = _script(lines, [j]) or direction
            starts = {script, direction} if direction == "R" else {script}
            for side in starts:
                gap = mark.x0 - ln.x1 if side == "R" else ln.x0 - mark.x1
                if -0.2 * ln.size <= gap <= 2.5 * ln.size and (best is None or gap < best[0]):
                    best = (gap, j)
        end = _call_end(lines, k, gone)
        if end is not None and (best is None or end[0] + 0.15 * mark.size < best[0]):
            # A call touching the word before it, a space before the next: a note's
            # call in mid-line, which cut the printed line in two; the line is whole.
            ln = lines[end[1]]
            ln.text = f"{ln.text}{mark.text.strip()}"
            ln.x0, ln.x1 = min(ln.x0, mark.x0), max(ln.x1, mark.x1)
            gone.add(k)
            if best is not None:
                rest = lines[best[1]]
                if abs(rest.y - ln.y) <= 0.2 * ln.size and not rest.cells:
                    ln.text = f"{ln.text} {rest.text}"
                    ln.x0, ln.x1 = min(ln.x0, rest.x0), max(ln.x1, rest.x1)
                    gone.add(best[1])
            continue
        if best is None:
            continue
        ln = lines[best[1]]
        ln.text = f"{mark.text.strip()} {ln.text}"
        ln.x0, ln.x1 = min(ln.x0, mark.x0), max(ln.x1, mark.x1)
        gone.add(k)
    return [ln for k, ln in enumerate(lines) if k not in gone] if gone else lines


_LETTERS = re.compile("[A-Za-z\u05d0-\u05ea]")


def _call_end(lines: list[RawLine], k: int, gone: set[int]) -> tuple[float, int] | None:
    """The line whose end the raised note call ``lines[k]`` touches (gap, index), else
    None: the call stands past the line's last letter in its script's direction, a
    fraction of an em away at most, and raised above the line's baseline."""
    mark = lines[k]
    if not mark.text.strip().isdigit():
        return None
    best: tuple[float, int] | None = None
    for j, ln in enumerate(lines):
        if j == k or j in gone or mark.size > 0.8 * ln.size:
            continue
        # The position first: the letters are counted on the few lines it leaves.
        if (
            not 0.1 * ln.size <= ln.y - mark.y <= 0.6 * ln.size
            or len(_LETTERS.findall(ln.text)) < 2
        ):
            continue
        script = _script(lines, [j])
        if not script:
            continue
        gap = ln.x0 - mark.x1 if script == "R" else mark.x0 - ln.x1
        if -0.1 * ln.size <= gap <= 0.3 * ln.size and (best is None or gap < best[0]):
            best = (gap, j)
    return best
