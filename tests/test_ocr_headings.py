"""Headings of whole OCR-layer books, against a truth judged by eye.

An OCR engine sizes each line from its own letters, so an OCR layer's body lines
spread over a fifth of their size and whole pages come out larger than the book's
usual size; and its running header may hold a word twice. The truth (which lines of
sample pages are titles, which running headers repeat a word, and a bound on a
book's heading lines per page) is in ``tests/data/ocr_headings.json``, written by eye
from the pages drawn; the books are the open set's, read from ``../shared``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from tests.conftest import SHARED

from libtext.headings import find_headings
from libtext.models import ExtractedDocument
from libtext.pdf import extract_pdf
from libtext.process import process_document

REALDATA = SHARED / "realdata" / "pdfs"
TRUTH = json.loads((Path(__file__).parent / "data" / "ocr_headings.json").read_text("utf-8"))
FILES = {entry["file"]: entry for entry in TRUTH["files"]}


@cache
def _doc(name: str) -> ExtractedDocument:
    path = REALDATA / name
    if not path.is_file():
        pytest.skip(f"{path} not found (set LIBTEXT_SHARED)")
    return extract_pdf(path, max_pages=None, max_bytes=None)


def _norm(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", sorted(FILES))
def test_heading_lines_per_page_bounded(name: str) -> None:
    doc = _doc(name)
    headings = sum(ln.kind == "heading" for page in doc.pages for ln in page.lines)
    assert headings <= FILES[name]["max_per_page"] * len(doc.pages)


@pytest.mark.parametrize(
    ("name", "page"), [(name, page) for name in sorted(FILES) for page in FILES[name]["pages"]]
)
def test_sample_page_headings(name: str, page: str) -> None:
    truth = FILES[name]["pages"][page]
    lines = _doc(name).pages[int(page) - 1].lines
    found = [_norm(ln.text) for ln in lines if ln.kind == "heading"]
    assert [t for t in truth["headings"] if _norm(t) not in found] == []
    assert [t for t in truth["not_headings"] if _norm(t) in found] == []
    # A line the truth leaves undecided may be a title; more than one is body text.
    assert len(found) <= len(truth["headings"]) + 1


@pytest.mark.parametrize(
    ("name", "page"), [(name, page) for name in sorted(FILES) for page in FILES[name]["headers"]]
)
def test_header_with_a_doubled_word(name: str, page: str) -> None:
    text = _norm(FILES[name]["headers"][page])
    kinds = [ln.kind for ln in _doc(name).pages[int(page) - 1].lines if _norm(ln.text) == text]
    assert kinds == ["header"]


LEVELS = [
    (name, level, page, title)
    for name, entry in sorted(FILES.items())
    for level, titles in entry.get("levels", {}).items()
    for page, title in titles.items()
]


@pytest.mark.parametrize(("name", "level", "page", "title"), LEVELS)
def test_heading_levels(name: str, level: str, page: str, title: str) -> None:
    found = [
        h.level
        for h in find_headings(_doc(name))
        if h.page == int(page) and _norm(h.text) == _norm(title)
    ]
    assert found == [level]


def test_chapters_are_one_series() -> None:
    """The chapters of a book whose chapters are numbered labels are those labels."""
    name = "hebrewbooks_19976_ocrlayer.pdf"
    chapters = [h for h in find_headings(_doc(name)) if h.level == "chapter"]
    assert chapters and all(h.word == "מאמר" for h in chapters)


CONTENTS = [
    (name, entry["contents"]) for name, entry in sorted(FILES.items()) if "contents" in entry
]


@pytest.mark.parametrize(("name", "pages"), CONTENTS)
def test_contents_pages_reach_no_section(name: str, pages: list[int]) -> None:
    # A contents page numbered in Hebrew letters (``מאמר א׳ ­ מעלות התורה יא``) is
    # contents: no section opens on it, and none of its lines (those not printed again
    # elsewhere in the book, as a chapter's title is) stands in a section's text.
    doc = _doc(name)
    sections = process_document(doc, cache=False).sections
    assert [s.page_ref for s in sections if s.sequence_id and int(s.page_ref) in pages] == []
    elsewhere = {
        _norm(ln.text) for page in doc.pages if page.number not in pages for ln in page.lines
    }
    listed = {
        _norm(ln.text)
        for page in doc.pages
        if page.number in pages
        for ln in page.lines
        if ln.kind in ("body", "heading")
    }
    text = {_norm(t) for s in sections for t in s.original_hebrew_block.splitlines()}
    assert sorted((listed - elsewhere) & text) == []
