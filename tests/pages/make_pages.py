"""Typeset whole pages with real producers (LibreOffice Writer, Chromium, LuaLaTeX,
XeLaTeX, Typst, WeasyPrint), with their truths.

Dev-only: needs LibreOffice Writer and Chromium (Debian ``libreoffice-writer-nogui``,
``chromium``), for the ``tex_*`` pages LuaLaTeX and XeLaTeX (see the TeX section; without
an engine its committed PDF is kept), Tesseract (``tesseract-ocr``, ``tesseract-ocr-heb``) and poppler's
``pdftoppm`` for the OCR layer, the fonts of Debian ``culmus``, ``fonts-sil-ezra`` and
``fonts-dejavu``, ``pypdfium2`` (the spread, the rotated and cropped pages) and Pillow; for the
``typst_*`` pages the ``typst`` package and for the ``weasy_*`` pages ``weasyprint`` (both from
PyPI; without one its committed PDFs are kept). The sources (``sources/*.fodt``,
``sources/*.html``, ``sources/*.tex``, ``sources/*.typ``), the PDFs and the ``*.pages.json`` truths are
committed, so the tests need none of them. Run from the repository root::

    python tests/pages/make_pages.py [NAME ...]

Unlike ``tests/layouts/`` (a PDF writer of our own), the line breaks, column breaks and
glyph runs here are the producer's own, as in the real files of the sealed sets. Each
page's content is chosen so that it fits its page (pages are broken by the source), so
the page truth is the source's text: the ``body`` blocks in reading order (a block is a
paragraph here: the scorer joins lines with spaces, so where the producer breaks lines
does not matter), ``footnotes`` (one printed line each, their marker first), ``margin``,
``header`` fields, ``page_number``; the format of ``../shared/realdata/pdfs``'s
``*.pages.json`` (MANIFEST.md), so ``realpdf_pages_score.py`` scores this folder too.
A contents row's dot leaders are not in the truth (their count is the producer's); the
test reads leaders as one space on both sides.

Texts: the Haggadah, Kabbalat Shabbat (Psalms, Lecha Dodi), Pirkei Avot, Mishnah
Berakhot and Genesis (public domain; the English renderings are this script's own), Tanya (Wikisource, CC
BY-SA) via ``tests/layouts/make_layouts.py``.
"""

from __future__ import annotations

import ctypes
import html
import json
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "sources"
sys.path.insert(0, str(HERE.parent / "layouts"))
from texts import AVOT, GENESIS, tanya_paragraphs  # noqa: E402  (the layouts' texts)


@dataclass
class Page:
    """One printed page's truth: body blocks in reading order and every other role."""

    body: list[list[str]]
    footnotes: list[str] = field(default_factory=list)
    margin: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    page_number: str = ""
    notes: str = ""
    extra_numbers: list[str] = field(default_factory=list)  # a spread's second folio
    headings: list[str] = field(default_factory=list)  # body lines that are titles
    absent: list[str] = field(default_factory=list)  # drawn but not shown: read nowhere
    lines: list[str] = field(default_factory=list)  # printed lines, each one line whole

    def truth(self, index: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "page": index,
            "body": [[_nfc(x) for x in block] for block in self.body],
            "footnotes": [_nfc(x) for x in self.footnotes],
            "margin": [_nfc(x) for x in self.margin],
            "header": [_nfc(x) for x in self.header],
            "footer": [_nfc(x) for x in self.footer],
            "page_number": self.page_number,
        }
        out["headings"] = [_nfc(x) for x in self.headings]
        if self.absent:
            out["absent"] = self.absent
        if self.lines:
            out["lines"] = [_nfc(x) for x in self.lines]
        if self.extra_numbers:
            out["page_numbers"] = [self.page_number, *self.extra_numbers]
        if self.notes:
            out["notes"] = self.notes
        return out


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


# --- texts -------------------------------------------------------------------------------

HA_LACHMA = (
    "הא לחמא עניא די אכלו אבהתנא בארעא דמצרים. כל דכפין ייתי ויכול, כל דצריך ייתי "
    "ויפסח. השתא הכא, לשנה הבאה בארעא דישראל. השתא עבדי, לשנה הבאה בני חורין."
)
HA_LACHMA_EN = (
    "This is the bread of affliction that our fathers ate in the land of Egypt. Let all "
    "who are hungry come and eat; let all who are in need come and keep the Passover. "
    "This year we are here; next year in the land of Israel. This year we are slaves; "
    "next year we shall be free."
)
MA_NISHTANA = (
    "מה נשתנה הלילה הזה מכל הלילות? שבכל הלילות אנו אוכלין חמץ ומצה, הלילה הזה כלו "
    "מצה. שבכל הלילות אנו אוכלין שאר ירקות, הלילה הזה מרור."
)
MA_NISHTANA_EN = (
    "Why is this night different from all other nights? On all other nights we eat "
    "chametz and matzah; on this night only matzah. On all other nights we eat all "
    "kinds of vegetables; on this night bitter herbs."
)
AVADIM = (
    "עבדים היינו לפרעה במצרים, ויוציאנו ה' אלהינו משם ביד חזקה ובזרוע נטויה. ואלו לא "
    "הוציא הקדוש ברוך הוא את אבותינו ממצרים, הרי אנו ובנינו ובני בנינו משעבדים היינו "
    "לפרעה במצרים."
)
AVADIM_EN = (
    "We were slaves to Pharaoh in Egypt, and the Lord our God brought us out from there "
    "with a strong hand and an outstretched arm. Had the Holy One, blessed be He, not "
    "brought our fathers out of Egypt, we, our children and our children's children "
    "would still be enslaved to Pharaoh in Egypt."
)

PSALMS = [
    (
        "תהלים צה",
        "לכו נרננה לה' נריעה לצור ישענו. נקדמה פניו בתודה בזמרות נריע לו. כי אל גדול ה' "
        "ומלך גדול על כל אלהים.",
    ),
    (
        "תהלים צו",
        "שירו לה' שיר חדש שירו לה' כל הארץ. שירו לה' ברכו שמו בשרו מיום ליום ישועתו. "
        "ספרו בגוים כבודו בכל העמים נפלאותיו.",
    ),
    (
        "תהלים צז",
        "ה' מלך תגל הארץ ישמחו איים רבים. ענן וערפל סביביו צדק ומשפט מכון כסאו. אש "
        "לפניו תלך ותלהט סביב צריו.",
    ),
    (
        "תהלים צח",
        "מזמור שירו לה' שיר חדש כי נפלאות עשה הושיעה לו ימינו וזרוע קדשו. הודיע ה' "
        "ישועתו לעיני הגוים גלה צדקתו.",
    ),
]
LECHA_DODI = "לכה דודי לקראת כלה, פני שבת נקבלה."
STANZAS = [
    "שמור וזכור בדבור אחד, השמיענו אל המיחד, ה' אחד ושמו אחד, לשם ולתפארת ולתהלה.",
    "לקראת שבת לכו ונלכה, כי היא מקור הברכה, מראש מקדם נסוכה, סוף מעשה במחשבה תחלה.",
    "מקדש מלך עיר מלוכה, קומי צאי מתוך ההפכה, רב לך שבת בעמק הבכא, והוא יחמול עליך חמלה.",
]

NOTES = [
    "משלי כ, כז.",
    "ראה זהר חלק ג, דף כט.",
    "איוב לא, ב.",
    "בראשית ב, ז.",
    "ראה לקמן פרק ב.",
    "ישעיה מה, יח.",
]

CONTENTS = [
    ("הקדמה", "3"),
    ("פרק ראשון: בגדר הנפש", "7"),
    ("פרק שני: נפש האלהית", "12"),
    ("פרק שלישי: עשר בחינות", "18"),
    ("שער היחוד והאמונה", "25"),
    ("אגרת התשובה", "41"),
    ("מפתחות", "58"),
]

TABLE = [
    ("ספר", "Book", "Abbr."),
    ("בראשית", "Genesis", "Gen."),
    ("שמות", "Exodus", "Ex."),
    ("ויקרא", "Leviticus", "Lev."),
    ("במדבר", "Numbers", "Num."),
    ("דברים", "Deuteronomy", "Deut."),
]

# --- Chromium ---------------------------------------------------------------------------

_CSS = """
@page { size: A5; margin: 18mm 14mm 16mm 14mm;
  @top-center { content: "%(header)s"; font-family: "David CLM"; font-size: 9pt }
  @bottom-center { content: counter(page); font-family: "David CLM"; font-size: 9pt } }
body { font-family: "Frank Ruehl CLM"; font-size: 12pt; line-height: 1.35; margin: 0 }
p { margin: 0 0 5pt 0; text-align: justify }
.en { font-family: "DejaVu Serif"; font-size: 9.5pt; direction: ltr; text-align: left }
.brk { break-before: page }
"""


def _chromium(name: str, body: str, css: str) -> Path:
    src = SOURCES / f"{name}.html"
    src.write_text(
        '<!doctype html>\n<html lang="he" dir="rtl"><head><meta charset="utf-8">\n'
        f"<style>{css}</style></head>\n<body>\n{body}\n</body></html>\n",
        "utf-8",
    )
    out = HERE / f"{name}.pdf"
    subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--print-to-pdf={out}",
            src.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


def _haggadah_parts() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The haggadah's paragraphs, Hebrew and English, each under its instruction."""
    he = [
        ("מגביה את הקערה ואומר:", HA_LACHMA),
        ("מוזגין כוס שני וכאן הבן שואל:", MA_NISHTANA),
        ("מחזיר את הקערה ואומר:", AVADIM),
    ]
    en = [
        ("Lift the plate and say:", HA_LACHMA_EN),
        ("Pour the second cup; here the child asks:", MA_NISHTANA_EN),
        ("Put the plate back and say:", AVADIM_EN),
    ]
    return he, en


def haggadah_grid() -> list[Page]:
    """Hebrew and its English side by side (a CSS grid), small instructions in each."""
    he, en = _haggadah_parts()
    css = _CSS % {"header": "הגדה של פסח"} + (
        ".grid { display: grid; grid-template-columns: 1fr 1fr; column-gap: 7mm }"
        "h2 { font-size: 15pt; margin: 0 0 4pt 0 } .en h2 { font-size: 11pt }"
        ".do { font-size: 8.5pt; font-style: italic; margin-bottom: 2pt }"
    )
    spreads = [(he[:2], en[:2], "מגיד", "Maggid", ""), (he[2:], en[2:], "", "", " brk")]
    grids = []
    for he_pairs, en_pairs, he_title, en_title, brk in spreads:
        cols = []
        for lang, pairs, title in (("he", he_pairs, he_title), ("en", en_pairs, en_title)):
            cls = ' class="en"' if lang == "en" else ""
            inner = "".join(
                f'<p class="do">{_esc(do)}</p><p>{_esc(text)}</p>' for do, text in pairs
            )
            head = f"<h2>{_esc(title)}</h2>" if title else ""
            cols.append(f'<div{cls} lang="{lang}">{head}{inner}</div>')
        grids.append(f'<div class="grid{brk}">{"".join(cols)}</div>')
    _chromium("haggadah_grid", "\n".join(grids), css)
    pages = []
    for n, (he_pairs, en_pairs, he_title, en_title, _) in enumerate(spreads, 1):
        body = [
            [*([he_title] if he_title else []), *[x for pair in he_pairs for x in pair]],
            [*([en_title] if en_title else []), *[x for pair in en_pairs for x in pair]],
        ]
        pages.append(
            Page(
                body,
                header=["הגדה של פסח"],
                page_number=str(n),
                headings=[x for x in (he_title, en_title) if x],
                notes="parallel texts: the Hebrew column, then the English one",
            )
        )
    return pages


def colour_titles() -> list[Page]:
    """Section titles at the body's size and weight, told from it only by their colour;
    words of the text in a link's colour (text still); a running header in colour."""
    css = _CSS.replace("font-size: 9pt }", "font-size: 9pt; color: #1f4e9c }", 1) % {
        "header": "פרקי אבות"
    } + (
        ".t { color: #b0251b; margin: 12pt 0 3pt 0; text-align: right }"
        ".a { color: #1a5fd0; text-decoration: underline }"
    )
    titles = ["משנה ראשונה", "משנה שנייה", "משנה שלישית", "משנה רביעית"]

    def linked(text: str, at: int) -> str:
        # Two words of the paragraph in a link's colour, from word ``at`` on.
        words = text.split(" ")
        return " ".join(
            [
                *map(_esc, words[:at]),
                f'<span class="a">{_esc(" ".join(words[at : at + 2]))}</span>',
                *map(_esc, words[at + 2 :]),
            ]
        )

    blocks = []
    for n, (title, text) in enumerate(zip(titles, AVOT[:4], strict=True)):
        brk = " brk" if n == 2 else ""
        blocks.append(f'<p class="t{brk}">{_esc(title)}</p><p>{linked(text, n % 2 * 3)}</p>')
    _chromium("colour_titles", "\n".join(blocks), css)
    return [
        Page(
            [[t, x] for t, x in zip(titles[i : i + 2], AVOT[i : i + 2], strict=True)],
            header=["פרקי אבות"],
            page_number=str(i // 2 + 1),
            headings=titles[i : i + 2],
            notes="titles differ from the text by colour alone; link words stay text",
        )
        for i in (0, 2)
    ]


def siddur_margin() -> list[Page]:
    """Psalms with their sources in the outer margin; a refrain set larger, recurring."""
    css = _CSS % {"header": "קבלת שבת"} + (
        "body { margin-right: 20mm } .v { position: relative }"
        ".ref { position: absolute; right: -20mm; top: 2pt; width: 17mm; font-size: 8pt;"
        " font-family: 'David CLM' }"
        ".r { font-size: 15pt; text-align: center; margin: 4pt 0 }"
    )
    parts = [
        f'<div class="v"><span class="ref">{_esc(ref)}</span><p>{_esc(text)}</p></div>'
        for ref, text in PSALMS
    ]
    song = [f'<p class="r">{_esc(LECHA_DODI)}</p>']
    for stanza in STANZAS[:2]:
        song += [f"<p>{_esc(stanza)}</p>", f'<p class="r">{_esc(LECHA_DODI)}</p>']
    page2 = [
        f'<p class="brk">{_esc(STANZAS[2])}</p>',
        f'<p class="r">{_esc(LECHA_DODI)}</p>',
        *(f"<p>{_esc(x)}</p>" for x in AVOT[:2]),
    ]
    _chromium("siddur_margin", "\n".join(parts + song + page2), css)
    body1 = [text for _, text in PSALMS] + [LECHA_DODI]
    for stanza in STANZAS[:2]:
        body1 += [stanza, LECHA_DODI]
    return [
        Page(
            [body1],
            margin=[ref for ref, _ in PSALMS],
            header=["קבלת שבת"],
            page_number="1",
            notes="sources in the right margin beside each psalm; the refrain set larger",
        ),
        Page(
            [[STANZAS[2], LECHA_DODI, *AVOT[:2]]],
            header=["קבלת שבת"],
            page_number="2",
        ),
    ]


def sefer_columns() -> list[Page]:
    """A centred title over two columns (CSS columns, the right one first)."""
    css = _CSS % {"header": "פרקי אבות"} + (
        "h1 { text-align: center; font-size: 18pt; margin: 0 0 8pt 0 }"
        ".cols { column-count: 2; column-gap: 8mm; font-size: 11pt }"
    )
    tanya = tanya_paragraphs()
    first = AVOT[:4]
    second = [GENESIS_PLAIN[0] + " " + GENESIS_PLAIN[1], *tanya[:2]]
    body_html = (
        f"<h1>{_esc('פרק ראשון')}</h1>"
        f'<div class="cols">{"".join(f"<p>{_esc(x)}</p>" for x in first)}</div>'
        f'<h1 class="brk">{_esc("פרק שני")}</h1>'
        f'<div class="cols">{"".join(f"<p>{_esc(x)}</p>" for x in second)}</div>'
    )
    _chromium("sefer_columns", body_html, css)
    return [
        Page([["פרק ראשון"], first], header=["פרקי אבות"], page_number="1", headings=["פרק ראשון"]),
        Page([["פרק שני"], second], header=["פרקי אבות"], page_number="2", headings=["פרק שני"]),
    ]


GENESIS_PLAIN = [
    "".join(ch for ch in unicodedata.normalize("NFD", v) if not unicodedata.combining(ch))
    for v in GENESIS
]

# --- LibreOffice Writer -----------------------------------------------------------------

_FODT_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
 xmlns:dc="http://purl.org/dc/elements/1.1/"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:font-face-decls>
 <style:font-face style:name="Frank Ruehl CLM" svg:font-family="'Frank Ruehl CLM'"/>
 <style:font-face style:name="David CLM" svg:font-family="'David CLM'"/>
 <style:font-face style:name="Ezra SIL" svg:font-family="'Ezra SIL'"/>
 <style:font-face style:name="DejaVu Serif" svg:font-family="'DejaVu Serif'"/>
</office:font-face-decls>
<office:styles>
 <style:default-style style:family="paragraph">
  <style:paragraph-properties style:writing-mode="rl-tb" fo:text-align="start"
   fo:margin-bottom="4pt"/>
  <style:text-properties style:font-name="DejaVu Serif" fo:font-size="%(size)s"
   style:font-name-complex="%(font)s" style:font-size-complex="%(size)s"
   fo:language="en" fo:country="US" style:language-complex="he" style:country-complex="IL"
   fo:hyphenate="false"/>
 </style:default-style>
 <style:style style:name="Standard" style:family="paragraph" style:class="text"/>
 <style:style style:name="Body" style:family="paragraph">
  <style:paragraph-properties fo:text-align="justify"/>
 </style:style>
 <style:style style:name="Title" style:family="paragraph">
  <style:paragraph-properties fo:text-align="center" fo:margin-bottom="10pt"/>
  <style:text-properties fo:font-size="17pt" style:font-size-complex="17pt"
   fo:font-weight="bold" style:font-weight-complex="bold"/>
 </style:style>
 <style:style style:name="Section" style:family="paragraph">
  <style:paragraph-properties fo:margin-top="8pt" fo:margin-bottom="3pt"
   fo:keep-with-next="always"/>
  <style:text-properties fo:font-weight="bold" style:font-weight-complex="bold"/>
 </style:style>
 <style:style style:name="Header" style:family="paragraph">
  <style:paragraph-properties fo:text-align="start">
   <style:tab-stops><style:tab-stop style:position="%(tab)s" style:type="right"/></style:tab-stops>
  </style:paragraph-properties>
  <style:text-properties fo:font-size="9pt" style:font-size-complex="9pt"/>
 </style:style>
 <style:style style:name="Footer" style:family="paragraph">
  <style:paragraph-properties fo:text-align="center"/>
  <style:text-properties fo:font-size="9pt" style:font-size-complex="9pt"/>
 </style:style>
 <style:style style:name="Footnote" style:family="paragraph">
  <style:paragraph-properties fo:margin-bottom="0pt" fo:margin-right="5mm" fo:text-indent="-5mm"
   style:writing-mode="rl-tb" fo:text-align="start"/>
  <style:text-properties fo:font-size="9pt" style:font-size-complex="9pt"/>
 </style:style>
 <style:style style:name="Contents" style:family="paragraph">
  <style:paragraph-properties fo:margin-bottom="6pt">
   <style:tab-stops><style:tab-stop style:position="%(tab)s" style:type="right"
    style:leader-style="dotted" style:leader-text="."/></style:tab-stops>
  </style:paragraph-properties>
 </style:style>
 <style:style style:name="Cell" style:family="paragraph">
  <style:paragraph-properties fo:margin-bottom="0pt"/>
 </style:style>
 <style:style style:name="Verse" style:family="paragraph">
  <style:paragraph-properties style:writing-mode="rl-tb" fo:text-align="end"
   fo:margin-bottom="2pt">
   <style:tab-stops><style:tab-stop style:position="%(tab)s" style:type="right"/></style:tab-stops>
  </style:paragraph-properties>
 </style:style>
 <style:style style:name="Display" style:family="paragraph" style:parent-style-name="Title">
  <style:text-properties fo:font-size="28pt" style:font-size-complex="28pt"/>
 </style:style>
 <style:style style:name="Display2" style:family="paragraph" style:parent-style-name="Title">
  <style:text-properties fo:font-size="22pt" style:font-size-complex="22pt"/>
 </style:style>
 <style:style style:name="Centred" style:family="paragraph">
  <style:paragraph-properties fo:text-align="center"/>
  <style:text-properties fo:font-size="14pt" style:font-size-complex="14pt"/>
 </style:style>
 <style:style style:name="Epigraph" style:family="paragraph">
  <style:paragraph-properties fo:text-align="center" fo:margin-bottom="10pt"/>
  <style:text-properties fo:font-size="15pt" style:font-size-complex="15pt"
   fo:font-style="italic" style:font-style-complex="italic"/>
 </style:style>
 <style:style style:name="EnTitle" style:family="paragraph" style:parent-style-name="Title">
  <style:paragraph-properties fo:break-before="page" style:writing-mode="lr-tb"/>
  <style:text-properties fo:font-size="13pt"/>
 </style:style>
 <style:style style:name="Latin" style:family="paragraph">
  <style:paragraph-properties style:writing-mode="lr-tb" fo:text-align="justify"/>
 </style:style>
</office:styles>
<office:automatic-styles>
 <style:page-layout style:name="pm1">
  <style:page-layout-properties fo:page-width="148mm" fo:page-height="210mm" %(usage)s
   fo:margin-top="12mm" fo:margin-bottom="12mm" fo:margin-left="16mm" fo:margin-right="16mm"
   style:writing-mode="rl-tb"/>
  <style:header-style><style:header-footer-properties fo:min-height="0mm"
   fo:margin-bottom="6mm"/></style:header-style>
  <style:footer-style><style:header-footer-properties fo:min-height="0mm"
   fo:margin-top="6mm"/></style:footer-style>
 </style:page-layout>
 <style:style style:name="Brk" style:family="paragraph" style:parent-style-name="Body">
  <style:paragraph-properties fo:break-before="page"/>
 </style:style>
 <style:style style:name="BrkTitle" style:family="paragraph" style:parent-style-name="Title">
  <style:paragraph-properties fo:break-before="page"/>
 </style:style>
 <style:style style:name="BrkSection" style:family="paragraph" style:parent-style-name="Section">
  <style:paragraph-properties fo:break-before="page"/>
 </style:style>
 <style:style style:name="I" style:family="text">
  <style:text-properties fo:font-style="italic" style:font-style-complex="italic"/>
 </style:style>
 <style:style style:name="B" style:family="text">
  <style:text-properties fo:font-weight="bold" style:font-weight-complex="bold"/>
 </style:style>
 <style:style style:name="Centre" style:family="paragraph" style:parent-style-name="Section">
  <style:paragraph-properties fo:text-align="center"/>
 </style:style>
 <style:style style:name="BrkCentre" style:family="paragraph" style:parent-style-name="Section">
  <style:paragraph-properties fo:text-align="center" fo:break-before="page"/>
 </style:style>
 <style:style style:name="HeaderLeft" style:family="paragraph" style:parent-style-name="Header">
  <style:paragraph-properties fo:text-align="end"/>
 </style:style>
 <style:style style:name="Cols" style:family="section">
  <style:section-properties style:writing-mode="rl-tb">
   <style:columns fo:column-count="2" fo:column-gap="8mm"/>
  </style:section-properties>
 </style:style>
 <style:style style:name="Tab" style:family="table">
  <style:table-properties style:width="116mm" table:align="margins" style:writing-mode="rl-tb"/>
 </style:style>
 <style:style style:name="Grid" style:family="table-cell">
  <style:table-cell-properties fo:padding="1.5mm" fo:border="0.5pt solid #000000"/>
 </style:style>
 <style:style style:name="Open" style:family="table-cell">
  <style:table-cell-properties fo:padding-left="3mm" fo:padding-right="3mm" fo:border="none"/>
 </style:style>
 <style:style style:name="En" style:family="paragraph" style:parent-style-name="Body">
  <style:paragraph-properties style:writing-mode="lr-tb" fo:text-align="justify"/>
  <style:text-properties fo:font-size="9.5pt"/>
 </style:style>
 <style:style style:name="EnDo" style:family="paragraph" style:parent-style-name="Body">
  <style:paragraph-properties style:writing-mode="lr-tb" fo:text-align="justify"/>
  <style:text-properties fo:font-size="8pt" fo:font-style="italic"/>
 </style:style>
 <style:style style:name="Do" style:family="paragraph" style:parent-style-name="Body">
  <style:text-properties fo:font-size="8.5pt" style:font-size-complex="8.5pt"/>
 </style:style>
 <style:style style:name="Head2" style:family="paragraph" style:parent-style-name="Section">
  <style:text-properties fo:font-size="14pt" style:font-size-complex="14pt"/>
 </style:style>
 <style:style style:name="EnHead2" style:family="paragraph" style:parent-style-name="Section">
  <style:paragraph-properties style:writing-mode="lr-tb"/>
  <style:text-properties fo:font-size="11pt"/>
 </style:style>
</office:automatic-styles>
<office:master-styles>
 <style:master-page style:name="Standard" style:page-layout-name="pm1">%(master)s</style:master-page>
</office:master-styles>
%(meta)s<office:body><office:text>
"""
_FODT_TAIL = "</office:text></office:body></office:document>\n"
_PAGE_FIELD = '<text:page-number text:select-page="current">1</text:page-number>'


def _writer(
    name: str,
    body: str,
    *,
    master: str,
    font: str = "Frank Ruehl CLM",
    size: str = "12pt",
    mirrored: bool = False,
    author: str = "",
) -> Path:
    src = SOURCES / f"{name}.fodt"
    usage = 'style:page-usage="mirrored"' if mirrored else ""
    head = _FODT_HEAD % {
        "size": size,
        "font": font,
        "tab": "116mm",
        "master": master,
        "usage": usage,
        "meta": f"<office:meta><dc:creator>{_esc(author)}</dc:creator></office:meta>\n"
        if author
        else "",
    }
    src.write_text(head + body + _FODT_TAIL, "utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                "soffice",
                f"-env:UserInstallation=file://{tmp}/profile",
                "--headless",
                "--convert-to",
                "pdf",
                "--outdir",
                tmp,
                str(src),
            ],
            check=True,
            capture_output=True,
            timeout=180,
        )
        out = HERE / f"{name}.pdf"
        shutil.copy(Path(tmp) / f"{name}.pdf", out)
    return out


def _p(style: str, text: str) -> str:
    return f'<text:p text:style-name="{style}">{_esc(text)}</text:p>\n'


def _header(title: str) -> str:
    return (
        f'<style:header><text:p text:style-name="Header">{_esc(title)}<text:tab/>'
        f"{_PAGE_FIELD}</text:p></style:header>"
    )


def chabad_notes() -> tuple[list[Page], Path]:
    """A Chabad-style booklet: running header with the page number at the far end,
    bold body-size section titles, real footnotes, three pages broken by the source."""
    tanya = tanya_paragraphs()
    titles = ["א. נר ה' נשמת אדם", "ב. חלק אלוה ממעל", "ג. בירור הניצוצות"]
    pages: list[Page] = []
    body = []
    note_no = 0
    for k, title in enumerate(titles):
        paras = tanya[2 * k : 2 * k + 2]
        style = "Section" if k == 0 else "BrkSection"
        xml_paras = []
        notes = []
        for para in paras:
            note_no += 1
            note = NOTES[note_no - 1]
            notes.append(f"{note_no} {note}")
            xml_paras.append(
                f'<text:p text:style-name="Body">{_esc(para)}<text:note text:id="ftn{note_no}"'
                f' text:note-class="footnote"><text:note-citation>{note_no}</text:note-citation>'
                f"<text:note-body>{_p('Footnote', note)}</text:note-body></text:note></text:p>\n"
            )
        body.append(_p(style, title) + "".join(xml_paras))
        pages.append(
            Page(
                [[title], [f"{para}{note_no - 1 + n}" for n, para in enumerate(paras)]],
                footnotes=notes,
                header=["לקוטי שיחות"],
                page_number=str(k + 1),
                headings=[title],
                notes="a bold body-size title; each paragraph ends in a note marker",
            )
        )
    master = _header("לקוטי שיחות")
    pdf = _writer("chabad_notes", "".join(body), master=master)
    return pages, pdf


def contents_page() -> list[Page]:
    """A contents page: titles, dot leaders to page numbers at the far margin."""
    rows = "".join(
        f'<text:p text:style-name="Contents">{_esc(t)}<text:tab/>{n}</text:p>\n'
        for t, n in CONTENTS
    )
    body = _p("Title", "תוכן העניינים") + rows + _p("Brk", AVOT[0]) + _p("Body", AVOT[1])
    _writer("contents_page", body, master="")
    return [
        Page(
            [["תוכן העניינים"], [f"{t} {n}" for t, n in CONTENTS]],
            headings=["תוכן העניינים"],
            notes="contents rows: title, dot leaders, page number (leaders not in the truth)",
        ),
        Page([[AVOT[0], AVOT[1]]]),
    ]


def contents_flex() -> list[Page]:
    """A contents page in Chromium: each row a flex box, the title at the right and its
    page number at the far (left) margin, no leaders; two-digit numbers (Chromium
    draws the glyphs of such a row one by one)."""
    css = (
        "@page { size: A5; margin: 18mm 14mm }"
        "body { font-family: 'Frank Ruehl CLM'; font-size: 12pt; margin: 0 }"
        "h1 { text-align: center; font-size: 18pt }"
        ".row { display: flex; margin: 0 0 6pt 0 } .row .t { flex: 1 }"
    )
    rows = "".join(
        f'<div class="row"><span class="t">{_esc(t)}</span><span>{n}</span></div>'
        for t, n in CONTENTS
    )
    _chromium("contents_flex", f"<h1>{_esc('תוכן העניינים')}</h1>{rows}", css)
    return [
        Page(
            [["תוכן העניינים"], [f"{t} {n}" for t, n in CONTENTS]],
            headings=["תוכן העניינים"],
            lines=[f"{t} {n}" for t, n in CONTENTS],
            notes="contents rows: the page number at the far margin, one line a row",
        )
    ]


def _cell(text: str, style: str = "Cell", cell: str = "Grid") -> str:
    return (
        f'<table:table-cell table:style-name="{cell}" office:value-type="string">'
        f"{_p(style, text)}</table:table-cell>"
    )


def rtl_table() -> list[Page]:
    """A ruled table on a right-to-left page: a Hebrew cell and two Latin ones a row."""
    rows = "".join(
        "<table:table-row>" + "".join(_cell(c) for c in row) + "</table:table-row>\n"
        for row in TABLE
    )
    body = (
        _p("Body", AVOT[3])
        + '<table:table table:name="T1" table:style-name="Tab">'
        + '<table:table-column table:number-columns-repeated="3"/>\n'
        + rows
        + "</table:table>\n"
        + _p("Body", AVOT[4])
    )
    _writer("rtl_table", body, master="")
    return [
        Page(
            [[AVOT[3]], [" ".join(row) for row in TABLE], [AVOT[4]]],
            notes="one line per row, cells from the right",
        )
    ]


def haggadah_table() -> list[Page]:
    """Hebrew and English side by side in an unruled two-cell table (a word processor's
    parallel text), small instructions above each paragraph; the page number below."""
    he, en = _haggadah_parts()
    he_cell = _p("Head2", "מגיד") + "".join(_p("Do", d) + _p("Body", t) for d, t in he)
    en_cell = _p("EnHead2", "Maggid") + "".join(_p("EnDo", d) + _p("En", t) for d, t in en)
    body = (
        '<table:table table:name="P1" table:style-name="Tab">'
        '<table:table-column table:number-columns-repeated="2"/><table:table-row>'
        f'<table:table-cell table:style-name="Open" office:value-type="string">{he_cell}'
        f'</table:table-cell><table:table-cell table:style-name="Open" '
        f'office:value-type="string">{en_cell}</table:table-cell></table:table-row>'
        "</table:table>\n"
    )
    master = f'<style:footer><text:p text:style-name="Footer">{_PAGE_FIELD}</text:p></style:footer>'
    _writer("haggadah_table", body, master=master)
    return [
        Page(
            [
                ["מגיד", *[x for pair in he for x in pair]],
                ["Maggid", *[x for pair in en for x in pair]],
            ],
            page_number="1",
            headings=["מגיד", "Maggid"],
            notes="parallel texts in a table: the Hebrew cell, then the English one",
        )
    ]


def sefer_sections() -> list[Page]:
    """A centred title over a two-column section (Writer), the right column first."""
    first = AVOT[:4]
    body = (
        _p("Title", "פרק ראשון")
        + '<text:section text:style-name="Cols" text:name="S1">'
        + "".join(_p("Body", x) for x in first)
        + "</text:section>\n"
    )
    master = _header("פרקי אבות")
    _writer("sefer_sections", body, master=master, size="11pt")
    return [
        Page([["פרק ראשון"], first], header=["פרקי אבות"], page_number="1", headings=["פרק ראשון"])
    ]


def _note(n: int, text: str) -> str:
    return (
        f'<text:note text:id="ftn{n}" text:note-class="footnote"><text:note-citation>{n}'
        f"</text:note-citation><text:note-body>{_p('Footnote', text)}</text:note-body></text:note>"
    )


LONG_NOTES = [
    "ראה תניא פרק ב, שהנפש השנית בישראל היא חלק אלוה ממעל ממש, וכמו שכתוב ויפח באפיו "
    "נשמת חיים, ומאן דנפח מתוכיה נפח.",
    "כמו שכתוב בזהר, ואיהו וחיוהי חד ואיהו וגרמוהי חד, ועיין שם בארוכה.",
    "משלי כ, כז: נר ה' נשמת אדם חופש כל חדרי בטן.",
    "ראה לקוטי תורה פרשת ראה, ובכמה מקומות בספרי חסידות, שאין הדבר תלוי אלא בעבודת "
    "האדם ובבחירתו החפשית.",
]


def chabad_booklet() -> list[Page]:
    """A booklet on mirrored pages (the page number at the outer corner, odd and even),
    centred bold body-size titles, a bold lead-in, notes called in mid-line, notes of
    two lines."""
    tanya = tanya_paragraphs()
    pages: list[Page] = []
    xml = []
    n = 0
    for k, title in enumerate(["פרק א", "פרק ב"]):
        paras, truths, notes = [], [], []
        for para in tanya[4 + 2 * k : 6 + 2 * k]:
            n += 1
            words = para.split()
            lead, mid, rest = words[:2], words[2:7], words[7:]
            paras.append(
                f'<text:p text:style-name="Body"><text:span text:style-name="B">'
                f"{_esc(' '.join(lead))}</text:span> {_esc(' '.join(mid))}"
                f"{_note(n, LONG_NOTES[n - 1])} {_esc(' '.join(rest))}</text:p>\n"
            )
            truths.append(f"{' '.join(lead + mid)}{n} {' '.join(rest)}")
            notes.append(f"{n} {LONG_NOTES[n - 1]}")
        style = "Centre" if k == 0 else "BrkCentre"
        xml.append(_p(style, title) + "".join(paras))
        pages.append(
            Page(
                [[title], truths],
                footnotes=notes,
                header=["קונטרס החלצו"],
                page_number=str(k + 1),
                headings=[title],
                notes="notes of two lines: footnotes hold each note's text, its lines joined",
            )
        )
    master = (
        f'<style:header><text:p text:style-name="Header">{_esc("קונטרס החלצו")}<text:tab/>'
        f"{_PAGE_FIELD}</text:p></style:header>"
        f'<style:header-left><text:p text:style-name="Header">{_PAGE_FIELD}<text:tab/>'
        f"{_esc('קונטרס החלצו')}</text:p></style:header-left>"
    )
    _writer("chabad_booklet", "".join(xml), master=master, mirrored=True)
    return pages


def pointed_writer() -> list[Page]:
    """Pointed verses (Ezra SIL) under a centred title, each verse with its number."""
    verses = [f"({_HEB_NUM[k]}) {v}" for k, v in enumerate(GENESIS)]
    body = (
        _p("Title", "בראשית א")
        + "".join(_p("Body", v) for v in verses[:4])
        + _p("Brk", verses[4])
        + "".join(_p("Body", v) for v in verses[5:])
    )
    _writer("pointed_writer", body, master=_header("תורה"), font="Ezra SIL", size="14pt")
    return [
        Page([["בראשית א"], verses[:4]], header=["תורה"], page_number="1", headings=["בראשית א"]),
        Page([verses[4:]], header=["תורה"], page_number="2"),
    ]


def pointed_chromium() -> list[Page]:
    """Pointed verses (Taamey Frank CLM) in Chromium, verse numbers in bold."""
    css = _CSS % {"header": "תורה"} + (
        "body { font-family: 'Taamey Frank CLM'; font-size: 14pt }"
        "h1 { text-align: center; font-size: 18pt; margin: 0 0 8pt 0 }"
    )
    nums = [f"({_HEB_NUM[k]})" for k in range(len(GENESIS))]
    items = [f"<p><b>{_esc(nums[k])}</b> {_esc(v)}</p>" for k, v in enumerate(GENESIS)]
    items[4] = items[4].replace("<p>", '<p class="brk">', 1)
    _chromium("pointed_chromium", f"<h1>{_esc('בראשית א')}</h1>" + "".join(items), css)
    verses = [f"{nums[k]} {v}" for k, v in enumerate(GENESIS)]
    return [
        Page([["בראשית א"], verses[:4]], header=["תורה"], page_number="1", headings=["בראשית א"]),
        Page([verses[4:]], header=["תורה"], page_number="2"),
    ]


_HEB_NUM = ["א", "ב", "ג", "ד", "ה", "ו", "ז", "ח"]


def sefer_notes_columns() -> list[Page]:
    """Two columns under a centred title, with footnotes across the page below."""
    first = AVOT[:4]
    notes = ["1 אבות א, א.", "2 אבות א, ב."]
    paras = [
        f'<text:p text:style-name="Body">{_esc(first[0])}{_note(1, "אבות א, א.")}</text:p>',
        f'<text:p text:style-name="Body">{_esc(first[1])}{_note(2, "אבות א, ב.")}</text:p>',
        *(_p("Body", x) for x in first[2:]),
    ]
    body = (
        _p("Title", "פרק ראשון")
        + '<text:section text:style-name="Cols" text:name="S1">'
        + "".join(paras)
        + "</text:section>\n"
    )
    _writer("sefer_notes_columns", body, master=_header("פרקי אבות"), size="11pt")
    truth = [first[0] + "1", first[1] + "2", *first[2:]]
    return [
        Page(
            [["פרק ראשון"], truth],
            footnotes=notes,
            header=["פרקי אבות"],
            page_number="1",
            headings=["פרק ראשון"],
        )
    ]


def siddur_corners() -> list[Page]:
    """A running title and the page number in the header's two corners, a footer line,
    prose with a column of verse set larger between (verse is text, not titles)."""
    css = _CSS % {"header": ""} + (
        "@page { @top-center { content: none } @bottom-center { content: none }"
        " @top-right { content: 'סדר קבלת שבת'; font-family: 'David CLM'; font-size: 9pt }"
        " @top-left { content: counter(page); font-family: 'David CLM'; font-size: 9pt }"
        " @bottom-right { content: 'נוסח אשכנז'; font-family: 'David CLM'; font-size: 8pt } }"
        "body { font-size: 11pt } .verse { font-size: 14pt; text-align: center; margin: 0 }"
        ".gap { margin-top: 8pt }"
    )
    verse = [stanza.split(", ") for stanza in STANZAS]
    pages_html, pages = [], []
    for n, (prose, lines) in enumerate(zip((AVOT[:2], AVOT[2:4]), verse[:2], strict=True), 1):
        brk = ' class="brk"' if n > 1 else ""
        pages_html.append(
            f"<p{brk}>{_esc(prose[0])}</p>"
            + "".join(f'<p class="verse">{_esc(x)}</p>' for x in lines)
            + f'<p class="gap">{_esc(prose[1])}</p>'
        )
        pages.append(
            Page(
                [[prose[0], *lines, prose[1]]],
                header=["סדר קבלת שבת"],
                footer=["נוסח אשכנז"],
                page_number=str(n),
                notes="verse lines set larger than the prose, centred",
            )
        )
    _chromium("siddur_corners", "\n".join(pages_html), css)
    return pages


REFRAIN = "לכה דודי"


def siddur_refrain() -> list[Page]:
    """Lecha Dodi set a half-verse a line, each stanza's last half with the refrain
    tab-set at the far end of its line (Writer's right tab stop at the left margin)."""
    body, lines = [], []
    for stanza in STANZAS:
        halves = stanza.split(", ")
        body += [_p("Verse", x) for x in halves[:-1]]
        body.append(
            f'<text:p text:style-name="Verse">{_esc(halves[-1])}<text:tab/>'
            f"{_esc(REFRAIN)}</text:p>\n"
        )
        lines.append(f"{halves[-1]} {REFRAIN}")
    xml = _p("Body", LECHA_DODI) + "".join(body)
    _writer("siddur_refrain", xml, master=_header("קבלת שבת"))
    verse = [h for stanza in STANZAS for h in stanza.split(", ")]
    for k in range(len(verse) // 4):
        verse[4 * k + 3] += " " + REFRAIN
    return [
        Page(
            [[LECHA_DODI, *verse]],
            header=["קבלת שבת"],
            page_number="1",
            lines=lines,
            notes="the refrain tab-set at the far end of a stanza's last line: one line",
        )
    ]


def haggadah_title() -> dict[str, Any]:
    """A title page whose author's name (with its honorific) is set largest above the
    title, the title with its year on its line, and a PDF Info author that is an
    account name; then chapters whose numbered titles stand over an epigraph set
    large (Writer). Returns the title truth: title, author, chapter and segment titles."""
    author, title, year = "הרב משה יעקב כהן", "הגדה של פסח", '(תשפ"ד)'
    epigraphs = [
        "והגדת לבנך ביום ההוא לאמר, בעבור זה עשה ה' לי בצאתי ממצרים.",
        "בכל דור ודור חייב אדם לראות את עצמו כאילו הוא יצא ממצרים.",
    ]
    xml = _p("Display", author) + _p("Display2", f"{title} {year}")
    xml += _p("Centred", "עם פירוש דרכי העיון") + _p("Centred", "ירושלים")
    chapters = ["פרק א", "פרק ב"]
    for k, (chapter, epigraph) in enumerate(zip(chapters, epigraphs, strict=True)):
        xml += _p("BrkTitle", chapter) + _p("Epigraph", epigraph)
        xml += "".join(_p("Body", x) for x in AVOT[2 * k : 2 * k + 2])
    _writer("haggadah_title", xml, master="", author="yossi.k")
    return {
        "file": "haggadah_title.pdf",
        "title": title,
        "author": author,
        "chapters": chapters,
        "segments": chapters,
        "notes": "the author set largest above the title; Info's author an account name; "
        "each chapter's title over an epigraph set large (not part of the title)",
    }


def haggadah_facing() -> dict[str, Any]:
    """A haggadah on facing pages: each section's Hebrew page under its title, then
    its English page under the English title set smaller; the first section opens
    page 1 (no title page), the book's name in the running header (Writer). Returns
    the title truth: the book's name, no author, the sections' (Hebrew) titles."""
    he, en = _haggadah_parts()
    sections = [("קדש", "Kadesh"), ("מגיד", "Maggid"), ("הלל", "Hallel")]
    xml = ""
    for k, ((he_title, en_title), (_, he_text), (_, en_text)) in enumerate(
        zip(sections, he, en, strict=True)
    ):
        xml += _p("BrkTitle" if k else "Title", he_title) + _p("Body", he_text)
        xml += _p("Body", AVOT[k]) + _p("EnTitle", en_title) + _p("En", en_text)
        xml += _p("En", HA_LACHMA_EN)
    _writer("haggadah_facing", xml, master=_header("הגדה של פסח"))
    return {
        "file": "haggadah_facing.pdf",
        "title": "הגדה של פסח",
        "author": "",
        "chapters": [he_title for he_title, _ in sections],
        "notes": "page 1 opens the first section under a title set as every section's: "
        "not a title page; each English title (smaller, facing) is no chapter of its own",
    }


def _italic(text: str) -> str:
    return f'<text:span text:style-name="I">{_esc(text)}</text:span>'


def haggadah_preface() -> list[Page]:
    """An English preface (Latin words in italic, no space character at the font
    changes of the source but the space before) over a Hebrew paragraph that names
    books in Latin italics: a page of more Latin than Hebrew letters."""
    en = [
        ("This is the bread of affliction: the ", "Haggadah", " opens with "),
        ("these words over the ", "matzah", ", read from the "),
        ("edition of ", "Prague", " in 1526 and the later one of "),
        ("", "Amsterdam", ", which added a map of the journey."),
    ]
    en_xml = "".join(f"{_esc(a)}{_italic(b)}{_esc(c)}" for a, b, c in en)
    en_text = "".join(a + b + c for a, b, c in en)
    he_parts = [
        ("ראה בספר ", "Sefer HaChinuch", " מצוה כא, ובהגדה "),
        ("", "Haggadah shel Pesach", ' שנדפסה בפראג בשנת שפ"ז.'),
    ]
    he_xml = "".join(f"{_esc(a)}{_italic(b)}{_esc(c)}" for a, b, c in he_parts)
    he_text = "".join(a + b + c for a, b, c in he_parts)
    xml = (
        f'<text:p text:style-name="Latin">{en_xml}</text:p>\n'
        + _p("Latin", HA_LACHMA_EN)
        + _p("Latin", AVADIM_EN)
        + f'<text:p text:style-name="Body">{he_xml}</text:p>\n'
        + _p("Body", HA_LACHMA)
    )
    _writer("haggadah_preface", xml, master="", size="10pt")
    return [
        Page(
            [[en_text, HA_LACHMA_EN, AVADIM_EN], [he_text, HA_LACHMA]],
            notes="a Hebrew paragraph with Latin titles on a page of more Latin letters",
        )
    ]


def title_second() -> dict[str, Any]:
    """An abstract page, then the title page (a genre word set largest above a
    letter-spaced title, a by-line, the place and year), then chapter 1 (Chromium).
    Returns the title truth: title, author, chapter titles."""
    title, author, subtitle = "אור הגנוז", "משה יעקב כהן", "דרכי העיון והלימוד"
    css = _CSS % {"header": ""} + (
        "@page { @top-center { content: none } }"
        ".c { text-align: center } .genre { font-size: 30pt; text-align: center;"
        " margin-top: 18mm } .t { font-size: 24pt; letter-spacing: 0.4em; font-weight: bold;"
        " text-align: center; margin-top: 8mm } .s { font-size: 14pt; text-align: center }"
        "h2 { font-size: 16pt }"
    )
    body = (
        f'<p class="c">{_esc("תקציר")}</p><p>{_esc(AVOT[0])} {_esc(AVOT[1])}</p>'
        f'<p class="genre brk">{_esc("קונטרס")}</p><p class="t">{_esc(title)}</p>'
        f'<p class="s">{_esc(subtitle)}</p><p class="c" style="margin-top: 14mm">מאת</p>'
        f'<p class="s">{_esc(author)}</p>'
        f'<p class="c" style="margin-top: 30mm">{_esc("ירושלים תשפ״ד")}</p>'
        f'<h2 class="brk">{_esc("פרק א")}</h2><p>{_esc(AVOT[2])}</p><p>{_esc(AVOT[3])}</p>'
    )
    _chromium("title_second", body, css)
    return {
        "file": "title_second.pdf",
        "title": title,
        "author": author,
        "chapters": ["פרק א"],
        "notes": "the title page is page 2; the genre word is set largest; letter-spaced",
    }


# --- pdfium: spreads, rotation, crop ----------------------------------------------------


def _pdfium_save(doc: Any, out: Path) -> None:
    doc.save(str(out))


def make_spread(src: Path, out: Path, order: list[int]) -> None:
    """Pages ``order`` (0-based, the right page first) of ``src`` side by side on one
    landscape page each pair, the way a spread is printed (pdfium's N-up import)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(src))
    w, h = doc[0].get_size()
    # Left to right on the sheet: the higher page on the left in a right-to-left book.
    picked = pdfium.PdfDocument.new()
    picked.import_pages(doc, [order[1], order[0]])
    nup = raw.FPDF_ImportNPagesToOne(picked.raw, ctypes.c_float(2 * w), ctypes.c_float(h), 2, 1)
    spread = pdfium.PdfDocument(nup)
    _pdfium_save(spread, out)


def make_rotated(src: Path, out: Path) -> None:
    """Every page drawn a quarter turn round on a landscape sheet, ``/Rotate 90`` turning
    it back upright for the reader (as scanners and imposition tools write pages)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument(str(src))
    new = pdfium.PdfDocument.new()
    for i in range(len(doc)):
        w, h = doc[i].get_size()
        xobj = raw.FPDF_NewXObjectFromPage(new.raw, doc.raw, i)
        page = new.new_page(h, w)
        obj = raw.FPDF_NewFormObjectFromXObject(xobj)
        # Turn the page a quarter counter-clockwise onto the landscape sheet:
        # (x, y) -> (h - y, x); /Rotate 90 (clockwise) shows it upright.
        raw.FPDFPageObj_Transform(obj, 0, 1, -1, 0, h, 0)
        raw.FPDFPage_InsertObject(page.raw, obj)
        raw.FPDF_CloseXObject(xobj)
        raw.FPDFPage_GenerateContent(page.raw)
        page.set_rotation(90)
    _pdfium_save(new, out)


def make_cropped(src: Path, out: Path) -> None:
    """Every page on a larger sheet (a bleed of 15 mm), with the producer's slug line
    (file name and date) outside the page, and a CropBox that shows the page alone."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    bleed = 42.5
    doc = pdfium.PdfDocument(str(src))
    new = pdfium.PdfDocument.new()
    font = raw.FPDFText_LoadStandardFont(new.raw, b"Helvetica")
    for i in range(len(doc)):
        w, h = doc[i].get_size()
        xobj = raw.FPDF_NewXObjectFromPage(new.raw, doc.raw, i)
        page = new.new_page(w + 2 * bleed, h + 2 * bleed)
        obj = raw.FPDF_NewFormObjectFromXObject(xobj)
        raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, bleed, bleed)
        raw.FPDFPage_InsertObject(page.raw, obj)
        raw.FPDF_CloseXObject(xobj)
        slug = raw.FPDFPageObj_NewTextObj(new.raw, b"Helvetica", ctypes.c_float(7))
        text = f"booklet_final.indd   {i + 1}   12/03/2024   10:15:22"
        buf = (text + "\0").encode("utf-16-le")
        raw.FPDFText_SetText(
            slug, ctypes.cast(ctypes.c_char_p(buf), ctypes.POINTER(raw.FPDF_WCHAR))
        )
        raw.FPDFPageObj_Transform(slug, 1, 0, 0, 1, bleed, 12)
        raw.FPDFPage_InsertObject(page.raw, slug)
        raw.FPDFPage_GenerateContent(page.raw)
        page.set_cropbox(bleed, bleed, bleed + w, bleed + h)
    del font
    _pdfium_save(new, out)


def make_ocr(src: Path, out: Path, pages: list[Page]) -> list[Page]:
    """``src`` rendered at 300 dpi (one bit a pixel) and read by Tesseract, which writes
    the scan with its invisible text layer (an OCR-layer sefer), and the truth: the
    layer's own text (its OCR mistakes kept), each line in the role its source gave it.

    Tesseract's text output gives the lines in its order, blocks apart by blank lines:
    per page the running header with the page number, the title, the paragraphs, the
    notes; the source's page (``pages``) says how many of each there are.
    """
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            ["pdftoppm", "-r", "300", "-mono", str(src), f"{tmp}/p"], check=True, timeout=120
        )
        scans = sorted(Path(tmp).glob("p-*.pbm"))
        for scan in scans:
            Image.open(scan).save(scan.with_suffix(".png"))
        listing = Path(tmp) / "list.txt"
        listing.write_text("".join(f"{x.with_suffix('.png')}\n" for x in scans), "utf-8")
        subprocess.run(
            ["tesseract", str(listing), f"{tmp}/out", "-l", "heb", "txt", "pdf"],
            check=True,
            capture_output=True,
            timeout=300,
        )
        shutil.copy(Path(tmp) / "out.pdf", out)
        text = (Path(tmp) / "out.txt").read_text("utf-8")
    truths = []
    for page, layer in zip(pages, text.split("\f"), strict=False):
        blocks = [b.splitlines() for b in layer.strip().split("\n\n")]
        notes = blocks[-1][-len(page.footnotes) :]
        if len(blocks[-1]) == len(notes):
            blocks = blocks[:-1]
        else:
            blocks[-1] = blocks[-1][: -len(notes)]
        header, title, paras = blocks[0], blocks[1], blocks[2:]
        assert len(header) == 1 and len(title) == 1 and len(paras) == len(page.body[1])
        truths.append(
            Page(
                [title, [line for para in paras for line in para]],
                footnotes=notes,
                header=[header[0]],
                headings=title,
                notes="an OCR layer: its own text; the header line holds the page number",
            )
        )
    return truths


# --- TeX (LuaLaTeX, XeLaTeX) ------------------------------------------------------------

# The engines and packages real Hebrew books are set with: LuaLaTeX with babel
# (``bidi=basic``: LuaTeX's own right-to-left, glyphs written in visual order) or with
# polyglossia, and XeLaTeX with polyglossia over the ``bidi`` package (glyph runs in
# logical order). Debian: ``texlive-luatex``, ``texlive-xetex``, ``texlive-lang-other``,
# ``texlive-lang-arabic`` (``bidi``, ``luabidi``), ``texlive-latex-extra``.

_TEX_HEAD = r"""\documentclass[%(size)s]{article}
\usepackage[a5paper,top=20mm,bottom=20mm,left=16mm,right=16mm,headsep=6mm]{geometry}
\usepackage{fancyhdr}
%(packages)s
%(lang)s
\pagestyle{fancy}
\fancyhf{}
\renewcommand{\headrulewidth}{0.4pt}
%(style)s
\setlength{\parskip}{4pt}
\begin{document}
"""


def _tex(
    name: str,
    engine: str,
    lang: str,
    body: str,
    *,
    style: str,
    size: str = "11pt",
    packages: str = "",
) -> None:
    """Write ``sources/NAME.tex`` and typeset it with ``engine`` (twice, for the page
    references of its header); without the engine the committed PDF stays."""
    src = SOURCES / f"{name}.tex"
    # ``bidi`` (XeLaTeX) must come after the packages it patches: they go first.
    head = _TEX_HEAD % {
        "size": size,
        "packages": packages,
        "lang": lang.strip(),
        "style": style.strip(),
    }
    src.write_text(head + body.strip() + "\n\\end{document}\n", "utf-8")
    if shutil.which(engine) is None:
        print(f"{name}: no {engine}, the committed PDF is kept", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(2):
            subprocess.run(
                [engine, "-interaction=nonstopmode", "-halt-on-error", str(src)],
                cwd=tmp,
                check=True,
                capture_output=True,
                timeout=300,
            )
        shutil.copy(Path(tmp) / f"{name}.pdf", HERE / f"{name}.pdf")


_BABEL = r"""
\usepackage[bidi=basic]{babel}
\babelprovide[main,import]{hebrew}
\babelprovide[import]{english}
\babelfont{rm}[Renderer=HarfBuzz]{Frank Ruehl CLM}
\babelfont[english]{rm}{DejaVu Serif}
"""

_POLYGLOSSIA = r"""
\usepackage{polyglossia}
\setmainlanguage{hebrew}
\setotherlanguage{english}
\newfontfamily\hebrewfont[Script=Hebrew]{%(font)s}
\newfontfamily\englishfont{DejaVu Serif}
\setmainfont{%(font)s}
"""

# Mishnah Berakhot 1:1-2, typed from the Mishnah (public domain).
BERAKHOT = [
    "מאימתי קורין את שמע בערבית? משעה שהכהנים נכנסים לאכול בתרומתן, עד סוף האשמורה "
    "הראשונה, דברי רבי אליעזר. וחכמים אומרים: עד חצות. רבן גמליאל אומר: עד שיעלה "
    "עמוד השחר.",
    "מעשה ובאו בניו מבית המשתה, אמרו לו: לא קרינו את שמע. אמר להם: אם לא עלה עמוד "
    "השחר, חיבין אתם לקרות.",
    "מאימתי קורין את שמע בשחרית? משיכיר בין תכלת ללבן. רבי אליעזר אומר: בין תכלת "
    "לכרתי. וגומרה עד הנץ החמה. רבי יהושע אומר: עד שלש שעות, שכן דרך בני מלכים "
    "לעמוד בשלש שעות.",
]


def tex_babel_notes() -> list[Page]:
    """LuaLaTeX with babel (``bidi=basic``): a running header with the title at one
    corner and the page number at the other, section titles, footnotes called at the
    end of a sentence, Latin and digits in parentheses inside Hebrew paragraphs."""
    latin = "(Danby, p. 2)"
    paras = [
        AVOT[0],
        AVOT[1],
        AVOT[2] + f" ראה בתרגום האנגלי {latin}.",
    ]
    notes = ["אבות א, א; ראה גם ברכות ב.", "אבות א, ב."]
    page2 = [BERAKHOT[0], BERAKHOT[1], BERAKHOT[2] + " (משנה 2)."]
    en = r"\foreignlanguage{english}{Danby, p. 2}"
    body = rf"""
\section*{{פרק ראשון}}
{paras[0]}\footnote{{{notes[0]}}}

{paras[1]}\footnote{{{notes[1]}}}

{AVOT[2]} ראה בתרגום האנגלי ({en}).
\newpage
\section*{{ברכות, פרק ראשון}}
{page2[0]}

{page2[1]}

{BERAKHOT[2]} (משנה 2).
"""
    style = r"\fancyhead[R]{פרקי אבות וברכות}\fancyhead[L]{\thepage}"
    _tex("tex_babel_notes", "lualatex", _BABEL, body, style=style)
    header = ["פרקי אבות וברכות"]
    return [
        Page(
            [["פרק ראשון"], [paras[0] + "1", paras[1] + "2", paras[2]]],
            footnotes=[f"1 {notes[0]}", f"2 {notes[1]}"],
            header=header,
            page_number="1",
            headings=["פרק ראשון"],
        ),
        Page(
            [["ברכות, פרק ראשון"], page2],
            header=header,
            page_number="2",
            headings=["ברכות, פרק ראשון"],
        ),
    ]


# Mishnah Berakhot 2:1-2 (public domain); the verse pointed, its reference in Latin.
SHEMA = "שְׁמַע יִשְׂרָאֵל ה׳ אֱלֹהֵינוּ ה׳ אֶחָד"
BERAKHOT_2 = [
    ("היה קורא", " בתורה והגיע זמן המקרא, אם כוון לבו יצא, ואם לאו לא יצא."),
    (
        "בפרקים",
        " שואל מפני הכבוד ומשיב, ובאמצע שואל מפני היראה ומשיב, דברי רבי מאיר. רבי "
        "יהודה אומר: באמצע שואל מפני היראה ומשיב מפני הכבוד, ובפרקים שואל מפני הכבוד "
        "ומשיב שלום לכל אדם.",
    ),
    (
        "אלו הן בין הפרקים:",
        " בין ברכה ראשונה לשניה, בין שניה לשמע, בין שמע לוהיה אם שמוע, בין והיה אם "
        "שמוע לויאמר, בין ויאמר לאמת ויציב. רבי יהודה אומר: בין ויאמר לאמת ויציב לא "
        "יפסיק.",
    ),
    (
        "אמר רבי יהושע בן קרחה:",
        " למה קדמה שמע לוהיה אם שמוע? אלא כדי שיקבל עליו עול מלכות שמים תחלה, ואחר "
        f"כך יקבל עליו עול מצות, שנאמר: {SHEMA} (Deut. 6:4).",
    ),
]


def _noted(lead: str, text: str, at: str, note: str, k: int) -> tuple[str, str]:
    """A paragraph opening with bold words and a footnote called after ``at``: its TeX
    and its truth (the note's number after ``at``)."""
    tex = rf"\textbf{{{lead}}}" + (
        text.replace(at, at + rf"\footnote{{{note}}}", 1) if at else text
    )
    return tex, lead + (text.replace(at, f"{at}{k}", 1) if at else text)


def tex_babel_columns() -> list[Page]:
    """LuaLaTeX with babel (``bidi=basic``, ``layout=columns``): a section title over
    two columns whose paragraphs open with bold words, footnotes called mid-line below
    both columns, a pointed verse with its Latin reference in parentheses, the running
    title and page number in the header's corners."""
    notes = ["ראה ברכות יג, א.", "כלומר בין פרק לפרק של קריאת שמע.", "ברכות יד, ב."]
    calls = [("יצא,", 1), ("", 0), ("לשמע,", 2), ("שמוע?", 3)]
    first = [
        _noted(lead, text, at, notes[k - 1], k)
        for (lead, text), (at, k) in zip(BERAKHOT_2, calls, strict=True)
    ]
    # The notes are numbered through the document.
    last = "ראה תוספתא ברכות א, א."
    second = [(BERAKHOT[0], BERAKHOT[0]), _noted("", BERAKHOT[1], "לקרות.", last, 4)]
    second.append((BERAKHOT[2], BERAKHOT[2]))
    latin = (r"(Deut. 6:4)", r"(\foreignlanguage{english}{Deut. 6:4})")
    first[3] = (first[3][0].replace(*latin), first[3][1])

    def cols(title: str, paras: list[tuple[str, str]]) -> str:
        return (
            rf"\section*{{{title}}}"
            + "\n\\begin{multicols}{2}\n"
            + "\n\n".join(t for t, _ in paras)
            + "\n\\end{multicols}\n"
        )

    titles = ["פרק שני: היה קורא", "פרק ראשון: מאימתי"]
    body = cols(titles[0], first) + "\\newpage\n" + cols(titles[1], second)
    lang = _BABEL.replace("[bidi=basic]", "[bidi=basic,layout=columns.footnotes]")
    style = r"\fancyhead[R]{משנה ברכות}\fancyhead[L]{\thepage}"
    _tex(
        "tex_babel_columns", "lualatex", lang, body, style=style, packages=r"\usepackage{multicol}"
    )
    return [
        Page(
            [[titles[0]], [t for _, t in first]],
            footnotes=[f"{k} {x}" for k, x in enumerate(notes, 1)],
            header=["משנה ברכות"],
            page_number="1",
            headings=[titles[0]],
        ),
        Page(
            [[titles[1]], [t for _, t in second]],
            footnotes=[f"4 {last}"],
            header=["משנה ברכות"],
            page_number="2",
            headings=[titles[1]],
        ),
    ]


def tex_babel_foot() -> list[Page]:
    """LuaLaTeX with babel (``layout=columns.footnotes``): two columns under a section
    title with no running header and the page number in a corner of the foot, the
    notes below the right column alone: nothing is set across the page above them."""
    notes = ["ראה ברכות יג, א.", "כלומר בין פרק לפרק של קריאת שמע.", "ברכות יד, ב."]
    calls = [("יצא,", 1), ("", 0), ("לשמע,", 2), ("שמוע?", 3)]
    paras = [
        _noted(lead, text, at, notes[k - 1], k)
        for (lead, text), (at, k) in zip(BERAKHOT_2, calls, strict=True)
    ]
    latin = (r"(Deut. 6:4)", r"(\foreignlanguage{english}{Deut. 6:4})")
    paras[3] = (paras[3][0].replace(*latin), paras[3][1])
    title = "משנה ברכות, פרק שני"
    body = (
        rf"\section*{{{title}}}"
        + "\n\\begin{multicols}{2}\n"
        + "\n\n".join(t for t, _ in paras)
        + "\n\\end{multicols}\n"
    )
    lang = _BABEL.replace("[bidi=basic]", "[bidi=basic,layout=columns.footnotes]")
    style = r"\renewcommand{\headrulewidth}{0pt}\fancyfoot[L]{\thepage}"
    _tex("tex_babel_foot", "lualatex", lang, body, style=style, packages=r"\usepackage{multicol}")
    return [
        Page(
            [[title], [t for _, t in paras]],
            footnotes=[f"{k} {x}" for k, x in enumerate(notes, 1)],
            page_number="1",
            headings=[title],
        )
    ]


def _columns(title: str, right: list[str], left: list[str]) -> str:
    """A centred bold title over two balanced columns, ``right`` in the first."""
    return (
        rf"\begin{{center}}{{\Large\bfseries {title}}}\end{{center}}"
        + "\n\\begin{multicols}{2}\n"
        + "\n\n".join(right)
        + "\n\n\\columnbreak\n\n"
        + "\n\n".join(left)
        + "\n\\end{multicols}\n"
    )


def tex_poly_columns() -> list[Page]:
    """LuaLaTeX with polyglossia: pointed verses (Ezra SIL, each mark its own glyph
    run) in two columns (the right one first) under a centred title spanning both, then
    a page of Mishnah so; the page number centred between two running titles."""
    verses = [f"{_HEB_NUM[k]} {v}" for k, v in enumerate(GENESIS)]
    body = (
        _columns("בראשית א", verses[:4], verses[4:])
        + "\n\\newpage\n"
        + _columns("ברכות א", BERAKHOT[:2], BERAKHOT[2:])
    )
    lang = _POLYGLOSSIA % {"font": "Ezra SIL"}
    style = r"\fancyhead[R]{מקרא ומשנה}\fancyhead[C]{\thepage}\fancyhead[L]{פרק א}"
    _tex(
        "tex_poly_columns",
        "lualatex",
        lang,
        body,
        style=style,
        size="12pt",
        packages=r"\usepackage{multicol}",
    )
    header = ["מקרא ומשנה", "פרק א"]
    return [
        Page(
            [["בראשית א"], verses[:4], verses[4:]],
            header=header,
            page_number="1",
            headings=["בראשית א"],
        ),
        Page(
            [["ברכות א"], BERAKHOT[:2], BERAKHOT[2:]],
            header=header,
            page_number="2",
            headings=["ברכות א"],
        ),
    ]


# Psalm 23:1-2 (public domain), pointed; a footnote called between two pointed words.
PSALM_23 = (
    "מִזְמוֹר לְדָוִד ה׳ רֹעִי לֹא אֶחְסָר",
    "בִּנְאוֹת דֶּשֶׁא יַרְבִּיצֵנִי",
    "עַל מֵי מְנֻחוֹת יְנַהֲלֵנִי.",
)


def tex_poly_mixed() -> list[Page]:
    """LuaLaTeX with polyglossia: Hebrew paragraphs with bold and italic words, Latin
    references with their digits in parentheses, footnotes called mid-line, a pointed
    verse whose line pdfium hands over in pieces (the note's raised number parts it);
    the page number centred at the foot. (Digits outside a Latin run are not used:
    polyglossia on LuaTeX prints them reversed.)"""
    first = (
        r"\textbf{אמר רבי} יהושע בן לוי\footnote{סנהדרין צח, א.} "
        r"(\textenglish{Sanhedrin 98a}) \textit{מעשה} גדול היה, ועוד "
        r"(\textenglish{ed. 2}) נאמר: " + SHEMA + "."
    )
    first_truth = (
        "אמר רבי יהושע בן לוי1 (Sanhedrin 98a) מעשה גדול היה, ועוד (ed. 2) נאמר: " + SHEMA + "."
    )
    verse = (
        f"{PSALM_23[0]} (\\textenglish{{Ps. 23:1}}) {PSALM_23[1]}"
        f"\\footnote{{תהלים כג, ב.}} {PSALM_23[2]}"
    )
    verse_truth = f"{PSALM_23[0]} (Ps. 23:1) {PSALM_23[1]}2 {PSALM_23[2]}"
    body = r"\section*{דברי חכמים}" + "\n" + first + "\n\n" + verse + "\n"
    lang = _POLYGLOSSIA % {"font": "Frank Ruehl CLM"}
    style = r"\renewcommand{\headrulewidth}{0pt}\fancyfoot[C]{\thepage}"
    _tex("tex_poly_mixed", "lualatex", lang, body, style=style)
    return [
        Page(
            [["דברי חכמים"], [first_truth, verse_truth]],
            footnotes=["1 סנהדרין צח, א.", "2 תהלים כג, ב."],
            page_number="1",
            headings=["דברי חכמים"],
        )
    ]


def tex_xe_parallel() -> list[Page]:
    """XeLaTeX with polyglossia (the ``bidi`` package): a title, a Hebrew paragraph
    citing a Latin book with its year, then the Haggadah with its English beside it
    (``paracol``: the Hebrew column at the right), the page number centred at the foot."""
    intro = "נוסח ההגדה כפי שנדפס בפראג (Prague 1526), עם תרגום לאנגלית."
    he = [HA_LACHMA, MA_NISHTANA]
    en = [HA_LACHMA_EN, MA_NISHTANA_EN]
    # The English unhyphenated: a word broken at a line's end is one word of the truth,
    # which libtext does not join yet.
    en_tex = [
        r"\begin{english}\raggedright\hyphenpenalty=10000 " + x + r"\par\end{english}" for x in en
    ]
    body = (
        r"\section*{הא לחמא עניא}"
        + "\n"
        + intro.replace("(Prague 1526)", r"(\textenglish{Prague 1526})")
        + "\n\n\\begin{paracol}{2}\n"
        + "\n\n".join(he)
        + "\n\\switchcolumn\n"
        + "\n\n".join(en_tex)
        + "\n\\end{paracol}\n"
    )
    lang = _POLYGLOSSIA % {"font": "David CLM"}
    style = r"\renewcommand{\headrulewidth}{0pt}\fancyfoot[C]{\thepage}"
    _tex("tex_xe_parallel", "xelatex", lang, body, style=style, packages=r"\usepackage{paracol}")
    return [
        Page(
            [["הא לחמא עניא"], [intro], he, en],
            page_number="1",
            headings=["הא לחמא עניא"],
        )
    ]


# --- Typst, WeasyPrint ------------------------------------------------------------------

# Two more producers of Hebrew books, both from PyPI: Typst (``pip install typst``: the
# compiler inside the package) and WeasyPrint (``pip install weasyprint``: HTML and CSS
# paged media over Pango, as web apps that publish Hebrew texts use it; Debian's
# ``libpango-1.0-0``). The same four books are set with each (``typst_*`` pages need
# Typst, ``weasy_*`` pages WeasyPrint; without the package its committed PDFs are kept):
# a book (contents page with dot leaders, chapter and section titles, footnotes, a running
# header and the page number), two columns under a title with a footnote, a Hebrew text
# with its English beside it, and verses with points and accents (te'amim).

# Genesis 1:1-4 with points and accents (the Masoretic text, public domain).
GENESIS_TAAMIM = [
    "בְּרֵאשִׁ֖ית בָּרָ֣א אֱלֹהִ֑ים אֵ֥ת הַשָּׁמַ֖יִם וְאֵ֥ת הָאָֽרֶץ׃",
    "וְהָאָ֗רֶץ הָיְתָ֥ה תֹ֙הוּ֙ וָבֹ֔הוּ וְחֹ֖שֶׁךְ עַל־פְּנֵ֣י תְה֑וֹם וְר֣וּחַ אֱלֹהִ֔ים מְרַחֶ֖פֶת עַל־פְּנֵ֥י הַמָּֽיִם׃",
    "וַיֹּ֥אמֶר אֱלֹהִ֖ים יְהִ֣י א֑וֹר וַֽיְהִי־אֽוֹר׃",
    "וַיַּ֧רְא אֱלֹהִ֛ים אֶת־הָא֖וֹר כִּי־ט֑וֹב וַיַּבְדֵּ֣ל אֱלֹהִ֔ים בֵּ֥ין הָא֖וֹר וּבֵ֥ין הַחֹֽשֶׁךְ׃",
]


@dataclass
class _Section:
    title: str
    text: str
    note: str = ""


@dataclass
class _Book:
    """What both producers set: titles, paragraphs, notes; the truths come from here."""

    header: str
    chapters: list[tuple[str, list[_Section]]]


def _book() -> _Book:
    tanya = tanya_paragraphs()
    return _Book(
        "ספר התניא",
        [
            (
                "פרק ראשון: הקדמת המלקט",
                [
                    _Section("א. אגרת השלוחה", tanya[0], NOTES[0]),
                    _Section("ב. ספר של בינונים", tanya[1], NOTES[1]),
                ],
            ),
            ("פרק שני: נפש האלהית", [_Section("א. חלק אלוה ממעל", tanya[2], NOTES[2])]),
        ],
    )


def _book_pages(book: _Book) -> list[Page]:
    """Page 1 the contents (chapters and their sections, each with its page), then a
    chapter a page, each paragraph ending in its note's marker."""
    rows = []
    pages = []
    n = 0
    for k, (chapter, sections) in enumerate(book.chapters):
        rows.append(f"{chapter} {k + 2}")
        rows += [f"{s.title} {k + 2}" for s in sections]
        body: list[list[str]] = [[chapter]]
        notes = []
        for s in sections:
            n += 1
            body += [[s.title], [f"{s.text}{n}"]]
            notes.append(f"{n} {s.note}")
        pages.append(
            Page(
                body,
                footnotes=notes,
                header=[book.header],
                page_number=str(k + 2),
                headings=[chapter, *(s.title for s in sections)],
                notes="a chapter title, section titles a size smaller, notes at the foot",
            )
        )
    contents = Page(
        [["תוכן העניינים"], rows],
        page_number="1",
        headings=["תוכן העניינים"],
        notes="contents rows: title, dot leaders, page number (leaders not in the truth)",
    )
    return [contents, *pages]


def _columns_text() -> tuple[str, list[str], str]:
    """A title, paragraphs that fill one column and part of the next, a note on the first."""
    return "פרק ראשון", [*BERAKHOT, *tanya_paragraphs()[3:5]], "ברכות ב, א."


def _columns_pages() -> list[Page]:
    title, paras, note = _columns_text()
    return [
        Page(
            [[title], [paras[0] + "1", *paras[1:]]],
            footnotes=[f"1 {note}"],
            header=["משנה ברכות"],
            page_number="1",
            headings=[title],
            notes="two columns under a centred title, the right one first",
        )
    ]


_PARALLEL_TITLE = "הא לחמא עניא"


def _parallel_pages() -> list[Page]:
    return [
        Page(
            [[_PARALLEL_TITLE], [HA_LACHMA, MA_NISHTANA], [HA_LACHMA_EN, MA_NISHTANA_EN]],
            header=["הגדה של פסח"],
            page_number="1",
            headings=[_PARALLEL_TITLE],
            notes="parallel texts: the Hebrew column, then the English one",
        )
    ]


def _pointed_verses() -> list[str]:
    plain = GENESIS[len(GENESIS_TAAMIM) :]
    return [f"({_HEB_NUM[k]}) {v}" for k, v in enumerate([*GENESIS_TAAMIM, *plain])]


def _pointed_pages() -> list[Page]:
    return [
        Page(
            [["בראשית א"], _pointed_verses()],
            header=["תורה"],
            page_number="1",
            headings=["בראשית א"],
            notes="verses with points, the first four with accents and maqaf",
        )
    ]


def _typ(text: str) -> str:
    """Text as a Typst string literal: no markup, no smart quotes."""
    return '#"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


_TYP_HEAD = """#set page(paper: "a5", margin: (x: 16mm, top: 20mm, bottom: 18mm),
  header: context if here().page() >= %(first)d {
    align(center, text(size: 9pt, font: "David CLM")[%(header)s]) },
  footer: context align(center, text(size: 9pt, counter(page).display())))
#set text(lang: "he", dir: rtl, font: "%(font)s", size: %(size)s)
#set par(justify: true, spacing: 6pt)
#set smartquote(enabled: false)
#show heading.where(level: 1): set text(size: 16pt)
#show heading.where(level: 1): set align(center)
#show heading.where(level: 2): set text(size: 12.5pt)
"""


def _typst(
    name: str,
    body: str,
    *,
    header: str,
    font: str = "Frank Ruehl CLM",
    size: str = "12pt",
    first: int = 1,
) -> None:
    """Write ``sources/NAME.typ`` and compile it; without ``typst`` the committed PDF stays."""
    src = SOURCES / f"{name}.typ"
    head = _TYP_HEAD % {"header": _typ(header), "font": font, "size": size, "first": first}
    src.write_text(head + body, "utf-8")
    try:
        import typst
    except ImportError:
        print(f"{name}: no typst, the committed PDF is kept", file=sys.stderr)
        return
    typst.compile(str(src), output=str(HERE / f"{name}.pdf"), timestamp=0)


def typst_book() -> list[Page]:
    """Typst: ``#outline`` (its dot leaders, level-two rows indented), ``=`` and ``==``
    titles, ``#footnote``, the header from page 2, the page number centred at the foot."""
    book = _book()
    parts = ["#outline(title: [תוכן העניינים], indent: auto)\n"]
    for chapter, sections in book.chapters:
        parts.append(f"#pagebreak()\n= {_typ(chapter)}\n")
        for s in sections:
            parts.append(f"== {_typ(s.title)}\n{_typ(s.text)}#footnote[{_typ(s.note)}]\n\n")
    _typst("typst_book", "".join(parts), header=book.header, first=2)
    return _book_pages(book)


def typst_columns() -> list[Page]:
    """Typst: a centred title over ``#columns(2)`` (filled, not balanced), a footnote."""
    title, paras, note = _columns_text()
    body = (
        f"= {_typ(title)}\n#columns(2)[\n{_typ(paras[0])}#footnote[{_typ(note)}]\n\n"
        + "\n\n".join(_typ(p) for p in paras[1:])
        + "\n]\n"
    )
    _typst("typst_columns", body, header="משנה ברכות", size="11pt")
    return _columns_pages()


def typst_parallel() -> list[Page]:
    """Typst: a ``#grid`` of two columns, the Hebrew first (at the right), the English in
    ``text(lang: "en", dir: ltr)``."""
    en = "\n\n".join(_typ(x) for x in (HA_LACHMA_EN, MA_NISHTANA_EN))
    body = (
        f"= {_typ(_PARALLEL_TITLE)}\n#grid(columns: (1fr, 1fr), column-gutter: 7mm,\n"
        f"  [{_typ(HA_LACHMA)}\n\n{_typ(MA_NISHTANA)}],\n"
        f'  text(lang: "en", dir: ltr, font: "DejaVu Serif", size: 9.5pt)'
        f"[#set par(justify: false)\n{en}])\n"
    )
    _typst("typst_parallel", body, header="הגדה של פסח")
    return _parallel_pages()


def typst_pointed() -> list[Page]:
    """Typst: verses with points and accents (Ezra SIL), the verse numbers in bold."""
    verses = _pointed_verses()
    body = f"= {_typ('בראשית א')}\n" + "\n\n".join(
        "#strong[" + _typ(v.split(" ", 1)[0]) + "] " + _typ(v.split(" ", 1)[1]) for v in verses
    )
    _typst("typst_pointed", body + "\n", header="תורה", font="Ezra SIL", size="14pt")
    return _pointed_pages()


_WEASY_CSS = """
@page { size: A5; margin: 20mm 16mm 18mm 16mm;
  @top-center { content: "%(header)s"; font-family: "David CLM"; font-size: 9pt }
  @bottom-center { content: counter(page); font-family: "David CLM"; font-size: 9pt }
  @footnote { border-top: 0.5pt solid black; padding-top: 3pt } }
body { font-family: "%(font)s"; font-size: %(size)s; line-height: 1.3; margin: 0 }
p { margin: 0 0 5pt 0; text-align: justify }
h1 { font-size: 16pt; text-align: center; margin: 0 0 8pt 0 }
h2 { font-size: 12.5pt; margin: 8pt 0 3pt 0 }
.fn { float: footnote; font-size: 9pt; text-align: right }
.fn::footnote-call { content: counter(footnote); vertical-align: super; font-size: 7pt }
.fn::footnote-marker { content: counter(footnote) " " }
.en { font-family: "DejaVu Serif"; font-size: 9.5pt; text-align: left }
.brk { break-before: page }
"""


def _weasy(name: str, body: str, css: str) -> None:
    """Write ``sources/NAME.html`` and render it; without WeasyPrint the committed PDF
    stays."""
    src = SOURCES / f"{name}.html"
    src.write_text(
        '<!doctype html>\n<html lang="he" dir="rtl"><head><meta charset="utf-8">\n'
        f"<style>{css}</style></head>\n<body>\n{body}\n</body></html>\n",
        "utf-8",
    )
    try:
        from weasyprint import HTML
    except (ImportError, OSError):  # OSError: the package without Pango
        print(f"{name}: no weasyprint, the committed PDF is kept", file=sys.stderr)
        return
    HTML(filename=str(src)).write_pdf(HERE / f"{name}.pdf")


def weasy_book() -> list[Page]:
    """WeasyPrint: contents rows with ``leader('.')`` and ``target-counter`` (their page
    numbers counted by the renderer), ``h1``/``h2``, ``float: footnote``; the header
    left off the first page."""
    book = _book()
    css = _WEASY_CSS % {"header": book.header, "font": "Frank Ruehl CLM", "size": "12pt"} + (
        "@page :first { @top-center { content: none } }"
        ".toc a { color: black; text-decoration: none }"
        ".toc a::after { content: leader('.') target-counter(attr(href), page) }"
        ".toc p { text-align: right; margin: 0 0 3pt 0 } .toc .s { margin-right: 8mm }"
    )
    toc = []
    text = []
    for k, (chapter, sections) in enumerate(book.chapters):
        toc.append(f'<p><a href="#c{k}">{_esc(chapter)}</a></p>')
        text.append(f'<h1 id="c{k}" class="brk">{_esc(chapter)}</h1>')
        for j, s in enumerate(sections):
            toc.append(f'<p class="s"><a href="#c{k}s{j}">{_esc(s.title)}</a></p>')
            text.append(
                f'<h2 id="c{k}s{j}">{_esc(s.title)}</h2>'
                f'<p>{_esc(s.text)}<span class="fn">{_esc(s.note)}</span></p>'
            )
    head = f"<h1>{_esc('תוכן העניינים')}</h1>"
    _weasy("weasy_book", head + f'<div class="toc">{"".join(toc)}</div>' + "".join(text), css)
    return _book_pages(book)


def weasy_columns() -> list[Page]:
    """WeasyPrint: ``column-count: 2`` (balanced) under a centred title, a footnote."""
    title, paras, note = _columns_text()
    css = _WEASY_CSS % {"header": "משנה ברכות", "font": "Frank Ruehl CLM", "size": "11pt"} + (
        ".cols { column-count: 2; column-gap: 8mm }"
    )
    first = f'<p>{_esc(paras[0])}<span class="fn">{_esc(note)}</span></p>'
    rest = "".join(f"<p>{_esc(p)}</p>" for p in paras[1:])
    _weasy("weasy_columns", f'<h1>{_esc(title)}</h1><div class="cols">{first}{rest}</div>', css)
    return _columns_pages()


def weasy_parallel() -> list[Page]:
    """WeasyPrint: a two-cell table row, the Hebrew cell first (at the right), the
    English cell ``dir="ltr"``."""
    css = _WEASY_CSS % {"header": "הגדה של פסח", "font": "Frank Ruehl CLM", "size": "12pt"} + (
        "table { border-collapse: collapse; width: 100% } td { vertical-align: top;"
        " width: 50%; padding: 0 3.5mm }"
    )
    he = "".join(f"<p>{_esc(x)}</p>" for x in (HA_LACHMA, MA_NISHTANA))
    en = "".join(f"<p>{_esc(x)}</p>" for x in (HA_LACHMA_EN, MA_NISHTANA_EN))
    body = (
        f"<h1>{_esc(_PARALLEL_TITLE)}</h1><table><tr><td>{he}</td>"
        f'<td class="en" dir="ltr" lang="en">{en}</td></tr></table>'
    )
    _weasy("weasy_parallel", body, css)
    return _parallel_pages()


def weasy_pointed() -> list[Page]:
    """WeasyPrint: verses with points and accents (Ezra SIL), the verse numbers in bold."""
    css = _WEASY_CSS % {"header": "תורה", "font": "Ezra SIL", "size": "14pt"}
    items = "".join(
        f"<p><b>{_esc(v.split(' ', 1)[0])}</b> {_esc(v.split(' ', 1)[1])}</p>"
        for v in _pointed_verses()
    )
    _weasy("weasy_pointed", f"<h1>{_esc('בראשית א')}</h1>{items}", css)
    return _pointed_pages()


# --- main ---------------------------------------------------------------------------------


def _write(name: str, pages: list[Page]) -> None:
    truth = {
        "file": f"{name}.pdf",
        "generator": "tests/pages/make_pages.py",
        "pages": [p.truth(i) for i, p in enumerate(pages, 1)],
    }
    (HERE / f"{name}.pages.json").write_text(
        json.dumps(truth, ensure_ascii=False, indent=1) + "\n", "utf-8"
    )


def main(names: list[str]) -> None:
    SOURCES.mkdir(exist_ok=True)
    simple = {
        "haggadah_grid": haggadah_grid,
        "siddur_margin": siddur_margin,
        "sefer_columns": sefer_columns,
        "contents_page": contents_page,
        "rtl_table": rtl_table,
        "haggadah_table": haggadah_table,
        "sefer_sections": sefer_sections,
        "chabad_booklet": chabad_booklet,
        "pointed_writer": pointed_writer,
        "pointed_chromium": pointed_chromium,
        "sefer_notes_columns": sefer_notes_columns,
        "siddur_corners": siddur_corners,
        "siddur_refrain": siddur_refrain,
        "haggadah_preface": haggadah_preface,
        "contents_flex": contents_flex,
        "colour_titles": colour_titles,
        "tex_babel_notes": tex_babel_notes,
        "tex_babel_columns": tex_babel_columns,
        "tex_babel_foot": tex_babel_foot,
        "tex_poly_columns": tex_poly_columns,
        "tex_poly_mixed": tex_poly_mixed,
        "tex_xe_parallel": tex_xe_parallel,
        "typst_book": typst_book,
        "typst_columns": typst_columns,
        "typst_parallel": typst_parallel,
        "typst_pointed": typst_pointed,
        "weasy_book": weasy_book,
        "weasy_columns": weasy_columns,
        "weasy_parallel": weasy_parallel,
        "weasy_pointed": weasy_pointed,
    }
    for name, make in simple.items():
        if not names or name in names:
            _write(name, make())
    for name, make_title in {
        "title_second": title_second,
        "haggadah_title": haggadah_title,
        "haggadah_facing": haggadah_facing,
    }.items():
        if not names or name in names:
            meta = make_title()
            (HERE / f"{name}.title.json").write_text(
                json.dumps(meta, ensure_ascii=False, indent=1) + "\n", "utf-8"
            )
    if not names or {"chabad_notes", "chabad_spread", "chabad_rotated", "chabad_cropped"} & set(
        names
    ):
        pages, pdf = chabad_notes()
        _write("chabad_notes", pages)
        make_rotated(pdf, HERE / "chabad_rotated.pdf")
        _write("chabad_rotated", pages)
        make_cropped(pdf, HERE / "chabad_cropped.pdf")
        slug = ["booklet_final.indd"]
        _write("chabad_cropped", [replace(p, absent=slug) for p in pages])
        _write("chabad_ocr", make_ocr(pdf, HERE / "chabad_ocr.pdf", pages))
        make_spread(pdf, HERE / "chabad_spread.pdf", [0, 1])
        first, second = pages[0], pages[1]
        _write(
            "chabad_spread",
            [
                Page(
                    first.body + second.body,
                    footnotes=first.footnotes + second.footnotes,
                    header=first.header + second.header,
                    page_number=first.page_number,
                    extra_numbers=[second.page_number],
                    headings=first.headings + second.headings,
                    notes="a spread: the right page (1), then the left page (2)",
                )
            ],
        )


if __name__ == "__main__":
    main(sys.argv[1:])
