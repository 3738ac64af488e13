"""Full-text search of the online library: the phrase it accepts, snippets, statistics.

Pure functions, no I/O. What the site does, as its former front end shows it:

* the phrase is reduced to Hebrew letters plus ASCII ``"`` and ``'`` before it is
  sent (``״`` -> ``"``, ``׳`` -> ``'``, nikud and cantillation dropped, anything else a
  word break), so libtext sends the same and reports it as the query;
* a hit's ``text`` is the whole page's HTML, so the client cuts a window of about
  100 characters around the phrase for display;
* ``tree`` is the hit's breadcrumb as HTML (links to each level);
* ``api/statistics?phrase=`` answers ``[{section_id, count}]``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from libtext.errors import LibraryError
from libtext.library._html import plain

__all__ = ["RawCount", "breadcrumb", "normalize_phrase", "read_counts", "snippet"]

SNIPPET_CHARS = 100
_QUOTES = str.maketrans({"״": '"', "׳": "'", "“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
_ANCHOR_OPEN = re.compile(r"<a\b", re.IGNORECASE)
_ANCHOR_CLOSE = re.compile(r"</a\s*>", re.IGNORECASE)


def anchor_texts(html: str) -> list[str]:
    """The inner HTML of each ``<a ...>...</a>``, as ``<a\\b[^>]*>(.*?)</a\\s*>`` finds them.

    Found with ``str.find`` and two short patterns: the one regular expression tried
    every ``<a`` against the rest of the page (quadratic on ``<a<a<a...`` or on
    anchors that never close).
    """
    out: list[str] = []
    pos = 0
    while (opening := _ANCHOR_OPEN.search(html, pos)) is not None:
        inside = html.find(">", opening.end())
        if inside < 0:
            break  # no ">" after this "<a": none after a later one either
        closing = _ANCHOR_CLOSE.search(html, inside + 1)
        if closing is None:
            break  # no "</a>" after this tag: none after a later one either
        out.append(html[inside + 1 : closing.start()])
        pos = closing.end()
    return out


def normalize_phrase(query: str) -> str:
    """The phrase as the site searches it: Hebrew letters, ``"`` and ``'``, single spaces."""
    text = unicodedata.normalize("NFKD", str(query).translate(_QUOTES))
    out: list[str] = []
    for ch in text:
        if "\u05d0" <= ch <= "\u05ea" or ch in "\"'":
            out.append(ch)
        elif unicodedata.category(ch) != "Mn":  # nikud and te'amim vanish inside words
            out.append(" ")
    return " ".join("".join(out).split())


def breadcrumb(tree: Any) -> str:
    """A hit's ``tree`` (breadcrumb HTML, or a list of levels) -> ``"a / b / c"``."""
    if isinstance(tree, list):
        parts = [t.get("heading", t.get("title", "")) if isinstance(t, dict) else t for t in tree]
        return " / ".join(p for p in (plain(str(x)) for x in parts if x) if p)
    html = "" if tree is None else str(tree)
    anchors = [plain(a) for a in anchor_texts(html)]
    anchors = [a for a in anchors if a]
    return " / ".join(anchors) if anchors else plain(html)


def snippet(html: str, phrase: str, *, width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of the page's text around the phrase's first place.

    Falls back to the first word of the phrase, then to the start of the page; cut
    at word boundaries, with ``…`` where text was left out.
    """
    text = plain(html)
    if len(text) <= width:
        return text
    at, size = _find(text, phrase)
    start = max(0, at - max(0, width - size) // 2)
    end = min(len(text), start + max(width, size))
    start = max(0, min(start, end - width))
    if start > 0:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < at else start
    if end < len(text):
        space = text.rfind(" ", at + size, end)
        end = space if space > 0 else end
    return ("…" if start > 0 else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def _find(text: str, phrase: str) -> tuple[int, int]:
    for candidate in (phrase, *phrase.split()[:1]):
        if candidate:
            at = text.find(candidate)
            if at >= 0:
                return at, len(candidate)
    return 0, 0


class RawCount:
    """One entry of ``api/statistics``: a section id and its count of hits."""

    __slots__ = ("count", "section_id")

    def __init__(self, section_id: str, count: int) -> None:
        self.section_id = section_id
        self.count = count


def read_counts(payload: Any, *, endpoint: str) -> list[RawCount]:
    """``[{section_id, count}]`` (or wrapped in ``results``/``data``) -> counts.

    Raises:
        LibraryError: The answer is not a list of counts.
    """
    if isinstance(payload, dict):
        payload = payload.get("results", payload.get("data", payload.get("sections")))
    if payload is None:
        return []
    if not isinstance(payload, list):
        raise _error(endpoint, f"a JSON {type(payload).__name__}, not a list")
    counts: list[RawCount] = []
    for entry in payload:
        if not isinstance(entry, dict):
            continue
        sid = entry.get("section_id", entry.get("id"))
        raw = entry.get("count", entry.get("total"))
        if sid is None or raw is None or isinstance(raw, bool):
            continue
        try:
            number = int(raw)
        except (TypeError, ValueError):
            continue
        if number >= 0:
            counts.append(RawCount(str(sid), number))
    if payload and not counts:
        raise _error(endpoint, "no entry has a section_id and a count")
    return counts


def _error(endpoint: str, what: str) -> LibraryError:
    return LibraryError(
        f"The online library answered {endpoint} with an unexpected shape ({what}). "
        "Its API may have changed; please report this with the endpoint.",
        endpoint=endpoint,
    )
