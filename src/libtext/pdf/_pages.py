"""A document's pages opened, read and closed with pdfium's own calls.

pypdfium2's page and text page objects register a finalizer and a weak reference
each, and unregister them on close: a few percent of a book's reading time, more
than some of the layout's steps. The reader opens each page once and closes it
itself on every path, so it holds pdfium's handles instead. The calls and their
checks are pypdfium2's (``PdfDocument.get_page``, ``PdfPage.get_textpage``,
``PdfTextPage.get_text_range``), so the text read is the same.
"""

from __future__ import annotations

import ctypes
from typing import Any

from pypdfium2 import PdfiumError

__all__ = ["Page", "has_images", "page_size", "page_text", "text_page"]

# pypdfium2's limit on descending into form objects (``PdfPage.get_objects``).
_FORM_DEPTH = 15


class Page:
    """An open page of a document (``raw``: pdfium's handle), closed by :meth:`close`."""

    __slots__ = ("_pdfium", "doc", "index", "raw")

    def __init__(self, pdfium: Any, doc: Any, index: int) -> None:
        handle = pdfium.FPDF_LoadPage(doc, index)
        if not handle:
            raise PdfiumError("Failed to load page.")
        self._pdfium = pdfium
        self.doc = doc
        self.index = index
        self.raw = handle

    def close(self) -> None:
        if self.raw is not None:
            self._pdfium.FPDF_ClosePage(self.raw)
            self.raw = None


def page_size(pdfium: Any, page: Any) -> tuple[float, float]:
    """Width and height of ``page`` (a handle), in points (``PdfPage.get_size``)."""
    return float(pdfium.FPDF_GetPageWidthF(page)), float(pdfium.FPDF_GetPageHeightF(page))


def text_page(pdfium: Any, page: Any) -> Any:
    """A new text page of ``page`` (a handle); the caller closes it (``FPDFText_ClosePage``)."""
    handle = pdfium.FPDFText_LoadPage(page)
    if not handle:
        raise PdfiumError("Failed to load text page.")
    return handle


def page_text(pdfium: Any, textpage: Any, count: int) -> str:
    """The text of a text page's ``count`` characters (``PdfTextPage.get_text_range()``).

    Characters pdfium leaves out of the text at either end are left out of the range
    asked for, so that pdfium does not read past it (pypdfium2 issue 261).
    """
    start, end = 0, count - 1
    while start <= end and pdfium.FPDFText_GetTextIndexFromCharIndex(textpage, start) == -1:
        start += 1
    if start > end:
        return ""
    t_start = pdfium.FPDFText_GetTextIndexFromCharIndex(textpage, start)
    while start <= end:
        t_end = pdfium.FPDFText_GetTextIndexFromCharIndex(textpage, end)
        if t_end != -1:
            break
        end -= 1
    else:
        return ""
    size = t_end + 2 - t_start  # with the terminating NUL
    # A buffer of a power of two: ctypes makes (and keeps) a type per array length.
    buffer = (ctypes.c_ushort * (1 << max(size - 1, 1).bit_length()))()
    written = pdfium.FPDFText_GetText(textpage, start, end - start + 1, buffer)
    assert size >= written, f"Buffer too small: {size} vs {written}"
    return memoryview(buffer)[:size][: written - 1].tobytes().decode("utf-16-le", "ignore")


def has_images(pdfium: Any, page: Any) -> bool:
    """Whether the page (a handle) draws an image, in a form object too
    (``PdfPage.get_objects`` with its depth)."""
    return _images_in(pdfium, page, None, 0)


def _images_in(pdfium: Any, page: Any, form: Any, level: int) -> bool:
    if form is None:
        count, get = pdfium.FPDFPage_CountObjects, pdfium.FPDFPage_GetObject
        parent = page
    else:
        count, get = pdfium.FPDFFormObj_CountObjects, pdfium.FPDFFormObj_GetObject
        parent = form
    n = int(count(parent))
    if n < 0:
        raise PdfiumError("Failed to get number of pageobjects.")
    for i in range(n):
        obj = get(parent, i)
        if not obj:
            raise PdfiumError("Failed to get pageobject.")
        kind = pdfium.FPDFPageObj_GetType(obj)
        if kind == pdfium.FPDF_PAGEOBJ_IMAGE:
            return True
        if (
            kind == pdfium.FPDF_PAGEOBJ_FORM
            and level < _FORM_DEPTH - 1
            and _images_in(pdfium, page, obj, level + 1)
        ):
            return True
    return False
