"""Pydantic models of the service contract (``shared/spec/service.md``).

Field names and JSON keys are a public contract and follow the spec to the letter,
including its two camelCase keys (``pageSize``, ``totalPages``). Schemas the spec
lists but does not show (HealthResponse, ErrorResponse, SearchResult, ...) are
designed here; each docstring says what a client can rely on. Fields the spec does
not list are marked "extension" in their descriptions and always have defaults, so
a document written by another implementation of the spec still validates.

Timestamps serialize as ISO 8601 UTC with milliseconds: ``2026-11-22T05:33:05.123Z``.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationInfo,
    WithJsonSchema,
    computed_field,
    field_validator,
)

from libtext.hebrew import name_problem, unicode_problem

__all__ = [
    "DocumentHeading",
    "DocumentOutline",
    "EnrichedSegment",
    "ErrorDetail",
    "ErrorResponse",
    "ExtractedDocument",
    "ExtractedLine",
    "ExtractedPage",
    "Footnote",
    "GroundingReport",
    "HealthResponse",
    "LibraryPage",
    "LibraryStatus",
    "LineKind",
    "NavSearchResult",
    "NavSearchResultsResponse",
    "OutlineComparison",
    "OutlineSegment",
    "PageHalf",
    "PaginatedTextsResponse",
    "PaginationInfo",
    "PhraseChange",
    "PrintedPage",
    "ProcessRequest",
    "ProcessResponse",
    "ProcessedDocument",
    "ProviderAgreement",
    "ProviderOutcome",
    "SearchCount",
    "SearchCountsResponse",
    "SearchResult",
    "SearchResultsResponse",
    "Section",
    "SectionDiff",
    "SectionEdit",
    "SectionEditResult",
    "SourceMetadata",
    "TextDiff",
    "TextListItem",
    "TextRevision",
    "TextRevisionsResponse",
    "TranslatedSegment",
    "TranslationData",
    "UtcDatetime",
    "WorkByIdResponse",
    "format_utc",
    "unicode_problem",
]


def _no_bool(value: Any) -> Any:
    """Refuse ``true``/``false`` where a number is meant (pydantic's lax mode takes them as 1/0)."""
    if isinstance(value, bool):
        raise ValueError("a number is required, not a boolean")
    return value


Number = Annotated[int, BeforeValidator(_no_bool)]
"""An integer field of a request body: a JSON boolean is refused rather than read as 1 or 0."""


def _as_utc(value: datetime) -> datetime:
    """Naive datetimes are taken as UTC; aware ones are converted to UTC."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def format_utc(value: datetime) -> str:
    """Format a datetime as ISO 8601 UTC with milliseconds and a ``Z``."""
    # isoformat is twice as fast as strftime; every served timestamp comes through here.
    return _as_utc(value).isoformat(timespec="milliseconds")[:-6] + "Z"  # drop "+00:00"


UtcDatetime = Annotated[
    datetime,
    AfterValidator(_as_utc),
    PlainSerializer(format_utc, return_type=str, when_used="json"),
    # The serializer's str return type alone would drop the format from OpenAPI documents.
    WithJsonSchema({"type": "string", "format": "date-time"}, mode="serialization"),
]
"""A timezone-aware UTC datetime that serializes as ``2026-11-22T05:33:05.123Z``."""


def _check_text(value: Any, where: str) -> None:
    if isinstance(value, str):
        problem = unicode_problem(value)
        if problem is not None:
            raise ValueError(f"{where} contains {problem}; send valid Unicode text")
    elif isinstance(value, list | tuple):
        for item in value:
            if isinstance(item, str):
                _check_text(item, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, where)
            _check_text(item, where)


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="ignore",
        use_attribute_docstrings=True,  # a field's docstring is its schema description
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    @field_validator("*", mode="after")
    @classmethod
    def _valid_unicode(cls, value: Any, info: ValidationInfo) -> Any:
        """Refuse text that is not valid Unicode: nothing stored that cannot be served."""
        if isinstance(value, str | list | tuple | dict):
            _check_text(value, info.field_name or "text")
        return value


# --- the spec's schemas ----------------------------------------------------------


class SourceMetadata(_Model):
    """Where a text comes from: publication, work and author (Hebrew as printed)."""

    publication_title: str = ""
    """Title of the publication (the book or series), as printed."""
    work_title: str = ""
    """Title of the work or volume within the publication."""
    author_name: str = ""
    """The author's name, as printed."""


class OutlineSegment(_Model):
    """One segment of an outline: usually a chapter, or a sub-heading inside one.

    ``start_phrase_hebrew`` and ``end_phrase_hebrew`` are copied verbatim from the
    document's text, so the segment's span can be found in it. ``page_ref`` is the
    1-based page number (as a string, e.g. ``"12"`` or ``"12-14"``) where it starts.
    """

    sequence_id: Number
    """1-based position of the segment in the outline."""
    chapter_number: str = ""
    """The chapter's number or letter as printed (e.g. "ג"), if any."""
    chapter_title: str = ""
    """The chapter's title."""
    segment_title: str = ""
    """A sub-heading inside the chapter, if the segment is one."""
    summary: str = ""
    """A short summary of the segment (empty from the offline outline)."""
    page_ref: str = ""
    """1-based page where the segment starts ("12" or a range "12-14")."""
    start_phrase_hebrew: str = ""
    """The segment's first words, verbatim from the document."""
    end_phrase_hebrew: str = ""
    """The segment's last words, verbatim from the document."""


class DocumentOutline(_Model):
    """A document's source metadata and its ordered outline segments."""

    source_metadata: SourceMetadata = Field(default_factory=SourceMetadata)
    """Publication, work and author of the outlined document."""
    outline_segments: list[OutlineSegment] = Field(default_factory=list)
    """The segments in reading order."""

    def _repr_html_(self) -> str:
        """A readable HTML table in Jupyter (Hebrew right-to-left, text escaped)."""
        from libtext._html import outline_html

        return outline_html(self)


class TranslationData(_Model):
    """One phrase of a translated section.

    ``hebrew_phrase`` (extension) is the phrase exactly as it stands in the section's
    ``original_hebrew_block``; ``hebrew_phrase_expanded`` spells out its abbreviations.
    ``sefaria_link`` comes from libtext's citation linker, never from a model; it is
    empty where the phrase cites nothing. ``exact`` (extension) is false when that link is
    coarse: the smallest ref that certainly contains the place cited (a Zohar page's
    parasha, a Tosafot comment's amud), so a reviewer sees it.
    """

    hebrew_phrase_expanded: str = ""
    """The Hebrew phrase with its abbreviations spelled out."""
    english_translation: str = ""
    """The phrase in English (empty when none was given)."""
    sefaria_link: str = ""
    """Sefaria URL of the source the phrase cites, from libtext's linker; empty if none."""
    exact: bool = Field(
        default=True, description="extension: false when sefaria_link is a coarse link"
    )
    hebrew_phrase: str = Field(default="", description="extension: the phrase as printed")


class Footnote(_Model):
    """A footnote: its marker as printed, its Hebrew content and its translation."""

    marker: str
    """The footnote's marker as printed (e.g. "א" or "12")."""
    content: str = ""
    """The footnote's Hebrew text."""
    translation: str = ""
    """The footnote in English (empty when not translated)."""


class EnrichedSegment(OutlineSegment):
    """An outline segment with its Hebrew text attached: the Translator's input.

    ``original_hebrew_block`` is the segment's text cut from the document between its
    start and end phrases; ``footnotes`` are the notes whose markers occur in it.
    """

    original_hebrew_block: str = ""
    """The segment's Hebrew text, cut from the document."""
    footnotes: list[Footnote] = Field(default_factory=list)
    """The footnotes whose markers occur in the segment."""


class TranslatedSegment(EnrichedSegment):
    """A segment after translation: phrases with English and Sefaria links.

    ``translation_data`` covers ``original_hebrew_block`` in order. ``provider`` names
    what translated it; ``complete`` is false when some phrases have no English (e.g.
    the offline provider), and ``notes`` says why.
    """

    translation_data: list[TranslationData] = Field(default_factory=list)
    """The phrases with English and Sefaria links, covering the Hebrew in order."""
    provider: str = ""
    """Name of the provider that translated the segment."""
    complete: bool = True
    """False when some phrases or footnotes have no English."""
    notes: list[str] = Field(default_factory=list)
    """Why the translation is incomplete, or what was repaired."""
    error: str | None = Field(
        default=None,
        description="extension: why the provider's translation is missing (what needs "
        "no model is kept)",
    )

    def _repr_html_(self) -> str:
        """A readable HTML view in Jupyter (Hebrew right-to-left, English left-to-right)."""
        from libtext._html import translated_html

        return translated_html(self)


class Section(OutlineSegment):
    """A section of a processed document: the outline fields plus text and translation.

    This is the stored shape (the spec's ``Section``) of a :class:`TranslatedSegment`:
    :func:`libtext.process_document` translates each :class:`EnrichedSegment` with the
    Translator and keeps its ``translation_data``, ``footnotes``, ``complete`` and
    ``notes`` here; the provider's name is not stored per section. ``error``
    (extension) is set when the section's translation failed after retries: the Hebrew
    is kept and the document is still produced.
    """

    original_hebrew_block: str = ""
    """The section's Hebrew text."""
    translation_data: list[TranslationData] = Field(default_factory=list)
    """The phrases with English and Sefaria links, covering the Hebrew in order."""
    footnotes: list[Footnote] = Field(default_factory=list)
    """The section's footnotes with their translations."""
    error: str | None = Field(default=None, description="extension: translation failure")
    complete: bool = Field(
        default=True, description="extension: false when some phrases have no English"
    )
    notes: list[str] = Field(
        default_factory=list, description="extension: the Translator's notes (why incomplete)"
    )


class ProcessedDocument(_Model):
    """A processed text: source metadata and ordered sections.

    ``work_id``, ``first_page_id`` and ``last_page_id`` are the online library's
    identifiers when the text came from there (``None`` for a PDF). They are internal:
    the HTTP adapter leaves them out of Get Text by Slug (see :meth:`public`).
    """

    source_metadata: SourceMetadata = Field(default_factory=SourceMetadata)
    """Publication, work and author of the text."""
    sections: list[Section] = Field(default_factory=list)
    """The sections in reading order."""
    work_id: str | None = None
    """The online library's id of the work (internal; None for a PDF)."""
    page_count: int = 0
    """Pages read from the source."""
    first_page_id: str | None = None
    """The library's id of the first page read (internal)."""
    last_page_id: str | None = None
    """The library's id of the last page read (internal)."""

    def public(self) -> ProcessedDocument:
        """A copy without the source library's internal identifiers."""
        return self.model_copy(
            update={"work_id": None, "first_page_id": None, "last_page_id": None}
        )

    def _repr_html_(self) -> str:
        """A bilingual HTML view in Jupyter: Hebrew beside English, notes, Sefaria links."""
        from libtext._html import document_html

        return document_html(self)


class TextListItem(_Model):
    """An entry of the stored-texts list; ``slug`` addresses the text."""

    slug: str
    """The stored text's address (GET /api/texts/{slug})."""
    publication_title: str = ""
    """Title of the publication."""
    work_title: str = ""
    """Title of the work."""
    author_name: str = ""
    """The author's name."""
    page_count: int = 0
    """Pages read from the source."""
    created_at: UtcDatetime
    """When the text was first saved (UTC)."""
    updated_at: UtcDatetime
    """When its latest revision was written (UTC)."""


class PaginationInfo(_Model):
    """Where a page sits in a list: ``page`` is 1-based; ``totalPages`` may be 0."""

    page: int = Field(ge=1)
    """This page's number, from 1."""
    page_size: int = Field(alias="pageSize", ge=1)
    """Items per page."""
    total: int = Field(ge=0)
    """Items in the whole list."""
    total_pages: int = Field(alias="totalPages", ge=0)
    """Pages in the whole list (0 when it is empty)."""

    @classmethod
    def of(cls, *, page: int, page_size: int, total: int) -> PaginationInfo:
        """Build pagination info, computing ``totalPages``."""
        return cls(
            page=page,
            page_size=page_size,
            total=total,
            total_pages=math.ceil(total / page_size) if total else 0,
        )


class PaginatedTextsResponse(_Model):
    """One page of stored texts, newest first."""

    texts: list[TextListItem] = Field(default_factory=list)
    """The texts of this page, newest first."""
    pagination: PaginationInfo
    """Where this page sits in the list."""

    def _repr_html_(self) -> str:
        """A readable HTML view in Jupyter (Hebrew right-to-left, English left-to-right)."""
        from libtext._html import texts_html

        return texts_html(self)


# --- schemas the spec names but does not show ------------------------------------


class QueueFigures(_Model):
    """The job queue's waiting work, as health reports it (``None`` limits: unbounded)."""

    queued: int
    """Jobs waiting for a worker."""
    queued_bytes: int
    """Bytes of the PDFs those jobs hold in the database."""
    max_queued: int | None = None
    """Most jobs that may wait; past it a submission gets 503 ``queue_full``."""
    max_queued_bytes: int | None = None
    """Most PDF bytes that may wait; past it a submission gets 503 ``queue_full``."""


class HealthResponse(_Model):
    """Health of the service.

    ``status`` is ``"ok"`` when everything configured answers, ``"degraded"`` when the
    store is configured but unreachable. ``store`` is ``"ok"``, ``"unavailable"`` or
    ``"not_configured"``; ``providers`` lists the configured provider names.
    """

    status: Literal["ok", "degraded"] = "ok"
    """"ok", or "degraded" when the store or a provider is unusable."""
    version: str
    """The libtext version serving."""
    store: Literal["ok", "unavailable", "not_configured"] = "not_configured"
    """"ok", "unavailable" or "not_configured"."""
    providers: list[str] = Field(default_factory=list)
    """The provider names this server offers."""
    queue: QueueFigures | None = None
    """The job queue's figures, once the server has opened its queue (``None`` before)."""


class ErrorDetail(_Model):
    """``code`` is stable (see ``libtext.errors``); ``message`` says what to do next."""

    code: str
    """A stable machine-readable error code (e.g. "invalid_input")."""
    message: str
    """What went wrong and what to do next."""
    details: dict[str, Any] = Field(default_factory=dict)
    """Extra facts about the error (the limit passed, the field, the valid names)."""


class ErrorResponse(_Model):
    """Every error body of the HTTP adapter: ``{"error": {"code", "message", "details"}}``."""

    error: ErrorDetail
    """The error."""


class SearchResult(_Model):
    """A full-text search hit in the online library.

    ``id`` is the library's page or section id, ``heading`` its title or heading path,
    ``snippet`` the matching text (plain, no HTML), ``link`` the page's URL.
    """

    id: str
    """The library's page or section id."""
    heading: str = ""
    """Its title or heading path."""
    snippet: str = ""
    """The matching text (plain, no HTML)."""
    link: str = ""
    """The page's URL in the online library."""


class SearchResultsResponse(_Model):
    """A page of search hits; ``pagination.total`` is the library's hit count."""

    query: str
    """The words searched for."""
    results: list[SearchResult] = Field(default_factory=list)
    """The hits of this page."""
    pagination: PaginationInfo
    """Where this page sits among all hits."""


class NavSearchResult(_Model):
    """A work or section found by title in the library's table of contents."""

    id: str
    """The library's id of the work or section."""
    title: str
    """Its title."""
    path: list[str] = Field(default_factory=list)
    """Titles from the top of the library down to it."""
    link: str = ""
    """Its URL in the online library."""


class NavSearchResultsResponse(_Model):
    """Table-of-contents matches for a title query."""

    query: str
    """The title searched for."""
    results: list[NavSearchResult] = Field(default_factory=list)
    """The matching works and sections."""


class PrintedPage(_Model):
    """Where a page of the printed edition starts in a library page's text.

    The library marks them (``[oldpage_לח]``) so a reader can cite the printed page.
    """

    label: str = Field(description="the printed page as the library writes it, e.g. לח")
    offset: int = Field(ge=0, description="character offset in the library page's text")


class SearchCount(_Model):
    """How many pages of one section of the library hold a phrase."""

    section_id: str
    """The library's id of the section."""
    count: int = Field(ge=0)
    """Pages of the section that hold the phrase."""
    title: str = ""
    """The section's title."""
    link: str = ""
    """The section's URL in the online library."""


class SearchCountsResponse(_Model):
    """Hits of a phrase per section of the library (``LibraryClient.search_counts``)."""

    query: str
    """The phrase searched for."""
    counts: list[SearchCount] = Field(default_factory=list)
    """Hits per section."""
    total: int = Field(default=0, ge=0)
    """Hits in all sections."""


class LibraryPage(_Model):
    """A page of the online library with its text cleaned and its notes parsed.

    ``heading_path`` lists the section headings from the work down to this page.
    ``text`` is plain Hebrew with headings on their own lines, glosses (``[hagoho]``)
    and summaries in paragraphs of their own and note markers kept as ``[N]``.
    ``unknown_tokens`` counts the library's markup tokens libtext does not know
    (dropped, their words kept), so a new one shows up instead of vanishing.
    """

    id: str
    """The library's id of the page."""
    heading_path: list[str] = Field(default_factory=list)
    """Section headings from the work down to this page."""
    text: str = ""
    """The page's plain Hebrew text, note markers kept as [N]."""
    footnotes: list[Footnote] = Field(default_factory=list)
    """The page's notes, parsed."""
    link: str = ""
    """The page's URL in the online library."""
    path_ids: list[str] = Field(
        default_factory=list,
        description="extension: ids from the work's first level down to this page, "
        "for a resume that skips what was read without fetching it",
    )
    printed_pages: list[PrintedPage] = Field(
        default_factory=list, description="extension: printed-edition pages starting here"
    )
    unknown_tokens: dict[str, int] = Field(
        default_factory=dict, description="extension: unknown markup tokens by name"
    )


class LibraryStatus(_Model):
    """Whether the online library answers, as ``GET /api/library/test`` reports it.

    ``reachable`` is true when the library answered with a JSON body and no server
    error; ``error`` says what went wrong otherwise. ``latency_ms`` is the time to the
    answer (``None`` when none came).
    """

    reachable: bool
    """Whether the library answered with JSON and no server error."""
    status_code: int | None = None
    """The HTTP status it answered with (None when no answer came)."""
    latency_ms: float | None = None
    """Milliseconds to the answer (None when no answer came)."""
    base_url: str = ""
    """The library's address that was asked."""
    error: str | None = None
    """What went wrong, when it is not reachable."""
    checked_at: UtcDatetime = Field(default_factory=lambda: datetime.now(UTC))
    """When it was asked (UTC)."""


class WorkByIdResponse(_Model):
    """A work read from the online library, its pages in reading order.

    ``truncated`` is true when ``max_pages`` stopped the walk; ``resume_after`` is the
    last page id read, to continue a long crawl later.
    """

    work_id: str
    """The library's id of the work."""
    title: str = ""
    """The work's title."""
    pages: list[LibraryPage] = Field(default_factory=list)
    """The pages read, in reading order."""
    page_count: int = 0
    """Pages read."""
    truncated: bool = False
    """True when max_pages stopped the walk before the end."""
    resume_after: str | None = None
    """The last page id read, to continue a long crawl."""
    unknown_tokens: dict[str, int] = Field(
        default_factory=dict,
        description="extension: unknown markup tokens of all pages by name",
    )


# --- PDF extraction ---------------------------------------------------------------

LineKind = Literal["body", "heading", "header", "footer", "page_number", "footnote", "margin"]


class ExtractedLine(_Model):
    """A printed line in logical (reading) order, with what the layout says of it.

    ``y`` is the distance in points from the top of the page; ``size`` the dominant
    font size in points; ``bold`` whether most of its characters are bold.
    """

    text: str
    """The line's text in logical (reading) order."""
    kind: LineKind = "body"
    """Its role in the layout: body, heading, header, footer, page_number or footnote."""
    size: float = 0.0
    """Dominant font size in points."""
    bold: bool = False
    """Whether most of its characters are bold."""
    y: float = 0.0
    """Distance of its baseline from the top of the page, in points."""
    x0: float = 0.0
    """Left edge, in points."""
    x1: float = 0.0
    """Right edge, in points."""


class PageHalf(_Model):
    """One of two book pages printed side by side on one PDF page (a spread).

    Its lines are ``page.lines[start:end]``; ``label`` is its printed page number as
    printed (``"12"``, ``"יב"``); ``x0``/``x1`` its extent on the PDF page, in points.
    """

    side: Literal["right", "left"]
    """Which half of the PDF page it is."""
    start: int
    """Index of its first line in the page's ``lines``."""
    end: int
    """Index one past its last line in the page's ``lines``."""
    label: str = ""
    """Its printed page number as printed."""
    x0: float = 0.0
    """Left edge of the half, in points."""
    x1: float = 0.0
    """Right edge of the half, in points."""


class ExtractedPage(_Model):
    """One page: its lines in reading order, each with its layout role.

    Reading order follows the page's blocks (columns right to left on a Hebrew page;
    of a parallel text, the Hebrew block first). A ``margin`` line (a side note, a
    line number) comes right after the text line it stands beside and is not part
    of ``text``.

    ``number`` is the 1-based page index in the PDF; ``width``/``height`` are in
    points. ``text`` (body and heading lines) and ``footnote_text`` are derived from
    ``lines`` and are included when the page is serialized.

    A spread (two book pages printed side by side on one PDF page: a gutter down the
    middle, a page number on each side) stays one ``ExtractedPage``, so that pages
    keep the PDF's numbering: its lines are the first book page's (the lower
    number: the right half of a right-to-left book), then the second's, each half
    with its own header and page number, and ``halves`` says where each begins;
    :meth:`book_pages` gives them as two pages.
    """

    number: int
    """1-based page index in the PDF."""
    width: float = 0.0
    """Page width in points."""
    height: float = 0.0
    """Page height in points."""
    lines: list[ExtractedLine] = Field(default_factory=list)
    """The page's lines in reading order."""
    halves: list[PageHalf] = Field(default_factory=list)
    """A spread's two book pages in reading order; empty for a single page."""

    def book_pages(self) -> list[ExtractedPage]:
        """The book pages printed on this PDF page: a spread's two halves (each with
        this page's number, its own lines and extent), else the page itself."""
        if not self.halves:
            return [self]
        return [
            ExtractedPage(
                number=self.number,
                width=round(half.x1 - half.x0, 2),
                height=self.height,
                lines=self.lines[half.start : half.end],
            )
            for half in self.halves
        ]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def text(self) -> str:
        """Body and heading lines joined with newlines."""
        return "\n".join(ln.text for ln in self.lines if ln.kind in ("body", "heading"))

    @computed_field  # type: ignore[prop-decorator]
    @property
    def footnote_text(self) -> str:
        """The footnote area's lines joined with newlines."""
        return "\n".join(ln.text for ln in self.lines if ln.kind == "footnote")

    @property
    def header(self) -> str:
        """The running header as printed: each row of it one line, its fields and the
        page number on its baseline in reading order (``"12 פרקי אבות"``); the lines
        keep them apart, by role. A spread gives each half's rows."""
        return "\n".join(_band_rows(half.lines, "header") for half in self.book_pages()).strip()

    @property
    def footer(self) -> str:
        """The running footer as printed, as :attr:`header` is."""
        return "\n".join(_band_rows(half.lines, "footer") for half in self.book_pages()).strip()


def _band_rows(lines: list[ExtractedLine], role: Literal["header", "footer"]) -> str:
    """The rows holding a ``role`` line, with the page numbers on their baselines, each
    read in its script's direction (right to left for a Hebrew row)."""
    rows: list[list[ExtractedLine]] = []
    for ln in lines:
        if ln.kind != role:
            continue
        row = next((r for r in rows if abs(r[0].y - ln.y) <= 0.5 * max(ln.size, 1.0)), None)
        if row is None:
            rows.append([ln])
        else:
            row.append(ln)
    for row in rows:
        row.extend(
            ln
            for ln in lines
            if ln.kind == "page_number" and abs(row[0].y - ln.y) <= 0.5 * max(ln.size, 1.0)
        )
    out = []
    for row in sorted(rows, key=lambda r: r[0].y):
        text = "".join(ln.text for ln in row)
        hebrew = sum("\u05d0" <= ch <= "\u05ea" for ch in text)
        latin = sum(ch.isascii() and ch.isalpha() for ch in text)
        ordered = sorted(row, key=lambda ln: -ln.x1 if hebrew >= latin else ln.x0)
        out.append(" ".join(ln.text for ln in ordered))
    return "\n".join(out)


class DocumentHeading(_Model):
    """A heading the PDF itself declares (extension): a bookmark or a tagged ``H1``–``H6``.

    ``page`` is 1-based; ``level`` 1 is the top of the document's outline; ``y`` is
    the distance in points from the top of the page where it points (0 when unknown);
    ``source`` is ``"bookmark"`` (the document outline), ``"structure"`` (the tagged
    structure tree) or ``"contents"`` (a printed table of contents).
    """

    title: str
    """The heading's text."""
    page: int
    """1-based page it points to."""
    level: int = 1
    """Depth in the document's outline (1: top)."""
    y: float = 0.0
    """Distance from the top of the page where it points, in points (0: unknown)."""
    source: Literal["bookmark", "structure", "contents"] = "bookmark"
    """Where it was declared: bookmark, structure or contents."""


class ExtractedDocument(_Model):
    """What :func:`libtext.extract_pdf` returns: pages plus the PDF's metadata.

    ``title``/``author`` come from the PDF's document information (empty when
    absent); ``source_name`` is the file name when known; ``body_size`` is the
    dominant (body text) font size in points, the yardstick for headings;
    ``headings`` are the headings the PDF declares itself (its bookmarks, else the
    headings of its tagged structure), empty when it declares none.
    """

    pages: list[ExtractedPage] = Field(default_factory=list)
    """The pages in order."""
    title: str = ""
    """Title from the PDF's document information (empty if absent)."""
    author: str = ""
    """Author from the PDF's document information (empty if absent)."""
    source_name: str = ""
    """The file name, when known."""
    body_size: float = Field(default=0.0, description="extension: body text font size (pt)")
    headings: list[DocumentHeading] = Field(
        default_factory=list,
        description="extension: the PDF's own headings (bookmarks, tagged structure)",
    )

    @property
    def page_count(self) -> int:
        """Number of pages read."""
        return len(self.pages)

    @property
    def text(self) -> str:
        """The body text of all pages, pages separated by a blank line."""
        return "\n\n".join(p.text for p in self.pages)

    def _repr_html_(self) -> str:
        """A readable HTML view in Jupyter (Hebrew right-to-left, English left-to-right)."""
        from libtext._html import extracted_html

        return extracted_html(self)


# --- several providers at once ----------------------------------------------------


class GroundingReport(_Model):
    """How well an outline's phrases were found in the document's text.

    ``exact``: found verbatim; ``repaired``: a near miss mapped to the exact span;
    ``dropped``: segments removed because a phrase could not be found;
    ``page_mismatches``: ``page_ref`` corrected to the page where the phrase is;
    ``unsupported_metadata`` (extension): the ``source_metadata`` fields the model gave
    that are neither in the document's first pages nor in its PDF metadata.
    """

    segments: int = 0
    """Segments checked."""
    exact: int = 0
    """Phrases found verbatim."""
    repaired: int = 0
    """Near misses mapped to the exact text."""
    dropped: int = 0
    """Segments removed because a phrase was not found."""
    page_mismatches: int = 0
    """page_ref values corrected to the phrase's page."""
    unsupported_metadata: list[str] = Field(
        default_factory=list,
        description="extension: source_metadata fields not found in the document",
    )


class ProviderOutcome(_Model):
    """One provider's result in a comparison: its outline, or its error."""

    provider: str
    """The provider's name."""
    ok: bool
    """Whether it produced an outline."""
    outline: DocumentOutline | None = None
    """Its outline, when ok."""
    error: ErrorDetail | None = None
    """Its error, when not ok."""
    latency_s: float = 0.0
    """Seconds it took."""
    tokens_in: int | None = None
    """Prompt tokens used, when the provider reports them."""
    tokens_out: int | None = None
    """Answer tokens used, when the provider reports them."""
    cost_usd: float | None = None
    """Cost in US dollars, when known."""
    prompt_version: str | None = None
    """Version of the prompt it was asked with."""
    grounding: GroundingReport | None = None
    """How well its phrases were found in the document."""


class ProviderAgreement(_Model):
    """Agreement of two providers' segment boundaries (start pages within ``tolerance``)."""

    a: str
    """The first provider's name."""
    b: str
    """The second provider's name."""
    tolerance_pages: int = 1
    """Pages two start pages may differ by and still match."""
    matched: int = 0
    """Segments whose start pages match."""
    segments_a: int = 0
    """Segments of the first provider."""
    segments_b: int = 0
    """Segments of the second provider."""
    score: float = Field(default=0.0, description="matched / max(segments_a, segments_b)")


class OutlineComparison(_Model):
    """Outlines of one document by several providers, side by side."""

    source_metadata: SourceMetadata = Field(default_factory=SourceMetadata)
    """Publication, work and author of the document."""
    results: list[ProviderOutcome] = Field(default_factory=list)
    """Each provider's outline or error, in the order asked."""
    agreement: list[ProviderAgreement] = Field(default_factory=list)
    """How far each pair of providers agrees."""

    def _repr_html_(self) -> str:
        """A readable HTML view in Jupyter (Hebrew right-to-left, English left-to-right)."""
        from libtext._html import comparison_html

        return comparison_html(self)


# --- the HTTP adapter's own request and response ------------------------------------


class ProcessRequest(_Model):
    """JSON body of ``POST /api/process`` that names an online library work (extension).

    ``max_pages`` caps the pages read from the work (the server's page limit applies
    on top of it).
    """

    work_id: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.:-]+$")
    """The online library's id of the work to process."""
    max_pages: Number | None = Field(default=None, ge=1)
    """Most pages to read from it (the server's limit applies on top)."""
    save_partial: bool = False
    """Store the document even when some sections could not be translated (they keep
    their Hebrew, phrase split and links, with ``error`` set); by default such a run is
    refused (409 ``partial_translation``) and nothing is stored (extension)."""


class ProcessResponse(_Model):
    """What ``POST /api/process`` returns (extension): the stored document and its slug.

    ``document`` is the public form, as Get Text by Slug returns it.
    """

    slug: str
    """Where the text is stored (GET /api/texts/{slug})."""
    document: ProcessedDocument
    """The stored document, in its public form."""
    failed_sections: list[int] = Field(default_factory=list)
    """``sequence_id`` of the sections whose translation failed, stored because the
    request asked for ``save_partial`` (each has ``error`` set); empty when every section
    was translated (extension)."""


# --- review of stored texts (extension) ---------------------------------------------


class SectionEdit(_Model):
    """The editable fields of a stored section, as ``PATCH .../sections/{sequence_id}`` takes them.

    A JSON merge patch: a field left out stays as it is, ``null`` resets it (empty
    title, no phrases, no notes), a list replaces the whole list. A phrase's
    ``sefaria_link`` must be empty, a link the section already had, the link of a
    citation the linker finds in the phrase's Hebrew, or Hebrew citation text the
    linker resolves (stored as its link). ``translation_data`` must cover the section's
    Hebrew in order (a phrase without ``hebrew_phrase`` keeps the Hebrew of the phrase
    at its place); ``complete`` and ``notes`` are recomputed on every edit. Unknown
    fields are refused.
    """

    model_config = ConfigDict(extra="forbid")

    chapter_title: str | None = None
    """The section's new chapter title."""
    segment_title: str | None = None
    """The section's new segment title."""
    translation_data: list[TranslationData] | None = None
    """The section's new phrases, covering its Hebrew in order."""
    footnotes: list[Footnote] | None = None
    """The section's new footnotes."""

    @field_validator("chapter_title", "segment_title", mode="after")
    @classmethod
    def _plain_title(cls, value: str | None) -> str | None:
        """Titles without control characters or bidi overrides (``hebrew.name_problem``)."""
        problem = None if value is None else name_problem(value)
        if problem is not None:
            raise ValueError(f"the title contains {problem}; send it as plain text")
        return value


class TextRevision(_Model):
    """One revision of a stored text: when, by whom and what changed.

    ``number`` counts from 1 (the save). ``change`` is ``"save"``, ``"update"`` (the
    whole document replaced), ``"edit"`` (one section) or ``"revert"`` (to
    ``reverted_to``). ``sections`` lists the ``sequence_id`` of the sections that
    differ from the revision before; ``author`` is whoever the write named, if anyone.
    """

    number: int
    """The revision's number, from 1 (the save)."""
    created_at: UtcDatetime
    """When it was written (UTC)."""
    change: str
    """What made it: save, update, edit or revert."""
    author: str | None = None
    """Who made it, when the write named someone."""
    sections: list[int] = Field(default_factory=list)
    """sequence_ids of the sections that differ from the revision before."""
    reverted_to: int | None = None
    """The revision it restored (revert only)."""


class TextRevisionsResponse(_Model):
    """A stored text's history, oldest first; ``revision`` is the current number."""

    slug: str
    """The text's slug."""
    revision: int
    """The current revision's number."""
    revisions: list[TextRevision] = Field(default_factory=list)
    """Every revision, oldest first."""


class PhraseChange(_Model):
    """One phrase that differs between two revisions of a section."""

    change: Literal["added", "removed", "changed"] = Field(
        description="added in the newer revision, removed from it, or its fields changed"
    )
    index: int = Field(
        description="0-based place in the newer revision's phrases (the older's if removed)"
    )
    before: TranslationData | None = Field(
        default=None, description="the phrase in the older revision (none if added)"
    )
    after: TranslationData | None = Field(
        default=None, description="the phrase in the newer revision (none if removed)"
    )


class SectionDiff(_Model):
    """How one section differs between two revisions: its fields, then phrase by phrase."""

    sequence_id: int = Field(description="the section's sequence_id")
    change: Literal["added", "removed", "changed"] = Field(
        description="added in the newer revision, removed from it, or changed"
    )
    fields: list[str] = Field(
        default_factory=list, description="names of the section's fields that differ"
    )
    phrases: list[PhraseChange] = Field(
        default_factory=list, description="the phrases that differ, in order"
    )


class TextDiff(_Model):
    """What differs between two revisions of a stored text, section by section."""

    slug: str = Field(description="the text's slug")
    from_revision: int = Field(description="the older revision compared")
    to_revision: int = Field(description="the newer revision compared")
    metadata_changed: bool = Field(default=False, description="whether titles or author differ")
    sections: list[SectionDiff] = Field(
        default_factory=list, description="the sections that differ, by sequence_id"
    )


class SectionEditResult(_Model):
    """What a section edit returns: the new revision, the section as stored, and the
    text's new ``etag`` (the next edit's ``If-Match``)."""

    slug: str
    """The text's slug."""
    revision: TextRevision
    """The revision the edit made."""
    section: Section
    """The section as stored now."""
    etag: str = ""
    """The text's new ETag: the next edit's If-Match."""
