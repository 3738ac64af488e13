"""The page as it is shown: turned by its ``/Rotate`` and cut to its crop box.

pdfium's text page gives characters in the page's own coordinates, whatever the
viewer shows; a reader reads what is shown. A page whose text is drawn turned against
its ``/Rotate`` (a scan, an imposed sheet) is read from an upright copy, and text
outside the crop box (a printer's slug line in the bleed) is never read.
"""

from __future__ import annotations

import math
from typing import Any

import pypdfium2

from libtext.pdf._lines import RawLine
from libtext.pdf._pages import Page, page_size, text_page

__all__ = ["text_angle", "upright", "visible"]


def upright(raw: Any, page: Page) -> tuple[Any, Any] | None:
    """A new one-page document holding ``page`` drawn as it is shown, and that page;
    None for a page that is not turned. pdfium's form of a page (its N-up import)
    applies the page's rotation, so the copy is the form on a page of the shown size."""
    turn = _rotation(raw, page.raw) % 360
    if turn == 0 or text_angle(raw, page.raw) != turn:
        return None  # text upright as drawn: a page turned for the reader to turn back
    doc = pypdfium2.PdfDocument.new()
    xobj = raw.FPDF_NewXObjectFromPage(doc.raw, page.doc, page.index)
    if not xobj:
        doc.close()
        return None
    shown = doc.new_page(*page_size(raw, page.raw))
    form = raw.FPDF_NewFormObjectFromXObject(xobj)
    raw.FPDF_CloseXObject(xobj)
    raw.FPDFPage_InsertObject(shown.raw, form)
    raw.FPDFPage_GenerateContent(shown.raw)
    return doc, shown


def _rotation(raw: Any, page: Any) -> int:
    """The page's ``/Rotate`` in degrees, clockwise (``PdfPage.get_rotation``)."""
    quarter = int(raw.FPDFPage_GetRotation(page))
    if quarter not in (0, 1, 2, 3):
        raise pypdfium2.PdfiumError("Failed to get page rotation.")
    return 90 * quarter


def text_angle(raw: Any, page: Any) -> int:
    """The angle (counter-clockwise, a multiple of 90) most of the page's characters
    are drawn at, from a sample of their matrices (``page``: pdfium's handle)."""
    textpage = text_page(raw, page)
    try:
        n = int(raw.FPDFText_CountChars(textpage))
        matrix = raw.FS_MATRIX()
        votes: dict[int, int] = {}
        for i in range(0, n, max(1, n // 64)):
            if raw.FPDFText_GetMatrix(textpage, i, matrix):
                angle = round(math.degrees(math.atan2(matrix.b, matrix.a)) / 90) * 90 % 360
                votes[angle] = votes.get(angle, 0) + 1
        return max(votes, key=votes.__getitem__) if votes else 0
    finally:
        raw.FPDFText_ClosePage(textpage)


def visible(lines: list[RawLine], left: float, width: float, height: float) -> list[RawLine]:
    """``lines`` inside the crop box, x measured from its left edge like y from its top.

    Text outside the crop box is not shown (a printer's slug line or crop marks'
    labels in the bleed of an imposed page); a viewer and a reader never meet it.
    """
    out = []
    for ln in lines:
        if left:
            ln.x0, ln.x1 = ln.x0 - left, ln.x1 - left
        if ln.y < 0 or ln.y - 0.7 * ln.size > height or ln.x1 <= 0 or ln.x0 >= width:
            continue
        out.append(ln)
    return out
