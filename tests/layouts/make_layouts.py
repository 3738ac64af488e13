"""Generate small Hebrew PDFs in layouts unlike the shared fixtures, with their truths.

Dev-only: needs ``pip install fpdf2 uharfbuzz`` and the Culmus and Noto Hebrew fonts
(Debian packages ``culmus`` and ``fonts-noto-core``). The PDFs and ``*.truth.json``
files it writes are committed, so the tests need neither. Run from the repository
root (the filler text comes from ``../shared/fixtures/big.lines.json``)::

    python tests/layouts/make_layouts.py [NAME ...]

Every truth file is written from this script's own input (what it typesets, line by
line, and on which page fpdf2 put it), never from libtext's output. Line breaking is
done here, so each printed line is known exactly. Kinds in the truth: ``title``
(title-page lines), ``heading``, ``part``, ``body``, ``header``, ``footer``,
``page_number``, ``footnote``.

Texts: Tanya and Likutei Moharan (Sefaria export, Wikisource editions, CC BY-SA), the
Mishnah and Genesis (public domain).
"""

from __future__ import annotations

import json
import sys
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fpdf import FPDF
from fpdf.enums import TextMode
from texts import AVOT, GENESIS, tanya_paragraphs  # this script's folder is on sys.path

HERE = Path(__file__).resolve().parent
CULMUS = Path("/usr/share/fonts/truetype/culmus")
NOTO = Path("/usr/share/fonts/truetype/noto")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")

MM_PER_PT = 25.4 / 72

# Hebrew numerals written here, independently of libtext.hebrew.
_UNITS = ["", "א", "ב", "ג", "ד", "ה", "ו", "ז", "ח", "ט"]
_TENS = ["", "י", "כ", "ל", "מ", "נ", "ס", "ע", "פ", "צ"]


def hebrew_number(n: int, *, marks: bool) -> str:
    """1..99 as Hebrew letters, with gershayim/geresh when ``marks``."""
    special = {15: "טו", 16: "טז"}
    letters = special.get(n) or _TENS[n // 10] + _UNITS[n % 10]
    if not marks:
        return letters
    return letters + "\u05f3" if len(letters) == 1 else letters[:-1] + "\u05f4" + letters[-1]


ORDINALS = ["", "ראשון", "שני", "שלישי", "רביעי", "חמישי", "ששי"]


@dataclass
class Chapter:
    heading: str  # the heading line as printed
    number: int | None
    paragraphs: list[str]
    notes: list[str] = field(default_factory=list)  # note k is cited as marker k+1
    part: str | None = None  # a part title printed before this chapter
    heading2: str = ""  # an optional second heading line (title under "פרק ג")


@dataclass
class Layout:
    name: str
    description: str
    page: tuple[float, float]  # mm
    regular: Path
    bold: Path | None
    body: float  # pt
    leading: float  # line pitch, in body sizes
    margins: tuple[float, float, float, float]  # top, right, bottom, left (mm)
    heading_size: float
    heading_bold: bool
    heading_align: str  # "C" or "R"
    chapters: list[Chapter]
    part_size: float = 0.0
    part_own_page: bool = False
    chapter_new_page: bool = False
    justify: bool = False
    fake_bold: bool = False
    page_numbers: str = "digits"  # "digits", "letters", "letters-marks" or ""
    number_at: str = "bottom"  # "top" or "bottom"
    number_align: str = "C"  # "C" or "outer"
    number_format: str = "{}"
    number_offset: int = 0  # printed number = page index + offset
    number_size: float = 0.0
    header: str = ""  # "", "title", "chapter", "alternate", "title+chapter"
    header_size: float = 0.0
    header_bold: bool = False
    footer_text: str = ""  # a running footer (bottom right), e.g. the book's name
    note_size: float = 0.0
    note_marker: str = "({})"  # in the body
    note_prefix: str = "({})"  # at the note's start
    title_page: list[tuple[str, str, float, bool]] = field(default_factory=list)
    opening: list[tuple[str, str, float, bool]] = field(default_factory=list)  # atop page 1
    metadata: dict[str, str] = field(default_factory=dict)
    title: str = ""
    author: str = ""
    book_title: str = ""  # for running headers/footers
    fallback: tuple[Path, Path] | None = None  # for punctuation a Hebrew-only font lacks
    # Headings the PDF declares: "bookmarks" (a document outline, plus Word's junk
    # bookmarks "_GoBack" and "OLE_LINK1") or "tags" (each heading marked as an H1
    # structure element of a tagged PDF). With either, headings may be printed like
    # body text (heading_size = body, not bold), so only the declaration shows them.
    declare: str = ""


class Typesetter:
    """Typesets a layout line by line and records every printed line as truth."""

    def __init__(self, spec: Layout) -> None:
        self.spec = spec
        pdf = FPDF(unit="mm", format=spec.page)
        pdf.set_auto_page_break(False)
        pdf.set_compression(True)
        pdf.add_font("body", "", str(spec.regular))
        if spec.bold is not None:
            pdf.add_font("body", "B", str(spec.bold))
        if spec.fallback is not None:
            pdf.add_font("fallback", "", str(spec.fallback[0]))
            pdf.add_font("fallback", "B", str(spec.fallback[1]))
            pdf.set_fallback_fonts(["fallback"], exact_match=False)
        pdf.set_text_shaping(
            use_shaping_engine=True, direction="rtl", script="hebr", language="heb"
        )
        if spec.metadata.get("title"):
            pdf.set_title(spec.metadata["title"])
        if spec.metadata.get("author"):
            pdf.set_author(spec.metadata["author"])
        pdf.set_creator("libtext tests/layouts/make_layouts.py")
        pdf.set_creation_date(datetime(2025, 1, 1, tzinfo=UTC))
        pdf.set_producer("fpdf2")
        self.pdf = pdf
        top, right, bottom, left = spec.margins
        self.top, self.right, self.bottom, self.left = top, right, bottom, left
        self.width = spec.page[0] - left - right
        self.pages: list[dict[str, Any]] = []
        self.y = 0.0
        self.notes_here: list[str] = []
        self.chapter_title = ""
        self.part_title = ""
        self.in_body = False

    # --- primitives ---------------------------------------------------------------

    def font(self, size: float, bold: bool = False) -> None:
        style = "B" if bold and self.spec.bold is not None else ""
        self.pdf.set_font("body", style, size)

    def record(self, kind: str, text: str, **extra: Any) -> None:
        line = {"kind": kind, "text": unicodedata.normalize("NFC", text)}
        line.update(extra)
        self.pages[-1]["lines"].append(line)

    def put(self, text: str, y: float, size: float, align: str, *, bold: bool = False) -> None:
        """One line whose top is at ``y`` (mm), aligned in the text column."""
        self.font(size, bold)
        h = size * MM_PER_PT * 1.2
        self.pdf.set_xy(self.left, y)
        if bold and (self.spec.fake_bold or self.spec.bold is None):
            # Bold faked by stroking the outline too (as word processors do), in its
            # own graphics state so that the text after it is not stroked.
            with self.pdf.local_context(text_mode=TextMode.FILL_STROKE, line_width=0.25):
                self.pdf.cell(self.width, h, text, align=align)
        else:
            self.pdf.cell(self.width, h, text, align=align)

    def put_justified(self, text: str, y: float, size: float, width: float) -> None:
        """A justified line: each word drawn on its own, spread over ``width``."""
        self.font(size)
        words = text.split()
        widths = [self.pdf.get_string_width(w) for w in words]
        gap = (width - sum(widths)) / max(1, len(words) - 1)
        x = self.left + self.width  # right edge; words go right to left
        h = size * MM_PER_PT * 1.2
        for w, wd in zip(words, widths, strict=True):
            x -= wd
            self.pdf.set_xy(x, y)
            self.pdf.cell(wd, h, w, align="L")
            x -= gap

    def text_width(self, text: str, size: float, bold: bool = False) -> float:
        self.font(size, bold)
        return float(self.pdf.get_string_width(text))

    def wrap(self, text: str, size: float, first_indent: float) -> list[str]:
        lines: list[str] = []
        cur: list[str] = []
        for word in text.split():
            width = self.width - (first_indent if not lines else 0.0)
            if cur and self.text_width(" ".join([*cur, word]), size) > width:
                lines.append(" ".join(cur))
                cur = []
            cur.append(word)
        if cur:
            lines.append(" ".join(cur))
        return lines

    # --- pages --------------------------------------------------------------------

    @property
    def pitch(self) -> float:
        return self.spec.body * MM_PER_PT * self.spec.leading

    def printed_number(self) -> str:
        n = self.pdf.page_no() + self.spec.number_offset
        kind = self.spec.page_numbers
        if kind == "digits":
            value = str(n)
        elif kind == "letters":
            value = hebrew_number(n, marks=False)
        else:
            value = hebrew_number(n, marks=True)
        return self.spec.number_format.format(value)

    def new_page(self, *, plain: bool = False) -> None:
        if self.pages:
            self.finish_page()
        self.pdf.add_page()
        self.pages.append({"page": self.pdf.page_no(), "plain": plain, "lines": []})
        self.notes_here = []
        self.y = self.top
        if plain:
            return
        spec = self.spec
        size = spec.header_size or spec.body
        band = self.top - size * MM_PER_PT * 2.6
        odd = self.pdf.page_no() % 2 == 1
        items: list[tuple[str, str, str]] = []  # (text, align, kind)
        if spec.header == "title":
            items.append((spec.book_title, "C", "header"))
        elif spec.header == "chapter" and self.chapter_title:
            items.append((self.chapter_title, "C", "header"))
        elif spec.header == "title+chapter":
            items.append((spec.book_title, "R", "header"))
            if self.part_title:
                items.append((self.part_title, "L", "header"))
        elif spec.header == "alternate":
            text = self.chapter_title if odd and self.chapter_title else spec.book_title
            items.append((text, "C", "header"))
        if spec.page_numbers and spec.number_at == "top":
            align = self.number_align(odd)
            if items and items[0][1] == "C":
                items[0] = (items[0][0], "L" if align == "R" else "R", "header")
            items.append((self.printed_number(), align, "page_number"))
        for text, align, kind in items:
            number = kind == "page_number"
            if number:
                self.put(text, band, spec.number_size or size, align)
            else:
                self.put(text, band, size, align, bold=spec.header_bold)
            self.record(kind, text)

    def number_align(self, odd: bool) -> str:
        if self.spec.number_align == "C":
            return "C"
        return "L" if odd else "R"  # the outer corner of a right-to-left book

    def finish_page(self) -> None:
        spec = self.spec
        page = self.pages[-1]
        if page["plain"]:
            return
        h = self.spec.page[1]
        if self.notes_here:
            size = spec.note_size
            pitch = size * MM_PER_PT * 1.35
            y = h - self.bottom - pitch * len(self.notes_here)
            rule_y = y - 1.5
            right = self.left + self.width
            self.pdf.set_line_width(0.2)
            self.pdf.line(right - self.width / 3, rule_y, right, rule_y)
            for note in self.notes_here:
                self.put(note, y, size, "R")
                self.record("footnote", note)
                y += pitch
        odd = self.pdf.page_no() % 2 == 1
        foot_y = h - self.bottom + (spec.number_size or spec.body) * MM_PER_PT * 1.6
        if spec.footer_text:
            self.put(spec.footer_text, foot_y, spec.header_size or spec.body, "R")
            self.record("footer", spec.footer_text)
        if spec.page_numbers and spec.number_at == "bottom":
            align = "L" if spec.footer_text else self.number_align(odd)
            text = self.printed_number()
            self.put(text, foot_y, spec.number_size or spec.body, align)
            self.record("page_number", text)

    def room(self, needed: float, notes: list[str]) -> bool:
        """Whether ``needed`` mm fit above the bottom margin and the notes."""
        spec = self.spec
        note_h = spec.note_size * MM_PER_PT * 1.35 * (len(self.notes_here) + len(notes))
        if note_h:
            note_h += 4
        return self.y + needed <= self.spec.page[1] - self.bottom - note_h

    # --- content ------------------------------------------------------------------

    def title_page(self) -> None:
        self.new_page(plain=True)
        y = self.spec.page[1] * 0.18
        for kind, text, size, bold in self.spec.title_page:
            self.put(text, y, size, "C", bold=bold)
            self.record("title", text, role=kind)
            y += size * MM_PER_PT * 1.2 + 9
        self.pdf.set_xy(self.left, self.y)

    def opening(self) -> None:
        for kind, text, size, bold in self.spec.opening:
            self.put(text, self.y, size, "C", bold=bold)
            self.record("title", text, role=kind)
            self.y += size * MM_PER_PT * 1.6
        self.y += self.pitch

    def heading(self, text: str, size: float, bold: bool, kind: str) -> int:
        spec = self.spec
        h = size * MM_PER_PT * 1.3
        if not self.room(h + 3 * self.pitch, []):
            self.new_page()
        elif self.y > self.top + 1:
            self.y += self.pitch * 0.8
        align = spec.heading_align if kind != "part" else "C"
        if spec.declare == "bookmarks":
            self.pdf.set_y(self.y)
            self.pdf.start_section(text, level=0)
            self.put(text, self.y, size, align, bold=bold)
        elif spec.declare == "tags":
            mcid = self.pdf.struct_builder.next_mcid_for_page(self.pdf.page)
            self.pdf._add_marked_content(struct_type="/H1", mcid=mcid)
            self.pdf._out(f"/H1 <</MCID {mcid}>> BDC")
            self.put(text, self.y, size, align, bold=bold)
            self.pdf._out("EMC")
        else:
            self.put(text, self.y, size, align, bold=bold)
        # A heading printed like body text is body text to the eye.
        plain = spec.declare and size == spec.body and not bold
        self.record("body" if plain else kind, text)
        self.y += h + self.pitch * 0.3
        return int(self.pdf.page_no())

    def paragraph(self, text: str, notes: dict[str, str]) -> None:
        spec = self.spec
        indent = 0.0 if spec.justify else 5.0
        lines = self.wrap(text, spec.body, indent)
        for k, line in enumerate(lines):
            cited = [note for marker, note in notes.items() if marker in line.split()]
            if not self.room(self.pitch, cited):
                self.new_page()
            last = k == len(lines) - 1
            if spec.justify and not last:
                self.put_justified(line, self.y, spec.body, self.width)
            else:
                self.pdf.set_x(self.left)
                self.font(spec.body)
                self.pdf.set_xy(self.left, self.y)
                width = self.width - (indent if k == 0 else 0.0)
                self.pdf.cell(width, spec.body * MM_PER_PT * 1.2, line, align="R")
            self.record("body", line)
            self.notes_here.extend(cited)
            self.y += self.pitch
        self.y += self.pitch * 0.25


def typeset(spec: Layout) -> tuple[bytes, dict[str, Any]]:
    ts = Typesetter(spec)
    if spec.title_page:
        ts.title_page()
    chapters_truth: list[dict[str, Any]] = []
    parts_truth: list[dict[str, Any]] = []
    if not (spec.part_own_page and spec.chapters[0].part is not None):
        ts.new_page()
        ts.opening()
    first = True
    for ch in spec.chapters:
        if ch.part is not None:
            ts.part_title = ch.part
            if spec.part_own_page:
                ts.new_page(plain=True)
                ts.y = spec.page[1] * 0.35
                page = ts.heading(ch.part, spec.part_size, True, "part")
                ts.new_page()
            else:
                if not first:
                    ts.new_page()
                page = ts.heading(ch.part, spec.part_size, True, "part")
            parts_truth.append({"title": ch.part, "page": page})
            first = True
        if spec.chapter_new_page and not first:
            ts.chapter_title = ch.heading
            ts.new_page()
        first = False
        page = ts.heading(ch.heading, spec.heading_size, spec.heading_bold, "heading")
        if ch.heading2:
            ts.y -= ts.pitch * 0.2
            ts.put(ch.heading2, ts.y, spec.heading_size * 0.9, spec.heading_align, bold=True)
            ts.record("heading", ch.heading2)
            ts.y += spec.heading_size * MM_PER_PT * 1.3
        ts.chapter_title = ch.heading
        notes = {
            spec.note_marker.format(k + 1): spec.note_prefix.format(k + 1) + " " + note
            for k, note in enumerate(ch.notes)
        }
        for k, para in enumerate(ch.paragraphs):
            ts.paragraph(para, notes)
            if spec.declare == "bookmarks" and k == 0 and len(chapters_truth) < 2:
                # Word's hidden bookmarks: not headings, and must not become segments.
                ts.pdf.set_y(ts.y)
                ts.pdf.start_section("_GoBack" if not chapters_truth else "OLE_LINK1", level=0)
        chapters_truth.append(
            {
                "heading": ch.heading,
                "number": ch.number,
                "page": page,
                "part": ts.part_title or None,
                "first_words": " ".join(ch.paragraphs[0].split()[:6]),
            }
        )
    ts.finish_page()
    data = bytes(ts.pdf.output())
    truth = {
        "file": f"{spec.name}.pdf",
        "description": spec.description,
        "page_size_mm": list(spec.page),
        "fonts": [spec.regular.name] + ([spec.bold.name] if spec.bold else []),
        "body_size": spec.body,
        "heading_size": spec.heading_size,
        "heading_bold": spec.heading_bold,
        "title": spec.title,
        "author": spec.author,
        "pdf_metadata": spec.metadata,
        "parts": parts_truth,
        "chapters": chapters_truth,
        "pages": [{"page": p["page"], "lines": p["lines"]} for p in ts.pages],
    }
    return data, truth


# --- the layouts --------------------------------------------------------------------


def _chapters(
    headings: list[tuple[str, int | None]],
    paras: list[str],
    per: int,
    notes: list[list[str]] | None = None,
    parts: dict[int, str] | None = None,
) -> list[Chapter]:
    out = []
    for k, (heading, number) in enumerate(headings):
        body = paras[k * per : (k + 1) * per]
        ch_notes = (notes or [])[k] if notes and k < len(notes) else []
        if ch_notes:
            # Cite each note after the fifth word of the paragraphs, in order.
            cited = []
            for j, para in enumerate(body):
                if j < len(ch_notes):
                    words = para.split()
                    words.insert(min(5, len(words)), f"({j + 1})")
                    para = " ".join(words)
                cited.append(para)
            body = cited
        out.append(Chapter(heading, number, body, list(ch_notes), part=(parts or {}).get(k)))
    return out


def layouts() -> list[Layout]:
    tanya = tanya_paragraphs()
    letter = (215.9, 279.4)
    a4 = (210.0, 297.0)
    a5 = (148.0, 210.0)
    six_nine = (152.4, 228.6)
    out: list[Layout] = []

    # 1. Letter, Noto Serif, headings bold at body size, simanim with numerals from 11.
    simanim = [(f"סימן {hebrew_number(n, marks=True)}", n) for n in range(11, 15)]
    out.append(
        Layout(
            name="letter_siman_bold",
            description="Letter, Noto Serif Hebrew 11pt, 'סימן יא' headings bold at body "
            "size, centered, chapters run on; justified words; running header: book "
            "title at body size; page numbers in Hebrew letters at the bottom; title page "
            "with מאת; no PDF metadata",
            page=letter,
            regular=NOTO / "NotoSerifHebrew-Regular.ttf",
            bold=NOTO / "NotoSerifHebrew-Bold.ttf",
            fallback=(NOTO / "NotoSerif-Regular.ttf", NOTO / "NotoSerif-Bold.ttf"),
            body=11,
            leading=1.45,
            margins=(25, 25, 25, 25),
            heading_size=11,
            heading_bold=True,
            heading_align="C",
            chapters=_chapters(simanim, tanya[0:], 3),
            justify=True,
            page_numbers="letters",
            header="title",
            book_title="שאלות ותשובות דוגמה",
            title_page=[
                ("work", "שאלות ותשובות דוגמה", 24, True),
                ("by", "מאת", 12, False),
                ("author", "הרב משה בן יעקב", 15, False),
            ],
            title="שאלות ותשובות דוגמה",
            author="הרב משה בן יעקב",
        )
    )

    # 2. A4, Hadasim, headings slightly larger, not bold, right-aligned, ordinal words.
    shaarim = [
        ("השער הראשון", 1),
        ("השער השני", 2),
        ("השער השלישי", 3),
    ]
    out.append(
        Layout(
            name="a4_shaar_slight",
            description="A4, Hadasim 12pt, 'השער הראשון' headings 13.5pt (1.12x) not "
            "bold, right-aligned, on new pages; running header = chapter heading with "
            "digit page numbers at the top; footnotes '1.' under a rule; no title page; "
            "PDF metadata in Hebrew",
            page=a4,
            regular=CULMUS / "HadasimCLM-Regular.ttf",
            bold=CULMUS / "HadasimCLM-Bold.ttf",
            body=12,
            leading=1.5,
            margins=(28, 22, 25, 22),
            heading_size=13.5,
            heading_bold=False,
            heading_align="R",
            chapters=_chapters(
                shaarim,
                tanya[12:],
                3,
                notes=[["עיין בזהר חלק א דף ה."], [], ["ראה לעיל השער הראשון."]],
            ),
            chapter_new_page=True,
            page_numbers="digits",
            number_at="top",
            number_align="outer",
            header="chapter",
            header_size=10,
            note_size=9,
            note_marker="({})",
            note_prefix="{}.",
            metadata={"title": "שערי הדוגמה", "author": "רבי אברהם הלוי"},
            title="שערי הדוגמה",
            author="רבי אברהם הלוי",
        )
    )

    # 3. 6x9, Simple CLM, parts inline (larger) + chapters restarting per part.
    parts_heads = [("פרק א", 1), ("פרק ב", 2), ("פרק א", 1), ("פרק ב", 2)]
    out.append(
        Layout(
            name="sixnine_parts",
            description="6x9in, Simple CLM 11pt, parts 'חלק ראשון' 18pt bold inline, "
            "chapters 'פרק א' 13pt bold centered, restarting per part; '- 5 -' page "
            "numbers; running header: book title + part; footnotes '(1)'; title page "
            "with לרבנו; English PDF metadata",
            page=six_nine,
            regular=CULMUS / "SimpleCLM-Medium.ttf",
            bold=CULMUS / "SimpleCLM-Bold.ttf",
            body=11,
            leading=1.4,
            margins=(22, 18, 22, 18),
            heading_size=13,
            heading_bold=True,
            heading_align="C",
            part_size=18,
            chapters=_chapters(
                parts_heads,
                tanya[30:],
                2,
                notes=[["תהלים קיט, א."], [], ["משלי ה, יט."], []],
                parts={0: "חלק ראשון", 2: "חלק שני"},
            ),
            page_numbers="digits",
            number_format="- {} -",
            header="title+chapter",
            header_size=9,
            book_title="לקוטי אמרים",
            note_size=9,
            title_page=[
                ("work", "לקוטי אמרים", 26, True),
                ("subtitle", "מבחר פרקים", 14, False),
                ("by", "לרבנו שניאור זלמן מלאדי", 14, False),
            ],
            metadata={"title": "Likkutei Amarim (layout test)", "author": "Shneur Zalman"},
            title="לקוטי אמרים",
            author="שניאור זלמן מלאדי",
        )
    )

    # 4. A5, Miriam, vocalized, short 'אות' sections, several on a page.
    otiot = [(f"אות {hebrew_number(n, marks=False)}", n) for n in range(1, 6)]
    out.append(
        Layout(
            name="a5_ot_vocalized",
            description="A5, Miriam 12pt, vocalized Genesis, 'אות א' headings 14.5pt "
            "(1.2x) bold right-aligned, several on a page; page numbers in Hebrew letters "
            "at the top outer corner, running header: book title; title page",
            page=a5,
            regular=CULMUS / "MiriamCLM-Book.ttf",
            bold=CULMUS / "MiriamCLM-Bold.ttf",
            body=12,
            leading=1.6,
            margins=(22, 16, 18, 16),
            heading_size=14.5,
            heading_bold=True,
            heading_align="R",
            chapters=_chapters(otiot, [" ".join(GENESIS[k : k + 2]) for k in range(0, 8, 1)], 1),
            page_numbers="letters",
            number_at="top",
            number_align="outer",
            header="title",
            header_size=9,
            book_title="מעשה בראשית",
            title_page=[
                ("work", "מעשה בראשית", 22, True),
                ("subtitle", "פסוקים מנוקדים", 13, False),
                ("by", "מאת", 11, False),
                ("author", "רבי יצחק הכהן", 14, False),
            ],
            title="מעשה בראשית",
            author="רבי יצחק הכהן",
        )
    )

    # 5. Letter, Shofar, no title page: title + author atop page 1; 'מאמר שני' 1.12x.
    maamarim = [("מאמר ראשון", 1), ("מאמר שני", 2), ("מאמר שלישי", 3)]
    out.append(
        Layout(
            name="letter_maamar_opening",
            description="Letter, Shofar 12pt, no title page: title 20pt bold and "
            "'מאת' author atop page 1; 'מאמר ראשון' headings 13.5pt not bold centered; "
            "running footer with the book title and digit page numbers at the bottom; "
            "no PDF metadata",
            page=letter,
            regular=CULMUS / "ShofarRegular.ttf",
            bold=CULMUS / "ShofarDemi-Bold.ttf",
            body=12,
            leading=1.45,
            margins=(25, 28, 25, 28),
            heading_size=13.5,
            heading_bold=False,
            heading_align="C",
            chapters=_chapters(maamarim, tanya[50:], 3),
            page_numbers="digits",
            footer_text="מאמרי הדוגמה",
            header_size=10,
            number_size=10,
            opening=[
                ("work", "מאמרי הדוגמה", 20, True),
                ("author", "מאת רבי שלמה זלמן", 13, False),
            ],
            title="מאמרי הדוגמה",
            author="רבי שלמה זלמן",
        )
    )

    # 6. A4, Keter, 'פרק ראשון' ordinals, alternating headers, Hebrew page numbers from 15.
    prakim = [(f"פרק {ORDINALS[n]}", n) for n in range(1, 5)]
    out.append(
        Layout(
            name="a4_perek_ordinal",
            description="A4, Keter YG 13pt, 'פרק ראשון' headings 16pt bold centered on new "
            "pages; running header alternates book title / chapter heading (10pt); page "
            "numbers in Hebrew letters with gershayim starting at ט״ו, bottom outer "
            "corner; title page with publication line; PDF metadata",
            page=a4,
            regular=CULMUS / "KeterYG-Medium.ttf",
            bold=CULMUS / "KeterYG-Bold.ttf",
            body=13,
            leading=1.45,
            margins=(30, 25, 28, 25),
            heading_size=16,
            heading_bold=True,
            heading_align="C",
            chapters=_chapters(prakim, tanya[70:], 2),
            chapter_new_page=True,
            page_numbers="letters-marks",
            number_offset=13,
            number_align="outer",
            header="alternate",
            header_size=10,
            book_title="ספר המדות",
            title_page=[
                ("publication", "ספריית הדוגמה", 12, False),
                ("work", "ספר המדות", 28, True),
                ("by", "מאת", 12, False),
                ("author", "רבי נחמן מברסלב", 16, True),
            ],
            metadata={"title": "Sefer HaMidot (layout test)", "author": "Nachman of Breslov"},
            title="ספר המדות",
            author="רבי נחמן מברסלב",
        )
    )

    # 7. 6x9, DejaVu Sans 10pt, fake-bold headings at body size with titles after a colon.
    titled = [
        ("הקדמה", None),
        ("פרק א: בענין הבטחון", 1),
        ("פרק ב: בענין השמחה", 2),
        ("פרק ג: בענין הענוה", 3),
    ]
    out.append(
        Layout(
            name="sixnine_fakebold",
            description="6x9in, DejaVu Sans 10pt, headings at body size drawn bold by "
            "stroking (no bold font), right-aligned, 'פרק א: title' and an unnumbered "
            "'הקדמה'; digit page numbers bottom center; no running header; footnotes "
            "'*'; no title page; PDF metadata",
            page=six_nine,
            regular=DEJAVU / "DejaVuSans.ttf",
            bold=None,
            body=10,
            leading=1.5,
            margins=(20, 18, 22, 18),
            heading_size=10,
            heading_bold=True,
            heading_align="R",
            fake_bold=True,
            chapters=_chapters(
                titled, AVOT + tanya[90:], 2, notes=[[], ["משנה אבות א, ב."], [], []]
            ),
            page_numbers="digits",
            note_size=8,
            metadata={"title": "דרכי החיים", "author": "רבי דוד"},
            title="דרכי החיים",
            author="רבי דוד",
        )
    )

    # 8. A5, Noto Sans, headings only 1.2x, not bold, no heading words at all.
    plain = [("אהבת ישראל", None), ("השגחה פרטית", None), ("עבודה בשמחה", None)]
    out.append(
        Layout(
            name="a5_plain_titles",
            description="A5, Noto Sans Hebrew 10.5pt, headings without heading words "
            "('אהבת ישראל') 12.5pt (1.19x) not bold centered, chapters run on; page "
            "numbers in Hebrew letters at the top center with the book title at the "
            "right; title page with לרבנו on its own line; no PDF metadata",
            page=a5,
            regular=NOTO / "NotoSansHebrew-Regular.ttf",
            bold=NOTO / "NotoSansHebrew-Bold.ttf",
            fallback=(NOTO / "NotoSans-Regular.ttf", NOTO / "NotoSans-Bold.ttf"),
            body=10.5,
            leading=1.5,
            margins=(20, 15, 18, 15),
            heading_size=12.5,
            heading_bold=False,
            heading_align="C",
            chapters=_chapters(plain, tanya[110:], 3),
            page_numbers="letters",
            number_at="top",
            header="title",
            header_size=8.5,
            book_title="אורחות צדיקים",
            title_page=[
                ("work", "אורחות צדיקים", 20, True),
                ("by", "לרבנו", 11, False),
                ("author", "ישראל בעל שם טוב", 14, False),
            ],
            title="אורחות צדיקים",
            author="ישראל בעל שם טוב",
        )
    )

    # 9. A4, Frank Ruehl at other sizes: headings bold at body size, right-aligned,
    # titles without heading words; the running header repeats the chapter title in
    # the same size and weight; "עמוד 3" page numbers.
    titles = [("בענין התשובה", None), ("בענין התפלה", None), ("בענין הצדקה", None)]
    out.append(
        Layout(
            name="a4_bold_titles",
            description="A4, Frank Ruehl 12pt, headings without heading words bold at "
            "body size right-aligned, each on a new page; running header = the chapter "
            "title in the same size and weight; 'עמוד 3' page numbers bottom center; no "
            "title page, PDF metadata",
            page=a4,
            regular=CULMUS / "FrankRuehlCLM-Medium.ttf",
            bold=CULMUS / "FrankRuehlCLM-Bold.ttf",
            body=12,
            leading=1.5,
            margins=(28, 24, 26, 24),
            heading_size=12,
            heading_bold=True,
            heading_align="R",
            chapters=_chapters(titles, tanya[130:], 3),
            chapter_new_page=True,
            page_numbers="digits",
            number_format="עמוד {}",
            number_size=10,
            header="chapter",
            header_bold=True,
            metadata={"title": "קונטרס התשובה", "author": "רבי יוסף יצחק"},
            title="קונטרס התשובה",
            author="רבי יוסף יצחק",
        )
    )

    # 10. Letter, Rashi script: parts alone on their own page, chapters in two lines
    # (numbered heading, then its title), Hebrew page numbers with dashes.
    rashi = _chapters(
        [("פרק א", 1), ("פרק ב", 2), ("פרק ג", 3)],
        tanya[150:],
        2,
        notes=[[], ["עיין לקמן פרק ג."], []],
        parts={0: "שער ראשון", 2: "שער שני"},
    )
    for ch, title in zip(rashi, ("בענין האמונה", "בענין הבטחון", "בענין האהבה"), strict=True):
        ch.heading2 = title
    out.append(
        Layout(
            name="letter_rashi_parts",
            description="Letter, Noto Rashi Hebrew 12pt, parts 'שער ראשון' 20pt bold alone "
            "on their own page, chapters 'פרק א' 14pt bold with a bold title line under "
            "it; page numbers '- ה -' in Hebrew letters at the bottom; running header: "
            "book title 9pt; footnotes '(1)'; title page; no PDF metadata",
            page=letter,
            regular=NOTO / "NotoRashiHebrew-Regular.ttf",
            bold=NOTO / "NotoRashiHebrew-Bold.ttf",
            fallback=(NOTO / "NotoSerif-Regular.ttf", NOTO / "NotoSerif-Bold.ttf"),
            body=12,
            leading=1.5,
            margins=(26, 26, 26, 26),
            heading_size=14,
            heading_bold=True,
            heading_align="C",
            part_size=20,
            part_own_page=True,
            chapters=rashi,
            page_numbers="letters",
            number_format="- {} -",
            header="title",
            header_size=9,
            note_size=9,
            book_title="שערי אמונה",
            title_page=[
                ("work", "שערי אמונה", 26, True),
                ("by", "מאת", 12, False),
                ("author", "רבי אליהו הכהן", 16, False),
            ],
            title="שערי אמונה",
            author="רבי אליהו הכהן",
        )
    )
    # 11. A4, headings printed like body text, declared only by bookmarks (with
    # Word's junk bookmarks among them).
    declared = [(f"פרק {hebrew_number(n, marks=True)}", n) for n in range(1, 4)]
    out.append(
        Layout(
            name="a4_bookmarks_plain",
            description="A4, Noto Serif Hebrew 11pt, 'פרק א' headings printed like body "
            "text (11pt, not bold, right-aligned) and declared only by the PDF's "
            "bookmarks, with Word's junk bookmarks '_GoBack' and 'OLE_LINK1' in "
            "chapters 1-2; digit page numbers at the bottom; no title page; PDF metadata",
            page=a4,
            regular=NOTO / "NotoSerifHebrew-Regular.ttf",
            bold=NOTO / "NotoSerifHebrew-Bold.ttf",
            fallback=(NOTO / "NotoSerif-Regular.ttf", NOTO / "NotoSerif-Bold.ttf"),
            body=11,
            leading=1.45,
            margins=(25, 25, 25, 25),
            heading_size=11,
            heading_bold=False,
            heading_align="R",
            chapters=_chapters(declared, tanya[20:], 3),
            declare="bookmarks",
            metadata={"title": "ספר הסימניות", "author": "רבי שמעון הלוי"},
            title="ספר הסימניות",
            author="רבי שמעון הלוי",
        )
    )

    # 12. A5, a tagged PDF: headings printed like body text, marked H1 in the
    # structure tree; no bookmarks.
    tagged = [(f"סימן {hebrew_number(n, marks=True)}", n) for n in range(1, 4)]
    out.append(
        Layout(
            name="a5_tagged_headings",
            description="A5, Frank Ruehl CLM 12pt, tagged PDF: 'סימן א' headings printed like "
            "body text (12pt, not bold, right-aligned) and marked as H1 structure "
            "elements; no bookmarks; digit page numbers at the bottom; no title page; "
            "PDF metadata",
            page=a5,
            regular=CULMUS / "FrankRuehlCLM-Medium.ttf",
            bold=CULMUS / "FrankRuehlCLM-Bold.ttf",
            body=12,
            leading=1.5,
            margins=(20, 16, 20, 16),
            heading_size=12,
            heading_bold=False,
            heading_align="R",
            chapters=_chapters(tagged, tanya[30:], 2),
            declare="tags",
            metadata={"title": "קונטרס המבנה", "author": "רבי יעקב כהן"},
            title="קונטרס המבנה",
            author="רבי יעקב כהן",
        )
    )
    return out


def main() -> None:
    """Write every layout, or only those named on the command line."""
    only = set(sys.argv[1:])
    total = 0
    for spec in layouts():
        if only and spec.name not in only:
            continue
        data, truth = typeset(spec)
        (HERE / f"{spec.name}.pdf").write_bytes(data)
        (HERE / f"{spec.name}.truth.json").write_text(
            json.dumps(truth, ensure_ascii=False, indent=1) + "\n", "utf-8"
        )
        total += len(data)
        print(f"{spec.name}.pdf: {len(truth['pages'])} pages, {len(data):,} bytes", file=sys.stderr)
    print(f"total {total:,} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
