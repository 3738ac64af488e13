"""Pure helpers of the Outliner's language-model path: windows, messages, merging.

A long book does not fit a model's context, so it is cut by pages into windows
that do, each outlined separately, then merged. Tokens are estimated from
characters, pessimistically (:func:`libtext._tokens.estimate_tokens`, where the
tokenizers measured and their figures are), so a window sized by the estimate does not
overflow. Consecutive windows share at most
``overlap_pages`` pages (and at most a quarter of a window) so that a chapter
starting at a window's edge is seen whole by one of them; the characters sent stay
close to the document's size.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from pydantic import BaseModel, Field

from libtext._tokens import (
    CHARS_PER_TOKEN,
    HEBREW_TOKENS_PER_CHAR,
    estimate_tokens,
)
from libtext.errors import ConfigurationError
from libtext.models import (
    DocumentOutline,
    ExtractedDocument,
    ExtractedPage,
    OutlineSegment,
    SourceMetadata,
)
from libtext.prompts import Prompt

__all__ = [
    "CHARS_PER_TOKEN",
    "DEFAULT_CONTEXT_TOKENS",
    "HEBREW_TOKENS_PER_CHAR",
    "MAX_WINDOW_TOKENS",
    "OutlineAnswer",
    "Window",
    "estimate_tokens",
    "halve_window",
    "merge_metadata",
    "outline_messages",
    "outline_schema",
    "split_windows",
    "window_budget",
]

DEFAULT_CONTEXT_TOKENS = 100_000
"""Context assumed when a provider does not say (``max_input_tokens`` is ``None``)."""
MAX_WINDOW_TOKENS = 60_000
"""Even a huge context gets windows of at most this: the answer must fit the output."""
MIN_WINDOW_TOKENS = 200
OUTPUT_RESERVE_TOKENS = 8_000
MAX_OVERLAP_FRACTION = 0.25


class _MetadataAnswer(BaseModel):
    publication_title: str = ""
    work_title: str = ""
    author_name: str = ""


class _SegmentAnswer(BaseModel):
    sequence_id: int
    chapter_number: str = ""
    chapter_title: str
    segment_title: str = ""
    summary: str = ""
    page_ref: str = ""  # grounding sets it from where the start phrase is
    start_phrase_hebrew: str = Field(min_length=1)
    end_phrase_hebrew: str = ""  # grounding repairs a missing one


class OutlineAnswer(BaseModel):
    """What a language model must answer for one window: :class:`DocumentOutline`'s
    fields with those an outline cannot do without marked required.

    :class:`DocumentOutline` requires nothing (a stored outline may be partial), so
    ``{}`` or an echo of the request would validate as an empty outline; this schema,
    sent to the model and checked on its answer, refuses them.
    """

    source_metadata: _MetadataAnswer
    outline_segments: list[_SegmentAnswer]

    def to_outline(self) -> DocumentOutline:
        return DocumentOutline(
            source_metadata=SourceMetadata(**self.source_metadata.model_dump()),
            outline_segments=[OutlineSegment(**s.model_dump()) for s in self.outline_segments],
        )


@cache
def outline_schema() -> str:
    """The JSON schema of :class:`OutlineAnswer`, compact, as the prompt shows it."""
    return json.dumps(OutlineAnswer.model_json_schema(), ensure_ascii=False)


def window_budget(
    *, context_tokens: int | None, overhead_tokens: int, window_tokens: int | None = None
) -> int:
    """Tokens of document text one window may hold.

    ``window_tokens`` (the Outliner's argument) wins; otherwise the provider's
    context minus the prompt and room for the answer, capped at
    :data:`MAX_WINDOW_TOKENS`.
    """
    if window_tokens is not None:
        if window_tokens < MIN_WINDOW_TOKENS:
            raise ConfigurationError(
                f"window_tokens={window_tokens} is too small: use at least {MIN_WINDOW_TOKENS}."
            )
        return window_tokens
    context = context_tokens or DEFAULT_CONTEXT_TOKENS
    reserve = min(OUTPUT_RESERVE_TOKENS, context // 4)
    return max(MIN_WINDOW_TOKENS, min(MAX_WINDOW_TOKENS, context - reserve - overhead_tokens))


def page_block(page: ExtractedPage) -> str:
    """A page as the model sees it: a ``[page N]`` marker line, then its text."""
    return f"[page {page.number}]\n{page.text}"


@dataclass(frozen=True)
class Window:
    """Consecutive pages (or pieces of one long page) outlined in one request.

    Attributes:
        index: 0-based position among the windows.
        pages: The pages; a page too long for any window is split into pieces by
            lines, each keeping its page number.
        overlap: How many leading pages repeat the end of the previous window.
    """

    index: int
    pages: tuple[ExtractedPage, ...]
    overlap: int = 0

    @property
    def text(self) -> str:
        """The window's text with page markers."""
        return "\n\n".join(page_block(p) for p in self.pages)

    @property
    def first_page(self) -> int:
        return self.pages[0].number

    @property
    def last_page(self) -> int:
        return self.pages[-1].number

    def document(self, doc: ExtractedDocument) -> ExtractedDocument:
        """The window as a document of its own (the request's payload)."""
        return doc.model_copy(update={"pages": list(self.pages)})


def _pieces(page: ExtractedPage, budget_tokens: int) -> list[ExtractedPage]:
    """A page cut by lines into pieces that each fit ``budget_tokens``."""
    if estimate_tokens(page_block(page)) <= budget_tokens:
        return [page]
    pieces: list[ExtractedPage] = []
    current: list[int] = []
    marker = estimate_tokens(f"[page {page.number}]\n")
    size = marker
    lines = page.lines
    for i, line in enumerate(lines):
        if line.kind not in ("body", "heading"):
            continue
        cost = estimate_tokens(line.text) + 1
        if current and size + cost > budget_tokens:
            pieces.append(page.model_copy(update={"lines": [lines[k] for k in current]}))
            current, size = [], marker
        current.append(i)
        size += cost
    if current:
        pieces.append(page.model_copy(update={"lines": [lines[k] for k in current]}))
    return pieces


def split_windows(doc: ExtractedDocument, budget_tokens: int, overlap_pages: int) -> list[Window]:
    """Cut a document by pages into windows of at most ``budget_tokens`` (estimated) each."""
    if overlap_pages < 0:
        raise ConfigurationError("overlap_pages must be 0 or more.")
    budget = budget_tokens
    units = [piece for page in doc.pages for piece in _pieces(page, budget)]
    sizes = [estimate_tokens(page_block(u)) + 1 for u in units]
    windows: list[Window] = []
    i = overlap = 0
    while i < len(units):
        j, size = i, 0
        while j < len(units) and (j == i or size + sizes[j] <= budget):
            size += sizes[j]
            j += 1
        windows.append(Window(index=len(windows), pages=tuple(units[i:j]), overlap=overlap))
        if j >= len(units):
            break
        overlap = min(overlap_pages, j - i - 1)  # always move forward
        while overlap and sum(sizes[j - overlap : j]) > budget * MAX_OVERLAP_FRACTION:
            overlap -= 1
        i = j - overlap
    return windows


def halve_window(window: Window) -> tuple[Window, Window] | None:
    """``window`` cut in two halves of its pages (or of its one page's lines); ``None``
    when it is a single line, which cannot be cut."""
    pages = window.pages
    if len(pages) > 1:
        half = len(pages) // 2
        first, second = pages[:half], pages[half:]
    else:
        page = pages[0]
        lines = [line for line in page.lines if line.kind in ("body", "heading")]
        if len(lines) < 2:
            return None
        half = len(lines) // 2
        first = (page.model_copy(update={"lines": lines[:half]}),)
        second = (page.model_copy(update={"lines": lines[half:]}),)
    overlap = min(window.overlap, len(first) - 1) if len(first) > 1 else 0
    return (
        Window(index=window.index, pages=tuple(first), overlap=overlap),
        Window(index=window.index, pages=tuple(second), overlap=0),
    )


def _source_line(doc: ExtractedDocument) -> str:
    parts = [doc.source_name or "(unnamed)"]
    if doc.title:
        parts.append(f"PDF title: {doc.title}")
    if doc.author:
        parts.append(f"PDF author: {doc.author}")
    parts.append(f"{doc.page_count} pages")
    return "; ".join(parts)


def _window_note(window: Window, count: int) -> str:
    if count == 1:
        return "This is the whole document."
    note = (
        f"This is part {window.index + 1} of {count} of a longer document: pages "
        f"{window.first_page} to {window.last_page}. Outline only the segments that start "
        "in these pages. A segment may go on past the last page shown: for it, copy the "
        "last words shown as end_phrase_hebrew."
    )
    if window.overlap:
        note += " The first page shown repeats the end of the previous part."
    if window.index:
        note += " Leave source_metadata fields empty unless this part shows the title page."
    return note


def outline_messages(
    prompt: Prompt, doc: ExtractedDocument, window: Window, count: int
) -> list[dict[str, str]]:
    """The chat messages that ask for one window's outline."""
    return prompt.messages(
        source=_source_line(doc),
        window_note=_window_note(window, count),
        schema=outline_schema(),
        text=window.text,
    )


def prompt_overhead_tokens(prompt: Prompt, doc: ExtractedDocument) -> int:
    """Tokens of one request without its document text (the longest window note)."""
    probe = Window(index=1, pages=(ExtractedPage(number=doc.page_count or 1),), overlap=1)
    messages = outline_messages(prompt, doc, probe, count=2)
    return estimate_tokens("".join(m["content"] for m in messages)) + 64


def merge_metadata(parts: list[SourceMetadata], doc: ExtractedDocument) -> SourceMetadata:
    """Each field from the first window that gives it, else the PDF's metadata."""

    def first(field: str, fallback: str) -> str:
        for meta in parts:
            value = str(getattr(meta, field) or "").strip()
            if value:
                return value
        return fallback

    work = first("work_title", doc.title)
    return SourceMetadata(
        publication_title=first("publication_title", doc.title or work),
        work_title=work,
        author_name=first("author_name", doc.author),
    )
