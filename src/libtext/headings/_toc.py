"""A printed table of contents read as the document's own outline.

Where a PDF has no bookmarks, its printed contents page (``פרק 3 / מצבי חירום ... 50``,
``2. מטרות העזרה הראשונה הנפשית 10``) is still the author's list of chapters, with
their pages. :func:`printed_toc` finds it among the first pages: a page with at least
:data:`MIN_ENTRIES` lines that end in a page number (after dot leaders or not; an
entry may wrap, or have its number on a line of its own), the numbers never going
down. A Hebrew book may number its pages in letters (``מאמר א׳ ­ מעלות התורה יא``,
``כבוד ⏎ רכז``): a page none of whose lines end in a digit is read again with a
Hebrew numeral (``יא``, ``קכג``) as the row's number, where the row runs across a
gap to the far margin and most numbers rise. The printed page numbers are mapped
to the PDF's by the offset most entries agree on (a title found as a heading line
near its page); a list whose titles head too few pages (under a quarter, or under
two) is not a table of contents.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections import Counter

from libtext.headings._line import parse_heading
from libtext.hebrew import normalize_for_match, parse_numeral
from libtext.models import DocumentHeading, ExtractedDocument, ExtractedLine, ExtractedPage

__all__ = ["MIN_ENTRIES", "contents_entries", "contents_rows", "printed_toc", "split_entry"]

MIN_ENTRIES = 4
_SCAN_PAGES = 12
_LETTER = re.compile(r"[^\W\d_]")
# A page number in Hebrew letters: up to four letters, a geresh or gershayim allowed.
_LETTER_NUMBER = re.compile(r"^(?:[א-ת]{1,4}['׳\"״]?|[א-ת]{1,3}[\"״][א-ת])$")
_NUMBERED = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})*)\.?\s+(?=\S)")
_WORD_NUMBERED = re.compile(
    # "\s*+": the spaces before the separator are not given back to the spaces after it
    # (trying every split of a long run of spaces was quadratic).
    r"^(?:פרק|חלק|שער|סימן|נספח|Chapter|Part)\s+(?P<num>[\dא-ת]{1,4}['׳\"״]?)(?![\w])\s*+[/:–—-]?\s*",
    re.IGNORECASE,
)


def _tail_start(text: str, end: int) -> tuple[int, bool]:
    """Where the gap before the page number starts: ``\\s*`` then optional leaders (dots
    ``..``, ``…``, or ``. . .`` with at most one space before each dot), then ``\\s*``;
    the longest such gap ending at ``end``, and whether it holds leaders.

    A scan from the right, one pass over the gap: the regular expression this replaces
    (a lazy title before the optional leaders) tried every split of the title and the
    gap, quadratic (or worse) in a long line without its page number.
    """

    def spaces(k: int) -> int:
        while k > 0 and text[k - 1].isspace():
            k -= 1
        return k

    right = spaces(end)
    best = right
    k = right
    while k > 0 and text[k - 1] == "…":
        k -= 1
    if k < right:
        best = min(best, spaces(k))
    k = right
    while k > 0 and text[k - 1] == ".":
        k -= 1
    if right - k >= 2:
        best = min(best, spaces(k))
    k, dots = right, 0
    while k > 0 and text[k - 1] == ".":  # each dot, with at most one space before it
        k -= 1
        dots += 1
        if k > 0 and text[k - 1].isspace():
            k -= 1
    if dots >= 3:
        best = min(best, spaces(k))
    return best, best < right


def _strip_leaders(title: str) -> str:
    """``title`` without the dots or ``…`` it ends in (a gap the number was not after)."""
    end = len(title)
    right = end
    while right > 0 and title[right - 1].isspace():
        right -= 1
    cut = end
    k = right
    while k > 0 and title[k - 1] == "…":
        k -= 1
    if k < right:
        cut = k
    k, dots = right, 0
    while k > 0 and title[k - 1] == ".":  # two or more dots, one space at most before each
        k -= 1
        dots += 1
        if k > 0 and title[k - 1].isspace():
            k -= 1
    if dots >= 2:
        cut = min(cut, k)
    return title[:cut]


def _numbered(title: str) -> bool:
    """Whether a row's title holds its own heading number (``פרק שני: מעלת התורה``), so
    that the number after it is a page number (a row joined with its far-margin number)."""
    own = parse_heading(title)
    return own is not None and bool(own[0]) and own[1] is not None


def letter_number(text: str) -> int | None:
    """The value of ``text`` read as a page number in Hebrew letters (``יא``, ``קכ״ג``):
    a canonical numeral of at most four letters; ``None`` otherwise."""
    if not _LETTER_NUMBER.match(text):
        return None
    return parse_numeral(text, spelled=False)


def split_entry(text: str, *, letters: bool = False) -> tuple[str, bool, int] | None:
    """A contents line read as (title, has leaders, page number); ``None`` if it is not one.

    The line (whitespace already collapsed) ends in a page number of at most four
    digits, after dot leaders or not (with ``letters``, a Hebrew numeral word instead:
    ``מעלות התורה יא``); the title is the rest before them and must hold a letter.
    Linear in the line's length, whatever the line.
    """
    end = len(text)
    if letters:
        start = text.rfind(" ") + 1
        value = letter_number(text[start:]) if start > 0 else None
        if value is None:
            return None
        cut, leaders = _tail_start(text, start)
        title = text[:cut]
        return (title, leaders, value) if _LETTER.search(title) else None
    start = end
    while start > 0 and end - start < 4 and text[start - 1].isdecimal():
        start -= 1
    if start == end:
        return None
    cut, leaders = _tail_start(text, start)
    title = text[:cut]
    if _LETTER.search(title) is None:
        return None
    return title, leaders, int(text[start:end])


def contents_entries(page: ExtractedPage) -> list[tuple[str, int]]:
    """The page's lines read as contents entries: (title, printed page number)."""
    return [(title, number) for title, number, _ in contents_rows(page)]


def contents_rows(page: ExtractedPage) -> list[tuple[str, int, list[int]]]:
    """Contents entries with the indices (into ``page.lines``) of the lines each spans.

    An entry may take two lines (a wrapped title, or a title and its page number on
    a line of its own): the lines that make it are the ones to keep out of the text.
    Rows numbered in digits are read first; on a page where no line ends in a digit,
    rows numbered in Hebrew letters.
    """
    if any(ln.text.rstrip()[-1:].isdecimal() for ln in page.lines if ln.kind in _ROW_KINDS):
        return _rows(page, letters=False)
    rows = _rows(page, letters=True)
    # Words that happen to read as numerals do not rise row after row (an OCR layer
    # misreads a number now and then: most of them, not every one, must rise).
    rising = _rising([n for _, n, _ in rows])
    return rows if len(rows) >= _LETTER_ROWS and rising >= _RISING * len(rows) else []


def _rising(numbers: list[int]) -> int:
    """The length of the longest run, not necessarily contiguous, that never goes down."""
    tails: list[int] = []  # tails[k]: the least last number of such a run of k + 1
    for n in numbers:
        k = bisect.bisect_right(tails, n)
        tails[k : k + 1] = [n]
    return len(tails)


_ROW_KINDS = ("body", "heading")
_LETTER_ROWS = 3  # rows numbered in letters on a page, at least
_RISING = 0.6  # share of letter-numbered rows that rise, in order, at least
_SPREAD = 1.5  # a joined row is this much wider than its letters, at least


def _pitch(page: ExtractedPage) -> float:
    """The page's usual width per character of a text line (its median)."""
    pitches = sorted(
        (ln.x1 - ln.x0) / len(ln.text)
        for ln in page.lines
        if ln.kind in _ROW_KINDS and len(ln.text) >= 10 and ln.x1 > ln.x0
    )
    return pitches[len(pitches) // 2] if pitches else 0.0


def _spread(ln: ExtractedLine, pitch: float) -> bool:
    """Whether the line is much wider than its characters take: a title and its page
    number at the far margin, joined into one line across the gap between them."""
    return pitch > 0 and ln.x1 - ln.x0 >= _SPREAD * pitch * len(ln.text)


def _number(text: str, letters: bool) -> int | None:
    """A line that is only a page number (digits; with ``letters``, a Hebrew numeral)."""
    if text.isdigit():
        return int(text)
    return letter_number(text) if letters else None


def _rows(page: ExtractedPage, *, letters: bool) -> list[tuple[str, int, list[int]]]:
    out: list[tuple[str, int, list[int]]] = []
    pending = row_title = ""
    pending_at: list[int] = []
    row_at = 0
    pitch = _pitch(page) if letters else 0.0
    for i, ln in enumerate(page.lines):
        if ln.kind not in _ROW_KINDS:
            continue
        text = " ".join(ln.text.split())
        alone = _number(text, letters)
        if alone is not None and pending:
            out.append((pending, alone, [*pending_at, i]))
            pending, pending_at = "", []
            continue
        row = page.lines[row_at]
        if alone is not None and row_title and abs(ln.y - row.y) < max(2.0, 0.3 * row.size):
            # A row whose page number sits at the far margin, read as a line of its own
            # (an OCR layer's baselines differ by a point or two along one row).
            out.append((row_title, alone, [row_at, i]))
            row_title = ""
            continue
        m = split_entry(text, letters=letters)
        if letters and m is not None and not _spread(ln, pitch):
            m = None  # a line of text whose last word reads as a numeral
        ends_number = text[-1:].isdigit() or (letters and m is not None)
        row_title = text if any(ch.isalpha() for ch in text) and not ends_number else ""
        row_at = i
        if m is None:
            # A title waiting for its number on the next line, or the first line of
            # a wrapped entry ("title:" then its subtitle): the title is kept alone.
            starts_entry = bool(_NUMBERED.match(text) or _WORD_NUMBERED.match(text))
            pending, pending_at = (text, [i]) if starts_entry else ("", [])
            continue
        title, leaders, number = m
        heading = parse_heading(text)
        if heading is not None and heading[0] and not leaders and not _numbered(title):
            pending, pending_at = "", []
            continue  # "שאלה 3", "פרק 7": a numbered heading, not an entry
        at = [i]
        if pending:
            head = pending.rstrip()
            title = head.rstrip(":") if head.endswith(":") else f"{head} {title}"
            at = [*pending_at, i]
            pending, pending_at = "", []
        out.append((_strip_leaders(title).strip(), number, at))
    return out


def _clean(title: str) -> tuple[str, int]:
    """The title without its entry number, and its level (2 for ``1.2``)."""
    level = 1
    m = _NUMBERED.match(title)
    if m:
        level = m.group("num").count(".") + 1
        title = title[m.end() :]
    w = _WORD_NUMBERED.match(title)
    if w and title[w.end() :].strip():
        title = title[w.end() :]
    return title.strip(" /:–—-"), level


def _similar(a: str, b: str) -> float:
    na, nb = normalize_for_match(a), normalize_for_match(b)
    if not na or not nb:
        return 0.0
    if na in nb:
        return 1.0
    return difflib.SequenceMatcher(None, na, nb, autojunk=False).ratio()


def _offset(doc: ExtractedDocument, entries: list[tuple[str, int, int]]) -> tuple[int, int]:
    """The printed-to-PDF page offset most titles agree on, and how many agree."""
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    votes: Counter[int] = Counter()
    for title, printed, _ in entries:
        for delta in range(-3, 4):
            k = index_of.get(printed + delta)
            if k is None:
                continue
            lines = doc.pages[k].lines
            if any(
                ln.kind == "heading"
                and len(ln.text) < 3 * len(title) + 10
                and _similar(title, ln.text) >= 0.8
                for ln in lines
            ):
                votes[delta] += 1
                break
    return votes.most_common(1)[0] if votes else (0, 0)


def printed_toc(doc: ExtractedDocument) -> list[DocumentHeading]:
    """The chapters a printed contents page lists, on the PDF's pages; or none."""
    numbers = {p.number for p in doc.pages}
    scan = doc.pages[:_SCAN_PAGES]
    for k, page in enumerate(scan):
        raw = [(t, n) for t, n in contents_entries(page) if n <= len(doc.pages) + 50]  # not a year
        pages = [n for _, n in raw]
        if len(raw) < MIN_ENTRIES or pages != sorted(pages):
            continue
        for more in scan[k + 1 :]:  # the contents may go on over the next pages
            nxt = [(t, n) for t, n in contents_entries(more) if n <= len(doc.pages) + 50]
            if (
                not nxt
                or [n for _, n in nxt] != sorted(n for _, n in nxt)
                or nxt[0][1] < raw[-1][1]
            ):
                break
            raw.extend(nxt)
        entries = [(*_clean(t), n) for t, n in raw]
        cleaned = [(t, n, lvl) for t, lvl, n in entries if t]
        offset, agree = _offset(doc, cleaned)
        if agree < max(2, len(cleaned) // 4):
            continue  # lines that end in numbers, but their titles head no pages
        found = [
            DocumentHeading(title=t, page=n + offset, level=lvl, source="contents")
            for t, n, lvl in cleaned
            if n + offset in numbers and n + offset > page.number
        ]
        if len(found) >= MIN_ENTRIES:
            return found
    return []
