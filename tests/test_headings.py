"""The offline outline: metadata, chapters in order with pages, verbatim phrases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from libtext.headings import find_headings, offline_outline, parse_heading
from libtext.models import DocumentOutline, ExtractedDocument
from libtext.pdf import _assemble, extract_pdf
from libtext.pdf._read import RawLine, RawPage

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _truth(fixtures_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fixtures_dir / f"{name}.truth.json").read_text("utf-8"))
    return data


def _check_against_truth(
    doc: ExtractedDocument, outline: DocumentOutline, truth: dict[str, Any]
) -> None:
    segments = outline.outline_segments
    chapters = truth["chapters"]
    assert [s.chapter_title for s in segments] == [c["heading"] for c in chapters]
    assert [s.page_ref for s in segments] == [str(c["page"]) for c in chapters]
    assert [s.sequence_id for s in segments] == list(range(1, len(chapters) + 1))
    text = doc.text
    for seg, chapter in zip(segments, chapters, strict=True):
        assert seg.start_phrase_hebrew and seg.start_phrase_hebrew in text
        assert seg.end_phrase_hebrew and seg.end_phrase_hebrew in text
        # The phrases are the chapter's own first and last words.
        assert chapter["first_words"].split()[0] in seg.start_phrase_hebrew
        assert seg.end_phrase_hebrew.split()[-1] in chapter["last_words"]
        assert seg.summary
        if chapter["heading"].startswith(("פרק", "סימן")):
            assert seg.chapter_number.isdigit()


@pytest.mark.parametrize("name", ["small", "book"])
def test_outline_matches_truth(fixtures_dir: Path, name: str) -> None:
    doc = extract_pdf(fixtures_dir / f"{name}.pdf")
    outline = offline_outline(doc)
    truth = _truth(fixtures_dir, name)
    _check_against_truth(doc, outline, truth)
    meta = outline.source_metadata
    assert meta.work_title == truth["title"]
    assert meta.author_name == truth["author"]
    assert meta.publication_title == truth["publication_title"]
    assert offline_outline(doc) == outline  # deterministic


def test_big_outline_with_parts(fixtures_dir: Path) -> None:
    doc = extract_pdf(fixtures_dir / "big.pdf")
    outline = offline_outline(doc)
    truth = _truth(fixtures_dir, "big")
    _check_against_truth(doc, outline, truth)
    titles = {s.chapter_title for s in outline.outline_segments}
    assert not titles & set(truth["parts"])  # part titles are not chapters
    for seg, chapter in zip(outline.outline_segments, truth["chapters"], strict=True):
        assert seg.segment_title.startswith(chapter["part"])
    assert outline.source_metadata.work_title == truth["title"]
    levels = {h.level for h in find_headings(doc)}
    assert "part" in levels


def test_sample_pdf_outline() -> None:
    doc = extract_pdf(EXAMPLES / "sample.pdf")
    outline = offline_outline(doc)
    assert [s.chapter_title for s in outline.outline_segments] == ["פרק א", "פרק ב", "פרק ג"]
    assert [s.chapter_number for s in outline.outline_segments] == ["1", "2", "3"]
    assert outline.source_metadata.work_title == "פרקי אבות"
    assert outline.source_metadata.author_name == "רבי יהודה הנשיא"
    for seg in outline.outline_segments:
        assert seg.start_phrase_hebrew in doc.text and seg.end_phrase_hebrew in doc.text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("פרק א", ("פרק", 1)),
        ('סימן י"א', ("סימן", 11)),
        ("סימן קכג", ("סימן", 123)),
        ("שער הראשון", ("שער", 1)),
        ("השער הראשון", ("שער", 1)),
        ("השער השלישי: שער הבטחון", ("שער", 3)),
        ("פרק שני", ("פרק", 2)),
        ("אות שניה", ("אות", 2)),
        ("מאמר ששי", ("מאמר", 6)),
        ("סימן ט״ו", ("סימן", 15)),
        ("השער", None),
        ("פרק שניים ושלשה", None),
        ("אות 12", ("אות", 12)),
        ("מאמר ב - בענין התפלה", ("מאמר", 2)),
        ("הקדמה", ("", None)),
        ("הקדמת המלקט", ("", None)),
        ("פרק זה מבאר את הענין", None),
        ("אשרי תמימי דרך", None),
        ("פרק אבג", None),  # not a well-formed numeral
    ],
)
def test_parse_heading(text: str, expected: tuple[str, int | None] | None) -> None:
    assert parse_heading(text) == expected


# --- synthetic layouts -------------------------------------------------------------


def _book(pages: list[list[RawLine]]) -> ExtractedDocument:
    raw = [RawPage(n, 420, 600, lines, 500) for n, lines in enumerate(pages, start=1)]
    return _assemble(raw, {"Title": "Meta title", "Author": "Meta author"}, "t.pdf", mirror=False)


def _body(start: float, count: int, tag: str) -> list[RawLine]:
    return [
        RawLine(f"{tag} שורה {i} של גוף הטקסט בעמוד והיא ארוכה למדי כאן", 12, False,
                start + 18 * i, 40, 380)
        for i in range(count)
    ]  # fmt: skip


def test_bold_only_headings_and_running_header_at_body_size() -> None:
    # No title page; headings are bold at body size; the running header repeats the
    # chapter name at body size on every page.
    pages = []
    chapters = {1: "שער א", 3: "שער ב"}
    current = ""
    for n in range(1, 6):
        lines = []
        if n in chapters:
            current = chapters[n]
        lines.append(RawLine(current or "ספר", 12, False, 30, 300, 380))
        y = 60.0
        if n in chapters:
            lines.append(RawLine(chapters[n], 12, True, y, 180, 240))
            y += 24
        lines.extend(_body(y, 20, f"עמוד{n}"))
        lines.append(RawLine(str(n), 12, False, 585, 195, 205))
        pages.append(lines)
    doc = _book(pages)
    outline = offline_outline(doc)
    segs = outline.outline_segments
    assert [(s.chapter_title, s.page_ref, s.chapter_number) for s in segs] == [
        ("שער א", "1", "1"),
        ("שער ב", "3", "2"),
    ]
    assert segs[0].start_phrase_hebrew.startswith("עמוד1 שורה 0")
    assert segs[0].end_phrase_hebrew.endswith("ארוכה למדי כאן")
    assert outline.source_metadata.work_title == "Meta title"  # no title page: metadata
    assert outline.source_metadata.author_name == "Meta author"


def test_no_headings_gives_one_segment() -> None:
    doc = _book([_body(60, 20, "א"), _body(60, 20, "ב")])
    segs = offline_outline(doc).outline_segments
    assert len(segs) == 1
    assert segs[0].page_ref == "1"
    assert segs[0].start_phrase_hebrew in doc.text and segs[0].end_phrase_hebrew in doc.text


def test_empty_document_outline() -> None:
    outline = offline_outline(ExtractedDocument())
    assert outline.outline_segments == []


def test_loose_heading_titles_and_invocation_on_title_page() -> None:
    title = [
        RawLine('בס"ד', 11, False, 40, 190, 230),
        RawLine("קונטרס הדוגמה", 28, True, 150, 100, 320),
        RawLine("מאת", 12, False, 220, 195, 225),
        RawLine("רבי פלוני", 16, False, 240, 160, 260),
    ]
    pages = [title]
    for n, heading in ((2, "מאמר א מעלת התורה"), (3, "מאמר ב בענין התפלה")):
        pages.append([RawLine(heading, 16, True, 60, 130, 290), *_body(90, 20, f"ע{n}")])
    outline = offline_outline(_book(pages))
    meta = outline.source_metadata
    assert (meta.work_title, meta.author_name) == ("קונטרס הדוגמה", "רבי פלוני")
    assert meta.publication_title == "Meta title"  # not the invocation
    segs = outline.outline_segments
    assert [(s.chapter_title, s.chapter_number, s.page_ref) for s in segs] == [
        ("מאמר א מעלת התורה", "1", "2"),
        ("מאמר ב בענין התפלה", "2", "3"),
    ]


def test_chapters_each_on_their_own_title_page() -> None:
    pages: list[list[RawLine]] = []
    for n, heading in enumerate(("חלק א", "חלק ב"), start=1):
        pages.append([RawLine(heading, 24, True, 200, 150, 270)])
        pages.append(_body(60, 20, f"ח{n}"))
    segs = offline_outline(_book(pages)).outline_segments
    assert [(s.chapter_title, s.page_ref) for s in segs] == [("חלק א", "1"), ("חלק ב", "3")]


def test_large_running_header_repeating_the_chapter_is_not_a_new_chapter() -> None:
    # The running header is as large and bold as the chapter heading itself.
    pages = []
    for n in range(1, 5):
        name = "פרק א" if n < 3 else "פרק ב"
        lines = [RawLine(name, 16, True, 30, 180, 240)]
        lines.extend(_body(60, 20, f"ע{n}"))
        pages.append(lines)
    doc = _book(pages)
    outline = offline_outline(doc)
    assert [(s.chapter_title, s.page_ref) for s in outline.outline_segments] == [
        ("פרק א", "1"),
        ("פרק ב", "3"),
    ]
    # Chapter one runs on through page 2, past the repeated header.
    end = outline.outline_segments[0].end_phrase_hebrew
    last_line = doc.pages[1].lines[-1].text
    assert last_line.startswith("ע2 שורה 19") and last_line.endswith(end)


def test_work_title_from_running_header_when_nothing_else_says() -> None:
    pages = []
    for n in range(1, 5):
        lines = [RawLine("ספר הדוגמה", 9, False, 30, 300, 380)]
        if n in (1, 3):
            lines.append(RawLine(f"פרק {'א' if n == 1 else 'ב'}", 16, True, 60, 180, 240))
        lines.extend(_body(90, 20, f"ע{n}"))
        pages.append(lines)
    raw = [RawPage(n, 420, 600, lines, 500) for n, lines in enumerate(pages, start=1)]
    doc = _assemble(raw, {}, "", mirror=False)
    outline = offline_outline(doc)
    assert outline.source_metadata.work_title == "ספר הדוגמה"
    assert [s.chapter_title for s in outline.outline_segments] == ["פרק א", "פרק ב"]


def test_inline_part_titles_over_their_first_chapter() -> None:
    # Parts and chapters equally many: the larger, part, heading stands right above
    # its first chapter's heading on the same page, and is not merged with it.
    pages = []
    for n, (part, chapter) in enumerate(
        (("חלק ראשון", "פרק א"), ("", "פרק ב"), ("חלק שני", "פרק א"), ("", "פרק ב")), start=1
    ):
        lines = []
        if part:
            lines.append(RawLine(part, 20, True, 40, 160, 260))
        lines.append(RawLine(chapter, 15, True, 70, 180, 240))
        lines.extend(_body(100, 20, f"ע{n}"))
        pages.append(lines)
    outline = offline_outline(_book(pages))
    segs = outline.outline_segments
    assert [(s.chapter_title, s.chapter_number, s.page_ref) for s in segs] == [
        ("פרק א", "1", "1"),
        ("פרק ב", "2", "2"),
        ("פרק א", "1", "3"),
        ("פרק ב", "2", "4"),
    ]
    assert [s.segment_title.split(" — ")[0] for s in segs] == ["חלק ראשון"] * 2 + ["חלק שני"] * 2


def test_title_and_author_atop_the_first_page_without_title_page() -> None:
    first = [
        RawLine("ספר הדוגמה", 20, True, 40, 150, 270),
        RawLine("מאת רבי פלוני אלמוני", 12, False, 62, 160, 260),
        RawLine("פרק א", 14, True, 90, 185, 235),
        *_body(110, 20, "ע1"),
    ]
    second = [RawLine("פרק ב", 14, True, 60, 185, 235), *_body(90, 20, "ע2")]
    raw = [RawPage(n, 420, 600, lines, 500) for n, lines in enumerate((first, second), start=1)]
    outline = offline_outline(_assemble(raw, {}, "", mirror=False))
    meta = outline.source_metadata
    assert (meta.work_title, meta.author_name) == ("ספר הדוגמה", "רבי פלוני אלמוני")
    assert [s.chapter_title for s in outline.outline_segments] == ["פרק א", "פרק ב"]


def test_a_sefers_dedication_leads_as_front_matter_and_its_talks_are_one_level() -> None:
    # A book of talks read from an OCR layer: a title page, a dedication page
    # (``לעלוי נשמת`` set large over the names), a preface, another dedication page
    # (the book's front matter, as such a book prints it), then talks, each under a
    # title set a little larger than the text; the OCR sizes each title from its own
    # letters (12.1 to 13.9 here), so no two titles share a size.
    from libtext.models import ExtractedLine, ExtractedPage

    def line(text: str, y: float, size: float, kind: str = "body") -> ExtractedLine:
        return ExtractedLine(text=text, kind=kind, size=size, y=y, x0=60, x1=360)  # type: ignore[arg-type]

    def prose(tag: str, y0: float) -> list[ExtractedLine]:
        return [
            line(f"{tag} שורה {k} של גוף הדברים הנמשכת עוד כמה מילים כאן ושם", y0 + 14 * k, 10.0)
            for k in range(30)
        ]

    talks = ["כבודן של ישראל", "על מה אבדה הארץ", "ותרד עיני דמעה", "ימי בין המצרים",
             "אגודה אחת", "אבן שתיה", "על כן ציון במר תבכה", "לזכור את האב"]  # fmt: skip
    sizes = [12.1, 13.4, 12.7, 13.9, 12.4, 13.1, 12.9, 13.6]
    pages = [
        [line("דברו על לב ירושלים", 150, 40.0, "heading"), line("שיחות", 250, 18.0)],
        [line("לעלוי נשמת", 90, 17.0, "heading"), line("ר׳ לוי יצחק ב״ר יהודה ז״ל", 110, 14.0)],
        [line("פתח דבר", 90, 13.0, "heading"), *prose("פתיחה", 110)],
        [line("לעלוי נשמת", 105, 23.0, "heading"), line("האשה החשובה מרת שרה ע״ה", 136, 18.0)],
    ]
    inner = ["העין", "הלב", "המח", "הפה", "היד", "הרגל", "הקול", "הנפש"]
    for title, size, sub in zip(talks, sizes, inner, strict=True):
        pages.append([line(title, 90, size, "heading"), *prose(title, 110)])
        # Halfway down the next page, a title inside the talk, set flush right (the
        # talks' titles stand centred), as large as they are.
        rest = prose(f"{title} המשך", 60)
        at = ExtractedLine(text=sub, kind="heading", size=size, y=267, x0=373, x1=392)
        pages.append(
            [*rest[:15], at, *[ln.model_copy(update={"y": ln.y + 30}) for ln in rest[15:]]]
        )
    doc = ExtractedDocument(
        pages=[
            ExtractedPage(number=n, lines=ls, width=420, height=595)
            for n, ls in enumerate(pages, start=1)
        ],
        body_size=10.0,
    )
    segments = offline_outline(doc).outline_segments
    # The preface and every talk are chapters of their own, in order, all at one level
    # (a title flush right inside a talk is none); the dedications open none.
    assert [s.chapter_title for s in segments] == ["פתח דבר", *talks]
    assert len({s.segment_title.count(" — ") for s in segments}) == 1
