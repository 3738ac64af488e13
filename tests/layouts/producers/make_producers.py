"""Generate small PDFs that draw Hebrew the way real producers do, with their truths.

Dev-only: needs ``pip install uharfbuzz`` and the Culmus fonts (Debian ``culmus``).
The PDFs and ``*.truth.json`` files are committed, so the tests need neither. Run
from the repository root::

    python tests/layouts/producers/make_producers.py

A tiny PDF writer (no PDF library) so that every producer habit is under control:
HarfBuzz shapes each run (glyphs in visual order, marks placed by the font's GPOS), the
font is embedded as a CID font with a ToUnicode map, and each case draws the glyphs in
the way one producer does:

* ``tf1_scaled``: ``1 Tf`` and the size in the text matrix, a text object per word
  (InDesign, Quartz);
* ``tf_print_to_pdf``: ``327.68 Tf`` scaled down by the text matrix (Windows Print to PDF);
* ``visual_nospace``: glyphs left to right, each placed by its own text matrix, no
  space characters (word gaps are only gaps, as LuaTeX writes them; pdfium then
  reports each glyph as a line of its own);
* ``ltr_runs``: Latin words, file names, numbers and formulas inside Hebrew lines;
* ``pointed``: pointed text (nikud, holam before alef);
* ``two_columns``: two columns of Hebrew across a narrow gutter, baselines shared;
* ``slotted_marks``: pointed text the way Word 365 draws it: letters in logical order,
  each mark in a slot of its own left of its letter (the slots in the reverse of the
  stream's order), and each space drawn with no width inside the next word.
* ``actualtext_marks``: pointed text the way Word 365 exports it with a font that
  positions marks: each word a text object marked ``/ReversedChars`` with its glyphs
  left to right, each pointed letter's glyphs (marks first, holam and dagesh raised a
  little, then the letter) in a marked-content sequence whose ``/ActualText`` is the
  letter and its marks, and each space a text object of its own;
* ``ocr_columns``: two columns the way an OCR text layer holds them: each word a text
  object of its own, each column's lines written one after the other, but for two
  rows whose left-column line follows the right-column line on the same baseline;
* ``ornament_mid``: lines of a siddur: a label, a 12 pt gap, then the text with a
  small (4 pt) ornament between its two halves, the ornament in the middle of the
  line's characters;
* ``bilingual_rows``: the rows of a two-column table, a Hebrew cell (14 pt) on the
  left and its English cell (9 pt) 6 pt to its right, the English cell's baseline
  0.8 pt lower; each row's cells are drawn one after the other. A parallel text: the
  Hebrew column is read first, then the English one;
* ``list_labels``: a numbered list whose numbers stand a tab (14 pt) right of their
  text, each number a text object of its own written after the whole list, and
  speaker labels (``חזן:``) set in 9 pt a tab right of 12 pt text, likewise;
* ``indesign_list``: a numbered list the way InDesign writes right-to-left list
  numbers: the digit's glyph marked with ``/ActualText`` of a tab, then a space glyph
  marked with the digit as its ``/ActualText``, then the full stop;
* ``margin_numbers``: a justified column with every fifth line numbered in the margin
  (8 pt, 14 pt left of the column);
* ``ornament_frame``: titles between two ornament glyphs of a second font whose
  ToUnicode maps them to the Latin letters of their glyph names (``B``, ``C``);
* ``parallel_texts``: a Hebrew column on the left and its English translation on the
  right, in other sizes and line pitches (read: the Hebrew block, then the English);
* ``margin_notes``: source references set small in the right margin beside three
  lines of a justified column (kind ``margin``, each after the line it stands by);
* ``spread``: two A5 book pages side by side on one landscape page (a spread), each
  with its running header above and its page number below (read: the right page,
  then the left one, each header and number in its own page);
* ``rtl_table``: a table on a right-to-left page, a Hebrew cell and two Latin cells a
  row (one line per row, cells from the right);
* ``ocr_late_words``: an OCR text layer (invisible words, a quarter em apart, no
  spaces) whose lines' last two or three words come first in the stream, on a
  baseline a point above or below the line's;
* ``slanted_words``: words a text object each, a quarter em apart, no space
  glyphs, some slanted by an oblique text matrix (a producer's fake italics): a
  change from roman to italic, and a line of small slanted text;
* ``label_links``: lines of Hebrew words, a list label typed after them (a number and
  a dash: ``1-``) and a link, drawn from the right in runs (the label between the
  link and the words);
* ``lone_brackets``: Hebrew lines with brackets around Latin runs, some of whose
  brackets do not pair on the line (a parenthesis closes on the next line), among
  lines of Hebrew parentheticals;
* ``visual_pieces``: LuaTeX's visual order (see ``visual_nospace``) with a full stop
  set low inside each line, so that pdfium hands the line over in pieces;
* ``number_ends``: paragraphs whose last line is a number and its full stop alone
  (``2019.``, the stop left of the number);
* ``line_hyphens``: an English paragraph on a Hebrew page whose lines end in words
  broken by a hyphen (pdfium reports such a hyphen as U+FFFE);
* ``tab_parts``: parts of one printed line a tab apart: a label before its text
  between full lines, and a contents page whose titles have their page numbers at
  the far margin, sub-items without numbers between (each row one line);
* ``table_cells``: under a paragraph, table rows of three Hebrew cells each, right
  aligned in columns
  2 em wider than their widest cell, each cell in LuaTeX's way (see
  ``visual_punct``);
* ``three_columns``: three narrow justified columns (a chumash's), each written
  whole, the right one first;
* ``visual_punct``: LuaTeX's way (each line one string of glyphs in logical order
  from the right, each TJ offset moving the pen back left, no space glyphs) on lines
  that begin with a bracket or end with a full stop.

* ``hidden_spaces``: Word's spaces that take no room: lines drawn glyph by glyph in
  logical order where, between some words, the space glyph is drawn over the letter
  before it (Word 365) or the next word is drawn back over the space (Word 2007's
  justified lines), so the letters touch; the truth reads them as one word, but at a
  change of direction (a Hebrew prefix before a Latin word), where Word draws the run
  boundary's space without room, the words stay apart;
* ``ocr_words``: an OCR text layer: invisible text (``3 Tr``), a text object per word
  on a baseline of its own, words apart by a sixth of an em and no space characters;
* ``latin_lines``: a Hebrew page with an English line drawn word by word from the
  right (the stream right to left), and a Hebrew line whose Latin runs are each set
  in the line's direction, the colon ending one drawn on its left (``V7 :CLS``);
* ``holam_vav``: pointed words with holam before a vav (``יְהֹוָה``), holam male and
  holam on a consonant vav, shaped with the font's GPOS.

Every truth line is the generator's own input (the logical text it typesets), never
libtext's output.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uharfbuzz as hb

HERE = Path(__file__).resolve().parent
FONT = Path("/usr/share/fonts/truetype/culmus/FrankRuehlCLM-Medium.ttf")
PAGE_W, PAGE_H = 420.0, 595.0  # A5, points

AVOT = (
    "משה קבל תורה מסיני ומסרה ליהושע ויהושע לזקנים וזקנים לנביאים ונביאים מסרוה "
    "לאנשי כנסת הגדולה הם אמרו שלשה דברים הוו מתונים בדין והעמידו תלמידים הרבה "
    "ועשו סיג לתורה שמעון הצדיק היה משירי כנסת הגדולה הוא היה אומר על שלשה דברים "
    "העולם עומד על התורה ועל העבודה ועל גמילות חסדים אנטיגנוס איש סוכו קבל משמעון "
    "הצדיק הוא היה אומר אל תהיו כעבדים המשמשין את הרב על מנת לקבל פרס אלא הוו "
    "כעבדים המשמשין את הרב שלא על מנת לקבל פרס ויהי מורא שמים עליכם"
)
POINTED = [
    "בְּרֵאשִׁית בָּרָא אֱלֹהִים אֵת הַשָּׁמַיִם וְאֵת הָאָרֶץ",
    "וַיֹּאמֶר אֱלֹהִים יְהִי אוֹר וַיְהִי אוֹר",
    "לֹא תַעֲשֶׂה לְךָ פֶסֶל וְכׇל תְּמוּנָה",
    "וַיַּרְא אֱלֹהִים אֶת הָאוֹר כִּי טוֹב",
    "זֹאת הַתּוֹרָה אָדָם כִּי יָמוּת בְּאֹהֶל",
    "וַיִּקְרָא אֱלֹהִים לָאוֹר יוֹם וְלַחֹשֶׁךְ קָרָא לָיְלָה",
]
# Lines that begin with a bracket or end with a full stop.
PUNCTUATED = [
    "(משה קבל תורה מסיני ומסרה ליהושע)",
    "ויהושע לזקנים וזקנים לנביאים.",
    "(הם אמרו שלשה דברים) הוו מתונים בדין.",
]
# Table rows: (Hebrew cell, English cell), one line each.
BILINGUAL = [
    ("הא לחמא עניא די אכלו אבהתנא בארעא דמצרים", "This is the bread of affliction"),
    ("כל דכפין ייתי ויכול כל דצריך ייתי ויפסח", "Let all who are hungry come and eat;"),
    ("השתא הכא לשנה הבאה בארעא דישראל", "now we are here, next year in Israel;"),
    ("השתא עבדי לשנה הבאה בני חורין", "now we are slaves, next year free."),
    ("מה נשתנה הלילה הזה מכל הלילות", "Why is this night different?"),
]
# Lines of runs (text, direction, how the space before the run is drawn): "" a
# space of the run's own text, "over" the space glyph over the letter before it,
# "back" the run drawn back over the space; the letters then touch.
HIDDEN: list[list[tuple[str, str, str]]] = [
    [("חלק יבש ענו על השאל", "R", ""), ("ות הבאות", "R", "over")],
    [("פגיעה בגופו של", "R", ""), ("אדם אחר ונזק לרכוש", "R", "back")],
    [("ערעורים על הדפסות שגויות לא יתקבלו לפני ה", "R", ""), ("הגשה", "R", "over")],
    [
        ("משרטטת למסך את היסטוגרמת ה", "R", ""),
        ("scores", "L", "over"),
        (" של אותה ", "R", ""),
        ("event", "L", ""),
    ],
]
POINTED_VAV = [
    "וַיֹּאמֶר יְהֹוָה אֶל מֹשֶׁה",
    "שָׁלוֹם עַל יִשְׂרָאֵל",
    "וְשָׁמַרְתָּ אֶת מִצְוֹת יְהֹוָה",
    "וַיֵּרָא אֵלָיו יְהֹוָה בְּאֵלֹנֵי מַמְרֵא",
]
ENGLISH = "Responding to a suicide death: the role of first responders."
# A Hebrew line whose Latin runs are set each in the line's direction.
RUNS_RTL: list[list[tuple[str, str]]] = [
    [("גרסת ", "R"), ("CLS", "L"), (": ", "R"), ("V7.0.6", "L")],
    [
        ("ערכות נושא: ", "R"),
        ("fancy", "L"),
        (", ", "R"),
        ("minimal", "L"),
        (", ", "R"),
        ("striped", "L"),
    ],
]
# Each line: runs of (text, direction); the truth is the runs joined.
MIXED: list[list[tuple[str, str]]] = [
    [("שמרו את הקובץ ", "R"), ("students.txt", "L"), (" בתיקייה הראשית", "R")],
    [
        ("סיבוכיות זמן: ", "R"),
        ("O(nm)", "L"),
        (" כאשר ", "R"),
        ("n", "L"),
        (" הוא מספר השורות", "R"),
    ],
    [
        ("הפרוטוקול ", "R"),
        ("CPAP", "L"),
        (" הוחלף בשנת ", "R"),
        ("2021", "L"),
        (" בכל המחוזות", "R"),
    ],
    [("ראו באתר ", "R"), ("https://example.org/a/b", "L"), (" את כל הפרטים", "R")],
    [
        ("הפונקציה ", "R"),
        ("read_csv", "L"),
        (" מחזירה רשימה של ", "R"),
        ("12", "L"),
        (" שורות", "R"),
    ],
    [("מערכת ", "R"), ("A.B.S", "L"), (" מותקנת בגלגלים האחוריים", "R")],
]

# Lines with brackets around Latin runs, some with a bracket that closes on the next
# line (so a line's brackets do not pair), among lines of Hebrew parentheticals.
# List labels typed after Hebrew words (``1-``), each followed by a link.
LABEL_LINKS: list[list[tuple[str, str]]] = [
    [("מבחן חצי ", "R"), ("1", "L"), ("- ", "R"), ("https://goo.gl/forms/K1dbZ30vX", "L")],
    [("מבחן חצי ", "R"), ("2", "L"), ("- ", "R"), ("https://example.org/t/2Bq7", "L")],
    [("תרגול מספר ", "R"), ("12", "L"), ("- ", "R"), ("www.example.com/a1", "L")],
]

LONE_BRACKETS: list[list[tuple[str, str]]] = [
    [("(הם אמרו) שלשה דברים", "R")],
    [("הוו מתונים (בדין) והעמידו", "R")],
    [("תלמידים (", "R"), ("ACS", "L"), (") הרבה (ועשו סיג", "R")],
    [("לתורה) שמעון הצדיק (", "R"), ("STEMI", "L"), (") היה", "R")],
    [("(משירי כנסת) הגדולה", "R")],
    [("הוא היה (אומר על (", "R"), ("PCI", "L"), (") שלשה", "R")],
    [("דברים) העולם עומד", "R")],
]


@dataclass
class Glyph:
    gid: int
    x: float  # left edge of the glyph's origin, points
    y_off: float
    advance: float
    cluster: int = -1  # the text index of the glyph's cluster (Shaper.run's glyphs)


class Shaper:
    def __init__(self) -> None:
        self.data = FONT.read_bytes()
        face = hb.Face(hb.Blob(self.data))
        self.font = hb.Font(face)
        self.upem = face.upem
        self.to_unicode: dict[int, str] = {}
        self.widths: dict[int, int] = {}

    def run(self, text: str, direction: str, size: float) -> list[Glyph]:
        """Glyphs of one run, left to right, x from 0 (points)."""
        buf = hb.Buffer()
        buf.add_str(text)
        buf.direction = "rtl" if direction == "R" else "ltr"
        buf.script = "Hebr" if direction == "R" else "Latn"
        hb.shape(self.font, buf)
        scale = size / self.upem
        out: list[Glyph] = []
        x = 0.0
        infos, positions = buf.glyph_infos, buf.glyph_positions
        clusters = [*sorted({i.cluster for i in infos}), len(text)]
        for info, pos in zip(infos, positions, strict=True):
            self.widths[info.codepoint] = pos.x_advance
            nxt = clusters[clusters.index(info.cluster) + 1]
            self._map(info.codepoint, info.cluster, text[info.cluster : nxt], infos)
            out.append(
                Glyph(
                    info.codepoint,
                    x + pos.x_offset * scale,
                    pos.y_offset * scale,
                    pos.x_advance * scale,
                    info.cluster,
                )
            )
            x += pos.x_advance * scale
        return out

    def _map(self, gid: int, cluster: int, chars: str, infos: list[hb.GlyphInfo]) -> None:
        if gid in self.to_unicode:
            return
        own = {self.font.get_nominal_glyph(ord(c)): c for c in chars}
        if gid in own:
            self.to_unicode[gid] = own[gid]
            return
        others = {i.codepoint for i in infos if i.cluster == cluster and i.codepoint != gid}
        rest = "".join(c for c in chars if self.font.get_nominal_glyph(ord(c)) not in others)
        if rest:
            self.to_unicode[gid] = rest

    def width(self, text: str, size: float, direction: str = "R") -> float:
        return sum(g.advance for g in self.run(text, direction, size))


def line_glyphs(sh: Shaper, runs: list[tuple[str, str]], size: float, right: float) -> list[Glyph]:
    """A right-to-left line: its runs from right to left, each run's glyphs visual."""
    out: list[Glyph] = []
    x = right
    for text, direction in runs:
        glyphs = sh.run(text, direction, size)
        width = sum(g.advance for g in glyphs)
        x -= width
        out.extend(Glyph(g.gid, g.x + x, g.y_off, g.advance) for g in glyphs)
    return sorted(out, key=lambda g: g.x)


def justified(sh: Shaper, text: str, size: float, right: float, width: float) -> list[Glyph]:
    """A justified right-to-left line: words spread over ``width`` (no space glyphs)."""
    words = [sh.run(w, "R", size) for w in text.split()]
    widths = [sum(g.advance for g in w) for w in words]
    gap = (width - sum(widths)) / max(1, len(words) - 1)
    out: list[Glyph] = []
    x = right
    for glyphs, w in zip(words, widths, strict=True):
        x -= w
        out.extend(Glyph(g.gid, g.x + x, g.y_off, g.advance) for g in glyphs)
        x -= gap
    return sorted(out, key=lambda g: g.x)


def wrap(sh: Shaper, text: str, size: float, width: float, direction: str = "R") -> list[str]:
    """``text``'s words in lines of at most ``width`` points (``direction`` "L": a Latin text)."""
    lines: list[str] = []
    cur: list[str] = []
    for word in text.split():
        trial = " ".join([*cur, word])
        if cur and sh.width(trial, size, direction) > width:
            lines.append(" ".join(cur))
            cur = [word]
        else:
            cur.append(word)
    if cur:
        lines.append(" ".join(cur))
    return lines


def latin_glyphs(sh: Shaper, text: str, size: float, left: float) -> list[Glyph]:
    """A left-to-right line starting at ``left``."""
    glyphs = sh.run(text, "L", size)
    shift = left - min(g.x for g in glyphs)
    return [Glyph(g.gid, g.x + shift, g.y_off, g.advance) for g in glyphs]


def hexg(gid: int) -> str:
    return f"<{gid:04X}>"


def draw_line(sh: Shaper, glyphs: list[Glyph], y: float, size: float, style: str) -> str:
    """Content-stream operators for one line, in a producer's style."""
    space = sh.font.get_nominal_glyph(ord(" "))
    ops: list[str] = []
    if style == "visual_nospace":
        # Glyph after glyph from the left, each placed by its own matrix, no spaces.
        ops.append(f"BT /F1 {size:g} Tf")
        for g in glyphs:
            if g.gid != space:
                ops.append(f"1 0 0 1 {g.x:.3f} {y + g.y_off:.3f} Tm {hexg(g.gid)} Tj")
        ops.append("ET")
        return "\n".join(ops)
    if style == "logical_tj":
        # The whole line one string, glyphs from the right (the logical order), each
        # TJ offset moving the pen back left past the glyph just drawn and the next
        # one, word gaps included; no space glyphs (LuaTeX).
        placed = sorted((g for g in glyphs if g.gid != space), key=lambda g: -g.x)
        parts: list[str] = []
        for k, g in enumerate(placed):
            if k:
                prev = placed[k - 1]
                parts.append(f"{(prev.x + prev.advance - g.x) * 1000 / size:.1f}")
            parts.append(hexg(g.gid))
        start = placed[0]
        return f"BT /F1 {size:g} Tf 1 0 0 1 {start.x:.3f} {y:.3f} Tm [{' '.join(parts)}] TJ ET"
    if style == "tf1_scaled":
        tf, m = 1.0, size
    elif style == "tf_print_to_pdf":
        tf, m = 327.68, size / 327.68
    else:
        tf, m = size, 1.0
    # One positioned glyph at a time, each word its own text object (InDesign-like).
    ops.append(f"BT /F1 {tf:g} Tf")
    for g in glyphs:
        ops.append(f"{m:.5f} 0 0 {m:.5f} {g.x:.3f} {y + g.y_off:.3f} Tm {hexg(g.gid)} Tj")
        if g.gid == space:
            ops.append(f"ET BT /F1 {tf:g} Tf")
    ops.append("ET")
    return "\n".join(ops)


def slotted_line(sh: Shaper, text: str, size: float, right: float, y: float) -> str:
    """One pointed line in Word 365's way (see the module docstring), as operators."""
    scale = size / sh.upem

    def gid_of(ch: str) -> int:
        gid = sh.font.get_nominal_glyph(ord(ch))
        sh.to_unicode[gid] = ch
        sh.widths[gid] = sh.font.get_glyph_h_advance(gid)
        return gid

    words: list[list[tuple[int, float]]] = []  # per word: (gid, origin x), stream order
    inside: list[float] = []  # per word: an x in the gap after its first letter's slots
    x = right
    for word in text.split():
        placed: list[tuple[int, float]] = []
        clusters: list[tuple[str, str]] = []
        for ch in word:
            if "\u0591" <= ch <= "\u05c7" and clusters:
                clusters[-1] = (clusters[-1][0], clusters[-1][1] + ch)
            else:
                clusters.append((ch, ""))
        for k, (letter, marks) in enumerate(clusters):
            gid = gid_of(letter)
            origin = x - sh.font.get_glyph_h_advance(gid) * scale
            placed.append((gid, origin))
            ext = sh.font.get_glyph_extents(gid)
            edge = origin + ext.x_bearing * scale  # the letter's ink, left edge
            slots: dict[str, float] = {}
            for mark in reversed(marks):
                ext = sh.font.get_glyph_extents(gid_of(mark))
                left = edge - ext.width * scale
                slots[mark] = left - ext.x_bearing * scale
                edge = left
            placed.extend((gid_of(m), slots[m]) for m in marks)
            x = min(origin, edge - 0.5)
            if k == 0:
                inside.append(x + 0.25)
        words.append(placed)
        x -= 0.3 * size
    space = gid_of(" ")
    ops = [f"BT /F1 {size:g} Tf"]
    for k, placed in enumerate(words):
        if k:
            ops.append(f"1 0 0 1 {inside[k]:.3f} {y:.3f} Tm {hexg(space)} Tj")
        ops.extend(f"1 0 0 1 {gx:.3f} {y:.3f} Tm {hexg(gid)} Tj" for gid, gx in placed)
    ops.append("ET")
    return "\n".join(ops)


# Marks that Word 365 draws raised on glyphs of their own (Td with a y move).
RAISED = frozenset("\u05b9\u05bc")


def actualtext_line(sh: Shaper, text: str, size: float, right: float, y: float) -> str:
    """One pointed line in Word 365's way with replacement text (see the docstring)."""
    buf = hb.Buffer()
    buf.add_str(text)
    buf.direction = "rtl"
    buf.script = "Hebr"
    hb.shape(sh.font, buf)
    scale = size / sh.upem
    infos, positions = buf.glyph_infos, buf.glyph_positions
    width = sum(p.x_advance for p in positions) * scale
    x = right - width
    space = sh.font.get_nominal_glyph(ord(" "))
    starts = [*sorted({i.cluster for i in infos}), len(text)]
    # Words left to right: runs of clusters between space glyphs.
    words: list[list[tuple[int, list[tuple[int, float, float]]]]] = [[]]
    spaces: list[float] = []
    for info, pos in zip(infos, positions, strict=True):
        gid = info.codepoint
        sh.widths[gid] = pos.x_advance
        if gid == space:
            spaces.append(x)
            words.append([])
        else:
            chars = text[info.cluster : starts[starts.index(info.cluster) + 1]]
            sh._map(gid, info.cluster, chars, infos)
            mark = pos.x_advance == 0
            lift = 0.1 * size if mark and sh.to_unicode.get(gid, "") in RAISED else 0.0
            glyph = (gid, x + pos.x_offset * scale, y + pos.y_offset * scale + lift)
            if words[-1] and words[-1][-1][0] == info.cluster:
                words[-1][-1][1].append(glyph)
            else:
                words[-1].append((info.cluster, [glyph]))
        x += pos.x_advance * scale
    ops: list[str] = []
    for word in words:
        ops.append(f"BT /ReversedChars BMC /F1 {size:g} Tf")
        for cluster, glyphs in word:
            chars = text[cluster : starts[starts.index(cluster) + 1]]
            span = len(glyphs) > 1
            if span:
                utf16 = chars.encode("utf-16-be").hex().upper()
                ops.append(f"/Span << /ActualText <FEFF{utf16}> >> BDC")
            ops.extend(f"1 0 0 1 {gx:.3f} {gy:.3f} Tm {hexg(gid)} Tj" for gid, gx, gy in glyphs)
            if span:
                ops.append("EMC")
        ops.append("EMC ET")
    ops.extend(
        f"BT /F1 {size:g} Tf 1 0 0 1 {sx:.3f} {y:.3f} Tm {hexg(space)} Tj ET" for sx in spaces
    )
    return "\n".join(ops)


def holam_on_edge(sh: Shaper, text: str, size: float, right: float) -> list[Glyph]:
    """A right-to-left line with each holam that is not on a vav moved to its letter's
    left edge (centred on it), where LuaTeX's fonts draw holam haser: over the gap
    to the letter after it, which may be a vav (הֹו)."""
    holam = sh.font.get_nominal_glyph(ord("\u05b9"))
    vav = sh.font.get_nominal_glyph(ord("ו"))
    ext = sh.font.get_glyph_extents(holam)
    ink = (ext.x_bearing + ext.width / 2) * size / sh.upem  # ink centre from origin
    glyphs = sh.run(text, "R", size)
    shift = right - sum(g.advance for g in glyphs)
    base = {g.cluster: g for g in glyphs if g.advance > 0}  # each cluster's letter
    out = []
    for g in glyphs:
        x = g.x
        letter = base.get(g.cluster)
        if g.gid == holam and letter is not None and letter.gid != vav:
            x = letter.x - ink - 0.03 * size  # a hair past the edge, as LuaTeX sets it
        out.append(Glyph(g.gid, x + shift, g.y_off, g.advance))
    return sorted(out, key=lambda g: g.x)


def logical_line(
    sh: Shaper, runs: list[tuple[str, str, str]], size: float, right: float, y: float
) -> str:
    """One line drawn in logical order (Word), spaces as in ``HIDDEN``."""
    space = sh.font.get_nominal_glyph(ord(" "))
    space_width = sh.font.get_glyph_h_advance(space) * size / sh.upem
    placed: list[tuple[int, float]] = []  # (gid, origin x), stream order
    x = right
    for text, direction, hidden in runs:
        if hidden == "over":
            placed.append((space, x))  # its box lies over the letter on its right
        elif hidden == "back":
            placed.append((space, x - space_width))  # the run is drawn over it
        glyphs = sh.run(text, direction, size)
        width = sum(g.advance for g in glyphs)
        shifted = [(g.gid, g.x + x - width) for g in glyphs]
        placed.extend(reversed(shifted) if direction == "R" else shifted)
        x -= width
    return tj_line(sh, placed, size, y)


def tj_line(sh: Shaper, placed: list[tuple[int, float]], size: float, y: float) -> str:
    """One text object, one TJ in stream order, each glyph moved to its place by the
    number before it (thousandths of the size, positive leftwards), as Word and
    InDesign write a line."""
    array: list[str] = []
    pen = placed[0][1]
    for gid, gx in placed:
        if abs(pen - gx) > 1e-6:
            array.append(f"{(pen - gx) * 1000 / size:.2f}")
        array.append(hexg(gid))
        pen = gx + sh.font.get_glyph_h_advance(gid) * size / sh.upem
    return f"BT /F1 {size:g} Tf 1 0 0 1 {placed[0][1]:.3f} {y:.3f} Tm [{' '.join(array)}] TJ ET"


def hidden_truth(runs: list[tuple[str, str, str]]) -> str:
    """The line as printed: a space without room parts words only where the direction
    turns (no word holds both scripts)."""
    out, before = "", runs[0][1]
    for text, direction, hidden in runs:
        if hidden and direction != before:
            out += " "
        out += text
        before = direction
    return out


def ocr_line(sh: Shaper, text: str, size: float, right: float, y: float, row: int) -> str:
    """One line of an OCR text layer: invisible words, each on its own baseline; on
    the first line, a one-letter prefix boxed apart from the rest of its word."""
    ops: list[str] = []
    x = right
    pieces: list[tuple[str, float]] = []  # (text, gap after it)
    for k, word in enumerate(text.split()):
        gap = size * (0.09 + 0.01 * ((k + row) % 4))  # a tenth of an em, as recognised
        if row == 0 and k == 4:  # ומסרה: its vav boxed apart
            pieces.append((word[0], 0.1 * size))
            word = word[1:]
        pieces.append((word, gap))
    for k, (piece, gap) in enumerate(pieces):
        glyphs = sh.run(piece, "R", size)
        width = sum(g.advance for g in glyphs)
        x -= width
        base = y + 0.3 * (((k + row) % 3) - 1)  # a scan is never quite level
        ops.append(f"BT 3 Tr /F1 {size:g} Tf")
        ops.extend(
            f"1 0 0 1 {g.x + x:.3f} {base:.3f} Tm {hexg(g.gid)} Tj" for g in reversed(glyphs)
        )
        ops.append("ET")
        x -= gap
    return "\n".join(ops)


def ocr_late_line(
    sh: Shaper, text: str, size: float, right: float, y: float, late: int, lift: float
) -> str:
    """An OCR layer's line whose last ``late`` words come first in the stream, on a
    baseline ``lift`` points higher (the engine took them for a line of their own)."""
    words = text.split()
    placed: list[tuple[str, float]] = []  # (word, its right edge)
    x = right
    for word in words:
        placed.append((word, x))
        x -= sum(g.advance for g in sh.run(word, "R", size)) + 0.25 * size
    order = placed[len(placed) - late :] + placed[: len(placed) - late]
    ops: list[str] = []
    for k, (word, edge) in enumerate(order):
        glyphs = sh.run(word, "R", size)
        left = edge - sum(g.advance for g in glyphs)
        base = y + (lift if k < late else 0.0)
        ops.append(f"BT 3 Tr /F1 {size:g} Tf")
        ops.extend(
            f"1 0 0 1 {g.x + left:.3f} {base:.3f} Tm {hexg(g.gid)} Tj" for g in reversed(glyphs)
        )
        ops.append("ET")
    return "\n".join(ops)


def slanted_line(
    sh: Shaper, words: list[tuple[str, bool]], size: float, right: float, y: float
) -> str:
    """A line of words from the right, each a text object of its own, no space glyphs,
    a quarter of an em apart; a word marked True is slanted (an oblique text matrix) in
    a font whose advances are wider than its glyphs (``F3``, see :func:`pdf_bytes`), so
    that its advance boxes overlap the gaps beside it."""
    ops: list[str] = []
    x = right
    for word, slanted in words:
        glyphs = sh.run(word, "R", size)
        x -= sum(g.advance for g in glyphs)
        skew = 0.12 if slanted else 0.0
        ops.append(f"BT /F{3 if slanted else 1} {size:g} Tf")
        ops.extend(
            f"1 0 {skew:g} 1 {g.x + x:.3f} {y + g.y_off:.3f} Tm {hexg(g.gid)} Tj" for g in glyphs
        )
        ops.append("ET")
        x -= 0.25 * size
    return "\n".join(ops)


def words_from_right(sh: Shaper, text: str, size: float, left: float, y: float) -> str:
    """A Latin line drawn word by word from its right end (each word left to right)."""
    space = sh.font.get_nominal_glyph(ord(" "))
    glyphs = [Glyph(g.gid, g.x + left, g.y_off, g.advance) for g in sh.run(text, "L", size)]
    # Each word with the space after it, written first (InDesign), in one text object.
    words: list[list[Glyph]] = [[]]
    for g in glyphs:
        words[-1].append(g)
        if g.gid == space:
            words.append([])
    placed: list[tuple[int, float]] = []
    for word in reversed([w for w in words if w]):
        ordered = word[-1:] + word[:-1] if word[-1].gid == space else word
        placed.extend((g.gid, g.x) for g in ordered)
    return tj_line(sh, placed, size, y)


def pdf_bytes(
    sh: Shaper,
    content: str,
    ornaments: dict[int, str] | None = None,
    width: float = PAGE_W,
    wide: float = 0.0,
) -> bytes:
    objs: list[bytes] = []

    def add(body: bytes) -> int:
        objs.append(body)
        return len(objs)

    def stream(data: bytes, extra: str = "") -> bytes:
        packed = zlib.compress(data)
        return (
            f"<< /Length {len(packed)} /Filter /FlateDecode {extra}>>\nstream\n".encode()
            + packed
            + b"\nendstream"
        )

    font_file = add(stream(sh.data, f"/Length1 {len(sh.data)} "))
    scale = 1000 / sh.upem
    widths = " ".join(f"{gid} [{w * scale:.0f}]" for gid, w in sorted(sh.widths.items()))
    desc = add(
        b"<< /Type /FontDescriptor /FontName /FrankRuehlCLM /Flags 4 /FontBBox [-200 -300 1200 1000]"
        b" /ItalicAngle 0 /Ascent 800 /Descent -250 /CapHeight 700 /StemV 80 /FontFile2 %d 0 R >>"
        % font_file
    )
    cid = add(
        f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /FrankRuehlCLM /CIDSystemInfo"
        f" << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor {desc} 0 R"
        f" /CIDToGIDMap /Identity /W [{widths}] >>".encode()
    )
    cmap_lines = [
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        "/CMapName /Adobe-Identity-UCS def /CMapType 2 def",
        "1 begincodespacerange <0000> <FFFF> endcodespacerange",
    ]
    items = sorted(sh.to_unicode.items())
    for k in range(0, len(items), 100):
        chunk = items[k : k + 100]
        cmap_lines.append(f"{len(chunk)} beginbfchar")
        for gid, text in chunk:
            utf16 = text.encode("utf-16-be").hex().upper()
            cmap_lines.append(f"<{gid:04X}> <{utf16}>")
        cmap_lines.append("endbfchar")
    cmap_lines.append("endcmap CMapName currentdict /CMap defineresource pop end end")
    tounicode = add(stream("\n".join(cmap_lines).encode()))
    font = add(
        f"<< /Type /Font /Subtype /Type0 /BaseFont /FrankRuehlCLM /Encoding /Identity-H"
        f" /DescendantFonts [{cid} 0 R] /ToUnicode {tounicode} 0 R >>".encode()
    )
    fonts = f"/F1 {font} 0 R"
    if ornaments:
        # A second font (the same glyph program under another name) whose ToUnicode
        # says what an ornament font's glyph names say: Latin letters.
        cid2 = add(
            f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /DecoA /CIDSystemInfo"
            f" << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor"
            f" {desc} 0 R /CIDToGIDMap /Identity /W [{widths}] >>".encode()
        )
        body = [*cmap_lines[:4], f"{len(ornaments)} beginbfchar"]
        body += [f"<{g:04X}> <{t.encode('utf-16-be').hex().upper()}>" for g, t in ornaments.items()]
        body += ["endbfchar", "endcmap CMapName currentdict /CMap defineresource pop end end"]
        tounicode2 = add(stream("\n".join(body).encode()))
        font2 = add(
            f"<< /Type /Font /Subtype /Type0 /BaseFont /DecoA /Encoding /Identity-H"
            f" /DescendantFonts [{cid2} 0 R] /ToUnicode {tounicode2} 0 R >>".encode()
        )
        fonts += f" /F2 {font2} 0 R"
    if wide:
        # A second font (the same glyphs and mapping) whose advances are ``wide`` times
        # the glyphs' own: an italic's advance boxes that overlap the gaps between words.
        wider = " ".join(f"{gid} [{w * scale * wide:.0f}]" for gid, w in sorted(sh.widths.items()))
        cid3 = add(
            f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /FrankRuehlCLM-Italic"
            f" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
            f" /FontDescriptor {desc} 0 R /CIDToGIDMap /Identity /W [{wider}] >>".encode()
        )
        font3 = add(
            f"<< /Type /Font /Subtype /Type0 /BaseFont /FrankRuehlCLM-Italic /Encoding"
            f" /Identity-H /DescendantFonts [{cid3} 0 R] /ToUnicode {tounicode} 0 R >>".encode()
        )
        fonts += f" /F3 {font3} 0 R"
    contents = add(stream(content.encode()))
    page = len(objs) + 1
    pages = page + 1
    add(
        f"<< /Type /Page /Parent {pages} 0 R /MediaBox [0 0 {width:g} {PAGE_H:g}]"
        f" /Resources << /Font << {fonts} >> >> /Contents {contents} 0 R >>".encode()
    )
    add(f"<< /Type /Pages /Kids [{page} 0 R] /Count 1 >>".encode())
    catalog = add(f"<< /Type /Catalog /Pages {pages} 0 R >>".encode())
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root {catalog} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def list_case(
    sh: Shaper, style: str, size: float, lead: float, right: float, y: float
) -> tuple[list[dict[str, Any]], list[str]]:
    """A numbered list (and, in ``list_labels``, speaker labels): truth and operators."""
    truth: list[dict[str, Any]] = []
    ops: list[str] = []
    after: list[str] = []  # drawn after the list
    words = AVOT.split()
    tab = 14.0
    space = sh.font.get_nominal_glyph(ord(" "))
    for k in range(5):
        number = str(k + 1)
        text = " ".join(words[5 * k : 5 * k + 5])
        # The number on the right, its full stop on its left (a right-to-left line).
        label = line_glyphs(sh, [(number, "L"), (".", "R")], size, right)
        body = line_glyphs(sh, [(text, "R")], size, min(g.x for g in label) - tab)
        if style == "indesign_list":
            digit = [g for g in label if sh.to_unicode.get(g.gid) == number]
            stop = [g for g in label if sh.to_unicode.get(g.gid) == "."]
            sh.widths.setdefault(space, sh.font.get_glyph_h_advance(space))
            sx = max(g.x + g.advance for g in body) + 0.8
            ops.append(
                f"BT /F1 {size:g} Tf /Span << /ActualText <FEFF0009> >> BDC "
                f"1 0 0 1 {digit[0].x:.3f} {y:.3f} Tm {hexg(digit[0].gid)} Tj EMC ET"
            )
            ops.append(
                f"BT /F1 {size:g} Tf /Span << /ActualText <FEFF{ord(number):04X}> >> BDC "
                f"1 0 0 1 {sx:.3f} {y:.3f} Tm {hexg(space)} Tj EMC "
                f"1 0 0 1 {stop[0].x:.3f} {y:.3f} Tm {hexg(stop[0].gid)} Tj ET"
            )
            ops.append(draw_line(sh, body, y, size, "plain"))
        else:
            # The text here, the numbers after the whole list (as Typst writes them).
            ops.append(draw_line(sh, body, y, size, "plain"))
            after.append(draw_line(sh, label, y, size, "plain"))
        truth.append({"kind": "body", "text": f"{number}. {text}"})
        y -= lead
    if style == "list_labels":
        y -= lead
        for k in range(4):
            label = "קהל:" if k % 2 else "חזן:"
            text = " ".join(words[30 + 6 * k : 36 + 6 * k])
            glyphs = line_glyphs(sh, [(label, "R")], 9.0, right)
            edge = min(g.x for g in glyphs) - tab
            ops.append(draw_line(sh, line_glyphs(sh, [(text, "R")], size, edge), y, size, "plain"))
            after.append(draw_line(sh, glyphs, y, 9.0, "plain"))
            truth.append({"kind": "body", "text": f"{label} {text}"})
            y -= lead
    return truth, ops + after


def make(name: str, description: str, style: str) -> None:
    sh = Shaper()
    size, lead, margin = 12.0, 17.0, 40.0
    right = PAGE_W - margin
    y = PAGE_H - 60
    truth: list[dict[str, Any]] = []
    ops: list[str] = []
    if style == "two_columns":
        gutter = 14.0
        col = (PAGE_W - 2 * margin - gutter) / 2
        half = AVOT.split()
        # Read right to left: the first half in the right column.
        right_text, left_text = " ".join(half[: len(half) // 2]), " ".join(half[len(half) // 2 :])
        right_lines = wrap(sh, right_text, size, col)
        left_lines = wrap(sh, left_text, size, col)
        for k in range(max(len(right_lines), len(left_lines))):
            for text, edge in ((right_lines, right), (left_lines, margin + col)):
                if k < len(text):
                    # Justified columns (but the last line): the gutter stays narrow.
                    glyphs = (
                        justified(sh, text[k], size, edge, col)
                        if k < len(text) - 1
                        else line_glyphs(sh, [(text[k], "R")], size, edge)
                    )
                    ops.append(draw_line(sh, glyphs, y, size, "plain"))
            y -= lead
        truth = [{"kind": "body", "text": t} for t in right_lines] + [
            {"kind": "body", "text": t} for t in left_lines
        ]
    elif style == "ocr_columns":
        gutter = 14.0
        col = (PAGE_W - 2 * margin - gutter) / 2
        half = AVOT.split()
        right_lines = wrap(sh, " ".join(half[: len(half) // 2]), size, col)
        left_lines = wrap(sh, " ".join(half[len(half) // 2 :]), size, col)
        joined = {1, 3}  # rows whose two lines are written together

        def row(k: int, lines: list[str], edge: float) -> str:
            glyphs = line_glyphs(sh, [(lines[k], "R")], size, edge)
            space = sh.font.get_nominal_glyph(ord(" "))
            words: list[list[Glyph]] = [[]]
            for g in glyphs:  # left to right, a text object per word
                if g.gid == space:
                    words.append([])
                else:
                    words[-1].append(g)
            return "\n".join(
                draw_line(sh, w, PAGE_H - 60 - k * lead, size, "plain") for w in words if w
            )

        for k in range(len(right_lines)):
            ops.append(row(k, right_lines, right))
            if k in joined:
                ops.append(row(k, left_lines, margin + col))
        ops.extend(
            row(k, left_lines, margin + col) for k in range(len(left_lines)) if k not in joined
        )
        truth = [{"kind": "body", "text": t} for t in right_lines + left_lines]
    elif style == "ornament_mid":
        words = AVOT.split()
        for k in range(5):
            label = "קהל:" if k % 2 else "חזן:"
            first = " ".join(words[6 * k : 6 * k + 3])
            second = " ".join(words[6 * k + 3 : 6 * k + 6])
            # The ornament stands at the middle character: pad the shorter half.
            while len(label) + 1 + len(first) < len(second):
                first, second = first + " " + second.split()[0], " ".join(second.split()[1:])
            x = right
            for text, run_size, gap in (
                (label, size, size),
                (first, size, 0.3 * size),
                ("*", 4.0, 0.3 * size),
                (second, size, 0.0),
            ):
                glyphs = sh.run(text, "R", run_size)
                width = sum(g.advance for g in glyphs)
                x -= width
                ops.append(
                    draw_line(
                        sh,
                        [Glyph(g.gid, g.x + x, g.y_off, g.advance) for g in glyphs],
                        y,
                        run_size,
                        "plain",
                    )
                )
                x -= gap
            truth.append({"kind": "body", "text": f"{label} {first} * {second}"})
            y -= lead
    elif style == "slotted_marks":
        for text in POINTED:
            ops.append(slotted_line(sh, text, size, right, y))
            truth.append({"kind": "body", "text": text})
            y -= lead
    elif style == "actualtext_marks":
        for text in POINTED:
            ops.append(actualtext_line(sh, text, size, right, y))
            truth.append({"kind": "body", "text": text})
            y -= lead
    elif style == "bilingual_rows":
        hebrew_size, english_size, gap = 14.0, 9.0, 6.0
        edge = 262.0  # the Hebrew cells end here (right aligned)
        y -= 4 * lead  # the table starts below the top margin (not a running header)
        for hebrew, english in BILINGUAL:
            ops.append(
                draw_line(
                    sh, line_glyphs(sh, [(hebrew, "R")], hebrew_size, edge), y, hebrew_size, "plain"
                )
            )
            glyphs = line_glyphs(sh, [(english, "L")], english_size, 0.0)
            shift = edge + gap - min(g.x for g in glyphs)
            moved = [Glyph(g.gid, g.x + shift, g.y_off, g.advance) for g in glyphs]
            ops.append(draw_line(sh, moved, y - 0.8, english_size, "plain"))
            y -= 2 * lead
        # A parallel text: the Hebrew column is read first, then its translation's
        # column (never row by row across the two languages).
        truth.extend({"kind": "body", "text": h, "size": hebrew_size} for h, _ in BILINGUAL)
        truth.extend({"kind": "body", "text": e, "size": english_size} for _, e in BILINGUAL)
    elif style in ("list_labels", "indesign_list"):
        truth, ops = list_case(sh, style, size, lead, right, y)
    elif style == "three_columns":
        gutter = 18.0
        col = (PAGE_W - 2 * margin - 2 * gutter) / 3
        words = AVOT.split()
        third = len(words) // 3
        # Right to left, one column after the other, each written whole.
        for n in range(3):
            chunk = " ".join(words[third * n : third * (n + 1) if n < 2 else None])
            edge = right - n * (col + gutter)
            texts = wrap(sh, chunk, size, col)
            for k, text in enumerate(texts):
                glyphs = (
                    justified(sh, text, size, edge, col)
                    if k < len(texts) - 1
                    else line_glyphs(sh, [(text, "R")], size, edge)
                )
                ops.append(draw_line(sh, glyphs, y - k * lead, size, "plain"))
                truth.append({"kind": "body", "text": text})
    elif style == "margin_numbers":
        width = right - margin
        texts = wrap(sh, AVOT, size, width)
        for k, text in enumerate(texts):
            last = k == len(texts) - 1
            glyphs = (
                line_glyphs(sh, [(text, "R")], size, right)
                if last
                else justified(sh, text, size, right, width)
            )
            ops.append(draw_line(sh, glyphs, y, size, "plain"))
            truth.append({"kind": "body", "text": text})
            if (k + 1) % 5 == 0:
                number = str(k + 1)
                digits = line_glyphs(sh, [(number, "L")], 8.0, 0.0)
                shift = margin - 14.0 - sum(g.advance for g in digits)
                moved = [Glyph(g.gid, g.x + shift, g.y_off, g.advance) for g in digits]
                ops.append(draw_line(sh, moved, y, 8.0, "plain"))
                # A margin line number: no part of the text (kind margin), given
                # right after the line it numbers.
                truth.append({"kind": "margin", "text": number, "size": 8.0})
            y -= lead
    elif style == "ornament_frame":
        frames = [("B", "C"), ("G", "e")]
        glyph_of = {
            ch: sh.font.get_nominal_glyph(ord(o)) for ch, o in zip("BCGe", "*#&@", strict=True)
        }
        ornaments = {glyph_of[ch]: ch for ch in "BCGe"}
        for k in range(4):
            title = " ".join(AVOT.split()[3 * k : 3 * k + 2])
            body = " ".join(AVOT.split()[3 * k + 2 : 3 * k + 12])
            left, right_orn = frames[k % 2]
            glyphs = line_glyphs(sh, [(title, "R")], size, right - 60.0)
            lo = min(g.x for g in glyphs)
            hi = max(g.x + g.advance for g in glyphs)
            ops.append(draw_line(sh, glyphs, y, size, "plain"))
            for ch, x in ((right_orn, hi + 8.0), (left, lo - 8.0 - 0.5 * size)):
                gid = glyph_of[ch]
                sh.widths.setdefault(gid, sh.font.get_glyph_h_advance(gid))
                ops.append(f"BT /F2 {size:g} Tf 1 0 0 1 {x:.3f} {y:.3f} Tm {hexg(gid)} Tj ET")
            truth.append({"kind": "body", "text": title})
            y -= lead
            ops.append(draw_line(sh, line_glyphs(sh, [(body, "R")], size, right), y, size, "plain"))
            truth.append({"kind": "body", "text": body})
            y -= 2 * lead
        (HERE / f"{name}.pdf").write_bytes(pdf_bytes(sh, "\n".join(ops), ornaments))
        write_truth(name, description, style, truth)
        return
    elif style == "table_cells":
        words = AVOT.split()
        y -= 4 * lead  # below the top margin
        # A paragraph above the table, across the page.
        for text in wrap(sh, " ".join(words[20:40]), size, right - margin):
            ops.append(draw_line(sh, line_glyphs(sh, [(text, "R")], size, right), y, size, "plain"))
            truth.append({"kind": "body", "text": text})
            y -= lead
        y -= lead
        rows = [
            [words[4 * k], " ".join(words[4 * k + 1 : 4 * k + 3]), words[4 * k + 3]]
            for k in range(5)
        ]
        # A column is as wide as its widest cell and 2 em of padding (as LaTeX's
        # tabular sets it); cells are right aligned in their columns.
        widths = [max(sh.width(row[n], size) for row in rows) + 2 * size for n in range(3)]
        for cells in rows:
            edge = right - 40.0
            for n, cell in enumerate(cells):
                glyphs = line_glyphs(sh, [(cell, "R")], size, edge - sum(widths[:n]))
                ops.append(draw_line(sh, glyphs, y, size, "logical_tj"))
            truth.append({"kind": "body", "text": " ".join(cells)})
            y -= lead
    elif style == "parallel_texts":
        # A Hebrew text (12 pt) in the left column, its translation (10 pt) in the
        # right one, each with its own line pitch: the baselines meet only by chance.
        gutter = 16.0
        col = (PAGE_W - 2 * margin - gutter) / 2
        hebrew = wrap(sh, " ".join(h for h, _ in BILINGUAL), size, col)
        english = wrap(sh, " ".join(e for _, e in BILINGUAL), 10.0, col, "L")
        top = y
        for k, text in enumerate(hebrew):
            glyphs = line_glyphs(sh, [(text, "R")], size, margin + col)
            ops.append(draw_line(sh, glyphs, top - k * lead, size, "plain"))
        for k, text in enumerate(english):
            glyphs = latin_glyphs(sh, text, 10.0, margin + col + gutter)
            ops.append(draw_line(sh, glyphs, top - 1.5 - k * 13.0, 10.0, "plain"))
        # A parallel text: the Hebrew block first (wherever it stands), then the other.
        truth.extend({"kind": "body", "text": t} for t in hebrew)
        truth.extend({"kind": "body", "text": t, "size": 10.0} for t in english)
    elif style == "margin_notes":
        # A justified column with a source reference (9 pt, a word space apart) in the
        # right margin beside some lines, on their baselines.
        width = right - margin - 50.0
        texts = wrap(sh, AVOT, size, width)
        notes = {0: "תהלים צו", 4: "משלי ג", 7: "אבות א"}
        for k, text in enumerate(texts[:9]):
            glyphs = (
                justified(sh, text, size, right - 50.0, width)
                if k < 8
                else (line_glyphs(sh, [(text, "R")], size, right - 50.0))
            )
            ops.append(draw_line(sh, glyphs, y, size, "plain"))
            truth.append({"kind": "body", "text": text})
            if k in notes:
                note = line_glyphs(sh, [(notes[k], "R")], 9.0, right)
                ops.append(draw_line(sh, note, y, 9.0, "plain"))
                # Out of the text, right after the line it stands beside.
                truth.append({"kind": "margin", "text": notes[k], "size": 9.0})
            y -= lead
    elif style == "spread":
        # Two A5 book pages side by side on one landscape page, two margins of gutter
        # between them: each a running header (9 pt) centred above its text and its
        # page number (10 pt) centred below. A right-to-left book: the right page
        # (12) is read first, then the left one (13).
        texts = wrap(sh, AVOT, size, PAGE_W - 2 * margin)
        cut = (len(texts) + 1) // 2
        pages = [
            ("right", "12", "פרקי אבות", texts[:cut], 2 * PAGE_W - margin),
            ("left", "13", "פרק ראשון", texts[cut:], PAGE_W - margin),
        ]
        halves = []
        for side, number, header, body, edge in pages:
            centre = edge - (PAGE_W - 2 * margin) / 2
            glyphs = line_glyphs(sh, [(header, "R")], 9.0, centre + sh.width(header, 9.0) / 2)
            ops.append(draw_line(sh, glyphs, PAGE_H - 35, 9.0, "plain"))
            half = [{"kind": "header", "text": header, "size": 9.0}]
            for k, text in enumerate(body):
                glyphs = line_glyphs(sh, [(text, "R")], size, edge)
                ops.append(draw_line(sh, glyphs, PAGE_H - 70 - k * lead, size, "plain"))
                half.append({"kind": "body", "text": text})
            glyphs = latin_glyphs(sh, number, 10.0, centre - sh.width(number, 10.0) / 2)
            ops.append(draw_line(sh, glyphs, 40.0, 10.0, "plain"))
            half.append({"kind": "page_number", "text": number, "size": 10.0})
            truth.extend(half)
            halves.append({"side": side, "label": number, "lines": [t["text"] for t in half]})
        (HERE / f"{name}.pdf").write_bytes(pdf_bytes(sh, "\n".join(ops), width=2 * PAGE_W))
        write_truth(name, description, style, truth, halves=halves)
        return
    elif style == "rtl_table":
        # Under a paragraph, a table on a right-to-left page whose rows hold a Hebrew
        # cell and two Latin ones, each cell a text object; read as one line per row,
        # cells from the right.
        words = AVOT.split()
        y -= 4 * lead
        for text in wrap(sh, " ".join(words[20:40]), size, right - margin):
            ops.append(draw_line(sh, line_glyphs(sh, [(text, "R")], size, right), y, size, "plain"))
            truth.append({"kind": "body", "text": text})
            y -= lead
        y -= lead
        rows = [
            [words[k], latin, code]
            for k, (latin, code) in enumerate(
                [("Moses", "A1"), ("Joshua", "B2"), ("Elders", "C3"), ("Prophets", "D4")]
            )
        ]
        widths = [max(sh.width(row[0], size) for row in rows) + 2 * size, 80.0, 50.0]
        for cells in rows:
            edge = right - 40.0
            glyphs = line_glyphs(sh, [(cells[0], "R")], size, edge)
            ops.append(draw_line(sh, glyphs, y, size, "plain"))
            for n in (1, 2):
                left = edge - sum(widths[: n + 1]) + 2 * size
                ops.append(draw_line(sh, latin_glyphs(sh, cells[n], size, left), y, size, "plain"))
            truth.append({"kind": "body", "text": " ".join(cells)})
            y -= lead
    elif style == "tab_parts":
        # Parts of one printed line a tab apart, between full lines that cross the
        # gap (a label before its text) or beside lines of their own column (a
        # contents page: a title at the right, its page number at the left margin,
        # sub-items without numbers between): each read as one line, from the right.
        words = AVOT.split()
        full = wrap(sh, " ".join(words[:40]), size, right - margin)
        rows: list[list[tuple[str, str, float]]] = [
            [(full[0], "R", right)],
            [(full[1], "R", right)],
            [("כתב:", "R", right), ("משה בן עמרם", "R", right - 110.0)],
            [(full[2], "R", right)],
            [],
            [("שער ראשון", "R", right), ("12", "L", margin)],
            [("קבלת התורה", "R", right - size)],
            [("מסורת הזקנים", "R", right - size)],
            [("שער שני", "R", right), ("27", "L", margin)],
            [("שלשה דברים", "R", right - size)],
            [("על מה העולם עומד", "R", right - size)],
            [("שער שלישי", "R", right), ("41", "L", margin)],
            [("מורא שמים", "R", right - size)],
            [],
            [(full[3], "R", right)],
        ]
        for parts in rows:
            for text, direction, edge in parts:
                glyphs = (
                    line_glyphs(sh, [(text, "R")], size, edge)
                    if direction == "R"
                    else latin_glyphs(sh, text, size, edge)
                )
                ops.append(draw_line(sh, glyphs, y, size, "plain"))
            if parts:
                truth.append({"kind": "body", "text": " ".join(t for t, _, _ in parts)})
            y -= lead
    elif style == "ocr_late_words":
        for row, text in enumerate(wrap(sh, AVOT, size, right - margin)[:6]):
            late, lift = ((2, 4.0), (0, 0.0), (3, -4.5))[row % 3]
            ops.append(ocr_late_line(sh, text, size, right, y, late, lift))
            truth.append({"kind": "body", "text": text})
            y -= lead
    elif style == "slanted_words":
        # Roman words, then slanted ones (a change of font with no space character),
        # and lines of small slanted text.
        words = AVOT.split()
        rows = [
            [(w, k >= 5) for k, w in enumerate(words[0:9])],
            [(w, k < 3) for k, w in enumerate(words[9:17])],
            [(w, True) for w in words[17:27]],
            [(w, k % 2 == 1) for k, w in enumerate(words[27:35])],
        ]
        for n, row in enumerate(rows):
            small = 8.0 if n == 2 else size
            ops.append(slanted_line(sh, row, small, right, y))
            line: dict[str, Any] = {"kind": "body", "text": " ".join(w for w, _ in row)}
            if small != size:
                line["size"] = small
            truth.append(line)
            y -= lead
    elif style == "visual_pieces":
        # LuaTeX's visual order (glyph after glyph from the left, each by its own
        # matrix, no spaces), a full stop inside each line set low (a third of an em
        # under the baseline): pdfium hands the line over in pieces.
        space = sh.font.get_nominal_glyph(ord(" "))
        stop = sh.font.get_nominal_glyph(ord("."))
        for text in ["משה קבל תורה. מסיני ומסרה ליהושע", "ויהושע לזקנים. וזקנים לנביאים"]:
            ops.append(f"BT /F1 {size:g} Tf")
            for g in line_glyphs(sh, [(text, "R")], size, right):
                if g.gid != space:
                    low = y + g.y_off - (0.35 * size if g.gid == stop else 0.0)
                    ops.append(f"1 0 0 1 {g.x:.3f} {low:.3f} Tm {hexg(g.gid)} Tj")
            ops.append("ET")
            truth.append({"kind": "body", "text": text})
            y -= lead
    elif style == "line_hyphens":
        # An English paragraph on a Hebrew page whose lines end in words broken by a
        # hyphen (the hyphen a glyph of its own, as any other letter).
        for text in [
            "משה קבל תורה מסיני ומסרה ליהושע",
            "And God divided the light from the dark-",
            "ness, and there was evening and morn-",
            "ing, one day.",
        ]:
            glyphs = (
                line_glyphs(sh, [(text, "R")], size, right)
                if text[0] >= "\u05d0"
                else latin_glyphs(sh, text, size, margin)
            )
            ops.append(draw_line(sh, glyphs, y, size, "plain"))
            truth.append({"kind": "body", "text": text})
            y -= lead
    elif style == "hidden_spaces":
        for runs in HIDDEN:
            ops.append(logical_line(sh, runs, size, right, y))
            truth.append({"kind": "body", "text": hidden_truth(runs)})
            y -= lead
    elif style == "ocr_words":
        for row, text in enumerate(wrap(sh, AVOT, size, right - margin)[:6]):
            ops.append(ocr_line(sh, text, size, right, y, row))
            truth.append({"kind": "body", "text": text})
            y -= lead
    elif style == "latin_lines":
        # A Hebrew page: most of its letters Hebrew.
        for first in wrap(sh, AVOT, size, right - margin)[:4]:
            ops.append(
                draw_line(sh, line_glyphs(sh, [(first, "R")], size, right), y, size, "plain")
            )
            truth.append({"kind": "body", "text": first})
            y -= lead
        ops.append(words_from_right(sh, ENGLISH, size, margin, y))
        truth.append({"kind": "body", "text": ENGLISH})
        y -= lead
        for runs in RUNS_RTL:
            ops.append(draw_line(sh, line_glyphs(sh, runs, size, right), y, size, "plain"))
            truth.append({"kind": "body", "text": "".join(t for t, _ in runs)})
            y -= lead
    else:
        if style == "ltr_runs":
            lines = MIXED
        elif style == "pointed":
            lines = [[(t, "R")] for t in POINTED]
        elif name == "visual_punct":
            lines = [[(t, "R")] for t in PUNCTUATED]
        elif style == "lone_brackets":
            lines = LONE_BRACKETS
        elif style == "label_links":
            head = wrap(sh, AVOT, size, right - margin)[:2]
            lines = [[(head[0], "R")], *LABEL_LINKS, [(head[1], "R")]]
        elif style == "number_ends":
            # A paragraph's last word a number with its full stop, on a line of its
            # own: the stop stands left of the number.
            head = wrap(sh, AVOT, size, right - margin)[:2]
            lines = [[(head[0], "R")], [("2019", "L"), (".", "R")]]
            lines += [[(head[1], "R")], [("2:30", "L"), (".", "R")]]
        elif style == "holam_vav":
            for text in POINTED_VAV:
                glyphs = holam_on_edge(sh, text, size, right)
                ops.append(draw_line(sh, glyphs, y, size, "plain"))
                truth.append({"kind": "body", "text": text})
                y -= lead
            lines = []
        else:
            lines = [[(t, "R")] for t in wrap(sh, AVOT, size, right - margin)]
        for runs in lines:
            ops.append(draw_line(sh, line_glyphs(sh, runs, size, right), y, size, style))
            truth.append({"kind": "body", "text": "".join(t for t, _ in runs)})
            y -= lead
    wide = 1.3 if style == "slanted_words" else 0.0
    (HERE / f"{name}.pdf").write_bytes(pdf_bytes(sh, "\n".join(ops), wide=wide))
    write_truth(name, description, style, truth)


def write_truth(
    name: str,
    description: str,
    style: str,
    truth: list[dict[str, Any]],
    halves: list[dict[str, Any]] | None = None,
) -> None:
    page: dict[str, Any] = {"page": 1, "lines": truth}
    if halves is not None:
        page["halves"] = halves  # a spread's book pages, in reading order
    doc = {
        "file": f"{name}.pdf",
        "description": description,
        "producer_style": style,
        "pages": [page],
    }
    (HERE / f"{name}.truth.json").write_text(
        json.dumps(doc, ensure_ascii=False, indent=1) + "\n", "utf-8"
    )


CASES = [
    (
        "tf1_scaled",
        "1 Tf, size in the text matrix, a text object per word (InDesign, Quartz)",
        "tf1_scaled",
    ),
    (
        "tf_print_to_pdf",
        "327.68 Tf scaled down by the text matrix (Windows Print to PDF)",
        "tf_print_to_pdf",
    ),
    (
        "visual_nospace",
        "glyphs placed one by one left to right, no spaces (LuaTeX)",
        "visual_nospace",
    ),
    (
        "ltr_runs",
        "Latin words, file names, numbers, formulas and a URL in Hebrew lines",
        "ltr_runs",
    ),
    ("pointed", "pointed text (nikud; holam before alef) shaped with the font's GPOS", "pointed"),
    (
        "two_columns",
        "two justified Hebrew columns across a 14 pt gutter, shared baselines",
        "two_columns",
    ),
    (
        "slotted_marks",
        "pointed text with each mark in a slot of its own, spaces drawn inside the next word "
        "(Word 365)",
        "slotted_marks",
    ),
    (
        "actualtext_marks",
        "pointed words drawn left to right, each pointed letter's glyphs (some marks "
        "raised) marked with its /ActualText, spaces apart (Word 365)",
        "actualtext_marks",
    ),
    (
        "ocr_columns",
        "two columns, a text object per word, the columns written one after the other "
        "but for two rows written across both (an OCR text layer)",
        "ocr_columns",
    ),
    (
        "ornament_mid",
        "a label, a 12 pt gap, then text with a 4 pt ornament at the line's middle character",
        "ornament_mid",
    ),
    (
        "bilingual_rows",
        "table rows: a 14 pt Hebrew cell, 6 pt right of it a 9 pt English cell on a "
        "baseline 0.8 pt lower",
        "bilingual_rows",
    ),
    (
        "hidden_spaces",
        "spaces that take no room: the space glyph over a letter (Word 365) or the next "
        "word drawn back over it (Word 2007); a Hebrew prefix before a Latin word",
        "hidden_spaces",
    ),
    (
        "ocr_words",
        "an OCR text layer: invisible words, each on its own baseline, no space characters",
        "ocr_words",
    ),
    (
        "latin_lines",
        "an English line drawn word by word from the right on a Hebrew page; Hebrew lines "
        "with Latin runs set in the line's direction (colon on the run's left)",
        "latin_lines",
    ),
    ("holam_vav", "holam before a vav (יְהֹוָה), holam male, holam on a consonant vav", "holam_vav"),
]


CASES += [
    (
        "list_labels",
        "list numbers a tab right of their text, each a text object; 9 pt speaker labels "
        "a tab right of 12 pt text",
        "list_labels",
    ),
    (
        "indesign_list",
        "list numbers as InDesign writes them: the digit marked /ActualText of a tab, a "
        "space marked with the digit, then the full stop",
        "indesign_list",
    ),
    (
        "margin_numbers",
        "a justified column, every fifth line numbered (8 pt) 14 pt left of the column",
        "margin_numbers",
    ),
    (
        "ornament_frame",
        "titles between two glyphs of an ornament font mapped to Latin letters",
        "ornament_frame",
    ),
    (
        "three_columns",
        "three justified columns 18 pt apart, each written whole, right to left",
        "three_columns",
    ),
    ("table_cells", "rows of three Hebrew cells 30 pt apart, a text object each", "table_cells"),
    (
        "parallel_texts",
        "a Hebrew column (12 pt, left) beside its English translation (10 pt, right), "
        "baselines apart",
        "parallel_texts",
    ),
    (
        "margin_notes",
        "a justified column with 9 pt source references in the right margin beside "
        "three of its lines",
        "margin_notes",
    ),
    (
        "spread",
        "two A5 book pages (12, 13) side by side on one landscape page, each with its "
        "running header and page number",
        "spread",
    ),
    (
        "rtl_table",
        "a table on a right-to-left page: rows of a Hebrew cell and two Latin cells",
        "rtl_table",
    ),
    (
        "ocr_late_words",
        "an OCR layer whose lines' last words come first in the stream on a baseline a point off",
        "ocr_late_words",
    ),
    (
        "slanted_words",
        "words a quarter em apart without space glyphs, some slanted by the text "
        "matrix (roman to italic, small italic lines)",
        "slanted_words",
    ),
    (
        "lone_brackets",
        "brackets around Latin runs in Hebrew lines, some lines with a bracket that "
        "closes on the next line",
        "lone_brackets",
    ),
    (
        "visual_pieces",
        "LuaTeX's visual order with a full stop set low inside each line (pdfium hands "
        "the line over in pieces)",
        "visual_pieces",
    ),
    (
        "number_ends",
        "paragraphs whose last line is a number and its full stop alone",
        "number_ends",
    ),
    (
        "line_hyphens",
        "an English paragraph on a Hebrew page, lines ending in a hyphen",
        "line_hyphens",
    ),
    (
        "tab_parts",
        "parts of one line a tab apart: a label before its text between full lines, a "
        "contents page's titles with page numbers at the far margin",
        "tab_parts",
    ),
    (
        "label_links",
        "list labels typed after Hebrew words (a number and a dash) followed by a link",
        "label_links",
    ),
    (
        "visual_punct",
        "each line one string of glyphs from the right, TJ offsets moving back left, no "
        "spaces (LuaTeX), lines that begin with a bracket or end with a full stop",
        "logical_tj",
    ),
]


def main() -> None:
    import sys

    wanted = set(sys.argv[1:])  # names to make (default: all)
    for name, description, style in CASES:
        if not wanted or name in wanted:
            make(name, description, style)
            print(f"{name}.pdf")


if __name__ == "__main__":
    main()
