"""Small, dependency-free Hebrew text helpers shared by the PDF, outline and Sefaria code.

Hebrew numerals are parsed here rather than with the ``hebrew`` package, which only
sums letter values (``יה`` = 15, no thousands): libtext needs validation (descending
order, ``ט"ו``/``ט"ז``), geresh/gershayim in Unicode and ASCII, thousands (``ה'תשפ"ו``)
and spelled letter names (``יו"ד`` = 10).

What is not valid text (:data:`NOT_TEXT`, :func:`unicode_problem`, :func:`name_problem`)
is said here too: this module imports nothing of libtext, so the models, the PDF reader
and the HTTP adapter share one rule without importing each other.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "GERESH",
    "GERSHAYIM",
    "LETTER_NAMES",
    "NOT_TEXT",
    "edge_words",
    "format_numeral",
    "marker_forms",
    "name_problem",
    "normalize_for_match",
    "normalize_quotes",
    "parse_numeral",
    "parse_prefixed_numeral",
    "strip_nikud",
    "unicode_problem",
]

GERESH = "\u05f3"  # ׳
GERSHAYIM = "\u05f4"  # ״

_VALUES: dict[str, int] = {
    "א": 1, "ב": 2, "ג": 3, "ד": 4, "ה": 5, "ו": 6, "ז": 7, "ח": 8, "ט": 9,
    "י": 10, "כ": 20, "ך": 20, "ל": 30, "מ": 40, "ם": 40, "נ": 50, "ן": 50,
    "ס": 60, "ע": 70, "פ": 80, "ף": 80, "צ": 90, "ץ": 90,
    "ק": 100, "ר": 200, "ש": 300, "ת": 400,
}  # fmt: skip

_FINALS = str.maketrans("ךםןףץ", "כמנפצ")

# Points and cantillation (U+0591-U+05C7) except maqaf (U+05BE), sof pasuq (U+05C3),
# paseq (U+05C0) and nun hafukha (U+05C6), which are punctuation.
_NIKUD_RE = re.compile("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")
_QUOTES = str.maketrans({GERESH: "'", GERSHAYIM: '"', "\u2019": "'", "\u201d": '"', "\u201c": '"'})
_MARKS_RE = re.compile(r"['\"]")
_SPACE_RE = re.compile(r"\s+")

LETTER_NAMES: dict[str, int] = {
    "אלף": 1, "בית": 2, "גימל": 3, "דלת": 4, "הא": 5, "הי": 5, "ואו": 6, "ויו": 6,
    "זין": 7, "חית": 8, "טית": 9, "יוד": 10,
}  # fmt: skip
"""Spelled letter names (with their quote marks removed) and their values."""


def strip_nikud(text: str) -> str:
    """Remove vowel points and cantillation, keeping letters and punctuation."""
    return _NIKUD_RE.sub("", text)


def normalize_quotes(text: str) -> str:
    """Map geresh/gershayim and typographic quotes to ASCII ``'`` and ``"``."""
    return text.translate(_QUOTES)


_TOKEN_RE = re.compile(r"\S+")


def edge_words(text: str, n: int, *, last: bool = False) -> str:
    """The first (or last) ``n`` words, sliced from ``text`` so they occur in it verbatim.

    Start and end phrases are made this way (by the offline outline and from library
    works), so grounding finds them in the text exactly.
    """
    spans = [m.span() for m in _TOKEN_RE.finditer(text)]
    if not spans:
        return ""
    chosen = spans[-n:] if last else spans[:n]
    return text[chosen[0][0] : chosen[-1][1]]


def marker_forms(marker: str) -> list[str]:
    """How a footnote marker may appear in the body: as printed, in parentheses, in brackets.

    ``"(5)"``, ``"5"`` and ``"[5]"`` all give ``["(5)", "[5]"]`` (plus the marker as
    given); an empty marker gives none. Sections and translation chunks use the same forms.
    """
    shown = marker.strip()
    core = shown.strip("()[]{}. ").strip()
    if not core:
        return []
    return list(dict.fromkeys([shown, f"({core})", f"[{core}]"]))


def normalize_for_match(text: str) -> str:
    """A lossy form for fuzzy comparison: no nikud, ASCII quotes, no finals, one space."""
    text = unicodedata.normalize("NFC", text)
    text = normalize_quotes(strip_nikud(text)).translate(_FINALS)
    return _SPACE_RE.sub(" ", text).strip()


def _group_value(letters: str) -> int | None:
    """Value of a group of letters (< 1000); ``None`` unless written canonically.

    Canonical: hundreds from large to small (ת may repeat), then at most one tens
    letter, then at most one units letter; 15 and 16 are only ``טו``/``טז``.
    """
    if not letters:
        return None
    values = [_VALUES.get(ch) for ch in letters]
    if any(v is None for v in values):
        return None
    nums = [v for v in values if v is not None]
    if letters[-2:] in ("טו", "טז"):
        head = nums[:-2]
        if all(v >= 100 for v in head) and head == sorted(head, reverse=True):
            return sum(nums)
    hundreds = [v for v in nums if v >= 100]
    tens = [v for v in nums if 10 <= v < 100]
    units = [v for v in nums if v < 10]
    if nums != hundreds + tens + units or hundreds != sorted(hundreds, reverse=True):
        return None
    if any(v != 400 for v in hundreds[:-1]) or len(tens) > 1 or len(units) > 1:
        return None
    if tens == [10] and units and units[0] in (5, 6):
        return None
    return sum(nums)


def parse_numeral(text: str, *, spelled: bool = True) -> int | None:
    """Parse a Hebrew numeral such as ``קי"ט`` (119), ``ט"ו`` (15) or ``ה'תשפ"ו`` (5786).

    Accepts Unicode and ASCII geresh/gershayim and nikud. With ``spelled``, also letter
    names (``יו"ד`` = 10, ``וא"ו`` = 6). Returns ``None`` when the text is not a
    well-formed numeral (letters out of order, other characters).
    """
    # Two apostrophes are a typed gershayim (ט''ו), not a thousands geresh before ו.
    raw = normalize_quotes(strip_nikud(text)).strip().replace("''", '"')
    if not raw:
        return None
    if spelled:
        name = _MARKS_RE.sub("", raw)
        if '"' in raw and name in LETTER_NAMES:
            return LETTER_NAMES[name]
    # Thousands: a single letter with a geresh before more letters (ה'תשפ"ו).
    m = re.fullmatch(r"([א-ט])'\s*(.+)", raw)
    if m and _MARKS_RE.sub("", m.group(2)):
        rest = _group_value(_MARKS_RE.sub("", m.group(2)))
        if rest is not None:
            return _VALUES[m.group(1)] * 1000 + rest
    letters = _MARKS_RE.sub("", raw)
    if not letters or len(letters) > 6:
        return None
    return _group_value(letters)


def format_numeral(value: int, *, marks: bool = True) -> str:
    """Write ``value`` (1-999) as a Hebrew numeral, with gershayim/geresh if ``marks``."""
    if not 0 < value < 1000:
        raise ValueError("format_numeral takes 1..999")
    out = ""
    for letter, amount in (("ת", 400), ("ש", 300), ("ר", 200), ("ק", 100)):
        while value >= amount:
            out += letter
            value -= amount
    if value in (15, 16):
        out += "ט" + ("ו" if value == 15 else "ז")
        value = 0
    for letter, amount in (
        ("צ", 90), ("פ", 80), ("ע", 70), ("ס", 60), ("נ", 50), ("מ", 40), ("ל", 30),
        ("כ", 20), ("י", 10), ("ט", 9), ("ח", 8), ("ז", 7), ("ו", 6), ("ה", 5), ("ד", 4),
        ("ג", 3), ("ב", 2), ("א", 1),
    ):  # fmt: skip
        if value >= amount:
            out += letter
            value -= amount
    if not marks:
        return out
    return out + "'" if len(out) == 1 else out[:-1] + '"' + out[-1]


def parse_prefixed_numeral(token: str, prefix: str, *, markers: str = "") -> tuple[str, int] | None:
    """Parse a reference token with its section letter glued on, as Chabad footnotes write them.

    ``פי"א`` with prefix ``פ`` (perek) is chapter 11, ``ה"ד`` with ``ה`` (halacha) is 4,
    ``סל"א`` with ``ס`` (siman/seif) is 31. ``markers`` are letters that may stand before the
    prefix, e.g. ``ר`` (reish, "beginning of") and ``ס`` (sof, "end of"): ``רפל"ו`` gives
    ``("ר", 36)``. The token must carry a geresh or gershayim (so plain words such as ``פה``
    are not read as numbers). Returns ``(marker, value)`` or ``None``.
    """
    raw = normalize_quotes(strip_nikud(token)).strip()
    if not prefix or not _MARKS_RE.search(raw):
        return None
    letters = _MARKS_RE.sub("", raw)
    candidates = [("", letters)] + [(m, letters[1:]) for m in markers if letters.startswith(m)]
    for marker, rest in candidates:
        if len(rest) >= 2 and rest.startswith(prefix):
            value = _group_value(rest[len(prefix) :])
            if value is not None:
                return marker, value
    return None


# --- valid text ------------------------------------------------------------------------

NOT_TEXT = re.compile(
    "[\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(p * 0x10000 + 0xFFFE)}{chr(p * 0x10000 + 0xFFFF)}" for p in range(17))
    + "]"
)
"""A code point that is not text: a surrogate (a UTF-16 half, alone in a ``str``) or a
Unicode non-character. The models refuse it (:func:`unicode_problem`); the PDF reader
drops it, the HTTP adapter escapes it when it echoes a client's input."""


def unicode_problem(text: str) -> str | None:
    """What makes ``text`` invalid Unicode text (a lone surrogate, a non-character), or ``None``.

    Such text cannot be written as UTF-8 (surrogates) or is reserved for internal
    use (non-characters): it could be stored but not served, so models refuse it.
    """
    m = NOT_TEXT.search(text)
    if m is None:
        return None
    code = ord(m.group())
    kind = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a Unicode non-character"
    return f"{kind} (U+{code:04X}) at offset {m.start()}"


# --- names and titles ------------------------------------------------------------------
# Control characters (ESC starts terminal escape sequences in a log viewer; a newline
# forges a log line) and the bidi embedding, override and isolate controls (which
# reorder what a reader sees around them: an author shown as someone else) are refused
# in names and titles. The right-to-left and left-to-right marks (U+200F, U+200E) stay
# allowed: Hebrew text needs them.

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def name_problem(value: str, *, allow_newlines: bool = False) -> str | None:
    """What is wrong with ``value`` as a name or title (``None``: nothing)."""
    for ch in value:
        if ch in _BIDI_CONTROLS:
            return f"the bidi control U+{ord(ch):04X} ({unicodedata.name(ch, 'control')})"
        if unicodedata.category(ch) == "Cc" and not (allow_newlines and ch in "\n\t"):
            return f"the control character U+{ord(ch):04X}"
    return None
