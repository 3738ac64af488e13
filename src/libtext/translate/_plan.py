"""Cutting a segment for sending: phrase slices, chunks of whole phrases, linked citations.

Pure CPU work, shared by every provider and run off the event loop for long blocks.
A chunk holds whole phrases up to ``max_chars``, so a long chapter stays within a
model's output limit; footnotes go with the chunk where their marker stands. A footnote
that is only a citation is translated here by the linker and never sent to a model.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field

from libtext.hebrew import marker_forms, normalize_for_match
from libtext.models import EnrichedSegment, Footnote
from libtext.sefaria import Citation, find_citations, translate_citation
from libtext.translate._phrases import split_phrases

LINK_CONFIDENCE = 0.6
"""Citations at least this sure get a ``sefaria_link`` (see :mod:`libtext.translate`).

Numbered citations (0.6-1.0) pass; works merely named (0.5) do not: in the Tanya
"בהלכות תלמוד תורה" is the Alter Rebbe's own laws, not the Rambam's section."""


@dataclass
class Chunk:
    """One request's share of the block: ``block[start:end]`` and its footnotes."""

    start: int
    end: int
    footnotes: list[Footnote] = field(default_factory=list)


@dataclass
class Plan:
    """A block cut for sending: its citations, phrase slices, chunks, citation-only notes."""

    citations: list[Citation]
    spans: list[tuple[int, int]]
    chunks: list[Chunk]
    fixed: dict[int, str]  # footnote index -> its English, for citation-only footnotes


def plan(seg: EnrichedSegment, max_chars: int) -> Plan:
    """Cut a segment's block into phrases and chunks."""
    block = seg.original_hebrew_block
    citations = [c for c in find_citations(block) if c.confidence >= LINK_CONFIDENCE]
    protected = [(c.start, c.end) for c in citations]
    spans = split_phrases(block, protected=protected, breaks=_heading_breaks(seg))
    fixed: dict[int, str] = {}
    for k, fn in enumerate(seg.footnotes):
        english = translate_citation(fn.content) if fn.content.strip() else ""
        if english is not None:
            fixed[k] = english
    asked = [fn for k, fn in enumerate(seg.footnotes) if k not in fixed]
    return Plan(citations, spans, _chunks(block, spans, asked, max_chars), fixed)


def _heading_breaks(seg: EnrichedSegment) -> list[int]:
    """Where the block's leading heading lines end (a heading is a phrase of its own)."""
    block = seg.original_hebrew_block
    titles = {normalize_for_match(t) for t in (seg.chapter_title, seg.segment_title) if t}
    breaks: list[int] = []
    pos = 0
    for line in block.splitlines(keepends=True):
        if not line.strip():
            pos += len(line)
            continue
        if normalize_for_match(line) in titles:
            pos += len(line)
            breaks.append(pos)
            continue
        break
    return breaks


def _chunks(
    block: str, spans: list[tuple[int, int]], footnotes: list[Footnote], max_chars: int
) -> list[Chunk]:
    """Group phrase slices into chunks of at most ``max_chars`` characters of Hebrew, a
    footnote's counted with the phrase where its marker first stands (it is sent with
    that chunk); a footnote whose marker is nowhere goes with the last chunk."""
    at = [_marker_at(fn.marker, block) for fn in footnotes]
    starts = [s for s, _ in spans]
    weight = [0] * len(spans)
    for fn, pos in zip(footnotes, at, strict=True):
        if pos is not None and spans:
            weight[max(0, bisect_right(starts, pos) - 1)] += len(fn.content)
    chunks: list[Chunk] = []
    size = 0
    for (s, e), extra in zip(spans, weight, strict=True):
        if chunks and e - chunks[-1].start + size + extra <= max_chars:
            chunks[-1].end = e
            size += extra
        else:
            chunks.append(Chunk(s, e))
            size = extra
    if not chunks:
        chunks.append(Chunk(0, len(block)))
    ends = [c.end for c in chunks]
    for fn, pos in zip(footnotes, at, strict=True):
        index = len(chunks) - 1 if pos is None else min(bisect_right(ends, pos), len(chunks) - 1)
        chunks[index].footnotes.append(fn)
    return chunks


def _marker_at(marker: str, block: str) -> int | None:
    """Where the footnote's marker first stands in the block, in any of its forms."""
    found = [i for i in (block.find(form) for form in marker_forms(marker)) if i >= 0]
    return min(found) if found else None
