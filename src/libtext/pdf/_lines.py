"""Lines of one baseline that pdfium gives apart but a reader reads as one.

A list's number and a siddur's speaker label (``ש״ץ׃``) are set off from their text by
a tab or a hanging indent, often in another font or size: pdfium then makes them lines
of their own, and the number's line (``1.``) lands before or after its text in the
reading order. A label stands at the line's start (the right on a right-to-left
page), a little apart from the text on the same baseline: it is put back in front of
that text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from libtext.pdf._read import RawLine
    from libtext.pdf._visual import Direction

__all__ = ["join_labels", "margin_number"]

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


def join_labels(lines: list[RawLine], direction: Direction, gutter: float | None) -> list[RawLine]:
    """``lines`` with each label joined to the text it introduces (see the module)."""
    if len(lines) < 2:
        return lines
    order = sorted(range(len(lines)), key=lambda k: lines[k].y)
    gone: set[int] = set()
    start = 0
    while start < len(order):
        end = start + 1
        first = lines[order[start]]
        while end < len(order) and abs(lines[order[end]].y - first.y) <= 0.3 * max(
            min(first.size, lines[order[end]].size), 1.0
        ):
            end += 1
        if end - start > 1:
            group = [k for k in order[start:end] if k not in gone]
            _join_group(group, lines, direction, gutter, gone)
        start = end
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


# A margin line number is this much smaller than its line's text, at least...
_MARGIN_SIZE = 0.9
# ... and set this many of the line's font sizes apart from it (a word space is ~0.3).
_MARGIN_GAP = 0.8


def margin_number(
    text: str,
    a: int,
    b: int,
    box: Callable[[int], tuple[float, float]],
    size: Callable[[int], float],
) -> tuple[int, int] | None:
    """The span of a margin line number that pdfium put at an end of ``text[a:b]``.

    Editions that number every fifth line set the number in the margin, smaller than
    the text and beyond the column's edge: on the line's baseline, so pdfium makes
    it part of the line ("land of Hav- 5"). A number of 1 to 4 digits alone at an end,
    clearly smaller than the line's letters and farther from them than a word space,
    is such a number: not part of the line. (A verse number or a list number stands
    a word space from its text.)
    """
    if b - a < 6:
        return None
    mid = (a + b) // 2
    while mid < b - 1 and not text[mid].isalpha():
        mid += 1
    em = size(mid)
    if em <= 0 or not text[mid].isalpha():
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
