"""Publish a processed text: DOCX, EPUB 3, Markdown, TEI P5 or a reader page (HTML).

One entry point for every format::

    from libtext.export import export

    export(document, "docx", "chapter.docx")             # a path or a binary file
    data = export(document, "md")                        # bytes
    export(document, "html", "reader.html", layout="interleaved")

Every format carries the same things (``libtext.export._view``): the source's
metadata and page range (never the library's internal ids), each section in order
with its chapter number and title, its Hebrew phrase by phrase beside its English,
each Sefaria link as a link on its phrase (a coarse one marked so), the footnotes as
the format's own notes with their translations, and the revision and date exported.
A document read by :meth:`TextStore.get <libtext.store.TextStore.get>` knows its
revision; :meth:`TextStore.export <libtext.store.TextStore.export>` does both.

The text formats (Markdown, TEI, HTML) are made a section at a time
(:func:`iter_export`) and written as they are made; EPUB writes a chapter at a time
into its zip. DOCX needs the ``export`` extra (python-docx).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from datetime import datetime
from typing import IO, TYPE_CHECKING, Literal, get_args

from libtext._keywords import strict_keywords
from libtext.errors import InvalidInputError, InvalidTypeError

if TYPE_CHECKING:  # pragma: no cover
    from libtext.models import ProcessedDocument

__all__ = [
    "FORMATS",
    "MEDIA_TYPES",
    "ExportFormat",
    "Layout",
    "export",
    "format_for",
    "iter_export",
]

ExportFormat = Literal["docx", "epub", "md", "tei", "html"]
"""The formats :func:`export` writes."""

Layout = Literal["side-by-side", "interleaved"]
"""Hebrew and English in two columns (the default), or one after the other by phrase."""

FORMATS: tuple[str, ...] = get_args(ExportFormat)

MEDIA_TYPES: dict[str, str] = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "epub": "application/epub+zip",
    "md": "text/markdown; charset=utf-8",
    "tei": "application/tei+xml; charset=utf-8",
    "html": "text/html; charset=utf-8",
}
"""The media type of each format, as served over HTTP."""

EXTENSIONS: dict[str, str] = {"docx": "docx", "epub": "epub", "md": "md", "tei": "xml",
                              "html": "html"}  # fmt: skip
"""The usual file name extension of each format."""

_ALIASES = {"markdown": "md", "xml": "tei", "htm": "html"}
_CHUNK = 64 * 1024


def format_for(name: str) -> str:
    """The format called ``name`` (``"docx"``, ``"markdown"``, ``"tei"``...).

    Raises:
        InvalidInputError: No such format; the message lists them.
    """
    if not isinstance(name, str):
        raise InvalidTypeError(f"format must be a string, not {type(name).__name__}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in FORMATS:
        raise InvalidInputError(
            f"Unknown export format {name!r}: use one of {', '.join(FORMATS)}.",
            details={"format": name, "formats": list(FORMATS)},
        )
    return key


def _check(document: object, layout: str) -> tuple[int | None]:
    from libtext._html import revision_note
    from libtext.models import ProcessedDocument

    if not isinstance(document, ProcessedDocument):
        raise InvalidTypeError(f"export needs a ProcessedDocument, not {type(document).__name__}")
    if layout not in get_args(Layout):
        raise InvalidInputError(
            f"Unknown layout {layout!r}: use 'side-by-side' or 'interleaved'.",
            details={"layout": layout},
        )
    note = revision_note(document)
    return (note.number if note is not None else None,)


def _text_chunks(
    document: ProcessedDocument,
    fmt: str,
    revision: int | None,
    exported_at: datetime | None,
    layout: str,
) -> Iterator[str]:
    if fmt == "md":
        from libtext.export._markdown import markdown_chunks

        return markdown_chunks(document, revision=revision, exported_at=exported_at)
    if fmt == "tei":
        from libtext.export._tei import tei_chunks

        return tei_chunks(document, revision=revision, exported_at=exported_at)
    from libtext.export._html import html_chunks

    return html_chunks(document, revision=revision, exported_at=exported_at, layout=layout)


def _write_binary(
    document: ProcessedDocument,
    fmt: str,
    out: IO[bytes],
    revision: int | None,
    exported_at: datetime | None,
    layout: str,
) -> None:
    if fmt == "epub":
        from libtext.export._epub import write_epub

        write_epub(document, out, revision=revision, exported_at=exported_at, layout=layout)
        return
    try:
        from libtext.export._docx import write_docx
    except ImportError as exc:
        from libtext.errors import ConfigurationError

        raise ConfigurationError(
            "DOCX export needs the export extra: pip install 'libtext[export]'",
            details={"extra": "export", "missing": exc.name or ""},
        ) from None
    write_docx(document, out, revision=revision, exported_at=exported_at, layout=layout)


@strict_keywords()
def iter_export(
    document: ProcessedDocument,
    format: str,
    *,
    layout: str = "side-by-side",
    exported_at: datetime | None = None,
) -> Iterator[bytes]:
    """The exported file as chunks of bytes, made as they are read (for streaming).

    Text formats are made a section at a time; DOCX and EPUB are written to a
    temporary file first (a zip is finished at its end) and read back in chunks.
    Arguments are checked before the first chunk is asked for.
    """
    fmt = format_for(format)
    (revision,) = _check(document, layout)
    if fmt in ("md", "tei", "html"):
        chunks = _text_chunks(document, fmt, revision, exported_at, layout)
        return (chunk.encode("utf-8") for chunk in chunks)
    spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _read_back when read
    try:
        _write_binary(document, fmt, spool, revision, exported_at, layout)
    except BaseException:
        spool.close()
        raise
    return _read_back(spool)


def _read_back(spool: IO[bytes]) -> Iterator[bytes]:
    with spool:
        spool.seek(0)
        while chunk := spool.read(_CHUNK):
            yield chunk


@strict_keywords()
def export(
    document: ProcessedDocument,
    format: str,
    path_or_file: str | os.PathLike[str] | IO[bytes] | None = None,
    *,
    layout: str = "side-by-side",
    exported_at: datetime | None = None,
) -> bytes | None:
    """Export a processed document as a file people open with their own tools.

    Args:
        document: The processed text (from :func:`~libtext.process_document` or
            :meth:`TextStore.get <libtext.store.TextStore.get>`, which adds its revision).
        format: ``"docx"``, ``"epub"``, ``"md"``, ``"tei"`` or ``"html"``
            (``"markdown"`` and ``"xml"`` are taken too).
        path_or_file: Where to write: a path, or a binary file open for writing;
            ``None`` returns the bytes.
        layout: ``"side-by-side"`` (Hebrew and English in two columns) or
            ``"interleaved"`` (each Hebrew phrase, then its English). Markdown is
            always interleaved.
        exported_at: The export time written in the file (default: now, UTC); fix it
            for byte-identical output.

    Returns:
        The file's bytes when ``path_or_file`` is ``None``, else ``None``.

    Raises:
        InvalidInputError: Unknown format or layout.
        InvalidTypeError: ``document`` is not a ProcessedDocument.
        ConfigurationError: DOCX without the ``export`` extra.
    """
    fmt = format_for(format)
    (revision,) = _check(document, layout)
    if path_or_file is None:
        import io

        buffer = io.BytesIO()
        _write(document, fmt, buffer, revision, exported_at, layout)
        return buffer.getvalue()
    if isinstance(path_or_file, str | os.PathLike):
        # Written beside the target and renamed: a failed export leaves no half file.
        target = os.fspath(path_or_file)
        part = f"{target}.part"
        try:
            with open(part, "wb") as out:
                _write(document, fmt, out, revision, exported_at, layout)
            os.replace(part, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(part)
            raise
        return None
    _write(document, fmt, path_or_file, revision, exported_at, layout)
    return None


def _write(
    document: ProcessedDocument,
    fmt: str,
    out: IO[bytes],
    revision: int | None,
    exported_at: datetime | None,
    layout: str,
) -> None:
    if fmt in ("md", "tei", "html"):
        for chunk in _text_chunks(document, fmt, revision, exported_at, layout):
            out.write(chunk.encode("utf-8"))
    else:
        _write_binary(document, fmt, out, revision, exported_at, layout)
