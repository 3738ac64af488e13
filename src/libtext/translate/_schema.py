"""What a provider reads and answers for a ``"translate"`` request, in a low module.

The Translator builds these and the offline provider answers them; both import them
from here, so the offline translation does not import the Translator (which imports the
provider registry, which loads the offline provider).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel, Field

from libtext._offload import guard_set, run_guarded
from libtext._sync import run_cpu
from libtext.models import Footnote

__all__ = [
    "INLINE_CHARS",
    "FootnoteOut",
    "PhraseOut",
    "TranslatePayload",
    "TranslationResponse",
    "off_loop",
]

INLINE_CHARS = 1000
"""Blocks up to this size are cut, answered offline and assembled on the event loop: each
step costs them ~2 ms at most (about 1.5 ms per 1,000 characters), not worth a worker-thread
hop (~0.25 ms plus the GIL hand-over). Longer blocks go to a worker thread, so a long
chapter does not stall the loop (an HTTP server's other requests); inside
:func:`libtext._offload.offloading` (the HTTP adapter, the job runner) to a worker
process instead, which a timeout can kill."""

_T = TypeVar("_T")


class PhraseOut(BaseModel):
    """One phrase as a provider gives it."""

    hebrew_phrase: str = Field(description="The phrase copied verbatim from the Hebrew block.")
    hebrew_phrase_expanded: str = Field(
        default="", description="The phrase with abbreviations and acronyms spelled out."
    )
    english_translation: str = Field(default="", description="The phrase in English.")


class FootnoteOut(BaseModel):
    """One footnote's translation as a provider gives it."""

    marker: str = Field(description="The footnote's marker exactly as given.")
    translation: str = Field(default="", description="The footnote's content in English.")


class TranslationResponse(BaseModel):
    """The JSON a provider must answer for a ``"translate"`` request."""

    phrases: list[PhraseOut] = Field(description="Phrases covering the whole block, in order.")
    footnotes: list[FootnoteOut] = Field(default_factory=list)


class TranslatePayload(BaseModel):
    """The structured input of a ``"translate"`` request (read by the offline provider).

    ``phrases`` is libtext's own split of the block (what the offline provider answers);
    ``footnotes`` are only those that need a translator (citation-only ones are not sent).
    """

    hebrew: str
    phrases: list[str] = Field(
        default_factory=list, description="libtext's own phrase split of ``hebrew``"
    )
    footnotes: list[Footnote] = Field(default_factory=list)
    glossary: dict[str, str] = Field(default_factory=dict)
    title: str = ""


async def off_loop(size: int, task: str, fn: Callable[..., _T], /, **kwargs: Any) -> _T:
    """``fn(**kwargs)`` inline for a block of ``size`` <= :data:`INLINE_CHARS`, else off
    the event loop: as the worker task ``task`` (``libtext.pdf._worker.TASKS``) when a
    guard is set, so the caller's timeout stops it whatever the block; else in a thread.

    For pure CPU work on a block (cutting, aligning, the offline answer), not for I/O.
    """
    if size > INLINE_CHARS and guard_set():
        return await run_guarded(task, fn, **kwargs)
    return await run_cpu(partial(fn, **kwargs), inline=size <= INLINE_CHARS)
