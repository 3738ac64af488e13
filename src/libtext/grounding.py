"""Grounding: make an outline's phrases occur verbatim in the document's text.

A language model asked to copy phrases often changes them a little: drops nikud,
writes ``"`` for ``״`` or ``-`` for a maqaf, joins lines, swaps a final letter. The
Translator later cuts each segment's Hebrew out of the text between its start and
end phrases, so a phrase that is not verbatim is useless. :func:`ground_outline`
checks every phrase against the extracted text:

* found verbatim: kept;
* a near miss: replaced with the exact span of the text it matches. Matching runs on
  a normalized copy of the text that keeps, for every character, its offset in the
  original, so the span is cut from the original (nikud, quotes and all);
* a start phrase that cannot be found: the segment is dropped (it cannot be placed);
* an end phrase that cannot be found inside its segment: replaced with the last words
  before the next segment's start (headings skipped).

``page_ref`` is set to the page where the start phrase was found. Segments are put in
text order and duplicates (the same segment seen by two overlapping windows) merged.
Everything here is pure: no I/O, no provider.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from libtext.hebrew import normalize_for_match
from libtext.models import (
    DocumentOutline,
    ExtractedDocument,
    GroundingReport,
    OutlineSegment,
    SourceMetadata,
)

__all__ = [
    "METADATA_PAGES",
    "GroundingIndex",
    "PhraseMatch",
    "first_page",
    "ground_metadata",
    "ground_outline",
]

METADATA_PAGES = 3
"""Pages searched for a title or author (the title page and what precedes the text)."""

Side = Literal["start", "end"]

_DASHES = frozenset("-\u05be\u2010\u2011\u2012\u2013\u2014\u2015")  # hyphens, maqaf, dashes
_PAGE_MARKER = re.compile(r"\[\s*(?:page|עמוד|עמ')\s*\d+\s*\]", re.IGNORECASE)
_WORD = re.compile(r"\S+")
_INT = re.compile(r"\d+")
_REPAIR_WORDS = 8
_MIN_FUZZY_CHARS = 8  # shorter phrases match too much to be repaired safely
_MIN_PARTIAL_WORDS = 4
_MAX_CANDIDATES = 500
_DUPLICATE_CHARS = 300  # same title this close: one segment seen by two windows
_SAME_TITLE = 0.6  # titles this alike at one start: one segment, however worded


@lru_cache(maxsize=8192)
def _fold_strict(ch: str) -> str:
    """One character's form for matching: whitespace and dashes are a space."""
    if ch.isspace() or ch in _DASHES:
        return " "
    return normalize_for_match(ch)  # no nikud, ASCII quotes, no final letters


@lru_cache(maxsize=8192)
def _fold_loose(ch: str) -> str:
    """Like :func:`_fold_strict`, and punctuation is dropped too."""
    folded = _fold_strict(ch)
    if folded == " ":
        return " "
    return "".join(c for c in folded if c.isalnum())


Fold = Callable[[str], str]


def _normalize(text: str, fold: Fold) -> tuple[str, list[int]]:
    """``text`` folded, spaces collapsed, with the original offset of every character."""
    out: list[str] = []
    offsets: list[int] = []
    space = True  # no leading space
    for i, ch in enumerate(text):
        folded = fold(ch)
        if not folded:
            continue
        if folded == " ":
            if space:
                continue
            space = True
        else:
            space = False
        out.append(folded)
        offsets.extend([i] * len(folded))
    norm = "".join(out)
    if norm.endswith(" "):
        norm = norm[:-1]
        offsets.pop()
    return norm, offsets


def _clean_phrase(phrase: str) -> str:
    return " ".join(_PAGE_MARKER.sub(" ", phrase).split())


def first_page(page_ref: str) -> int | None:
    """The first page number in a ``page_ref`` (``"12"``, ``"12-14"``); ``None`` if none."""
    m = _INT.search(page_ref or "")
    return int(m.group()) if m else None


@dataclass(frozen=True)
class PhraseMatch:
    """Where a phrase was found: ``text[start:end]`` is the verbatim span."""

    start: int
    end: int
    text: str
    exact: bool


@dataclass
class _Form:
    text: str
    offsets: list[int]
    fold: Fold


@dataclass
class GroundingIndex:
    """A document's text prepared for phrase lookup (build once, query many times).

    ``text`` is :attr:`ExtractedDocument.text`: pages' body and heading lines, pages
    separated by a blank line. Normalized forms are built on first need.
    """

    text: str
    page_numbers: list[int]
    page_starts: list[int]
    heading_spans: list[tuple[int, int]] = field(default_factory=list)
    _forms: dict[str, _Form] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, doc: ExtractedDocument) -> GroundingIndex:
        """Index a document's text, its page offsets and its heading lines."""
        starts: list[int] = []
        numbers: list[int] = []
        headings: list[tuple[int, int]] = []
        offset = 0
        for page in doc.pages:
            starts.append(offset)
            numbers.append(page.number)
            pos = offset
            for line in page.lines:
                if line.kind not in ("body", "heading"):
                    continue
                if line.kind == "heading":
                    headings.append((pos, pos + len(line.text)))
                pos += len(line.text) + 1
            offset += len(page.text) + 2  # pages are joined with "\n\n"
        return cls(text=doc.text, page_numbers=numbers, page_starts=starts, heading_spans=headings)

    def page_at(self, offset: int) -> int:
        """The page number of the character at ``offset``."""
        if not self.page_starts:
            return 1
        i = bisect.bisect_right(self.page_starts, offset) - 1
        return self.page_numbers[max(i, 0)]

    def _form(self, name: str) -> _Form:
        form = self._forms.get(name)
        if form is None:
            fold = _fold_strict if name == "strict" else _fold_loose
            norm, offsets = _normalize(self.text, fold)
            form = self._forms[name] = _Form(norm, offsets, fold)
        return form

    def _span(self, form: _Form, start: int, end: int) -> tuple[int, int]:
        """Original offsets of normalized ``[start, end)``, widened over attached marks."""
        s, e = form.offsets[start], form.offsets[end - 1] + 1
        text = self.text
        while s > 0 and not text[s - 1].isspace() and not form.fold(text[s - 1]):
            s -= 1  # an opening quote or bracket the fold dropped
        while e < len(text) and not text[e].isspace() and not form.fold(text[e]):
            e += 1  # nikud on the last letter, closing punctuation
        return s, e

    def occurrences(self, phrase: str) -> list[PhraseMatch]:
        """All places ``phrase`` occurs, trying exact, then normalized, then partial.

        Returns the occurrences of the first kind that finds any.
        """
        found = self._exact(phrase)
        if found:
            return found
        for tier in self._fuzzy_tiers(phrase, side=None):
            if tier:
                return tier
        return []

    def _exact(self, phrase: str) -> list[PhraseMatch]:
        if not phrase:
            return []
        found: list[PhraseMatch] = []
        i = self.text.find(phrase)
        while i >= 0 and len(found) < _MAX_CANDIDATES:
            found.append(PhraseMatch(i, i + len(phrase), phrase, exact=True))
            i = self.text.find(phrase, i + 1)
        return found

    def _find_norm(self, form: _Form, needle: str) -> list[PhraseMatch]:
        found: list[PhraseMatch] = []
        i = form.text.find(needle)
        while i >= 0 and len(found) < _MAX_CANDIDATES:
            s, e = self._span(form, i, i + len(needle))
            found.append(PhraseMatch(s, e, self.text[s:e], exact=False))
            i = form.text.find(needle, i + 1)
        return found

    def _fuzzy_tiers(self, phrase: str, side: Side | None) -> list[list[PhraseMatch]]:
        """Lazily computed lists of near-miss occurrences, strictest first."""
        tiers: list[list[PhraseMatch]] = []
        for name in ("strict", "loose"):
            form = self._form(name)
            needle, _ = _normalize(phrase, form.fold)
            if len(needle) < _MIN_FUZZY_CHARS:
                return tiers
            tiers.append(self._find_norm(form, needle))
            if tiers[-1]:
                return tiers
        # The model copied the first (or last) words right and then went astray.
        words = needle.split(" ")
        form = self._form("loose")
        for k in range(len(words) - 1, _MIN_PARTIAL_WORDS - 1, -1):
            part = " ".join(words[:k] if side != "end" else words[-k:])
            if len(part) < _MIN_FUZZY_CHARS * 2:
                break
            tiers.append(self._find_norm(form, part))
            if tiers[-1]:
                break
        return tiers

    def locate(
        self,
        phrase: str,
        *,
        side: Side = "start",
        page: int | None = None,
        after: int = 0,
        lo: int = 0,
        hi: int | None = None,
        taken: frozenset[int] | set[int] = frozenset(),
    ) -> PhraseMatch | None:
        """The best occurrence of ``phrase``, or ``None``.

        A start phrase prefers the occurrence nearest ``page`` (within a page counts
        as on it), then one at or after ``after``, then one not ``taken`` by another
        segment already (two sections may open with the same words), then the
        earliest. An end phrase must lie within ``[lo, hi]`` and the last such
        occurrence wins.
        """
        raw = phrase.strip()
        phrase = _clean_phrase(phrase)
        if not phrase:
            return None
        hi = len(self.text) if hi is None else hi

        def pick(cands: Sequence[PhraseMatch]) -> PhraseMatch | None:
            if side == "end":
                inside = [m for m in cands if m.start >= lo and m.end <= hi]
                return max(inside, key=lambda m: m.start) if inside else None
            if not cands:
                return None

            def key(m: PhraseMatch) -> tuple[int, bool, bool, int]:
                dist = abs(self.page_at(m.start) - page) if page is not None else 0
                return (dist if dist > 1 else 0, m.start < after, m.start in taken, m.start)

            return min(cands, key=key)

        for verbatim in dict.fromkeys((raw, phrase)):
            best = pick(self._exact(verbatim))
            if best is not None:
                # Only spacing or a page marker differed: the cleaned phrase is a repair.
                return best if verbatim == raw else replace(best, exact=False)
        for tier in self._fuzzy_tiers(phrase, side):
            best = pick(tier)
            if best is not None:
                return best
        return None

    def last_words(self, lo: int, hi: int, n: int = _REPAIR_WORDS) -> PhraseMatch | None:
        """The last ``n`` words of ``text[lo:hi]``, heading lines at its end skipped."""
        end = hi
        while True:
            while end > lo and self.text[end - 1].isspace():
                end -= 1
            i = bisect.bisect_right(self.heading_spans, (end - 1, len(self.text) + 1)) - 1
            if end > lo and i >= 0 and self.heading_spans[i][0] < end <= self.heading_spans[i][1]:
                end = max(self.heading_spans[i][0], lo)
                continue
            break
        spans = [m.span() for m in _WORD.finditer(self.text, lo, end)]
        if not spans:
            return None
        s, e = spans[-n:][0][0], spans[-1][1]
        return PhraseMatch(s, e, self.text[s:e], exact=False)


@dataclass
class _Placed:
    segment: OutlineSegment
    start: PhraseMatch
    order: int
    ends: list[str]


def _same_title(a: OutlineSegment, b: OutlineSegment) -> bool:
    ta = normalize_for_match(a.chapter_title or a.segment_title)
    tb = normalize_for_match(b.chapter_title or b.segment_title)
    return bool(ta) and ta == tb


def _other_titles(a: OutlineSegment, b: OutlineSegment) -> bool:
    """Two different headings (bookmarks to one place), not one segment seen twice."""
    ta = normalize_for_match(a.chapter_title or a.segment_title)
    tb = normalize_for_match(b.chapter_title or b.segment_title)
    if not ta or not tb or ta == tb:
        return False
    return difflib.SequenceMatcher(None, ta, tb, autojunk=False).ratio() < _SAME_TITLE


def ground_outline(
    outline: DocumentOutline, source: ExtractedDocument | GroundingIndex
) -> tuple[DocumentOutline, GroundingReport]:
    """Check an outline's phrases against the document's text and repair them.

    ``outline`` may hold the segments of several overlapping windows, in window
    order: segments are sorted by where they start, and a segment found twice (same
    start, or same title within a few hundred characters) is kept once.

    Returns:
        The grounded outline, renumbered from 1, and its report. In the report,
        ``segments`` counts the distinct segments received, ``exact`` and
        ``repaired`` count phrases (start and end), ``dropped`` counts segments whose
        start phrase is not in the text, ``page_mismatches`` the ``page_ref``s
        corrected.
    """
    index = source if isinstance(source, GroundingIndex) else GroundingIndex.of(source)
    report = GroundingReport()
    placed: list[_Placed] = []
    cursor = 0
    dropped = 0
    taken: dict[int, str] = {}  # start offset -> title of the segment placed there
    for order, seg in enumerate(outline.outline_segments):
        title = normalize_for_match(seg.chapter_title or seg.segment_title)
        match = index.locate(
            seg.start_phrase_hebrew,
            side="start",
            page=first_page(seg.page_ref),
            after=cursor,
            taken={start for start, t in taken.items() if t != title},
        )
        if match is None:
            dropped += 1
            continue
        taken.setdefault(match.start, title)
        cursor = max(cursor, match.start)
        placed.append(_Placed(seg, match, order, [seg.end_phrase_hebrew]))
    placed.sort(key=lambda p: (p.start.start, p.order))
    merged: list[_Placed] = []
    for item in placed:
        prev = merged[-1] if merged else None
        if prev is not None and (
            (item.start.start == prev.start.start and not _other_titles(item.segment, prev.segment))
            or (
                _same_title(item.segment, prev.segment)
                and item.start.start - prev.start.start < _DUPLICATE_CHARS
            )
        ):
            prev.ends.append(item.segment.end_phrase_hebrew)
            if item.order < prev.order:  # keep the copy the earlier window gave
                prev.segment, prev.order = item.segment, item.order
            continue
        merged.append(item)
    report.segments = len(merged) + dropped
    report.dropped = dropped
    segments: list[OutlineSegment] = []
    for k, item in enumerate(merged):
        seg, start = item.segment, item.start
        hi = merged[k + 1].start.start if k + 1 < len(merged) else len(index.text)
        if start.exact:
            report.exact += 1
        else:
            report.repaired += 1
        ends = [
            m
            for m in (index.locate(e, side="end", lo=start.start, hi=hi) for e in item.ends)
            if m is not None
        ]
        end = max(ends, key=lambda m: m.end) if ends else index.last_words(start.start, hi)
        if end is not None and end.exact:
            report.exact += 1
        else:
            report.repaired += 1
        page = index.page_at(start.start)
        page_ref = seg.page_ref
        if first_page(page_ref) != page:
            report.page_mismatches += 1
            page_ref = str(page)
        segments.append(
            seg.model_copy(
                update={
                    "sequence_id": len(segments) + 1,
                    "page_ref": page_ref,
                    "start_phrase_hebrew": start.text,
                    "end_phrase_hebrew": end.text if end is not None else start.text,
                }
            )
        )
    grounded = DocumentOutline(source_metadata=outline.source_metadata, outline_segments=segments)
    return grounded, report


_NOT_LETTER = re.compile(r"[^\w]+")


def _metadata_form(text: str) -> str:
    return " ".join(_NOT_LETTER.sub(" ", normalize_for_match(text)).split())


def ground_metadata(
    metadata: SourceMetadata, doc: ExtractedDocument
) -> tuple[SourceMetadata, list[str]]:
    """The metadata with the fields a model invented cleared, and those fields' names.

    A title or author is grounded when it occurs (letters compared as for phrases,
    punctuation ignored) in the first :data:`METADATA_PAGES` pages or in the PDF's own
    title and author. A cleared field falls back to the PDF's metadata.
    """
    haystack = " ".join(
        [_metadata_form(p.text) for p in doc.pages[:METADATA_PAGES]]
        + [_metadata_form(doc.title), _metadata_form(doc.author)]
    )
    haystack = f" {haystack} "
    fallback = {
        "publication_title": doc.title,
        "work_title": doc.title,
        "author_name": doc.author,
    }
    kept: dict[str, str] = {}
    unsupported: list[str] = []
    for name in ("publication_title", "work_title", "author_name"):
        value = str(getattr(metadata, name) or "").strip()
        form = _metadata_form(value)
        if not form or f" {form} " in haystack:
            kept[name] = value
            continue
        unsupported.append(name)
        kept[name] = fallback[name] or ""
    return SourceMetadata(**kept), unsupported
