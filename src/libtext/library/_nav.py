"""Finding works and sections by title in the library's table of contents.

The library has no known title-search endpoint, so :func:`find_titles` walks the
table of contents from given roots, best-matching entries first, within a request
budget. Matching is word by word on a lossy Hebrew form: no nikud, no quote marks,
final letters folded, one-letter prefixes (ו, ה, ב, כ, ל, מ, ש) allowed, and numbers
in the query read as Hebrew numerals (32 -> לב).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from libtext.errors import NotFoundError
from libtext.hebrew import format_numeral, normalize_for_match
from libtext.library._api import RawNode
from libtext.library._works import KNOWN_WORKS

__all__ = ["TocEntry", "find_titles", "query_words"]

_PREFIXES = "והבכלמש"
_SPLIT_RE = re.compile(r"[\s,.:;()\[\]/\\\-–—־]+")


def _match_words(text: str) -> list[str]:
    """Words for title matching: no nikud or quote marks, finals folded, lowercase."""
    norm = normalize_for_match(text).replace('"', "").replace("'", "").lower()
    return [w for w in _SPLIT_RE.split(norm) if w]


def query_words(query: str) -> list[str]:
    """The query's words in matching form, numbers spelled as Hebrew numerals."""
    words = []
    for w in _match_words(query):
        if w.isdigit() and 0 < int(w) < 10000:
            w = _match_words(format_numeral(int(w), marks=False))[0]
        words.append(w)
    return words


def _word_matches(token: str, words: set[str]) -> bool:
    if token in words:
        return True
    return any(len(w) == len(token) + 1 and w[0] in _PREFIXES and w[1:] == token for w in words)


@dataclass(slots=True)
class TocEntry:
    """A table-of-contents entry: its id, heading and the headings above it."""

    id: str
    heading: str
    path: list[str]
    words: set[str]
    depth: int


async def find_titles(
    words: list[str],
    *,
    roots: Sequence[str],
    fetch: Callable[[str], Awaitable[RawNode]],
    cached: Callable[[str], RawNode | None],
    depth: int,
    max_requests: int,
) -> list[TocEntry]:
    """Entries whose path matches every word, best first (exact title, then shallow).

    Expands the entries that match the most words first; stops after
    ``max_requests`` fetches (``cached`` sections cost none), at ``depth`` levels,
    or, once something matched, when no entry left shares a word with the query.
    """
    frontier: list[tuple[int, int, int, TocEntry]] = []
    found: list[TocEntry] = []
    order = 0

    def consider(entry: TocEntry) -> None:
        nonlocal order
        hits = sum(_word_matches(w, entry.words) for w in words)
        if hits == len(words):
            found.append(entry)  # its descendants match too, only deeper: not expanded
        elif entry.depth < depth:
            frontier.append((-hits, entry.depth, order, entry))
            order += 1

    for rid in roots:
        known = KNOWN_WORKS.get(rid)
        title = known.title if known else rid
        names = " ".join((title, *(known.aliases if known else ())))
        consider(TocEntry(rid, title, [title], set(_match_words(names)), 0))
    requests = 0
    while frontier and requests < max_requests:
        frontier.sort(key=lambda item: item[:3])
        if found and frontier[0][0] == 0:
            break  # what is left shares no word with the query
        entry = frontier.pop(0)[3]
        node = cached(entry.id)
        if node is None:
            requests += 1
            try:
                node = await fetch(entry.id)
            except NotFoundError:
                continue
        for child in node.children:
            path = [*entry.path, child.heading] if child.heading else list(entry.path)
            child_words = entry.words | set(_match_words(child.heading))
            consider(TocEntry(child.id, child.heading, path, child_words, entry.depth + 1))
    target = " ".join(words)
    found.sort(key=lambda e: (" ".join(_match_words(e.heading)) != target, e.depth))
    return found
