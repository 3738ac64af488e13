"""Reading a title page: which printed lines are the title, and who the author is.

Pure helpers over extracted lines, used by :mod:`libtext.headings`:

* the title is the first run of lines about as large as the page's largest: the
  first such line, then lines within a few per cent of its size (an invocation such
  as ``בס"ד`` and a date line are not part of it), plus a following line that still
  towers over the rest of the page (a two-size title such as ``אוגדן מקצועי`` /
  ``לעבודת צוות ALS``, not its translation into another script); ornament glyphs
  that fonts map to lone Latin letters (``K סדור k``) are dropped, and so are symbol
  glyphs inside a display font's words (``סד✦ור``) and a year set apart on the
  title's line (``הגדה של פסח (תשפ"ד)``, ``Report, 2023``); letter-spaced words
  (``ת ה י ל י ם``) are closed up;
* a smaller line set well apart under the title is its subtitle, not a title line;
* a name set largest above the title (the author, with an honorific or as the PDF's
  Info author gives it) is not the title;
* the author is named by a by-line (``מאת``, ``ע"י``, ``מסודר ע"י``, ``לרבנו``, ``by``)
  on that page, else by the line that carries the PDF's Info author (which is often
  only part of the name), else by a name-like line under the title, else by the
  first name of a credits list (``עורכים/מחברים: …``) on the next pages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from libtext.hebrew import normalize_quotes, strip_nikud
from libtext.models import ExtractedLine, ExtractedPage

__all__ = [
    "by_line",
    "clean_title",
    "credits_author",
    "info_author_line",
    "is_author_name",
    "is_date",
    "is_genre",
    "is_invocation",
    "is_link",
    "name_like",
    "strip_ornaments",
    "title_run",
]

_SAME_SIZE = 0.04
_APART = 1.5  # a smaller line this many of its sizes below the title is a subtitle
_YEAR_MARKS = ",|·•"  # marks that set a year apart from the title before or after it
_WIDE_GAP = 3  # spaces that set a year apart (a tab stop the text layer kept as spaces)
_SPACED = 0.8  # share of one-letter tokens in a letter-spaced line
_NEAR_TOP = 0.8  # the title is the first line about as large as the largest
_TOWER = 1.3
_BY = re.compile(
    r"^(?:(?:מסודר|מסודרים|נערך|נערכו|ערוך|ערוכים|חובר|נתחבר|נתחברו|נכתב|נאסף|הובא\s+לדפוס|סודר)"
    r"\s+(?:(?:בעזהי\"ת|בעזה\"י|בעז\"ה|בס\"ד|ב\"ה|בעה\"י)\s+)?)?"
    r"(?:ע\"י|ע'י|על\s+ידי|מאת|מאתו|מאתי|חיברו|לרבינו|לרבנו|by|written\s+by|edited\s+by)"
    r"(?=[\s:]|$)[:\s]*",
    re.IGNORECASE,
)
_INVOCATIONS = frozenset(
    {'בס"ד', 'ב"ה', 'בעזהי"ת', 'בעזה"י', 'בע"ה', "בסייעתא דשמיא", "בעזרת השם", 'בעז"ה'}
)
_YEAR = re.compile(r"(?<!\d)(?:1[89]|20|21)\d\d(?!\d)|(?:^|\s)ה?תש[א-ת]?\"[א-ת](?=\s|$|[.,])")
_MONTHS = (
    "ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר|"
    "תשרי|חשון|חשוון|כסלו|טבת|שבט|אדר|ניסן|אייר|סיון|סיוון|תמוז|אב|אלול|"
    "חורף|קיץ|אביב|סתיו|סמסטר|January|February|March|April|May|June|July|August|"
    "September|October|November|December|Spring|Summer|Fall|Autumn|Winter"
)
_MONTH = re.compile(rf"(?:^|\s)(?:{_MONTHS})(?=\s|$|[.,])", re.IGNORECASE)
# Tried at the start of a word only: from inside a long word each try would read to its end.
_EMAIL_URL = re.compile(
    r"(?<!\S)(?:\S+@\S+|\S*(?:https?://|www\.)\S*|\S+\.(?:com|org|net|il|edu)\S*)"
)
# An ornament letter glued to a Hebrew word ("Kסדור", "סדורk").
_GLUED_ORNAMENT = re.compile(
    r"(?<![A-Za-z])[A-Za-z](?=[\u05d0-\u05ea])|(?<=[\u05d0-\u05ea])[A-Za-z](?![A-Za-z])"
)
_GENRES = frozenset(
    {"ספר", "קונטרס", "חיבור", "מאמר", "חוברת", "לקט", "treatise", "book", "booklet"}
)
_SPACED_DASH = re.compile(r"\s[-–—]\s")  # "topic - subtopic", "name – office": not a name
_STOPWORDS = frozenset(
    [
        "של",
        "עם",
        "על",
        "את",
        "אל",
        "או",
        "בעת",
        "לכל",
        "כל",
        "זה",
        "זו",
        "הוא",
        "היא",
        "אשר",
        "כי",
        "לא",
        "גם",
        "עבור",
        "בין",
        "the",
        "of",
        "for",
        "with",
        "and",
        "a",
        "an",
        "in",
        "on",
        "to",
        "from",
    ]
)
_HONORIFIC = re.compile(
    r"^(?:פרופ['׳‘’]?|פרופסור|ד\"ר|דר['׳‘’]|הרב|הרה\"ג|Prof\.?|Dr\.?|Rabbi)\s+", re.IGNORECASE
)
_CREDIT_LABEL = re.compile(
    r"^(?:[\w\"'׳״]+\s*[/,]\s*)*(?:מחבר|מחברים|מחברת|מחברות|כתיבה|כתב|עורך|עורכים|עורכת|"
    r"author|authors|written by)(?:\s*[/,]\s*[\w\"'׳״]+)*\s*:\s*",
    re.IGNORECASE,
)


def _norm(text: str) -> str:
    return " ".join(normalize_quotes(strip_nikud(text)).split())


def is_invocation(text: str) -> bool:
    """``בס"ד`` and its like, printed atop a page: not a title."""
    return _norm(text) in _INVOCATIONS


def is_date(text: str) -> bool:
    """A short line that gives a date, a year or a term (``אפריל 2022``, ``כסלו תשפ"ד``)."""
    t = _norm(text)
    words = t.split()
    if not words or len(words) > 7:
        return False
    return bool(_YEAR.search(t)) and (len(words) <= 3 or bool(_MONTH.search(t)))


def strip_ornaments(text: str) -> str:
    """Lone Latin letters at the ends of a Hebrew line (ornament glyphs) dropped."""
    if not any("\u05d0" <= ch <= "\u05ea" for ch in text):
        return text.strip()
    text = _GLUED_ORNAMENT.sub("", text)
    words = text.split()
    while words and len(words[0]) == 1 and words[0].isascii() and words[0].isalpha():
        words.pop(0)
    while words and len(words[-1]) == 1 and words[-1].isascii() and words[-1].isalpha():
        words.pop()
    return " ".join(words)


def _closed_up(text: str) -> str:
    """A letter-spaced line closed up: ``ת ה י ל י ם  ל ד ו ד`` -> ``תהילים לדוד``.

    Words stand apart by wider gaps (two spaces or more) when the text layer keeps
    them; a line of single letters with no wider gap is one word.
    """
    tokens = text.split()
    singles = sum(1 for t in tokens if len(t) == 1 and t.isalpha())
    if len(tokens) < 3 or singles < _SPACED * len(tokens):
        return text
    words = [w for w in re.split(r"\s{2,}", text.strip()) if w]
    return " ".join("".join(w.split()) for w in words)


def _without_symbols(text: str) -> str:
    """Symbol glyphs of a display font dropped (``סד✦ור`` -> ``סדור``, ``❖ סדור ❖``):
    a decorative font maps some of its glyphs to symbol or private-use code points."""
    kept = (ch for ch in text if unicodedata.category(ch) not in ("So", "Co", "Cn"))
    return " ".join("".join(kept).split())


def _without_year(text: str) -> str:
    """A year set off at either end of a title line dropped: in brackets (``(תשנ"ה)``),
    after a comma or a bar (``…, 2023``), or spaced far apart (``Title      2023``). A
    year the title runs into (``Practice exams 2017``) is part of it."""
    words = text.split()
    if len(words) < 2:
        return text
    t = text.strip()
    last, first = words[-1], words[0]
    head = t[: len(t) - len(last)]
    tail = t[len(first) :]
    if _set_apart(last, head[len(head.rstrip()) :], head.rstrip()[-1:]):
        return head.rstrip().rstrip(_YEAR_MARKS).strip()
    if _set_apart(first, tail[: len(tail) - len(tail.lstrip())], first[-1:]):
        return tail.lstrip().lstrip(_YEAR_MARKS).strip()
    return text


def _set_apart(word: str, gap: str, mark: str) -> bool:
    """``word`` is a year set apart from the title by brackets, a mark or a wide gap."""
    bracketed = word[:1] in "([" and word[-1:] in ")]"
    if not _YEAR.fullmatch(_norm(word).strip("()[],|")):
        return False
    return bracketed or len(gap) >= _WIDE_GAP or (mark != "" and mark in _YEAR_MARKS)


def clean_title(text: str) -> str:
    """A printed title line as a title: ornaments and symbols dropped, letter-spacing
    closed up, a year at its end dropped."""
    return _without_symbols(strip_ornaments(_closed_up(_without_year(text))))


def is_link(text: str) -> bool:
    """A line that holds an address (a web site, an e-mail): a credit, not a title."""
    return bool(_EMAIL_URL.search(text))


def is_genre(text: str) -> bool:
    """A word naming the kind of book (``ספר``, ``קונטרס``, ``treatise``): no title, no author."""
    return _norm(text).casefold() in _GENRES


def name_like(text: str) -> str:
    """The line as a person's (or body's) name, or ``""`` when it reads otherwise."""
    t = " ".join(_EMAIL_URL.sub(" ", text).split()).strip(" ,;|–-")
    words = t.split()
    if not 1 <= len(words) <= 6 or any(ch.isdigit() for ch in t) or is_genre(t):
        return ""
    if t.endswith((":", ".", "?", "!")) or is_date(t) or is_invocation(t) or _SPACED_DASH.search(t):
        return ""
    if any(w.strip(",.;").lower() in _STOPWORDS for w in words):
        return ""
    return t if any(ch.isalpha() for ch in t) else ""


def title_run(lines: Sequence[ExtractedLine]) -> list[int]:
    """Indices (into ``lines``) of the printed title: see the module docstring."""
    usable = [
        i
        for i, ln in enumerate(lines)
        if ln.text.strip() and not is_invocation(ln.text) and strip_ornaments(ln.text)
    ]
    if not usable:
        return []
    top = max(lines[i].size for i in usable)
    first = next(i for i in usable if lines[i].size >= top * _NEAR_TOP)
    size = lines[first].size
    run = [first]
    rest = [i for i in usable if i > first]
    for i in rest:
        ln = lines[i]
        if is_date(ln.text) or _BY.match(_norm(ln.text)):
            break
        if abs(ln.size - size) <= size * _SAME_SIZE:
            run.append(i)
            continue
        others = [lines[k].size for k in usable if k > i]
        same_script = _latin(ln.text) == _latin(lines[first].text)
        prev = lines[run[-1]]
        close = ln.y - prev.y <= _APART * prev.size or not (ln.y or prev.y)
        if ln.size < size and others and ln.size >= _TOWER * max(others) and same_script and close:
            run.append(i)  # a second, smaller title line that still towers over the rest
        break
    return run


def _latin(text: str) -> bool:
    """Whether Latin letters outnumber Hebrew ones (a translated title line)."""
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    return latin > sum(1 for ch in text if "\u05d0" <= ch <= "\u05ea")


def by_line(lines: Sequence[ExtractedLine]) -> str:
    """The author a by-line names (``מאת …``, ``מסודר ע"י`` then the name)."""
    for k, ln in enumerate(lines):
        text = " ".join(normalize_quotes(ln.text).split())
        m = _BY.match(text)
        if not m:
            continue
        if any(_EMAIL_URL.search(lines[j].text) for j in range(max(k - 2, 0), k)):
            continue  # who put the file online ("… www.site.org / ע"י …"), not the author
        rest = text[m.end() :].strip()
        if not rest and k + 1 < len(lines):
            rest = " ".join(lines[k + 1].text.split())
        name = name_like(rest)
        if name:
            return _original(ln.text if text[m.end() :].strip() else lines[k + 1].text, name)
    return ""


def _original(line: str, normalized_tail: str) -> str:
    """The tail of ``line`` as printed (quotes unnormalized) that ``normalized_tail`` is."""
    words = line.split()
    n = len(normalized_tail.split())
    return " ".join(words[-n:]) if n <= len(words) else normalized_tail


def info_author_line(lines: Sequence[ExtractedLine], author: str) -> str:
    """The printed line that holds the Info author (often just a first name), or ``""``."""
    want = _norm(author).casefold()
    if not want:
        return ""
    for ln in lines:
        name = name_like(ln.text)
        if name and f" {want} " in f" {_norm(name).casefold()} ":
            return name
    return ""


def is_author_name(text: str, info_author: str = "") -> bool:
    """A line that names a person: with an honorific (``הרב``, ``Rabbi``) or as the
    PDF's Info author, and reading as a name."""
    if not name_like(text):
        return False
    want = _norm(info_author).casefold()
    return bool(_HONORIFIC.match(_norm(text))) or (
        bool(want) and len(want.split()) >= 2 and want in _norm(text).casefold()
    )


def credits_author(pages: Sequence[ExtractedPage]) -> str:
    """The first name in a credits list (``עורכים/מחברים:`` and the names)."""
    for page in pages:
        lines = [ln for ln in page.lines if ln.text.strip()]
        for k, ln in enumerate(lines):
            text = " ".join(ln.text.split())
            m = _CREDIT_LABEL.match(text)
            if not m:
                continue
            names = text[m.end() :] or (lines[k + 1].text if k + 1 < len(lines) else "")
            first = re.split(r"[,|;]|\s[–-]\s", names)[0].strip()
            first = _HONORIFIC.sub("", first).strip()
            if name_like(first):
                return first
    return ""
