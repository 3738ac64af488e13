"""Segments from the headings a PDF declares itself (its bookmarks).

When a PDF has a usable document outline, it is the author's own table of contents:
every entry (down to :data:`MAX_LEVEL`) becomes a segment at its page, and nothing is
guessed from the layout. Each entry is placed on its printed heading line (the line
of its page most like its title, nearest where the bookmark points), and the
segment's start phrase is cut verbatim from the first body line after it.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from libtext.headings._line import parse_heading, without_gloss
from libtext.headings._toc import MIN_ENTRIES, contents_entries
from libtext.hebrew import normalize_for_match
from libtext.models import DocumentHeading, ExtractedDocument, ExtractedPage, OutlineSegment

__all__ = [
    "MAX_LEVEL",
    "declared_segments",
    "one_destination_each",
    "structure_hints",
    "unlisted_like_listed",
    "usable_bookmarks",
]

MAX_LEVEL = 3
"""Deeper outline entries are folded into their parent's segment."""

_PHRASE_WORDS = 8
_MATCH = 0.6
_SAME_TITLE = 0.9  # a printed line that reads as a bookmark's title, at least
_WORD = re.compile(r"\S+")
_LEADING_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+")
_LATIN_LABEL = re.compile(
    r"^(?:part|chapter|book|section|volume)\s+(?:\d{1,3}|[ivxlc]{1,6}|[a-z]+)\.?$", re.IGNORECASE
)


@dataclass(slots=True)
class _Placed:
    heading: DocumentHeading
    path: list[str]
    page_index: int
    line_index: int
    printed: bool = False  # placed on a line that prints its title


def usable_bookmarks(doc: ExtractedDocument) -> list[DocumentHeading]:
    """The document's bookmarks on pages it has, shallow enough to be segments."""
    numbers = {p.number for p in doc.pages}
    return [
        h
        for h in doc.headings
        if h.source == "bookmark" and h.page in numbers and h.level <= MAX_LEVEL
    ]


def one_destination_each(
    doc: ExtractedDocument, listed: list[DocumentHeading]
) -> list[DocumentHeading]:
    """Bookmarks that share one destination (a producer that anchored several sections
    at the first one's place) moved each to where its title is printed, between that
    destination and the next bookmark's; one whose title is found nowhere there stays.

    Left at one place, all but the first would be empty sections, and the first would
    hold the text of them all. The outline keeps the destinations the PDF declares;
    the sections are cut where the titles are printed.
    """
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    out = list(listed)
    k = 0
    while k < len(out):
        where = (out[k].page, out[k].y)
        end = k + 1
        while end < len(out) and (out[end].page, out[end].y) == where:
            end += 1
        if end - k >= 2:
            limit = (out[end].page, out[end].y) if end < len(out) else (10**9, 0.0)
            after = (where[0], where[1] - 2)
            for j in range(k, end):
                found = _printed_after(doc, index_of, out[j].title, after, limit)
                if found is not None:
                    after = found
                    out[j] = out[j].model_copy(update={"page": found[0], "y": found[1] - 1})
        k = end
    return sorted(out, key=lambda h: (h.page, h.y)) if out != listed else out


def _printed_after(
    doc: ExtractedDocument,
    index_of: dict[int, int],
    title: str,
    after: tuple[int, float],
    limit: tuple[int, float],
) -> tuple[int, float] | None:
    """(page, y) of the first heading line after ``after`` and before ``limit`` that
    reads as ``title``."""
    for number in range(after[0], limit[0] + 1):
        if number not in index_of:
            continue
        for ln in doc.pages[index_of[number]].lines:
            place = (number, ln.y)
            if place <= after or place >= limit or ln.kind != "heading":
                continue
            if _similarity(title, ln.text) >= _SAME_TITLE:
                return place
    return None


def unlisted_like_listed(
    doc: ExtractedDocument, listed: list[DocumentHeading], skip_first_page: bool = False
) -> list[DocumentHeading]:
    """Headings printed exactly like the top bookmarked ones but missing from the outline.

    Producers leave some chapters out of the bookmarks (LaTeX's starred
    ``\\chapter*``: an introduction, a bibliography); they are set in the same
    size and weight as the listed chapters (the titles of lists of contents, figures
    and tables are set so too, and left out). A look counts when at least two top-level
    bookmarks land on lines of it; a heading line of that look, on no listed line and
    with no listed title near it, joins the outline at that level.
    """
    if not listed:
        return []
    top = min(h.level for h in listed)
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    looks: Counter[tuple[float, bool]] = Counter()
    taken: set[tuple[int, int]] = set()
    for h in listed:
        page = doc.pages[index_of[h.page]]
        i = _place(page, h, fallback=False)
        if i is None:
            continue
        taken.add((h.page, i))
        if h.level == top:
            ln = page.lines[i]
            looks[(round(ln.size, 1), ln.bold)] += 1
    usual = {look for look, n in looks.items() if n >= 2}
    found: list[DocumentHeading] = []
    for k, page in enumerate(doc.pages):
        if (k == 0 and skip_first_page) or _lists_pages(page, len(doc.pages)):
            continue  # a list of contents, figures or tables is no chapter
        for i, ln in enumerate(page.lines):
            title = " ".join(ln.text.split())
            if (
                ln.kind != "heading"
                or not title
                or (page.number, i) in taken
                or (round(ln.size, 1), ln.bold) not in usual
            ):
                continue
            if any(
                abs(h.page - page.number) <= 1 and _similarity(h.title, title) >= _MATCH
                for h in listed
            ):
                continue
            if _bare_label(title) and any(h.page == page.number for h in listed):
                continue  # "Part 2" printed beside the part's listed title: its label
            found.append(DocumentHeading(title=title, page=page.number, level=top, y=ln.y))
    return found


def _bare_label(title: str) -> bool:
    """A numbered label with no title of its own: ``חלק ב``, ``Part 2``, ``Chapter IV``."""
    if _LATIN_LABEL.match(title):
        return True
    parsed = parse_heading(title)
    return parsed is not None and bool(parsed[0]) and len(title.split()) <= 2


def _lists_pages(page: ExtractedPage, pages: int) -> bool:
    """Whether the page is a list of contents, figures or tables: lines ending in page
    numbers (not years: a bibliography's) make most of its body, or many lines."""
    entries = [n for _, n in contents_entries(page) if n <= pages + 50]
    body = sum(1 for ln in page.lines if ln.kind == "body" and ln.text.strip())
    return bool(entries) and (len(entries) >= MIN_ENTRIES or 2 * len(entries) >= body)


def structure_hints(doc: ExtractedDocument) -> dict[int, set[int]]:
    """Lines the tagged structure marks as headings: page number -> line indices.

    Tags are often applied loosely (a Word style put on a sentence, an empty ``H1``),
    so they do not make the outline by themselves: they let the layout rules see a
    heading that is printed like body text. Entries that read as sentences are left
    out by the caller's rules; here only entries placed on a printed line count.
    """
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    hints: dict[int, set[int]] = {}
    for h in doc.headings:
        if h.source != "structure" or h.page not in index_of:
            continue
        page = doc.pages[index_of[h.page]]
        line = _place(page, h, fallback=False)
        if line is None:
            # Content streams often hold right-to-left text in visual order: the
            # element's text may be reversed, so its box decides.
            line = _place(page, h.model_copy(update={"title": h.title[::-1]}), fallback=False)
        if line is None and h.y:
            line = _at(page, h.y)
        if line is not None:
            hints.setdefault(h.page, set()).add(line)
    return hints


def _at(page: ExtractedPage, top: float) -> int | None:
    """The text line whose baseline sits just under ``top`` (within two sizes)."""
    best, best_gap = None, float("inf")
    for i in _text_lines(page):
        ln = page.lines[i]
        gap = ln.y - top
        if -2 <= gap <= 2 * max(ln.size, 1.0) and gap < best_gap:
            best, best_gap = i, gap
    return best


def _similarity(a: str, b: str) -> float:
    na = " ".join(normalize_for_match(_LEADING_NUMBER.sub("", a)).split())
    nb = " ".join(normalize_for_match(_LEADING_NUMBER.sub("", b)).split())
    if not na or not nb:
        return 0.0
    if na == nb:
        return 1.0
    if nb.startswith(na) or na.startswith(nb):
        return 0.9
    return difflib.SequenceMatcher(None, na, nb, autojunk=False).ratio()


def _text_lines(page: ExtractedPage) -> list[int]:
    return [
        i for i, ln in enumerate(page.lines) if ln.kind in ("body", "heading") and ln.text.strip()
    ]


def _place(page: ExtractedPage, h: DocumentHeading, *, fallback: bool = True) -> int | None:
    """Index (in ``page.lines``) of the heading's printed line, or ``None``.

    Without ``fallback``, only a line whose text matches the title counts; with it,
    when none does, the index just above the first line below where the heading
    points (-1 for the page's top): the segment's text begins after the index.
    """
    idx = _text_lines(page)
    if not idx:
        return None
    best, best_key = None, (0.0, 0.0)
    for i in idx:
        ln = page.lines[i]
        sim = _similarity(h.title, ln.text)
        if sim < _MATCH:
            continue
        near = -abs(ln.y - h.y) if h.y else 0.0
        key = (round(sim, 1), near)
        if best is None or key > best_key:
            best, best_key = i, key
    if best is not None or not fallback:
        return best
    if h.y:
        below = [i for i in idx if page.lines[i].y >= h.y - 2]
        if below:
            return below[0] - 1
    return idx[0] - 1


def _phrase_at(doc: ExtractedDocument, page_index: int, line_index: int) -> tuple[str, str]:
    """The segment's start phrase (the first words of its first body line after the
    heading line, verbatim) and its opening text (for the summary)."""
    lines: list[str] = []
    for p in range(page_index, len(doc.pages)):
        start = line_index + 1 if p == page_index else 0
        lines.extend(
            ln.text for ln in doc.pages[p].lines[start:] if ln.kind == "body" and ln.text.strip()
        )
        if len(lines) >= 12:
            break
    lines = [ln for ln in lines if any(ch.isalpha() for ch in ln)]  # not a lone point
    if not lines:
        return "", ""
    spans = [m.span() for m in _WORD.finditer(lines[0])][:_PHRASE_WORDS]
    return lines[0][spans[0][0] : spans[-1][1]], " ".join(lines[:12])


def _has_body(doc: ExtractedDocument, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether a body line with letters stands after ``start`` and before ``end``."""
    (p0, l0), (p1, l1) = start, end
    for p in range(p0, min(p1, len(doc.pages) - 1) + 1):
        lines = doc.pages[p].lines
        lo = l0 + 1 if p == p0 else 0
        hi = l1 if p == p1 else len(lines)
        if any(ln.kind == "body" and any(ch.isalpha() for ch in ln.text) for ln in lines[lo:hi]):
            return True
    return False


def _heading_words(doc: ExtractedDocument, at: tuple[int, int]) -> str:
    """The first words of the heading line at ``at``, verbatim; ``""`` when there is none."""
    p, i = at
    if i < 0 or i >= len(doc.pages[p].lines):
        return ""
    text = doc.pages[p].lines[i].text
    spans = [m.span() for m in _WORD.finditer(text)][:_PHRASE_WORDS]
    return text[spans[0][0] : spans[-1][1]] if spans else ""


def _last_words(doc: ExtractedDocument, start: tuple[int, int], end: tuple[int, int]) -> str:
    """The last words of the text lines from ``start`` up to (not including) ``end``."""
    (p0, l0), (p1, l1) = start, end
    for p in range(min(p1, len(doc.pages) - 1), p0 - 1, -1):
        lines = doc.pages[p].lines
        hi = l1 if p == p1 else len(lines)
        lo = l0 + 1 if p == p0 else 0
        for i in range(hi - 1, lo - 1, -1):
            ln = lines[i]
            if ln.kind in ("body", "heading") and any(ch.isalnum() for ch in ln.text):
                spans = [m.span() for m in _WORD.finditer(ln.text)][-_PHRASE_WORDS:]
                return ln.text[spans[0][0] : spans[-1][1]]
    return ""


def _number(title: str) -> str:
    """The heading's number: ``3`` for ``פרק ג`` or ``3 Results``; else empty."""
    leading = _LEADING_NUMBER.match(title)
    if leading:
        return leading.group(1)
    parsed = parse_heading(title, loose=True)
    return str(parsed[1]) if parsed and parsed[1] is not None else ""


def declared_segments(
    doc: ExtractedDocument,
    headings: list[DocumentHeading],
    summarize: Callable[[list[str]], str],
) -> list[OutlineSegment]:
    """One segment per declared heading, in document order.

    ``summarize`` turns the segment's opening lines into its summary.
    """
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    placed: list[_Placed] = []
    path: list[str] = []
    for h in headings:
        k = index_of[h.page]
        line = _place(doc.pages[k], h)
        if line is None:
            continue
        del path[h.level - 1 :]
        while len(path) < h.level - 1:
            path.append("")
        path.append(h.title)
        printed = _place(doc.pages[k], h, fallback=False) is not None
        placed.append(_Placed(h, [p for p in path if p], k, line, printed))
    placed.sort(key=lambda p: (p.page_index, p.line_index))
    segments: list[OutlineSegment] = []
    for n, item in enumerate(placed):
        if n + 1 < len(placed):
            nxt = placed[n + 1]
            end_at = (nxt.page_index, nxt.line_index)
        else:
            last = len(doc.pages) - 1
            end_at = (last, len(doc.pages[last].lines))
        here = (item.page_index, item.line_index)
        printed_next = n + 1 < len(placed) and placed[n + 1].printed and end_at != here
        if not (item.printed and printed_next) or _has_body(doc, here, end_at):
            start, opening = _phrase_at(doc, item.page_index, item.line_index)
        else:
            # An empty chapter (a heading, then at once a part title): kept, its own
            # heading line its whole text, so the next heading's text stays the next's.
            start = opening = _heading_words(doc, here)
        if not start:
            continue
        end = _last_words(doc, here, end_at) or start
        title = item.heading.title
        segments.append(
            OutlineSegment(
                sequence_id=len(segments) + 1,
                chapter_number=_number(title),
                chapter_title=without_gloss(title),
                segment_title=" — ".join(item.path),
                summary=summarize([opening]),
                page_ref=str(item.heading.page),
                start_phrase_hebrew=start,
                end_phrase_hebrew=end,
            )
        )
    return segments
