"""Hebrew PDF extraction: pages of logical-order text with font sizes, kinds and metadata.

``extract_pdf`` reads a PDF (path, bytes or binary file) with pdfium, the fast engine,
and fixes the two defects of its right-to-left text (mirrored brackets, nikud before
its letter). Every printed line keeps its font size and weight and is classified as
body, heading, running header, footer, page number or footnote, so that
:func:`libtext.headings.offline_outline` and the LLM providers see the structure.

``mode="precise"`` uses pdfplumber's characters and the Unicode bidi algorithm
instead: about 30 times slower, useful to cross-check an unusual PDF.

Bad input never leaks a pdfium or pdfminer exception: it raises the
:class:`~libtext.errors.InvalidInputError` branch with a message that says what to do.
"""

from __future__ import annotations

import gc
import os
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Literal

import anyio.to_thread

from libtext.errors import (
    EmptyDocumentError,
    EmptyFileError,
    EncryptedPDFError,
    InputTooLargeError,
    InvalidInputError,
    InvalidPDFError,
    InvalidTypeError,
    NoTextLayerError,
    TooManyPagesError,
    short,
)
from libtext.models import (
    DocumentHeading,
    ExtractedDocument,
    ExtractedPage,
    PageHalf,
)
from libtext.pdf._compiled import prefer_source

prefer_source()  # before the per-character modules: LIBTEXT_PURE_PYTHON=1 passes over their twin

from libtext.pdf._extracted import extracted_lines, fix_brackets  # noqa: E402
from libtext.pdf._guard import (  # noqa: E402
    PdfGuard,
    PdfLimits,
    default_guard,
    prescan,
    tree_page_count,
)
from libtext.pdf._layout import classify, dominant_size  # noqa: E402
from libtext.pdf._meta import info_author, info_text  # noqa: E402
from libtext.pdf._outline import StructureHeadings, read_headings, structure_wanted  # noqa: E402
from libtext.pdf._pages import Page  # noqa: E402
from libtext.pdf._read import RawPage, read_page  # noqa: E402
from libtext.pdf._spreads import split_spreads  # noqa: E402
from libtext.pdf._visual import valid_text  # noqa: E402

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_PAGES",
    "PdfGuard",
    "PdfLimits",
    "PdfSource",
    "aextract_pdf",
    "extract_pdf",
]

DEFAULT_MAX_PAGES = 2000
DEFAULT_MAX_BYTES = 100 * 2**20
SPLIT_PAGES = 50
"""A document with more pages than this is read in page ranges by the guard's idle
workers at once (a part has at least half this many pages), then put together in order."""

PdfSource = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes]
"""What :func:`extract_pdf` reads: a path, the PDF's bytes, or a binary file object."""

Mode = Literal["fast", "precise"]

# pdfium is not thread-safe; one document at a time per process.
_PDFIUM_LOCK = threading.Lock()


def extract_pdf(
    source: PdfSource,
    *,
    password: str | None = None,
    max_pages: int | None = DEFAULT_MAX_PAGES,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    mode: Mode = "fast",
    pages: range | None = None,
    guard: PdfGuard | bool = True,
) -> ExtractedDocument:
    """Extract a PDF's pages as logical-order Hebrew lines with their layout roles.

    The PDF is parsed in a worker process with a memory cap and a timeout
    (:class:`~libtext.pdf._guard.PdfGuard`), so a hostile file costs that worker, not
    your process.

    Args:
        source: A path, the PDF's bytes, or a binary file object (read from its
            current position).
        password: The user password of an encrypted PDF.
        max_pages: Refuse documents with more pages than this (``None``: no limit).
            With ``pages``, the limit applies to the pages actually read.
        max_bytes: Refuse inputs larger than this many bytes (``None``: no limit).
        mode: ``"fast"`` (pdfium, the default) or ``"precise"`` (pdfplumber + bidi).
        pages: 0-based page indices to read (e.g. ``range(10)``); default all.
        guard: ``True`` (default): the shared guard (``LIBTEXT_PDF_WORKERS``,
            ``LIBTEXT_PDF_MEMORY_MB``, ``LIBTEXT_PDF_TIMEOUT``); a ``PdfGuard`` of your
            own; ``False``: parse in this process (the size limits still apply).

    Returns:
        The pages with their lines, and the PDF's title and author metadata.

    Raises:
        EmptyFileError: The input has zero bytes.
        InvalidPDFError: It is not a PDF, or it is truncated or damaged.
        EncryptedPDFError: A password is needed (or the one given is wrong).
        NoTextLayerError: The pages are images without text: run OCR first.
        EmptyDocumentError: The PDF has pages but no text and no images.
        InputTooLargeError: The input is over ``max_bytes`` or another limit
            (``details["limit"]`` names it: characters, inflated streams, memory).
        TooManyPagesError: The document is over ``max_pages``.
        ExtractionTimeoutError: Reading took longer than the guard's timeout.
        TypeError: An argument has the wrong type (the message names it).
    """
    request = _request(source, password, max_pages, max_bytes, mode, pages, guard)
    if guard is False:
        return _extract_data(**request, limits=PdfLimits())
    chosen = default_guard() if guard is True else guard
    return chosen._extract(request, run=_extract_data, split=_SPLIT)


async def aextract_pdf(
    source: PdfSource,
    *,
    password: str | None = None,
    max_pages: int | None = DEFAULT_MAX_PAGES,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    mode: Mode = "fast",
    pages: range | None = None,
    guard: PdfGuard | bool = True,
) -> ExtractedDocument:
    """Async twin of :func:`extract_pdf`: the event loop waits, a worker process parses.

    Cancelling the call (a timeout around it) stops the worker at once.
    """
    if guard is False:

        def run() -> ExtractedDocument:
            return extract_pdf(
                source,
                password=password,
                max_pages=max_pages,
                max_bytes=max_bytes,
                mode=mode,
                pages=pages,
                guard=False,
            )

        return await anyio.to_thread.run_sync(run)
    request = await anyio.to_thread.run_sync(
        lambda: _request(source, password, max_pages, max_bytes, mode, pages, guard)
    )
    chosen = default_guard() if guard is True else guard
    return await chosen._aextract(request, run=_extract_data, split=_SPLIT)


async def aextract_json(
    data: bytes, *, name: str, max_pages: int | None, max_bytes: int | None, guard: PdfGuard
) -> bytes:
    """The JSON of :func:`aextract_pdf`'s document (``by_alias``), made in ``guard``'s worker.

    For a server that only passes the document on: the worker serializes it, so the
    caller never unpickles a document of thousands of lines nor serializes it again
    (tens of milliseconds of the event loop's process, the GIL held, for each big PDF).
    """
    request = _request(data, None, max_pages, max_bytes, "fast", None, guard)
    # As a file object of that name would give it (the bytes are not copied).
    request["name"] = Path(name).name[:200]
    request["task"] = "extract_json"
    return await guard._aextract(request, run=_extract_json, split=_JSON_SPLIT)


def _request(
    source: PdfSource,
    password: str | None,
    max_pages: int | None,
    max_bytes: int | None,
    mode: str,
    pages: range | None,
    guard: object,
) -> dict[str, Any]:
    """Check the arguments, read the source: the keyword arguments of :func:`_extract_data`."""
    _check_type("password", password, str)
    _check_type("max_pages", max_pages, int)
    _check_type("max_bytes", max_bytes, int)
    _check_type("pages", pages, range)
    if not isinstance(guard, bool | PdfGuard):
        raise InvalidTypeError(
            f"extract_pdf(guard=...) takes True, False or a PdfGuard, not {type(guard).__name__}."
        )
    if mode not in ("fast", "precise"):
        raise InvalidInputError(f"Unknown mode {short(mode)}: use 'fast' or 'precise'.")
    data, name = _read_source(source, max_bytes)
    return {
        "data": data,
        "name": name,
        "password": password,
        "max_pages": max_pages,
        "mode": mode,
        "pages": pages,
    }


def _check_type(name: str, value: object, kind: type) -> None:
    if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
        raise InvalidTypeError(
            f"extract_pdf({name}=...) takes {kind.__name__} or None, not {type(value).__name__}."
        )


def _extract_data(
    *,
    data: bytes,
    name: str,
    password: str | None,
    max_pages: int | None,
    mode: str,
    pages: range | None,
    limits: PdfLimits,
) -> ExtractedDocument:
    """The extraction itself, on bytes already read (in a guard's worker, or inline)."""
    if not data:
        raise EmptyFileError(
            f"{_label(name, 'The input')} is empty (0 bytes): pass the PDF file's contents."
        )
    head = bytes(data[:1024])
    if b"%PDF-" not in head:
        raise InvalidPDFError(
            f"{_label(name, 'The input')} is not a PDF (no %PDF header); "
            "check that you passed the right file.",
            details={"source": name},
        )
    prescan(data, limits, max_pages=max_pages, whole=pages is None)
    if mode == "precise":
        from libtext.pdf._precise import read_precise

        try:
            raw_pages, meta = read_precise(
                data, name=name, password=password, check=lambda n: _selection(n, pages, max_pages)
            )
        except EncryptedPDFError:
            raise _encrypted(name, password) from None
        headings: list[DocumentHeading] = []  # bookmarks are read in fast mode only
        total = 0
        for page in raw_pages:
            total += page.chars
            limits.check_page(page.number, page.chars, total)
        return _assemble(raw_pages, meta, name, mirror=False, headings=headings)
    with _no_collection():
        raw_pages, meta, headings, _ = _read_fast(data, name, password, pages, max_pages, limits)
        doc = _assemble(raw_pages, meta, name, mirror=True, headings=headings)
        # The raw lines die by their counts here, not walked by the collection that
        # follows the collector's return (it walks every object the read left alive).
        del raw_pages
        return doc


@contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector kept out of a document's read and assembly.

    A book makes hundreds of thousands of objects that live until the end (its
    lines) or die by their counts; a full collection walks all the living ones, and
    a book's read leaves about a hundred objects in cycles (a page's tens of thousands
    of boxes, glyphs and parts die by their counts). The collection is left to the
    caller's next allocations.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _extract_json(**request: Any) -> bytes:
    """:func:`_extract_data`'s document as JSON (worker task ``extract_json``)."""
    return _document_json(_extract_data(**request))


def _document_json(doc: ExtractedDocument) -> bytes:
    return ExtractedDocument.__pydantic_serializer__.to_json(doc, by_alias=True)


class _Parts:
    """Reads a big document as page ranges in several workers (see :class:`PdfGuard`).

    A part returns its raw pages, not a document: the layout roles, the body size and
    the bracket vote are the whole document's, so the parts are put together first
    and assembled as a whole read would be, to the same bytes. The page count comes
    from the page tree's raw ``/Count`` (no parsing in the caller); without one, or
    when pdfium counts otherwise, the document is read whole.
    """

    def plan(self, request: dict[str, Any], workers: int) -> list[dict[str, Any]] | None:
        pages: range | None = request["pages"]
        max_pages: int | None = request["max_pages"]
        if request["mode"] != "fast" or (pages is not None and pages.step != 1):
            return None
        count = tree_page_count(request["data"])
        if count is None:
            return None
        chosen = (
            range(count) if pages is None else range(max(pages.start, 0), min(pages.stop, count))
        )
        if len(chosen) <= SPLIT_PAGES or (max_pages is not None and len(chosen) > max_pages):
            return None  # small, or refused as a whole read refuses it
        n = min(workers, len(chosen) // (SPLIT_PAGES // 2))
        cuts = [len(chosen) * k // n for k in range(n + 1)]
        return [
            {
                **request,
                "pages": chosen[cuts[k] : cuts[k + 1]],
                "part": True,
                "outline": chosen if k == 0 else None,
            }
            for k in range(n)
        ]

    def merge(self, request: dict[str, Any], replies: list[Any]) -> ExtractedDocument | None:
        raw_pages: list[RawPage] = []
        for reply in replies:
            pages, _, _, count = reply
            if count != tree_page_count(request["data"]):
                return None  # pdfium repaired the page tree: read it whole
            raw_pages.extend(pages)
        _, meta, headings, _ = replies[0]
        limits: PdfLimits = request["limits"]
        total = 0
        for page in raw_pages:  # the document's character limit, over all the parts
            total += page.chars
            limits.check_page(page.number, page.chars, total)
        with _no_collection():
            return _assemble(raw_pages, meta, request["name"], mirror=True, headings=headings)


class _JsonParts(_Parts):
    """:class:`_Parts` whose merged document is handed back as its JSON."""

    def merge(self, request: dict[str, Any], replies: list[Any]) -> bytes | None:  # type: ignore[override]
        doc = super().merge(request, replies)
        return None if doc is None else _document_json(doc)


_SPLIT = _Parts()
_JSON_SPLIT = _JsonParts()


def _extract_part(
    *,
    data: bytes,
    name: str,
    password: str | None,
    max_pages: int | None,
    mode: str,
    pages: range,
    limits: PdfLimits,
    outline: range | None,
) -> tuple[list[RawPage], dict[str, str], list[DocumentHeading], int]:
    """One part of a document read in parts (in a worker): its raw pages, the
    metadata, the headings of ``outline``'s pages (one part reads them) and
    pdfium's page count, which the caller checks against the page tree's."""
    prescan(data, limits, max_pages=max_pages, whole=False)
    with _no_collection():
        return _read_fast(
            data, name, password, pages, max_pages, limits, outline=outline or range(0)
        )


# --- input ------------------------------------------------------------------------


def _label(name: str, default: str) -> str:
    """The file's name in a message, cut to 80 characters (never a whole huge input)."""
    if not name:
        return default
    return name if len(name) <= 80 else name[:77] + "..."


def _too_large(name: str, size: int, limit: int) -> InputTooLargeError:
    return InputTooLargeError(
        f"{_label(name, 'The input')} is {size:,} bytes, over the limit of {limit:,}; "
        "pass a larger max_bytes= (or None) to read it anyway.",
        details={"bytes": size, "max_bytes": limit},
    )


_NO_SOURCE = "No file given: pass the PDF's path, its bytes or a binary file object."


def _read_source(source: PdfSource, max_bytes: int | None) -> tuple[bytes, str]:
    if source is None or (isinstance(source, str | os.PathLike) and not os.fspath(source).strip()):
        raise InvalidInputError(_NO_SOURCE)  # Path("") is ".", which would read as a directory
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        if max_bytes is not None and len(data) > max_bytes:
            raise _too_large("The input", len(data), max_bytes)
        return data, ""
    if isinstance(source, str | os.PathLike):
        return _read_path(source, max_bytes)
    read: Callable[[int], Any] | None = getattr(source, "read", None)
    if read is None:
        raise InvalidTypeError(
            f"extract_pdf(source=...) takes a path, bytes or a binary file, not "
            f"{type(source).__name__}."
        )
    name = Path(str(getattr(source, "name", "") or "")).name[:200]
    if max_bytes is None:
        _check_regular_fileobj(source)
    chunk = read(-1 if max_bytes is None else max_bytes + 1)
    if isinstance(chunk, str):
        raise InvalidInputError("The file is open in text mode: open it with 'rb'.")
    data = bytes(chunk or b"")
    if max_bytes is not None and len(data) > max_bytes:
        raise _too_large(name, len(data), max_bytes)
    return data, name


def _read_path(source: str | os.PathLike[str], max_bytes: int | None) -> tuple[bytes, str]:
    raw = os.fspath(source)
    if not isinstance(raw, str):
        raise InvalidTypeError(
            f"extract_pdf(source=...) takes a str path, not {type(raw).__name__}."
        )
    if "\x00" in raw:
        raise InvalidInputError(
            f"The path {short(raw)} contains a NUL character; no file has such a name.",
            details={"source": raw[:80]},
        )
    path = Path(raw).expanduser()
    name = path.name[:200]
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise InvalidInputError(
                f"{short(raw)} is a directory, not a PDF file.", details={"source": name}
            )
        if not stat.S_ISREG(info.st_mode):
            raise InvalidInputError(
                f"{short(raw)} is not a regular file (a device, FIFO or socket); "
                "pass the path of a PDF file.",
                details={"source": name},
            )
        if max_bytes is not None and info.st_size > max_bytes:
            raise _too_large(name, info.st_size, max_bytes)
        with path.open("rb") as fh:
            data = fh.read(-1 if max_bytes is None else max_bytes + 1)
    except FileNotFoundError:
        raise InvalidInputError(
            f"No such file: {short(raw)}; check the path.", details={"source": name}
        ) from None
    except OSError as exc:
        raise InvalidInputError(
            f"Cannot read {short(raw)} ({exc.strerror or 'I/O error'}).",
            details={"source": name},
        ) from None
    if max_bytes is not None and len(data) > max_bytes:
        raise _too_large(name, len(data), max_bytes)  # it grew while read
    return data, name


def _check_regular_fileobj(source: object) -> None:
    """An unbounded read of a device (``/dev/zero``) would never end: refuse it first."""
    fileno = getattr(source, "fileno", None)
    try:
        mode = os.fstat(fileno()).st_mode if fileno is not None else None
    except (OSError, ValueError, AttributeError):
        return  # in-memory file objects (BytesIO) have no descriptor
    if mode is not None and not stat.S_ISREG(mode):
        raise InvalidInputError(
            "The file object reads from a device, FIFO or socket, with no end; pass a "
            "regular file, or a max_bytes= limit."
        )


def _selection(count: int, pages: range | None, max_pages: int | None) -> list[int]:
    chosen = [i for i in (pages if pages is not None else range(count)) if 0 <= i < count]
    if max_pages is not None and len(chosen) > max_pages:
        raise TooManyPagesError(
            f"The PDF has {len(chosen)} pages to read, over the limit of {max_pages}; "
            "pass pages=range(...) to read part of it, or a larger max_pages=.",
            details={"pages": len(chosen), "max_pages": max_pages},
        )
    return chosen


def _encrypted(name: str, password: str | None) -> EncryptedPDFError:
    """The same words whichever way the PDF came in: a Python call, the CLI or an upload."""
    if password is None:
        message = (
            f"{_label(name, 'The PDF')} is encrypted and needs a password: "
            "pass password='...', or decrypt it first "
            "(e.g. `qpdf --decrypt --password=... in.pdf out.pdf`)."
        )
    else:
        message = f"The password given for {_label(name, 'the PDF')} is wrong; check it and retry."
    return EncryptedPDFError(message, details={"source": name})


def _damaged(name: str, data: bytes) -> InvalidPDFError:
    tail = data[-2048:]
    hint = "it looks truncated (no %%EOF at the end)" if b"%%EOF" not in tail else "it is damaged"
    return InvalidPDFError(
        f"{_label(name, 'The input')} starts like a PDF but cannot be read: {hint}. "
        "Download or export it again.",
        details={"source": name},
    )


# --- fast engine ------------------------------------------------------------------


def _read_fast(
    data: bytes,
    name: str,
    password: str | None,
    pages: range | None,
    max_pages: int | None,
    limits: PdfLimits,
    *,
    outline: range | None = None,
) -> tuple[list[RawPage], dict[str, str], list[DocumentHeading], int]:
    """The chosen pages read, the metadata, the headings on the pages of ``outline``
    (default: the chosen ones) and the document's page count."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    with _PDFIUM_LOCK:
        try:
            doc = pypdfium2.PdfDocument(data, password=password)
        except pypdfium2.PdfiumError as exc:
            if getattr(exc, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
                raise _encrypted(name, password) from None
            raise _damaged(name, data) from None
        try:
            if len(doc) == 0:
                raise EmptyDocumentError(
                    f"{_label(name, 'The PDF')} has no pages; there is nothing to extract.",
                    details={"source": name},
                )
            chosen = _selection(len(doc), pages, max_pages)
            raw_pages: list[RawPage] = []
            total = 0
            # A tagged document's headings are read from each page while it is open.
            tagged = None
            if outline is None and structure_wanted(pdfium_c, doc, chosen):
                tagged = StructureHeadings(pdfium_c)
            for i in chosen:
                page = Page(pdfium_c, doc.raw, i)
                try:
                    raw_pages.append(read_page(pdfium_c, page, i + 1))
                    if tagged is not None:
                        tagged.add(page, i + 1, raw_pages[-1].height)
                finally:
                    page.close()
                total += raw_pages[-1].chars
                limits.check_page(i + 1, raw_pages[-1].chars, total)
            try:
                meta = {k: str(v or "") for k, v in doc.get_metadata_dict().items()}
            except pypdfium2.PdfiumError:
                meta = {}
            if tagged is not None:
                headings = tagged.headings()
            elif outline is None:
                headings = read_headings(pdfium_c, doc, chosen, [p.height for p in raw_pages])
            elif outline:
                own = {p.number - 1: p.height for p in raw_pages}
                wanted = [i for i in outline if 0 <= i < len(doc)]
                heights = [own[i] if i in own else float(doc.get_page_size(i)[1]) for i in wanted]
                headings = read_headings(pdfium_c, doc, wanted, heights)
            else:
                headings = []
            count = len(doc)
        except pypdfium2.PdfiumError:
            raise _damaged(name, data) from None
        finally:
            doc.close()
    return raw_pages, meta, headings, count


# --- assembly ---------------------------------------------------------------------


def _assemble(
    raw_pages: list[RawPage],
    meta: dict[str, str],
    name: str,
    *,
    mirror: bool,
    headings: list[DocumentHeading] | None = None,
) -> ExtractedDocument:
    if raw_pages and not any(p.chars for p in raw_pages):
        if any(p.has_images for p in raw_pages):
            raise NoTextLayerError(
                f"{_label(name, 'The PDF')} has no text layer: its pages are images (a scan). "
                "Run OCR first (e.g. `ocrmypdf --language heb in.pdf out.pdf`), then retry.",
                details={"source": name},
            )
        raise EmptyDocumentError(
            f"{_label(name, 'The PDF')} has no text on any page; there is nothing to extract.",
            details={"source": name},
        )
    if mirror:
        fix_brackets(raw_pages)
    body = dominant_size(raw_pages)
    units, spreads = split_spreads(raw_pages)
    kinds = iter(classify(units, body))
    out_pages = []
    for page, spread in zip(raw_pages, spreads, strict=True):
        if spread is None:
            lines = extracted_lines(page.lines, next(kinds))
            halves: list[PageHalf] = []
        else:
            lines, halves = [], []
            for side, half, label in zip(spread.sides, spread.halves, spread.labels, strict=True):
                start = len(lines)
                lines.extend(extracted_lines(half, next(kinds)))
                x0, x1 = (spread.cut, page.width) if side == "right" else (0.0, spread.cut)
                halves.append(
                    PageHalf(
                        side=side,
                        start=start,
                        end=len(lines),
                        label=label,
                        x0=round(x0, 2),
                        x1=round(x1, 2),
                    )
                )
        out_pages.append(
            ExtractedPage.model_construct(
                number=page.number,
                width=round(page.width, 2),
                height=round(page.height, 2),
                lines=lines,
                halves=halves,
            )
        )
    return ExtractedDocument(
        pages=out_pages,
        title=info_text(valid_text(meta.get("Title", ""))),
        author=info_author(valid_text(meta.get("Author", ""))),
        source_name=name,
        body_size=body,
        headings=headings or [],
    )
