"""Columns that pdfium joins across a narrow gutter, cut apart again.

pdfium builds a line from everything on one baseline: on a page set in two columns
(a sefer, a bilingual edition) a line of text then holds both columns' lines. A
gutter is an x position where a wide gap recurs on many lines of the page; lines
that straddle it are cut there. Only the longest lines of a page are measured (a
few dozen characters' boxes), so a one-column page costs next to nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from statistics import median

__all__ = ["find_gutter", "split_at_gutter"]

# A gutter is at least this many font sizes wide; word spaces of justified text
# stay under it.
_MIN_GUTTER = 0.9
_SAMPLE = 12


def find_gutter(
    text: str,
    segments: list[tuple[int, int]],
    box: Callable[[int], tuple[float, float]],
    size: Callable[[int], float],
) -> float | None:
    """The x of a gutter that cuts many of the page's longest lines, else None."""
    longest = sorted(segments, key=lambda s: s[0] - s[1])[:_SAMPLE]
    longest = [s for s in longest if s[1] - s[0] >= 20]
    if len(longest) < 4:
        return None
    centers: list[float] = []
    line_spans: list[list[tuple[float, float]]] = []
    for a, b in longest:
        em = max(size((a + b) // 2), 1.0)
        spans = sorted(box(i) for i in range(a, b) if not text[i].isspace())
        if not spans:
            continue
        line_spans.append(spans)
        left, right = spans[0][0], spans[-1][1]
        for (_, hi), (lo, _) in itertools.pairwise(spans):
            # Text on both sides (a column each), not a list number and its tab.
            if lo - hi > _MIN_GUTTER * em and min(hi - left, right - lo) > 0.25 * (right - left):
                centers.append((lo + hi) / 2)
    if len(centers) < 4:
        return None
    best: list[float] = []
    for c in centers:
        near = [d for d in centers if abs(d - c) < 6.0]
        if len(near) > len(best):
            best = near
    if len(best) < max(4, len(longest) // 2):
        return None
    x = median(best)
    # A gutter is empty: on a page of one justified column, some line has a letter there.
    crossed = sum(any(lo < x < hi for lo, hi in spans) for spans in line_spans)
    return x if crossed <= len(line_spans) // 6 else None


def split_at_gutter(
    text: str,
    segments: list[tuple[int, int]],
    gutter: float,
    box: Callable[[int], tuple[float, float]],
) -> list[tuple[int, int]]:
    """The segments with those that straddle ``gutter`` cut in two (where the stream allows)."""
    out: list[tuple[int, int]] = []
    for a, b in segments:
        (l0, r0), (l1, r1) = box(a), box(b - 1)
        if not min(l0, l1) < gutter < max(r0, r1):
            out.append((a, b))
            continue
        sides = [(i, (sum(box(i)) / 2) > gutter) for i in range(a, b) if not text[i].isspace()]
        cuts = [k for k in range(1, len(sides)) if sides[k][1] != sides[k - 1][1]]
        if len(cuts) != 1:
            out.append((a, b))  # interleaved in the stream: leave it whole
            continue
        k = cuts[0]
        end, start = sides[k - 1][0] + 1, sides[k][0]
        out.extend(((a, end), (start, b)))
    return out
