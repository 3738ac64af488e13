"""What stands above a page's columns, and a chapter's own contents on its title page.

Two causes that put something other than the book's first heading at the head of its
first chapter, each checked on a made-up page (real cases: ``test_books.py``'s
``test_first_chapter_starts_at_the_first_heading``):

* a title centred over a parallel text's two columns that falls just short of the
  gutter was read with the column on its side, after the other column;
* a chapter's title page listing the chapter's parts (two rows) was no contents page,
  so its rows opened the chapter's text.
"""

from __future__ import annotations

from libtext.headings._matter import contents_pages
from libtext.models import ExtractedDocument, ExtractedLine, ExtractedPage
from libtext.pdf._blocks import order_lines
from libtext.pdf._lines import RawLine

_HEBREW = "וַיֹּאמֶר אֱלֹהִים יְהִי אוֹר וַיְהִי אוֹר עַל פְּנֵי הַמָּיִם"
_ENGLISH = "And God said, Let there be light: and there was light upon the waters"


def _raw(text: str, size: float, y: float, x0: float, x1: float) -> RawLine:
    return RawLine(text=text, size=size, bold=False, y=y, x0=x0, x1=x1)


def _parallel(above: list[RawLine], *, hebrew_top: float = 150.0) -> list[RawLine]:
    """A Hebrew column at the left, its translation at the right, ``above`` on top."""
    rows = [
        line
        for n in range(8)
        for line in (
            _raw(f"{_HEBREW} {n}", 9.0, hebrew_top + 15 * n, 88.0, 272.0),
            _raw(f"{_ENGLISH} {n}", 11.0, 150.0 + 15 * n, 303.0, 487.0),
        )
    ]
    return [*above, *rows]


def test_a_title_short_of_the_gutter_is_read_before_both_columns() -> None:
    title = _raw("נֹחַ", 14.3, 109.0, 285.7, 299.7)  # centred on the text block, right of the river
    header = _raw("נֹחַ", 9.1, 74.0, 281.5, 290.4)
    order = order_lines(_parallel([title, header]), "R")
    texts = [ln.text for ln in order]
    assert {id(order[0]), id(order[1])} == {id(title), id(header)}, texts[:4]
    assert texts[2] == f"{_HEBREW} 0"  # then the Hebrew column, then its translation
    assert texts.index(f"{_HEBREW} 7") < texts.index(f"{_ENGLISH} 0")


def test_a_column_that_starts_higher_keeps_its_first_lines() -> None:
    # The translation's first lines, within its own edges, stand above the Hebrew's
    # first line (set lower): they stay at the head of their column.
    lines = _parallel([], hebrew_top=180.0)
    order = [ln.text for ln in order_lines(lines, "R")]
    assert order[:8] == [f"{_HEBREW} {n}" for n in range(8)]
    assert order[8:] == [f"{_ENGLISH} {n}" for n in range(8)]


def _line(text: str, y: float, *, kind: str = "body", size: float = 11.0) -> ExtractedLine:
    return ExtractedLine(text=text, kind=kind, size=size, y=y)  # type: ignore[arg-type]


def _prose(tag: str) -> list[ExtractedLine]:
    return [
        _line(f"{tag} שורה {k} של גוף הטקסט הנמשכת עוד כמה מילים כאן", 120 + 14 * k)
        for k in range(8)
    ]


def test_a_chapter_title_page_listing_its_parts_is_a_contents_page() -> None:
    contents = [
        _line("תוכן עניינים", 60, kind="heading", size=16),
        _line("פרק 1 / כללי ........ 2", 100),
        _line("פרק 2 / החייאה ........ 4", 120),
        _line("פרק 3 / מבוגרים ........ 5", 140),
        _line("פרק 4 / ילדים ........ 6", 160),
    ]
    opening = [
        _line("פרק 1", 50, kind="heading", size=18),
        _line("כללי", 80, kind="heading", size=18),
        _line("מבוא והנחיות כלליות 3", 110, size=18),
        _line("גישה כללית למטופל 4", 140, size=18),
    ]
    pages = [contents, opening, _prose("מבוא"), _prose("גישה"), _prose("החייאה"), _prose("ילדים")]
    doc = ExtractedDocument(
        pages=[ExtractedPage(number=k, lines=lines) for k, lines in enumerate(pages, start=1)],
        body_size=11.0,
    )
    found = contents_pages(doc)
    assert found.get(1) == {2, 3}  # the two rows, not the chapter's number and title
    assert 2 not in found


def test_a_rows_pieces_are_read_in_their_scripts_direction() -> None:
    # A Hebrew line in three pieces on a page read left to right (mostly English),
    # and an English line in pieces on a Hebrew page.
    hebrew = [_raw("לְפַרְעֹה", 25.0, 135.0, 58.0, 119.0), _raw("הָיִינוּ", 25.0, 135.0, 162.0, 202.0),
              _raw("עֲבָדִים", 25.0, 135.0, 244.0, 300.0)]  # fmt: skip
    assert [ln.text for ln in order_lines(hebrew, "L")] == ["עֲבָדִים", "הָיִינוּ", "לְפַרְעֹה"]
    english = [_raw("Egypt,", 12.0, 80.0, 300.0, 340.0), _raw("from", 12.0, 80.0, 200.0, 230.0),
               _raw("out", 12.0, 80.0, 100.0, 130.0)]  # fmt: skip
    assert [ln.text for ln in order_lines(english, "R")] == ["out", "from", "Egypt,"]


def _placed(text: str, y: float, x0: float, x1: float, *, kind: str = "body") -> ExtractedLine:
    return ExtractedLine(text=text, kind=kind, size=11.0, y=y, x0=x0, x1=x1)  # type: ignore[arg-type]


# A sefer's contents numbered in Hebrew letters: each chapter's row (its label and name
# at the right, its page number at the far left margin: one line across the gap, or the
# number a line of its own on a baseline a point off), the chapter's topics listed under
# it, short and without numbers; it goes on over a second page.
_CHAPTERS = [
    ("מאמר א׳ ­ מעלות התורה", "יא", ["מלך ועבד", "פעולות התורה על האדם"]),
    ("מאמר ב׳ ­ ביטול תורה", "כח", ["רוח וגשם", "דרכי היצר ותחבולותיו"]),
    ("מאמר ג׳ ­ התמדה בתורה", "לג", ["בואו חשבון", "כל התחלות קשות"]),
    ("מאמר ד׳ ­ עמלה של תורה", "מח", ["זוכה ומזכה"]),
    ("מאמר ה׳ ­ תורה לשמה", "נב", ["דרגות בלשמה", "לימוד תורה לשמה"]),
    ("מאמר ו׳ ­ כבוד חכמים", "סד", ["הזהרו בגחלתן"]),
    ("מאמר ז׳ ­ בין הזמנים", "עג", ["זמן מהו", "תעניות"]),
]


def _contents_page(
    chapters: list[tuple[str, str, list[str]]], *, title: bool
) -> list[ExtractedLine]:
    lines = [_placed("תוכן הענינים", 60, 200, 290, kind="heading")] if title else []
    y = 100.0
    for k, (row, number, topics) in enumerate(chapters):
        if k % 2:
            lines.append(_placed(row, y, 250, 400))
            lines.append(_placed(number, y - 1.5, 100, 112))
        else:
            lines.append(_placed(f"{row} {number}", y, 100, 400))
        for topic in topics:
            y += 14
            lines.append(_placed(topic, y, 400 - 5 * len(topic), 400))
        y += 20
    return lines


def _sefer_page(label: str, name: str) -> list[ExtractedLine]:
    head = [
        _placed(label, 80, 230, 270, kind="heading"),
        _placed(name, 100, 210, 290, kind="heading"),
    ]
    prose = [
        _placed(
            f"שורה {k} של גוף הטקסט הנמשכת עוד כמה מילים כאן ושם עד הסוף", 130 + 14 * k, 100, 400
        )
        for k in range(8)
    ]
    return head + prose


def test_a_contents_numbered_in_hebrew_letters_is_a_contents_page() -> None:
    # A book of 90 pages (the numbers are pages of it, not years); each chapter opens
    # with its label and name over its text.
    pages = [
        _contents_page(_CHAPTERS[:4], title=True),
        _contents_page(_CHAPTERS[4:], title=False),
        *(_sefer_page(row.split(" ­ ")[0], row.split(" ­ ")[1]) for row, _, _ in _CHAPTERS * 12),
    ]
    doc = ExtractedDocument(
        pages=[
            ExtractedPage(number=k, lines=lines, width=500, height=700)
            for k, lines in enumerate(pages, start=1)
        ],
        body_size=11.0,
    )
    found = contents_pages(doc)
    # Every line of both contents pages: title, rows, their numbers and the topics.
    assert found.get(0) == set(range(len(pages[0])))
    assert found.get(1) == set(range(len(pages[1])))
    assert all(k not in found for k in range(2, len(pages)))


def test_lines_ending_in_words_that_read_as_numerals_are_no_contents() -> None:
    # Running text whose lines end in words that are also Hebrew numerals (לא, מה, רב):
    # they run the measure, and their "numbers" do not rise row after row.
    words = ["לא", "מה", "רב", "לא", "מה", "כי", "רב", "לא"]
    text = [
        _placed(f"שורה של גוף הטקסט הנמשכת עוד כמה מילים כאן ושם {w}", 100 + 14 * k, 100, 400)
        for k, w in enumerate(words)
    ]
    pages = [text, *(_sefer_page("מאמר א׳", "לא") for _ in range(3))]
    doc = ExtractedDocument(
        pages=[
            ExtractedPage(number=k, lines=lines, width=500, height=700)
            for k, lines in enumerate(pages, start=1)
        ],
        body_size=11.0,
    )
    assert contents_pages(doc) == {}
