"""The provider's answers back onto the block: one :class:`TranslatedSegment`.

Every provider's answer goes through here (the offline one's too). Each chunk's phrases
are aligned to the chunk's Hebrew by their letters, so every ``hebrew_phrase`` is an
exact slice of the block; links come from the linked citations inside a phrase, never
from the model; what the model left out or changed is counted, and ``notes`` say so.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass

from libtext.models import EnrichedSegment, Footnote, TranslatedSegment
from libtext.models import TranslationData as _TD
from libtext.sefaria import Citation
from libtext.translate._phrases import (
    Piece,
    align_phrases,
    citation_english,
    expand_abbreviations,
    has_letters,
    letters,
)
from libtext.translate._plan import Chunk, Plan
from libtext.translate._schema import PhraseOut, TranslationResponse

_QUOTE_START = ('"', "\u201c", "\u201d", "\u05f4", "'")
_CITATION_ONLY = re.compile(r"^[(\[].*[)\]][.,:;]*$", re.DOTALL)


def assemble(
    seg: EnrichedSegment,
    plan: Plan,
    answers: list[TranslationResponse | None],
    *,
    provider: str,
    glossary: dict[str, str],
) -> TranslatedSegment:
    """The segment translated: phrases, footnotes, ``complete`` and ``notes``.

    ``answers`` has one entry per chunk of ``plan`` (``None``: nothing was asked).
    """
    block = seg.original_hebrew_block
    links = _Links(plan.citations)
    tally = _Tally()
    data: list[_TD] = []
    given: dict[str, str] = {}  # footnote marker -> the model's translation
    for chunk, answer in zip(plan.chunks, answers, strict=True):
        phrases = answer.phrases if answer is not None else []
        for note in answer.footnotes if answer is not None else []:
            given.setdefault(_marker_key(note.marker), note.translation.strip())
        data.extend(_chunk_phrases(block, chunk, phrases, links, tally))
    _link_quotes(data)
    footnotes, tally.missing_notes = _footnotes(seg, plan.fixed, given)
    tally.untranslated = sum(
        1 for d in data if not d.english_translation and has_letters(d.hebrew_phrase)
    )
    notes = tally.notes(len(data), provider) + _glossary_misses(glossary, data)
    return TranslatedSegment(
        **seg.model_dump(exclude={"footnotes"}),
        footnotes=footnotes,
        translation_data=data,
        provider=provider,
        complete=not tally.untranslated and not tally.missing_notes,
        notes=notes,
    )


@dataclass
class _Tally:
    """What the answers lacked or the alignment had to fix, for ``notes``."""

    gaps: int = 0  # passages the model left out
    repaired: int = 0  # phrases that differed from the Hebrew
    dropped: int = 0  # phrases not found in the Hebrew
    untranslated: int = 0  # phrases with Hebrew letters and no English
    missing_notes: int = 0  # footnotes with no translation

    def notes(self, phrases: int, provider: str) -> list[str]:
        notes: list[str] = []
        if self.untranslated:
            why = (
                "the offline provider translates only citations"
                if provider == "offline"
                else "the provider gave no English for them"
            )
            notes.append(f"{self.untranslated} of {phrases} phrases have no English: {why}.")
        if self.missing_notes:
            notes.append(f"{self.missing_notes} footnote(s) have no translation.")
        if self.gaps:
            notes.append(f"{self.gaps} passage(s) the provider left out were kept untranslated.")
        if self.repaired:
            notes.append(
                f"{self.repaired} phrase(s) differed from the Hebrew and were mapped to it."
            )
        if self.dropped:
            notes.append(f"{self.dropped} phrase(s) not found in the Hebrew were dropped.")
        return notes


class _Links:
    """A block's linked citations, sorted, to find those that end inside a phrase.

    A citation belongs to the phrase that holds its last character, the numbers: where a
    model's phrases cut ``(משלי`` from ``ה)``, the link goes with ``ה)``, not the title.
    """

    __slots__ = ("citations", "lasts")

    def __init__(self, citations: list[Citation]) -> None:
        self.citations = sorted(citations, key=lambda c: c.end)
        self.lasts = [c.end - 1 for c in self.citations]

    def within(self, start: int, end: int) -> list[Citation]:
        """The citations whose last character is in ``[start, end)``."""
        return self.citations[bisect_left(self.lasts, start) : bisect_left(self.lasts, end)]


def _chunk_phrases(
    block: str, chunk: Chunk, phrases: list[PhraseOut], links: _Links, tally: _Tally
) -> Iterator[_TD]:
    """One chunk's phrases, aligned to its Hebrew; counts what the alignment fixed."""
    text = block[chunk.start : chunk.end]
    alignment = align_phrases(text, [p.hebrew_phrase for p in phrases])
    if phrases:
        tally.gaps += sum(1 for p in alignment.pieces if p.source is None and p.text(text))
    tally.repaired += alignment.repaired
    tally.dropped += len(alignment.dropped)
    for piece in alignment.pieces:
        hebrew = piece.text(text)
        if hebrew:
            start, end = chunk.start + piece.start, chunk.start + piece.end
            yield _phrase(block, start, end, hebrew, piece, phrases, links)


def _phrase(
    block: str,
    start: int,
    end: int,
    hebrew: str,
    piece: Piece,
    phrases: list[PhraseOut],
    links: _Links,
) -> _TD:
    """The phrase at ``block[start:end]`` (``hebrew``: the same, stripped)."""
    english, expanded = _answered(piece, phrases)
    inside = links.within(start, end)
    if not english:
        english = citation_english(hebrew) or ""
    if not expanded or expanded == hebrew or letters(expanded) == letters(hebrew):
        # Spelled out from the bundled table, leaving the citations as they are.
        raw = block[start:end]
        offset = start + len(raw) - len(raw.lstrip())  # where ``hebrew`` begins
        protected = [(max(0, c.start - offset), c.end - offset) for c in inside]
        expanded = expand_abbreviations(hebrew, protected=protected)
    return _TD(
        hebrew_phrase=hebrew,
        hebrew_phrase_expanded=expanded,
        english_translation=english,
        sefaria_link=inside[0].url if inside else "",
        exact=inside[0].exact if inside else True,
    )


def _answered(piece: Piece, phrases: list[PhraseOut]) -> tuple[str, str]:
    """The model's English and spelled-out Hebrew for a piece (``""`` where it gave none).

    A passage the model left out gets the English of its phrases that matched no Hebrew.
    """
    if piece.source is not None:
        out = phrases[piece.source]
        return out.english_translation.strip(), out.hebrew_phrase_expanded.strip()
    english = " ".join(phrases[i].english_translation.strip() for i in piece.orphans)
    return english.strip(), ""


def _footnotes(
    seg: EnrichedSegment, fixed: dict[int, str], given: dict[str, str]
) -> tuple[list[Footnote], int]:
    """The segment's footnotes with translations; how many have none."""
    footnotes: list[Footnote] = []
    missing = 0
    for k, fn in enumerate(seg.footnotes):
        translation = fixed.get(k)
        if translation is None:
            translation = given.get(_marker_key(fn.marker), "")
            missing += not translation
        footnotes.append(fn.model_copy(update={"translation": translation}))
    return footnotes, missing


def _marker_key(marker: str) -> str:
    return marker.strip().strip("()[]{}*. ").lower()


def _link_quotes(data: list[_TD]) -> None:
    """A quotation next to a citation-only phrase links to the passage it quotes."""
    for i, d in enumerate(data):
        if d.sefaria_link or not d.hebrew_phrase.startswith(_QUOTE_START):
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(data):
                other = data[j]
                if other.sefaria_link and _CITATION_ONLY.match(other.hebrew_phrase):
                    d.sefaria_link, d.exact = other.sefaria_link, other.exact
                    break


def _glossary_misses(glossary: dict[str, str], data: list[_TD]) -> list[str]:
    """A note for each phrase with a glossary term whose English lacks the term's English."""
    notes: list[str] = []
    for term, english in glossary.items():
        term_key = letters(term)
        if not term_key or not english:
            continue
        for k, d in enumerate(data, 1):
            if not d.english_translation or term_key not in letters(d.hebrew_phrase):
                continue
            if english.lower() not in d.english_translation.lower():
                notes.append(f"Glossary: phrase {k} has {term!r} but not {english!r}.")
    return notes
