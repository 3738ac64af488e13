"""Generate ``examples/sample.pdf``: a small Hebrew book (title page + 3 chapters).

Dev-only: needs ``pip install fpdf2 uharfbuzz`` and the Culmus fonts (Debian package
``culmus``, GPL-2 with font exception). The text is Mishnah, tractate Avot, chapters
1-3 (selected mishnayot), which is in the public domain. The layout deliberately
differs from the test fixtures: 6x9 inch pages, the Keter YG font, body 13 pt,
chapter headings only 17 pt bold, page numbers in Hebrew letters.

Run from the repository root::

    python examples/make_sample.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fpdf import FPDF

FONTS = Path("/usr/share/fonts/truetype/culmus")
OUT = Path(__file__).with_name("sample.pdf")

TITLE = "פרקי אבות"
CHAPTERS: list[tuple[str, list[str], list[str]]] = [
    (
        "פרק א",
        [
            "משה קבל תורה מסיני, ומסרה ליהושע, ויהושע לזקנים, וזקנים לנביאים, ונביאים "
            "מסרוה לאנשי כנסת הגדולה. הם אמרו שלשה דברים: הוו מתונים בדין, והעמידו "
            "תלמידים הרבה, ועשו סיג לתורה.",
            "שמעון הצדיק היה משירי כנסת הגדולה. הוא היה אומר: על שלשה דברים העולם "
            "עומד, על התורה ועל העבודה ועל גמילות חסדים (1).",
            "אנטיגנוס איש סוכו קבל משמעון הצדיק. הוא היה אומר: אל תהיו כעבדים "
            "המשמשין את הרב על מנת לקבל פרס, אלא הוו כעבדים המשמשין את הרב שלא על "
            "מנת לקבל פרס, ויהי מורא שמים עליכם.",
            "יוסי בן יועזר איש צרדה ויוסי בן יוחנן איש ירושלים קבלו מהם. יוסי בן "
            "יועזר איש צרדה אומר: יהי ביתך בית ועד לחכמים, והוי מתאבק בעפר רגליהם, "
            "והוי שותה בצמא את דבריהם.",
            "יהושע בן פרחיה ונתאי הארבלי קבלו מהם. יהושע בן פרחיה אומר: עשה לך רב, "
            "וקנה לך חבר, והוי דן את כל האדם לכף זכות.",
            "הוא היה אומר: אם אין אני לי, מי לי. וכשאני לעצמי, מה אני. ואם לא עכשיו, אימתי.",
            "רבן שמעון בן גמליאל אומר: על שלשה דברים העולם קים, על הדין ועל האמת "
            "ועל השלום, שנאמר (זכריה ח, טז): אמת ומשפט שלום שפטו בשעריכם.",
        ],
        ["(1) ראה גם להלן פרק א, משנה יח: על הדין ועל האמת ועל השלום."],
    ),
    (
        "פרק ב",
        [
            "רבי אומר: איזוהי דרך ישרה שיבור לו האדם, כל שהיא תפארת לעושה ותפארת "
            "לו מן האדם. והוי זהיר במצוה קלה כבחמורה, שאין אתה יודע מתן שכרן של "
            "מצות. הסתכל בשלשה דברים ואין אתה בא לידי עברה: דע מה למעלה ממך, עין "
            "רואה ואוזן שומעת, וכל מעשיך בספר נכתבים.",
            "הלל אומר: אל תפרוש מן הצבור, ואל תאמין בעצמך עד יום מותך, ואל תדין "
            "את חברך עד שתגיע למקומו.",
            "הוא היה אומר: לא עליך המלאכה לגמור, ולא אתה בן חורין להבטל ממנה.",
        ],
        [],
    ),
    (
        "פרק ג",
        [
            "עקביא בן מהללאל אומר: הסתכל בשלשה דברים ואין אתה בא לידי עברה. דע "
            "מאין באת, ולאן אתה הולך, ולפני מי אתה עתיד לתן דין וחשבון. מאין באת, "
            "מטפה סרוחה. ולאן אתה הולך, למקום עפר רמה ותולעה. ולפני מי אתה עתיד "
            "לתן דין וחשבון, לפני מלך מלכי המלכים הקדוש ברוך הוא.",
            "רבי חנינא סגן הכהנים אומר: הוי מתפלל בשלומה של מלכות, שאלמלא מוראה, "
            "איש את רעהו חיים בלעו.",
            "רבי חנינא בן דוסא אומר: כל שיראת חטאו קודמת לחכמתו, חכמתו מתקימת. "
            "וכל שחכמתו קודמת ליראת חטאו, אין חכמתו מתקימת.",
        ],
        [],
    ),
]
PAGE_LETTERS = ["", "א", "ב", "ג", "ד", "ה"]


class Book(FPDF):
    chapter = ""

    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.set_font("keter", size=9)
        self.set_y(10)
        self.cell(0, 5, TITLE, align="R")
        self.set_x(self.l_margin)
        self.cell(0, 5, self.chapter, align="L")
        self.ln(12)

    def footer(self) -> None:
        if self.page_no() == 1:
            return
        self.set_y(-14)
        self.set_font("keter", size=10)
        self.cell(0, 6, PAGE_LETTERS[self.page_no()], align="C")


def build() -> bytes:
    pdf = Book(unit="mm", format=(152.4, 228.6))  # 6 x 9 inches
    pdf.set_margins(18, 18, 18)
    pdf.set_auto_page_break(True, margin=20)
    pdf.add_font("keter", "", str(FONTS / "KeterYG-Medium.ttf"))
    pdf.add_font("keter", "B", str(FONTS / "KeterYG-Bold.ttf"))
    pdf.set_text_shaping(use_shaping_engine=True, direction="rtl", script="hebr", language="heb")
    pdf.set_title("Pirkei Avot (sample)")
    pdf.set_author("libtext")

    pdf.add_page()
    for text, size, style, gap in (
        ("ספריית דוגמה של libtext", 12, "", 30),
        (TITLE, 30, "B", 16),
        ("משנה, מסכת אבות, פרקים א-ג", 13, "", 20),
        ("מאת", 12, "", 2),
        ("רבי יהודה הנשיא", 18, "B", 40),
        ("טקסט: המשנה, נחלת הכלל", 9, "", 0),
    ):
        pdf.ln(gap)
        pdf.set_font("keter", style, size)
        pdf.cell(0, size * 0.5, text, align="C", new_x="LMARGIN", new_y="NEXT")

    for heading, paragraphs, notes in CHAPTERS:
        pdf.chapter = heading
        pdf.add_page()
        pdf.set_font("keter", "B", 17)
        pdf.cell(0, 12, heading, align="C", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
        pdf.set_font("keter", "", 13)
        for para in paragraphs:
            pdf.multi_cell(0, 6.5, para, align="R", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.5)
        if notes:
            pdf.set_y(-40)
            pdf.line(pdf.w - pdf.r_margin - 40, pdf.get_y(), pdf.w - pdf.r_margin, pdf.get_y())
            pdf.ln(2)
            pdf.set_font("keter", "", 9)
            for note in notes:
                pdf.multi_cell(0, 4.5, note, align="R", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


if __name__ == "__main__":
    data = build()
    OUT.write_bytes(data)
    print(f"wrote {OUT} ({len(data):,} bytes)", file=sys.stderr)
