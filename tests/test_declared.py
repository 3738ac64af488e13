"""The document's own word on its outline and metadata: Info strings, bookmarks'
junk, the title page, a printed table of contents, and grounding of sections that
open alike. Inputs are built here; expectations come from how they were built."""

from __future__ import annotations

from libtext.grounding import ground_outline
from libtext.headings import offline_outline
from libtext.headings._toc import printed_toc
from libtext.models import (
    DocumentOutline,
    ExtractedDocument,
    ExtractedLine,
    ExtractedPage,
    OutlineSegment,
)
from libtext.pdf._meta import decode_mojibake, info_text
from libtext.pdf._outline import is_identifier


def _low_bytes(hebrew: str) -> str:
    """How a producer that keeps only each UTF-16 unit's low byte writes ``hebrew``."""
    return "".join(chr(ord(ch) - 0x500) if "\u05d0" <= ch <= "\u05ea" else ch for ch in hebrew)


def test_info_mojibake_is_decoded_and_real_latin_text_is_left_alone() -> None:
    assert decode_mojibake(_low_bytes("איתן שמשוביץ")) == "איתן שמשוביץ"
    assert decode_mojibake("שלום עולם".encode("cp1255").decode("latin-1")) == "שלום עולם"
    for text in ("Über Straße", "Café été à Paris", "Baruch Speiser", "ÉCOLE"):
        assert decode_mojibake(text) == text


def test_info_title_drops_print_driver_file_names() -> None:
    assert info_text("Microsoft Word - notes.docx") == ""
    assert info_text("lesson_01.pptx") == ""
    assert info_text("Microsoft PowerPoint - " + _low_bytes("מפגש פתיחה")) == "מפגש פתיחה"
    assert info_text("  הגדה   של פסח\x00") == "הגדה של פסח"


def test_program_bookmarks_are_identifiers_and_headings_are_not() -> None:
    for junk in ("_GoBack", "OLE_LINK1", "_Toc123456789", "_Hlk42", "bookmark12"):
        assert is_identifier(junk), junk
    for heading in ("Introduction", "ROSC", "פרק א", "1 Results", "הלל", "Chapter 2"):
        assert not is_identifier(heading), heading


def _line(
    text: str, size: float, y: float, *, kind: str = "body", bold: bool = False
) -> ExtractedLine:
    return ExtractedLine(text=text, kind=kind, size=size, y=y, bold=bold)  # type: ignore[arg-type]


def _body(n: int, tag: str, y0: float = 120.0) -> list[ExtractedLine]:
    return [
        _line(f"{tag} שורה {k} של גוף הטקסט הנמשכת עוד כמה מילים כאן", 11, y0 + 14 * k)
        for k in range(n)
    ]


def _doc(pages: list[list[ExtractedLine]], **meta: str) -> ExtractedDocument:
    return ExtractedDocument(
        pages=[ExtractedPage(number=k, lines=lines) for k, lines in enumerate(pages, start=1)],
        body_size=11.0,
        **meta,
    )


def test_title_page_author_after_arranged_by_and_ornaments_dropped() -> None:
    title = [
        _line('בס"ד', 10, 40, kind="heading"),
        _line("K סדור k", 20, 200, kind="heading"),
        _line("לשון ישרים", 20, 224, kind="heading"),
        _line("מסודר ע״י", 12, 300, kind="heading"),
        _line("אליעזר בן זאב", 12, 318, kind="heading"),
        _line("אפריל 2022", 12, 400, kind="heading"),
    ]
    doc = _doc([title, _body(20, "א")])
    meta = offline_outline(doc).source_metadata
    assert meta.work_title == "סדור לשון ישרים"
    assert meta.author_name == "אליעזר בן זאב"


def test_info_author_is_completed_from_the_printed_line() -> None:
    title = [
        _line("קורס דוגמה", 40, 200, kind="heading"),
        _line("נובמבר 2023", 20, 300),
        _line("ישראל ישראלי", 20, 330),
    ]
    doc = _doc([title, _body(20, "א")], author="ישראל")
    assert offline_outline(doc).source_metadata.author_name == "ישראל ישראלי"


def test_author_from_a_credits_list_when_the_cover_names_none() -> None:
    cover = [
        _line("מדריך הדוגמה", 40, 300, kind="heading"),
        _line("בעת ההתמודדות עם מצבים קשים", 20, 340, kind="heading"),
    ]
    credits = [
        _line("עורכים/מחברים:", 11, 100),
        _line("פרופ׳ ראובן לוי, דר׳ שמעון כהן, לוי יעקב", 11, 118),
    ]
    doc = _doc([cover, credits, _body(20, "א")])
    meta = offline_outline(doc).source_metadata
    assert (meta.work_title, meta.author_name) == ("מדריך הדוגמה", "ראובן לוי")


def test_printed_contents_page_is_the_outline() -> None:
    # Printed page n is PDF page n + 1 (a cover before page 1); one title wraps with
    # a colon, one has its page number on a line of its own.
    titles = ["מבוא כללי", "דרכי התמודדות עם דחק", "סיכום הדברים", "מקורות נוספים"]
    contents = [
        _line("תוכן:", 16, 60, kind="heading"),
        _line(f"1. {titles[0]} 3", 11, 90),
        _line(f"2. {titles[1]}:", 11, 104),
        _line("עבור הצוותים ובני משפחותיהם 5", 11, 118),
        _line(f"3. {titles[2]}", 11, 132),
        _line("7", 11, 146),
        _line(f"4. {titles[3]} . . . . . . 9", 11, 160),
    ]
    pages: list[list[ExtractedLine]] = [[_line("ספר הדוגמה", 30, 300, kind="heading")], contents]
    printed_page = {3: titles[0], 5: titles[1], 7: titles[2], 9: titles[3]}
    for printed in range(2, 11):
        lines = []
        if printed in printed_page:
            lines.append(_line(f"{printed}. {printed_page[printed]}", 16, 80, kind="heading"))
        pages.append(lines + _body(12, f"ע{printed}"))
    doc = _doc(pages)
    toc = printed_toc(doc)
    assert [(h.title, h.page) for h in toc] == [(t, p + 1) for p, t in printed_page.items()]
    segments = offline_outline(doc).outline_segments
    assert [(s.chapter_title, s.page_ref) for s in segments] == [
        (t, str(p + 1)) for p, t in printed_page.items()
    ]


def test_numbered_headings_are_not_a_contents_page() -> None:
    page = [_line(f"שאלה {n}", 11, 60 + 80 * n, kind="heading", bold=True) for n in range(1, 6)]
    assert printed_toc(_doc([page, _body(10, "א")])) == []


def test_sections_that_open_alike_are_placed_apart() -> None:
    same = "כתבו פונקציה המקבלת רשימה ומחזירה את סכומה"
    page = [
        _line("סעיף 1", 16, 60, kind="heading"),
        _line(same, 11, 80),
        _line("ועוד שורה של הסבר לסעיף הראשון בלבד", 11, 94),
        _line("סעיף 2", 16, 130, kind="heading"),
        _line(same, 11, 150),
        _line("ועוד שורה של הסבר לסעיף השני בלבד", 11, 164),
    ]
    doc = _doc([page])
    outline = DocumentOutline(
        outline_segments=[
            OutlineSegment(
                sequence_id=k, chapter_title=f"סעיף {k}", start_phrase_hebrew=same, page_ref="1"
            )
            for k in (1, 2)
        ]
    )
    grounded, report = ground_outline(outline, doc)
    assert [s.chapter_title for s in grounded.outline_segments] == ["סעיף 1", "סעיף 2"]
    assert report.dropped == 0
    ends = [s.end_phrase_hebrew for s in grounded.outline_segments]
    assert ends[0].endswith("לסעיף הראשון בלבד") or "סעיף 2" in ends[0]
    assert ends[1].endswith("לסעיף השני בלבד")


def test_ocr_layer_sizes_are_noise_and_only_written_headings_count() -> None:
    # An OCR layer: every page has lines one or two points above the body that are
    # not headings; the chapters are the lines written as "פרק …".
    pages: list[list[ExtractedLine]] = []
    chapters = {2: "פרק א", 4: "פרק ב", 6: "פרק ג"}
    for n in range(1, 8):
        lines: list[ExtractedLine] = []
        y = 60.0
        if n in chapters:
            lines.append(_line(chapters[n], 12.5, y, kind="heading"))
            y += 20
        for k in range(6):
            size = 12.0 + (k % 3) * 0.5 if k % 2 == 0 else 11.0
            kind = "heading" if size > 11 else "body"
            lines.append(_line(f"שורה {k} בעמוד {n} של שכבת הזיהוי האופטי", size, y, kind=kind))
            y += 16
        pages.append(lines)
    segments = offline_outline(_doc(pages)).outline_segments
    assert [(s.chapter_title, s.page_ref) for s in segments] == [
        (t, str(p)) for p, t in chapters.items()
    ]


def test_bold_body_size_sections_under_sparse_part_titles() -> None:
    # Word's default look: a few 16pt part titles, and under them short bold headings
    # at body size, each followed by body text; list items in bold are not sections.
    parts = {1: "דיני תעבורה - הגדרות", 13: "תקציר בנושא הרכב"}
    sections = {p: f"נושא מספר {p}" for p in range(1, 25) if p % 2 == 0}
    pages: list[list[ExtractedLine]] = []
    for n in range(1, 25):
        lines: list[ExtractedLine] = []
        y = 60.0
        if n in parts:
            lines.append(_line(parts[n], 16, y, kind="heading", bold=True))
            y += 30
        if n in sections:
            lines.append(_line(sections[n], 11, y, kind="heading", bold=True))
            y += 20
        lines.append(_line("א. סעיף ברשימה מודגש", 11, y, kind="heading", bold=True))
        lines.extend(_body(8, f"ע{n}", y + 20))
        pages.append(lines)
    segments = offline_outline(_doc(pages)).outline_segments
    expected = sorted(
        [(p, 0, t) for p, t in parts.items()] + [(p, 1, t) for p, t in sections.items()]
    )
    assert [(s.chapter_title, s.page_ref) for s in segments] == [
        (t, str(p)) for p, _, t in expected
    ]
    assert segments[1].segment_title == f"{parts[1]} — {sections[2]}"


def test_chapters_left_out_of_the_bookmarks_join_them_but_not_list_pages() -> None:
    from libtext.models import DocumentHeading

    def chapter(title: str) -> list[ExtractedLine]:
        return [_line(title, 17, 80, kind="heading"), *_body(12, title)]

    pages = [
        [_line("רשימת האיורים", 17, 80, kind="heading"), _line("1 איור ראשון ... 4", 11, 120)],
        chapter("הקדמה"),  # a starred chapter: printed like the others, not bookmarked
        chapter("פרק ראשון"),
        chapter("פרק שני"),
        chapter("ביבליוגרפיה"),
    ]
    doc = _doc(pages)
    doc.headings = [
        DocumentHeading(title="פרק ראשון", page=3, y=70),
        DocumentHeading(title="פרק שני", page=4, y=70),
    ]
    titles = [(s.page_ref, s.chapter_title) for s in offline_outline(doc).outline_segments]
    assert titles == [
        ("2", "הקדמה"),
        ("3", "פרק ראשון"),
        ("4", "פרק שני"),
        ("5", "ביבליוגרפיה"),
    ]
