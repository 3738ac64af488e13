"""Generate small Hebrew books whose structure the tests know: contents pages, verse, titles.

Dev-only: needs ``pip install fpdf2 uharfbuzz`` and the Culmus fonts (Debian package
``culmus``). The PDFs and ``*.truth.json`` it writes are committed, so the tests need
neither. Run from the repository root::

    python tests/books/make_books.py

Every truth file is written from this script's own input (what it prints, line by
line, on which page, in which role), never from libtext's output. Line kinds in the
truth: ``title`` (title page), ``contents`` (a contents page's title and rows),
``heading``, ``body``, ``verse`` (verse or a refrain set larger than the prose: body
text to a reader), ``header``, ``page_number``. ``chapters`` lists each chapter's
heading, page, and first and last body lines.

* ``toc_book``: a title page, a contents page (rows with dot leaders, and rows whose
  page number stands alone at the far margin), chapters under bold headings, a running
  header and page numbers; one chapter is named like a tractate (``שבת``) and listed
  with the page number ``12``, the case a citation linker would misread.
* ``verse_book``: prose chapters under larger bold headings, each holding a column of
  verse and a refrain set larger than the prose (not bold), the refrain recurring.
* ``bold_titles``: a word-processor look: section titles in the body font and size,
  bold, with space above; a bold lead-in (``…:``) on a line of its own; no bookmarks.
* ``sefer_book``: a sefer's look: a part's page (its title, its chapters listed as
  ``א. …`` items set large), then chapters opened by a numbered label (``מאמר א׳``)
  with the chapter's name set larger under it, each running over several pages under
  titles of its own (smaller, with space above). In ``chapters``, a title inside a
  chapter has ``within``: the chapter's label and name.

Texts: Pirkei Avot and Genesis (public domain), Tanya (Wikisource, CC BY-SA) via the
shared fixture, as in ``tests/layouts/make_layouts.py``.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fpdf import FPDF

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "layouts"))
from make_layouts import AVOT, GENESIS, tanya_paragraphs  # noqa: E402

CULMUS = Path("/usr/share/fonts/truetype/culmus")
MM_PER_PT = 25.4 / 72
A5 = (148.0, 210.0)


class Book:
    """One column of right-aligned lines, recorded as truth as they are printed."""

    def __init__(self, *, body: float, regular: str, bold: str, header: str = "") -> None:
        pdf = FPDF(unit="mm", format=A5)
        pdf.set_auto_page_break(False)
        pdf.add_font("body", "", str(CULMUS / regular))
        pdf.add_font("body", "B", str(CULMUS / bold))
        pdf.set_text_shaping(
            use_shaping_engine=True, direction="rtl", script="hebr", language="heb"
        )
        pdf.set_creator("libtext tests/books/make_books.py")
        pdf.set_producer("fpdf2")
        pdf.set_creation_date(datetime(2025, 1, 1, tzinfo=UTC))
        self.pdf = pdf
        self.body = body
        self.header = header
        self.left, self.right, self.top, self.bottom = 16.0, 16.0, 22.0, 22.0
        self.width = A5[0] - self.left - self.right
        self.pages: list[dict[str, Any]] = []
        self.chapters: list[dict[str, Any]] = []
        self.y = self.top
        self.numbered = False

    @property
    def pitch(self) -> float:
        return self.body * MM_PER_PT * 1.5

    def record(self, kind: str, text: str) -> None:
        self.pages[-1]["lines"].append({"kind": kind, "text": unicodedata.normalize("NFC", text)})
        if kind == "body" and self.chapters:
            chapter = self.chapters[-1]
            chapter.setdefault("first_line", text)
            chapter["last_line"] = text

    def put(self, text: str, size: float, align: str = "R", *, bold: bool = False) -> None:
        self.pdf.set_font("body", "B" if bold else "", size)
        self.pdf.set_xy(self.left, self.y)
        self.pdf.cell(self.width, size * MM_PER_PT * 1.2, text, align=align)

    def new_page(self, *, furniture: bool = True) -> None:
        self.finish_page()
        self.pdf.add_page()
        self.numbered = furniture
        self.pages.append({"page": self.pdf.page_no(), "lines": []})
        self.y = self.top
        if furniture and self.header:
            keep = self.y
            self.y = self.top - 10
            self.put(self.header, self.body * 0.85)
            self.record("header", self.header)
            self.y = keep

    def finish_page(self) -> None:
        if self.pages and self.numbered:
            keep = self.y
            self.y = A5[1] - self.bottom + 8
            number = str(self.pdf.page_no())
            self.put(number, self.body * 0.9, "C")
            self.record("page_number", number)
            self.y = keep

    def line(self, kind: str, text: str, size: float, *, align: str = "R", bold: bool = False):
        """Print one line, on a new page when it does not fit."""
        h = size * MM_PER_PT * 1.5
        if self.y + h > A5[1] - self.bottom:
            self.new_page()
        self.put(text, size, align, bold=bold)
        self.record(kind, text)
        self.y += h

    def wrap(self, text: str, size: float) -> list[str]:
        self.pdf.set_font("body", "", size)
        lines: list[str] = []
        cur: list[str] = []
        for word in text.split():
            if cur and self.pdf.get_string_width(" ".join([*cur, word])) > self.width - 2:
                lines.append(" ".join(cur))
                cur = []
            cur.append(word)
        if cur:
            lines.append(" ".join(cur))
        return lines

    def paragraph(self, text: str) -> None:
        for ln in self.wrap(text, self.body):
            self.line("body", ln, self.body)
        self.y += self.pitch * 0.3

    def heading(self, text: str, size: float, *, bold: bool = True) -> None:
        if self.y + 4 * self.pitch > A5[1] - self.bottom:
            self.new_page()
        elif self.y > self.top + 1:
            self.y += self.pitch
        self.chapters.append({"heading": text, "page": self.pdf.page_no()})
        self.line("heading", text, size, bold=bold)
        self.y += self.pitch * 0.3

    def title_page(self, lines: list[tuple[str, float]]) -> None:
        self.new_page(furniture=False)
        self.y = A5[1] * 0.2
        for text, size in lines:
            self.put(text, size, "C", bold=size > self.body * 1.5)
            self.record("title", text)
            self.y += size * MM_PER_PT * 1.2 + 8

    def done(self, name: str, **extra: Any) -> None:
        self.finish_page()
        self.numbered = False
        truth = {"file": f"{name}.pdf", "pages": self.pages, "chapters": self.chapters, **extra}
        (HERE / f"{name}.pdf").write_bytes(bytes(self.pdf.output()))
        (HERE / f"{name}.truth.json").write_text(
            json.dumps(truth, ensure_ascii=False, indent=1) + "\n", "utf-8"
        )
        print(f"{name}.pdf: {len(self.pages)} pages", file=sys.stderr)


def toc_book() -> None:
    tanya = tanya_paragraphs()
    chapters = [
        ("פרק ראשון: דרכי המשנה", [AVOT[0], tanya[0], AVOT[1]]),
        ("פרק שני: מעלת התורה", [tanya[1], AVOT[2], tanya[2]]),
        ("שבת", [tanya[3], AVOT[3], tanya[4]]),
        ("פרק רביעי: הנהגות", [AVOT[4], tanya[5], tanya[6]]),
        ("פרק חמישי: חתימה", [tanya[7], AVOT[0]]),
    ]
    book = Book(body=11, regular="FrankRuehlCLM-Medium.ttf", bold="FrankRuehlCLM-Bold.ttf")
    book.header = "ספר הבדיקה"
    book.title_page([("ספר הבדיקה", 26), ("מאת", 12), ("רבי שמעון לוי", 14)])
    # The contents page is typeset after the chapters are placed, so their pages are
    # known; page 2 is reserved for it.
    book.new_page(furniture=False)
    contents_page = book.pages[-1]
    for title, paragraphs in chapters:
        book.new_page() if book.pdf.page_no() == 2 else None
        book.heading(title, 15)
        for p in paragraphs:
            book.paragraph(p)
    book.finish_page()
    book.numbered = False
    # Back to page 2: the contents.
    book.pdf.page = 2
    book.y = book.top
    keep_pages = book.pages
    book.pages = [contents_page]
    book.line("contents", "תוכן העניינים", 16, align="C", bold=True)
    book.y += book.pitch
    book.pdf.set_font("body", "", 11)
    dot = book.pdf.get_string_width(" .")
    for n, chapter in enumerate(book.chapters):
        title, page = chapter["heading"], str(chapter["page"])
        if n % 2 == 0:
            # Title, dot leaders and the number, one run of text.
            room = book.width - book.pdf.get_string_width(f"{title}  {page}") - 4
            text = f"{title} {'. ' * int(room / dot)}{page}"
            book.put(text, 11, "R")
            book.record("contents", " ".join(text.split()))
        else:
            # Title at the right, its page number alone at the far left margin.
            book.put(title, 11, "R")
            book.put(page, 11, "L")
            book.record("contents", title)
            book.record("contents", page)
        book.y += book.pitch
    book.pages = keep_pages
    book.pdf.page = len(keep_pages)
    book.done(
        "toc_book",
        title="ספר הבדיקה",
        author="רבי שמעון לוי",
        contents_page=2,
    )


def verse_book() -> None:
    tanya = tanya_paragraphs()
    refrain = "הוֹדוּ לַה׳ כִּי טוֹב כִּי לְעוֹלָם חַסְדּוֹ"
    book = Book(body=11, regular="FrankRuehlCLM-Medium.ttf", bold="FrankRuehlCLM-Bold.ttf")
    book.header = "שירת הבריאה"
    book.new_page()
    for n, title in enumerate(["פרק א", "פרק ב", "פרק ג"]):
        book.heading(title, 17)
        book.paragraph(tanya[10 + n])
        for verse in GENESIS[2 * n : 2 * n + 3]:
            for ln in book.wrap(verse, 14):
                book.line("verse", ln, 14, align="C")
        book.y += book.pitch * 0.5
        book.line("verse", refrain, 14, align="C")
        book.y += book.pitch * 0.5
        book.paragraph(tanya[14 + n])
    book.done("verse_book", refrain=refrain)


def bold_titles() -> None:
    tanya = tanya_paragraphs()
    sections = ["מבוא לעניין", "דרכי הלימוד", "סדר היום", "סיכום הדברים"]
    book = Book(body=11, regular="DavidCLM-Medium.otf", bold="DavidCLM-Bold.otf")
    book.new_page(furniture=False)
    for n, title in enumerate(sections):
        if n:
            book.y += book.pitch  # space above a section title
        book.chapters.append({"heading": title, "page": book.pdf.page_no()})
        book.line("heading", title, 11, bold=True)
        book.paragraph(tanya[20 + n])
        # A bold lead-in on its own line, no space above it: not a title.
        run_in = "הערה חשובה:"
        book.line("body", run_in, 11, bold=True)
        book.paragraph(AVOT[n])
    book.done("bold_titles", run_in="הערה חשובה:")


def sefer_book() -> None:
    tanya = tanya_paragraphs()
    book = Book(body=11, regular="FrankRuehlCLM-Medium.ttf", bold="FrankRuehlCLM-Bold.ttf")
    book.header = "אור הבדיקה"
    chapters = [
        ("מאמר א׳", "מעלות התורה", ["פעולות התורה", "תורה ויראה", "אשרי הלומד"]),
        ("מאמר ב׳", "ביטול תורה", ["רוח וגשם", "דרכי היצר", "עצות פרטיות"]),
        ("מאמר ג׳", "התמדה בתורה", ["טעמו וראו", "חשבון הדרך", "התחלות קשות"]),
    ]
    # A part's page: its title, and its chapters listed as items, set large.
    book.new_page(furniture=False)
    book.y = A5[1] * 0.25
    book.put("שער התורה", 28, "C", bold=True)
    book.record("part", "שער התורה")
    book.y += 28 * MM_PER_PT * 2
    for n, (_, name, _) in enumerate(chapters):
        item = f"{'אבג'[n]}. {name}"
        book.put(item, 15, "C")
        book.record("contents", item)
        book.y += 15 * MM_PER_PT * 1.8
    paragraphs = iter(tanya[40:])
    for label, name, titles in chapters:
        # Each chapter on a new page: its numbered label, its name set larger under it.
        book.new_page()
        book.y += book.pitch
        book.line("heading", label, 15, align="C", bold=True)
        book.line("heading", name, 22, align="C", bold=True)
        book.chapters.append({"heading": f"{label} {name}", "page": book.pdf.page_no()})
        book.y += book.pitch
        for title in titles:
            # A title of its own inside the chapter, with space above, then a page and
            # more of text: the chapter runs over several pages.
            book.heading(title, 14)
            book.chapters[-1]["within"] = f"{label} {name}"
            words = 0
            while words < 420:
                text = next(paragraphs)
                words += len(text.split())
                book.paragraph(text)
    book.done("sefer_book", part="שער התורה")


def main() -> None:
    toc_book()
    verse_book()
    bold_titles()
    sefer_book()


if __name__ == "__main__":
    main()
