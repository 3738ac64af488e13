"""A printed table of contents read as the document's own outline.

Where a PDF has no bookmarks, its printed contents page (``פרק 3 / מצבי חירום ... 50``,
``2. מטרות העזרה הראשונה הנפשית 10``) is still the author's list of chapters, with
their pages. :func:`printed_toc` finds it among the first pages: a page with at least
:data:`MIN_ENTRIES` lines that end in a page number (after dot leaders or not; an
entry may wrap, or have its number on a line of its own), the numbers never going
down. The printed page numbers are mapped to the PDF's by the offset most entries
agree on (a title found as a heading line near its page); a list whose titles head
too few pages (under a quarter, or under two) is not a table of contents.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter

from libtext.headings._line import parse_heading
from libtext.hebrew import normalize_for_match
from libtext.models import DocumentHeading, ExtractedDocument, ExtractedPage

__all__ = ["MIN_ENTRIES", "contents_entries", "contents_rows", "printed_toc"]

MIN_ENTRIES = 4
_SCAN_PAGES = 12
_ENTRY = re.compile(
    r"^(?P<title>.*?[^\W\d_].*?)\s*(?P<leaders>\.{2,}|…+|(?:\s?\.){3,})?\s*(?P<page>\d{1,4})$"
)
_NUMBERED = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})*)\.?\s+(?=\S)")
_WORD_NUMBERED = re.compile(
    r"^(?:פרק|חלק|שער|סימן|נספח|Chapter|Part)\s+(?P<num>[\dא-ת]{1,4}['׳\"״]?)(?![\w])\s*[/:–—-]?\s*",
    re.IGNORECASE,
)
_LEADERS = re.compile(r"(?:\s?\.){2,}\s*$|…+\s*$")


def contents_entries(page: ExtractedPage) -> list[tuple[str, int]]:
    """The page's lines read as contents entries: (title, printed page number)."""
    return [(title, number) for title, number, _ in contents_rows(page)]


def contents_rows(page: ExtractedPage) -> list[tuple[str, int, list[int]]]:
    """Contents entries with the indices (into ``page.lines``) of the lines each spans.

    An entry may take two lines (a wrapped title, or a title and its page number on
    a line of its own): the lines that make it are the ones to keep out of the text.
    """
    out: list[tuple[str, int, list[int]]] = []
    pending = row_title = ""
    pending_at: list[int] = []
    row_at = 0
    for i, ln in enumerate(page.lines):
        if ln.kind not in ("body", "heading"):
            continue
        text = " ".join(ln.text.split())
        if text.isdigit() and pending:
            out.append((pending, int(text), [*pending_at, i]))
            pending, pending_at = "", []
            continue
        if text.isdigit() and row_title and abs(ln.y - page.lines[row_at].y) < 2:
            # A row whose page number sits at the far margin, read as a line of its own.
            out.append((row_title, int(text), [row_at, i]))
            row_title = ""
            continue
        row_title = text if any(ch.isalpha() for ch in text) and not text[-1].isdigit() else ""
        row_at = i
        # Only a line that ends in a number can be an entry: the pattern is not tried
        # on the rest (long body lines are most of a book).
        m = _ENTRY.match(text) if text[-1:].isdigit() else None
        if m is None:
            # A title waiting for its number on the next line, or the first line of
            # a wrapped entry ("title:" then its subtitle): the title is kept alone.
            starts_entry = bool(_NUMBERED.match(text) or _WORD_NUMBERED.match(text))
            pending, pending_at = (text, [i]) if starts_entry else ("", [])
            continue
        title = m.group("title")
        heading = parse_heading(text)
        if heading is not None and heading[0] and not m.group("leaders"):
            pending, pending_at = "", []
            continue  # "שאלה 3", "פרק 7": a numbered heading, not an entry
        at = [i]
        if pending:
            head = pending.rstrip()
            title = head.rstrip(":") if head.endswith(":") else f"{head} {title}"
            at = [*pending_at, i]
            pending, pending_at = "", []
        out.append((_LEADERS.sub("", title).strip(), int(m.group("page")), at))
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
