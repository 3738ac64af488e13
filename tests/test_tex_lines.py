"""Two causes found on pages set with LuaLaTeX (``tests/pages/tex_*``), each on a
made-up or recorded line:

* LuaTeX writes a pointed cluster it draws as one glyph (a letter, its dagesh and its
  vowel) as a replacement text (/ActualText); pdfium hands the line over in pieces
  with a space of no width at each such text's bounds, which cut the word in two
  (``הַמָּ יִם``). Word 365 writes each pointed letter so;
* notes set far below two columns, under the right one alone, were read as that
  column's last lines, before the left column: no longer notes (with a running
  header across the page, and without one);
* a running header drawn as one run without spaces (title and page number apart by
  glue) was one line; a pointed header's pieces given out of order were cut in the
  middle of a word; a page's numeral of two letters in visual order stayed reversed.
"""

from __future__ import annotations

import unicodedata

import pytest

from libtext.pdf._blocks import order_lines
from libtext.pdf._compiled import compiled_modules
from libtext.pdf._lines import RawLine
from libtext.pdf._visual import Glyph, visual_parts

# pdfium's characters of one printed line of Genesis 1:2 (Ezra SIL, 12 pt), in its
# order, with their advance boxes and ink centres (x from the line's left end): the
# spaces of no width are pdfium's, at the bounds of the replacement texts.
_LINE = [
    ("ל", 54.98, 62.81, 58.82),
    ("\u05b7", 64.27, 66.89, 65.58),
    ("ע", 62.82, 69.90, 66.38),
    ("ת", 73.99, 81.86, 77.70),
    ("\u05b6", 83.61, 86.64, 85.13),
    ("פ", 81.86, 89.22, 85.48),
    ("\u05b6", 91.56, 94.59, 93.08),
    ("ח", 89.23, 97.28, 93.28),
    ("\u05b7", 101.67, 104.28, 102.97),
    ("ר", 97.29, 105.35, 101.16),
    ("\u05b0", 108.56, 109.65, 109.11),
    ("מ", 105.37, 113.12, 109.30),
    ("ם", 117.22, 125.10, 121.16),
    ("י", 125.10, 129.13, 127.06),
    ("\u05b4", 132.34, 133.43, 132.89),
    ("ה", 129.14, 137.18, 133.19),
    ("\u05b9", 136.78, 145.91, 141.00),
    ("ל", 136.78, 145.91, 141.00),
    ("\u05b1", 146.78, 151.77, 149.28),
    ("א", 145.91, 153.04, 149.43),
    (" ", 43.57, 43.57, 43.57),
    ("פ", 43.88, 50.50, 47.19),
    ("\u05bc", 43.88, 50.50, 47.19),
    ("\u05b0", 43.88, 50.50, 47.19),
    (" ", 28.14, 28.14, 28.14),
    ("\u05b7", 25.53, 28.14, 26.84),
    ("ה", 23.21, 31.25, 27.25),
    ("י", 35.35, 39.38, 37.31),
    ("\u05b5", 39.97, 42.99, 41.48),
    ("נ", 39.38, 43.57, 41.47),
    (" ", 15.37, 15.37, 15.37),
    ("מ", 16.05, 22.55, 19.30),
    ("\u05bc", 16.05, 22.55, 19.30),
    ("\u05b8", 16.05, 22.55, 19.30),
    (" ", 3.46, 3.46, 3.46),
    (".", 0.00, 3.46, 1.72),
    ("ם", 3.46, 11.33, 7.39),
    ("\u05b4", 12.79, 13.88, 13.34),
    ("י", 11.33, 15.36, 13.29),
]


def test_a_space_of_no_width_between_touching_letters_is_no_word_space() -> None:
    glyphs = [Glyph(ch, x0, x1, c, index=k) for k, (ch, x0, x1, c) in enumerate(_LINE)]
    parts = visual_parts(glyphs, 12.0, "R")
    assert len(parts) == 1
    want = "אֱלֹהִים מְרַחֶפֶת עַל פְּנֵי הַמָּיִם."
    assert unicodedata.normalize("NFC", parts[0].text) == unicodedata.normalize("NFC", want)


def test_a_space_of_no_width_still_parts_words_that_stand_apart() -> None:
    # The same space between two words a word space apart (a third of an em).
    glyphs = [
        Glyph("ב", 0.0, 7.0, 3.5, index=0),
        Glyph("א", 7.0, 14.0, 10.5, index=1),
        Glyph(" ", 14.0, 14.0, 14.0, index=2),
        Glyph("ד", 18.0, 25.0, 21.5, index=3),
        Glyph("ג", 25.0, 32.0, 28.5, index=4),
    ]
    assert [p.text for p in visual_parts(glyphs, 12.0, "R")] == ["גד אב"]


def _raw(text: str, size: float, y: float, x0: float, x1: float) -> RawLine:
    return RawLine(text=text, size=size, bold=False, y=y, x0=x0, x1=x1)


def test_notes_below_the_right_column_come_after_both_columns() -> None:
    words = "מאימתי קורין את שמע בערבית משעה שהכהנים נכנסים"
    right = [_raw(f"{words} {n}", 11.0, 100.0 + 14 * n, 220.0, 380.0) for n in range(8)]
    left = [_raw(f"{words} {n + 8}", 11.0, 100.0 + 14 * n, 40.0, 200.0) for n in range(6)]
    notes = [_raw(f"{n} ראה ברכות יג, א.", 9.0, 520.0 + 11 * n, 300.0, 380.0) for n in (1, 2)]
    # The running header across the page: no river runs from its top to its bottom.
    header = _raw("1 משנה ברכות", 11.0, 60.0, 40.0, 380.0)
    order = [ln.text for ln in order_lines([header, *right, *left, *notes], "R")]
    assert order == [ln.text for ln in (header, *right, *left, *notes)]


def test_notes_below_the_right_column_come_after_both_without_a_line_across() -> None:
    # No running header set across the page (its title and page number two items at
    # its corners, or none): a river runs from the page's top to its foot.
    words = "מאימתי קורין את שמע בערבית משעה שהכהנים נכנסים"
    right = [_raw(f"{words} {n}", 11.0, 100.0 + 14 * n, 220.0, 380.0) for n in range(8)]
    left = [_raw(f"{words} {n + 8}", 11.0, 100.0 + 14 * n, 40.0, 200.0) for n in range(6)]
    notes = [_raw(f"{n} ראה ברכות יג, א.", 9.0, 520.0 + 11 * n, 300.0, 380.0) for n in (1, 2)]
    foot = _raw("12", 11.0, 560.0, 370.0, 380.0)
    corners = [_raw("13", 11.0, 60.0, 370.0, 380.0), _raw("משנה ברכות", 11.0, 60.0, 40.0, 95.0)]
    text = [ln.text for ln in (*right, *left, *notes)]
    for page in ([*right, *left, *notes, foot], [*corners, *right, *left, *notes]):
        got = [ln.text for ln in order_lines(page, "R")]
        assert [t for t in got if t in text] == text


class _Boxes:
    """pdfium's character boxes, all a reader is asked here."""

    def __init__(self, boxes: dict[int, tuple[float, float]]) -> None:
        self.boxes = boxes

    def box(self, i: int) -> tuple[float, float]:
        return self.boxes[i]

    def baseline(self, i: int) -> float:
        return 40.0 if i < 100 else 140.0  # the items of a second line: from 100 on


@pytest.mark.skipif(
    "_read" in compiled_modules(),
    reason="a stand-in reader: the compiled twin takes only its own; the pure-Python run covers it",
)
def test_a_running_headers_pieces_out_of_order_are_one_item() -> None:
    from libtext.pdf._read import _items, _split_on_gaps

    # A LuaTeX header (9 pt) handed over as: the title's first letters, the page's
    # numeral at the right corner, the title's last letters, the verse number at the
    # left: three items, the title's two pieces one of them (recorded geometry).
    text = "באר גי תי 5"
    x = {0: 297.0, 1: 290.0, 2: 284.0, 4: 492.0, 5: 496.5, 7: 272.0, 8: 277.0, 10: 74.0}
    boxes = {i: (lo, lo + 4.0) for i, lo in x.items()} | {
        3: (284, 284),
        6: (498, 498),
        9: (279, 279),
    }
    reader = _Boxes(boxes)
    parts = _split_on_gaps(reader, text, list(range(len(text))), 9.0)  # type: ignore[arg-type]
    items = _items(reader, parts, 9.0)  # type: ignore[arg-type]
    assert [[text[p[0] : p[-1] + 1] for p in item] for item in items] == [
        ["באר", "תי"],
        ["גי"],
        ["5"],
    ]
    # Pieces in the same place on two baselines (a title over its text) stay apart.
    reader.boxes |= {100: (297.0, 301.0), 101: (290.0, 294.0), 102: (284.0, 288.0)}
    below = [[100, 101], [102]]
    assert _items(reader, [[0, 1, 2], *below], 9.0) == [[[0, 1, 2]], below]  # type: ignore[arg-type]


@pytest.mark.skipif(
    "_read" in compiled_modules(),
    reason="a stand-in reader: the compiled twin takes only its own; the pure-Python run covers it",
)
def test_a_glued_running_header_is_cut_where_its_ink_parts() -> None:
    from libtext.pdf._read import _split_on_gaps

    # LuaTeX draws "משנה ברכות" and the page number as one run, in visual order, no
    # space character anywhere: the title at the left corner, "1" at the right.
    text = "תוכרבהנשמ1"
    lo = [45.0 + 5.0 * k for k in range(9)] + [370.0]
    reader = _Boxes({i: (x, x + 4.5) for i, x in enumerate(lo)})
    parts = _split_on_gaps(reader, text, list(range(len(text))), 10.9)  # type: ignore[arg-type]
    assert ["".join(text[i] for i in p) for p in parts] == ["תוכרבהנשמ", "1"]
    # A formula's glyphs are not drawn along the line: a jump is no gap there.
    jumbled = [45.0, 300.0, 50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 80.0, 370.0]
    reader = _Boxes({i: (x, x + 4.5) for i, x in enumerate(jumbled)})
    assert len(_split_on_gaps(reader, text, list(range(len(text))), 10.9)) == 1  # type: ignore[arg-type]


@pytest.mark.skipif(
    "_read" in compiled_modules(),
    reason="a stand-in reader: the compiled twin takes only its own; the pure-Python run covers it",
)
def test_a_two_letter_numeral_in_visual_order_is_read_from_its_glyphs() -> None:
    from libtext.pdf._read import _HEBREW, _needs_geometry

    # "יג" (13) as LuaTeX draws it: the stream gives "גי", its first letter left.
    visual = _Boxes({0: (492.0, 496.0), 1: (496.5, 498.0)})
    logical = _Boxes({0: (496.5, 498.0), 1: (492.0, 496.0)})
    for reader, want in ((visual, True), (logical, False)):
        got = _needs_geometry(reader, "גי", (492.0, 498.0), 0, 2, _HEBREW.search("גי"))  # type: ignore[arg-type]
        assert got is want
