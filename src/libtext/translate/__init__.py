"""Translator: a Hebrew block in, phrase-by-phrase English with Sefaria links out.

Every provider answers the same :class:`TranslationResponse` (the offline one too, built
by rules), and one post-processing path turns it into a
:class:`~libtext.models.TranslatedSegment`:

* the model's phrases are aligned to the block by their letters, so each
  ``hebrew_phrase`` is an exact slice of the block and together they cover it; what a
  model skipped is kept as an untranslated phrase and reported in ``notes``;
* ``sefaria_link`` comes from :func:`libtext.sefaria.find_citations`, never from a model,
  and only for citations with ``confidence >= LINK_CONFIDENCE`` (0.6): numbered citations,
  bare ones included (0.7), but not a work merely named (``בספר בראשית``, 0.5);
* footnotes that are only citations (``בראשית א, א.``) are translated by the linker
  (``Genesis 1:1.``) and never sent to a model;
* abbreviations a model left unexpanded are expanded from the bundled table;
* glossary terms are given to the model and checked in its English.

Long blocks are sent in chunks of whole phrases (``max_chars``), so a long chapter
stays within a model's output limit; by default a chunk's size comes from the model's
context window (``context_tokens=``, else what the server or litellm reports), so a
request and its answer fit a small local model too (:mod:`libtext.translate._size`).
"""

from __future__ import annotations

import asyncio
import copy
import json
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel

from libtext._keywords import provider_connection, strict_keywords
from libtext._policy import legacy_retry, with_timeout
from libtext._sync import run_sync, with_twin_docs
from libtext.errors import (
    ConfigurationError,
    EmptyDocumentError,
    InputTooLargeError,
    InvalidInputError,
    InvalidTypeError,
    LibtextError,
    ProviderError,
    ProviderOutputError,
    short,
)
from libtext.hebrew import marker_forms
from libtext.models import (
    EnrichedSegment,
    Footnote,
    OutlineSegment,
    TranslatedSegment,
    unicode_problem,
)
from libtext.translate._assemble import assemble
from libtext.translate._phrases import has_letters
from libtext.translate._plan import LINK_CONFIDENCE, Chunk
from libtext.translate._plan import plan as make_plan
from libtext.translate._schema import (
    FootnoteOut,
    PhraseOut,
    TranslatePayload,
    TranslationResponse,
    off_loop,
)
from libtext.translate._size import chunk_chars, request_tokens

if TYPE_CHECKING:  # pragma: no cover
    from anyio.abc import TaskGroup

    from libtext._policy import RetryPolicy
    from libtext.providers._cache import ProviderCache
    from libtext.providers.base import Provider, ProviderRequest

__all__ = [
    "LINK_CONFIDENCE",
    "FootnoteOut",
    "PhraseOut",
    "TranslatePayload",
    "TranslationResponse",
    "Translator",
    "check_segment_size",
]

PROMPT_NAME = "translate"
DEFAULT_PROVIDER = "offline"  # like every entry point: no key, no network
DEFAULT_MAX_CHARS = 3000
DEFAULT_CONCURRENCY = 4
DEFAULT_MAX_SEGMENT_CHARS = 2_000_000
"""Most characters of Hebrew (block plus footnotes) in one segment: about 400 printed
pages. Handling is linear in the size (``benchmarks/translate.py``), so the limit
bounds time and memory, not an algorithm's blow-up."""


# --- the Translator -----------------------------------------------------------------


class _Slots:
    """The Translator's call slots: one limiter per event loop, shared by all its calls.

    A limiter belongs to the loop it was made on; the sync twins run each call on a
    portal's loop, so a call on another loop gets a fresh limiter.
    """

    __slots__ = ("_limiter", "_loop")

    def __init__(self) -> None:
        self._loop: object = None
        self._limiter: anyio.CapacityLimiter | None = None

    def limiter(self, size: int) -> anyio.CapacityLimiter:
        loop = _running_loop()
        if self._limiter is None or self._loop is not loop:
            self._loop, self._limiter = loop, anyio.CapacityLimiter(size)
        return self._limiter


def _running_loop() -> object:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:  # pragma: no cover - trio
        return anyio.lowlevel.current_token()


@dataclass
class _Calls:
    """Provider calls made and answers read from the cache (for reports and tests)."""

    provider: int = 0
    cached: int = 0


@with_twin_docs
class Translator:
    """Translate Hebrew segments phrase by phrase, with Sefaria links and footnotes.

    Example:
        ```python
        from libtext import Translator

        translator = Translator(provider="offline")
        seg = translator.translate('ויאמר אלהים יהי אור (בראשית א, ג) ויהי אור.')
        [p.sefaria_link for p in seg.translation_data]
        ```

    Args:
        provider: A provider name (``"offline"``, a litellm ``provider/model``) or a
            :class:`~libtext.providers.base.Provider`. Default: offline. The key of a
            litellm model is read from its environment variable when the Translator is made.
        retry: Retries and timeouts of each provider call (:class:`~libtext.RetryPolicy`);
            the same rules as the Outliner.
        timeout: Seconds one provider call may take (replaces ``retry.call_timeout``).
        glossary: Hebrew term -> required English (``{"ביטול": "self-nullification"}``);
            given to the model and checked in its answer (misses are noted).
        cache: A :class:`~libtext.ProviderCache` for answers; ``None`` for none
            (:func:`libtext.process_document` supplies one).
        max_chars: Longest piece of Hebrew (block and footnotes) sent in one call;
            longer blocks are sent in chunks of whole phrases. Default: what the model's
            context window holds with the prompt and the answer, by a pessimistic
            estimate of Hebrew tokens, at most 3000 (3000 when the window is unknown).
        context_tokens: The model's context window in tokens, when you know it better
            than litellm's model map or the server (as the Outliner's).
        concurrency: Calls in flight at once for one long block.
        options: Extra provider options (temperature, ...), part of the cache key.
        api_key: The key of a litellm model, instead of its environment variable.
        api_base: The server of a litellm model (``"http://localhost:11434"`` for
            ``"ollama/llama3"``, an OpenAI-compatible URL for ``"openai/my-model"``).
        max_segment_chars: Most characters (block plus footnotes) in one segment;
            more raises :class:`~libtext.errors.InputTooLargeError` (``None``: no limit).

    The old ``policy=`` still works until libtext 0.2, with a :class:`DeprecationWarning`;
    any other unknown keyword raises :class:`TypeError`.
    """

    @strict_keywords(deprecated=("policy",))
    def __init__(
        self,
        *,
        provider: str | Provider = DEFAULT_PROVIDER,
        retry: RetryPolicy | None = None,
        timeout: float | None = None,
        glossary: dict[str, str] | None = None,
        cache: ProviderCache | None = None,
        max_chars: int | None = None,
        context_tokens: int | None = None,
        concurrency: int = DEFAULT_CONCURRENCY,
        options: dict[str, Any] | None = None,
        api_key: str | None = None,
        api_base: str | None = None,
        max_segment_chars: int | None = DEFAULT_MAX_SEGMENT_CHARS,
        **deprecated: Any,
    ) -> None:
        from libtext.providers.registry import resolve_provider

        retry = legacy_retry("Translator", retry, deprecated)
        _check_glossary(glossary)
        for arg, value in (
            ("max_chars", max_chars),
            ("context_tokens", context_tokens),
            ("concurrency", concurrency),
        ):
            if arg != "concurrency" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidTypeError(
                    f"Translator({arg}=...) takes an int, not {type(value).__name__}."
                )
        if options is not None and not isinstance(options, dict):
            raise InvalidTypeError(
                f"Translator(options=...) takes a dict, not {type(options).__name__}."
            )
        if max_segment_chars is not None and (
            isinstance(max_segment_chars, bool)
            or not isinstance(max_segment_chars, int)
            or max_segment_chars < 1
        ):
            raise InvalidInputError("Translator(max_segment_chars=...) must be a positive int.")
        self.max_segment_chars = max_segment_chars
        if max_chars is not None and max_chars < 200:
            raise InvalidInputError("Translator(max_chars=...) must be at least 200.")
        if context_tokens is not None and context_tokens < 1:
            raise InvalidInputError("Translator(context_tokens=...) must be a positive int.")
        if concurrency < 1:
            raise InvalidInputError("Translator(concurrency=...) must be at least 1.")
        # Like the Outliner's: a key or a self-hosted server for a litellm model name.
        connection = provider_connection({}, api_key, api_base, timeout)
        self.provider: Provider = resolve_provider(provider, **connection)
        self.retry = with_timeout(retry, timeout)
        self.glossary = {k.strip(): v.strip() for k, v in (glossary or {}).items() if k.strip()}
        self.cache = cache
        self.max_chars = max_chars
        self.context_tokens = context_tokens
        self.concurrency = concurrency
        self.options = dict(options or {})
        self.calls = _Calls()
        self._slots = _Slots()

    def using_cache(self, cache: ProviderCache | None) -> Translator:
        """A translator like this one that keeps its answers in ``cache``.

        It shares this one's provider, options, call counts and call slots, so
        :attr:`concurrency` bounds the calls of both together
        (:func:`libtext.process_document` gives a translator without a cache its own).
        """
        twin = copy.copy(self)
        twin.cache = cache
        return twin

    def __repr__(self) -> str:
        return f"Translator(provider={self.provider.name!r})"

    @property
    def name(self) -> str:
        """The provider's name, as it appears in ``TranslatedSegment.provider``."""
        return self.provider.name

    def translate(
        self,
        segment: EnrichedSegment | OutlineSegment | str,
        *,
        footnotes: Sequence[Footnote] | None = None,
    ) -> TranslatedSegment:
        """Sync twin of :meth:`atranslate` (works in Jupyter too)."""
        return run_sync(self.atranslate, segment, footnotes=footnotes)

    async def atranslate(
        self,
        segment: EnrichedSegment | OutlineSegment | str,
        *,
        footnotes: Sequence[Footnote] | None = None,
    ) -> TranslatedSegment:
        """Translate one segment.

        Args:
            segment: An :class:`~libtext.models.EnrichedSegment` (an outline segment with
                its Hebrew block and footnotes), or plain Hebrew text.
            footnotes: Footnotes for plain text (or extra ones for a segment).

        Raises:
            EmptyDocumentError: There is no Hebrew and no footnote to translate.
            ProviderError: The provider failed after retries (a subclass says how).
        """
        seg = _as_segment(segment, footnotes)
        if self.max_segment_chars is not None:
            check_segment_size(seg, self.max_segment_chars, "max_segment_chars")
        warm_up = getattr(self.provider, "warm_up", None)
        if warm_up is not None:  # may learn the server's slots (max_concurrency) first
            await warm_up()
        limiter = self._slots.limiter(self._max_in_flight())
        return await self._translate(seg, cache=self.cache, limiter=limiter)

    def chunk_chars(self, title: str = "") -> int:
        """Characters of Hebrew (block and footnotes) sent in one call.

        ``max_chars`` when given; else what the context window holds (``context_tokens``,
        else the provider's ``max_input_tokens``, known after its ``warm_up()``) with this
        Translator's prompt for ``title`` and the answer, at most ``DEFAULT_MAX_CHARS``.

        Raises:
            ConfigurationError: The window cannot hold the prompt and a useful chunk.
        """
        if self.max_chars is not None:
            return self.max_chars
        context = self.context_tokens or getattr(self.provider, "max_input_tokens", None)
        if not isinstance(context, int) or isinstance(context, bool) or context < 1:
            return DEFAULT_MAX_CHARS
        limit = self.options.get("max_tokens")
        return chunk_chars(
            context_tokens=context,
            prompt_tokens=request_tokens(self._request("", [], [], title).messages),
            max_tokens=limit if isinstance(limit, int) and not isinstance(limit, bool) else None,
            cap=DEFAULT_MAX_CHARS,
        )

    def _max_in_flight(self) -> int:
        """``concurrency``, lowered to the provider's ``max_concurrency`` when it declares one."""
        declared = getattr(self.provider, "max_concurrency", None)
        if isinstance(declared, int) and declared > 0:
            return min(self.concurrency, declared)
        return self.concurrency

    # --- the work -------------------------------------------------------------------

    async def _translate(
        self,
        seg: EnrichedSegment,
        *,
        cache: ProviderCache | None,
        limiter: anyio.CapacityLimiter,
    ) -> TranslatedSegment:
        block = seg.original_hebrew_block
        if not has_letters(block) and not seg.footnotes:
            raise EmptyDocumentError(
                "The segment has no Hebrew text to translate; pass original_hebrew_block=...",
                details={"sequence_id": seg.sequence_id},
            )
        title = _title(seg)
        plan = await off_loop(
            len(block), "translate_plan", make_plan, seg=seg, max_chars=self.chunk_chars(title)
        )
        spans, chunks = plan.spans, plan.chunks
        answers: list[TranslationResponse | None] = [None] * len(chunks)

        failures: list[Exception] = []
        unusable: list[tuple[int, ProviderOutputError]] = []

        starts = [s for s, _ in spans]

        def chunk_phrases(chunk: Chunk) -> list[str]:
            # Bisect, not a scan of all spans per chunk: linear in the block, not quadratic.
            lo, hi = bisect_left(starts, chunk.start), bisect_left(starts, chunk.end)
            return [block[s:e].strip() for s, e in spans[lo:hi]]

        async def ask(chunk: Chunk, depth: int) -> TranslationResponse | None:
            phrases = chunk_phrases(chunk)
            text = block[chunk.start : chunk.end]
            try:
                return await self._ask(text, phrases, chunk, title, cache, limiter)
            except ProviderError as exc:
                lo, hi = bisect_left(starts, chunk.start), bisect_left(starts, chunk.end)
                halves = _halve(chunk, spans[lo:hi], block) if _too_big(exc, depth) else None
                if halves is None:
                    raise
                # Too long for the context, or the answer was cut off: the chunk is
                # split at a phrase and each half asked, never the whole again.
                first = await ask(halves[0], depth + 1)
                return _joined(first, await ask(halves[1], depth + 1))

        async def run(i: int, chunk: Chunk, tg: TaskGroup) -> None:
            try:
                answers[i] = await ask(chunk, 0)
            except ProviderOutputError as exc:
                # The answer was unusable: this chunk keeps what needs no model.
                unusable.append((i, exc))
                phrases = chunk_phrases(chunk)
                answers[i] = _offline_answer(block[chunk.start : chunk.end], phrases, chunk)
            except Exception as exc:  # one chunk failed: the segment has failed
                failures.append(exc)
                tg.cancel_scope.cancel()

        async with anyio.create_task_group() as tg:
            for i, chunk in enumerate(chunks[1:], start=1):
                tg.start_soon(run, i, chunk, tg)
            # The first chunk runs in this task, so its call starts before other tasks run.
            await run(0, chunks[0], tg)
        if failures:
            raise failures[0]
        result = await off_loop(
            len(block),
            "translate_assemble",
            assemble,
            seg=seg,
            plan=plan,
            answers=answers,
            provider=self.provider.name,
            glossary=self.glossary,
        )
        if not unusable:
            return result
        unusable.sort(key=lambda item: item[0])
        return _with_failure(result, unusable[0][1], len(unusable), len(chunks))

    def offline_part(self, segment: EnrichedSegment, error: LibtextError) -> TranslatedSegment:
        """What needs no model, for a segment whose provider call failed with ``error``.

        libtext's own phrase split, abbreviations expanded from the bundled table and
        Sefaria links, with ``complete=False``, ``error`` set and a note naming the
        failure, in the chunks the model call used (:meth:`chunk_chars`), so the note's
        count of failed parts is the call's. :func:`libtext.process_document` keeps this
        for a failed section.
        """
        seg = _as_segment(segment, None)
        try:  # chunked as the model call was, so a part names the same chunks
            size = self.chunk_chars(_title(seg))
        except ConfigurationError:  # the window holds no chunk: the call sent none
            size = DEFAULT_MAX_CHARS
        plan = make_plan(seg, size)
        answers: list[TranslationResponse | None] = []
        starts = [s for s, _ in plan.spans]
        for chunk in plan.chunks:
            lo, hi = bisect_left(starts, chunk.start), bisect_left(starts, chunk.end)
            phrases = [seg.original_hebrew_block[s:e].strip() for s, e in plan.spans[lo:hi]]
            text = seg.original_hebrew_block[chunk.start : chunk.end]
            answers.append(_offline_answer(text, phrases, chunk))
        result = assemble(seg, plan, answers, provider=self.provider.name, glossary=self.glossary)
        return _with_failure(result, error, len(plan.chunks), len(plan.chunks))

    async def _ask(
        self,
        text: str,
        phrases: list[str],
        chunk: Chunk,
        title: str,
        cache: ProviderCache | None,
        limiter: anyio.CapacityLimiter,
    ) -> TranslationResponse | None:
        if not has_letters(text) and not chunk.footnotes:
            return None
        request = self._request(text, phrases, chunk.footnotes, title)
        key = None
        if cache is not None and self.provider.name != "offline":
            from libtext.providers._cache import cache_key

            key = cache_key(
                task=request.task,
                provider=self.provider.name,
                prompt_version=request.prompt_version,
                response_model=request.response_model,
                messages=request.messages,
                payload=request.payload,
                options=request.options,
            )
            # A primary-key read of a local file: done inline, so a free call slot is taken
            # before other sections' work runs (a thread hop here delays every first call).
            hit = cache.get(key)
            if hit is not None:
                self.calls.cached += 1
                return TranslationResponse.model_validate_json(hit)
        from libtext.providers.structured import run_structured

        try:
            limiter.acquire_nowait()  # no yield when a slot is free: the call starts now
        except anyio.WouldBlock:
            await limiter.acquire()
        try:
            result = await run_structured(self.provider, request, policy=self.retry)
        finally:
            limiter.release()
        self.calls.provider += result.attempts
        value: TranslationResponse = result.value
        if key is not None and cache is not None:
            await cache.aput(
                key,
                value.model_dump_json(),
                task=request.task,
                provider=self.provider.name,
                prompt_version=request.prompt_version,
            )
        return value

    def _request(
        self, text: str, phrases: list[str], footnotes: list[Footnote], title: str
    ) -> ProviderRequest:
        from libtext.prompts import load_prompt
        from libtext.providers.base import ProviderRequest

        prompt = load_prompt(PROMPT_NAME)
        glossary = "\n".join(f"{k} -> {v}" for k, v in sorted(self.glossary.items())) or "(none)"
        notes = "\n".join(f"{fn.marker}: {fn.content}" for fn in footnotes) or "(none)"
        schema = _response_schema()
        messages = prompt.messages(
            title=title or "a Hebrew text",
            glossary=glossary,
            schema=schema,
            footnotes=notes,
            hebrew=text,
        )
        payload = TranslatePayload(
            hebrew=text, phrases=phrases, footnotes=footnotes, glossary=self.glossary, title=title
        )
        return ProviderRequest(
            task="translate",
            messages=messages,
            response_model=TranslationResponse,
            payload=payload,
            prompt_version=prompt.version,
            options=dict(self.options),
        )


# --- helpers ------------------------------------------------------------------------

MAX_SPLITS = 3
"""Times a chunk too long for the model's context is halved (once for a cut-off answer)."""


def _too_big(exc: ProviderError, depth: int) -> bool:
    """The call failed because the chunk was too long: the request overflowed the context
    (halved up to :data:`MAX_SPLITS` times) or the answer was cut off at the output limit
    (halved once: if the halves are cut off too, the model is rambling)."""
    reason = exc.details.get("reason") if isinstance(exc.details, dict) else None
    if reason == "length":
        return depth == 0
    return reason == "context_window" and depth < MAX_SPLITS


def _halve(chunk: Chunk, spans: list[tuple[int, int]], block: str) -> tuple[Chunk, Chunk] | None:
    """The chunk cut between two of its phrases, near its middle; each footnote goes with
    the half where its marker stands (else the second). ``None`` for a single phrase."""
    if len(spans) < 2:
        return None
    middle = len(spans) // 2
    cut = spans[middle][0]
    first = Chunk(chunk.start, cut)
    second = Chunk(cut, chunk.end)
    for fn in chunk.footnotes:
        shown = any(form in block[chunk.start : cut] for form in marker_forms(fn.marker))
        (first if shown else second).footnotes.append(fn)
    return first, second


def _joined(
    first: TranslationResponse | None, second: TranslationResponse | None
) -> TranslationResponse | None:
    """Two halves' answers as one chunk's."""
    if first is None or second is None:
        return first or second
    return TranslationResponse(
        phrases=[*first.phrases, *second.phrases],
        footnotes=[*first.footnotes, *second.footnotes],
    )


def _offline_answer(text: str, phrases: list[str], chunk: Chunk) -> TranslationResponse:
    """libtext's own answer for a chunk (phrase split, expansions, citations' English)."""
    from libtext.translate._offline import answer

    return answer(TranslatePayload(hebrew=text, phrases=phrases, footnotes=chunk.footnotes))


def _with_failure(
    result: TranslatedSegment, error: LibtextError, failed: int, chunks: int
) -> TranslatedSegment:
    """``result`` marked incomplete, with a note and ``error`` naming the provider's failure."""
    where = "the segment" if chunks == 1 else f"{failed} of {chunks} parts of the segment"
    reason = error.details.get("reason") if isinstance(error.details, dict) else None
    why = f"{error.code}" + (f" ({reason})" if reason else "")
    note = (
        f"The provider's translation of {where} failed ({why}): {error.message} "
        "libtext's own phrase split, expansions and links are kept."
    )
    return result.model_copy(
        update={
            "complete": False,
            "notes": [note, *result.notes],
            "error": f"{error.code}: {error.message}",
        }
    )


@cache
def _response_schema() -> str:
    return json.dumps(TranslationResponse.model_json_schema(), ensure_ascii=False)


def check_segment_size(seg: EnrichedSegment, limit: int, name: str) -> None:
    """Raise :class:`InputTooLargeError` when the segment's Hebrew is over ``limit`` characters.

    ``name`` is the limit as the caller knows it (an argument, a server setting).
    """
    size = len(seg.original_hebrew_block) + sum(len(fn.content) for fn in seg.footnotes)
    if size > limit:
        raise InputTooLargeError(
            f"The segment has {size:,} characters of Hebrew, over the limit {name}={limit:,}; "
            "split it into sections (e.g. by chapter) and translate each.",
            details={"limit": name, name: limit, "chars": size},
        )


def _check_glossary(glossary: object) -> None:
    if glossary is None:
        return
    if not isinstance(glossary, dict):
        raise InvalidTypeError(
            f"Translator(glossary=...) takes a dict of Hebrew term -> English, not "
            f"{type(glossary).__name__}."
        )
    for key, value in glossary.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise InvalidTypeError(
                "Translator(glossary=...) maps Hebrew terms (str) to English (str); got "
                f"{type(key).__name__} -> {type(value).__name__} for {short(key)}."
            )


def _title(seg: EnrichedSegment) -> str:
    """The title a request names (and :meth:`Translator.chunk_chars` sizes the prompt by)."""
    return seg.segment_title or seg.chapter_title


def _as_segment(
    segment: EnrichedSegment | OutlineSegment | str, footnotes: Sequence[Footnote] | None
) -> EnrichedSegment:
    if isinstance(segment, str):
        problem = unicode_problem(segment)
        if problem is not None:
            raise InvalidInputError(
                f"The text to translate contains {problem}; pass valid Unicode text.",
                details={"problem": problem},
            )
        if not has_letters(segment) and not footnotes:
            raise EmptyDocumentError(
                "The text to translate is empty: pass a Hebrew passage, e.g. "
                "translate('ויאמר אלהים יהי אור (בראשית א, ג)')."
            )
        seg = EnrichedSegment(sequence_id=1, original_hebrew_block=segment)
    elif isinstance(segment, EnrichedSegment):
        seg = segment
    elif isinstance(segment, OutlineSegment):
        seg = EnrichedSegment(**segment.model_dump())
    else:
        raise InvalidTypeError(
            f"Translator.translate(segment=...) takes an EnrichedSegment or Hebrew text, not "
            f"{type(segment).__name__}."
        )
    if footnotes:
        seg = seg.model_copy(update={"footnotes": [*seg.footnotes, *footnotes]})
    return seg
