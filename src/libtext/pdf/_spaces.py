"""Word spaces that neither the text stream nor pdfium's guess gave (no PDF access here).

pdfium infers a space where two glyphs' advance boxes stand apart. Two cases defeat
it: small slanted text, whose advance boxes lean over the gap between words, and a
change of font (roman to italic) with no space character, where the italic's first
advance box starts inside the gap. The ink boxes still stand apart: a gap of an eighth
of an em between two letters' ink, where the advance boxes overlap, the font changes
or the letters are slanted, is a word space.

The other way round, a letter-spaced word (a title page's ``א ו ר  ה ג נ ו ז``) comes
with a space between every two letters: its words are closed up, and a gap well wider
than its letters' is the word space.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["closed_letters", "lost_spaces"]

# A run of letters this long may hold two words run together (shorter ones are read
# as they are: the check costs a batch of boxes).
_RUN_LENGTH = 7
_RUN = re.compile(rf"[^\W\d_]{{{_RUN_LENGTH},}}")
# The ink gap (in font sizes) that parts two words where the stream gave no space,
# where the advance boxes overlap, the font changes or the letters are slanted (a
# slanted letter's box leans over the gap beside it). Elsewhere letters of one word
# may stand as far apart (a font set with tracking): the gap alone says nothing.
_INK_GAP = 0.12
# Advance boxes overlapping by this much (in font sizes) lean over a gap (within a
# word they abut).
_LEAN = 0.1


def lost_spaces(
    line: str,
    a: int,
    size: float,
    boxes: Callable[[list[int]], list[tuple[float, float]]],
    looses: Callable[[list[int]], list[float]],
    font: Callable[[int], int | None],
    slanted: Callable[[int], bool],
) -> str:
    """``line`` (character ``k`` is character ``a + k`` of the page) with the word
    spaces put back that the text lost; ``boxes`` gives ink boxes, ``looses`` advance
    boxes (flat), ``font`` a character's font and ``slanted`` whether it is drawn
    slanted, all by page index."""
    # A run of letters lies within a word between spaces: a line without a word that
    # long has none (most lines; the split costs far less than the search).
    for word in line.split():
        if len(word) >= _RUN_LENGTH:
            break
    else:
        return line
    runs = [(m.start(), m.end()) for m in _RUN.finditer(line)]
    if not runs:
        return line
    indices = [a + k for lo, hi in runs for k in range(lo, hi)]
    ink = boxes(indices)
    limit = _INK_GAP * size
    # The gaps wide enough in ink first; then their advance boxes, in one batch.
    wide: list[int] = []
    start = 0  # where the run's boxes begin in ``ink``
    for lo, hi in runs:
        for n in range(start + 1, start + hi - lo):
            (lp, rp), (lq, rq) = ink[n - 1], ink[n]
            if (lq if lq > lp else lp) - (rq if rq < rp else rp) > limit:  # max - min
                wide.append(lo + n - start)
        start += hi - lo
    if not wide:
        return line
    loose = looses([i for k in wide for i in (a + k - 1, a + k)])
    cuts: list[int] = []
    for j in range(len(wide)):
        k = wide[j]
        x0, x1, y0, y1 = loose[4 * j], loose[4 * j + 1], loose[4 * j + 2], loose[4 * j + 3]
        if (
            max(x0, y0) - min(x1, y1) < -_LEAN * size
            or font(a + k - 1) != font(a + k)
            or slanted(a + k - 1)
            or slanted(a + k)
        ):
            cuts.append(k)
    if not cuts:
        return line
    out: list[str] = []
    last = 0
    for k in cuts:
        out.append(line[last:k])
        last = k
    out.append(line[last:])
    return " ".join(out)


# Three or more single letters, each a space apart: letter-spaced words.
_SPACED = re.compile(r"(?<!\S)[^\W\d_](?: [^\W\d_]){2,}(?!\S)")
# A gap this many times the letters' usual gap parts two letter-spaced words.
_WORD_GAP = 1.6


def closed_letters(line: str, a: int, box: Callable[[int], tuple[float, float]]) -> str:
    """``line`` (character ``k`` is character ``a + k`` of the page) with its
    letter-spaced words closed up; ``box`` gives a character's advance box."""
    if " " not in line:
        return line
    found = list(_SPACED.finditer(line))
    if not found:
        return line
    out: list[str] = []
    last = 0
    for m in found:
        lo, hi = m.start(), m.end()
        gaps = []
        for k in range(lo + 2, hi, 2):
            (lp, rp), (lq, rq) = box(a + k - 2), box(a + k)
            gaps.append(max(lp, lq) - min(rp, rq))
        usual = sorted(gaps)[(len(gaps) - 1) // 2]
        word = [line[lo]]
        for n, k in enumerate(range(lo + 2, hi, 2)):
            if usual > 0 and gaps[n] > _WORD_GAP * usual:
                word.append(" ")
            word.append(line[k])
        out.append(line[last:lo])
        out.append("".join(word))
        last = hi
    out.append(line[last:])
    return "".join(out)
