"""The full pipeline: a PDF or a library work in, a bilingual, annotated, stored document out.

:func:`aprocess_document` runs, in order:

1. extract the PDF once;
2. outline it with the Outliner (a library work is already structured: its sections
   come from :func:`libtext.library._works.work_to_document`, the one converter of
   a work, and steps 2-3 are skipped);
3. cut the body text into sections at the segments' start phrases (a heading just
   before a start phrase opens its section). Every character of the body belongs to
   exactly one section, in order: the sections' ``original_hebrew_block``\\ s joined
   give back the body text (``ExtractedDocument.text``), title page included in the
   first section. Footnotes go to the section whose text holds their marker;
4. translate the sections concurrently (``concurrency`` provider calls at most);
5. assemble the :class:`~libtext.models.ProcessedDocument`;
6. save it to the store, if one is given (all at once: a cancelled job saves nothing).

Provider answers are cached (:mod:`libtext.providers._cache`), so processing the same document
again makes no provider call. A section whose translation fails after retries keeps
its Hebrew, libtext's phrase split, expansions and links, and gets ``error``; such a
document is saved only with ``save_partial=True``, and a run where every section failed
raises.
"""

from __future__ import annotations

import bisect
import hashlib
import logging
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeAlias

import anyio
import anyio.to_thread

from libtext._keywords import strict_keywords
from libtext._sync import complete_twin_docs, run_sync
from libtext.errors import (
    ConfigurationError,
    InvalidInputError,
    LibtextError,
    PartialTranslationError,
    ProviderError,
)
from libtext.hebrew import marker_forms, normalize_for_match
from libtext.models import (
    DocumentOutline,
    EnrichedSegment,
    ExtractedDocument,
    ExtractedPage,
    Footnote,
    OutlineSegment,
    ProcessedDocument,
    Section,
    SourceMetadata,
    TranslatedSegment,
    WorkByIdResponse,
)

if TYPE_CHECKING:  # pragma: no cover
    from libtext.grounding import GroundingIndex
    from libtext.outline import Outliner
    from libtext.providers._cache import ProviderCache
    from libtext.store import TextStore
    from libtext.translate import Translator

__all__ = [
    "FRONT_MATTER",
    "DocumentSource",
    "ProgressCallback",
    "aprocess_document",
    "check_failures",
    "cut_sections",
    "failed_sections",
    "process_document",
]

logger = logging.getLogger("libtext.process")

DocumentSource: TypeAlias = (
    str | os.PathLike[str] | bytes | bytearray | IO[bytes] | ExtractedDocument | WorkByIdResponse
)
"""A PDF (path, bytes, binary file), an extraction, or a library work."""

ProgressCallback: TypeAlias = Callable[[str, int, int], Any]
"""Called with ``(stage, done, total)``; stages: extract, outline, section, translate, save."""

DEFAULT_CONCURRENCY = 4

_FOOTNOTE_START = re.compile(r"^\s*([(\[](?:[\u05d0-\u05ea]{1,3}|\d{1,3}|\*)[)\]])\s*")


# --- the pipeline -----------------------------------------------------------------


@strict_keywords()
def process_document(
    source: DocumentSource,
    *,
    outliner: Outliner | None = None,
    translator: Translator | None = None,
    store: TextStore | str | None = None,
    cache: ProviderCache | str | os.PathLike[str] | bool | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressCallback | None = None,
    password: str | None = None,
    save_partial: bool = False,
) -> ProcessedDocument:
    """Sync twin of :func:`aprocess_document` (works inside Jupyter too)."""
    return run_sync(
        aprocess_document,
        source,
        outliner=outliner,
        translator=translator,
        store=store,
        cache=cache,
        concurrency=concurrency,
        progress=progress,
        password=password,
        save_partial=save_partial,
    )


@strict_keywords()
async def aprocess_document(
    source: DocumentSource,
    *,
    outliner: Outliner | None = None,
    translator: Translator | None = None,
    store: TextStore | str | None = None,
    cache: ProviderCache | str | os.PathLike[str] | bool | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    progress: ProgressCallback | None = None,
    password: str | None = None,
    save_partial: bool = False,
) -> ProcessedDocument:
    """Outline, cut, translate and (optionally) store a document.

    Args:
        source: A PDF (path, bytes, binary file), an :class:`ExtractedDocument`, or a
            library work (:meth:`LibraryClient.aget_work`), whose sections are those of
            :meth:`LibraryClient.to_document` (the library gives the structure).
        outliner: Default: ``Outliner()`` (offline); not used for a library work.
        translator: Default: ``Translator(provider="offline", concurrency=concurrency)``.
            Driven through :meth:`Translator.atranslate`: its ``concurrency`` bounds the
            provider calls in flight, its ``notes`` and ``complete`` are kept on each
            :class:`~libtext.models.Section`.
        store: A :class:`~libtext.store.TextStore` or its URL: the document is saved
            there when complete (a store made from a URL here is closed here).
        cache: Provider-answer cache: a :class:`~libtext.ProviderCache` or a
            file path; ``None`` for the default place (next to a SQLite store, else
            the user cache directory); ``False`` for none. Offline work is never cached.
        concurrency: Sections translated at once (twice this many in progress); the
            calls in flight are bounded by the Translator's own ``concurrency`` (lowered
            to a provider's ``max_concurrency`` when it declares one).
        progress: Called with ``(stage, done, total)`` as the work advances.
        password: The user password of an encrypted PDF.
        save_partial: Save (and return) a document some of whose sections could not be
            translated. By default such a document is not saved (a
            :class:`~libtext.errors.ProviderError` says which sections failed), and one
            where every section failed is never returned.

    Raises:
        InvalidInputError: The source cannot be read (see :func:`libtext.extract_pdf`).
        ProviderError: The outline failed; or every section's translation failed.
        PartialTranslationError: Some sections' translation failed and ``store`` is
            given without ``save_partial=True`` (a failed section keeps its Hebrew,
            phrase split and links, with ``Section.error``).
        StoreError: Saving failed.
    """
    if concurrency < 1:
        raise InvalidInputError("concurrency must be 1 or more.")
    from libtext.outline import Outliner
    from libtext.translate import Translator

    outliner = outliner or Outliner()
    translator = translator or Translator(provider="offline", concurrency=concurrency)
    report = _progress(progress)

    _check_store(store)
    own_store = False
    if isinstance(store, str):
        from libtext.store import TextStore

        store = await anyio.to_thread.run_sync(TextStore, store)
        own_store = True
    try:
        provider_cache = _make_cache(cache, store, outliner, translator)
        if isinstance(source, WorkByIdResponse):
            document = await _process_work(source, translator, provider_cache, concurrency, report)
        else:
            report("extract", 0, 1)
            doc = await _read(source, password)
            report("extract", 1, 1)

            report("outline", 0, 1)
            outline = await _outline(outliner, doc, provider_cache)
            report("outline", 1, 1)

            # Pure CPU work over the whole text (tens of ms on a long book): off the loop.
            segments, todo = await anyio.to_thread.run_sync(_sections, doc, outline, None)
            report("section", len(segments), len(segments))

            sections = await _translate_all(
                segments, todo, translator, provider_cache, concurrency, report
            )
            document = _assemble(doc, outline, sections)
        check_failures(
            document, saving=store is not None, save_partial=save_partial, provider=translator.name
        )
        if store is not None:
            report("save", 0, 1)
            with anyio.CancelScope(shield=True):  # saved whole or not at all
                await store.asave(document)
            report("save", 1, 1)
        return document
    finally:
        if own_store and store is not None and not isinstance(store, str):
            with anyio.CancelScope(shield=True):
                await store.aclose()


def _progress(callback: ProgressCallback | None) -> ProgressCallback:
    def report(stage: str, done: int, total: int) -> None:
        if callback is not None:
            callback(stage, done, total)

    return report


def _make_cache(
    cache: ProviderCache | str | os.PathLike[str] | bool | None,
    store: TextStore | None,
    outliner: Outliner,
    translator: Translator,
) -> ProviderCache | None:
    from libtext.providers._cache import ProviderCache, default_cache_path

    if cache is False:
        return None
    if isinstance(cache, ProviderCache):
        return cache
    if isinstance(cache, str | os.PathLike):
        return ProviderCache(Path(cache))
    names = [*outliner.provider_names, translator.name]
    if cache is None and all(n == "offline" for n in names):
        return None  # nothing to cache: offline answers are computed, not fetched
    return ProviderCache(default_cache_path(getattr(store, "url", None)))


async def _process_work(
    work: WorkByIdResponse,
    translator: Translator,
    cache: ProviderCache | None,
    concurrency: int,
    report: ProgressCallback,
) -> ProcessedDocument:
    """A library work: its sections as the one converter makes them, translated."""
    from libtext.library._works import work_to_document

    report("extract", 0, 1)
    base = await anyio.to_thread.run_sync(work_to_document, work)
    report("extract", 1, 1)
    fields = set(EnrichedSegment.model_fields)
    segments = [EnrichedSegment(**s.model_dump(include=fields)) for s in base.sections]
    todo = [k for k, seg in enumerate(segments) if _needs_translation(seg)]
    report("section", len(segments), len(segments))
    sections = await _translate_all(segments, todo, translator, cache, concurrency, report)
    return base.model_copy(update={"sections": sections})


async def _read(
    source: str | os.PathLike[str] | bytes | bytearray | IO[bytes] | ExtractedDocument,
    password: str | None = None,
) -> ExtractedDocument:
    if isinstance(source, ExtractedDocument):
        return source
    if isinstance(source, str | os.PathLike | bytes | bytearray) or hasattr(source, "read"):
        from libtext.pdf import aextract_pdf

        return await aextract_pdf(source, password=password)
    raise InvalidInputError(
        f"process_document reads a PDF (path, bytes or file), an ExtractedDocument or a "
        f"library work (LibraryClient.get_work), not {type(source).__name__}."
    )


async def _outline(
    outliner: Outliner, doc: ExtractedDocument, cache: ProviderCache | None
) -> DocumentOutline:
    """The outline, from the cache when the same document was outlined the same way."""
    names = outliner.provider_names
    if cache is None or all(n == "offline" for n in names):
        return await outliner.aoutline(doc)
    from libtext.prompts import load_prompt
    from libtext.providers._cache import cache_key

    digest = await anyio.to_thread.run_sync(_digest, doc)  # a long book's JSON: ~10s of ms
    options: dict[str, Any] = {
        "max_pages": outliner.max_pages,
        "window_tokens": outliner.window_tokens,
        "overlap_pages": outliner.overlap_pages,
        "context_tokens": outliner.context_tokens,
        "keep_metadata": outliner.keep_metadata,
    }
    if outliner.options:  # model options change the answer (a provider object gets them)
        options["model_options"] = outliner.options
    key = cache_key(
        task="outline",
        provider=",".join(names),
        prompt_version=load_prompt("outline").version,
        response_model=DocumentOutline,
        messages=[],
        payload=digest,
        options=options,
    )
    hit = cache.get(key)
    if hit is not None:
        return DocumentOutline.model_validate_json(hit)
    outline = await outliner.aoutline(doc)
    await cache.aput(
        key,
        outline.model_dump_json(),
        task="outline",
        provider=",".join(names),
        prompt_version=load_prompt("outline").version,
    )
    return outline


def _digest(doc: ExtractedDocument) -> str:
    return hashlib.sha256(doc.model_dump_json().encode("utf-8")).hexdigest()


def _sections(
    doc: ExtractedDocument,
    outline: DocumentOutline,
    page_footnotes: list[list[Footnote]] | None,
) -> tuple[list[EnrichedSegment], list[int]]:
    """The document cut into segments, and the indices of those with something to translate."""
    from libtext.headings import chapter_sections

    segments = cut_sections(doc, chapter_sections(doc, outline), page_footnotes=page_footnotes)
    return segments, [k for k, seg in enumerate(segments) if _needs_translation(seg)]


async def _translate_all(
    segments: list[EnrichedSegment],
    todo: list[int],
    translator: Translator,
    cache: ProviderCache | None,
    concurrency: int,
    report: ProgressCallback,
) -> list[Section]:
    if cache is not None and translator.cache is None:
        translator = translator.using_cache(cache)  # same call slots, the document's cache
    # Sections in progress at once: enough to keep the Translator's call slots busy, few
    # enough that their CPU work (phrase split, alignment) interleaves with the calls in
    # flight instead of all running before the first answer is read.
    active = anyio.CapacityLimiter(concurrency * 2)
    results: list[Section | None] = [None] * len(segments)
    failed: list[LibtextError | str] = []
    done = 0
    report("translate", 0, len(todo))

    async def one(k: int) -> None:
        nonlocal done
        seg = segments[k]
        try:
            async with active:
                result = await translator.atranslate(seg)
        except LibtextError as exc:
            logger.warning(
                "section %d (%s) not translated: %s", seg.sequence_id, seg.segment_title, exc.code
            )
            try:  # what needs no model is kept: phrase split, expansions, links
                result = await anyio.to_thread.run_sync(translator.offline_part, seg, exc)
            except LibtextError:
                results[k] = _section(seg, error=f"{exc.code}: {exc.message}")
            else:
                results[k] = _translated(seg, result)
            failed.append(exc)
        else:
            results[k] = _translated(seg, result)
            if result.error is not None:
                failed.append(result.error)
        done += 1
        report("translate", done, len(todo))

    async with anyio.create_task_group() as tg:
        for k in todo:
            tg.start_soon(one, k)
    return [r if r is not None else _section(seg) for r, seg in zip(results, segments, strict=True)]


def _translated(seg: EnrichedSegment, result: TranslatedSegment) -> Section:
    return Section(
        **seg.model_dump(exclude={"footnotes"}),
        footnotes=result.footnotes,
        translation_data=result.translation_data,
        complete=result.complete,
        notes=result.notes,
        error=result.error,
    )


def check_failures(
    document: ProcessedDocument, *, saving: bool, save_partial: bool, provider: str
) -> None:
    """Refuse a run whose translations failed: all of them always, some when saving.

    A section whose provider call failed has ``error`` set (its Hebrew, phrase split and
    links are kept). A document with such sections is saved only when the caller says
    so (``save_partial=True``); one where every section failed is never a result.
    """
    sections = document.sections
    failed = [s for s in sections if s.error]
    if not failed:
        return
    tried = [s for s in sections if s.error or s.translation_data]
    everything = len(failed) == len(tried)
    if not everything and (save_partial or not saving):
        return
    first = failed[0].error or ""
    what = "every section" if everything else f"{len(failed)} of {len(tried)} sections"
    # Every section failed: the provider failed. Some did: the run is usable, and whether
    # to keep it is the caller's call (a 409 over HTTP, where the request can say so).
    kind = ProviderError if everything else PartialTranslationError
    raise kind(
        f"The translation of {what} failed (first: {first[:200]}); nothing was saved. "
        "Fix the provider and run again (answers already given are cached), or pass "
        "save_partial=True to keep the document with its untranslated sections.",
        provider=provider,
        retryable=False,
        details={
            "reason": "translation_failed",
            "failed_sections": [s.sequence_id for s in failed],
            "sections": len(tried),
            "saved": False,
        },
    )


def failed_sections(document: ProcessedDocument) -> list[int]:
    """``sequence_id`` of the sections whose translation failed (``Section.error``)."""
    return [s.sequence_id for s in document.sections if s.error]


def _needs_translation(seg: EnrichedSegment) -> bool:
    from libtext.translate._phrases import has_letters

    return bool(seg.footnotes) or has_letters(seg.original_hebrew_block)


def _section(seg: EnrichedSegment, *, error: str | None = None) -> Section:
    return Section(**seg.model_dump(), error=error, complete=error is None)


def _assemble(
    doc: ExtractedDocument, outline: DocumentOutline, sections: list[Section]
) -> ProcessedDocument:
    meta = outline.source_metadata
    meta = SourceMetadata(
        publication_title=meta.publication_title,
        work_title=meta.work_title or doc.title,
        author_name=meta.author_name or doc.author,
    )
    return ProcessedDocument(source_metadata=meta, sections=sections, page_count=doc.page_count)


# --- cutting the text into sections ----------------------------------------------------


FRONT_MATTER = "Front matter"
"""``segment_title`` of the section that holds what comes before the first segment."""

_FRONT_WORDS = 3  # fewer words before the first segment (a "בס״ד") stay with it


def cut_sections(
    doc: ExtractedDocument,
    outline: DocumentOutline,
    *,
    page_footnotes: list[list[Footnote]] | None = None,
) -> list[EnrichedSegment]:
    """Cut a document's text into one segment per outline segment, with footnotes.

    The text is the book's text (:func:`libtext.headings.book_text`): body and heading
    lines without contents pages and stray page numbers or running lines. A section
    starts at its start phrase, or at the heading lines just before it, and runs to the
    next section's start. What comes before the first segment (a title page, a
    dedication, approbations) is a leading section of its own, ``sequence_id`` 0 and
    ``segment_title`` :data:`FRONT_MATTER`, so it never opens chapter 1. Joined, the
    blocks are exactly the book's text. A segment whose start phrase cannot be placed
    (not found, or before the previous one) gets an empty block and its text stays with
    the section before it. Footnotes are read from each page's footnote lines (or taken
    from ``page_footnotes``) and attached to the section holding their marker on that page.
    """
    from libtext.grounding import GroundingIndex, first_page
    from libtext.headings import book_text

    doc = book_text(doc)
    index = GroundingIndex.of(doc)
    text = index.text
    segments = list(outline.outline_segments)
    if not segments:
        title = doc.title or "Text"
        segments = [OutlineSegment(sequence_id=1, chapter_title=title, segment_title=title)]
    heading_at = {end: start for start, end in index.heading_spans}
    starts: list[int | None] = []
    last = -1
    floor = 0
    for seg in segments:
        match = (
            index.locate(
                seg.start_phrase_hebrew, side="start", page=first_page(seg.page_ref), after=last + 1
            )
            if seg.start_phrase_hebrew.strip()
            else None
        )
        if match is None or match.start <= last:
            starts.append(None)
            continue
        start = _before_headings(text, match.start, floor, heading_at)
        if start == match.start:
            start = _before_title(text, start, floor, seg)
        starts.append(start)
        # The next section may take the heading lines before its start phrase, never
        # this one's start phrase (an empty chapter is its heading line alone).
        last, floor = match.start, match.end
    placed = [k for k, s in enumerate(starts) if s is not None]
    if not placed:
        starts[0] = 0
        placed = [0]
    first_start = starts[placed[0]]
    assert first_start is not None
    if len(text[:first_start].split()) > _FRONT_WORDS:
        segments.insert(0, _front_matter(doc, text[:first_start]))
        starts.insert(0, 0)
        placed = [0, *(k + 1 for k in placed)]
    else:
        starts[placed[0]] = 0
    bounds: dict[int, tuple[int, int]] = {}
    for n, k in enumerate(placed):
        begin = starts[k]
        assert begin is not None
        end_next = starts[placed[n + 1]] if n + 1 < len(placed) else len(text)
        bounds[k] = (begin, end_next if end_next is not None else len(text))
    notes = _attach_footnotes(doc, index, [bounds[k] for k in placed], page_footnotes)
    out: list[EnrichedSegment] = []
    for k, seg in enumerate(segments):
        begin, end = bounds.get(k, (0, 0))
        footnotes = notes[placed.index(k)] if k in bounds else []
        out.append(
            EnrichedSegment(
                **seg.model_dump(),
                original_hebrew_block=text[begin:end] if k in bounds else "",
                footnotes=footnotes,
            )
        )
    return out


def _front_matter(doc: ExtractedDocument, block: str) -> OutlineSegment:
    """The leading segment: the text before the first segment (see :func:`cut_sections`)."""
    from libtext.hebrew import edge_words

    lines = [ln for ln in block.splitlines() if any(ch.isalnum() for ch in ln)] or [block]
    first = next((p.number for p in doc.pages if p.text.strip()), 1)
    return OutlineSegment(
        sequence_id=0,
        segment_title=FRONT_MATTER,
        page_ref=str(first),
        start_phrase_hebrew=edge_words(lines[0], 8),
        end_phrase_hebrew=edge_words(lines[-1], 8, last=True),
    )


def _before_headings(text: str, pos: int, floor: int, heading_at: dict[int, int]) -> int:
    """Move a section start back over the heading lines (and blank space) right before it.

    Never over a page break (pages are joined by a blank line): heading lines at the
    foot of the page before are that page's (a title block), not this section's.
    """
    start = pos
    while True:
        q = start
        while q > floor and text[q - 1].isspace():
            q -= 1
        if "\n\n" in text[q:start]:
            return start
        head = heading_at.get(q)
        if head is None or head < floor or head >= start:
            return start
        start = head


def _before_title(text: str, pos: int, floor: int, seg: OutlineSegment) -> int:
    """Move a section start back over its own title line when the document kept that
    line as body text (a bold body-size title): the section opens with its title."""
    end = pos
    while end > floor and text[end - 1] in " \t":
        end -= 1
    if end <= floor or text[end - 1] != "\n":
        return pos
    begin = text.rfind("\n", floor, end - 1) + 1
    line = normalize_for_match(text[max(begin, floor) : end - 1])
    titles = {normalize_for_match(t) for t in (seg.chapter_title, seg.segment_title) if t}
    return max(begin, floor) if line and line in titles else pos


def _parse_notes(page: ExtractedPage) -> list[Footnote]:
    """A page's footnote lines -> footnotes: a marker starts one, other lines continue it."""
    notes: list[Footnote] = []
    for line in page.lines:
        if line.kind != "footnote" or not line.text.strip():
            continue
        m = _FOOTNOTE_START.match(line.text)
        if m:
            notes.append(Footnote(marker=m.group(1), content=line.text[m.end() :].strip()))
        elif notes:
            notes[-1].content = f"{notes[-1].content} {line.text.strip()}".strip()
        else:
            notes.append(Footnote(marker="", content=line.text.strip()))
    return notes


def _attach_footnotes(
    doc: ExtractedDocument,
    index: GroundingIndex,
    bounds: list[tuple[int, int]],
    page_footnotes: list[list[Footnote]] | None,
) -> list[list[Footnote]]:
    """Give each footnote to the section holding its marker on its page (in text order)."""
    text = index.text
    section_starts = [b[0] for b in bounds]
    found: list[list[tuple[int, Footnote]]] = [[] for _ in bounds]
    used: set[int] = set()
    for p, page in enumerate(doc.pages):
        notes = page_footnotes[p] if page_footnotes is not None else _parse_notes(page)
        if not notes:
            continue
        lo = index.page_starts[p]
        hi = index.page_starts[p + 1] if p + 1 < len(doc.pages) else len(text)
        for fn in notes:
            where = _find_marker(text, fn.marker, lo, hi, used)
            if where is None:
                where = lo  # no marker in the body: the note belongs where the page begins
            else:
                used.add(where)
            k = max(bisect.bisect_right(section_starts, where) - 1, 0)
            found[k].append((where, fn))
    return [[fn for _, fn in sorted(items, key=lambda t: t[0])] for items in found]


def _find_marker(text: str, marker: str, lo: int, hi: int, used: set[int]) -> int | None:
    for form in marker_forms(marker):
        i = text.find(form, lo, hi)
        while i >= 0:
            if i not in used:
                return i
            i = text.find(form, i + 1, hi)
    return None


def _check_store(store: object) -> None:
    if store is not None and not isinstance(store, str) and not hasattr(store, "asave"):
        raise ConfigurationError(
            "store must be a TextStore or a database URL such as 'sqlite:///texts.db'."
        )


complete_twin_docs(sys.modules[__name__])
