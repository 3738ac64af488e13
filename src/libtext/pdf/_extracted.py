"""A page's raw lines made into the extraction's lines (compiled with the twin).

A book has tens of thousands of lines: this loop runs once per line, so it sits in a
module of its own that the compiled twin holds (see :mod:`libtext.pdf._compiled`);
so does the document's bracket repair, which looks at every line too.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from libtext.models import ExtractedLine, LineKind
from libtext.pdf._layout import side_notes_in_place
from libtext.pdf._read import RawLine, RawPage
from libtext.pdf._text import bracket_votes, brackets_outside_numbers, mirror_rtl_brackets
from libtext.pdf._visual import valid_texts

__all__ = ["extracted_lines", "fix_brackets"]

_LINE_FIELDS = frozenset(ExtractedLine.model_fields)


def extracted_lines(raw: list[RawLine], kinds: list[LineKind]) -> list[ExtractedLine]:
    """A page's (or a spread half's) lines with their kinds, margin notes in place."""
    texts = valid_texts([ln.text for ln in raw])
    out: list[ExtractedLine] = []
    for k in side_notes_in_place(raw, kinds):
        ln = raw[k]
        values: dict[str, Any] = {
            "text": texts[k],
            "kind": kinds[k],
            "size": ln.size,
            "bold": ln.bold,
            "y": ln.y,
            "x0": round(ln.x0, 2),
            "x1": round(ln.x1, 2),
        }
        out.append(_line(values))
    return out


def _line(values: dict[str, Any]) -> ExtractedLine:
    """``ExtractedLine.model_construct(**values)`` with every field given, at a tenth
    of its cost: a book has tens of thousands of lines, and pydantic's general path
    (defaults, aliases, extras, per field) cost more than a page's text layout.
    The values are the reader's own, valid by construction, as for model_construct.
    """
    line = ExtractedLine.__new__(ExtractedLine)
    setattr_ = object.__setattr__
    setattr_(line, "__dict__", values)
    setattr_(line, "__pydantic_fields_set__", set(_LINE_FIELDS))
    setattr_(line, "__pydantic_extra__", None)
    setattr_(line, "__pydantic_private__", None)
    return line


_RTL_LETTER = re.compile("[\u05d0-\u05ea\u0620-\u064a\ufb1d-\ufefc]")
_RTL_RUN = re.compile("[\u05d0-\u05ea\u0620-\u064a\ufb1d-\ufefc]+")
_LETTER_RUN = re.compile(r"[^\W\d_]+")
_BRACKET = re.compile("[()\\[\\]{}<>«»‹›]")  # a search: a fifth of a set's time on a line


def fix_brackets(pages: list[RawPage]) -> None:
    """Mirror right-to-left brackets back, if the document's lines show the defect.

    A document without Hebrew (or other right-to-left) letters is left alone; lines
    without letters take the document's direction. The vote stops early once one
    side clearly wins: a few dozen lines settle it. Then, on every line, a bracket on
    the wrong side of a number (``)82``, as an OCR layer may box it) goes outside it.
    """
    sample = "".join(ln.text for p in pages[:30] for ln in p.lines)
    if not _RTL_LETTER.search(sample):
        return
    # Mirroring swaps brackets for brackets: the lines that hold one stay those.
    bracketed = [ln for p in pages for ln in p.lines if _BRACKET.search(ln.text)]
    candidates = [ln for ln in bracketed if not ln.brackets_fixed]
    mirrored = logical = 0
    for ln in candidates:
        m, lg = bracket_votes(ln.text)
        mirrored += m
        logical += lg
        if abs(mirrored - logical) >= 25:
            break
    if logical <= mirrored and candidates:
        # Counted only now (most documents stop above), by their runs' lengths: a list
        # of words, not one of letters.
        rtl = len("".join(_RTL_RUN.findall(sample)))
        letters = len("".join(_LETTER_RUN.findall(sample)))
        default: Literal["L", "R"] = "R" if 2 * rtl >= letters else "L"
        for ln in candidates:
            ln.text = mirror_rtl_brackets(ln.text, default)
    for ln in bracketed:
        ln.text = brackets_outside_numbers(ln.text)
