"""Columns that pdfium joins across a narrow gutter, cut apart again.

pdfium builds a line from everything on one baseline: on a page set in two columns
(a sefer, a bilingual edition) a line of text then holds both columns' lines. A
gutter is an x position where a wide gap recurs on many lines of the page; lines
that straddle it are cut there. Only the longest lines of a page are measured (a
few dozen characters' boxes), so a one-column page costs next to nothing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from statistics import median

__all__ = ["find_gutter", "split_at_gutter"]

# A gutter is at least this many font sizes wide; word spaces of justified text
# stay under it.
_MIN_GUTTER = 0.9
_SAMPLE = 10
_SPACES = re.compile(r"\s+")


def find_gutter(
    text: str,
    segments: list[tuple[int, int]],
    box: Callable[[int], tuple[float, float]],
    size: Callable[[int], float],
    boxes: Callable[[list[int]], list[tuple[float, float]]] | None = None,
) -> float | None:
    """The x of a gutter that cuts many of the page's longest lines, else None.

    Gaps are measured at the line's spaces (a gutter holds one in the text stream)
    unless it has none; only a candidate is checked letter by letter. ``boxes`` is
    ``box`` for many characters at once (a page's hundreds of calls in one loop).
    """
    if boxes is None:
        boxes = lambda indices: [box(i) for i in indices]  # noqa: E731
    longest = sorted(segments, key=lambda s: s[0] - s[1])[:_SAMPLE]
    longest = [s for s in longest if s[1] - s[0] >= 20]
    if len(longest) < 4:
        return None
    centers: list[float] = []
    extents: list[tuple[float, float, float]] = []  # per line: left, right, em
    need = 2  # lines with a wide gap (see below)
    for done, (a, b) in enumerate(longest):
        if len(centers) + len(longest) - done < need:
            return None  # too few lines left to show a gutter: a one-column page
        em = max(size(_letter_near(text, (a + b) // 2, b)), 1.0)
        (l0, r0), (l1, r1) = box(a), box(b - 1)
        left, right = min(l0, l1), max(r0, r1)
        if text.find(" ", a, b) >= 0:  # no slice
            gaps = []
            around: list[int] = []  # the letters either side of each space
            for m in _SPACES.finditer(text, a + 1, b - 1):
                around.append(m.start() - 1)
                around.append(m.end())
            beside_spaces = boxes(around)
            for k in range(0, len(beside_spaces), 2):  # a plain loop: the hot path
                p_lo, p_hi = beside_spaces[k]
                q_lo, q_hi = beside_spaces[k + 1]
                gaps.append((p_hi if p_hi < q_hi else q_hi, p_lo if p_lo > q_lo else q_lo))
                # The stream's ends need not be the line's (an OCR layer's words come
                # in any order): the words around the spaces say how far it reaches.
                if p_lo < left or q_lo < left:
                    left = min(p_lo, q_lo, left)
                if p_hi > right or q_hi > right:
                    right = max(p_hi, q_hi, right)
        else:
            spans = sorted(boxes([i for i in range(a, b) if not text[i].isspace()]))
            gaps = [(hi, lo) for (_, hi), (lo, _) in itertools.pairwise(spans)]
        extents.append((left, right, em))
        for hi, lo in gaps:
            # Text on both sides (a column each), not a list number and its tab.
            if lo - hi > _MIN_GUTTER * em and min(hi - left, right - lo) > 0.25 * (right - left):
                centers.append((lo + hi) / 2)
    if len(centers) < need:
        return None
    best: list[float] = []
    for c in centers:
        near = [d for d in centers if abs(d - c) < 6.0]
        if len(near) > len(best):
            best = near
    if len(best) < need:
        return None
    x = median(best)
    # Where the producer already parted most lines by column (an OCR layer), few
    # lines show the gutter as a gap; the others end at it, one column each.
    beside = sum(
        1
        for left, right, em in extents
        if (right < x and x - right < 3 * em) or (left > x and left - x < 3 * em)
    )
    if len(best) < max(3, len(longest) // 3) and len(best) + beside < len(longest) // 2:
        return None
    # A gutter is empty: on a page of one justified column, some line has a letter there.
    # Each line's boxes in one batch: reading them one by one, up to the first that
    # crosses, cost more (most lines cross halfway).
    allowed, crossed = len(longest) // 6, 0
    for a, b in longest:
        crossed += any(lo < x < hi for lo, hi in boxes(list(range(a, b))))
        if crossed > allowed:
            return None  # stop at once: this is what most one-column pages end with
    # Nor do the shorter lines run across it: a list whose items continue after a tab
    # stop has gaps that line up too, but its other lines cross them (a running
    # header or a title over both columns may: one, or a third of those lines).
    rest = [s for s in segments if s not in longest and _spans(s, x, box)]
    allowed, crossed = max(1, len(rest) // 3), 0
    for a, b in rest:
        crossed += any(lo < x < hi for lo, hi in boxes(list(range(a, b))))
        if crossed > allowed:
            return None
    return x


def _spans(segment: tuple[int, int], x: float, box: Callable[[int], tuple[float, float]]) -> bool:
    (l0, r0), (l1, r1) = box(segment[0]), box(segment[1] - 1)
    return min(l0, l1) < x < max(r0, r1)


def _letter_near(text: str, i: int, end: int) -> int:
    """The first index at or after ``i`` (before ``end``) that is not a space.

    A space pdfium inferred from a gap has font size 0: measured there, a line's em
    would be 1 pt and every word space would look as wide as a gutter.
    """
    while i < end - 1 and text[i].isspace():
        i += 1
    return i


def split_at_gutter(
    text: str,
    segments: list[tuple[int, int]],
    gutter: float,
    box: Callable[[int], tuple[float, float]],
) -> list[tuple[int, int]]:
    """The segments with those that straddle ``gutter`` cut there, pieces grouped by side."""
    out: list[tuple[int, int]] = []
    for a, b in segments:
        # Every letter's side: the stream's ends need not be the line's (an OCR
        # layer's words come in any order).
        sides = [(i, (sum(box(i)) / 2) > gutter) for i in range(a, b) if not text[i].isspace()]
        if len({right for _, right in sides}) < 2:
            out.append((a, b))
            continue
        runs: list[tuple[bool, int, int]] = []  # (right side, first index, last index)
        for i, right in sides:
            if runs and runs[-1][0] == right:
                runs[-1] = (right, runs[-1][1], i)
            else:
                runs.append((right, i, i))
        # Pieces of one side next to each other (the reader joins those that touch).
        for side in (True, False):
            out.extend((first, last + 1) for right, first, last in runs if right == side)
    return out
