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

import bisect
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from itertools import pairwise

from libtext.headings._bold import bold_titles
from libtext.headings._declared import (
    declared_segments,
    one_destination_each,
    structure_hints,
    unlisted_like_listed,
    usable_bookmarks,
)
from libtext.headings._line import HEADING_LINE, HEADING_WORDS, parse_heading, without_gloss
from libtext.headings._matter import book_text, chapter_numerals
from libtext.headings._title_page import (
    by_line,
    clean_title,
    credit_lines,
    credits_author,
    form_title,
    framed_name,
    info_author_line,
    is_author_name,
    is_by_line,
    is_date,
    is_genre,
    is_invocation,
    name_like,
    publisher_before,
    title_run,
)
from libtext.headings._toc import printed_toc
from libtext.hebrew import edge_words, format_numeral, normalize_for_match
from libtext.models import (
    DocumentHeading,
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
    "book_text",
    "chapter_sections",
    "find_headings",
    "offline_outline",
    "parse_heading",
    "text_page",
]

_TEXT_BODY_SIZE = 10.0
"""Font size given to body lines of text that has no layout (see :func:`text_page`)."""
_TEXT_HEADING_SIZE = 12.0

_SENTENCE_END = re.compile(r"[.!?:](?=[\s\"'״”)]|$)")
_WORD = re.compile(r"\S+")
_PHRASE_WORDS = 8
_MAX_HEADING_WORDS = 14
_MAX_SECTION_WORDS = 8
_NOISY_PER_PAGE = 1.5  # more chapters a page than this: the sizes are noise
_LIST_ITEM = re.compile(r"^(?:[א-ת]|\d{1,3}|[a-zA-Z])[.)]\s")
_ITEM = re.compile(r"^(?:[א-ת]{1,2}|\d{1,3}|[a-zA-Z])[.)]\s")  # "יא. תשובה" too
_CONTINUED = ("המשך ", "(המשך")
_SMALLER = 0.95  # a line this much smaller than a title is set apart from it
_SAME_SIZE = 0.05  # lines of one size, a point either way
_PITCH = 1.6  # the next line of a paragraph stands this many sizes below, at most
_TEXT_ENDS = (".", ",", ":", ";", "!", "?", "׃", "…")  # "׃": a verse's sof pasuq
_QUOTES = ('"', "״", "“", "„", "'", "‘", "«")
_BULLETS = ("•", "▪", "◦", "·", "●", "■", "►", "➢", "✓")
_NUMBERED = re.compile(r"^\s*\.?\d{1,2}(?:\.\d{1,2})*[.)]?(?!\d)")  # "3.", ".3", "2.1"
_SUB_NUMBER = re.compile(r"^\d+\.\d+")  # "11.1 …": a section inside chapter 11
# A dedication's opening words (``לעלוי נשמת``, ``לזכר``, ``In memory of``): a
# dedication page is front matter, not a chapter.
_DEDICATION = re.compile(
    r"^(?:לעילוי|לעלוי|לעלות|לזכר|לזכרון|לע[\"״]נ|נדבת|מוקדש|הוקדש|in\s+(?:loving\s+)?memory"
    r"|dedicated|dedication)(?=\s|$|[:.])",
    re.IGNORECASE,
)
_FRONT_SHARE = 0.1  # dedications in this share of a book's pages (or its first pages) lead it
_FRONT_PAGES = 12
_NOISY_SIZES = 0.5  # distinct heading sizes per heading, over this: an OCR layer's sizes
_SIZE_STEP = 1.06  # in such sizes, a step under this ratio is noise, not another size
_SUMMARY_WORDS = 40
_OWN_CHAPTER_LINES = 4  # heading lines above a book's first chapter numeral on its page
_TITLE_SIZE = 1.25  # a title is set at least this much larger than the text
_DWARFS = 1.6  # a title this many times the next largest line on its page
_SAME_POINT = 0.5  # headings set in one size, to this many points
_ALIKE_PAGES = 2  # later pages opened by headings set as page 1's title: its chapters
_LONG_LINE = 6  # words of a line of running text, more than
_RUNNING_LINES = 3  # such lines under a first chapter's title on page 1, at least
_LONG_PAGES = 3  # a chapter over this many pages or more is cut at its own titles
_APART = 1.5  # a title has this many line steps of space above it, at least
_NEAR_BODY = 0.1  # a line this close to the text's size (a share of it) is set as the text
_LISTED = 3  # items of a part's list of its chapters, at least
_LABEL_WORDS = 3  # a bare numbered label: its word and numeral (a numeral split in two)
_LABEL_GAP = 3.0  # a chapter's name stands this many of its sizes under its label, at most


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
    level: str = "chapter"  # "part", "chapter", "sub" or "alternate" (another's title)
    plain: bool = False  # a bold title at body size, told by weight and space alone
    aside: bool = False  # set off the page's middle (flush to a side), not centred


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
    page = doc.pages[0]
    return _looks_like_title_page(page, doc.body_size or 0.0, 1.15) and not _opens_a_chapter(doc)


def _opens_a_chapter(doc: ExtractedDocument) -> bool:
    """Whether page 1's largest line, set larger than the text over running text (a
    few lines of many words), is set as headings of later pages (their size and
    weight, on two pages or more): a short first chapter under its title (a
    haggadah's קדש, each section a page), not a title page (whose title may be set as
    the chapters' are, but over no running text)."""
    lines = [ln for ln in doc.pages[0].lines if ln.kind in ("body", "heading") and ln.text.strip()]
    if not lines:
        return False
    top = max(lines, key=lambda ln: ln.size)
    if top.size < _TITLE_SIZE * (doc.body_size or top.size):
        return False
    running = sum(1 for ln in lines if ln.size < top.size and len(ln.text.split()) > _LONG_LINE)
    if running < _RUNNING_LINES:
        return False
    alike = 0
    for page in doc.pages[1:]:
        if any(
            ln.kind == "heading" and abs(ln.size - top.size) <= _SAME_POINT and ln.bold == top.bold
            for ln in page.lines
        ):
            alike += 1
            if alike >= _ALIKE_PAGES:
                return True
    return False


def _looks_like_title_page(page: ExtractedPage, body: float, larger: float) -> bool:
    lines = [ln for ln in page.lines if ln.kind in ("body", "heading") and ln.text.strip()]
    if not lines or len(lines) > 18:
        return False
    paragraphs = sum(1 for ln in lines if abs(ln.size - body) < 0.5 and len(ln.text.split()) > 6)
    biggest = max(ln.size for ln in lines)
    top = next(ln for ln in lines if ln.size == biggest)
    parsed = parse_heading(top.text)
    if parsed is not None and parsed[0]:
        return False  # the book opens with its first chapter, e.g. "חלק א"
    return paragraphs <= 3 and (not body or biggest >= body * larger)


def _title_page_at(doc: ExtractedDocument) -> int | None:
    """Index of the title page: page 1, else page 2 or 3 when page 1 has no line set
    larger than the text (a blank page, an abstract, a credits page) and that page
    is a title page whose title stands out."""
    if _is_title_page(doc):
        return 0
    if not doc.pages or doc.pages[0].number != 1 or not doc.body_size:
        return None
    body = doc.body_size
    if any(ln.size >= _TITLE_SIZE * body for ln in doc.pages[0].lines if ln.text.strip()):
        return None
    for k, page in enumerate(doc.pages[1:3], start=1):
        if _looks_like_title_page(page, body, _TITLE_SIZE):
            return k
        if any(ln.text.strip() for ln in page.lines if ln.kind in ("body", "heading")):
            break  # text begins before any title page
    return None


def _title_block(doc: ExtractedDocument) -> bool:
    """Page 1 opens with a title much larger than the body (a title page or not)."""
    if not doc.pages or doc.pages[0].number != 1 or not doc.body_size:
        return False
    lines = [ln for ln in doc.pages[0].lines if ln.text.strip() and not is_invocation(ln.text)]
    if not lines:
        return False
    biggest = max(ln.size for ln in lines)
    k = next(i for i, ln in enumerate(lines) if ln.size >= 0.8 * biggest)
    parsed = parse_heading(lines[k].text)
    # Lower on the page, only a title that dwarfs everything (a scanned title page
    # whose credits and imprint lines come first in the text layer).
    opens = k < 3 or biggest >= _DWARFS * max(ln.size for ln in lines if ln.size < 0.8 * biggest)
    return (
        opens
        and biggest >= 1.25 * doc.body_size
        and not (parsed and parsed[0])
        and not _opens_a_chapter(doc)
    )


def _title_metadata(doc: ExtractedDocument, at: int | None) -> SourceMetadata:
    work = author = publication = ""
    if at is None and _title_block(doc):
        at = 0
    if at is not None:
        lines = [ln for ln in doc.pages[at].lines if ln.text.strip()]
        run = title_run(lines)
        if run and run[0] + 1 < len(lines) and is_author_name(lines[run[0]].text, doc.author):
            # The author's name set largest above the title: the title is the run after it.
            rest = title_run(lines[run[0] + 1 :])
            if rest:
                author = name_like(lines[run[0]].text)
                run = [run[0] + 1 + i for i in rest]
        named = _info_title_line(lines, run, doc.title)
        if named is not None:
            # A series set largest above the title that the PDF's Info names: the
            # series is the publication, the named line the work.
            series = [i for i in run if i < named] or run[:1]
            publication, run = " ".join(clean_title(lines[i].text) for i in series), [named]
        if run:
            work = " ".join(clean_title(lines[i].text) for i in run)
            after = _after_date(lines, run)
            if after is not None:
                # "course / term / assignment": the series above a date line, the work
                # under it, set about as large.
                publication, work, run = work, clean_title(lines[after].text), [after]
            below = lines[run[-1] + 1 :]
            author = (
                author
                or by_line(lines)
                or framed_name(below)
                or info_author_line(lines, doc.author)
            )
            if not author and below:
                author = _name_below(below)
            credit = credit_lines(lines)
            above = [
                ln
                for k, ln in enumerate(lines[: run[0]])
                if not (
                    is_invocation(ln.text)
                    or is_genre(ln.text)
                    or k in credit
                    or is_by_line(ln.text)
                )
            ]
            if publication:
                pass
            elif above:
                publication = clean_title(max(above, key=lambda ln: ln.size).text)
            elif len(run) > 1:
                # A title set over several lines: its first line alone may be the
                # publication (a course, a series) and the whole the work.
                publication = clean_title(lines[run[0]].text)
    elif doc.pages and doc.pages[0].number == 1 and not doc.title:
        # No title page and no metadata: a heading atop page 1 that is not a chapter
        # (numbered, or set as the headings that open later pages), and the "מאת …"
        # line under it.
        chapter = _opens_a_chapter(doc)
        opening = doc.pages[0].lines[:6]
        for k, ln in enumerate(opening):
            if ln.kind == "heading" and parse_heading(ln.text) is None and not chapter:
                work = clean_title(ln.text)
                author = by_line(opening[k + 1 : k + 3])
                break
    if not author and doc.pages and doc.pages[0].number == 1:
        k = at or 0
        author = info_author_line(doc.pages[k].lines, doc.author) or credits_author(
            doc.pages[k + 1 : k + 3]
        )
    if not work and at is None and doc.pages and doc.pages[0].number == 1:
        work = form_title(doc.pages[0].lines)  # a form cover: "label: value" lines
    work = work or doc.title or _running_title(doc)
    author = author or doc.author
    publication = publication or doc.title or work
    return SourceMetadata(publication_title=publication, work_title=work, author_name=author)


def chapter_sections(doc: ExtractedDocument, outline: DocumentOutline) -> DocumentOutline:
    """The outline to cut a book's sections by: ``outline`` with the chapters the book
    marks only by their numerals (a chumash's ``2`` over chapter 2) when ``outline`` is
    the book's own bookmarks outline and lists fewer headings than there are numerals.

    The outline itself keeps the headings the book prints (a numeral is not a title),
    but a section is a unit of translation: one per chapter, not one per book. So
    too, bookmarks that share one destination are cut where their titles are printed
    (:func:`~libtext.headings._declared.one_destination_each`), not left empty.
    """
    listed = usable_bookmarks(doc)
    if not listed or not outline.outline_segments:
        return outline
    extra = _numbered_chapters(doc, listed)
    placed = one_destination_each(doc, listed)
    if not extra and placed == listed:
        return outline
    text = book_text(doc)
    own = unlisted_like_listed(text, listed, skip_first_page=_title_page_at(doc) == 0)
    headings = sorted([*listed, *own], key=lambda h: (h.page, h.y))
    if [s.segment_title for s in declared_segments(text, headings, _summary)] != [
        s.segment_title for s in outline.outline_segments
    ]:
        return outline  # another outline (a model's): its cuts stand
    # Bookmarks that share one destination are cut where their titles are printed.
    finer = sorted([*placed, *own, *extra], key=lambda h: (h.page, h.y))
    segments = declared_segments(text, finer, _summary)
    return outline.model_copy(update={"outline_segments": segments}) if segments else outline


def _info_title_line(lines: list[ExtractedLine], run: list[int], info: str) -> int | None:
    """The line under the largest line that the PDF's Info title names, when the
    largest does not begin with it (a series or a collection set above the title)."""
    want = normalize_for_match(clean_title(info)).casefold()
    if not run or not want:
        return None
    if normalize_for_match(clean_title(lines[run[0]].text)).casefold().startswith(want):
        return None
    for k in range(run[0] + 1, len(lines)):
        if normalize_for_match(clean_title(lines[k].text)).casefold() == want:
            return k
    return None


def _numbered_chapters(
    doc: ExtractedDocument, listed: list[DocumentHeading]
) -> list[DocumentHeading]:
    """Chapters a book marks only by their numerals (a chumash's ``2`` over chapter 2),
    under the fewer headings its bookmarks list. A numeral right under a listed
    heading is that heading's own first chapter."""
    numerals = chapter_numerals(doc)
    if len(numerals) <= len(listed):
        return []
    level = min(h.level for h in listed) + 1
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    out: list[DocumentHeading] = []
    for page, i, value in numerals:
        lines = doc.pages[index_of[page]].lines
        above = [ln for ln in lines[:i] if ln.kind in ("body", "heading") and ln.text.strip()]
        if any(h.page == page for h in listed) and len(above) <= _OWN_CHAPTER_LINES:
            continue
        title = f"פרק {format_numeral(value, marks=False)}"
        out.append(DocumentHeading(title=title, page=page, level=level, y=lines[i].y - 1))
    return out


def _name_below(below: list[ExtractedLine]) -> str:
    """The name under the title: its largest line, or, when that is a lone short word
    (a by-word the rules do not know: another language's, or misread by OCR), the
    name on the line after it."""
    named = [i for i in range(len(below)) if not (i and publisher_before(below[i - 1].text))]
    if not named:
        return ""  # the publisher's name under "יוצא לאור על ידי"
    k = max(named, key=lambda i: below[i].size)
    text = " ".join(below[k].text.split())
    if len(text.split()) == 1 and len(text) <= 3 and k + 1 < len(below):
        return name_like(below[k + 1].text)
    return name_like(text)


def _after_date(lines: list[ExtractedLine], run: list[int]) -> int | None:
    """The line under a date line that ends the title run, when it is set as large."""
    k = run[-1] + 1
    if k + 1 >= len(lines) or not is_date(lines[k].text):
        return None
    size = lines[run[0]].size
    nxt = lines[k + 1]
    words = nxt.text.split()
    if nxt.size >= 0.9 * size and 0 < len(words) <= 8 and not by_line([nxt]):
        return k + 1
    return None


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
    title_page = _title_page_at(doc)
    hints = structure_hints(doc)
    bold = bold_titles(doc)
    for number, found in bold.items():
        hints.setdefault(number, set()).update(found)
    blocks: list[Heading] = []
    for p, page in enumerate(doc.pages):
        if p == title_page:
            continue
        tagged = hints.get(page.number, set())
        has_body = any(ln.kind == "body" and k not in tagged for k, ln in enumerate(page.lines))
        i = 0
        lines = page.lines

        def heading(k: int) -> bool:
            return lines[k].kind == "heading" or k in tagged  # noqa: B023 - used at once

        first_block = len(blocks)
        while i < len(lines):
            if not heading(i):
                i += 1
                continue
            j = i + 1
            while j < len(lines) and heading(j) and _same_block(lines[i], lines[j]):
                j += 1
            end = j  # the block's lines; a title may keep only the first of them
            texts = [" ".join(ln.text.split()) for ln in lines[i:j]]
            quoted = next((k for k in range(1, len(texts)) if texts[k].startswith(_QUOTES)), 0)
            if quoted:
                texts = texts[:quoted]  # a quotation under a title is its epigraph: text
            parsed = parse_heading(texts[0], loose=True)
            if parsed is None and (
                _reads_as_text(" ".join(texts)) or any(_ends_sentence(t) for t in texts[:-1])
            ):
                if not _title_over_text(lines[i : i + len(texts)], texts):
                    i = end
                    continue
                texts = texts[:1]  # the title alone; the lines under it are text
            elif (
                parsed is not None
                and len(texts) > 1
                and _title_over_text(lines[i : i + len(texts)], texts)
                and _text_under(lines, i + 1, i + len(texts), heading)
            ):
                texts = texts[:1]  # a numbered title over an epigraph set large: text
            blocks.append(
                Heading(
                    text=" ".join(texts),
                    page=page.number,
                    # A body-size title's size is the body's, whatever a point either way;
                    # a bare label's, its name's (the larger line under it).
                    size=doc.body_size
                    if i in bold.get(page.number, ())
                    else max(ln.size for ln in lines[i : i + len(texts)])
                    if _bare_label(texts[0])
                    else lines[i].size,
                    line_index=i,
                    lines=texts,
                    number=parsed[1] if parsed else None,
                    word=parsed[0] if parsed else "",
                    level="part" if not has_body else "chapter",
                    plain=i in bold.get(page.number, ()),
                    aside=_aside(lines[i], page),
                )
            )
            if parsed is None:
                blocks[-1].word = "?"  # not written like a heading
            i = end
        if _lists_contents(page):
            blocks[first_block:] = [b for b in blocks[first_block:] if not _ITEM.match(b.text)]
    blocks = _without_running(blocks)
    _assign_levels(blocks)
    _when_noisy(blocks, len(doc.pages))
    return blocks


def _lists_contents(page: ExtractedPage) -> bool:
    """A page that lists a part's chapters as items under its title (``א. יראה``,
    ``ב. תפילה``, three or more, and no other text than headings): the items are its
    contents, not headings, whatever size the layer gave them; the chapters open
    where the book prints them."""
    lines = [ln for ln in page.lines if ln.kind in ("body", "heading") and ln.text.strip()]
    items = [ln for ln in lines if _ITEM.match(ln.text)]
    if len(items) < _LISTED:
        return False
    return all(ln.kind == "heading" for ln in lines if not _ITEM.match(ln.text))


def _when_noisy(blocks: list[Heading], pages: int) -> None:
    """Sizes that say nothing: keep as chapters only headings written as headings.

    An OCR text layer gives each word its own size, so many body lines come out
    larger than the body (and a bilingual book may set its verse large, line by line);
    more "chapters" than pages is the sign. Then only a short line written like a
    heading (``פרק י"ט``, ``סימן ג``) is a chapter, or, when none is, a bold title at
    body size with space above it.
    """
    chapters = sum(1 for b in blocks if b.level == "chapter")
    if pages < 5 or chapters <= _NOISY_PER_PAGE * pages:
        return
    for b in blocks:
        written = b.word not in ("?", "") and len(b.lines[0].split()) <= 6
        if b.level in ("part", "chapter") and not written:
            b.level = "sub"
    # The large lines are running text (verse set large line by line beside its
    # translation): the bold body-size titles, when few, are the sections.
    plain = [b for b in blocks if b.plain]
    if plain and not any(b.level == "chapter" for b in blocks) and len(plain) <= pages:
        for b in plain:
            b.level = "chapter"


def _without_running(blocks: list[Heading]) -> list[Heading]:
    """Blocks minus running heads: a text met on three or more pages in a row (a
    chapter tab, a running title set large) is a heading only where it first appears.

    Two pages in a row may be real (a part's ``פרק א`` right after the last part's).
    """
    pages: dict[str, list[int]] = {}
    for b in blocks:
        pages.setdefault(normalize_for_match(b.text), []).append(b.page)
    running: set[tuple[str, int]] = set()
    for key, found in pages.items():
        run = [found[0]]
        for page in [*found[1:], -1]:
            if page - run[-1] in (0, 1):
                run.append(page)
                continue
            if len(set(run)) >= 3:
                running.update((key, p) for p in run[1:] if p != run[0])
            run = [page]
    return [b for b in blocks if (normalize_for_match(b.text), b.page) not in running]


def _reads_as_text(text: str) -> bool:
    """A large or bold line that is a sentence, a lead-in or a list item, not a title.

    Headings do not end in a full stop, comma or colon (``הגדרות:`` opens a list),
    nor run past a dozen words.
    """
    t = text.strip().rstrip(")]\"'״”’")
    if t.startswith(_BULLETS):
        return True  # a bulleted list item, however it is set
    return t.endswith(_TEXT_ENDS) or len(text.split()) > _MAX_HEADING_WORDS


def _text_under(
    lines: list[ExtractedLine], start: int, end: int, heading: Callable[[int], bool]
) -> bool:
    """Whether the large lines ``start:end`` under a title, with the lines of their
    size that follow them at a line's pitch (an epigraph's last line, which the block
    left out), read as text."""
    texts = [" ".join(ln.text.split()) for ln in lines[start:end]]
    k = end
    while (
        k < len(lines)
        and heading(k)
        and abs(lines[k].size - lines[k - 1].size) <= _SAME_SIZE * lines[k - 1].size
        and 0 < lines[k].y - lines[k - 1].y <= _PITCH * max(lines[k - 1].size, 1.0)
    ):
        texts.append(" ".join(lines[k].text.split()))
        k += 1
    return _reads_as_text(" ".join(texts)) or any(_ends_sentence(t) for t in texts)


def _title_over_text(block: list[ExtractedLine], texts: list[str]) -> bool:
    """A title over smaller large lines that read as text (an epigraph, a verse set
    large under it): the title stands alone. Lines all of one size that read as text
    are verse set large, with no title among them."""
    title = texts[0]
    if len(block) < 2 or _reads_as_text(title) or _ends_sentence(title):
        return False
    if len(title.split()) > _MAX_SECTION_WORDS:
        return False  # a long first line is a paragraph's, set large by the text layer
    return all(ln.size < _SMALLER * block[0].size for ln in block[1:])


def _ends_sentence(text: str) -> bool:
    """A line that ends a sentence (a proclamation "…!", a verse "…."): inside a block
    of large lines, a sign that the block is text set large, not a title."""
    return text.strip().rstrip(")]\"'״”’").endswith((".", "!", "?", "׃", "…"))


def _same_block(first: ExtractedLine, other: ExtractedLine) -> bool:
    # A heading's second line (its title) is close below it and not much larger; a
    # line written as a numbered heading of its own (a part title, then "פרק א")
    # starts a new block.
    if _label_and_title(first, other):
        return True
    if other.size > first.size * 1.05 or other.y - first.y >= 2.5 * max(first.size, 1.0):
        return False
    if first.text.rstrip().endswith((".", ":", ";", "!", "?")) or _LIST_ITEM.match(other.text):
        return False  # the end of a sentence set in bold, or a list item, then a heading
    if other.text.rstrip().endswith(":"):
        return False  # a bold lead-in to a list ("הגדרות:") under a title is not its line
    parsed = parse_heading(other.text)
    return parsed is None or not parsed[0]


def _bare_label(text: str) -> bool:
    """A numbered heading word alone (``מאמר ב׳``, ``פרק 3``): a label whose name, if
    any, follows on the next line."""
    parsed = parse_heading(text)
    return parsed is not None and bool(parsed[0]) and len(text.split()) <= _LABEL_WORDS


def _label_and_title(first: ExtractedLine, other: ExtractedLine) -> bool:
    """A bare numbered label (``מאמר א׳``, ``פרק ג``) with the chapter's name set larger
    right under it: one heading, at the label's level. Apart, the label would be an
    empty chapter and its name a part title over every later chapter."""
    if not _bare_label(first.text):
        return False
    if other.size <= first.size * 1.05 or _reads_as_text(other.text):
        return False
    below = parse_heading(other.text)
    if below is not None and below[0]:
        return False  # a numbered heading of its own
    return 0 < other.y - first.y < _LABEL_GAP * other.size


def _assign_levels(blocks: list[Heading]) -> None:
    # A dedication's formula is set as its page wants: its size says nothing of levels.
    candidates = [b for b in blocks if b.level != "part" and not _DEDICATION.match(b.text)]
    if not candidates:
        # Every heading stands alone on its page: they are the chapters.
        for b in blocks:
            b.level = "chapter"
        return
    inside: set[int] = set()  # titles inside a chapter, told by their place alone
    patterned = Counter(round(b.size) for b in candidates if b.word not in ("?", ""))
    if patterned:
        # The most frequent size of numbered headings; on a tie the smaller one, as
        # parts are larger and fewer than their chapters.
        top = max(patterned.values())
        chapter_size = float(min(s for s, n in patterned.items() if n == top))
    elif _noisy_sizes(candidates):
        chapter_size = _top_run([b.size for b in candidates])
        # Sizes told nothing: where most titles stand centred, one set flush to a side
        # is a title inside a chapter (``הפה`` at the right, inside a centred talk's).
        titles = [b for b in candidates if b.size >= chapter_size * 0.94]
        if 2 * sum(not b.aside for b in titles) > len(titles):
            inside = {id(b) for b in titles if b.aside}
    else:
        sizes = Counter(round(b.size) for b in candidates)
        recurring = [s for s, n in sizes.items() if n >= 2]
        chapter_size = float(max(recurring or sizes))
    # One series of numbered headings (``מאמר א׳`` .. ``מאמר י״ב``) is one level, the
    # chapters', however an OCR layer sizes each of them.
    words = Counter(b.word for b in candidates if b.word not in ("?", "") and b.number)
    series = words.most_common(1)[0][0] if words else None
    for b in blocks:
        if b.level == "part" and b.size >= chapter_size * 1.04:
            continue  # alone on its page and larger: a part title
        if series is not None and b.word == series and b.number:
            b.level = "chapter"
        elif b.size > chapter_size * 1.08 and patterned:
            b.level = "part"
        elif id(b) in inside:
            b.level = "sub"
        elif b.size >= chapter_size * 0.94 and not _SUB_NUMBER.match(b.text):
            b.level = "chapter"
        else:
            b.level = "sub"


def _aside(ln: ExtractedLine, page: ExtractedPage) -> bool:
    """A line set off the page's middle: its centre a tenth of the page's width or
    more away from the page's (a title flush to a side, not centred)."""
    if page.width <= 0 or ln.x1 <= ln.x0:
        return False
    return abs((ln.x0 + ln.x1) / 2 - page.width / 2) >= _ASIDE * page.width


_ASIDE = 0.1


def _noisy_sizes(blocks: list[Heading]) -> bool:
    """Headings whose sizes hardly ever repeat (an OCR layer sizes each line from its
    own letters): sizes then fall on a continuum, not on a few type sizes."""
    distinct = {round(b.size, 1) for b in blocks}
    return len(blocks) >= _MIN_NOISY and len(distinct) > _NOISY_SIZES * len(blocks)


_MIN_NOISY = 6


def _top_run(sizes: list[float]) -> float:
    """The least size of the largest run of sizes that recurs: sorted, a step under
    :data:`_SIZE_STEP` joins the run (noise); a larger step starts another size."""
    runs: list[list[float]] = []
    for size in sorted(sizes):
        if runs and size < runs[-1][-1] * _SIZE_STEP:
            runs[-1].append(size)
        else:
            runs.append([size])
    recurring = [r for r in runs if len(r) >= 2] or runs
    return recurring[-1][0]


def _dedications(found: list[Heading], pages: list[int]) -> set[int]:
    """The ids of a book's leading dedications (``לעלוי נשמת`` among its first pages):
    front matter, not chapters; their pages' text stays with what comes before them
    (the front matter, or the preface they follow)."""
    lead = max(_FRONT_PAGES, int(_FRONT_SHARE * len(pages)))
    first = pages[0] if pages else 1
    return {id(h) for h in found if _DEDICATION.match(h.text) and h.page - first < lead}


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
    title_page = _title_page_at(doc)
    metadata = _title_metadata(doc, title_page)
    # Segments are cut from the book's text: no contents rows, page numbers or running
    # lines (the contents page itself is read for the outline it prints).
    printed = doc
    doc = book_text(doc)
    # The author's own outline (bookmarks, else a printed table of contents): no
    # guessing from the layout.
    for own in (usable_bookmarks, printed_toc):
        listed = own(printed)
        if listed and own is usable_bookmarks:
            extra = unlisted_like_listed(doc, listed, skip_first_page=title_page == 0)
            if extra:
                listed = sorted([*listed, *extra], key=lambda h: (h.page, h.y))
        declared = declared_segments(doc, listed, _summary) if listed else []
        if declared:
            return DocumentOutline(source_metadata=metadata, outline_segments=declared)
    headings: list[Heading] = []
    found = find_headings(doc)
    sections = _sections(doc, found) | _sub_sections(doc, found)
    work = _title_heading(doc, found, metadata.work_title)
    _facing_alternates(doc, found)
    dedications = _dedications(found, [p.number for p in doc.pages])
    for h in found:
        if h.level not in ("part", "chapter") and not (h.level == "sub" and id(h) in sections):
            continue
        if id(h) in dedications:
            continue  # a dedication: the book's front matter, no chapter
        if h is work:
            continue  # the document's title atop its first page: front matter, not chapter 1
        last = next((k for k in reversed(headings) if k.level == h.level), None)
        if last is not None and h.line_index == 0 and h.page > last.page and h.text == last.text:
            continue  # a running header repeating the chapter name: not a new chapter
        if h.word == "?" and last is not None and last.page < h.page and last.text == h.text:
            # An unnumbered title met again on a later page, no other title between and
            # no new subtitle: its section goes on (a numbered "פרק א" may well open
            # each part anew; a "Summary" closing each chapter is met after others).
            continue
        headings.append(h)
    # Body lines in reading order with their page numbers and positions.
    # Lines marked as headings that no heading took and that run on at the text's size
    # (an OCR layer's paragraph under a title, its words set a point larger) are text.
    taken = {(h.page, h.line_index + k) for h in found for k in range(len(h.lines))}
    flow: list[tuple[int, int, str]] = []
    for p, page in enumerate(doc.pages):
        if p == title_page:
            continue
        text_size = _text_size(page, doc.body_size)
        for i, ln in enumerate(page.lines):
            if not ln.text.strip():
                continue
            if ln.kind == "body" or (
                ln.kind == "heading" and (page.number, i) not in taken and _runs_on(ln, text_size)
            ):
                flow.append((page.number, i, ln.text.strip()))
    starts = [(h.page, h.line_index) for h in headings]
    positions = [(f[0], f[1]) for f in flow]
    segments: list[OutlineSegment] = []
    part = chapter = ""
    chapters = [h for h in headings if h.level == "chapter"]
    if not chapters:
        if flow:
            segments.append(_segment(1, None, metadata.work_title, flow, part=""))
        return DocumentOutline(source_metadata=metadata, outline_segments=segments)
    for k, h in enumerate(headings):
        if h.level == "part":
            part = h.text
            continue
        if h.level == "chapter":
            chapter = h.text
        begin = (h.page, h.line_index)
        following = [s for s in starts[k + 1 :] if s > begin]
        end = following[0] if following else (10**9, 0)
        body = flow[bisect.bisect_right(positions, begin) : bisect.bisect_left(positions, end)]
        if not body:
            continue
        within = " — ".join(t for t in (part, chapter if h.level == "sub" else "") if t)
        segments.append(
            _segment(len(segments) + 1, h, without_gloss(h.lines[0]), body, part=within)
        )
    return DocumentOutline(source_metadata=metadata, outline_segments=segments)


def _text_size(page: ExtractedPage, body: float) -> float:
    """The size of the page's body lines (their median), else the document's."""
    sizes = sorted(ln.size for ln in page.lines if ln.kind == "body" and ln.text.strip())
    return sizes[len(sizes) // 2] if sizes else body


def _runs_on(ln: ExtractedLine, body: float) -> bool:
    """A line of running text: more than a title's few words, at about the text's size."""
    return len(ln.text.split()) > _LONG_LINE and abs(ln.size - body) <= _NEAR_BODY * body


def _facing_alternates(doc: ExtractedDocument, found: list[Heading]) -> None:
    """Bilingual titles on facing pages: a chapter's title in one script, and atop the
    next page, set smaller, the same title in the other (a Hebrew page and its
    translation). The smaller one is the chapter's alternate title, not a sub-heading
    that would fold the translation's page into the chapter unnamed."""
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    for a, b in pairwise(found):
        if a.level not in ("part", "chapter") or b.level != "sub" or b.page != a.page + 1:
            continue
        if _latin(a.text) == _latin(b.text) or b.page not in index_of:
            continue
        before = doc.pages[index_of[b.page]].lines[: b.line_index]
        if any(ln.kind in ("body", "heading") and ln.text.strip() for ln in before):
            continue
        a.text = f"{a.text} {b.text}"
        b.level = "alternate"


def _latin(text: str) -> bool:
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    return latin > sum(1 for ch in text if "\u05d0" <= ch <= "\u05ea")


def _title_heading(doc: ExtractedDocument, found: list[Heading], work: str) -> Heading | None:
    """The heading atop the first page that is the document's title, when numbered
    sections follow it: a report or a spec opens with its title, then its sections."""
    if not found or not work or not doc.pages:
        return None
    first = found[0]
    page = doc.pages[0]
    above = [ln for ln in page.lines[: first.line_index] if ln.kind in ("body", "heading")]
    if first.page != page.number or any(ln.text.strip() for ln in above):
        return None
    if normalize_for_match(first.text) != normalize_for_match(work):
        return None
    # The sections after it are numbered ("1.", ".3" as a right-to-left layer gives
    # it) and the title is not: else it is the first chapter's own title.
    later = [h for h in found[1:] if h.level in ("part", "chapter")]
    numbered = sum(1 for h in later if _NUMBERED.match(h.text))
    if len(later) < 2 or _NUMBERED.match(first.text) or 2 * numbered < len(later):
        return None
    return first


def _sections(doc: ExtractedDocument, found: list[Heading]) -> set[int]:
    """Sub-headings that are the document's sections (ids into ``found``), or none.

    Some documents have a few part titles and, under them, short headings at body
    size (Word's bold "Heading 2" look): there the sub-headings are the outline.
    They count only when the chapters are sparse (one per six pages or fewer), the
    sub-headings at least twice as many and at most one a page, so that a book's
    run-in bold phrases never become segments. List items (``א.``, ``2.``) and
    continuations (``המשך …``) are not sections.
    """
    chapters = sum(1 for h in found if h.level == "chapter")
    subs = [
        h
        for h in found
        if h.level == "sub"
        and len(h.text.split()) <= _MAX_SECTION_WORDS
        and not _LIST_ITEM.match(h.text)
        and not h.text.startswith(_CONTINUED)
    ]
    pages = len(doc.pages)
    if not chapters or chapters > max(1, pages // 6) or not 2 * chapters <= len(subs) <= pages:
        return set()
    return {id(h) for h in subs}


def _sub_sections(doc: ExtractedDocument, found: list[Heading]) -> set[int]:
    """Titles inside long chapters that are sections of their own (ids into ``found``).

    A chapter of a sefer runs over many pages under titles of its own (a ``מאמר``
    over ten pages, a title every page or two): one segment of it all is too long to
    read or translate as a unit, and its titles are where the author cut it. So when a
    chapter runs over :data:`_LONG_PAGES` pages or more and holds at least two such
    titles, each opens a segment. A title here is a sub-heading that reads as one
    (short, no final stop, comma or colon, not a list item nor a continuation) and
    stands apart, with more space above it than the text's line step: a line of
    running text that the layer sets a little larger (an OCR layer's word sizes) has
    none.
    """
    step = _line_step(doc)
    if not step:
        return set()
    index_of = {p.number: k for k, p in enumerate(doc.pages)}
    last_page = doc.pages[-1].number if doc.pages else 0
    out: set[int] = set()
    opened: Heading | None = None
    titles: list[Heading] = []
    for h in [*found, None]:
        if h is not None and h.level == "sub":
            if opened is not None and _stands_apart(doc, h, step, index_of):
                titles.append(h)
            continue
        if h is not None and h.level not in ("part", "chapter"):
            continue
        end = h.page if h is not None else last_page
        if opened is not None and len(titles) >= 2 and end - opened.page >= _LONG_PAGES - 1:
            out.update(id(t) for t in titles)
        opened, titles = h, []
    return out


def _stands_apart(
    doc: ExtractedDocument, h: Heading, step: float, index_of: dict[int, int]
) -> bool:
    """A sub-heading that reads as a title, set clearly larger than the text (or bold at
    its size), with a gap above it wider than a line step."""
    text = h.text
    if len(text.split()) > _MAX_SECTION_WORDS or _LIST_ITEM.match(text):
        return False
    if not h.plain and h.size < _TITLE_SIZE * (doc.body_size or h.size):
        return False  # a line the layer set a point larger than the text: no title
    if text.startswith(_CONTINUED) or _reads_as_text(text) or h.page not in index_of:
        return False
    lines = doc.pages[index_of[h.page]].lines
    above = [ln for ln in lines[: h.line_index] if ln.kind in ("body", "heading") and ln.text]
    if not above:
        return False  # atop its page: no gap to tell a title from a running line
    return lines[h.line_index].y - above[-1].y >= _APART * step


def _line_step(doc: ExtractedDocument) -> float:
    """The text's usual distance from one body line to the next, in points (0: unknown)."""
    steps: Counter[int] = Counter()
    for page in doc.pages:
        body = [ln for ln in page.lines if ln.kind == "body" and ln.text.strip()]
        for a, b in pairwise(body):
            dy = b.y - a.y
            if 0 < dy <= _PITCH * max(a.size, 1.0):
                steps[round(dy)] += 1
    return float(steps.most_common(1)[0][0]) if steps else 0.0


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
        # The last line that has words: never a lone stop or a stray mark.
        end_phrase_hebrew=edge_words(
            next((b[2] for b in reversed(body) if any(ch.isalnum() for ch in b[2])), body[-1][2]),
            _PHRASE_WORDS,
            last=True,
        ),
    )
