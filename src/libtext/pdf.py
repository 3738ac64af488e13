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

import os
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Literal

import anyio.to_thread

from libtext._pdf_layout import classify, dominant_size
from libtext._pdf_meta import info_text
from libtext._pdf_outline import read_headings
from libtext._pdf_read import RawPage, read_page
from libtext._pdf_text import bracket_votes, mirror_rtl_brackets
from libtext._pdf_visual import valid_text
from libtext.errors import (
    EmptyDocumentError,
    EmptyFileError,
    EncryptedPDFError,
    InputTooLargeError,
    InvalidInputError,
    InvalidPDFError,
    NoTextLayerError,
    TooManyPagesError,
)
from libtext.models import DocumentHeading, ExtractedDocument, ExtractedLine, ExtractedPage

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_PAGES",
    "PdfSource",
    "aextract_pdf",
    "extract_pdf",
]

DEFAULT_MAX_PAGES = 2000
DEFAULT_MAX_BYTES = 100 * 2**20

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
) -> ExtractedDocument:
    """Extract a PDF's pages as logical-order Hebrew lines with their layout roles.

    Args:
        source: A path, the PDF's bytes, or a binary file object (read from its
            current position).
        password: The user password of an encrypted PDF.
        max_pages: Refuse documents with more pages than this (``None``: no limit).
            With ``pages``, the limit applies to the pages actually read.
        max_bytes: Refuse inputs larger than this many bytes (``None``: no limit).
        mode: ``"fast"`` (pdfium, the default) or ``"precise"`` (pdfplumber + bidi).
        pages: 0-based page indices to read (e.g. ``range(10)``); default all.

    Returns:
        The pages with their lines, and the PDF's title and author metadata.

    Raises:
        EmptyFileError: The input has zero bytes.
        InvalidPDFError: It is not a PDF, or it is truncated or damaged.
        EncryptedPDFError: A password is needed (or the one given is wrong).
        NoTextLayerError: The pages are images without text: run OCR first.
        EmptyDocumentError: The PDF has pages but no text and no images.
        InputTooLargeError: The input is over ``max_bytes``.
        TooManyPagesError: The document is over ``max_pages``.
    """
    data, name = _read_source(source, max_bytes)
    if not data:
        raise EmptyFileError(
            f"{name or 'The input'} is empty (0 bytes): pass the PDF file's contents."
        )
    head = bytes(data[:1024])
    if b"%PDF-" not in head:
        raise InvalidPDFError(
            f"{name or 'The input'} is not a PDF (no %PDF header); "
            "check that you passed the right file.",
            details={"source": name},
        )
    if mode == "precise":
        from libtext._pdf_precise import read_precise

        try:
            raw_pages, meta = read_precise(
                data, name=name, password=password, check=lambda n: _selection(n, pages, max_pages)
            )
            headings: list[DocumentHeading] = []
        except EncryptedPDFError:
            raise _encrypted(name, password) from None
    elif mode == "fast":
        raw_pages, meta, headings = _read_fast(data, name, password, pages, max_pages)
    else:
        raise InvalidInputError(f"Unknown mode {mode!r}: use 'fast' or 'precise'.")
    return _assemble(raw_pages, meta, name, mirror=mode == "fast", headings=headings)


async def aextract_pdf(
    source: PdfSource,
    *,
    password: str | None = None,
    max_pages: int | None = DEFAULT_MAX_PAGES,
    max_bytes: int | None = DEFAULT_MAX_BYTES,
    mode: Mode = "fast",
    pages: range | None = None,
) -> ExtractedDocument:
    """Async twin of :func:`extract_pdf`: runs it in a worker thread."""

    def run() -> ExtractedDocument:
        return extract_pdf(
            source,
            password=password,
            max_pages=max_pages,
            max_bytes=max_bytes,
            mode=mode,
            pages=pages,
        )

    return await anyio.to_thread.run_sync(run)


# --- input ------------------------------------------------------------------------


def _too_large(name: str, size: int, limit: int) -> InputTooLargeError:
    return InputTooLargeError(
        f"{name or 'The input'} is {size:,} bytes, over the limit of {limit:,}; "
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
        path = Path(os.fspath(source)).expanduser()
        name = path.name
        try:
            size = path.stat().st_size
            if max_bytes is not None and size > max_bytes:
                raise _too_large(name, size, max_bytes)
            return path.read_bytes(), name
        except FileNotFoundError:
            raise InvalidInputError(
                f"No such file: {os.fspath(source)!r}; check the path.",
                details={"source": name},
            ) from None
        except IsADirectoryError:
            raise InvalidInputError(
                f"{os.fspath(source)!r} is a directory, not a PDF file.", details={"source": name}
            ) from None
        except OSError as exc:
            raise InvalidInputError(
                f"Cannot read {os.fspath(source)!r} ({exc.strerror or 'I/O error'}).",
                details={"source": name},
            ) from None
    read: Callable[[int], Any] | None = getattr(source, "read", None)
    if read is None:
        raise InvalidInputError(
            f"extract_pdf() takes a path, bytes or a binary file, not {type(source).__name__}."
        )
    name = Path(str(getattr(source, "name", "") or "")).name
    chunk = read(-1 if max_bytes is None else max_bytes + 1)
    if isinstance(chunk, str):
        raise InvalidInputError("The file is open in text mode: open it with 'rb'.")
    data = bytes(chunk or b"")
    if max_bytes is not None and len(data) > max_bytes:
        raise _too_large(name, len(data), max_bytes)
    return data, name


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
            f"{name or 'The PDF'} is encrypted and needs a password: pass password='...' "
            "(Python) or --password (CLI), or decrypt it first "
            "(e.g. `qpdf --decrypt --password=... in.pdf out.pdf`)."
        )
    else:
        message = f"The password given for {name or 'the PDF'} is wrong; check it and retry."
    return EncryptedPDFError(message, details={"source": name})


def _damaged(name: str, data: bytes) -> InvalidPDFError:
    tail = data[-2048:]
    hint = "it looks truncated (no %%EOF at the end)" if b"%%EOF" not in tail else "it is damaged"
    return InvalidPDFError(
        f"{name or 'The input'} starts like a PDF but cannot be read: {hint}. "
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
) -> tuple[list[RawPage], dict[str, str], list[DocumentHeading]]:
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
                    f"{name or 'The PDF'} has no pages; there is nothing to extract.",
                    details={"source": name},
                )
            chosen = _selection(len(doc), pages, max_pages)
            raw_pages: list[RawPage] = []
            for i in chosen:
                page = doc[i]
                try:
                    raw_pages.append(read_page(pdfium_c, page, i + 1))
                finally:
                    page.close()
            try:
                meta = {k: str(v or "") for k, v in doc.get_metadata_dict().items()}
            except pypdfium2.PdfiumError:
                meta = {}
            headings = read_headings(pdfium_c, doc, chosen, [p.height for p in raw_pages])
        except pypdfium2.PdfiumError:
            raise _damaged(name, data) from None
        finally:
            doc.close()
    return raw_pages, meta, headings


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
                f"{name or 'The PDF'} has no text layer: its pages are images (a scan). "
                "Run OCR first (e.g. `ocrmypdf --language heb in.pdf out.pdf`), then retry.",
                details={"source": name},
            )
        raise EmptyDocumentError(
            f"{name or 'The PDF'} has no text on any page; there is nothing to extract.",
            details={"source": name},
        )
    if mirror:
        _fix_brackets(raw_pages)
    body = dominant_size(raw_pages)
    kinds = classify(raw_pages, body)
    out_pages = []
    for page, page_kinds in zip(raw_pages, kinds, strict=True):
        lines = [
            ExtractedLine.model_construct(
                text=valid_text(ln.text),
                kind=kind,
                size=ln.size,
                bold=ln.bold,
                y=ln.y,
                x0=round(ln.x0, 2),
                x1=round(ln.x1, 2),
            )
            for ln, kind in zip(page.lines, page_kinds, strict=True)
        ]
        out_pages.append(
            ExtractedPage.model_construct(
                number=page.number,
                width=round(page.width, 2),
                height=round(page.height, 2),
                lines=lines,
            )
        )
    return ExtractedDocument(
        pages=out_pages,
        title=info_text(valid_text(meta.get("Title", ""))),
        author=info_text(valid_text(meta.get("Author", ""))),
        source_name=name,
        body_size=body,
        headings=headings or [],
    )


_RTL_LETTER = re.compile("[\u05d0-\u05ea\u0620-\u064a\ufb1d-\ufefc]")
_LETTER = re.compile(r"[^\W\d_]")
_BRACKETS = frozenset("()[]{}<>«»‹›")


def _fix_brackets(pages: list[RawPage]) -> None:
    """Mirror right-to-left brackets back, if the document's lines show the defect.

    A document without Hebrew (or other right-to-left) letters is left alone; lines
    without letters take the document's direction. The vote stops early once one
    side clearly wins: a few dozen lines settle it.
    """
    sample = "".join(ln.text for p in pages[:30] for ln in p.lines)
    rtl = len(_RTL_LETTER.findall(sample))
    if not rtl:
        return
    default: Literal["L", "R"] = "R" if 2 * rtl >= len(_LETTER.findall(sample)) else "L"
    candidates = [
        ln
        for p in pages
        for ln in p.lines
        if not ln.brackets_fixed and not _BRACKETS.isdisjoint(ln.text)
    ]
    mirrored = logical = 0
    for ln in candidates:
        m, lg = bracket_votes(ln.text)
        mirrored += m
        logical += lg
        if abs(mirrored - logical) >= 25:
            break
    if logical > mirrored:
        return
    for ln in candidates:
        ln.text = mirror_rtl_brackets(ln.text, default)
