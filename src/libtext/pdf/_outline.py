"""The PDF's own headings: its document outline (bookmarks) and tagged structure.

A bookmark or a structure element tagged ``H1``–``H6`` is the author's own word on
where a chapter starts, better than anything guessed from the layout. Both are read
with pdfium while the document is open (:func:`read_bookmarks`,
:func:`read_structure_headings`) and kept on the extraction as
:class:`~libtext.models.DocumentHeading`; :mod:`libtext.headings` decides whether
they are usable.

Junk is left out here, by general rules: bookmarks that point nowhere, and titles
that are identifiers rather than text (Word's hidden ``_GoBack``, ``_Toc123``,
``OLE_LINK1``: one token with an underscore, or letters and digits run together).
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from libtext.models import DocumentHeading
from libtext.pdf._compiled import cython_module

__all__ = [
    "StructureHeadings",
    "is_identifier",
    "read_bookmarks",
    "read_headings",
    "read_structure_headings",
    "structure_wanted",
]

_MAX_DEPTH = 6
_MAX_BOOKMARKS = 5000
# Most elements of a page's structure tree visited in search of its headings.
_WALK = 20_000
_HEADING_TYPES = {"H": 1, "H1": 1, "H2": 2, "H3": 3, "H4": 4, "H5": 5, "H6": 6, "Title": 1}
# An identifier: one token of ASCII letters, digits and _.:- with an underscore, a
# digit glued to letters, or a capital inside lower case ("GoBack").
_TOKEN = re.compile(r"^[A-Za-z0-9_.:\-]+$")
_IDENTIFIER_HINT = re.compile(r"_|[A-Za-z]\d|\d[A-Za-z]|[a-z][A-Z]")
_INVISIBLE = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\ufeff\x00"))


def is_identifier(title: str) -> bool:
    """Whether a bookmark title is a program's name for a place, not a heading."""
    t = title.strip()
    return bool(_TOKEN.match(t)) and bool(_IDENTIFIER_HINT.search(t))


def clean_title(title: str) -> str:
    """Directional marks and control characters dropped, whitespace collapsed."""
    text = title.translate(_INVISIBLE)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cs"))
    return " ".join(text.split())


def _wide(fn: Any, *args: Any) -> str:
    """A UTF-16LE string from a pdfium getter that takes (…, buffer, length)."""
    n = fn(*args, None, 0)
    if n <= 2:
        return ""
    buf = ctypes.create_string_buffer(n)
    fn(*args, ctypes.cast(buf, fn.argtypes[-2]), n)
    return buf.raw[: n - 2].decode("utf-16-le", "replace")


def read_bookmarks(pdfium_c: Any, doc: Any, heights: dict[int, float]) -> list[DocumentHeading]:
    """The outline's entries that point to a page in ``heights`` (0-based index → height).

    ``y`` is the destination's distance from the top of the page when the bookmark
    gives one (0.0 otherwise).
    """
    out: list[DocumentHeading] = []
    raw_doc = doc.raw
    for bm in doc.get_toc(max_depth=_MAX_DEPTH):
        if len(out) >= _MAX_BOOKMARKS:
            break
        title = clean_title(bm.get_title())
        if not title or is_identifier(title):
            continue
        dest = pdfium_c.FPDFBookmark_GetDest(raw_doc, bm.raw)
        if not dest:
            action = pdfium_c.FPDFBookmark_GetAction(bm.raw)
            dest = pdfium_c.FPDFAction_GetDest(raw_doc, action) if action else None
        if not dest:
            continue  # points nowhere (or outside the document)
        index = pdfium_c.FPDFDest_GetDestPageIndex(raw_doc, dest)
        if index not in heights:
            continue
        y = 0.0
        has_x, has_y, has_z = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        x_, y_, z_ = ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
        ok = pdfium_c.FPDFDest_GetLocationInPage(dest, has_x, has_y, has_z, x_, y_, z_)
        if ok and has_y.value:
            y = max(0.0, heights[index] - float(y_.value))
        out.append(
            DocumentHeading(
                title=title, page=index + 1, level=bm.level + 1, y=round(y, 2), source="bookmark"
            )
        )
    return out


def _mcids(pdfium_c: Any, element: Any, acc: list[int], depth: int = 0) -> list[int]:
    for i in range(pdfium_c.FPDF_StructElement_GetMarkedContentIdCount(element)):
        mcid = pdfium_c.FPDF_StructElement_GetMarkedContentIdAtIndex(element, i)
        if mcid >= 0:
            acc.append(mcid)
    if depth < 8:
        for i in range(pdfium_c.FPDF_StructElement_CountChildren(element)):
            child = pdfium_c.FPDF_StructElement_GetChildAtIndex(element, i)
            if child:
                _mcids(pdfium_c, child, acc, depth + 1)
    return acc


_TWIN: list[Any] = []


def _twin() -> Any:
    """The built Cython module with the C walk (:mod:`libtext.pdf._charcalls`), or
    None (decided once)."""
    if not _TWIN:
        _TWIN.append(cython_module("_charcalls"))
    return _TWIN[0]


def _heading_elements(pdfium_c: Any, tree: Any) -> list[tuple[int, Any]]:
    """(level, element) of every heading element of a page's structure tree, in order.

    A tagged page has hundreds of elements: each one's type is read into one buffer
    kept for the walk (a type name is short; a longer one is read as :func:`_wide`
    does), and pdfium's functions are looked up once. Where the Cython module is
    built, its twin of this walk runs instead (the ctypes calls cost most of a
    Word document's tagged pages).
    """
    twin = _twin()
    if twin is not None:
        # The C twin walks the tree without a ctypes call per element.
        handle = pdfium_c.FPDF_STRUCTELEMENT
        return [
            (level, ctypes.cast(address, handle))
            for level, address in twin.heading_elements(pdfium_c, tree, _HEADING_TYPES, _WALK)
        ]
    count_children = pdfium_c.FPDF_StructElement_CountChildren
    child_at = pdfium_c.FPDF_StructElement_GetChildAtIndex
    get_type = pdfium_c.FPDF_StructElement_GetType
    size = 64
    buf = ctypes.create_string_buffer(size)
    out_buf = ctypes.cast(buf, get_type.argtypes[-2])
    found: list[tuple[int, Any]] = []
    stack = [
        pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, k)
        for k in reversed(range(pdfium_c.FPDF_StructTree_CountChildren(tree)))
    ]
    seen = 0
    while stack and seen < _WALK:
        element = stack.pop()
        seen += 1
        if not element:
            continue
        n = get_type(element, out_buf, size)
        if n > size:
            kind = _wide(get_type, element)
        else:
            kind = buf.raw[: n - 2].decode("utf-16-le", "replace") if n > 2 else ""
        level = _HEADING_TYPES.get(kind)
        if level is not None:
            found.append((level, element))
            continue
        n = count_children(element)
        stack.extend([child_at(element, i) for i in range(n - 1, -1, -1)])
    return found


def read_structure_headings(
    pdfium_c: Any, page: Any, number: int, height: float
) -> list[DocumentHeading]:
    """The page's elements tagged as headings, with their text and top ``y``.

    The text is that of the page objects marked with the element's content ids (in
    content order); ``ActualText`` wins when the element has one. A text page is
    loaded only for pages that have heading elements.
    """
    tree = pdfium_c.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return []
    textpage = None
    try:
        elements = _heading_elements(pdfium_c, tree)
        if not elements:
            return []
        textpage = pdfium_c.FPDFText_LoadPage(page.raw)
        wanted = {id(el): _mcids(pdfium_c, el, []) for _, el in elements}
        all_ids = {m for ids in wanted.values() for m in ids}
        texts: dict[int, list[str]] = {}
        tops: dict[int, float] = {}
        left, bottom, right, top = (ctypes.c_float() for _ in range(4))
        get_object = pdfium_c.FPDFPage_GetObject
        get_mcid = pdfium_c.FPDFPageObj_GetMarkedContentID
        raw_page = page.raw
        for j in range(pdfium_c.FPDFPage_CountObjects(raw_page)):
            obj = get_object(raw_page, j)
            # The content id first: most objects are not a heading's.
            mcid = get_mcid(obj)
            if mcid not in all_ids:
                continue
            if pdfium_c.FPDFPageObj_GetType(obj) != pdfium_c.FPDF_PAGEOBJ_TEXT:
                continue
            texts.setdefault(mcid, []).append(_wide(pdfium_c.FPDFTextObj_GetText, obj, textpage))
            if pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
                tops[mcid] = min(tops.get(mcid, height), height - top.value)
        out: list[DocumentHeading] = []
        for level, el in elements:
            ids = wanted[id(el)]
            title = clean_title(_wide(pdfium_c.FPDF_StructElement_GetActualText, el))
            if not title:
                title = clean_title("".join(t for m in ids for t in texts.get(m, [])))
            if not title:
                continue
            y = min((tops[m] for m in ids if m in tops), default=0.0)
            out.append(
                DocumentHeading(
                    title=title,
                    page=number,
                    level=level,
                    y=round(max(y, 0.0), 2),
                    source="structure",
                )
            )
        return out
    finally:
        if textpage:
            pdfium_c.FPDFText_ClosePage(textpage)
        pdfium_c.FPDF_StructTree_Close(tree)


def read_headings(
    pdfium_c: Any, doc: Any, chosen: list[int], heights: list[float]
) -> list[DocumentHeading]:
    """The document's own headings on the chosen pages: bookmarks, else tagged headings.

    Never raises: a damaged outline or structure tree means no declared headings.
    """
    by_index = dict(zip(chosen, heights, strict=True))
    try:
        marks = dedupe(read_bookmarks(pdfium_c, doc, by_index))
        if marks or not pdfium_c.FPDFCatalog_IsTagged(doc.raw):
            return marks
        found: list[DocumentHeading] = []
        for i in chosen:
            page = doc[i]
            try:
                found.extend(read_structure_headings(pdfium_c, page, i + 1, by_index[i]))
            finally:
                page.close()
        return found
    except Exception:
        return []


def structure_wanted(pdfium_c: Any, doc: Any, chosen: list[int]) -> bool:
    """Whether :func:`read_headings` of ``chosen`` reads the tagged structure: the
    document is tagged and no bookmark points to one of those pages. The reader then
    asks each page for its headings while it has the page open
    (:func:`read_structure_headings`, collected by :class:`StructureHeadings`) rather
    than loading every page a second time."""
    try:
        if not pdfium_c.FPDFCatalog_IsTagged(doc.raw):
            return False
        return not read_bookmarks(pdfium_c, doc, dict.fromkeys(chosen, 0.0))
    except Exception:
        return False


class StructureHeadings:
    """The tagged headings of pages read one by one, as :func:`read_headings` gives
    them when :func:`structure_wanted` (all pages in order; none if one page's
    structure tree is damaged, as there)."""

    def __init__(self, pdfium_c: Any) -> None:
        self._pdfium_c = pdfium_c
        self._found: list[DocumentHeading] | None = []

    def add(self, page: Any, number: int, height: float) -> None:
        """Read the headings of an open page (1-based ``number``)."""
        if self._found is None:
            return
        try:
            self._found.extend(read_structure_headings(self._pdfium_c, page, number, height))
        except Exception:
            self._found = None

    def headings(self) -> list[DocumentHeading]:
        return self._found or []


def dedupe(headings: Iterable[DocumentHeading]) -> list[DocumentHeading]:
    """Entries repeated with the same title and page (a bookmark made twice) once."""
    seen: set[tuple[str, int]] = set()
    out = []
    for h in headings:
        key = (h.title, h.page)
        if key not in seen:
            seen.add(key)
            out.append(h)
    return out
