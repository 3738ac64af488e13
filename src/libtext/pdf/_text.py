"""Pure text repairs for lines read from a PDF in logical order (no PDF access here).

Two defects of pdfium's logical text are fixed:

* Brackets mirrored next to Hebrew. A shaper (HarfBuzz, InDesign, Word) draws ``(``
  in a right-to-left run with the mirrored glyph ``)``; pdfium reports the glyph's
  character, so ``(א)`` comes out as ``)א(``. Which brackets were mirrored follows
  from the Unicode bidi algorithm (rules W7, N0-N2): exactly those whose resolved
  direction is right-to-left. Whether a given PDF has the defect at all is decided
  by a vote over the whole document (:func:`bracket_votes`), so a PDF whose text
  layer already holds logical brackets is left alone.
* Nikud before its letter. pdfium sorts points by their x position, so a mark can
  precede its base letter; :func:`attach_marks` moves each mark to the letter whose
  glyph box holds it (see ``libtext.pdf``) and the line is NFC-normalized.
"""

from __future__ import annotations

import bisect
import itertools
import re
import unicodedata
from collections.abc import Sequence
from typing import Literal

__all__ = [
    "MIRROR",
    "bracket_directions",
    "bracket_votes",
    "brackets_outside_numbers",
    "is_mark",
    "line_direction",
    "mirror_rtl_brackets",
    "neutral_run_direction",
]

Direction = Literal["L", "R"]

MIRROR: dict[str, str] = {
    "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{",
    "<": ">", ">": "<", "«": "»", "»": "«", "‹": "›", "›": "‹",
}  # fmt: skip
_OPENERS = "([{<«‹"
_MIRRORED = re.compile("[" + re.escape("".join(MIRROR)) + "]")


def is_mark(ch: str) -> bool:
    """True for Hebrew points and cantillation (not maqaf, paseq, sof pasuq)."""
    if len(ch) != 1:
        return False
    o = ord(ch)
    return 0x0591 <= o <= 0x05C7 and o not in (0x05BE, 0x05C0, 0x05C3, 0x05C6)


def _strong(ch: str) -> str | None:
    bidi = unicodedata.bidirectional(ch)
    if bidi in ("R", "AL"):
        return "R"
    if bidi == "L":
        return "L"
    if bidi in ("EN", "AN"):
        return bidi
    return None


def line_direction(text: str, default: Direction = "R") -> Direction:
    """Paragraph direction of a line: that of its first strong character (P2-P3).

    A line without letters takes ``default`` (the document's direction).
    """
    for ch in text:
        s = _strong(ch)
        if s in ("R", "L"):
            return "R" if s == "R" else "L"
    return default


def _strong_types(text: str, base: Direction) -> list[Direction | None]:
    """Per character: 'L', 'R' or None (neutral); numbers resolved as in W7/N1."""
    out: list[Direction | None] = []
    last: Direction = base
    for ch in text:
        s = _strong(ch)
        if s == "R" or s == "L":
            last = "R" if s == "R" else "L"
            out.append(last)
        elif s == "EN":
            out.append("L" if last == "L" else "R")  # W7, then N1: numbers act as R
        elif s == "AN":
            out.append("R")
        else:
            out.append(None)
    return out


def neutral_run_direction(text: str, start: int, end: int) -> Direction | None:
    """Direction of the neutral run ``text[start:end]`` when its two sides agree (N1)."""
    base = line_direction(text)
    before = _nearest_type(text, range(start - 1, -1, -1), base)
    after = _nearest_type(text, range(end, len(text)), base)
    return before if before == after else None


def _nearest_type(text: str, where: range, base: Direction) -> Direction:
    """The first of ``where``'s characters that is not neutral, typed as in
    :func:`_strong_types` (a line's runs are short: no need to type the whole line)."""
    for i in where:
        s = _strong(text[i])
        if s == "R" or s == "AN":
            return "R"
        if s == "L":
            return "L"
        if s == "EN":  # W7: as the last strong letter before it
            last = _nearest_letter(text, i, base)
            return "L" if last == "L" else "R"
    return base


def _nearest_letter(text: str, i: int, base: Direction) -> Direction:
    for j in range(i - 1, -1, -1):
        s = _strong(text[j])
        if s == "R" or s == "L":
            return "R" if s == "R" else "L"
    return base


def bracket_directions(
    text: str, base: Direction | None = None, *, default: Direction = "R"
) -> dict[int, Direction]:
    """Resolved direction of each bracket in ``text`` (a line as pdfium gives it).

    Neutral rule first (N1/N2: the direction of the surrounding strong text when both
    sides agree, else the paragraph's), then paired brackets get one direction from
    their content and context (N0). Pairs are found after mirroring the right-to-left
    ones, since that is the text the author typed.
    """
    positions = [m.start() for m in _MIRRORED.finditer(text)]  # most lines: none
    if not positions:
        return {}
    base = base or line_direction(text, default)
    types = _strong_types(text, base)
    n = len(text)

    def before(i: int) -> Direction:
        for j in range(i - 1, -1, -1):
            t = types[j]
            if t is not None:
                return t
        return base

    def after(i: int) -> Direction:
        for j in range(i + 1, n):
            t = types[j]
            if t is not None:
                return t
        return base

    dirs: dict[int, Direction] = {}
    for i in positions:
        b, a = before(i), after(i)
        dirs[i] = b if b == a else base
    # N0 on the pairs of the typed text.
    typed = {i: (MIRROR[text[i]] if dirs[i] == "R" else text[i]) for i in positions}
    stack: list[int] = []
    for i in positions:
        ch = typed[i]
        if ch in _OPENERS:
            stack.append(i)
            continue
        for k in range(len(stack) - 1, -1, -1):
            if MIRROR[typed[stack[k]]] == ch:
                o = stack[k]
                del stack[k:]
                inner = {t for t in types[o + 1 : i] if t is not None}
                if base in inner:
                    d: Direction = base
                elif inner:
                    opposite: Direction = "L" if base == "R" else "R"
                    d = opposite if before(o) == opposite else base
                else:
                    b, a = before(o), after(i)
                    d = b if b == a else base
                dirs[o] = dirs[i] = d
                break
    return dirs


def bracket_votes(text: str) -> tuple[int, int]:
    """Evidence from one line: (looks mirrored, looks logical).

    In the right-to-left brackets of a line, a closer that opens a pair (``)…(``)
    shows mirroring; a proper ``(…)`` shows a text layer that is already logical.
    """
    dirs = bracket_directions(text)
    seq = [text[i] for i in sorted(dirs) if dirs[i] == "R"]
    mirrored = logical = 0
    for a, b in itertools.pairwise(seq):
        if MIRROR[a] == b:
            if a in _OPENERS:
                logical += 1
            else:
                mirrored += 1
    return mirrored, logical


# A closing bracket at a number's start: it belongs after the number (an OCR layer
# boxes ``82)`` as one word and may set the bracket between the word before and the
# digits), when it closes a bracket opened before it, or when it ends a line's label
# (``)1 text`` for ``1) text``).
_CLOSER_BEFORE_NUMBER = re.compile(r"(?<!\S)([)\]])(\d(?:[\d,.\-–]*\d)?)(?=$|\s|[.,;:])")
_LABEL_CLOSER_FIRST = re.compile(r"^([)\]])(\d{1,3})(?=\s+\w)")
_OPENER_OF = {")": "(", "]": "["}


def brackets_outside_numbers(text: str) -> str:
    """``text`` with a closing bracket that stands before a number put after it: a
    closer never opens a word. Left alone where the bracket closes nothing (brackets
    mirrored the wrong way round: moving one would not mend them)."""
    if not any(ch.isdigit() for ch in text):
        return text
    text = _LABEL_CLOSER_FIRST.sub(r"\2\1", text)
    out: list[str] = []
    last = 0
    for m in _CLOSER_BEFORE_NUMBER.finditer(text):
        closer = m.group(1)
        before = text[: m.start()]
        if before.count(_OPENER_OF[closer]) <= before.count(closer):
            continue  # it closes nothing opened before it
        out.append(text[last : m.start()] + m.group(2) + closer)
        last = m.end()
    if not out:
        return text
    return "".join(out) + text[last:]


def mirror_rtl_brackets(text: str, default: Direction = "R") -> str:
    """Swap every bracket whose resolved direction is right-to-left.

    ``default`` is the direction of a line without letters (e.g. ``)1(``).
    """
    dirs = bracket_directions(text, default=default)
    if not dirs:
        return text
    chars = list(text)
    for i, d in dirs.items():
        if d == "R":
            chars[i] = MIRROR[chars[i]]
    return "".join(chars)


# Marks drawn at the top left of their letter: over the gap to the next letter.
_LEFT_MARKS = frozenset("\u05b9\u05ba\u05c2")
_SHIN_DOTS = frozenset("\u05c1\u05c2")


def attach_marks(
    chars: Sequence[str],
    centers: Sequence[float],
    boxes: Sequence[tuple[float, float]],
    tolerance: float = 1.5,
) -> list[int]:
    """For each character, the index of the base letter it belongs to (itself if a base).

    A mark goes to one of the base letters just before and just after it in pdfium's
    order (skipping spaces and other marks): the one whose glyph box holds the mark's
    center, else the nearest. Holam and the sin dot sit at their letter's top left,
    over the gap to the next letter, so for them the letter on the right wins a near
    tie (within ``tolerance`` points); shin/sin dots go to a shin when one is there.
    """
    n = len(chars)
    owner = list(range(n))
    bases = [i for i in range(n) if not is_mark(chars[i]) and not chars[i].isspace()]
    if not bases:
        return owner
    for i in range(n):
        ch = chars[i]
        if not is_mark(ch):
            continue
        k = bisect.bisect_left(bases, i)
        cands = [bases[j] for j in (k - 1, k) if 0 <= j < len(bases)]
        x = centers[i]

        def dist(b: int, x: float = x) -> float:
            lo, hi = boxes[b]
            return 0.0 if lo <= x <= hi else min(abs(x - lo), abs(x - hi))

        if all(dist(b) > 8 * tolerance for b in cands):
            # Far from both neighbours in pdfium's order (a point drawn apart from its
            # word): the one letter whose box holds it.
            holders = [b for b in bases if dist(b) == 0.0]
            if len(holders) == 1:
                owner[i] = holders[0]
                continue
        if ch in _SHIN_DOTS:
            if not any(chars[b] == "ש" for b in cands):
                # pdfium set the dot apart from its shin: the nearest shin, if close.
                shins = sorted((b for b in bases if chars[b] == "ש"), key=dist)
                if shins and dist(shins[0]) <= 4 * tolerance:
                    owner[i] = shins[0]
                    continue
            else:
                cands = [b for b in cands if chars[b] == "ש"]
        inside = [b for b in cands if dist(b) == 0.0]
        if len(inside) == 1:
            owner[i] = inside[0]
            continue
        if ch in _LEFT_MARKS:
            right = max(cands, key=lambda b: boxes[b][0])
            if dist(right) <= tolerance:
                owner[i] = right
                continue
        owner[i] = min(cands, key=lambda b: (dist(b), 0 if b > i else 1))
    return owner
