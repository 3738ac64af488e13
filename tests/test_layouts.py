"""Extraction and the offline outline on layouts unlike the shared fixtures.

The PDFs in ``tests/layouts/`` were typeset by ``tests/layouts/make_layouts.py``
(other page sizes and fonts, headings only bold or only slightly larger, other heading
words and ordinal numerals, Hebrew-letter page numbers, running headers repeating the
chapter, parts, vocalized text, footnotes, with and without title page or metadata;
headings printed like body text that only the PDF's bookmarks, or the H1 elements of
its tagged structure, declare).
Each ``*.truth.json`` was written from the generator's input, never from libtext.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from libtext.headings import offline_outline
from libtext.models import DocumentOutline, ExtractedDocument
from libtext.pdf import extract_pdf

LAYOUTS = Path(__file__).resolve().parent / "layouts"
NAMES = sorted(p.name.removesuffix(".truth.json") for p in LAYOUTS.glob("*.truth.json"))
# Share of the truth's body lines that must come out verbatim, in logical order, as body.
BODY_MATCH = 0.98
MARGIN_KINDS = {"header", "footer", "page_number"}


def test_layouts_are_there() -> None:
    assert len(NAMES) >= 8
    for name in NAMES:
        assert (LAYOUTS / f"{name}.pdf").is_file()


@cache
def _load(name: str) -> tuple[ExtractedDocument, DocumentOutline, dict[str, Any]]:
    truth: dict[str, Any] = json.loads((LAYOUTS / f"{name}.truth.json").read_text("utf-8"))
    doc = extract_pdf(LAYOUTS / f"{name}.pdf")
    return doc, offline_outline(doc), truth


@pytest.mark.parametrize("name", NAMES)
def test_body_lines_in_logical_order(name: str) -> None:
    doc, _, truth = _load(name)
    assert doc.page_count == len(truth["pages"])
    total = matched = 0
    missing = []
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        got = {(ln.text, ln.kind) for ln in page.lines}
        for tline in tpage["lines"]:
            if tline["kind"] == "body":
                total += 1
                if (tline["text"], "body") in got:
                    matched += 1
                else:
                    missing.append((page.number, tline["text"]))
    assert total and matched / total >= BODY_MATCH, missing[:5]


@pytest.mark.parametrize("name", NAMES)
def test_margins_headings_and_footnotes_are_told_apart(name: str) -> None:
    doc, _, truth = _load(name)
    wrong = []
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        # Each truth line takes one printed line with its text (a running header may
        # repeat the heading on the same page).
        left = [(ln.text, ln.kind) for ln in page.lines]
        for tline in tpage["lines"]:
            kind, text = tline["kind"], tline["text"]
            if kind in ("heading", "part"):
                allowed = {"heading"}
            elif kind in ("page_number", "footnote"):
                allowed = {kind}
            elif kind in MARGIN_KINDS:
                allowed = MARGIN_KINDS  # a running title, never body
            else:
                continue
            found = next((k for k, (t, g) in enumerate(left) if t == text and g in allowed), None)
            if found is None:
                wrong.append((page.number, kind, text, [g for t, g in left if t == text]))
            else:
                del left[found]
    assert not wrong, wrong


@pytest.mark.parametrize("name", NAMES)
def test_outline_chapters(name: str) -> None:
    _, outline, truth = _load(name)
    got = [(s.chapter_title, s.chapter_number, s.page_ref) for s in outline.outline_segments]
    expected = [
        (c["heading"], "" if c["number"] is None else str(c["number"]), str(c["page"]))
        for c in truth["chapters"]
    ]
    assert got == expected
    for seg, chapter in zip(outline.outline_segments, truth["chapters"], strict=True):
        assert seg.start_phrase_hebrew.split()[:3] == chapter["first_words"].split()[:3]
        if chapter["part"]:
            assert seg.segment_title.startswith(chapter["part"])


@pytest.mark.parametrize("name", NAMES)
def test_title_and_author(name: str) -> None:
    _, outline, truth = _load(name)
    meta = outline.source_metadata
    assert (meta.work_title, meta.author_name) == (truth["title"], truth["author"])


# --- producers' habits ----------------------------------------------------------------
# PDFs drawn the way real producers draw Hebrew (1 Tf with the size in the text matrix,
# 327.68 Tf scaled down, glyphs in visual order without spaces, Latin runs inside Hebrew
# lines, pointed text, marks in slots of their own, pointed letters with /ActualText,
# two columns, bilingual table rows, list numbers and labels, margin line numbers,
# ornament fonts, table rows, spaces that take no room, an OCR layer without
# spaces, a Latin line drawn from the right, holam before a vav), by
# tests/layouts/producers/make_producers.py; each truth is that script's input.

PRODUCERS = LAYOUTS / "producers"
PRODUCER_CASES = sorted(p.name.removesuffix(".truth.json") for p in PRODUCERS.glob("*.truth.json"))


def test_producer_cases_are_there() -> None:
    assert {"tf1_scaled", "tf_print_to_pdf", "visual_nospace", "ltr_runs", "pointed"} <= set(
        PRODUCER_CASES
    )
    assert {"two_columns", "slotted_marks", "actualtext_marks", "bilingual_rows"} <= set(
        PRODUCER_CASES
    )
    # Lines and blocks: list numbers and labels apart from their text (and InDesign's
    # misplaced /ActualText on them), margin line numbers, ornament glyphs around a
    # title, table rows, LuaTeX lines with punctuation at their ends.
    assert {"list_labels", "indesign_list", "margin_numbers", "ornament_frame"} <= set(
        PRODUCER_CASES
    )
    assert {"table_cells", "visual_punct"} <= set(PRODUCER_CASES)
    assert {"hidden_spaces", "ocr_words", "latin_lines", "holam_vav"} <= set(PRODUCER_CASES)
    # Whole pages: a parallel text, notes in the margin, a table on a right-to-left page,
    # two book pages on one PDF page.
    assert {"parallel_texts", "margin_notes", "rtl_table", "spread"} <= set(PRODUCER_CASES)


# Cases whose cause is still open: each fails today (strict), and passes once fixed.
OPEN_CASES: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=OPEN_CASES[n]))
        if n in OPEN_CASES
        else n
        for n in PRODUCER_CASES
    ],
)
def test_producer_lines_exact_in_reading_order(name: str) -> None:
    truth: dict[str, Any] = json.loads((PRODUCERS / f"{name}.truth.json").read_text("utf-8"))
    doc = extract_pdf(PRODUCERS / f"{name}.pdf")
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        want = [ln["text"] for ln in tpage["lines"]]
        got = [ln.text for ln in page.lines]
        assert got == want
        # Each line's size is the size it was set in (not the Tf operand).
        assert [ln.size for ln in page.lines] == [ln.get("size", 12.0) for ln in tpage["lines"]]
        assert [ln.kind for ln in page.lines] == [ln["kind"] for ln in tpage["lines"]]


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in PRODUCER_CASES
        if "halves" in json.loads((PRODUCERS / f"{n}.truth.json").read_text())["pages"][0]
    ],
)
def test_a_spread_is_read_as_two_book_pages(name: str) -> None:
    """Two book pages on one PDF page: one ``ExtractedPage`` (the PDF's numbering),
    its halves in reading order, each with its own lines, header and page number."""
    truth: dict[str, Any] = json.loads((PRODUCERS / f"{name}.truth.json").read_text("utf-8"))
    doc = extract_pdf(PRODUCERS / f"{name}.pdf")
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        want = tpage["halves"]
        assert [(h.side, h.label) for h in page.halves] == [(h["side"], h["label"]) for h in want]
        books = page.book_pages()
        assert [[ln.text for ln in b.lines] for b in books] == [h["lines"] for h in want]
        for book in books:
            assert book.number == page.number
            assert [ln.kind for ln in book.lines].count("page_number") == 1
            assert [ln.kind for ln in book.lines].count("header") == 1
        # A half is on its side of the PDF page.
        for half, book in zip(page.halves, books, strict=True):
            assert all(half.x0 <= ln.x0 and ln.x1 <= half.x1 for ln in book.lines)
        # A single page has no halves and is its own book page.
    plain = extract_pdf(PRODUCERS / "two_columns.pdf").pages[0]
    assert plain.halves == [] and plain.book_pages() == [plain]


def test_y_is_measured_from_the_crop_box_top() -> None:
    """A crop box that hides the bottom 100 pt leaves every line where it was."""
    import io

    import pypdfium2

    source = PRODUCERS / "tf1_scaled.pdf"
    pdf = pypdfium2.PdfDocument(source)
    width, height = pdf[0].get_size()
    pdf[0].set_cropbox(0, 100, width, height)
    buffer = io.BytesIO()
    pdf.save(buffer)
    pdf.close()
    cropped = extract_pdf(buffer.getvalue()).pages[0].lines
    plain = extract_pdf(source).pages[0].lines
    assert [ln.text for ln in cropped] == [ln.text for ln in plain]
    assert all(abs(c.y - p.y) < 0.01 for c, p in zip(cropped, plain, strict=True))
