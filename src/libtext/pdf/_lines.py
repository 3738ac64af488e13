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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from libtext.pdf._read import RawLine
    from libtext.pdf._visual import Direction

__all__ = ["join_labels"]

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
