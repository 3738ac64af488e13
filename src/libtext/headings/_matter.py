"""What of a book's printed text is its text: contents pages and page furniture left out.

Extraction gives every printed line a role, but some lines that are not the book's
text still come out as body or heading lines, and a section would carry them into
translation and citation links (a contents row ``קבלת שבת 12`` read as tractate
Shabbat, daf 12):

* **contents pages**: a page most of whose lines are contents rows (a title and a
  page number, after dot leaders or at the far margin; see
  :func:`~libtext.headings._toc.contents_rows`), the numbers going up, and either
  dot leaders or titles that recur elsewhere in the book. The rows, the lines
  between them and the page's ``תוכן עניינים`` / ``Contents`` title are left out; a
  following page of rows continues them;
* **page numbers** that extraction left in the text: a line that is only a number
  (``71``, ``[ 1 ]``, ``- 12 -``, ``iv``), or a Hebrew-letter number alone at the very
  top or bottom of the page;
* **chapter numerals** running 1, 2, 3 ... (a chumash's ``2`` over chapter 2, in
  each column of a parallel text): the outline turns them into segment titles;
* **running footers and headers** that extraction left in the text: the same line
  (numbers aside) at the foot of three or more pages, or at the head of three or
  more pages (there its first appearance is kept when it is a heading: a chapter
  title that the running header then repeats; a title that stands each time over a
  new subtitle is a new section, and is kept); atop two pages in a row when it is
  set exactly as the lines atop many other pages (a running header that names each
  short section: the header slot of the book, its text changing with the section);
  and, on a page where extraction marked no running header, the top line (or two)
  holding every word the book's marked running headers share.

:func:`book_text` gives the document without them; the offline outline and the
section cut both read that, so segments neither start nor end on them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from itertools import pairwise

from libtext.headings._toc import MIN_ENTRIES, contents_rows
from libtext.hebrew import normalize_for_match
from libtext.models import ExtractedDocument, ExtractedLine, ExtractedPage

__all__ = ["book_text", "chapter_numerals", "contents_pages", "is_chapter_numeral", "left_out"]

_TEXT_KINDS = ("body", "heading")
_NUMBER_LINE = re.compile(
    r"^(?:[\[(\-–—|]\s*)?(?:\d{1,3}|[ivxlc]{1,6})(?:\s*[\])\-–—|.])?$|"
    r"^[\[\-–—]\s*[א-ת]{1,3}['׳\"״]?\s*[\]\-–—]$"
)
_HEBREW_NUMBER = re.compile(r"^[א-ת]{1,3}['׳\"״]?$|^[א-ת]{1,2}[\"״][א-ת]$")
_CONTENTS_TITLE = re.compile(
    r"^(?:תוכן|תכן|מפתח|ראשי\s+פרקים|table\s+of\s+contents|contents|index)(?=\s|$|[:.])",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_LABEL_DASH = re.compile(r"\s[-–—־\xad]\s")  # between a row's label and its title
_LEAD_NUMBER = re.compile(r"\d{1,3}\s+")
_BAND = 0.12  # the top and bottom share of a page where running lines stand
_RECURS = 3  # pages a running line must be met on
_SLOT_PAGES = 6  # pages whose first line is set alike: the book's running-header slot
_NARROW = 0.6  # a listed topic is at most this share of the page's widest line
_ROWS_SHARE = 0.5  # contents rows must make at least this share of a page's lines
_RISING = 0.75  # share of consecutive rows whose page numbers do not go down
_HEADER_PAGES = 5  # pages with marked running headers, at least, to learn their words
_SHARED = 0.8  # share of the marked running headers a word of theirs is on, at least
_NUMERAL_SIZE = 1.05  # a chapter numeral is set at least this much larger than the body


def _text_lines(page: ExtractedPage) -> list[int]:
    return [i for i, ln in enumerate(page.lines) if ln.kind in _TEXT_KINDS and ln.text.strip()]


def _key(text: str) -> str:
    return " ".join(normalize_for_match(text).split())


def contents_pages(doc: ExtractedDocument) -> dict[int, set[int]]:
    """The lines of contents pages: page index -> indices into its ``lines``."""
    pages = len(doc.pages)
    titles: dict[str, set[int]] = defaultdict(set)  # short text lines, for "titles recur"
    for k, page in enumerate(doc.pages):
        for i in _text_lines(page):
            text = page.lines[i].text
            if len(text) <= 80:
                titles[_key(_strip_number(text))].add(k)
    out: dict[int, set[int]] = {}
    last_number = -1
    listed: set[int] = set()  # the pages that the contents found so far point to
    for k, page in enumerate(doc.pages):
        rows = [r for r in contents_rows(page) if r[1] <= pages + 50]  # a year is no page
        going_on = (k - 1) in out and len(rows) >= 2 and rows[0][1] >= last_number
        continued = going_on  # the page after a contents page, its rows going on
        # A chapter's title page that the book's contents points to, listing the
        # chapter's parts from its own page on: a short contents of its own.
        going_on = going_on or (
            page.number in listed and len(rows) >= 2 and rows[0][1] >= page.number
        )
        if not rows or (len(rows) < MIN_ENTRIES and not going_on):
            continue
        lines = _text_lines(page)
        taken = {i for _, _, at in rows for i in at}
        first, last = min(taken), max(taken)
        span = [i for i in lines if first <= i <= last]
        numbers = [n for _, n, _ in rows]
        rising = sum(b >= a for a, b in pairwise(numbers))
        # A page the contents goes on to, numbered in letters, may hold a number the
        # OCR misread (``רצו`` for ``רלו``): digits rise, or it is no contents.
        lettered = not any(ln.text.rstrip()[-1:].isdecimal() for ln in page.lines)
        if rising < _RISING * (len(numbers) - 1) and not (going_on and lettered):
            continue
        leaders = sum(1 for i in taken if _has_leaders(page.lines[i].text))
        recur = sum(1 for t, _, _ in rows if any(titles.get(w, set()) - {k} for w in _forms(t)))
        if not going_on and 2 * leaders < len(rows) and 4 * recur < len(rows):
            continue  # lines that end in numbers, but not a list of the book's parts
        # A sefer's contents, numbered in letters, lists each entry's topics under it,
        # without page numbers: short lines (running text between a few rows runs the
        # measure). Pages numbered in digits are read by their rows alone (a chart's
        # short lines between numbered boxes are no topics).
        widest = max(page.lines[i].x1 - page.lines[i].x0 for i in lines)
        topics = {i for i in span if lettered and i not in taken and _narrow(page.lines[i], widest)}
        if len(taken | topics) < _ROWS_SHARE * len(lines) and 2 * leaders < len(rows):
            continue  # a few rows in running text
        drop = set(span)
        # Under the last row, the lines set like those between rows (an entry's list
        # of topics) still belong to it; so do the topics atop a page the contents
        # goes on to (the last entry of the page before).
        between = {round(page.lines[i].size, 1) for i in span if i not in taken}
        for i in lines:
            if i > last:
                if round(page.lines[i].size, 1) not in between and not (
                    topics and _narrow(page.lines[i], widest)
                ):
                    break
                drop.add(i)
        if going_on and topics:
            for i in lines:
                if i >= first or not _narrow(page.lines[i], widest):
                    break
                drop.add(i)
        if continued:
            # Atop a page the contents goes on to, a heading over its next rows (a
            # group's title, ``תשס״ח``, ``שער העבודה``) is the contents' own.
            for i in lines:
                if i >= first or page.lines[i].kind != "heading":
                    break
                drop.add(i)
        for i in lines:
            if i >= first:
                break
            if _CONTENTS_TITLE.match(" ".join(page.lines[i].text.split())):
                drop.update(j for j in lines if i <= j < first)
        out[k] = drop
        last_number = numbers[-1]
        listed.update(numbers)
    return out


def _narrow(ln: ExtractedLine, widest: float) -> bool:
    """A line well short of the page's measure (a listed topic, not running text)."""
    return ln.x1 - ln.x0 <= _NARROW * widest


def _forms(title: str) -> list[str]:
    """The keys a contents title may recur under in the book: the whole title, and
    the title after its label (``מאמר א׳ ­ מעלות התורה``: the book prints ``מאמר א׳``
    and ``מעלות התורה`` on lines of their own)."""
    whole = _strip_number(title)
    parts = _LABEL_DASH.split(whole, maxsplit=1)
    return [_key(whole)] + ([_key(parts[1])] if len(parts) == 2 and parts[1].strip() else [])


def _has_leaders(text: str) -> bool:
    return ". ." in text or ".." in text or "…" in text


def _strip_number(text: str) -> str:
    """A contents title without its entry number (``1.2``, ``פרק 3 /``)."""
    return re.sub(r"^\s*\d+(?:\.\d+)*\.?\s+", "", text).strip()


def _is_number_line(
    ln: ExtractedLine, page: ExtractedPage, i: int, lines: list[int], body: float
) -> bool:
    text = " ".join(ln.text.split())
    if _NUMBER_LINE.match(text):
        # A chapter numeral set larger than the text, inside the page, is no page number.
        return not is_chapter_numeral(ln, page, body)
    if not _HEBREW_NUMBER.match(text) or i not in (lines[0], lines[-1]):
        return False
    return _in_band(ln, page) is not None


def is_chapter_numeral(ln: ExtractedLine, page: ExtractedPage, body: float) -> bool:
    """A bare number set larger than the body text, away from the page's top and bottom
    bands: a chumash's or a code's chapter number (``2`` over chapter 2), not a page's."""
    value = _numeral(ln.text)
    return (
        value is not None
        and body > 0
        and ln.size >= _NUMERAL_SIZE * body
        and _in_band(ln, page) is None
    )


def _numeral(text: str) -> int | None:
    """``2`` for ``2``, and for ``2 2`` (the numeral of both columns of a parallel text)."""
    words = set(text.split())
    if len(words) != 1:
        return None
    word = words.pop()
    return int(word) if word.isdigit() and len(word) <= 3 else None


def _in_band(ln: ExtractedLine, page: ExtractedPage) -> str | None:
    """``"top"`` or ``"bottom"`` when the line stands in the page's top or bottom band."""
    if page.height <= 0:
        return None
    if ln.y <= _BAND * page.height:
        return "top"
    if ln.y >= (1 - _BAND) * page.height:
        return "bottom"
    return None


def _running(doc: ExtractedDocument) -> dict[int, set[int]]:
    """Running header and footer lines left among the text lines."""
    met: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for k, page in enumerate(doc.pages):
        lines = _text_lines(page)
        for i in {*lines[:2], *lines[-2:]}:
            ln = page.lines[i]
            band = _in_band(ln, page)
            if band is None:
                continue
            text = _key(ln.text)
            # A footer keeps its shape while its numbers change ("chapter 1", "chapter
            # 2"); atop a page the numbers tell chapters apart ("פרק 1", "פרק 2").
            key = _DIGITS.sub("#", text) if band == "bottom" else _masked_edges(text)
            if key and any(ch.isalpha() for ch in key):
                met[(band, key)].append((k, i))
    out: dict[int, set[int]] = defaultdict(set)
    for (band, _), where in met.items():
        if len({k for k, _ in where}) < _RECURS:
            continue
        if band == "top" and _retitled(doc, where):
            continue
        looks = Counter(_look(doc.pages[k].lines[i]) for k, i in where[1:])
        k0, i0 = where[0]
        first = doc.pages[k0].lines[i0]
        # The chapter's own title, which the running header then repeats, is kept:
        # it is a heading set otherwise than the running lines after it.
        keep_first = (
            band == "top" and first.kind == "heading" and _look(first) != looks.most_common(1)[0][0]
        )
        for k, i in where[1:] if keep_first else where:
            out[k].add(i)
    for k, i in _running_slot(doc, met):
        out[k].add(i)
    for k, i in _unmarked_headers(doc):
        out[k].add(i)
    return out


def _unmarked_headers(doc: ExtractedDocument) -> list[tuple[int, int]]:
    """Running headers extraction did not mark, on pages where it marked none: the first
    text line (or two) atop the page, holding every word the book's marked running headers
    share (``אור`` … ``לציון`` around a section and a page numeral that change), and
    hardly longer than they are. An OCR layer gives such a line in another word order
    and a larger size now and then, so neither its text nor its look recurs.
    """
    marked: dict[int, list[str]] = defaultdict(list)
    for k, page in enumerate(doc.pages):
        for ln in page.lines:
            if ln.kind == "header" and ln.text.strip():
                marked[k] += normalize_for_match(ln.text).split()
    pages = set(marked)
    if len(pages) < _HEADER_PAGES:
        return []
    counts = Counter(w for words in marked.values() for w in set(words) if w.isalpha())
    shared = {w for w, n in counts.items() if n >= _SHARED * len(pages)}
    if len(shared) < 2:
        return []
    longest = max(len(words) for words in marked.values())
    out: list[tuple[int, int]] = []
    for k, page in enumerate(doc.pages):
        lines = _text_lines(page)
        if k in pages or not lines:
            continue
        # Its fields may come as two lines on one baseline (section | book and page).
        top = [i for i in lines[:2] if _in_band(page.lines[i], page) == "top"]
        for n in range(1, len(top) + 1):
            words = [w for i in top[:n] for w in normalize_for_match(page.lines[i].text).split()]
            if shared <= set(words) and len(words) <= longest + 1:
                out.extend((k, i) for i in top[:n])
                break
    return out


def _retitled(doc: ExtractedDocument, where: list[tuple[int, int]]) -> bool:
    """A title met atop several pages, each time over a new subtitle (``הלכות שבת`` over
    ``דיני קידוש``, later over ``דיני הבדלה``): each is a new section, not a running
    header, which stands alone and atop pages in a row."""
    pages = sorted({k for k, _ in where})
    if any(b - a <= 1 for a, b in pairwise(pages)):
        return False  # atop pages in a row: a running header, whatever stands under it
    subtitles: list[str] = []
    for k, i in where:
        page = doc.pages[k]
        if page.lines[i].kind != "heading":
            return False
        after = [j for j in _text_lines(page) if j > i]
        if not after or page.lines[after[0]].kind != "heading":
            return False
        subtitles.append(_key(page.lines[after[0]].text))
    return len(set(subtitles)) == len(subtitles)


def _running_slot(
    doc: ExtractedDocument, met: dict[tuple[str, str], list[tuple[int, int]]]
) -> list[tuple[int, int]]:
    """Running headers that change with each short section: a line atop two pages in a
    row, set exactly as the lines atop many other pages (the book's running-header
    slot, whose text changes from section to section)."""
    slot: dict[tuple[float, bool, int], set[int]] = defaultdict(set)
    for (band, _), where in met.items():
        if band == "top":
            for k, i in where:
                slot[_look(doc.pages[k].lines[i])].add(k)
    out: list[tuple[int, int]] = []
    for (band, _), where in met.items():
        pages = sorted({k for k, _ in where})
        if band != "top" or not 2 <= len(pages) < _RECURS or pages[-1] - pages[0] >= len(pages):
            continue
        looks = {_look(doc.pages[k].lines[i]) for k, i in where}
        if len(looks) == 1 and len(slot[looks.pop()]) >= _SLOT_PAGES:
            out.extend(where)
    return out


def _masked_edges(text: str) -> str:
    """A running header's page or chapter number at either end masked, when the rest
    is a title of two words or more (``פרק 1`` and ``פרק 2`` stay apart)."""
    rest = _without_edge_numbers(text)
    if rest != text and len(rest.split()) >= 2:
        return f"# {rest}"
    return text


def _without_edge_numbers(text: str) -> str:
    """``text`` less a number of 1-3 digits and its spaces at either end.

    A scan, not one pattern: a lazy middle before an optional spaced number backtracks
    over every split of a long run of spaces (quadratic in a hostile line).
    """
    lead = _LEAD_NUMBER.match(text)
    rest = text[lead.end() :] if lead else text
    end = len(rest)
    digits = end
    while digits > 0 and rest[digits - 1].isdecimal():
        digits -= 1
    gap = digits
    while gap > 0 and rest[gap - 1].isspace():
        gap -= 1
    if 1 <= end - digits <= 3 and gap < digits:
        return rest[:gap]
    return rest


def _look(ln: ExtractedLine) -> tuple[float, bool, int]:
    return round(ln.size, 1), ln.bold, round(ln.y / 3)


def left_out(doc: ExtractedDocument) -> dict[int, set[int]]:
    """Every text line that is not the book's text: page index -> line indices."""
    out: dict[int, set[int]] = defaultdict(set)
    for k, found in contents_pages(doc).items():
        out[k] |= found
    for k, found in _running(doc).items():
        out[k] |= found
    # Chapter numerals that run 1, 2, 3 ... become the segments' titles (``פרק ב``);
    # their lines, one per column of a parallel text, are left out like page numbers.
    values = {v for _, _, v in chapter_numerals(doc)}
    for k, page in enumerate(doc.pages):
        lines = _text_lines(page)
        for i in lines:
            ln = page.lines[i]
            if _is_number_line(ln, page, i, lines, doc.body_size) or (
                values
                and is_chapter_numeral(ln, page, doc.body_size)
                and _numeral(ln.text) in values
            ):
                out[k].add(i)
    return {k: v for k, v in out.items() if v}


def book_text(doc: ExtractedDocument) -> ExtractedDocument:
    """The document without its contents pages and stray page furniture (see the module).

    Only body and heading lines are ever left out; the rest is unchanged, so the
    result's ``text`` is the text a reader translates. Applying it twice changes
    nothing more.
    """
    drop = left_out(doc)
    if not drop:
        return doc
    pages = [
        page.model_copy(
            update={"lines": [ln for i, ln in enumerate(page.lines) if i not in drop[k]]}
        )
        if k in drop
        else page
        for k, page in enumerate(doc.pages)
    ]
    return doc.model_copy(update={"pages": pages})


def chapter_numerals(doc: ExtractedDocument) -> list[tuple[int, int, int]]:
    """Chapter numerals running up one by one (at least three): (page number, line
    index, value), one per chapter (a parallel text prints the numeral in each column)."""
    seen: dict[int, tuple[int, int, int]] = {}
    for page in doc.pages:
        for i, ln in enumerate(page.lines):
            if ln.kind in _TEXT_KINDS and is_chapter_numeral(ln, page, doc.body_size):
                value = _numeral(ln.text)
                if value is not None:
                    seen.setdefault(value, (page.number, i, value))
    run = sorted(seen.values(), key=lambda t: (t[0], t[1]))
    values = [v for _, _, v in run]
    if len(run) < 3 or values != list(range(values[0], values[0] + len(values))):
        return []
    return run
