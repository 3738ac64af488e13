"""The Outliner: a PDF (or text) to a :class:`~libtext.models.DocumentOutline`.

One provider gives one outline (:meth:`Outliner.aoutline`); several are run side by
side on the same extraction (:meth:`Outliner.acompare`) to compare models. Whatever
the provider, its phrases are grounded in the extracted text
(:mod:`libtext.grounding`), so they can be used to cut the segments' Hebrew out.

Example:
    ```python
    from libtext import Outliner

    outline = Outliner().outline("examples/sample.pdf")  # offline, no key needed
    for seg in outline.outline_segments:
        print(seg.page_ref, seg.chapter_title, seg.start_phrase_hebrew)
    ```
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import IO, TYPE_CHECKING, Any

import anyio

from libtext._keywords import (
    LEGACY_MODEL_OPTIONS,
    legacy_options,
    one_or_many,
    provider_connection,
    strict_keywords,
)
from libtext._outline_windows import (
    MIN_WINDOW_TOKENS,
    OutlineAnswer,
    Window,
    estimate_tokens,
    halve_window,
    merge_metadata,
    outline_messages,
    prompt_overhead_tokens,
    split_windows,
    window_budget,
)
from libtext._policy import legacy_retry, with_timeout
from libtext._sync import run_cpu, run_sync, with_twin_docs
from libtext.errors import (
    ConfigurationError,
    EmptyDocumentError,
    InvalidInputError,
    InvalidTypeError,
    LibtextError,
    ProviderError,
    ProviderOutputError,
)
from libtext.grounding import GroundingIndex, first_page, ground_metadata, ground_outline
from libtext.models import (
    DocumentOutline,
    ErrorDetail,
    ExtractedDocument,
    GroundingReport,
    OutlineComparison,
    OutlineSegment,
    ProviderAgreement,
    ProviderOutcome,
    SourceMetadata,
    unicode_problem,
)
from libtext.prompts import load_prompt
from libtext.providers.base import Provider, ProviderRequest, Usage

if TYPE_CHECKING:
    from anyio.abc import TaskGroup

    from libtext._policy import RetryPolicy

__all__ = ["OutlineSource", "Outliner", "agreement"]

logger = logging.getLogger("libtext.outline")

OutlineSource = str | os.PathLike[str] | bytes | bytearray | IO[bytes] | ExtractedDocument
"""What the Outliner reads: a PDF path, its bytes, a binary file, or an extraction."""

WINDOW_CONCURRENCY = 4
"""Windows of one document outlined at once by one provider."""

INLINE_GROUNDING_CHARS = 10_000
"""Texts up to this long are grounded on the event loop (at most about 1 ms per 1,000
characters, the first time); longer ones in a worker thread."""


@dataclass
class _Run:
    outline: DocumentOutline
    report: GroundingReport
    usage: Usage
    prompt_version: str | None


@with_twin_docs
class Outliner:
    """Outline Hebrew documents with one provider, or compare several.

    Args:
        provider: One provider: a name (``"offline"``, any litellm ``"provider/model"``)
            or a :class:`~libtext.providers.base.Provider` object. Default: offline.
        providers: Several providers, to compare (:meth:`compare`); instead of
            ``provider``.
        options: Model options (``{"temperature": 0}``) sent with every outline request,
            to a named provider or a provider object alike (as the Translator's).
        retry: Retries and timeouts of each provider call
            (:class:`~libtext.RetryPolicy`).
        timeout: Seconds one provider call may take (replaces ``retry.call_timeout``).
        concurrency: Windows of one document asked at once.
        api_key: The key of a litellm model, instead of its environment variable.
        api_base: The server of a litellm model (``"http://localhost:11434"``).
        max_pages: Outline only the first ``max_pages`` pages.
        window_tokens: Tokens of document text per request; default from the
            context window (``context_tokens``), less the prompt and room for the answer.
        context_tokens: The model's context window in tokens, when you know it better
            than libtext: default the server's own report (``api_base``: llama.cpp's
            ``n_ctx``, vLLM's ``max_model_len``), else litellm's model map, else 100k.
        overlap_pages: Pages shared by consecutive windows (at most a quarter of a
            window), so a chapter at a window's edge is seen whole.
        keep_metadata: Keep a title or author the model gave that is not in the
            document's first pages nor its PDF metadata (it is always listed in the
            grounding report's ``unsupported_metadata``); by default it is dropped.

    Old spellings (``policy=``, model options as keywords such as ``temperature=0``)
    still work until libtext 0.2, with a :class:`DeprecationWarning`; any other unknown
    keyword raises :class:`TypeError`.

    Raises:
        ConfigurationError: No providers, or an unknown provider name.
        MissingAPIKeyError: A provider needs a key that is not set; raised here,
            before any work.
    """

    @strict_keywords(deprecated=("policy", *LEGACY_MODEL_OPTIONS))
    def __init__(
        self,
        *,
        provider: str | Provider | None = None,
        providers: Sequence[str | Provider] | None = None,
        options: dict[str, Any] | None = None,
        retry: RetryPolicy | None = None,
        timeout: float | None = None,
        concurrency: int = WINDOW_CONCURRENCY,
        api_key: str | None = None,
        api_base: str | None = None,
        max_pages: int | None = None,
        window_tokens: int | None = None,
        context_tokens: int | None = None,
        overlap_pages: int = 1,
        keep_metadata: bool = False,
        **deprecated: Any,
    ) -> None:
        from libtext.providers.registry import resolve_provider

        retry = legacy_retry("Outliner", retry, deprecated)
        options = legacy_options("Outliner", options, deprecated)
        chosen = one_or_many("Outliner", provider, providers)
        if not chosen:
            raise ConfigurationError("Outliner needs at least one provider, e.g. 'offline'.")
        if max_pages is not None and max_pages < 1:
            raise ConfigurationError("max_pages must be 1 or more (or None for all pages).")
        if overlap_pages < 0:
            raise ConfigurationError("overlap_pages must be 0 or more.")
        if concurrency < 1:
            raise ConfigurationError("Outliner(concurrency=...) must be 1 or more.")
        if context_tokens is not None and (
            isinstance(context_tokens, bool)
            or not isinstance(context_tokens, int)
            or context_tokens < 1
        ):
            raise ConfigurationError("Outliner(context_tokens=...) must be a positive int.")
        connection = provider_connection(options, api_key, api_base, timeout)
        self.providers: list[Provider] = [resolve_provider(p, **connection) for p in chosen]
        self.retry = with_timeout(retry, timeout)
        self.options = options
        self.concurrency = concurrency
        self.max_pages = max_pages
        self.window_tokens = window_tokens
        self.context_tokens = context_tokens
        self.overlap_pages = overlap_pages
        self.keep_metadata = keep_metadata

    def __repr__(self) -> str:
        names = ", ".join(repr(p.name) for p in self.providers)
        return f"Outliner(providers=[{names}])"

    @property
    def provider_names(self) -> list[str]:
        """The providers' names, in order."""
        return [p.name for p in self.providers]

    # --- public API -----------------------------------------------------------------

    async def aoutline(
        self, source: OutlineSource, *, password: str | None = None
    ) -> DocumentOutline:
        """Outline a PDF (path, bytes, binary file) or an :class:`ExtractedDocument`.

        ``password`` opens an encrypted PDF.

        Raises:
            ConfigurationError: More than one provider: use :meth:`acompare`.
            InvalidInputError: The PDF cannot be read (see :func:`libtext.extract_pdf`).
            ProviderError: The provider failed after retries.
        """
        provider = self._single()
        doc = await self._document(source, password)
        return (await self._outline_with(provider, doc, GroundingIndex.of(doc))).outline

    def outline(self, source: OutlineSource, *, password: str | None = None) -> DocumentOutline:
        """Sync twin of :meth:`aoutline` (works inside Jupyter too)."""
        return run_sync(self.aoutline, source, password=password)

    async def aoutline_text(self, text: str) -> DocumentOutline:
        """Outline plain Hebrew text; form feeds (``\\f``) separate its pages.

        Raises:
            InvalidTypeError: ``text`` is not a ``str``.
            InvalidInputError: It is not valid Unicode (a lone surrogate).
            EmptyDocumentError: It has no letters (only marks, punctuation, spaces).
        """
        _check_text(text)
        provider = self._single()
        doc = text_document(text)
        return (await self._outline_with(provider, doc, GroundingIndex.of(doc))).outline

    def outline_text(self, text: str) -> DocumentOutline:
        """Sync twin of :meth:`aoutline_text`."""
        return run_sync(self.aoutline_text, text)

    async def acompare(
        self, source: OutlineSource, *, password: str | None = None
    ) -> OutlineComparison:
        """Outline one document with every provider at once and compare the results.

        The document is extracted once (``password`` opens an encrypted PDF). A provider
        that fails gives an outcome with its error; the others are unaffected.
        """
        doc = await self._document(source, password)
        index = GroundingIndex.of(doc)
        outcomes: list[ProviderOutcome | None] = [None] * len(self.providers)

        labels = _labels(self.provider_names)

        async def run(i: int, provider: Provider) -> None:
            outcome = await self._outcome(provider, doc, index)
            outcomes[i] = outcome.model_copy(update={"provider": labels[i]})

        async with anyio.create_task_group() as tg:
            for i, provider in enumerate(self.providers):
                tg.start_soon(run, i, provider)
        results = [o for o in outcomes if o is not None]
        metadata = next(
            (o.outline.source_metadata for o in results if o.outline is not None),
            SourceMetadata(work_title=doc.title, author_name=doc.author),
        )
        return OutlineComparison(
            source_metadata=metadata, results=results, agreement=agreement(results)
        )

    def compare(self, source: OutlineSource, *, password: str | None = None) -> OutlineComparison:
        """Sync twin of :meth:`acompare`."""
        return run_sync(self.acompare, source, password=password)

    # --- internals --------------------------------------------------------------------

    def _single(self) -> Provider:
        if len(self.providers) > 1:
            raise ConfigurationError(
                f"This Outliner has {len(self.providers)} providers; call compare() to run "
                "them side by side, or give outline() a single provider.",
                details={"providers": self.provider_names},
            )
        return self.providers[0]

    async def _document(
        self, source: OutlineSource, password: str | None = None
    ) -> ExtractedDocument:
        if isinstance(source, ExtractedDocument):
            doc = source
            if self.max_pages is not None:
                doc = doc.model_copy(update={"pages": doc.pages[: self.max_pages]})
        else:
            from libtext.pdf import aextract_pdf

            pages = range(self.max_pages) if self.max_pages is not None else None
            doc = await aextract_pdf(source, password=password, pages=pages)
        if not doc.text.strip():
            raise EmptyDocumentError(
                "The document has no text to outline; check the file (a scanned PDF needs OCR)."
            )
        return doc

    async def _outcome(
        self, provider: Provider, doc: ExtractedDocument, index: GroundingIndex
    ) -> ProviderOutcome:
        name = provider.name
        started = time.perf_counter()
        try:
            run = await self._outline_with(provider, doc, index)
        except LibtextError as exc:
            error = ErrorDetail(code=exc.code, message=exc.message, details=exc.details)
        except Exception as exc:  # a custom provider's bug must not sink the others
            error = ErrorDetail(
                code="provider_error",
                message=f"Provider {name!r} raised {type(exc).__name__}; check its code.",
                details={"provider": name, "exception": type(exc).__name__},
            )
        else:
            return ProviderOutcome(
                provider=name,
                ok=True,
                outline=run.outline,
                latency_s=time.perf_counter() - started,
                tokens_in=run.usage.tokens_in,
                tokens_out=run.usage.tokens_out,
                cost_usd=run.usage.cost_usd,
                prompt_version=run.prompt_version,
                grounding=run.report,
            )
        return ProviderOutcome(
            provider=name, ok=False, error=error, latency_s=time.perf_counter() - started
        )

    async def _outline_with(
        self, provider: Provider, doc: ExtractedDocument, index: GroundingIndex
    ) -> _Run:
        from libtext.providers.structured import run_structured

        if getattr(provider, "reads_payload", False):
            # Rule-based providers read the whole document, not a prompt.
            request = ProviderRequest(
                task="outline",
                messages=[],
                response_model=DocumentOutline,
                payload=doc,
                options=dict(self.options or {}),
            )
            result = await run_structured(provider, request, policy=self.retry)
            outline, report = await _ground(result.value, index)
            return _Run(outline, report, result.usage, None)

        prompt = load_prompt("outline")
        overhead = prompt_overhead_tokens(prompt, doc)
        # Reading max_input_tokens may import litellm (seconds): a provider with a
        # warm_up() does that in a worker thread first, so the event loop never stalls.
        warm_up = getattr(provider, "warm_up", None)
        if warm_up is not None:
            await warm_up()
        budget = window_budget(
            context_tokens=self.context_tokens or getattr(provider, "max_input_tokens", None),
            overhead_tokens=overhead,
            window_tokens=self.window_tokens,
        )
        windows = split_windows(doc, budget, self.overlap_pages)
        answers: list[list[tuple[Window, DocumentOutline]]] = [[] for _ in windows]
        usages: list[Usage] = []
        errors: list[BaseException] = []
        # Calls queue here, before the timed call: a one-slot server's queue does not
        # count against call_timeout.
        declared = getattr(provider, "max_concurrency", None)
        slots = self.concurrency
        if isinstance(declared, int) and not isinstance(declared, bool) and declared > 0:
            slots = min(slots, declared)
        limiter = anyio.CapacityLimiter(slots)
        count = len(windows)

        async def ask_window(window: Window, depth: int) -> list[tuple[Window, DocumentOutline]]:
            request = ProviderRequest(
                task="outline",
                # A half of a split window is a part of a longer document.
                messages=outline_messages(prompt, doc, window, count if not depth else 2),
                response_model=OutlineAnswer,
                payload=window.document(doc),
                prompt_version=prompt.version,
                options=dict(self.options or {}),
                check=_window_check(window, doc, whole=count == 1 and not depth),
            )
            try:
                async with limiter:
                    result = await run_structured(provider, request, policy=self.retry)
            except ProviderError as exc:
                halves = halve_window(window) if _too_big(exc, window, depth) else None
                if halves is None:
                    raise
                # Too long for the context, or the answer did not fit the output: the
                # window is split, never sent whole again.
                first = await ask_window(halves[0], depth + 1)
                return first + await ask_window(halves[1], depth + 1)
            usages.append(result.usage)
            return [(window, result.value.to_outline())]

        async def ask(window: Window, tg: TaskGroup) -> None:
            try:
                answers[window.index] = await ask_window(window, 0)
            except Exception as exc:
                errors.append(exc)
                tg.cancel_scope.cancel()  # one window failed: the outline has failed

        async with anyio.create_task_group() as tg:
            for window in windows:
                tg.start_soon(ask, window, tg)
        if errors:
            raise errors[0]
        merged = _merge_windows([pair for pairs in answers for pair in pairs], doc)
        outline, report = await _ground(merged, index)
        metadata, unsupported = ground_metadata(outline.source_metadata, doc)
        if unsupported:
            logger.warning(
                "provider=%s gave %s not found in the document%s",
                provider.name,
                ", ".join(unsupported),
                " (kept: keep_metadata=True)" if self.keep_metadata else " (dropped)",
            )
            report = report.model_copy(update={"unsupported_metadata": unsupported})
            if not self.keep_metadata:
                outline = outline.model_copy(update={"source_metadata": metadata})
        if not outline.outline_segments:
            raise ProviderOutputError(
                f"Provider {provider.name!r} gave no segment whose start phrase is in the "
                "document's text: the outline is not usable; try a stronger model or "
                "another provider.",
                provider=provider.name,
                details={"reason": "no_grounded_segment", "grounding": report.model_dump()},
            )
        return _Run(outline, report, _sum_usage(usages), prompt.version)


MAX_SPLITS = 3
"""Times a window too long for the model (its context, or its output limit) is halved."""


def _too_big(exc: ProviderError, window: Window, depth: int) -> bool:
    """The call failed because the window was too long: the input overflowed the
    context (halved up to :data:`MAX_SPLITS` times), or the answer was cut off at the
    output limit (halved once, and only a window of at least two minimal windows: if
    the halves are cut off too, the model is rambling, not the window too long)."""
    reason = exc.details.get("reason") if isinstance(exc.details, dict) else None
    if reason == "length":
        return depth == 0 and estimate_tokens(window.text) >= 2 * MIN_WINDOW_TOKENS
    return reason == "context_window" and depth < MAX_SPLITS


def _window_check(
    window: Window, doc: ExtractedDocument, *, whole: bool
) -> Callable[[Any], str | None]:
    """The usability check of one window's answer (see ``ProviderRequest.check``).

    An answer whose segments all start with phrases that are not in the window's text
    is unusable (invented or copied from the instructions); so is an empty one for a
    whole document that has text. A part of a longer document may have no segment
    start (a long chapter runs through it).
    """

    def check(answer: Any) -> str | None:
        segments = getattr(answer, "outline_segments", [])
        if not segments:
            return "the answer has no outline segment" if whole else None
        index = GroundingIndex.of(window.document(doc))
        if any(index.locate(s.start_phrase_hebrew, side="start") for s in segments):
            return None
        return (
            "no start_phrase_hebrew is in the document's text; copy the first words of "
            "each segment verbatim from the text"
        )

    return check


async def _ground(
    outline: DocumentOutline, index: GroundingIndex
) -> tuple[DocumentOutline, GroundingReport]:
    # Normalizing a long book's text takes a while: keep the event loop free. A short
    # text takes a millisecond or two, less than the hop to a thread and back, which
    # also makes the loop and the thread take turns with the GIL.
    inline = len(index.text) <= INLINE_GROUNDING_CHARS
    return await run_cpu(ground_outline, outline, index, inline=inline)


def _merge_windows(
    answers: list[tuple[Window, DocumentOutline]], doc: ExtractedDocument
) -> DocumentOutline:
    """Concatenate the windows' segments; grounding sorts and de-duplicates them.

    The last segment of a window that is not the last may run on past it, so its end
    phrase is only where the window stopped: it is cleared, to be taken from the next
    window's copy of the segment or repaired to the words before the next segment.
    """
    segments: list[OutlineSegment] = []
    for k, (_, answer) in enumerate(answers):
        segs = list(answer.outline_segments)
        if k + 1 < len(answers) and segs:
            segs[-1] = segs[-1].model_copy(update={"end_phrase_hebrew": ""})
        segments.extend(segs)
    metadata = merge_metadata([a.source_metadata for _, a in answers], doc)
    return DocumentOutline(source_metadata=metadata, outline_segments=segments)


def _labels(names: list[str]) -> list[str]:
    """Names made unique (``offline``, ``offline#2``) so agreement pairs are unambiguous."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return labels


def _sum_usage(usages: list[Usage]) -> Usage:
    def total(values: list[Any]) -> Any:
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    return Usage(
        tokens_in=total([u.tokens_in for u in usages]),
        tokens_out=total([u.tokens_out for u in usages]),
        cost_usd=total([u.cost_usd for u in usages]),
    )


def agreement(
    results: Sequence[ProviderOutcome], tolerance_pages: int = 1
) -> list[ProviderAgreement]:
    """Pairwise agreement of successful outcomes: segments whose start pages match.

    Each segment matches at most one of the other outline's, within
    ``tolerance_pages`` (a greedy walk over both sorted page lists, which is the
    largest such matching).
    """
    ok = [r for r in results if r.ok and r.outline is not None]
    pairs: list[ProviderAgreement] = []
    for a, b in combinations(ok, 2):
        assert a.outline is not None and b.outline is not None
        pages_a = sorted(p for p in map(first_page, _refs(a.outline)) if p is not None)
        pages_b = sorted(p for p in map(first_page, _refs(b.outline)) if p is not None)
        i = j = matched = 0
        while i < len(pages_a) and j < len(pages_b):
            if abs(pages_a[i] - pages_b[j]) <= tolerance_pages:
                matched += 1
                i += 1
                j += 1
            elif pages_a[i] < pages_b[j]:
                i += 1
            else:
                j += 1
        n_a, n_b = len(a.outline.outline_segments), len(b.outline.outline_segments)
        most = max(n_a, n_b)
        pairs.append(
            ProviderAgreement(
                a=a.provider,
                b=b.provider,
                tolerance_pages=tolerance_pages,
                matched=matched,
                segments_a=n_a,
                segments_b=n_b,
                score=round(matched / most, 4) if most else 1.0,
            )
        )
    return pairs


def _refs(outline: DocumentOutline) -> list[str]:
    return [s.page_ref for s in outline.outline_segments]


def text_document(text: str) -> ExtractedDocument:
    """Plain text as an :class:`ExtractedDocument`: pages split on form feeds.

    Lines written like headings (``פרק ג``, ``הקדמה``) are marked as headings, one
    size above the body, so the offline rules find the chapters.
    """
    from libtext.headings import text_page

    if not isinstance(text, str):
        raise InvalidInputError(f"outline_text() takes a str, not {type(text).__name__}.")
    if not text.strip():
        raise EmptyDocumentError("The text is empty: nothing to outline.")
    chunks = text.replace("\r\n", "\n").split("\f")
    pages = [
        text_page(number, chunk.strip("\n").split("\n"))
        for number, chunk in enumerate(chunks, start=1)
    ]
    return ExtractedDocument(pages=pages, body_size=10.0)


_LETTER = re.compile(r"[^\W\d_]|\d")


def _check_text(text: object) -> None:
    """Refuse what cannot be outlined before any work: not text, not Unicode, no letters."""
    if not isinstance(text, str):
        raise InvalidTypeError(
            f"Outliner.outline_text(text=...) takes a str, not {type(text).__name__}."
        )
    problem = unicode_problem(text)
    if problem is not None:
        raise InvalidInputError(f"The text contains {problem}; pass valid Unicode text.")
    if _LETTER.search(text) is None:
        raise EmptyDocumentError(
            "The text has no letters (only marks, punctuation or spaces); pass Hebrew text."
        )
