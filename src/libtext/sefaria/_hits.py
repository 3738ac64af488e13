"""What reading a title gives: a :class:`Hit` (its ref, and what a later ``שם`` needs), and a
:class:`Found` citation, before :func:`libtext.sefaria.find_citations` makes it a ``Citation``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from libtext.sefaria._parse import Ref


class Found(NamedTuple):
    """A citation before it becomes a :class:`Citation`."""

    start: int
    end: int
    ref: Ref
    kind: str  # Citation.kind
    confidence: float
    exact: bool  # Citation.exact


make_found = Found._make  # tuple.__new__ in C, not the NamedTuple's Python __new__


@dataclass(slots=True)
class Hit:
    """A title read with its numbers; ``kind`` and ``data`` are what a later ``שם`` needs."""

    end: int
    ref: Ref
    kind: str
    data: Any
    start: int | None = None  # when the citation begins before its title (פ"ח מהל' ...)
    shape: str = "full"  # Citation.kind: full, chapter, book, ibid
    conf: float = 1.0  # before the bare-numbers factor
    exact: bool = True  # Citation.exact


Result = Hit | int | None
