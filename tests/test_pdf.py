"""PDF extraction: logical-order Hebrew, layout roles, bad inputs, limits, sources."""

from __future__ import annotations

import io
import json
import pickle
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from libtext import errors
from libtext.models import ExtractedDocument
from libtext.pdf import _assemble, aextract_pdf, extract_pdf
from libtext.pdf._compiled import compiled_modules
from libtext.pdf._layout import classify, dominant_size, page_number_value
from libtext.pdf._read import RawLine, RawPage, _visual_pieces
from libtext.pdf._text import attach_marks, bracket_votes, is_mark, mirror_rtl_brackets
from libtext.pdf._visual import Glyph, _owners, visual_direction

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# The truth files call a page number a footer; libtext tells them apart.
SAME_KIND = {"page_number": "footer"}


def _truth(fixtures_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fixtures_dir / f"{name}.lines.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="module")
def small(fixtures_dir: Path) -> ExtractedDocument:
    return extract_pdf(fixtures_dir / "small.pdf")


@pytest.fixture(scope="module")
def book(fixtures_dir: Path) -> ExtractedDocument:
    return extract_pdf(fixtures_dir / "book.pdf")


# --- text and kinds against the truth files ----------------------------------------


@pytest.mark.parametrize("name", ["small", "book"])
def test_every_printed_line_in_logical_order_with_its_kind(fixtures_dir: Path, name: str) -> None:
    doc = extract_pdf(fixtures_dir / f"{name}.pdf")
    truth = _truth(fixtures_dir, name)
    assert doc.page_count == len(truth["pages"])
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        got = [(ln.text, SAME_KIND.get(ln.kind, ln.kind)) for ln in page.lines]
        texts = [t for t, _ in got]
        for tline in tpage["lines"]:
            assert tline["text"] in texts, (page.number, tline["text"])
            if tpage["kind"] == "body":
                assert (tline["text"], tline["kind"]) in got, (page.number, tline)


def test_big_body_lines_fast_mode(fixtures_dir: Path) -> None:
    doc = extract_pdf(fixtures_dir / "big.pdf")
    truth = _truth(fixtures_dir, "big")
    total = matched = kinds_ok = kinds_total = 0
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        got = {(ln.text, SAME_KIND.get(ln.kind, ln.kind)) for ln in page.lines}
        texts = {ln.text for ln in page.lines}
        for tline in tpage["lines"]:
            if tpage["kind"] != "body":
                continue
            kinds_total += 1
            kinds_ok += (tline["text"], tline["kind"]) in got
            if tline["kind"] == "body":
                total += 1
                matched += tline["text"] in texts
    assert matched / total >= 0.995
    assert kinds_ok / kinds_total >= 0.99


def test_nikud_follows_its_letter_and_text_is_nfc(small: ExtractedDocument) -> None:
    vocalized = [ln.text for p in small.pages for ln in p.lines if any(map(is_mark, ln.text))]
    assert vocalized
    for text in vocalized:
        assert unicodedata.normalize("NFC", text) == text
        for i, ch in enumerate(text):
            if is_mark(ch):
                assert i > 0 and not text[i - 1].isspace(), text
    assert "רָאִיתִי וְהִנֵּה מְנוֹרַת" in small.text


def test_brackets_are_logical_next_to_hebrew(book: ExtractedDocument) -> None:
    assert "(" in book.text
    # A right-to-left parenthesis opens before the Hebrew it encloses.
    assert not re.search(r"\)[\u05d0-\u05ea]+\(", book.text)
    assert re.search(r"\([\u05d0-\u05ea]", book.text)


def test_layout_roles(small: ExtractedDocument) -> None:
    page = small.pages[1]
    kinds = [ln.kind for ln in page.lines]
    assert kinds[:3] == ["header", "header", "heading"]
    assert kinds[-1] == "page_number" and page.lines[-1].text == "2"
    assert "footnote" in kinds
    assert page.footnote_text.startswith("(1)")
    assert "ליקוטי מוהר" not in page.text  # the running header is not body text
    heading = page.lines[2]
    body = page.lines[3]
    assert heading.bold and heading.size > body.size and not body.bold


def test_metadata(fixtures_dir: Path, small: ExtractedDocument) -> None:
    big_meta = extract_pdf(fixtures_dir / "big.pdf", pages=range(1))
    assert big_meta.title == "Tanya (complete) - libtext test fixture"
    assert big_meta.author == "Shneur Zalman of Liadi"
    assert small.title == "" and small.author == ""
    assert small.source_name == "small.pdf"


def test_page_json_carries_text(small: ExtractedDocument) -> None:
    data = json.loads(small.pages[1].model_dump_json())
    assert data["text"] == small.pages[1].text
    assert data["footnote_text"] == small.pages[1].footnote_text
    again = ExtractedDocument.model_validate_json(small.model_dump_json())
    assert again.text == small.text


def test_lines_are_whole_models(small: ExtractedDocument) -> None:
    # The reader builds lines without pydantic's general path (for speed): each must
    # still be the model model_construct/validation would give, every field set.
    import copy
    import pickle

    from libtext.models import ExtractedLine

    for line in small.pages[0].lines:
        dumped = line.model_dump()
        assert set(dumped) == set(ExtractedLine.model_fields)
        assert (
            line == ExtractedLine.model_validate(dumped) == ExtractedLine.model_construct(**dumped)
        )
        assert line.model_fields_set == set(ExtractedLine.model_fields)
        assert pickle.loads(pickle.dumps(line)) == line == copy.deepcopy(line)
        assert line.model_copy(update={"text": "x"}).text == "x" and line.text != "x"


def test_precise_mode_matches_every_body_line(fixtures_dir: Path, small: ExtractedDocument) -> None:
    doc = extract_pdf(fixtures_dir / "small.pdf", mode="precise")
    truth = _truth(fixtures_dir, "small")
    for tpage, page in zip(truth["pages"], doc.pages, strict=True):
        texts = {ln.text for ln in page.lines}
        for tline in tpage["lines"]:
            if tline["kind"] == "body":
                assert tline["text"] in texts  # vocalized lines included
    assert [ln.kind for ln in doc.pages[1].lines] == [ln.kind for ln in small.pages[1].lines]


# --- bad inputs --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "error", "says"),
    [
        ("not_a_pdf", errors.InvalidPDFError, "not a PDF"),
        ("truncated", errors.InvalidPDFError, "truncated"),
        ("encrypted", errors.EncryptedPDFError, "password="),
        ("empty_text", errors.NoTextLayerError, "OCR"),
        ("zero_bytes", errors.EmptyFileError, "empty"),
    ],
)
@pytest.mark.parametrize("mode", ["fast", "precise"])
def test_bad_inputs_raise_their_own_error(
    fixtures_dir: Path, name: str, error: type[errors.LibtextError], says: str, mode: str
) -> None:
    with pytest.raises(error) as info:
        extract_pdf(fixtures_dir / f"{name}.pdf", mode=mode)  # type: ignore[arg-type]
    exc = info.value
    assert type(exc) is error
    assert exc.message and exc.code == error.code
    if mode == "fast":
        assert says in exc.message
    # No pdfium/pdfminer exception leaks, even as a cause.
    assert exc.__cause__ is None
    assert exc.__context__ is None or exc.__suppress_context__


def test_encrypted_with_password(fixtures_dir: Path) -> None:
    doc = extract_pdf(fixtures_dir / "encrypted.pdf", password="secret")
    assert doc.page_count > 0 and doc.text
    with pytest.raises(errors.EncryptedPDFError, match="wrong"):
        extract_pdf(fixtures_dir / "encrypted.pdf", password="nope")


def test_owner_password_only_opens(fixtures_dir: Path) -> None:
    doc = extract_pdf(fixtures_dir / "encrypted_owner_only.pdf")
    assert "פרק א" in doc.text


def test_limits(fixtures_dir: Path) -> None:
    path = fixtures_dir / "small.pdf"
    with pytest.raises(errors.TooManyPagesError, match="max_pages"):
        extract_pdf(path, max_pages=3)
    assert extract_pdf(path, max_pages=3, pages=range(1, 4)).page_count == 3
    data = path.read_bytes()
    for source in (path, data, io.BytesIO(data)):
        with pytest.raises(errors.InputTooLargeError, match="max_bytes"):
            extract_pdf(source, max_bytes=1000)
    assert extract_pdf(data, max_bytes=None, max_pages=None).page_count == 5


def test_sources(fixtures_dir: Path, small: ExtractedDocument) -> None:
    path = fixtures_dir / "small.pdf"
    with path.open("rb") as fh:
        assert extract_pdf(fh).text == small.text
    assert extract_pdf(str(path)).text == small.text
    assert extract_pdf(bytearray(path.read_bytes())).text == small.text
    selected = extract_pdf(path, pages=range(2, 4))
    assert [p.number for p in selected.pages] == [3, 4]
    with pytest.raises(errors.InvalidInputError, match="No such file"):
        extract_pdf(fixtures_dir / "missing.pdf")
    with (
        path.open("r", encoding="latin-1") as text_mode,
        pytest.raises(errors.InvalidInputError, match="'rb'"),
    ):
        extract_pdf(text_mode)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidInputError):
        extract_pdf(42)  # type: ignore[arg-type]


async def test_async_twin(fixtures_dir: Path, small: ExtractedDocument) -> None:
    doc = await aextract_pdf(fixtures_dir / "small.pdf")
    assert doc == small
    with pytest.raises(errors.EmptyFileError):
        await aextract_pdf(b"")


# --- the repairs, on their own ------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "fixed"),
    [
        (")א(", "(א)"),
        ('כמו שכתוב )תהלים קי"ט(:', 'כמו שכתוב (תהלים קי"ט):'),
        ("שאלת צרכיו )2(. והוא", "שאלת צרכיו (2). והוא"),
        ("נקראת )משלי", "נקראת (משלי"),  # a parenthesis that closes on the next line
        ("ה(: אילת", "ה): אילת"),
        ("מקור )Sefaria( כאן", "מקור (Sefaria) כאן"),
        ("]א[ וגו'", "[א] וגו'"),
        ("see (note) here", "see (note) here"),  # left-to-right text is left alone
        ("word (שלום) word", "word (שלום) word"),
        ("ref (Gen. 1:1) and", "ref (Gen. 1:1) and"),
    ],
)
def test_mirror_rtl_brackets(raw: str, fixed: str) -> None:
    assert mirror_rtl_brackets(raw) == fixed


def test_bracket_votes_tell_mirrored_from_logical() -> None:
    assert bracket_votes(")א( ו)ב(")[0] > 0
    assert bracket_votes("(א) ו(ב)")[1] > 0


def test_latin_document_brackets_untouched() -> None:
    lines = [
        RawLine("(1)", 12, False, 100, 50, 70),
        RawLine("See (a) and [b].", 12, False, 120, 50, 300),
    ]
    doc = _assemble([RawPage(1, 400, 600, lines, 30)], {}, "x.pdf", mirror=True)
    assert [ln.text for ln in doc.pages[0].lines] == ["(1)", "See (a) and [b]."]


@pytest.mark.parametrize(
    ("raw", "fixed"),
    [
        # An OCR layer boxes "82)" as one word, the bracket between the word and digits.
        (")הסיפור מובא בעמ׳ (82", "(הסיפור מובא בעמ׳ 82)"),
        (")ראה דף (12, ועוד", "(ראה דף 12), ועוד"),
        ("(1 פארגלייך דעם פסוק", "1) פארגלייך דעם פסוק"),  # a note's label
    ],
)
def test_a_bracket_on_the_wrong_side_of_a_number_goes_outside_it(raw: str, fixed: str) -> None:
    # Mirrored by the document's vote (four lines of visual-shape brackets), then the
    # bracket that would open a word with a closer (or end one with an opener) moves.
    lines = [RawLine(")א( ו)ב(", 12, False, 100 + 20 * i, 50, 300) for i in range(4)]
    lines.append(RawLine(raw, 12, False, 200, 50, 300))
    doc = _assemble([RawPage(1, 400, 600, lines, 200)], {}, "x.pdf", mirror=True)
    assert doc.pages[0].lines[-1].text == fixed


def test_brackets_beside_numbers_that_read_right_stay() -> None:
    lines = [RawLine(t, 12, False, 100 + 20 * i, 50, 300) for i, t in enumerate(_NUMBERS)]
    doc = _assemble([RawPage(1, 400, 600, lines, 200)], {}, "x.pdf", mirror=True)
    assert [ln.text for ln in doc.pages[0].lines] == _NUMBERS


_NUMBERS = [
    "ראה (עמ׳ 82) שם",
    "(1) אחד",
    "[12] ספר",
    "שנת (1982).",
    "f(2) = 4 (x)",
    # Brackets the wrong way round that close nothing: moving one would not mend them.
    "]0, 0, 1, 0[",
    "ml )500 עד",
]


def test_logical_text_layer_is_not_flipped() -> None:
    lines = [RawLine("ראה (א) ועוד (ב) שם", 12, False, 100 + 20 * i, 50, 300) for i in range(5)]
    doc = _assemble([RawPage(1, 400, 600, lines, 200)], {}, "x.pdf", mirror=True)
    assert doc.pages[0].lines[0].text == "ראה (א) ועוד (ב) שם"


def test_attach_marks_follows_glyph_boxes() -> None:
    # pdfium order: qamats, resh, space, hiriq, alef (marks before their letters).
    chars = ["\u05b8", "ר", " ", "\u05b4", "א"]
    boxes = [(340.6, 343.1), (337.6, 343.0), (334.1, 334.1), (332.7, 333.7), (329.9, 336.3)]
    centers = [(a + b) / 2 for a, b in boxes]
    assert attach_marks(chars, centers, boxes) == [1, 1, 2, 4, 4]


def test_attach_marks_finds_points_pdfium_set_apart() -> None:
    # A sin dot given as a word of its own before "לשום": it belongs to the shin.
    chars = ["א", " ", "\u05c2", " ", "ל", "ש", "ו", "ם"]
    boxes = [(120, 125), (118, 118), (109.5, 110.5), (117, 117), (112, 116), (105, 111.5),
             (102, 104), (96, 101)]  # fmt: skip
    centers = [(a + b) / 2 for a, b in boxes]
    assert attach_marks(chars, centers, boxes, tolerance=1.6)[2] == 5
    # A sheva far from both neighbours in pdfium's order, inside a final kaf.
    chars = ["ה", "\u05b0", "ו", "ך"]
    boxes = [(74, 79), (133.4, 134.2), (540, 543), (131.7, 136.3)]
    centers = [(a + b) / 2 for a, b in boxes]
    assert attach_marks(chars, centers, boxes, tolerance=1.6)[1] == 3


# --- layout rules on other layouts ---------------------------------------------------


def _page(number: int, body_lines: int, *, header: str, footer: str, bold_heading: str = "",
          size: float = 12.0, heading_size: float | None = None) -> RawPage:  # fmt: skip
    lines = [RawLine(header, size, False, 30, 200, 380)]
    y = 60.0
    if bold_heading:
        lines.append(RawLine(bold_heading, heading_size or size, heading_size is None, y, 160, 240))
        y += 24
    for i in range(body_lines):
        lines.append(
            RawLine(f"שורה {i} של גוף הטקסט בעמוד הזה והיא ארוכה", size, False, y, 40, 380)
        )
        y += size * 1.5
    lines.append(RawLine(footer, size, False, 570, 195, 205))
    return RawPage(number, 420, 600, lines, 500)


def test_hebrew_page_numbers_body_size_header_and_bold_only_headings() -> None:
    letters = ["א", "ב", "ג", "ד", "ה", "ו"]
    pages = [
        _page(
            n,
            20,
            header="ספר הדוגמה",
            footer=letters[n - 1],
            bold_heading="סימן " + letters[n - 1] if n % 2 else "",
        )
        for n in range(1, 7)
    ]
    kinds = classify(pages, dominant_size(pages))
    for page_kinds in kinds:
        assert page_kinds[0] == "header"  # same size as the body, but repeated
        assert page_kinds[-1] == "page_number"  # Hebrew letters that follow the pages
    assert kinds[0][1] == "heading" and kinds[1][1] == "body"


def test_slightly_larger_heading_and_footnote_block() -> None:
    page = _page(1, 10, header="כותרת", footer="7", bold_heading="פתיחה", heading_size=13.0)
    page.lines.insert(-1, RawLine("(1) הערה קטנה בתחתית העמוד", 9, False, 520, 200, 380))
    page.lines.insert(-1, RawLine("והמשך ההערה", 9, False, 532, 300, 380))
    kinds = classify([page], dominant_size([page]))[0]
    assert kinds[1] == "heading"
    assert kinds[-3:-1] == ["footnote", "footnote"]


def test_text_lines_set_small_above_the_notes_stay_text() -> None:
    # An OCR layer sizes each word: the text's last line comes out as small as the
    # notes, but it follows the text at its pitch; the notes stand apart below it.
    page = _page(1, 10, header="כותרת", footer="7")
    y = page.lines[-2].y
    page.lines.insert(-1, RawLine("סוף הפסקה בשורה קטנה", 9, False, y + 18, 200, 380))
    page.lines.insert(-1, RawLine("1) הערה קטנה בתחתית העמוד", 9, False, y + 58, 200, 380))
    page.lines.insert(-1, RawLine("והמשך ההערה", 9, False, y + 69, 300, 380))
    kinds = classify([page], dominant_size([page]))[0]
    assert kinds[-4:-1] == ["body", "footnote", "footnote"]


def test_notes_begin_at_the_first_note_that_stands_apart_below_the_text() -> None:
    # An OCR layer sizes the text's last line as small as the notes; the first note
    # stands apart below it, and a later note stands further apart still (a wide
    # space between two notes): the notes begin at the first, not at the widest gap.
    page = _page(1, 10, header="כותרת", footer="7")
    y = page.lines[-2].y
    page.lines.insert(-1, RawLine("סוף הפסקה בשורה קטנה", 9, False, y + 18, 200, 380))
    page.lines.insert(-1, RawLine("1) הערה קטנה בתחתית העמוד", 9, False, y + 46, 200, 380))
    page.lines.insert(-1, RawLine("2) הערה שנייה רחוקה ממנה", 9, False, y + 80, 200, 380))
    kinds = classify([page], dominant_size([page]))[0]
    assert kinds[-4:-1] == ["body", "footnote", "footnote"]


def test_page_number_values() -> None:
    assert page_number_value("12") == 12
    assert page_number_value("- 12 -") == 12
    assert page_number_value('קכ"ג') == 123
    assert page_number_value("עמוד ז") == 7
    assert page_number_value("שנים.") is None
    assert page_number_value("\u00ad8\u00ad") == 8  # soft hyphens as dashes (OCR layers)


def test_sample_pdf_uses_another_layout() -> None:
    doc = extract_pdf(EXAMPLES / "sample.pdf")
    assert 2 <= doc.page_count <= 4 + 1
    assert (EXAMPLES / "sample.pdf").stat().st_size < 100_000
    numbers = [ln.text for p in doc.pages for ln in p.lines if ln.kind == "page_number"]
    assert numbers == ["ב", "ג", "ד"]
    headings = [ln.text for p in doc.pages[1:] for ln in p.lines if ln.kind == "heading"]
    assert headings == ["פרק א", "פרק ב", "פרק ג"]
    assert "(זכריה ח, טז)" in doc.text


@pytest.mark.parametrize("mode", ["fast", "precise"])
def test_damaged_pdfs_never_leak_library_errors(fixtures_dir: Path, mode: str) -> None:
    import random

    data = (fixtures_dir / "small.pdf").read_bytes()
    rng = random.Random(7)
    variants = [data[:cut] for cut in (9, 100, len(data) // 3, len(data) - 10)]
    for _ in range(6):
        damaged = bytearray(data)
        for _ in range(40):
            damaged[rng.randrange(200, len(damaged))] = rng.randrange(256)
        variants.append(bytes(damaged))
    variants.append(b"%PDF-1.7\n" + bytes(rng.randrange(256) for _ in range(2000)))
    for variant in variants:
        try:
            doc = extract_pdf(variant, mode=mode)  # type: ignore[arg-type]
        except errors.InvalidInputError as exc:
            assert exc.message
        else:
            assert isinstance(doc, ExtractedDocument)


def _minimal_pdf(pages: int, content: str = "") -> bytes:
    """A hand-written PDF: ``pages`` pages of 200x200 pt, each drawing ``content``."""
    first_page = 4
    kids = " ".join(f"{first_page + i} 0 R" for i in range(pages))
    stream = content.encode("latin-1")
    objs = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>",
        f"<< /Length {len(stream)} >>\nstream\n{content}\nendstream",
        *[
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 3 0 R "
            "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 "
            "/BaseFont /Helvetica >> >> >> >>"
        ]
        * pages,
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{obj}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


def test_stroked_text_counts_as_bold() -> None:
    content = (
        "BT /F1 12 Tf 20 150 Td (Plain words on a line) Tj ET "
        "BT 2 Tr /F1 12 Tf 20 120 Td (Stroked words here) Tj ET"
    )
    doc = extract_pdf(_minimal_pdf(1, content))
    lines = {ln.text: ln for ln in doc.pages[0].lines}
    assert not lines["Plain words on a line"].bold
    assert lines["Stroked words here"].bold
    assert lines["Plain words on a line"].size == 12


def test_blank_pages_are_an_empty_document() -> None:
    with pytest.raises(errors.EmptyDocumentError, match="no text"):
        extract_pdf(_minimal_pdf(2))
    with pytest.raises(errors.InvalidInputError):  # pdfium refuses a page-less PDF
        extract_pdf(_minimal_pdf(0))


class _FakeRaw:
    def __init__(self, unmapped: set[int]) -> None:
        self.unmapped = unmapped

    def FPDFText_HasUnicodeMapError(self, tp: object, i: int) -> int:
        return int(i in self.unmapped)


class _FakeReader:
    """What ``_fix_marks`` asks of pdfium: glyph boxes and Unicode-mapping errors."""

    def __init__(self, boxes: list[tuple[float, float]], unmapped: set[int]) -> None:
        self.boxes = boxes
        self.raw = _FakeRaw(unmapped)
        self.tp = None

    def box(self, i: int) -> tuple[float, float]:
        return self.boxes[i]


def test_precomposed_pointed_letters_lose_their_stray_glyphs() -> None:
    from libtext.pdf._repairs import fix_marks as _fix_marks

    # pdfium's view of "הַמָּיִם" set with precomposed glyphs (recorded from a real
    # PDF): letters inside a precomposed glyph get a sliver box shared with their
    # marks, and the glyph itself comes out as '>' (faulty mapping) or '2' (none).
    text = "\u05b7ה\u05b8\u05bcמ>\u05b4י2ם"
    boxes = [
        (419.1, 421.3), (417.6, 423.2), (412.6, 414.8), (412.6, 414.8), (412.6, 414.8),
        (410.2, 416.6), (407.3, 408.5), (407.3, 408.5), (406.3, 409.0), (399.5, 405.1),
    ]  # fmt: skip
    reader = _FakeReader(boxes, unmapped={8})
    fixed = _fix_marks(reader, text, list(range(len(text))), 12.0)  # type: ignore[arg-type]
    assert fixed == unicodedata.normalize("NFC", "הַמָּיִם")


def test_punctuation_over_a_real_letter_is_kept() -> None:
    from libtext.pdf._repairs import fix_marks as _fix_marks

    text = "\u05b8ב,"  # a comma whose box happens to cover a full-width letter
    reader = _FakeReader([(100.5, 102.0), (100.0, 106.0), (99.0, 107.0)], unmapped=set())
    assert _fix_marks(reader, text, [0, 1, 2], 12.0) == "בָ,"  # type: ignore[arg-type]


def test_punctuation_runs_follow_the_page_between_hebrew_words() -> None:
    from libtext.pdf._repairs import order_punctuation as _order_punctuation
    from libtext.pdf._text import neutral_run_direction

    # pdfium gave "(:." for glyphs that stand "(", ".", ":" from right to left.
    line = "יכול )א(:. ויאמין"
    start = line.index("(")
    boxes = {start: (195.7, 198.9), start + 1: (188.8, 191.0), start + 2: (192.7, 194.8)}
    reader = _FakeReader([boxes.get(i, (0.0, 0.0)) for i in range(len(line))], set())
    assert neutral_run_direction(line, start, start + 3) == "R"
    fixed = _order_punctuation(reader, line, 0)  # type: ignore[arg-type]
    assert mirror_rtl_brackets(fixed) == "יכול (א).: ויאמין"
    assert neutral_run_direction("see (x).: here", 6, 9) == "L"


def test_reading_order_sorts_a_page_but_keeps_columns() -> None:
    from libtext.pdf._read import reading_order

    footer = RawLine("7", 10, False, 580, 200, 206)
    body = [RawLine(f"שורה {i} בעמוד", 12, False, 100 + 18 * i, 40, 380) for i in range(8)]
    header = [RawLine("פרק א", 10, False, 40, 40, 80), RawLine("הספר", 10, False, 40, 330, 380)]
    # Drawn footer first and header halves left to right: read top down, right to left.
    assert reading_order([footer, *header, *body]) == [header[1], header[0], *body, footer]
    right = [RawLine(f"ימין {i} טקסט", 12, False, 100 + 18 * i, 220, 380) for i in range(10)]
    left = [RawLine(f"שמאל {i} טקסט", 12, False, 100 + 18 * i, 40, 200) for i in range(10)]
    assert reading_order([*right, *left]) == [*right, *left]  # column after column


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="אבגדהוש abcXYZ 0123 ()[]<>.,:\"'-", max_size=60))
def test_bracket_repair_only_ever_swaps_brackets(text: str) -> None:
    fixed = mirror_rtl_brackets(text, "L")
    assert len(fixed) == len(text)
    for a, b in zip(text, fixed, strict=True):
        assert a == b or (a in "()[]<>" and b == {"(": ")", ")": "(", "[": "]", "]": "[",
                                                  "<": ">", ">": "<"}[a])  # fmt: skip
    if not any(ch in "אבגדהוש" for ch in text):
        assert fixed == text  # nothing right-to-left: nothing to repair
    assert mirror_rtl_brackets(")1(", "R") == "(1)"  # a marker alone in a Hebrew book


# --- no source, and the encrypted-PDF message from every entry point -----------------


@pytest.mark.parametrize("source", ["", "   ", None])
def test_no_file_given(source: Any) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        extract_pdf(source)
    message = info.value.message
    assert type(info.value) is errors.InvalidInputError
    assert "No file given" in message and "directory" not in message
    assert "path" in message and "bytes" in message and "file object" in message


async def test_no_file_given_async() -> None:
    with pytest.raises(errors.InvalidInputError, match="No file given"):
        await aextract_pdf("")


def _encrypted_message(call: Any) -> str:
    with pytest.raises(errors.EncryptedPDFError) as info:
        call()
    return info.value.message


@pytest.mark.parametrize("mode", ["fast", "precise"])
def test_encrypted_message_serves_every_caller(fixtures_dir: Path, mode: str) -> None:
    """Python, the CLI and an HTTP upload all see it: it names every way out."""
    path = fixtures_dir / "encrypted.pdf"
    message = _encrypted_message(lambda: extract_pdf(path, mode=mode))  # type: ignore[arg-type]
    assert message.startswith("encrypted.pdf is encrypted and needs a password")
    assert "password=" in message and "--password" in message and "qpdf --decrypt" in message
    assert "extract_pdf()" not in message  # not only the function's callers can act on it
    wrong = _encrypted_message(lambda: extract_pdf(path, password="nope", mode=mode))  # type: ignore[arg-type]
    assert "wrong" in wrong and "nope" not in wrong  # never echoes the password


def test_outliner_passes_the_password(fixtures_dir: Path) -> None:
    from libtext import Outliner

    path = fixtures_dir / "encrypted.pdf"
    unlocked = extract_pdf(path, password="secret")
    outliner = Outliner()
    outline = outliner.outline(path, password="secret")
    assert outline.outline_segments
    assert outline == outliner.outline(unlocked)  # the same as outlining the extraction
    message = _encrypted_message(lambda: outliner.outline(path))
    assert "--password" in message and "qpdf" in message
    _encrypted_message(lambda: outliner.outline(path, password="nope"))
    pair = Outliner(providers=["offline", "offline"])
    assert pair.compare(path, password="secret").results[0].outline == outline
    _encrypted_message(lambda: pair.compare(path))


async def test_outliner_async_passes_the_password(fixtures_dir: Path) -> None:
    from libtext import Outliner

    path = fixtures_dir / "encrypted.pdf"
    outline = await Outliner().aoutline(path, password="secret")
    assert outline.outline_segments
    comparison = await Outliner(providers=["offline", "offline"]).acompare(path, password="secret")
    assert comparison.results[0].outline == outline
    with pytest.raises(errors.EncryptedPDFError):
        await Outliner().aoutline(path)


def test_process_document_passes_the_password(fixtures_dir: Path) -> None:
    from libtext import process_document

    path = fixtures_dir / "encrypted.pdf"
    document = process_document(path, password="secret")
    expected = process_document(extract_pdf(path, password="secret"))
    assert document.sections and document.model_dump() == expected.model_dump()
    message = _encrypted_message(lambda: process_document(path))
    assert "--password" in message and "qpdf" in message


def test_ligature_letters_come_back_in_the_order_of_their_mapping() -> None:
    """A ligature glyph mapped to "א‍ל" (alef, ZWJ, lamed) comes out of pdfium reversed
    on a right-to-left line: its letters share the glyph's box, so they are re-ordered."""
    from libtext.pdf._read import ligatures_in_order

    glyph = (100.0, 108.0)
    after = [(94.0, 99.0), (86.0, 93.0), (80.0, 85.0)]
    pdfium = "ל\u200dא" + "ביר"  # one ligature glyph, then three letters
    boxes = [glyph, glyph, glyph, *after]
    assert ligatures_in_order(pdfium, boxes.__getitem__) == "א\u200dל" + "ביר"
    # Letters with a joiner but drawn as glyphs of their own keep pdfium's order.
    own = [(112.0, 118.0), (108.0, 108.0), (100.0, 107.0), *after]
    assert ligatures_in_order(pdfium, own.__getitem__) == pdfium
    # A left-to-right line is not reversed by pdfium: nothing to undo.
    ltr = [glyph, glyph, glyph, *after[:1] * 3]
    assert ligatures_in_order("f\u200di ok", ltr.__getitem__) == "f\u200di ok"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="אבג abc 123 ٣٤ ().:,-%+", max_size=14), st.data())
def test_punctuation_run_direction_is_that_of_the_typed_line(text: str, data: Any) -> None:
    # neutral_run_direction looks only outward from the run; it must agree with the
    # whole line typed (W7, N1), the rule it shortcuts.
    from libtext.pdf._text import _strong_types, line_direction, neutral_run_direction

    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    base = line_direction(text)
    types = _strong_types(text, base)
    before = next((t for t in reversed(types[:start]) if t is not None), base)
    after = next((t for t in types[end:] if t is not None), base)
    assert neutral_run_direction(text, start, end) == (before if before == after else None)


def _glyphs_from_left(visual: str, width: float = 5.0) -> list[Glyph]:
    return [Glyph(ch, k * width, (k + 1) * width, (k + 0.5) * width) for k, ch in enumerate(visual)]


def test_a_letter_bullet_does_not_turn_a_hebrew_line_left_to_right() -> None:
    # Word's second-level bullet ``o`` at the right of a Hebrew item that ends in an
    # identifier: both visual ends Latin, but the line reads from the right.
    item = _glyphs_from_left("is_day. יאנתב קר וגצוי o")
    assert visual_direction(item, "R") == "R"
    # A Latin line on a Hebrew page, its ends Latin, stays left to right (a word of
    # one letter inside it is no bullet), and so does one without Hebrew.
    assert visual_direction(_glyphs_from_left("see page 3 of a guide"), "R") == "L"
    assert visual_direction(_glyphs_from_left("is_day. is_mon o"), "R") == "L"


class _Boxes:
    """Glyph advance boxes by stream index, for the reader's geometry helpers."""

    def __init__(self, boxes: list[tuple[float, float]]) -> None:
        self.boxes = boxes

    def box(self, i: int) -> tuple[float, float]:
        return self.boxes[i]


@pytest.mark.skipif(
    "_read" in compiled_modules(),
    reason="a stand-in reader: the compiled twin takes only its own; the pure-Python run covers it",
)
def test_visual_pieces_given_right_piece_first() -> None:
    # LuaTeX draws each piece's letters from the left (visual order); pdfium hands the
    # line's right piece over first. Each piece runs left to right: a visual line.
    text = "אבג" + "דהו"
    right = [(200.0 + 6 * k, 206.0 + 6 * k) for k in range(3)]
    left = [(100.0 + 6 * k, 106.0 + 6 * k) for k in range(3)]
    reader = _Boxes(right + left)
    assert _visual_pieces(reader, text, [(0, 3), (3, 6)])  # type: ignore[arg-type]
    # A logical line's pieces run right to left inside each: not visual.
    reader = _Boxes(right[::-1] + left[::-1])
    assert not _visual_pieces(reader, text, [(0, 3), (3, 6)])  # type: ignore[arg-type]


def test_a_point_is_never_a_digits() -> None:
    # A note's number set small, touching the word it marks: a point of the word's
    # edge letter that reaches over the digit is still the letter's.
    bases = [Glyph("א", 100.0, 106.0, 103.0), Glyph("4", 106.0, 109.0, 107.5)]
    patah = Glyph("\u05b7", 105.0, 108.0, 106.5)
    assert _owners(bases, [patah], 9.0) == [0]


def _placed(display: str, stream: list[int]) -> list[Glyph]:
    """Glyphs of ``display`` (left to right, 6 pt a character), in ``stream`` order."""
    return [Glyph(display[i], 6.0 * i, 6.0 * i + 6, 6.0 * i + 3) for i in stream]


def test_a_hebrew_paragraphs_line_that_ends_in_two_scripts_is_right_to_left() -> None:
    # "Pesach שנדפסה בפראג." as a right-to-left paragraph shows it: the Latin word at
    # the right end, the Hebrew at the left. Its stream, in logical order, starts at the
    # right: right to left, whatever the page's direction (a page of English).
    display = ".גארפב הספדנש Pesach"
    logical = [*range(14, 20), 13, *range(12, 6, -1), 6, *range(5, -1, -1)]
    assert "".join(display[i] for i in logical) == "Pesach שנדפסה בפראג."
    assert visual_direction(_placed(display, logical), "L") == "R"
    # A stream that runs left to right (a visual one, a table's row read across) does
    # not say: the page's direction decides.
    assert visual_direction(_placed(display, list(range(len(display)))), "L") == "L"
    assert visual_direction(_placed(display, list(range(len(display)))), "R") == "R"


@given(st.text(alphabet=".)]:[( \n\r1aא", max_size=12))
@settings(max_examples=400, deadline=None)
def test_lost_label_finds_what_the_pattern_finds(text: str) -> None:
    """``lost_label`` (a start check and a search from line break to line break) says
    what a search of ``LOST_LABEL`` says, at the text's start, after a break, nowhere."""
    from libtext.pdf._dropped import LOST_LABEL, lost_label

    assert lost_label(text) == (LOST_LABEL.search(text) is not None)
    assert lost_label("א\r\n" + text) == (LOST_LABEL.search("א\r\n" + text) is not None)


@given(st.text(alphabet=".,:;!?()[]-־׳ \n_a1אé\u05b8", max_size=12))
@settings(max_examples=400, deadline=None)
def test_punctuation_pair_finds_the_runs_the_repair_orders(text: str) -> None:
    """The line reader's quick test for two punctuation marks in a row finds a line
    exactly when ``PUNCT_RUN`` (whose runs ``order_punctuation`` re-orders) does."""
    from libtext.pdf._read import _PUNCT_PAIR
    from libtext.pdf._repairs import PUNCT_RUN

    assert (_PUNCT_PAIR.search(text) is None) == (PUNCT_RUN.search(text) is None)


def test_an_ocr_lines_size_is_its_letters_not_a_large_one_letter_word() -> None:
    """An OCR layer (invisible text) sizes each word to its box: a one-letter word boxed
    at twice the line's size, in the middle of a line whose words the OCR sized a little
    apart (10, 10.4, 9.6 pt), is no heading and does not set the line's size. Truth from
    the content stream: most letters are set at 10 pt."""

    def ocr_line(y: int, words: list[tuple[float, str]]) -> str:
        shown = " ".join(
            f"/F1 {size} Tf ({word}{' ' if k < len(words) - 1 else ''}) Tj"
            for k, (size, word) in enumerate(words)
        )
        return f"BT 3 Tr 20 {y} Td {shown} ET "

    body = [(10, "body"), (10, "text"), (10, "runs"), (10, "here")]
    content = "".join(ocr_line(180 - 14 * k, body) for k in range(6))
    content += ocr_line(80, [(10, "one"), (10, "two"), (20, "a"), (10.4, "six"), (9.6, "ten")])
    content += "".join(ocr_line(66 - 14 * k, body) for k in range(3))
    doc = extract_pdf(_minimal_pdf(1, content))
    lines = {ln.text: ln for ln in doc.pages[0].lines}
    line = lines["one two a six ten"]
    assert line.size == 10
    assert line.kind != "heading"


def test_raw_line_survives_pickling() -> None:
    """A guard's worker sends its pages' lines pickled: every field comes back, and the
    compiled class (made through its ``__init__`` only) unpickles too."""
    line = RawLine(
        "שלום (1)", 11.5, True, 120.25, 40.0, 300.5, True, 3, [(40.0, 90.0, "a")], True, (200, 0, 0)
    )
    back = pickle.loads(pickle.dumps(line, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == line
    assert back is not line
    assert (back.block, back.aside, back.colour, back.cells) == (
        3,
        True,
        (200, 0, 0),
        [(40.0, 90.0, "a")],
    )
    assert back != RawLine("שלום (1)", 11.5, True, 120.25, 40.0, 300.5)


class _PiecesReader(_FakeReader):
    """A line's characters with a bold bullet: size, weight and baseline per index."""

    def __init__(self, boxes: list[tuple[float, float]], bold: set[int]) -> None:
        super().__init__(boxes, unmapped=set())
        self.bolds = bold

    def size(self, i: int) -> float:
        return 10.5

    def bold(self, i: int) -> bool:
        return i in self.bolds

    def baseline(self, i: int) -> float:
        return 219.0


@pytest.mark.skipif(
    "_read" in compiled_modules(),
    reason="a stand-in reader: the compiled twin takes only its own; the pure-Python run covers it",
)
def test_a_line_in_pieces_takes_its_weight_from_its_words_not_a_bold_bullet() -> None:
    from libtext.pdf._read import _joined_line

    # A list item pdfium hands over in two pieces: its closing run (another font's),
    # then the bold bullet and the item's words (as InDesign draws them): not bold.
    last, rest = "?!", "+ היפותרמיה קשה – מתחת לשמונה ועשרים"
    text = f"{last}\n{rest}"
    x = 700.0
    boxes: list[tuple[float, float]] = [(0.0, 0.0)] * len(text)
    for i in [*range(len(last) + 1, len(text)), *range(len(last))]:
        boxes[i] = (x, x + 5.0)  # right to left, from the bullet on
        x -= 4.0 if text[i] == " " else 5.0
    reader = _PiecesReader(boxes, bold={len(last) + 1})
    line = _joined_line(reader, text, [(0, len(last)), (len(last) + 1, len(text))])  # type: ignore[arg-type]
    assert not line.bold
