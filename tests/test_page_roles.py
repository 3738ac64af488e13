"""Every line of a page in its role: header rows, side panels, front-matter numbers,
spreads. Each case is a made-up page whose geometry states the answer (real cases:
``realpdf_pages_score.py`` on the open set)."""

from __future__ import annotations

from libtext.pdf._layout import classify, roman_value
from libtext.pdf._lines import RawLine
from libtext.pdf._read import RawPage
from libtext.pdf._rows import join_rows
from libtext.pdf._spreads import find_spread, split_spreads

_WORDS = "החייאת מטופל מסתיימת לרוב בהשגת דופק או במעבר לשלב הבא של הטיפול בשטח"


def _raw(text: str, y: float, x0: float, x1: float, size: float = 11.5) -> RawLine:
    return RawLine(text=text, size=size, bold=False, y=y, x0=x0, x1=x1)


def _letters(k: int) -> str:
    """A word of two Hebrew letters, its own for each ``k`` (digits would read alike)."""
    return chr(0x05D0 + k % 22) + chr(0x05D0 + k // 22 % 22)


def _text(y0: float, rows: int, x0: float, x1: float, tag: str = "") -> list[RawLine]:
    """Lines of running text, each its own words (a rotation of the sentence)."""
    words = _WORDS.split()
    return [
        _raw(
            f"{tag}{' '.join(words[k % 13 :] + words[: k % 13])} {_letters(k)}", y0 + 15 * k, x0, x1
        )
        for k in range(rows)
    ]


def test_a_header_bar_beside_the_page_number_is_a_header() -> None:
    # A landscape manual: a title set large that changes with every section, on the
    # row of the page number (in the corner), far above the text.
    titles = ["פינוי מטופל", "דום לב במבוגר", "הכרזה על מוות", "דום לב בילדים"]
    pages = [
        RawPage(
            n,
            842.0,
            595.0,
            [
                _raw(f"{n % 3 + 1} {title}", 31.2, 372.0, 822.0, size=24.0),
                _raw(str(n + 20), 28.3, 15.0, 30.0, size=19.0),
                *_text(100.0, 20, 96.0, 507.0),
            ],
            1000,
        )
        for n, title in enumerate(titles, start=1)
    ]
    kinds = classify(pages, 11.5)
    for page_kinds in kinds:
        assert page_kinds[:2] == ["header", "page_number"]
        assert set(page_kinds[2:]) == {"body"}


def test_a_footer_of_several_rows_is_a_footer() -> None:
    # An organisation's address over its booklet's title over the page number, the
    # same on every page; each page's text its own.
    words = _WORDS.split()
    pages = [
        RawPage(
            n,
            595.0,
            842.0,
            [
                *_text(100.0, 30, 70.0, 520.0, tag=f"{words[n]} "),
                _raw("מגן דוד אדום | הפלדה 5, אור יהודה | www.example.org", 774.7, 36, 560, 9),
                _raw("מחלקת הדרכה | Training Department", 788.6, 130, 467, 9),
                _raw("אוגדן מידע למשתתף בקורס", 813.0, 403, 563, 9),
                _raw("גרסה 07.2023", 821.9, 460, 506, 9),
                _raw(f"עמוד {n} מתוך 16", 819.1, 43, 111, 12),
            ],
            1000,
        )
        for n in range(1, 6)
    ]
    for page_kinds in classify(pages, 11.5):
        assert set(page_kinds[:30]) == {"body"}
        assert set(page_kinds[30:]) <= {"footer", "page_number"}, page_kinds[30:]


def test_a_side_panel_is_margin_and_a_second_column_is_text() -> None:
    panel = [
        _raw("תרשים א | דום לב", 97.5, 600.0, 790.0, size=12.0),
        _raw("שימו לב!", 300.0, 750.0, 790.0, size=12.0),
        _raw("חל איסור מוחלט לדון בנושא", 315.0, 615.0, 790.0, size=11.0),
        _raw("רשאי להעלות את הנושא!", 330.0, 686.0, 790.0, size=11.0),
    ]
    with_panel = RawPage(1, 842.0, 595.0, [*panel, *_text(100.0, 20, 96.0, 507.0)], 1000)
    columns = RawPage(
        2, 842.0, 595.0, [*_text(100.0, 20, 440.0, 800.0), *_text(100.0, 20, 40.0, 400.0)], 1000
    )
    kinds = classify([with_panel, columns], 11.5)
    assert kinds[0][:4] == ["margin"] * 4
    assert set(kinds[0][4:]) == {"body"}
    assert set(kinds[1]) == {"body"}


def test_a_title_beside_a_contents_list_is_no_panel() -> None:
    # A chapter's opening page: its title set large beside the chapter's contents.
    title = [_raw("פרק 5", 48.0, 773.0, 808.0, size=18.0), _raw("טראומה", 90.0, 620.0, 808.0, 37)]
    rows = [
        _raw(f"נושא מספר {k} בפרק {100 + k}", 80.0 + 28 * k, 300.0, 507.0, 18) for k in range(12)
    ]
    body = RawPage(2, 842.0, 595.0, _text(100.0, 25, 96.0, 507.0), 1000)
    kinds = classify([RawPage(1, 842.0, 595.0, [*title, *rows], 1000), body], 11.5)
    assert "margin" not in kinds[0]


def test_roman_page_numbers() -> None:
    assert [roman_value(t) for t in ("xi", "XIV", "- iv -", "cxcix")] == [11, 14, 4, 199]
    assert [roman_value(t) for t in ("Xi", "mix", "vv", "", "iiii", "שלום")] == [None] * 6
    # Alone below the text, far apart from it: the front matter's page number.
    pages = [
        RawPage(n, 595.0, 842.0, [*_text(100.0, 30, 70.0, 520.0), _raw(r, 800.0, 325.0, 334.0)], 1)
        for n, r in ((1, "ix"), (2, "x"), (3, "xi"))
    ]
    assert [k[-1] for k in classify(pages, 11.5)] == ["page_number"] * 3


def _half(x0: float, x1: float, number: str, *, top: bool = True) -> list[RawLine]:
    folio = _raw(number, 30.0 if top else 560.0, (x0 + x1) / 2 - 5, (x0 + x1) / 2 + 5, 10.0)
    # Each page's text its own (a number alone would not tell two lines apart).
    word = _WORDS.split()[int(number) % len(_WORDS.split())]
    return [folio, *_text(70.0, 12, x0, x1, tag=f"{word} ")]


def test_a_spread_is_found_by_its_gutter_and_consecutive_folios() -> None:
    # A right-to-left book: the right page (12) is read first.
    page = RawPage(1, 840.0, 595.0, [*_half(40, 380, "13"), *_half(460, 800, "12")], 1)
    spread = find_spread(page)
    assert spread is not None
    assert spread.sides == ("right", "left") and spread.labels == ("12", "13")
    assert 380 <= spread.cut <= 460
    # A left-to-right book, numbers at the foot: the left page first.
    foot = [*_half(40, 380, "7", top=False), *_half(460, 800, "8", top=False)]
    spread = find_spread(RawPage(1, 840.0, 595.0, foot, 1))
    assert spread is not None and spread.sides == ("left", "right")
    # A running header carrying the number at its end is a folio too.
    header = [_raw("פרקי אבות יב", 30.0, 550.0, 700.0, 10.0), *_text(70.0, 12, 460, 800)]
    other = [_raw("יג פרק ראשון", 30.0, 140.0, 280.0, 10.0), *_text(70.0, 12, 40, 380)]
    spread = find_spread(RawPage(1, 840.0, 595.0, [*other, *header], 1))
    assert spread is not None and spread.labels == ("יב", "יג")


def test_no_spread_without_two_folios_a_gutter_or_a_landscape_page() -> None:
    two_columns = [*_text(70.0, 12, 40, 380), *_text(70.0, 12, 460, 800)]
    assert find_spread(RawPage(1, 840.0, 595.0, two_columns, 1)) is None
    apart = [*_half(40, 380, "12"), *_half(460, 800, "15")]
    assert find_spread(RawPage(1, 840.0, 595.0, apart, 1)) is None
    # Consecutive numbers that are no facing folios: one at the head of a page, the
    # other at the foot of the other (a chapter's number, a list's item).
    unlike = [*_half(40, 380, "2"), *_half(460, 800, "1", top=False)]
    assert find_spread(RawPage(1, 840.0, 595.0, unlike, 1)) is None
    across = [*_half(40, 380, "13"), *_half(460, 800, "12"), _raw(_WORDS, 300.0, 40, 800)]
    assert find_spread(RawPage(1, 840.0, 595.0, across, 1)) is None
    portrait = [*_half(20, 200, "13"), *_half(220, 400, "12")]
    assert find_spread(RawPage(1, 420.0, 595.0, portrait, 1)) is None


def test_spread_halves_are_classified_as_pages_of_their_own() -> None:
    # Three spreads: book pages 12 to 17, each half's number at its head.
    pages = [
        RawPage(
            n,
            840.0,
            595.0,
            [*_half(40, 380, str(11 + 2 * n)), *_half(460, 800, str(10 + 2 * n))],
            1,
        )
        for n in (1, 2, 3)
    ]
    units, spreads = split_spreads(pages)
    assert all(spreads) and len(units) == 6
    assert [u.lines[0].text for u in units] == [str(k) for k in range(12, 18)]
    # Numbered one after the other: the printed numbers follow them.
    assert [u.number for u in units] == list(range(1, 7))
    # Each half from its own left edge, its own width.
    assert all(ln.x0 >= 0 and ln.x1 <= u.width for u in units for ln in u.lines)
    for unit_kinds in classify(units, 11.5):
        assert unit_kinds[0] == "page_number" and set(unit_kinds[1:]) == {"body"}
    # A document without spreads is classified as it is.
    plain = [RawPage(1, 595.0, 842.0, _text(100.0, 10, 70, 520), 1)]
    assert split_spreads(plain) == (plain, [None])


def _sefer_page(n: int, last: RawLine) -> RawPage:
    """A page of a sefer: a number at its head, 20 lines, ``last`` under them."""
    number = _raw(str(n + 4), 30.0, 200.0, 210.0, 10.0)
    return RawPage(n, 420.0, 532.0, [number, *_text(200.0, 20, 71.0, 347.0), last], 1000)


def test_a_catchword_is_no_text_and_a_last_word_is() -> None:
    # The next page's first word under the last line, at its end (the left).
    catchword = _sefer_page(1, _raw("לומר", 497.0, 80.0, 110.0, 10.0))
    # A paragraph's last word starts where lines start (the right); a centred word
    # stands in the middle.
    widow = _sefer_page(2, _raw("לומר", 497.0, 317.0, 347.0, 11.5))
    centred = _sefer_page(3, _raw("סוף", 497.0, 195.0, 220.0, 11.5))
    kinds = classify([catchword, widow, centred], 11.5)
    assert [k[-1] for k in kinds] == ["footer", "body", "body"]


def test_a_misread_number_where_page_numbers_stand_is_one() -> None:
    # An OCR layer read one page's number wrong (and dashes as soft hyphens): it does
    # not follow the pages, but stands where the others do.
    pages = [_sefer_page(n, _raw(f"\u00ad{n + 4}\u00ad", 499.0, 200.0, 210.0)) for n in range(1, 6)]
    pages.append(_sefer_page(6, _raw("\u00ad18\u00ad", 499.0, 200.0, 210.0)))
    assert [k[-1] for k in classify(pages, 11.5)] == ["page_number"] * 6


def test_each_half_of_a_spread_is_read_top_to_bottom() -> None:
    # However the page's lines came (here: bottom to top), each half is read as a page.
    right, left = _half(460, 800, "12"), _half(40, 380, "13")
    spread = find_spread(RawPage(1, 840.0, 595.0, [*left, *right][::-1], 1))
    assert spread is not None
    assert [[ln.text for ln in half] for half in spread.halves] == [
        [ln.text for ln in right],
        [ln.text for ln in left],
    ]


def test_a_small_sentence_atop_one_page_is_no_running_header() -> None:
    # A boxed section title set small atop a page, met once, is text; a short small
    # title atop a page is a running header even met once.
    title = "Who is Required to Fulfill the Commandment to Retell the Exodus?"
    pages = [
        RawPage(1, 612.0, 792.0, [_raw(title, 42.8, 73.0, 538.0, 9.0), *_text(86.0, 30, 60, 550)], 1),
        RawPage(2, 612.0, 792.0, [_raw("הגדה של פסח", 42.8, 250, 350, 9.0), *_text(86.0, 30, 60, 550)], 1),
    ]  # fmt: skip
    assert [k[0] for k in classify(pages, 11.5)] == ["body", "header"]


def test_in_a_book_of_spreads_a_misread_folio_keeps_the_spread() -> None:
    pages = [
        RawPage(n, 840.0, 595.0, [*_half(40, 380, str(11 + 2 * n)), *_half(460, 800, str(10 + 2 * n))], 1)
        for n in (1, 2, 3)
    ]  # fmt: skip
    # The fourth spread's left folio read as 30 (for 19): its gutter is enough.
    pages.append(RawPage(4, 840.0, 595.0, [*_half(40, 380, "30"), *_half(460, 800, "18")], 1))
    units, spreads = split_spreads(pages)
    assert all(spreads) and len(units) == 8
    last = spreads[3]
    assert last is not None and last.sides == ("right", "left") and last.labels == ("18", "30")
    # Alone, without the book around it, that page is no spread.
    assert find_spread(pages[3]) is None


def _header_row(number_aside: bool, gap_below: float) -> list[RawLine]:
    """A running header's title (centred) and its page number at the right edge, on one
    baseline, over lines of running text ``gap_below`` points lower."""
    number = _raw("32", 45.7, 378.8, 392.2, size=13.2)
    number.aside = number_aside  # pdfium gave it in the title's run, set smaller, apart
    title = _raw("דברו על לב ירושלם", 47.2, 143.2, 276.0, size=15.3)
    return [number, title, *_text(47.2 + gap_below, 20, 27.0, 392.0)]


def test_a_header_keeps_its_page_number_given_in_its_run() -> None:
    lines = join_rows(_header_row(True, 31.0), "R", None)
    assert lines[0].text == "32 דברו על לב ירושלם"
    pages = [
        RawPage(n, 420.0, 595.0, join_rows(_header_row(True, 31.0), "R", None), 1000)
        for n in range(1, 4)
    ]
    assert [kinds[0] for kinds in classify(pages, 11.5)] == ["header"] * 3


def test_a_header_rows_fields_given_apart_stay_apart() -> None:
    # Written as fields of their own (not one run), or a row close over the text (a
    # line of text with a margin number beside it): not joined.
    assert len(join_rows(_header_row(False, 31.0), "R", None)) == 22
    assert len(join_rows(_header_row(True, 15.0), "R", None)) == 22


def test_a_last_line_at_the_texts_pitch_with_its_parts_at_both_ends_is_one_line() -> None:
    # A title page's imprint: the place at the right end, the year at the left, on
    # the page's last baseline, one line's pitch under the text: one line of it.
    text = _text(100.0, 6, 27.0, 392.0)
    place = _raw("ירושלים", 190.0, 330.0, 392.0)
    year = _raw('תשכ"ב.', 190.0, 27.0, 60.0)
    lines = join_rows([*text, year, place], "R", None)
    assert lines[-1].text == 'ירושלים תשכ"ב.'
    assert len(lines) == 7


def test_a_last_baseline_with_a_page_number_or_apart_stays_in_fields() -> None:
    text = _text(100.0, 6, 27.0, 392.0)
    # A page number beside a footer title, at the text's pitch.
    number = [_raw("ירושלים", 190.0, 330.0, 392.0), _raw("12", 190.0, 27.0, 40.0)]
    assert len(join_rows([*text, *number], "R", None)) == 8
    # Place and year in a footer band well below the text.
    band = [_raw("ירושלים", 260.0, 330.0, 392.0), _raw('תשכ"ב.', 260.0, 27.0, 60.0)]
    assert len(join_rows([*text, *band], "R", None)) == 8


def test_an_ocr_layers_running_header_set_large_in_changing_word_orders_is_a_header() -> None:
    # An OCR layer reads a running header's words in a different order on each page,
    # sizes it larger than the text, and its chapter letter and page number change:
    # the same words atop five pages are its header, not a heading on each page.
    chapters = ["א׳", "א׳", "ב׳", "ב׳", "ג׳"]
    numbers = ["קג", "קד", "קה", "קו", "קז"]
    words = ["אור", "עבודה", "לציון"]
    pages = []
    for n in range(5):
        shown = [*words[n % 3 :], *words[: n % 3]]
        header = " ".join([numbers[n], *shown[:2], "\u00ad", chapters[n], shown[2]])
        lines = [_raw(header, 40.0, 200.0, 400.0, size=16.5), *_text(80.0, 25, 40.0, 520.0)]
        pages.append(RawPage(n + 1, 595.0, 842.0, lines, 1000))
    for page_kinds in classify(pages, 11.5):
        assert page_kinds[0] == "header"
        assert set(page_kinds[1:]) == {"body"}


def _ocr(text: str, y: float, x0: float, x1: float, size: float) -> RawLine:
    return RawLine(text=text, size=size, bold=False, y=y, x0=x0, x1=x1, ocr=True)


def test_an_ocr_layers_large_specks_marks_and_web_stamps_are_no_headings() -> None:
    # An OCR layer's page: running text (its sizes a little uneven, as OCR sizes are),
    # a title set large with space above it, and large lines that do not read as a
    # title's words: a speck read as a Latin letter in the margin, a stray mark, a
    # misread page number between marks, a fragment ending in a comma, and the stamp a
    # web site set on the scan (a line over the site's address).
    def body(y0: float, rows: int) -> list[RawLine]:
        return [
            _ocr(ln.text, ln.y, ln.x0, ln.x1, 11.0 + 0.3 * (k % 3))
            for k, ln in enumerate(_text(y0, rows, 60.0, 360.0))
        ]

    title = _ocr("חכמה בינה ודעת", 118.0, 160.0, 260.0, 15.0)
    noise = [
        _ocr("L", 40.0, 14.0, 19.0, 15.0),
        _ocr("+\u00ad", 95.0, 200.0, 207.0, 15.0),
        _ocr("\u00ad80\u00ad", 420.0, 163.0, 186.0, 15.0),
        _ocr("מ״ו,", 460.0, 128.0, 144.0, 15.0),
    ]
    stamp = [_ocr("הועתק והוכנס לאינטרנט", 480.0, 168.0, 262.0, 15.0),
             _ocr("www.hebrewbooks.org", 492.0, 170.0, 259.0, 9.0)]  # fmt: skip
    lines = [*noise[:2], title, *body(140.0, 16), *noise[2:], *stamp]
    pages = [RawPage(1, 420.0, 523.0, lines, 1000)] + [
        RawPage(n, 420.0, 523.0, body(60.0, 25), 1000) for n in range(2, 5)
    ]
    kinds = dict(zip([ln.text for ln in lines], classify(pages, 11.0)[0], strict=True))
    assert kinds["חכמה בינה ודעת"] == "heading"
    assert [t for t in [ln.text for ln in [*noise, *stamp]] if kinds[t] == "heading"] == []


def test_an_ocr_layers_running_header_misread_differently_on_each_page_is_a_header() -> None:
    # A scanned sefer's running header (``אבי עב״ד הנחל``) set large, that the OCR
    # misreads a letter or two differently on each page, so that no two pages read it
    # alike: its words, each alone or a letter off, top most pages.
    readings = ["אבי אנ״כ הנחל", "חכי אנ״כ הנחל", "אפי אנ״פ הנחל", "חכי אג׳ב הנחל",
                "אבי אנ׳כ הנהל.", "חכי עב״ד הנחל"]  # fmt: skip
    pages = []
    for n, header in enumerate(readings):
        head = _raw(header, 25.0, 130.0, 295.0, size=13.0)
        head.ocr = True
        lines = [head, *_text(60.0, 25, 40.0, 400.0)]
        pages.append(RawPage(n + 1, 420.0, 532.0, lines, 1000))
    for page_kinds in classify(pages, 11.5):
        assert page_kinds[0] == "header"
        assert set(page_kinds[1:]) == {"body"}


def test_a_numbered_title_atop_pages_is_no_misread_header() -> None:
    # Chapter titles atop their pages (``פרק א``, ``פרק ב`` ...), set large: the word
    # tops many pages, but a numbered title is a heading, not a running header.
    pages = []
    for n, title in enumerate(["פרק א", "פרק ב", "פרק ג", "פרק ד", "פרק ה"]):
        head = _raw(title, 25.0, 250.0, 290.0, size=16.0)
        head.ocr = True
        lines = [head, *_text(60.0, 25, 40.0, 400.0)]
        pages.append(RawPage(n + 1, 420.0, 532.0, lines, 1000))
    assert all(page_kinds[0] != "header" for page_kinds in classify(pages, 11.5))
