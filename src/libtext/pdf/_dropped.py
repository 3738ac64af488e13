"""Glyphs pdfium leaves out of a page's text because of a misplaced /ActualText.

InDesign marks a right-to-left list number oddly: the digit's glyph carries the
replacement text of the tab after it (``/ActualText (\\t)``) and the next glyph, a
space, carries the digit's. pdfium then gives neither glyph any character, so
``4. text`` reads ``. text``. A replacement text says what glyphs mean (PDF
32000-1, 14.9.4): where it makes them say nothing at all, the glyphs' own text is
the better reading.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["LOST_LABEL", "lost_label", "restore_dropped"]

# A line that starts with a list number's punctuation alone: its number is missing.
LOST_LABEL = re.compile(r"(?:^|\n)[.)\]:] ")
# The same after a line break: a pattern that starts with a literal lets the regex
# engine jump from break to break (``(?:^|\n)`` is tried at every character).
_LOST_AFTER_BREAK = re.compile(r"\n[.)\]:] ")
_LOST_AT_START = frozenset((". ", ") ", "] ", ": "))


def lost_label(text: str) -> bool:
    """Whether a line of ``text`` starts as :data:`LOST_LABEL` says (its search, a
    page's text at a time, cost a few percent of the fast engine's time)."""
    return text[:2] in _LOST_AT_START or _LOST_AFTER_BREAK.search(text) is not None


def restore_dropped(raw: Any, page: Any, textpage: Any) -> bool:
    """Remove /ActualText marks from text objects that gave no characters at all.

    Returns whether any mark was removed (the page's text must then be read again:
    the change is in memory only, the file is untouched).
    """
    removed = False
    for k in range(int(raw.FPDFPage_CountObjects(page))):
        obj = raw.FPDFPage_GetObject(page, k)
        if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_TEXT:
            continue
        marks = int(raw.FPDFPageObj_CountMarks(obj))
        if not marks:
            continue
        # The length in bytes of the object's text with its terminator: 2 is none.
        if int(raw.FPDFTextObj_GetText(obj, textpage, None, 0)) > 2:
            continue
        for j in range(marks - 1, -1, -1):
            mark = raw.FPDFPageObj_GetMark(obj, j)
            if raw.FPDFPageObjMark_GetParamValueType(mark, b"ActualText") == (
                raw.FPDF_OBJECT_STRING
            ) and raw.FPDFPageObj_RemoveMark(obj, mark):
                removed = True
    return removed
