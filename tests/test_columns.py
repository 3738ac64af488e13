"""The gutter search of the fast engine on page geometry built here, glyph by glyph.

Each page is a list of printed lines; each line a list of words, each word drawn
right to left from a given x with letters 6 pt wide (font size 10). The text stream
is the words in reading order, with a space between them that pdfium inferred from
the gap (such spaces have font size 0, as in pdfium). ``find_gutter`` sees only what
it sees on a real page: the text, the segments and callbacks for boxes and sizes.
"""

from __future__ import annotations

from libtext.pdf._columns import find_gutter, split_at_gutter

LETTER = 6.0
SIZE = 10.0
GAP = 4.0  # a word space: 0.4 em
DOT = 1.5

Run = tuple[float, int, str, float]  # right edge x, glyphs, character, glyph width


class Page:
    def __init__(self) -> None:
        self.text = ""
        self.boxes: list[tuple[float, float]] = []
        self.segments: list[tuple[int, int]] = []

    def line(self, runs: list[Run]) -> None:
        """Runs in reading order (right to left), an inferred space between two."""
        start = len(self.text)
        for n, (right, count, ch, width) in enumerate(runs):
            if n:
                self.text += " "
                self.boxes.append((right + GAP / 2, right + GAP / 2))
            for k in range(count):
                self.text += ch
                self.boxes.append((right - (k + 1) * width, right - k * width))
        self.segments.append((start, len(self.text)))
        self.text += "\n"
        self.boxes.append((0.0, 0.0))

    def box(self, i: int) -> tuple[float, float]:
        return self.boxes[i]

    def size(self, i: int) -> float:
        return 0.0 if self.text[i].isspace() else SIZE

    def gutter(self) -> float | None:
        return find_gutter(self.text, self.segments, self.box, self.size)


def _column(right: float, lengths: list[int]) -> list[Run]:
    """Words set right to left from ``right``, one word space apart."""
    words = []
    for n in lengths:
        words.append((right, n, "א", LETTER))
        right -= n * LETTER + GAP
    return words


def _left(run: Run) -> float:
    return run[0] - run[1] * run[3]


def _two_column_page() -> tuple[Page, float]:
    """Twelve lines of two columns, words varied; and where the right column ends."""
    page = Page()
    edge = 380.0
    for k in range(12):
        a, b = 3 + k % 3, 2 + (k * 5) % 4
        right_col = _column(380, [a, b, 4, 3, 5 - k % 2])
        left_col = _column(190, [b, 4, a, 3, 2 + k % 3])
        page.line(right_col + left_col)
        edge = min(edge, _left(right_col[-1]))
    return page, edge


def test_two_columns_are_found_although_the_lines_middle_is_an_inferred_space() -> None:
    page, edge = _two_column_page()
    # The middle character of several lines is a space of size 0: measured there,
    # every word space would count as a gutter and the real one would drown.
    assert any(page.text[(a + b) // 2] == " " for a, b in page.segments)
    x = page.gutter()
    assert x is not None and 190 < x < edge
    pieces = split_at_gutter(page.text, page.segments, x, page.box)
    assert len(pieces) == 2 * len(page.segments)


def test_dot_leaders_of_a_table_of_contents_are_no_gutter() -> None:
    """Entries, dot leaders on a grid (a dot every 4.5 pt), page numbers at the left.

    The spaces between the dots are inferred (size 0); a line's em must come from a
    letter, or every gap between two dots would pass for a gutter.
    """
    page = Page()
    for k in range(12):
        title = _column(380, [4 + k % 3, 3, 2 + k % 2])
        first = _left(title[-1]) - 3 * GAP
        first -= first % 4.5
        dots: list[Run] = [(first - 4.5 * n, 1, ".", DOT) for n in range(int((first - 60) / 4.5))]
        page.line([*title, *dots, (50, 2, "1", LETTER)])
    assert any(page.text[(a + b) // 2] == " " for a, b in page.segments)
    assert page.gutter() is None


def test_one_justified_column_has_no_gutter() -> None:
    page = Page()
    for k in range(12):
        page.line(_column(380, [3 + k % 4, 5, 2 + k % 3, 4, 3, 6 - k % 3, 2, 4, 3, 5]))
    assert page.gutter() is None


def test_items_after_a_tab_stop_are_not_two_columns() -> None:
    """A list: a term, a tab to x=230, its description; short lines run across x.

    The long lines' gaps line up at the tab stop like a gutter, but the lines
    between them (an item without a tab, a description's continuation) have words
    across it: the page is one column.
    """
    page = Page()
    for k in range(10):
        term = _column(380, [5, 4 + k % 3, 3])
        description = _column(230, [5, 3, 4 + k % 2, 3, 4, 2])
        page.line(term + description)
        if k % 3 == 0:
            page.line(_column(380, [4, 5, 3, 6, 4]))  # runs across x=230
    assert page.gutter() is None
