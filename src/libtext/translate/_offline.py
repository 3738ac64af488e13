"""Offline translation: what can be done without a model, and nothing faked.

The offline provider answers a ``"translate"`` request with the same
:class:`~libtext.translate.TranslationResponse` a model gives, so one post-processing
path serves every provider. It gives libtext's own phrase split, abbreviations expanded
from the bundled table, and English only where the citation linker can render a phrase
or footnote that is nothing but citations (``(בראשית א, ג)`` -> ``(Genesis 1:3)``);
every other ``english_translation`` stays empty and the Translator says so in ``notes``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from libtext.errors import InvalidInputError
from libtext.sefaria import find_citations, translate_citation
from libtext.translate._phrases import citation_english, expand_abbreviations, split_phrases
from libtext.translate._schema import (
    FootnoteOut,
    PhraseOut,
    TranslatePayload,
    TranslationResponse,
    off_loop,
)

if TYPE_CHECKING:  # pragma: no cover
    from libtext.providers.base import ProviderRequest

__all__ = ["answer", "translate_request"]


async def translate_request(request: ProviderRequest) -> TranslationResponse:
    """Answer a ``"translate"`` request from its :class:`~libtext.translate.TranslatePayload`.

    A long block is answered in a worker thread (a few ms per thousand characters), so
    the event loop stays free; a short one inline.
    """
    payload = request.payload
    if isinstance(payload, dict):
        payload = TranslatePayload.model_validate(payload)
    if not isinstance(payload, TranslatePayload):
        raise InvalidInputError(
            "The offline provider translates a TranslatePayload; got "
            f"{type(payload).__name__}. Use Translator, which builds the request."
        )
    return await off_loop(len(payload.hebrew), "translate_offline", answer, payload=payload)


def answer(payload: TranslatePayload) -> TranslationResponse:
    """The offline answer to a payload: libtext's phrases, abbreviations, citations' English."""
    block = payload.hebrew
    phrases = [p for p in payload.phrases if p.strip()]
    if not phrases:
        protected = [(c.start, c.end) for c in find_citations(block)]
        phrases = [block[s:e].strip() for s, e in split_phrases(block, protected=protected)]
    out: list[PhraseOut] = []
    for phrase in phrases:
        if not phrase:
            continue
        spans = [(c.start, c.end) for c in find_citations(phrase)]
        out.append(
            PhraseOut(
                hebrew_phrase=phrase,
                hebrew_phrase_expanded=expand_abbreviations(phrase, protected=spans),
                english_translation=citation_english(phrase) or "",
            )
        )
    notes = [
        FootnoteOut(marker=fn.marker, translation=translate_citation(fn.content) or "")
        for fn in payload.footnotes
    ]
    return TranslationResponse(phrases=out, footnotes=notes)
