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
* a genre word (``קונטרס``) is no title line, even set largest above the title;
* a name set largest above the title (the author, with an honorific or as the PDF's
  Info author gives it) is not the title;
* the author is named by a by-line (``מאת``, ``ע"י``, ``מסודר ע"י``, ``לרבנו``, ``by``)
  on that page, else by a name framed as Hebrew title pages frame it (an honorific
  before it, a blessing after it: ``הרה"ג … שליט"א``), else by the line that carries
  the PDF's Info author (which is often only part of the name), else by a name-like
  line under the title, else by the first name of a credits list
  (``עורכים/מחברים: …``) on the next pages. Abbreviated honorifics and blessings
  (``כ"ק``, ``זצ"ל``) are not part of the name;
* a scanned book's digitisation credit (``הועתק והוכנס לאינטרנט``, a web address, then
  ``ע"י`` and who did it, often garbled by the OCR) and a publisher's or printer's
  line (``יוצא לאור ע"י``, ``בדפוס …``, ``פה ירושלים``) name no author;
* a form cover (``label: value`` lines, no title set large) names its work in the
  value of a label such as ``נושא``, ``מטלה``, ``Title``.
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
    "credit_lines",
    "credits_author",
    "form_title",
    "framed_name",
    "info_author_line",
    "is_author_name",
    "is_by_line",
    "is_credit",
    "is_date",
    "is_genre",
    "is_invocation",
    "is_link",
    "name_like",
    "publisher_before",
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
    r"(?:ע\"י|ע'י|על\s+ידי|מאת|מאתו|מאתי|ממני|(?:אשר\s+)?(?:חיבר|חברו|חיברו)|לרבינו|לרבנו|"
    r"להגאון|by|written\s+by|edited\s+by)"
    r"(?=[\s:]|$)[:\s]*",
    re.IGNORECASE,
)
_INVOCATIONS = frozenset(
    {'בס"ד', 'ב"ה', 'בעזהי"ת', 'בעזה"י', 'בע"ה', "בסייעתא דשמיא", "בעזרת השם", 'בעז"ה'}
)
# A year: 1800-2199, or a Hebrew one from the sixth millennium's 400s on (``תקצ"ה``,
# ``תרנ"ה``, ``תשכ"ב``; ``לפ"ק`` marks one), as title pages print their imprint's.
_YEAR = re.compile(
    r"(?<!\d)(?:1[89]|20|21)\d\d(?!\d)"
    r"|(?:^|\s)ה?ת(?:[קרשת][טיכלמנסעפצ]?|[טיכלמנסעפצ])\"[א-ת](?=\s|$|[.,])"
    r"|(?:^|\s)לפ\"ק(?=\s|$|[.,])"
)
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
# Who put a scanned book online, and when: the digitisation credit, not the author.
_CREDIT = re.compile(
    r"הועתק|הוכנס\s+לאינטרנט|נסרק|סריקה|scanned|digiti[sz]ed|made\s+available",
    re.IGNORECASE,
)
_CREDIT_REACH = 5  # lines after a credit line or an address that still belong to it
_CREDIT_TITLE = 0.6  # a line this large (of the page's largest) parts a credit from what follows
# A publisher's, printer's or place line: ``יוצא לאור``, ``בדפוס``, ``פה ירושלים``.
_IMPRINT = re.compile(
    r"(?:^|\s)(?:יוצא\s+לאור|יו\"ל|הוצאת|הוצאה|בהוצאת|נדפס|נדפסו|בדפוס|דפוס|פה|להשיג|"
    r"published|printed|publisher)(?=\s|$|[:,])",
    re.IGNORECASE,
)
# An abbreviation (``שליט"א``, ``הרה"ג``): gershayim between letters.
_ABBREVIATION = re.compile(r"^[\u05d0-\u05ea]*[\u05d0-\u05ea]\"[\u05d0-\u05ea]+[.,]?$")
# Honorifics a Hebrew title page sets before a name, spelt out.
_HONORIFIC_WORDS = frozenset(
    {"הרב", "הגאון", "הצדיק", "הצעיר", "הקטן", "ממני", "מאתי", "הק'", "רבינו", "רבנו"}
)
# Blessings a Hebrew title page sets after a living or departed author's name.
_BLESSINGS = frozenset(
    {
        'שליט"א',
        'נ"י',
        'נר"ו',
        'הי"ו',
        'יצ"ו',
        'ס"ט',
        'ז"ל',
        'זצ"ל',
        'זצוק"ל',
        'זצוקללה"ה',
        'זלה"ה',
        'נ"ע',
        'ע"ה',
        'זי"ע',
        'נבג"מ',
    }
)
# The words of humility an author sets before his own name (``ממני הצעיר …``).
_HUMBLE = frozenset({"הצעיר", "הקטן", "הק'", "הק׳"})
_WORK_LABELS = frozenset(
    {
        "נושא",
        "כותרת",
        "מטלה",
        "ניסוי",
        "עבודה",
        "פרויקט",
        "פרוייקט",
        "תרגיל",
        "חיבור",
        "title",
        "subject",
        "topic",
        "assignment",
        "experiment",
        "project",
    }
)
_PUBLISHER_END = re.compile(
    r"(?:יוצא\s+לאור|יו\"ל|הוצאת|נדפס|published)(?:\s+(?:על\s+ידי|ע\"י|by))?:?$",
    re.IGNORECASE,
)
_LABEL_LINE = re.compile(r"^([^:]{2,40}):\s*(\S.*)$")
_FORM_LINES = 3  # "label: value" lines that make a page a form
_PREFIXES = "והלבש"

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
    if _IMPRINT.search(_norm(t)) or _CREDIT.search(t):
        return ""  # a publisher, printer or place; a digitisation credit
    if any(w.strip(",.;").lower() in _STOPWORDS for w in words):
        return ""
    return t if any(ch.isalpha() for ch in t) else ""


def title_run(lines: Sequence[ExtractedLine]) -> list[int]:
    """Indices (into ``lines``) of the printed title: see the module docstring."""
    usable = [
        i
        for i, ln in enumerate(lines)
        if ln.text.strip()
        and not is_invocation(ln.text)
        and not is_genre(ln.text)
        and strip_ornaments(ln.text)
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
    top = max((ln.size for ln in lines), default=0.0)
    for k, ln in enumerate(lines):
        text = " ".join(normalize_quotes(ln.text).split())
        m = _BY.match(text)
        if not m:
            continue
        if _in_credit(lines, k, top):
            continue  # who put the file online ("… www.site.org / ע"י …"), not the author
        if k and publisher_before(lines[k - 1].text):
            continue  # "יוצא לאור / על ידי …": the publisher
        rest = text[m.end() :].strip()
        if not rest and k + 1 < len(lines):
            rest = " ".join(lines[k + 1].text.split())
        name = name_like(_unframed(rest) or rest)
        if name:
            line = ln.text if text[m.end() :].strip() else lines[k + 1].text
            return _original(line, name)
    return ""


def credit_lines(lines: Sequence[ExtractedLine]) -> set[int]:
    """Indices of the lines of a digitisation credit (see :func:`_in_credit`)."""
    top = max((ln.size for ln in lines), default=0.0)
    return {k for k in range(len(lines)) if is_credit(lines[k].text) or _in_credit(lines, k, top)}


def _in_credit(lines: Sequence[ExtractedLine], k: int, top: float) -> bool:
    """Whether line ``k`` closes a digitisation credit: a credit line or an address
    stands a few lines above it, with no line set large (a title) between them."""
    for j in range(k - 1, max(k - 1 - _CREDIT_REACH, -1), -1):
        if is_credit(lines[j].text):
            return True
        if top and lines[j].size >= _CREDIT_TITLE * top:
            return False
    return False


def publisher_before(text: str) -> bool:
    """A line that ends in a publisher's words (``יוצא לאור``, ``הוצאת``, ``יוצא לאור
    על ידי``), so that the line under it names the publisher."""
    t = _norm(text)
    return bool(t) and bool(_PUBLISHER_END.search(t))


def is_by_line(text: str) -> bool:
    """A line that opens with a by-word (``מאת``, ``ע"י``, ``by``)."""
    return bool(_BY.match(_norm(text)))


def is_credit(text: str) -> bool:
    """A digitisation credit's line (``הועתק והוכנס לאינטרנט``), or an address."""
    return bool(_CREDIT.search(text)) or is_link(text)


def _unframed(text: str) -> str:
    """A name without the abbreviated honorifics and blessings around it
    (``כ"ק אדמו"ר … נ"ע`` -> the name), ``""`` when that leaves under two words."""
    words = _norm(text).split()
    while words and (_ABBREVIATION.match(words[0]) or words[0] in _HUMBLE):
        words.pop(0)
    while words and _ABBREVIATION.match(words[-1]):
        words.pop()
    return " ".join(words) if len(words) >= 2 else ""


def framed_name(lines: Sequence[ExtractedLine]) -> str:
    """A name set as Hebrew title pages set their author's: an honorific before it
    (``הרה"ג``, ``הצעיר``, an abbreviation the OCR may have garbled) and a blessing
    abbreviation after it (``שליט"א``, ``ס"ט``, ``זצ"ל``), with no by-word."""
    for ln in lines:
        words = _norm(ln.text).split()
        if len(words) < 4 or words[-1].rstrip(".,") not in _BLESSINGS:
            continue
        if not (_ABBREVIATION.match(words[0]) or words[0] in _HONORIFIC_WORDS):
            continue
        inner = words[1:-1]
        while inner and _ABBREVIATION.match(inner[-1]):
            inner.pop()
        while inner and (_ABBREVIATION.match(inner[0]) or inner[0] in _HONORIFIC_WORDS):
            inner.pop(0)
        if not 2 <= len(inner) <= 5 or any('"' in w or "'" in w for w in inner):
            continue
        name = name_like(" ".join(inner))
        if name:
            return name
    return ""


def form_title(lines: Sequence[ExtractedLine]) -> str:
    """A form cover's work: the value of a label that names it (``נושא: …``,
    ``שיעורי בית למטלה: …``) on a page of ``label: value`` lines."""
    labelled = [m for ln in lines[:20] if (m := _LABEL_LINE.match(" ".join(ln.text.split())))]
    if len(labelled) < _FORM_LINES:
        return ""
    for m in labelled:
        label, value = m.group(1).split(), m.group(2).strip()
        if not label or not any(ch.isalpha() for ch in value) or is_link(value):
            continue
        last = label[-1].casefold()
        if last in _WORK_LABELS or (last[:1] in _PREFIXES and last[1:] in _WORK_LABELS):
            return value
    return ""


def _original(line: str, normalized: str) -> str:
    """The words of ``line`` as printed (quotes unnormalized) that ``normalized`` is: the
    last such run of words, else the line's tail of as many words."""
    words = line.split()
    want = normalized.split()
    n = len(want)
    plain = _norm(line).split()
    if len(plain) == len(words):
        for i in range(len(words) - n, -1, -1):
            if [_norm(w) for w in plain[i : i + n]] == [_norm(w) for w in want]:
                return " ".join(words[i : i + n])
    return " ".join(words[-n:]) if n <= len(words) else normalized


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
