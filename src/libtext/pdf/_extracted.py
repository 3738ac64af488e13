"""A page's raw lines made into the extraction's lines (compiled with the twin).

A book has tens of thousands of lines: this loop runs once per line, so it sits in a
module of its own that the compiled twin holds (see :mod:`libtext.pdf._compiled`).
"""

from __future__ import annotations

from typing import Any

from libtext.models import ExtractedLine, LineKind
from libtext.pdf._layout import side_notes_in_place
from libtext.pdf._read import RawLine
from libtext.pdf._visual import valid_texts

__all__ = ["extracted_lines"]

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
