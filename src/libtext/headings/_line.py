"""Whether a line is written like a heading (``פרק ג``, ``השער הראשון``, ``הקדמה``).

In a low module: the offline outline (:mod:`libtext.headings`), the printed table of
contents and the declared headings all read lines with it, without importing each other.
"""

from __future__ import annotations

import re

from libtext.hebrew import parse_numeral

__all__ = ["HEADING_LINE", "HEADING_WORDS", "parse_heading", "without_gloss"]

_GLOSS = re.compile(r"\s[(\[][^()\[\]]+[)\]]$")


def without_gloss(title: str) -> str:
    """A chapter's title without the gloss in brackets that ends it
    (``חפשו בעיה גופנית (הגורמת למצב)``): a segment's full title keeps it."""
    m = _GLOSS.search(title)
    if m is None or len(title[: m.start()].split()) < 2:
        return title
    return title[: m.start()].rstrip(" :–-")


HEADING_WORDS = (
    "פרק", "סימן", "שער", "אות", "חלק", "מאמר", "ספר", "הלכה", "הלכות", "מזמור",
    "דרוש", "שיחה", "אגרת", "קונטרס", "תורה", "ענין", "עניין", "פסקה", "משנה",
    "דף", "מצוה", "מצווה", "שורש", "כלל", "עיקר", "יסוד", "מדה", "מידה", "פתח",
    "פרשה", "פרשת", "שאלה", "תשובה", "סעיף", "מאמר", "נתיב", "היכל", "בית",
)  # fmt: skip
"""Words that open a numbered heading (``פרק ג``, ``סימן יא``, ``שער הא``)."""

_UNNUMBERED = (
    "הקדמה", "הקדמת", "פתיחה", "פתח דבר", "מבוא", "הסכמה", "הסכמות", "סיום", "מפתח",
    "תוכן", "מילואים", "הוספה", "הוספות", "נספח", "אחרית דבר", "הערות",
)  # fmt: skip

_ORDINALS = {
    "ראשון": 1, "שני": 2, "שלישי": 3, "רביעי": 4, "חמישי": 5, "ששי": 6, "שישי": 6,
    "שביעי": 7, "שמיני": 8, "תשיעי": 9, "עשירי": 10,
    "ראשונה": 1, "שניה": 2, "שנייה": 2, "שלישית": 3, "רביעית": 4, "חמישית": 5,
    "ששית": 6, "שישית": 6, "שביעית": 7, "שמינית": 8, "תשיעית": 9, "עשירית": 10,
}  # fmt: skip
"""Ordinal words, masculine and feminine (``שער שני``, ``אות שניה``)."""

_NUM = r"(?P<num>[א-ת]{1,4}(?:['\"׳״][א-ת]?)?|\d{1,4})"
_WORDS = "|".join(sorted(set(HEADING_WORDS), key=len, reverse=True))
_ORD = "|".join(sorted(_ORDINALS, key=len, reverse=True))
HEADING_LINE = re.compile(
    # "השער הראשון": the definite article on both words; else "שער ראשון", "שער א".
    rf"^(?:ה(?P<dword>{_WORDS})\s+ה(?P<dord>{_ORD})|(?P<word>{_WORDS})\s+"
    rf"(?:ה?(?P<ord>{_ORD})(?![א-ת])|{_NUM}))"
    r"['\"׳״]?(?:\s*[-–—:.,]\s*(?P<title>.*\S))?\s*[.:]?$"
)
"""A whole line that is a numbered heading: heading word, numeral, optional title."""


def parse_heading(text: str, *, loose: bool = False) -> tuple[str, int | None] | None:
    """``("פרק", 3)`` for ``פרק ג``; ``("", None)`` for unnumbered headings like
    ``הקדמה``; ``None`` when the line is not written like a heading.

    With ``loose`` (for lines the layout already shows are headings), a title may
    follow the numeral without a separator: ``פרק ג מעלת התורה``.
    """
    line = " ".join(text.split())
    m = HEADING_LINE.match(line)
    if m is None and loose:
        words = line.split(" ", 2)
        if len(words) == 3:
            head = parse_heading(" ".join(words[:2]))
            if head is not None and head[0]:
                return head
    if m:
        word = m.group("word") or m.group("dword")
        ordinal = m.group("ord") or m.group("dord")
        if ordinal:
            return word, _ORDINALS[ordinal]
        num = m.group("num")
        value = int(num) if num.isdigit() else parse_numeral(num, spelled=True)
        if value is not None:
            return word, value
        return None
    if any(line == w or line.startswith(w + " ") for w in _UNNUMBERED) and len(line.split()) <= 8:
        return "", None
    return None
