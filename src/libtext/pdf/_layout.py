"""Tell running headers, page numbers, footers, footnotes and headings from body text.

The rules look at the whole document first (its body font size, its text column,
which top and bottom lines repeat from page to page, how printed page numbers follow
the page index) and then at each page, so they carry over to other fonts, page sizes
and layouts:

* header: the topmost row of a page (by position, wherever its blocks put it in the
  reading order), in the top band, smaller than body text and short, repeated in the
  same size and weight on other pages (two will do in a short document), or repeated
  by a heading lower on the same page (a running header repeating the chapter name
  is not a heading); the row's other short parts share its role (a title beside the
  page number), and rows below it in the band that recur on many pages too;
* page number: a lone number (digits or a Hebrew numeral; a roman one alone apart)
  at the top or bottom whose value follows the page index like the other pages'
  numbers do, or that stands apart, or where the other pages' numbers stand;
* footer: a bottom line repeated on other pages (and the rows above it in the band
  that recur), or a catchword (the next page's first word under the last line);
* margin: a short note outside the text column's edges beside a text line (a
  siddur's source reference), a lone line number smaller than its line and apart
  from it, or a light side panel of short items beside the page's text;
* footnote: the block of smaller lines below the last body-size line, when it starts
  with a note marker (or continues the previous page's notes);
* heading: larger than body text, or bold (when body text is not) and short and
  centered, or a lone centered heading word with a number (``פרק ג``); in an OCR
  layer, whose engine sizes each line from its own letters, larger than its own
  page's text and short, standing apart from the lines above it in its column.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from statistics import median

from libtext.hebrew import parse_numeral
from libtext.models import LineKind
from libtext.pdf._letters import script_letters
from libtext.pdf._lines import TITLE_WORDS
from libtext.pdf._read import RawLine, RawPage

__all__ = ["classify", "dominant_size", "side_notes_in_place"]

# A running header that never recurs is this many words at most.
_HEADER_WORDS = 8
_TOP_BAND = 0.12
_BOTTOM_BAND = 0.86
_NEAR_BAND = 0.2  # a page number that follows the pages may stand this far in
_SMALL = 0.9  # at most this share of body size: header
_NOTE = 0.94  # at most this share of body size: footnote
_NOTE_APART = 1.5  # the first note stands this many text pitches below the text, at least
_LARGE = 1.12  # at least this share: heading whatever its length
_SLIGHTLY = 1.04  # at least this share: heading when short

_DIGITS = re.compile(r"\d+")
# Dashes around a page number may be soft hyphens (U+00AD), as text layers write them.
_PAGE_NUM = re.compile(
    r"^[\s\-\u00ad–—.|]*(?:(?:עמוד|עמ['׳]|דף|page|p\.)\s*)?"
    r"(?P<num>\d{1,4}|[א-ת]{1,4}['\"׳״]?[א-ת]?)[\s\-\u00ad–—.|]*$",
    re.IGNORECASE,
)
_NOTE_MARKER = re.compile(
    r"^\s*(?:[(\[]\s*[\dא-ת*]{1,3}\s*[)\]]|[\dא-ת]{1,3}\s*[).]|\*+|\d{1,3}(?=\s)|[¹²³⁰-⁹]+)"
)


def dominant_size(pages: list[RawPage]) -> float:
    """The body font size: the size that carries the most characters."""
    weights: Counter[float] = Counter()
    for page in pages:
        for ln in page.lines:
            weights[round(ln.size * 2) / 2] += len(ln.text)
    return weights.most_common(1)[0][0] if weights else 0.0


def _script_sizes(pages: list[RawPage]) -> tuple[float, float]:
    """The body size of each script's text (Hebrew, Latin): the size that carries most
    of its letters. A translation set smaller beside the Hebrew may carry the page's
    most letters; a Hebrew running header is small beside the Hebrew text."""
    weights: tuple[Counter[float], Counter[float]] = (Counter(), Counter())
    for page in pages:
        for ln in page.lines:
            hebrew, latin = script_letters(ln.text)
            if hebrew or latin:
                weights[0 if hebrew >= latin else 1][round(ln.size * 2) / 2] += hebrew + latin
    he, la = (w.most_common(1)[0][0] if w else 0.0 for w in weights)
    return he, la


def _own_small(ln: RawLine, sizes: tuple[float, float]) -> bool:
    """Whether ``ln`` is small beside the body text of its own script."""
    hebrew, latin = script_letters(ln.text)
    own = sizes[0 if hebrew >= latin else 1]
    return own > 0 and ln.size <= own * _SMALL


def _groups(lines: list[RawLine]) -> list[list[int]]:
    """Indices of lines sharing a baseline, top to bottom of the page.

    By position, not reading order: a page read block by block (a side panel before
    the text, columns one after the other) ends its reading order in mid-page, and
    its running header and footer are the top and bottom rows wherever they are read.
    """
    out: list[list[int]] = []
    for i in sorted(range(len(lines)), key=lambda k: lines[k].y):
        ln = lines[i]
        if out and abs(lines[out[-1][0]].y - ln.y) <= 0.3 * max(ln.size, lines[out[-1][0]].size):
            out[-1].append(i)
        else:
            out.append([i])
    for row in out:
        row.sort()
    return out


_HEADING_LINE: list[re.Pattern[str]] = []


def _heading_line() -> re.Pattern[str]:
    """:data:`libtext.headings.HEADING_LINE`, imported on first use (the headings layer
    is not loaded with the PDF reader) and kept: a function's own import statement
    costs more than the match, once per line of a book."""
    if not _HEADING_LINE:
        from libtext.headings import HEADING_LINE

        _HEADING_LINE.append(HEADING_LINE)
    return _HEADING_LINE[0]


def _key(text: str) -> str:
    return _DIGITS.sub("#", " ".join(text.split()))


def _bare_key(text: str) -> str:
    """A running header's text without the page number at either end (``פט``, ``12``)
    that odd and even pages put on opposite sides. Numbered headings keep their
    numbers (``שאלה 1`` atop one page, ``שאלה 2`` atop the next are not a header)."""
    words = text.split()
    if _heading_line().match(" ".join(words)):
        return " ".join(words)
    for end in (0, -1):
        if len(words) > 1 and len(words[end]) <= 4 and page_number_value(words[end]) is not None:
            del words[end]
    return _key(" ".join(words))


def _word_key(text: str) -> str:
    """A running header's words in any order, without numbers and one- or two-letter
    words, each once: an OCR layer's header reads its words in varying orders (a word
    now and then twice) and its chapter letter (``ב׳``) and page number change from
    page to page. Empty unless two words stay.
    """
    words = sorted(
        {
            w
            for w in text.split()
            if sum(ch.isalpha() for ch in w) >= 3 and page_number_value(w) is None
        }
    )
    return " ".join(words) if len(words) >= 2 else ""


def _recurring_words(key: str, top_words: Counter[str], least: int) -> bool:
    """Whether a top line's word key is a running header's that recurs ``least`` times,
    give or take one word: an OCR layer misreads a word of it now and then (a second,
    misspelt copy of a word, a page number read as a word) or splits the header in two
    around its page number. Two words of the recurring key, at least, are shared.
    """
    if top_words[key] >= least:
        return True
    words = set(key.split())
    for other, times in top_words.items():
        if times >= least and other:
            theirs = set(other.split())
            if len(words & theirs) >= 2 and len(words ^ theirs) <= 1:
                return True
    return False


def _header_words(text: str) -> set[str]:
    """A top line's words of three letters or more, by their letters (marks dropped),
    numbers left out."""
    return {
        "".join(ch for ch in w if ch.isalpha())
        for w in text.split()
        if sum(ch.isalpha() for ch in w) >= 3 and page_number_value(w) is None
    }


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one letter at most (changed, added or dropped)."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long = sorted((a, b), key=len)
    return any(long[:k] + long[k + 1 :] == short for k in range(len(long)))


def _misread_header(text: str, top_single: Counter[str], least: int) -> bool:
    """An OCR layer's running header misread differently on each page (``אבי עב״ד
    הנחל`` read ``חכי אנ״כ הנחל``, ``אפי אנ״פ הנחל``, or in pieces): no two pages
    read it alike, but its words, each alone, top ``least`` pages or more. A short
    line most of whose words do so is the header; a numbered title atop its page
    (``פרק ב``) is not, whatever tops other pages."""
    words = text.split()
    if len(words) > _HEADER_WORDS or _heading_line().match(" ".join(words)):
        return False
    own = _header_words(text)
    # A word misread by a letter on this page counts as the word it misreads.
    common = [w for w, n in top_single.items() if n >= least]
    met = sum(1 for w in own if top_single[w] >= least or any(_one_edit(w, c) for c in common))
    return bool(own) and 2 * met >= len(own) and (met >= 2 or len(words) <= 2)


def _style_key(ln: RawLine) -> tuple[str, float, bool]:
    # A running header looks the same on every page; a chapter heading atop a page
    # that the running header repeats usually does not (it is larger or bold).
    # Numbered headings keep their digits: "פרק 1" and "פרק 2" are not one header.
    key = _STYLE_TEXTS.get(ln.text)
    if key is None:
        text = " ".join(ln.text.split())
        key = _STYLE_TEXTS[ln.text] = text if _heading_line().match(text) else _key(text)
    return key, round(ln.size), ln.bold


# _style_key's text of a line's text: a running header's comes again on every page
# (and is asked for again by each rule). Emptied after each classify().
_STYLE_TEXTS: dict[str, str] = {}


_ROMAN = re.compile(
    r"^[\s\-–—.|]*+(?P<num>c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))[\s\-–—.|]*+$",
    re.IGNORECASE,
)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def roman_value(text: str) -> int | None:
    """The value of a page number in roman numerals (``xi``, ``- IV -``), else None.

    A book's front matter is numbered so; only a lone number standing apart from the
    text is read as one (a roman numeral is also a word: ``I``, ``mix``). One case
    throughout: ``Xi`` is not a numeral.
    """
    m = _ROMAN.match(text)
    if m is None or not m.group("num"):
        return None
    num = m.group("num")
    if num not in (num.lower(), num.upper()):
        return None
    values = [_ROMAN_VALUES[c] for c in num.lower()]
    return sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0], strict=True))


def page_number_value(text: str) -> int | None:
    """The value of a printed page number (``12``, ``- 12 -``, ``קכ"ג``), else None."""
    m = _PAGE_NUM.match(text)
    if not m:
        return None
    num = m.group("num")
    if num.isdigit():
        return int(num)
    value: int | None = parse_numeral(num, spelled=False)
    return value


def classify(pages: list[RawPage], body: float) -> list[list[LineKind]]:
    """The kind of every line of every page (same shapes as ``page.lines``)."""
    kinds: list[list[LineKind]] = [["body"] * len(p.lines) for p in pages]
    if not body:
        return kinds
    groups = [_groups(p.lines) for p in pages]
    try:
        _mark_margins(pages, groups, kinds, body)
        _mark_numbers_in_place(pages, groups, kinds)
        _mark_stacked(pages, groups, kinds, body)
    finally:
        _STYLE_TEXTS.clear()
    _mark_catchwords(pages, groups, kinds)
    _mark_side_notes(pages, kinds, body)
    _mark_panels(pages, kinds, body)
    _mark_footnotes(pages, kinds, body)
    _mark_headings(pages, kinds, body)
    return kinds


def _mark_margins(
    pages: list[RawPage], groups: list[list[list[int]]], kinds: list[list[LineKind]], body: float
) -> None:
    top_keys: Counter[tuple[str, float, bool]] = Counter()
    bottom_keys: Counter[tuple[str, float, bool]] = Counter()
    top_texts: Counter[str] = Counter()
    top_words: Counter[str] = Counter()
    top_single: Counter[str] = Counter()  # words atop pages, each counted once a page
    bottom_texts: Counter[str] = Counter()
    offsets: Counter[int] = Counter()
    for page, grp in zip(pages, groups, strict=True):
        if not grp:
            continue
        for i in grp[0]:
            top_keys[_style_key(page.lines[i])] += 1
        for i in grp[-1]:
            bottom_keys[_style_key(page.lines[i])] += 1
        top_texts.update({_bare_key(page.lines[i].text) for i in grp[0]})
        top_words.update({_word_key(page.lines[i].text) for i in grp[0]})
        top_single.update({w for i in grp[0] for w in _header_words(page.lines[i].text)})
        bottom_texts.update({_bare_key(page.lines[i].text) for i in grp[-1]})
        for g in {0, len(grp) - 1}:
            for i in grp[g]:
                value = page_number_value(page.lines[i].text)
                if value is not None:
                    offsets[value - page.number] += 1
    common_offset, support = offsets.most_common(1)[0] if offsets else (0, 0)
    # A running header or footer repeats on most pages: three will do in a book, two
    # in a short document.
    repeated = 2 if len(pages) <= 5 else 3
    pitch = _body_pitch(pages, body)
    sizes: tuple[float, float] | None = None  # _script_sizes, read when a line asks

    for p, (page, grp) in enumerate(zip(pages, groups, strict=True)):
        lines = page.lines
        if not grp:
            continue
        for g_pos in sorted({0, len(grp) - 1}):
            at_top = g_pos == 0
            group = grp[g_pos]
            in_band = all(
                (lines[i].y < _TOP_BAND * page.height)
                if at_top
                else (lines[i].y > _BOTTOM_BAND * page.height)
                for i in group
            )
            if len(grp) == 1:
                continue
            if not in_band:
                # A lone page number a little inside the band: its value follows the
                # pages' like the others' do.
                near = all(
                    (lines[i].y < _NEAR_BAND * page.height)
                    if at_top
                    else (lines[i].y > (1 - _NEAR_BAND) * page.height)
                    for i in group
                )
                if near and len(group) == 1 and support >= 3:
                    value = page_number_value(lines[group[0]].text)
                    if value is not None and value - page.number == common_offset:
                        kinds[p][group[0]] = "page_number"
                continue
            # A line of text on the baseline: a small item beside it is a note in the
            # margin, not a running header, unless it repeats on other pages.
            texty = any(
                abs(lines[i].size - body) < 0.5 and len(lines[i].text.split()) >= 6 for i in group
            )
            neighbour = grp[1] if at_top else grp[-2]
            gap = abs(lines[neighbour[0]].y - lines[group[0]].y)
            for i in group:
                ln = lines[i]
                value = page_number_value(ln.text)
                if ln.size > body * _SLIGHTLY:
                    # Larger than the text (an OCR layer's sizes vary from line to
                    # line): a running header or page number only if the same text
                    # tops (or ends) many pages, or the number follows the pages.
                    if value is not None and value - page.number == common_offset and support >= 3:
                        kinds[p][i] = "page_number"
                    elif value is None and (top_texts if at_top else bottom_texts)[
                        _bare_key(ln.text)
                    ] >= max(3, repeated):
                        kinds[p][i] = "header" if at_top else "footer"
                    elif (
                        at_top
                        and value is None
                        and len(ln.text.split()) <= _HEADER_WORDS
                        and (key := _word_key(ln.text))
                        and _recurring_words(key, top_words, max(3, repeated))
                    ):
                        kinds[p][i] = "header"  # an OCR layer's header, its words reordered
                    elif (
                        at_top
                        and ln.ocr
                        and value is None
                        and _misread_header(ln.text, top_single, 3)
                    ):
                        kinds[p][i] = "header"
                    continue
                if value is not None and (
                    (value - page.number == common_offset and support >= 2) or gap > 1.25 * pitch
                ):
                    kinds[p][i] = "page_number"
                    continue
                if len(group) == 1 and gap > 1.25 * pitch and roman_value(ln.text) is not None:
                    kinds[p][i] = "page_number"  # front matter's number, alone apart
                    continue
                repeats = (top_keys if at_top else bottom_keys)[_style_key(ln)] >= repeated
                if at_top and not repeats:
                    # The running header of a chapter's first page repeats its heading.
                    key = _key(ln.text)
                    repeats = any(
                        _key(lines[j].text) == key for j in range(group[-1] + 1, len(lines))
                    )
                # Small alone does not make a header of a long line met once: a
                # running title is a few words, a boxed section title a sentence.
                short = len(ln.text.split()) <= _HEADER_WORDS
                small = ln.size <= body * _SMALL
                if not small and at_top and short and not texty:
                    if sizes is None:
                        sizes = _script_sizes(pages)
                    small = _own_small(ln, sizes)
                if at_top and (repeats or (small and not texty and short)):
                    kinds[p][i] = "header"
                elif not at_top and repeats:
                    kinds[p][i] = "footer"
            steps = [lines[b[0]].y - lines[a[0]].y for a, b in itertools.pairwise(grp)]
            if gap > 1.3 * median(steps):  # a row apart, not the end of a block of text
                _complete_row(lines, group, kinds[p], "header" if at_top else "footer", body)


# A row of a stacked header or footer recurs on at least this share of the pages.
_STACKED_SHARE = 0.4


def _mark_stacked(
    pages: list[RawPage], groups: list[list[list[int]]], kinds: list[list[LineKind]], body: float
) -> None:
    """The rows of a header or footer set in several rows: an organisation's address
    over its booklet's title over the page number, the same on every page.

    From a page's header (or footer) row inwards, each row inside the band whose
    every line recurs (text, size and weight) on many of the document's pages is
    part of it, up to the first row that does not.
    """
    least = max(3, int(_STACKED_SHARE * len(pages)))
    if len(pages) < 3:
        return
    seen: Counter[tuple[str, float, bool]] = Counter()
    for page, grp in zip(pages, groups, strict=True):
        band = {
            _style_key(page.lines[i])
            for row in grp
            for i in row
            if not _TOP_BAND * page.height <= page.lines[i].y <= _BOTTOM_BAND * page.height
        }
        seen.update(band)
    for p, (page, grp) in enumerate(zip(pages, groups, strict=True)):
        if not grp:
            continue
        top, bottom = _TOP_BAND * page.height, _BOTTOM_BAND * page.height
        _stack(page.lines, grp, kinds[p], "header", seen, least, top, body)
        _stack(page.lines, grp[::-1], kinds[p], "footer", seen, least, bottom, body)


def _mark_numbers_in_place(
    pages: list[RawPage], groups: list[list[list[int]]], kinds: list[list[LineKind]]
) -> None:
    """A lone number where the document's page numbers stand is one, whatever its value.

    An OCR layer misreads some page numbers (``8`` for ``4``), and a number that does
    not follow the pages is otherwise left as text: but it stands alone on the top or
    bottom row, on the height of the page numbers of many other pages.
    """
    spots: Counter[int] = Counter()
    for page, page_kinds in zip(pages, kinds, strict=True):
        spots.update(
            {
                round(ln.y / 4)
                for ln, k in zip(page.lines, page_kinds, strict=True)
                if k == "page_number"
            }
        )
    if not spots:
        return
    for p, (page, grp) in enumerate(zip(pages, groups, strict=True)):
        if len(grp) < 2:
            continue
        for row, band in ((grp[0], _TOP_BAND), (grp[-1], _BOTTOM_BAND)):
            ln = page.lines[row[0]]
            if len(row) != 1 or kinds[p][row[0]] == "page_number":
                continue
            if (ln.y < band * page.height) != (band == _TOP_BAND):
                continue
            near = sum(spots[round(ln.y / 4) + d] for d in (-1, 0, 1))
            if near >= 3 and page_number_value(ln.text) is not None:
                kinds[p][row[0]] = "page_number"


def _mark_catchwords(
    pages: list[RawPage], groups: list[list[list[int]]], kinds: list[list[LineKind]]
) -> None:
    """Mark a page's catchword as a footer.

    A sefer prints under a page's last line, at its end (the left on a Hebrew page),
    the first word of the next page: one word on a row of its own, in the bottom
    band, right under a full line of text and far short of it. A paragraph's last
    word (a widow) starts where lines start; a centred word stands in the middle.
    """
    for p, (page, grp) in enumerate(zip(pages, groups, strict=True)):
        if len(grp) < 2 or len(grp[-1]) != 1:
            continue
        k = grp[-1][0]
        ln = page.lines[k]
        words = ln.text.split()
        if kinds[p][k] != "body" or len(words) != 1 or ln.y <= _BOTTOM_BAND * page.height:
            continue
        over = [
            o
            for o in page.lines
            if o.y < ln.y and min(o.x1, ln.x1) > max(o.x0, ln.x0) and len(o.text.split()) >= 4
        ]
        if not over:
            continue
        up = max(over, key=lambda o: o.y)
        width = up.x1 - up.x0
        if ln.y - up.y > 2.5 * max(up.size, ln.size) or ln.x1 - ln.x0 > 0.3 * width:
            continue
        rtl = _HEBREW_LETTER.search(ln.text) is not None
        end_gap = ln.x0 - up.x0 if rtl else up.x1 - ln.x1
        centre = (up.x0 + up.x1) / 2
        if end_gap <= 0.25 * width and (ln.x1 < centre if rtl else ln.x0 > centre):
            kinds[p][k] = "footer"


_HEBREW_LETTER = re.compile("[\u05d0-\u05ea]")


def _stack(
    lines: list[RawLine],
    rows: list[list[int]],
    kinds: list[LineKind],
    role: LineKind,
    seen: Counter[tuple[str, float, bool]],
    least: int,
    edge: float,
    body: float,
) -> None:
    """Mark ``rows`` after the first (a header or footer row) with ``role`` while each
    is inside the band (above ``edge`` for a header, below it for a footer) and
    recurs on ``least`` pages or more."""
    if not any(kinds[i] in ("header", "footer", "page_number") for i in rows[0]):
        return
    for row in rows[1:]:
        inside = all((lines[i].y < edge) == (role == "header") for i in row)
        # A line of running text (body size, many words) is text, recurring or not.
        texty = any(
            abs(lines[i].size - body) < 0.5 and len(lines[i].text.split()) >= 6 for i in row
        )
        if not inside or texty or not all(seen[_style_key(lines[i])] >= least for i in row):
            return
        for i in row:
            if kinds[i] == "body":
                kinds[i] = role


def _complete_row(
    lines: list[RawLine], group: list[int], kinds: list[LineKind], role: LineKind, body: float
) -> None:
    """A running header's (or footer's) other parts on its row share its role.

    A header bar sets its parts apart on one baseline: a chapter's title beside the
    page number, the book's and the chapter's names at the two ends, a title that
    changes with every section beside one that recurs. Once a part of the top (or
    bottom) row is found a header, a footer or the page's number, the row's other
    short parts are the same header: a line of running text on that row is not.
    """
    if not any(kinds[i] in ("header", "footer", "page_number") for i in group):
        return
    for i in group:
        ln = lines[i]
        words = len(ln.text.split())
        if (
            kinds[i] in ("body", "heading")
            and words <= 12
            and not (abs(ln.size - body) < 0.5 and words >= 6)
        ):
            kinds[i] = role


# A side note is a few words long at most.
_NOTE_WORDS = 8
_LINE_NUMBER = re.compile(r"\d{1,4}")
# A margin is at most this share of the page's width.
_MARGIN_REACH = 0.15


def _mark_side_notes(pages: list[RawPage], kinds: list[list[LineKind]], body: float) -> None:
    """Mark the notes set in a page's margin beside its text (kind ``margin``).

    A siddur's source reference (``תהלים צו``) beside a psalm, or an edition's line
    numbers, stand outside the text column's edges (those of the page's long lines),
    on the height of a text line; a line number inside the column is a lone small
    number on a text line's baseline, apart from it. Neither is part of the text.
    """
    for p, page in enumerate(pages):
        lines = page.lines
        # Words counted up to one past _NOTE_WORDS (as many as the tests below tell).
        words = [len(ln.text.split(None, _NOTE_WORDS)) for ln in lines]
        text = [i for i in range(len(lines)) if kinds[p][i] == "body" and words[i] >= 4]
        if len(text) < 3:
            continue
        span = max(lines[i].x1 for i in text) - min(lines[i].x0 for i in text)
        wide = [lines[i] for i in text if lines[i].x1 - lines[i].x0 >= 0.3 * span]
        if len(wide) < 3:
            continue
        left = _percentile([ln.x0 for ln in wide], 0.1)
        right = _percentile([ln.x1 for ln in wide], 0.9)
        reach = _MARGIN_REACH * page.width
        found: list[int] = []
        for i, ln in enumerate(lines):
            if kinds[p][i] != "body" or words[i] > _NOTE_WORDS:
                continue
            em = max(ln.size, 1.0)
            # In the margin: outside the column, narrow, and near it (not a panel or a
            # chart across the page).
            outside = (
                ((left - reach < ln.x0 and ln.x1 < left - 0.5 * em) or right + 0.5 * em < ln.x0)
                and ln.x1 < right + reach
                and ln.x1 - ln.x0 <= reach
            )
            digits = _LINE_NUMBER.fullmatch(ln.text.strip()) is not None
            if not (outside or digits):
                continue
            beside = [
                lines[j]
                for j in text
                if j != i and abs(lines[j].y - ln.y) <= (2.0 if outside else 0.3) * em
            ]
            if digits and not outside:
                # On a text line's baseline, a word space or more apart from it.
                beside = [o for o in beside if max(o.x0, ln.x0) - min(o.x1, ln.x1) > 0.5 * o.size]
            if digits and not any(ln.size <= 0.85 * max(o.size, body) for o in beside):
                # A number of the text's size (a contents page's) is text; a line
                # number is set smaller than the text it counts, whatever that size.
                continue
            if beside:
                found.append(i)
        # Notes are few beside their text: many lines outside are a column of their own.
        if len(found) <= max(3, len(text) // 2):
            for i in found:
                kinds[p][i] = "margin"


# A side panel carries at most this share of the characters of the text beside it.
_PANEL_SHARE = 0.3
# The text beside a panel: at least this many lines.
_PANEL_TEXT = 8


def _mark_panels(pages: list[RawPage], kinds: list[list[LineKind]], body: float) -> None:
    """Mark a side panel beside the page's text as ``margin``.

    A manual's page sets beside its text a narrow panel of short items (links to a
    chart, a boxed warning, a navigation list): parted from the text by a river that
    no line crosses, and light beside it (a fraction of its characters, short lines).
    A second column of a book or a parallel translation carries as much text as the
    first, and stays text.
    """
    for p, page in enumerate(pages):
        lines = page.lines
        own = [i for i, k in enumerate(kinds[p]) if k in ("body", "heading")]
        if len(own) < _PANEL_TEXT + 1:
            continue
        spans = sorted((lines[i].x0, lines[i].x1) for i in own)
        reach = spans[0][1]
        for lo, hi in spans[1:]:
            if lo - reach >= 1.5 * body:
                cut = (reach + lo) / 2
                left = [i for i in own if lines[i].x1 <= cut]
                right = [i for i in own if lines[i].x0 >= cut]
                for side, other in ((left, right), (right, left)):
                    if _panel(lines, side, other, body):
                        for i in side:
                            kinds[p][i] = "margin"
            reach = max(reach, hi)


def _panel(lines: list[RawLine], side: list[int], other: list[int], body: float) -> bool:
    """Whether ``side`` is a light panel beside ``other``, a block of text.

    The text is the document's running text (not a contents page in larger type),
    and a panel's items are set no larger than it (a title beside a chapter's
    contents, a slide's callout beside its list, are no notes).
    """
    if len(side) < 2 or len(other) < _PANEL_TEXT or len(side) > len(other) // 2:
        return False
    size = median(lines[i].size for i in other)
    if abs(size - body) >= 0.5 or median(lines[i].size for i in side) > 1.05 * size:
        return False
    if any(lines[i].size > 1.5 * size for i in side):
        return False
    chars = sum(len(lines[i].text) for i in side)
    if chars > _PANEL_SHARE * sum(len(lines[i].text) for i in other):
        return False
    return all(len(lines[i].text.split()) <= _NOTE_WORDS for i in side)


def side_notes_in_place(lines: list[RawLine], kinds: list[LineKind]) -> list[int]:
    """The page's line order with each margin note right after the text line nearest
    to it (the paragraph it annotates), the other lines in their order."""
    if "margin" not in kinds:
        return list(range(len(lines)))
    text = [i for i, k in enumerate(kinds) if k in ("body", "heading")]
    after: dict[int, list[int]] = {}
    loose: list[int] = []
    for i, kind in enumerate(kinds):
        if kind != "margin":
            continue
        if not text:
            loose.append(i)
            continue
        # The nearest text line, the first of equals: min(text, key=(distance, j)) as a
        # plain loop (compiled: no closure, no key tuples; a note meets every line).
        y = lines[i].y
        near = text[0]
        best = abs(lines[near].y - y)
        for j in text:
            d = abs(lines[j].y - y)
            if d < best:
                near, best = j, d
        after.setdefault(near, []).append(i)
    order: list[int] = []
    for i, kind in enumerate(kinds):
        if kind == "margin" and i not in loose:
            continue
        order.append(i)
        order.extend(after.get(i, ()))
    return order


def _body_pitch(pages: list[RawPage], body: float) -> float:
    steps = []
    for page in pages[:50]:
        prev: RawLine | None = None
        for ln in page.lines:
            if abs(ln.size - body) < 0.5:
                if prev is not None and ln.y > prev.y:
                    steps.append(ln.y - prev.y)
                prev = ln
    return median(steps) if steps else body * 1.4


def _mark_footnotes(pages: list[RawPage], kinds: list[list[LineKind]], body: float) -> None:
    previous_had_notes = False
    for p, page in enumerate(pages):
        lines = page.lines
        last_body = max(
            (i for i, ln in enumerate(lines) if kinds[p][i] == "body" and ln.size >= body * 0.95),
            default=None,
        )
        has_notes = False
        if last_body is not None:
            block = [
                i
                for i in range(last_body + 1, len(lines))
                if kinds[p][i] == "body" and lines[i].y > lines[last_body].y
            ]
            block = block[_notes_start(lines, last_body, block, body) :]
            small = block and all(lines[i].size <= body * _NOTE for i in block)
            if small and (
                previous_had_notes or any(_NOTE_MARKER.match(lines[i].text) for i in block)
            ):
                for i in block:
                    kinds[p][i] = "footnote"
                has_notes = True
        previous_had_notes = has_notes


# Notes stand this many body sizes below the text at least when the page is not full.
_NOTES_GAP = 2.5


def _notes_start(lines: list[RawLine], last_body: int, block: list[int], body: float) -> int:
    """Where the notes begin in ``block`` (the lines below the last body-size line).

    An OCR layer sizes each word, so the text's last lines may come out as small as
    the notes; but they follow the text at its pitch, and the notes stand apart below
    them. The notes begin at the first line that stands apart: its gap above is wider
    than every gap above it by :data:`_NOTE_APART`, and it opens the block's first note
    marker or the gap is wide in itself (:data:`_NOTES_GAP` body sizes). Without one,
    the whole block is notes (or text: the caller decides).
    """
    y = lines[last_body].y
    widest = 0.0
    marked = False
    for n, i in enumerate(block):
        gap = lines[i].y - y
        marker = _NOTE_MARKER.match(lines[i].text) is not None
        if (
            n
            and gap > _NOTE_APART * widest
            and (gap > _NOTES_GAP * body or (marker and not marked))
        ):
            return n
        marked = marked or marker
        widest = max(widest, gap)
        y = lines[i].y
    return 0


def _mark_headings(pages: list[RawPage], kinds: list[list[LineKind]], body: float) -> None:
    heading_line = _heading_line()
    body_lines = [
        ln
        for page, page_kinds in zip(pages, kinds, strict=True)
        for ln, kind in zip(page.lines, page_kinds, strict=True)
        if kind == "body" and abs(ln.size - body) < 0.5
    ]
    if not body_lines:
        return
    bold_share = sum(len(ln.text) for ln in body_lines if ln.bold) / max(
        1, sum(len(ln.text) for ln in body_lines)
    )
    left = _percentile([ln.x0 for ln in body_lines], 0.05)
    right = _percentile([ln.x1 for ln in body_lines], 0.95)
    usual = Counter(ln.colour for ln in body_lines if ln.colour is not None).most_common(1)
    text_colour = usual[0][0] if usual else None
    center, column = (left + right) / 2, max(right - left, 1.0)
    text_sizes = _text_sizes(pages, body)
    refrains = _refrains(pages, kinds, body)
    # Sizes read from an OCR layer vary line by line: slightly larger says nothing.
    near = sorted(ln.size for ln in _near_body(pages, kinds, body))
    noisy = len(near) >= 10 and near[9 * len(near) // 10] > _NOISY * near[len(near) // 10]
    slightly = _LARGE if noisy else _SLIGHTLY
    # An OCR layer's text (most of the body's letters): its sizes are measured page by page.
    ocr = 2 * sum(len(ln.text) for ln in body_lines if ln.ocr) > sum(
        len(ln.text) for ln in body_lines
    )
    for p, page in enumerate(pages):
        runs = _set_as_text(page)
        sized = _ocr_sized(page, kinds[p], body) if ocr else None
        for i, ln in enumerate(page.lines):
            if kinds[p][i] != "body":
                continue
            if ln.size >= body * _SLIGHTLY and (
                (ln.block, round(ln.size)) in runs or round(ln.size * 2) / 2 in text_sizes
            ):
                continue  # large type over many lines: text set large
            if refrains and " ".join(ln.text.split()) in refrains:
                continue
            words = len(ln.text.split())
            width = ln.x1 - ln.x0
            centered = abs((ln.x0 + ln.x1) / 2 - center) < 0.06 * column and width < 0.8 * column
            short = words <= 12 and width < 0.85 * column
            if (
                (
                    i in sized
                    if sized is not None
                    else ln.size >= body * _LARGE or (ln.size >= body * slightly and short)
                )
                or (ln.bold and bold_share < 0.3 and short and (centered or words <= 6))
                or (short and _colour_title(page.lines, kinds[p], i, text_colour))
                or (centered and heading_line.match(ln.text.strip()) is not None)
            ):
                kinds[p][i] = "heading"


# An OCR layer's heading is this much larger than its page's text, when it is short.
_OCR_STANDOUT = 1.3
# An OCR layer's short heading line is this many words at most, and narrower than
# this share of its page's text.
_OCR_WORDS = 10
_OCR_NARROW = 0.8
# Lines whose sizes differ by less than this share are set in one size.
_SAME_SIZE = 0.12


def _ocr_sized(page: RawPage, kinds: list[LineKind], body: float) -> set[int]:
    """The lines of an OCR layer's page large enough to be headings.

    An OCR engine sizes each line from its own letters: a page's text lines spread
    over a fifth of their size and more, and whole pages come out larger or smaller
    than the book's usual size. So a heading is measured against its own page's text
    (the size that carries the page's middle letter), not the book's body size. A
    line larger than that by :data:`_LARGE` is a heading when it is short and stands
    apart (more space above it than the page's line step, :data:`_GAP`, or a title
    line of its size above it), or when it stands apart and opens a title over two
    lines; larger by :data:`_OCR_STANDOUT` and short, wherever it stands. Three
    large lines of one size one under the other are a quotation or verse set large.
    Above and below are within the line's own column (a line above that it overlaps).
    """
    lines = page.lines
    text = _text_size(lines, kinds) or body
    large = text * _LARGE
    texts = [i for i, kind in enumerate(kinds) if kind == "body"]
    widths = [lines[i].x1 - lines[i].x0 for i in texts]
    wide = _percentile(widths, 0.9) if widths else 0.0
    up, down = _neighbours(lines, kinds)
    steps = [lines[i].y - lines[k].y for i, k in enumerate(up) if k >= 0]
    pitch = median(steps) if steps else body

    def big(k: int) -> bool:
        return k >= 0 and kinds[k] == "body" and lines[k].size >= large

    def akin(k: int, i: int) -> bool:
        return abs(lines[k].size - lines[i].size) <= _SAME_SIZE * max(lines[k].size, lines[i].size)

    def short(k: int) -> bool:
        # A title does not fill the column as a line of text does (an OCR line's box
        # may come out too narrow, never too wide), unless set much larger.
        ln = lines[k]
        return len(ln.text.split()) <= _OCR_WORDS and (
            ln.x1 - ln.x0 < _OCR_NARROW * wide or ln.size >= text * _OCR_STANDOUT
        )

    def block(a: int, b: int, c: int) -> bool:
        # Three large lines of one size one under the other, two of them as wide as
        # the text's: a quotation set large (a title's lines are short, stacked or not).
        return (
            big(a)
            and big(b)
            and big(c)
            and akin(a, b)
            and akin(b, c)
            and sum(lines[k].x1 - lines[k].x0 >= _OCR_NARROW * wide for k in (a, b, c)) >= 2
        )

    out: set[int] = set()
    for i in sorted(texts, key=lambda k: lines[k].y):
        if not big(i) or any(
            block(*three)
            for three in ((up[up[i]], up[i], i), (up[i], i, down[i]), (i, down[i], down[down[i]]))
            if min(three) >= 0
        ):
            continue
        k = up[i]
        apart = k < 0 or lines[i].y - lines[k].y >= _GAP * pitch or (k in out and akin(k, i))
        opens = big(down[i]) and short(down[i]) and akin(down[i], i)
        standout = lines[i].size >= text * _OCR_STANDOUT
        if ((short(i) and (apart or standout)) or (apart and opens)) and _reads_as_words(
            lines, i, down[i]
        ):
            out.add(i)
    return out


# A word of a title: two letters or more of one script (an OCR layer's noise is stray
# marks, lone Latin letters and digits). A lone Hebrew letter is a section's numeral.
_WORD = re.compile(r"[א-ת]|[A-Za-z]{2}")
# Each alternative starts only where a word (or, for an address, a part after ``@``)
# starts: from every position, ``\S+`` would make a search quadratic on a long word.
_WEB = re.compile(
    r"(?:https?://|www\.)\S+|(?<![^\s@])[^\s@]+@[^\s@]+\.[^\s@]+|(?<!\S)\S+\.(?:org|com|net)\b",
    re.IGNORECASE,
)
# A comma, a semicolon or a lone stop or mark after the last word (not an ellipsis, nor
# a dash that breaks a title in two: ``דיוק –``).
_TRAILING_MARK = re.compile(r"(?:[,;]|\s(?:\.|[^\w\s.…\-–—\xad]{1,3}))$")


def _reads_as_words(lines: list[RawLine], i: int, below: int) -> bool:
    """Whether an OCR layer's large line reads as a title's words.

    Not a title: a line with no word (marks, digits, a lone Latin letter: specks on the
    scan read as text), one that ends in a comma or a detached mark (running text or
    noise, ``ליו .``), a web address, nor a line right over a web address: a stamp
    that a site or a browser set on the scan (``הועתק והוכנס לאינטרנט`` over
    ``www.…``), not the book's.
    """
    ln = lines[i]
    text = " ".join(ln.text.split())
    if not _WORD.search(text) or _TRAILING_MARK.search(text) or _WEB.search(text):
        return False
    if below < 0:
        return True
    under = lines[below]
    return not (_WEB.search(under.text) and under.y - ln.y <= 2 * max(ln.size, under.size))


def _neighbours(lines: list[RawLine], kinds: list[LineKind]) -> tuple[list[int], list[int]]:
    """For each line, the nearest line above and below it in its column (one it
    overlaps across, on another baseline; -1: none), running headers and page numbers
    left out."""
    up = [-1] * len(lines)
    down = [-1] * len(lines)
    order = sorted(
        (i for i, kind in enumerate(kinds) if kind not in ("header", "page_number")),
        key=lambda k: lines[k].y,
    )
    for n, i in enumerate(order):
        ln = lines[i]
        for k in reversed(order[:n]):
            other = lines[k]
            if other.x0 < ln.x1 and ln.x0 < other.x1 and ln.y - other.y > 0.3 * ln.size:
                up[i], down[k] = k, (i if down[k] < 0 else down[k])
                break
    return up, down


def _text_size(lines: list[RawLine], kinds: list[LineKind]) -> float:
    """The size that carries the middle letter of a page's body lines (0: none)."""
    sized = sorted(
        (ln.size, len(ln.text)) for ln, kind in zip(lines, kinds, strict=True) if kind == "body"
    )
    half = sum(n for _, n in sized) / 2
    seen = 0
    for size, n in sized:
        seen += n
        if seen >= half:
            return size
    return 0.0


# A colour whose channels differ by less than this is black or grey: the text's own.
_GREY = 48
_LEAD_IN = (".", ",", ":", ";", "!", "?")
_ADDRESS = re.compile(r"\S*(?:[/@]|www\.)\S*$")
_GAP = 1.3  # space above a title, in the page's usual line steps


def _colour_title(
    lines: list[RawLine], kinds: list[LineKind], i: int, text_colour: tuple[int, int, int] | None
) -> bool:
    """A line in a colour of its own throughout (not black or grey, not the text's), as
    short as a title, no lead-in, standing alone: the lines on either side are not in
    its colour, and the next is text. A bold body-size title's twin told by colour; a
    link word in a line of text leaves the line's colour mixed (:func:`._read._line_colour`).
    """
    ln = lines[i]
    colour = ln.colour
    if colour is None or colour == text_colour or max(colour) - min(colour) < _GREY:
        return False
    text = ln.text.strip()
    if len(text.split()) > TITLE_WORDS or text.rstrip(")]\"'״”’").endswith(_LEAD_IN):
        return False
    if _ADDRESS.match(text):
        return False  # a web or mail address on a line of its own: a link
    if i + 1 >= len(lines) or kinds[i + 1] != "body" or lines[i + 1].colour == colour:
        return False
    if i == 0:
        return True
    # Alone: more space above it than between a paragraph's lines, as a title has.
    steps = [b.y - a.y for a, b in itertools.pairwise(lines) if b.y - a.y > 0]
    return lines[i - 1].colour != colour and ln.y - lines[i - 1].y >= _GAP * median(steps)


# Body lines whose sizes (tenth to ninetieth percentile) differ by this ratio are sized
# by an OCR engine, not a typesetter.
_NOISY = 1.08


def _near_body(pages: list[RawPage], kinds: list[list[LineKind]], body: float) -> list[RawLine]:
    """Body lines within a sixth of the body size: the text's own lines."""
    return [
        ln
        for page, page_kinds in zip(pages, kinds, strict=True)
        for ln, kind in zip(page.lines, page_kinds, strict=True)
        if kind == "body" and abs(ln.size - body) <= body / 6
    ]


# A line of at least this many words printed this many times is a refrain.
_REFRAIN_WORDS = 4
_REFRAIN_TIMES = 3


def _refrains(pages: list[RawPage], kinds: list[list[LineKind]], body: float) -> set[str]:
    """Sentences set larger than the text that recur through the document: a song's
    refrain (``לכה דודי``) after each stanza is text to a reader, not a chapter title,
    however large. Section titles that recur are a word or three (``ביאור``)."""
    seen: Counter[str] = Counter()
    for page, page_kinds in zip(pages, kinds, strict=True):
        for ln, kind in zip(page.lines, page_kinds, strict=True):
            if kind == "body" and ln.size >= body * _SLIGHTLY:
                seen[" ".join(ln.text.split())] += 1
    return {
        text
        for text, times in seen.items()
        if times >= _REFRAIN_TIMES and len(text.split()) >= _REFRAIN_WORDS
    }


# A block of at least this many lines of one size is text, whatever the size.
_TEXT_LINES = 4


# A size that carries at least this share of a document's letters is a text size.
_TEXT_SHARE = 0.15


def _text_sizes(pages: list[RawPage], body: float) -> set[float]:
    """Sizes above the body's that carry much of the document's text on many pages.

    A parallel text (a translation beside the Hebrew, set in another size) or a
    prayer book's large-type prayers is text in its own size, not a run of headings.
    """
    chars: Counter[float] = Counter()
    spread: dict[float, set[int]] = {}
    for p, page in enumerate(pages):
        for ln in page.lines:
            key = round(ln.size * 2) / 2
            chars[key] += len(ln.text)
            spread.setdefault(key, set()).add(p)
    total = sum(chars.values()) or 1
    least_pages = max(3, len(pages) // 10)
    return {
        size
        for size, n in chars.items()
        if size > body and n >= _TEXT_SHARE * total and len(spread[size]) >= least_pages
    }


def _set_as_text(page: RawPage) -> set[tuple[int, int]]:
    """The (block, size) pairs of a page's blocks set in one size over many lines.

    A larger size alone does not make a heading: a column of verse or a parallel
    text set large (a haggadah's Hebrew beside its translation) runs over many
    lines of one block; a heading takes a line or two.
    """
    counts = Counter((ln.block, round(ln.size)) for ln in page.lines if ln.block >= 0)
    return {key for key, n in counts.items() if n >= _TEXT_LINES}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
