"""The offline outline: title page, chapter headings and segments, with no network.

:func:`offline_outline` turns an :class:`~libtext.models.ExtractedDocument` into a
:class:`~libtext.models.DocumentOutline` deterministically:

* source metadata from the title page (its largest line is the work, the line after
  ``מאת`` or the next largest is the author, a smaller line above the work is the
  publication), falling back to the PDF's metadata;
* chapter headings from the lines extraction marked as headings, the chapter level
  being the most frequent font size of the headings written like ``פרק ג`` /
  ``סימן י"א`` / ``השער השני`` / ``אות שניה`` (the smaller on a tie; else the largest
  recurring heading size). Larger headings alone on a page are part titles;
  smaller ones are sub-headings inside a chapter. Running headers never get here:
  extraction marks them as headers;
* one segment per chapter, its start and end phrases cut from its first and last
  body lines, so that they occur verbatim in ``doc.text``, and its opening sentence
  as an honest offline summary.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from libtext.hebrew import edge_words, normalize_quotes, parse_numeral
from libtext.models import (
    DocumentOutline,
    ExtractedDocument,
    ExtractedLine,
    ExtractedPage,
    OutlineSegment,
    SourceMetadata,
)

__all__ = [
    "HEADING_LINE",
    "HEADING_WORDS",
    "Heading",
    "find_headings",
    "offline_outline",
    "parse_heading",
    "text_page",
]

_TEXT_BODY_SIZE = 10.0
"""Font size given to body lines of text that has no layout (see :func:`text_page`)."""
_TEXT_HEADING_SIZE = 12.0

HEADING_WORDS = (
    "פרק", "סימן", "שער", "אות", "חלק", "מאמר", "ספר", "הלכה", "הלכות", "מזמור",
    "דרוש", "שיחה", "אגרת", "קונטרס", "תורה", "ענין", "עניין", "פסקה", "משנה",
    "דף", "מצוה", "מצווה", "שורש", "כלל", "עיקר", "יסוד", "מדה", "מידה", "פתח",
    "פרשה", "פרשת", "שאלה", "תשובה", "סעיף", "מאמר", "נתיב", "היכל", "בית",
)  # fmt: skip
"""Words that open a numbered heading (``פרק ג``, ``סימן יא``, ``שער הא``)."""

_UNNUMBERED = (
    "הקדמה", "הקדמת", "פתיחה", "פתח דבר", "מבוא", "הסכמה", "הסכמות", "סיום", "מפתח",
    "תוכן", "מילואים", "הוספה", "הוספות", "נספח", "אחרית דבר", "הערות",
)  # fmt: skip

_ORDINALS = {
    "ראשון": 1, "שני": 2, "שלישי": 3, "רביעי": 4, "חמישי": 5, "ששי": 6, "שישי": 6,
    "שביעי": 7, "שמיני": 8, "תשיעי": 9, "עשירי": 10,
    "ראשונה": 1, "שניה": 2, "שנייה": 2, "שלישית": 3, "רביעית": 4, "חמישית": 5,
    "ששית": 6, "שישית": 6, "שביעית": 7, "שמינית": 8, "תשיעית": 9, "עשירית": 10,
}  # fmt: skip
"""Ordinal words, masculine and feminine (``שער שני``, ``אות שניה``)."""

_NUM = r"(?P<num>[א-ת]{1,4}(?:['\"׳״][א-ת]?)?|\d{1,4})"
_WORDS = "|".join(sorted(set(HEADING_WORDS), key=len, reverse=True))
_ORD = "|".join(sorted(_ORDINALS, key=len, reverse=True))
HEADING_LINE = re.compile(
    # "השער הראשון": the definite article on both words; else "שער ראשון", "שער א".
    rf"^(?:ה(?P<dword>{_WORDS})\s+ה(?P<dord>{_ORD})|(?P<word>{_WORDS})\s+"
    rf"(?:ה?(?P<ord>{_ORD})(?![א-ת])|{_NUM}))"
    r"['\"׳״]?(?:\s*[-–—:.,]\s*(?P<title>.*\S))?\s*[.:]?$"
)
"""A whole line that is a numbered heading: heading word, numeral, optional title."""

_BY = re.compile(r"^(?:מאת|מאתו|מאתי|חיברו|חובר|לרבינו|לרבנו|by)\b[:\s]*", re.IGNORECASE)
# Invocations printed atop title pages, not titles.
_INVOCATIONS = frozenset({'בס"ד', 'ב"ה', 'בעזהי"ת', 'בעזה"י', 'בע"ה', "בסייעתא דשמיא"})
_SENTENCE_END = re.compile(r"[.!?:](?=[\s\"'״”)]|$)")
_WORD = re.compile(r"\S+")
_PHRASE_WORDS = 8
_SUMMARY_WORDS = 40


@dataclass(slots=True)
class Heading:
    """A heading block found in a document (one or more adjacent heading lines)."""

    text: str
    page: int
    size: float
    line_index: int
    lines: list[str] = field(default_factory=list)
    number: int | None = None
    word: str = ""
    level: str = "chapter"  # "part", "chapter" or "sub"


def parse_heading(text: str, *, loose: bool = False) -> tuple[str, int | None] | None:
    """``("פרק", 3)`` for ``פרק ג``; ``("", None)`` for unnumbered headings like
    ``הקדמה``; ``None`` when the line is not written like a heading.

    With ``loose`` (for lines the layout already shows are headings), a title may
    follow the numeral without a separator: ``פרק ג מעלת התורה``.
    """
    line = " ".join(text.split())
    m = HEADING_LINE.match(line)
    if m is None and loose:
        words = line.split(" ", 2)
        if len(words) == 3:
            head = parse_heading(" ".join(words[:2]))
            if head is not None and head[0]:
                return head
    if m:
        word = m.group("word") or m.group("dword")
        ordinal = m.group("ord") or m.group("dord")
        if ordinal:
            return word, _ORDINALS[ordinal]
        num = m.group("num")
        value = int(num) if num.isdigit() else parse_numeral(num, spelled=True)
        if value is not None:
            return word, value
        return None
    if any(line == w or line.startswith(w + " ") for w in _UNNUMBERED) and len(line.split()) <= 8:
        return "", None
    return None


def text_page(
    number: int, lines: Iterable[str], *, headings: Collection[str] = (), skip_blank: bool = False
) -> ExtractedPage:
    """Plain text lines as an :class:`ExtractedPage`, lines that read as headings marked.

    For text without layout (plain text, library pages): a line in ``headings`` or
    written like a heading (``פרק ג``, ``הקדמה``) becomes a heading one size above the
    body, so the offline rules and the section cut find the chapters. A numbered
    heading may carry a short title; an unnumbered one stands alone.
    """
    page_lines: list[ExtractedLine] = []
    for raw in lines:
        line = raw.strip()
        if skip_blank and not line:
            continue
        parsed = parse_heading(line, loose=True) if 0 < len(line) < 80 else None
        heading = line in headings or (
            parsed is not None and len(line.split()) <= (8 if parsed[0] else 3)
        )
        page_lines.append(
            ExtractedLine(
                text=line,
                kind="heading" if heading else "body",
                size=_TEXT_HEADING_SIZE if heading else _TEXT_BODY_SIZE,
                bold=heading,
            )
        )
    return ExtractedPage(number=number, lines=page_lines)


def _is_title_page(doc: ExtractedDocument) -> bool:
    if not doc.pages or doc.pages[0].number != 1:
        return False
    lines = doc.pages[0].lines
    body = doc.body_size or 0.0
    if not lines or len(lines) > 18:
        return False
    paragraphs = sum(1 for ln in lines if abs(ln.size - body) < 0.5 and len(ln.text.split()) > 6)
    biggest = max(ln.size for ln in lines)
    top = next(ln for ln in lines if ln.size == biggest)
    parsed = parse_heading(top.text)
    if parsed is not None and parsed[0]:
        return False  # the book opens with its first chapter, e.g. "חלק א"
    return paragraphs <= 3 and (not body or biggest >= body * 1.15)


def _title_metadata(doc: ExtractedDocument, title_page: bool) -> SourceMetadata:
    work = author = publication = ""
    if title_page:
        lines = [
            ln
            for ln in doc.pages[0].lines
            if ln.text.strip() and normalize_quotes(ln.text.strip()) not in _INVOCATIONS
        ]
        top = max(ln.size for ln in lines)
        work_idx = [i for i, ln in enumerate(lines) if abs(ln.size - top) < 0.5]
        # The work title: the first run of the largest lines.
        run = [work_idx[0]]
        for i in work_idx[1:]:
            if i == run[-1] + 1:
                run.append(i)
        work = " ".join(lines[i].text.strip() for i in run)
        below = lines[run[-1] + 1 :]
        author = _by_line(below)
        if not author and below:
            author = max(below, key=lambda ln: ln.size).text.strip()
        above = lines[: run[0]]
        if above:
            publication = max(above, key=lambda ln: ln.size).text.strip()
    elif doc.pages and doc.pages[0].number == 1 and not doc.title:
        # No title page and no metadata: a heading atop page 1 that is not a chapter,
        # and the "מאת …" line under it.
        opening = doc.pages[0].lines[:6]
        for k, ln in enumerate(opening):
            if ln.kind == "heading" and parse_heading(ln.text) is None:
                work = ln.text.strip()
                author = _by_line(opening[k + 1 : k + 3])
                break
    work = work or doc.title or _running_title(doc)
    author = author or doc.author
    publication = publication or doc.title or work
    return SourceMetadata(publication_title=publication, work_title=work, author_name=author)


def _by_line(lines: list[ExtractedLine]) -> str:
    """The author named by a ``מאת …`` / ``לרבנו …`` line (or the line after a bare one)."""
    for k, ln in enumerate(lines):
        m = _BY.match(ln.text.strip())
        if m:
            rest = ln.text.strip()[m.end() :].strip()
            return rest or (lines[k + 1].text.strip() if k + 1 < len(lines) else "")
    return ""


def _running_title(doc: ExtractedDocument) -> str:
    """The running header most pages carry, when it is not a chapter name."""
    counts = Counter(
        " ".join(ln.text.split())
        for page in doc.pages
        for ln in page.lines
        if ln.kind == "header" and not any(ch.isdigit() for ch in ln.text)
    )
    for text, n in counts.most_common(3):
        if n >= max(2, len(doc.pages) // 3) and parse_heading(text) is None:
            return text
    return ""


def find_headings(doc: ExtractedDocument) -> list[Heading]:
    """Heading blocks in reading order, each with its level (part, chapter, sub)."""
    title_page = _is_title_page(doc)
    blocks: list[Heading] = []
    for p, page in enumerate(doc.pages):
        if p == 0 and title_page:
            continue
        has_body = any(ln.kind == "body" for ln in page.lines)
        i = 0
        lines = page.lines
        while i < len(lines):
            if lines[i].kind != "heading":
                i += 1
                continue
            j = i + 1
            while j < len(lines) and lines[j].kind == "heading" and _same_block(lines[i], lines[j]):
                j += 1
            texts = [" ".join(ln.text.split()) for ln in lines[i:j]]
            parsed = parse_heading(texts[0], loose=True)
            blocks.append(
                Heading(
                    text=" ".join(texts),
                    page=page.number,
                    size=lines[i].size,
                    line_index=i,
                    lines=texts,
                    number=parsed[1] if parsed else None,
                    word=parsed[0] if parsed else "",
                    level="part" if not has_body else "chapter",
                )
            )
            if parsed is None:
                blocks[-1].word = "?"  # not written like a heading
            i = j
    _assign_levels(blocks)
    return blocks


def _same_block(first: ExtractedLine, other: ExtractedLine) -> bool:
    # A heading's second line (its title) is close below it and not much larger; a
    # line written as a numbered heading of its own (a part title, then "פרק א")
    # starts a new block.
    if other.size > first.size * 1.05 or other.y - first.y >= 2.5 * max(first.size, 1.0):
        return False
    parsed = parse_heading(other.text)
    return parsed is None or not parsed[0]


def _assign_levels(blocks: list[Heading]) -> None:
    candidates = [b for b in blocks if b.level != "part"]
    if not candidates:
        # Every heading stands alone on its page: they are the chapters.
        for b in blocks:
            b.level = "chapter"
        return
    patterned = Counter(round(b.size) for b in candidates if b.word not in ("?", ""))
    if patterned:
        # The most frequent size of numbered headings; on a tie the smaller one, as
        # parts are larger and fewer than their chapters.
        top = max(patterned.values())
        chapter_size = float(min(s for s, n in patterned.items() if n == top))
    else:
        sizes = Counter(round(b.size) for b in candidates)
        recurring = [s for s, n in sizes.items() if n >= 2]
        chapter_size = float(max(recurring or sizes))
    for b in blocks:
        if b.level == "part" and b.size >= chapter_size * 1.04:
            continue  # alone on its page and larger: a part title
        if b.size > chapter_size * 1.08 and patterned:
            b.level = "part"
        elif b.size >= chapter_size * 0.94:
            b.level = "chapter"
        else:
            b.level = "sub"


def _summary(lines: list[str]) -> str:
    words: list[str] = []
    for line in lines:
        words.extend(line.split())
        if len(words) >= _SUMMARY_WORDS * 2:
            break
    text = " ".join(words)
    for m in _SENTENCE_END.finditer(text):
        if len(text[: m.end()].split()) >= 6:
            sentence = text[: m.end()]
            if len(sentence.split()) <= _SUMMARY_WORDS:
                return sentence
            break
    if len(words) > _SUMMARY_WORDS:
        return " ".join(words[:_SUMMARY_WORDS]) + " …"
    return text


def offline_outline(doc: ExtractedDocument) -> DocumentOutline:
    """Outline a document offline: metadata plus one segment per chapter.

    Deterministic and network-free. When no chapter heading is found the whole text
    is one segment titled with the work title.
    """
    title_page = _is_title_page(doc)
    metadata = _title_metadata(doc, title_page)
    headings: list[Heading] = []
    for h in find_headings(doc):
        if h.level not in ("part", "chapter"):
            continue
        last = next((k for k in reversed(headings) if k.level == h.level), None)
        if last is not None and h.line_index == 0 and h.page > last.page and h.text == last.text:
            continue  # a running header repeating the chapter name: not a new chapter
        headings.append(h)
    # Body lines in reading order with their page numbers and positions.
    flow: list[tuple[int, int, str]] = []
    for p, page in enumerate(doc.pages):
        if p == 0 and title_page:
            continue
        for i, ln in enumerate(page.lines):
            if ln.kind == "body" and ln.text.strip():
                flow.append((page.number, i, ln.text.strip()))
    starts = [(h.page, h.line_index) for h in headings]
    segments: list[OutlineSegment] = []
    part = ""
    chapters = [h for h in headings if h.level == "chapter"]
    if not chapters:
        if flow:
            segments.append(_segment(1, None, metadata.work_title, flow, part=""))
        return DocumentOutline(source_metadata=metadata, outline_segments=segments)
    for k, h in enumerate(headings):
        if h.level == "part":
            part = h.text
            continue
        begin = (h.page, h.line_index)
        following = [s for s in starts[k + 1 :] if s > begin]
        end = following[0] if following else (10**9, 0)
        body = [f for f in flow if begin < (f[0], f[1]) < end]
        if not body:
            continue
        segments.append(_segment(len(segments) + 1, h, h.lines[0], body, part=part))
    return DocumentOutline(source_metadata=metadata, outline_segments=segments)


def _segment(
    seq: int, h: Heading | None, title: str, body: list[tuple[int, int, str]], *, part: str
) -> OutlineSegment:
    full = h.text if h else title
    segment_title = f"{part} — {full}" if part else full
    return OutlineSegment(
        sequence_id=seq,
        chapter_number=str(h.number) if h and h.number is not None else "",
        chapter_title=title,
        segment_title=segment_title,
        summary=_summary([b[2] for b in body[:12]]),
        page_ref=str(h.page if h else body[0][0]),
        start_phrase_hebrew=edge_words(body[0][2], _PHRASE_WORDS),
        end_phrase_hebrew=edge_words(body[-1][2], _PHRASE_WORDS, last=True),
    )
