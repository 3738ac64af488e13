"""A line's text repaired from its glyphs' positions where pdfium's order is wrong.

Each repair reads the boxes of a few characters of one line (through
:class:`~libtext.pdf._reader.Boxes`): marks put after their letters and the spaces
pdfium invents inside pointed words dropped (:func:`fix_marks`), runs of punctuation
and a leading note number put in right-to-left order, brackets put on the side of the
space where they are drawn, and ligature letters pdfium reversed put back. The
reader (:mod:`._read`) decides which line needs which.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable

from libtext.pdf._reader import Boxes
from libtext.pdf._text import attach_marks, is_mark, line_direction, neutral_run_direction

__all__ = [
    "BRACKET_SPACE",
    "LEAD_NUMBER",
    "LEFT_STOP",
    "PUNCT_RUN",
    "bracket_spaces",
    "fix_marks",
    "ligatures_in_order",
    "order_leading_number",
    "order_punctuation",
]

_HEBREW = re.compile("[\u05d0-\u05ea]")
PUNCT_RUN = re.compile(r"[^\w\s]{2,}")
"""Two or more punctuation marks in a row (their order may be pdfium's guess)."""
LEAD_NUMBER = re.compile(r"(?<![.,:;])([.,:;]++)(\d{1,4})(?=\s)")
"""A line's leading note number as pdfium gives it on a right-to-left line (``.1``)."""
# Under nikud, pdfium inserts spaces inside words; a real space is wider than this.
_WORD_GAP = 0.2


def ligatures_in_order(line: str, box: Callable[[int], tuple[float, float]]) -> str:
    """Put back in order the letters of ligature glyphs that pdfium reversed.

    A font maps a ligature glyph to its letters with a joiner between them (``א‍ל``,
    alef ZWJ lamed). The letters share the glyph's box, and when pdfium turns a
    right-to-left line drawn left to right into logical order it reverses them with
    the glyphs (``ל‍א``); the mapping's own order is the logical one. ``box(k)`` is
    the box of ``line[k]``.
    """
    if line_direction(line) != "R":
        return line
    chars = list(line)
    k = 0
    while k < len(chars):
        if chars[k] not in "\u200c\u200d":
            k += 1
            continue
        own = box(k)
        first, last = k, k
        while first > 0 and box(first - 1) == own:
            first -= 1
        while last + 1 < len(chars) and box(last + 1) == own:
            last += 1
        glyph = chars[first : last + 1]
        if last > first and any(_HEBREW.match(ch) for ch in glyph):
            chars[first : last + 1] = glyph[::-1]
        k = last + 1
    return "".join(chars)


def fix_marks(r: Boxes, text: str, idx: list[int], size: float) -> str:
    """Put each mark after its letter and drop the spaces pdfium invents inside words."""
    chars = [text[i] for i in idx]
    boxes = [r.box(i) for i in idx]
    _drop_unmapped_glyphs(r, idx, chars, boxes, size)
    centers = [(lo + hi) / 2 for lo, hi in boxes]
    owner = attach_marks(chars, centers, boxes, tolerance=0.15 * size)
    marks: dict[int, list[str]] = {}
    for k, o in enumerate(owner):
        if o != k:
            marks.setdefault(o, []).append(chars[k])
    bases = [k for k in range(len(chars)) if owner[k] == k and not chars[k].isspace()]
    out: list[str] = []
    for n, run in enumerate(_runs(chars, boxes, bases, size)):
        if n:
            out.append(" ")
        prev: int | None = None
        for k in run:
            if prev is not None and any(chars[j].isspace() for j in range(prev + 1, k)):
                (lp, rp), (lq, rq) = boxes[prev], boxes[k]
                gap = max(lp, lq) - min(rp, rq)
                hebrew = "\u05d0" <= chars[prev] <= "\u05ea" and "\u05d0" <= chars[k] <= "\u05ea"
                if not (hebrew and gap < _WORD_GAP * size):
                    out.append(" ")
            out.append(chars[k])
            out.extend(marks.get(k, ()))
            prev = k
    return unicodedata.normalize("NFC", "".join(out))


def _runs(
    chars: list[str], boxes: list[tuple[float, float]], bases: list[int], size: float
) -> list[list[int]]:
    """The base letters in reading order, as runs.

    On a right-to-left line each letter is left of the one before (or a little right
    of it, inside a number or a Latin word). When pdfium loses its way, usually on a
    justified line whose words are drawn one by one and carry points, the text jumps
    back to the right: the runs are then ordered from right to left.
    """
    if not bases:
        return []
    runs = [[bases[0]]]
    for prev, k in itertools.pairwise(bases):
        if boxes[k][0] > boxes[prev][1] + 2 * size:
            runs.append([])
        runs[-1].append(k)
    if len(runs) > 1 and line_direction("".join(chars)) == "R":
        runs.sort(key=lambda run: -max(boxes[k][1] for k in run))
    return runs


def _drop_unmapped_glyphs(
    r: Boxes, idx: list[int], chars: list[str], boxes: list[tuple[float, float]], size: float
) -> None:
    """Drop the stray characters of precomposed pointed letters (in place).

    Some fonts draw a pointed letter (``פְּ``) as one glyph; its text then comes out
    as the letter and its marks with a sliver of a box, plus one more character for
    the glyph itself: pdfium's guess when the glyph has no Unicode mapping (``0``),
    or whatever a faulty mapping says (``&``). That character is dropped and its box,
    the real extent of the letter, is lent to the letter it covers.
    """
    stray = [
        k
        for k in range(len(chars))
        if not ("\u05d0" <= chars[k] <= "\u05ea" or is_mark(chars[k]) or chars[k].isspace())
    ]
    for k in reversed(stray):
        lo, hi = boxes[k]
        unmapped: bool | None = None
        for j in range(max(0, k - 4), min(len(chars), k + 4)):
            if j == k or not "\u05d0" <= chars[j] <= "\u05ea":
                continue
            blo, bhi = boxes[j]
            if not (lo - 0.5 <= blo and bhi <= hi + 0.5):
                # Some fonts (Miriam) draw the glyph beside the letter's sliver: an
                # unmapped glyph touching a sliver takes its place too.
                gap = max(lo, blo) - min(hi, bhi)
                if gap > 0.25 * size or bhi - blo >= 0.15 * size:
                    continue
                if unmapped is None:
                    unmapped = bool(r.raw.FPDFText_HasUnicodeMapError(r.tp, idx[k]))
                if not unmapped:
                    continue
                boxes[j] = (min(lo, blo), max(hi, bhi))
                del chars[k], boxes[k], idx[k]
                break
            # A letter drawn inside a precomposed glyph has a sliver of a box, the
            # same box as its marks.
            sliver = bhi - blo < 0.15 * size or any(
                is_mark(chars[m]) and abs(boxes[m][0] - blo) + abs(boxes[m][1] - bhi) < 0.05
                for m in (j - 1, j + 1, j - 2)
                if 0 <= m < len(chars)
            )
            if not sliver:
                if unmapped is None:
                    unmapped = bool(r.raw.FPDFText_HasUnicodeMapError(r.tp, idx[k]))
                if not unmapped:
                    continue  # a real letter under real punctuation: keep both
            boxes[j] = (lo, hi)
            del chars[k], boxes[k], idx[k]
            break


def order_punctuation(r: Boxes, line: str, a: int) -> str:
    """Put runs of punctuation between right-to-left text in right-to-left order.

    pdfium can swap adjacent neutral marks after a parenthesis (``(א):.`` for
    ``(א).:``); their positions on the page say the order.
    """
    chars = list(line)
    for m in PUNCT_RUN.finditer(line):
        start, end = m.span()
        if neutral_run_direction(line, start, end) != "R":
            continue
        centers = {k: sum(r.box(a + k)) / 2 for k in range(start, end)}
        chars[start:end] = [line[k] for k in sorted(centers, key=lambda k: -centers[k])]
    return "".join(chars)


def order_leading_number(r: Boxes, line: str, a: int) -> str:
    """Put a right-to-left line's leading ``1.`` back in logical order.

    pdfium gives a note number followed by a full stop at the start of a Hebrew line
    as ``.1``; the glyphs' positions say which comes first (on a right-to-left line,
    the one on the right).
    """
    m = LEAD_NUMBER.match(line)
    if m is None or line_direction(line) != "R":
        return line
    punct, digits = m.group(1), m.group(2)
    p_center = sum(r.box(a)) / 2
    d_center = sum(r.box(a + len(punct))) / 2
    if p_center < d_center:  # the mark is on the left: it follows the number
        return digits + punct + line[m.end() :]
    return line


# A bracket between a letter and a space, a letter after the space: ``X) Y``, ``X (Y``.
BRACKET_SPACE = re.compile(r"\w[()\[\]] \w|\w [()\[\]]\w")


def bracket_spaces(r: Boxes, line: str, a: int, size: float) -> str:
    """``line`` with each bracket on the side of the space where it is drawn.

    A browser writes the space of a right-to-left line's bracket run on the wrong
    side of the bracket (``למקומו) אבות``) and draws it with no width; the drawn gap
    says where the space is: the bracket touches the word it belongs to.
    """

    def apart(i: int, j: int) -> float:
        (lo_i, hi_i), (lo_j, hi_j) = r.box(a + i), r.box(a + j)
        return max(lo_i, lo_j) - min(hi_i, hi_j)

    chars = list(line)
    for m in BRACKET_SPACE.finditer(line):
        i = m.start()
        if chars[i + 2] == " ":  # X) Y: the bracket drawn against Y
            near, far, swap = i + 3, i, (i + 1, i + 2)
        else:  # X (Y: the bracket drawn against X
            near, far, swap = i, i + 3, (i + 1, i + 2)
        bracket = swap[0] if chars[swap[0]] != " " else swap[1]
        if apart(bracket, near) < 0.1 * size and apart(far, bracket) > 0.15 * size:
            p, q = swap
            chars[p], chars[q] = chars[q], chars[p]
    return "".join(chars)


# A Latin line of a right-to-left paragraph (a table cell, a term) that ends in a full
# stop is drawn with the stop on its left, where the paragraph's direction puts it;
# pdfium hands it over as drawn (``.Gen``). Latin text never starts with a lone stop.
LEFT_STOP = re.compile(r"^([.,:;!?])([A-Za-z](?:.*[A-Za-z0-9)\]])?)$")
