"""Locator grammars for :mod:`libtext.sefaria`: what may follow a title, and what it means.

Each ``parse_*`` function gets the text and the offset just after a title and returns
``(end, ref)`` or ``None``. Numbers are validated (canonical Hebrew numerals, chapter and
verse counts, daf ranges), which is what keeps ordinary prose from turning into links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from libtext.hebrew import parse_numeral, parse_prefixed_numeral
from libtext.sefaria._data import COMMENTARY_AFTER_DAF, ORDINALS, Catalog, Parsha, key, loose

LETTER = "\u05d0-\u05ea"
GERSHAYIM = "(?:''|[\"\u05f4\u201d])"  # gershayim
GERESH = "['\u05f3\u2019]"  # geresh
# A numeral: with gershayim (``י"ב``), with a geresh (``ה'``), bare letters, or digits.
_MARKED = rf"[{LETTER}]{{1,3}}{GERSHAYIM}[{LETTER}]|[{LETTER}]{GERESH}"  # says it is a numeral
NUMERAL = rf"(?:{_MARKED}|[{LETTER}]{{1,4}}|\d{{1,3}})"
# Any whitespace run may separate the parts of a citation: PDF text wraps lines inside
# "(משלי\nה)", and typesetting leaves tabs, NBSP and double spaces. These are the characters
# ``\s`` matches, spelled out: a character set is a table lookup, ``\s`` a function call.
SPACE_CHARS = "\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
SPACE = f"[{SPACE_CHARS}]"
BREAK = "\n\r\v\f\x1c-\x1e\x85\u2028\u2029"  # what str.splitlines() splits on
# Punctuation that marks numbers as numbers (``כא, לג``, ``ל"ב``); a word does too (``פרק יג``).
PUNCTUATION_MARKS = r"[\d,:.;()\[\]\"'\u05f3\u05f4\u201d\u2019]"


def glued(prefix: str, markers: str = "") -> str:
    """Regex for a numeral with its section letter glued on (``פי"א``, ``רפל"ו``)."""
    lead = f"[{markers}]?" if markers else ""
    with_gershayim = rf"{lead}{prefix}[{LETTER}]{{0,3}}{GERSHAYIM}[{LETTER}]"
    return rf"{with_gershayim}|{lead}{prefix}{GERESH}?[{LETTER}]{GERESH}"


WORD_END = rf"(?![{LETTER}]|{GERSHAYIM}[{LETTER}]|{GERESH}[{LETTER}])"
DASH = rf"{SPACE}*+[-\u2013\u2014\u05be]{SPACE}*+"


@lru_cache(maxsize=4096)
def num(token: str | None) -> int | None:
    """Value of a numeral token (Hebrew or digits), ``None`` if malformed."""
    if not token:
        return None
    return int(token) if token.isdigit() else parse_numeral(token)


def marked(token: str) -> bool:
    """True when a Hebrew numeral carries geresh/gershayim (or is digits)."""
    return token.isdigit() or bool(_MARK.search(token))


@dataclass(frozen=True, slots=True, init=False)
class Ref:
    """A Sefaria reference: an index title, sections and an optional range end.

    ``Ref("Genesis", ("21", "33"))`` is ``Genesis 21:33``; ``to_sections`` holds the
    full end address of a range (``Shabbat 15a-16b``).
    """

    index: str
    sections: tuple[str, ...] = ()
    to_sections: tuple[str, ...] = ()

    def __init__(
        self, index: str, sections: tuple[str, ...] = (), to_sections: tuple[str, ...] = ()
    ) -> None:
        # The slots' own setters: a frozen dataclass's generated __init__ goes through
        # object.__setattr__ per field, and the linker makes a Ref for every citation.
        _set_index(self, index)
        _set_sections(self, sections)
        _set_to_sections(self, to_sections)

    def normal(self) -> str:
        """Sefaria's normal form, e.g. ``"Genesis 1:1-3"``."""
        out = self.index
        if self.sections:
            out += " " + ":".join(self.sections)
        if self.to_sections and self.to_sections != self.sections:
            i = 0
            while i < len(self.sections) - 1 and self.sections[i] == self.to_sections[i]:
                i += 1
            out += "-" + ":".join(self.to_sections[i:])
        return out

    def __str__(self) -> str:
        return self.normal()


def slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    """The ``__set__`` of each named slot of a frozen slotted dataclass, for a fast
    ``__init__`` (frozen: only ``__init__`` may call them)."""
    return tuple(cls.__dict__[name].__set__ for name in names)


_set_index, _set_sections, _set_to_sections = slot_setters(
    Ref, ("index", "sections", "to_sections")
)
Parsed = tuple[int, Ref]

# ---------------------------------------------------------------- Tanakh
_TANAKH = re.compile(
    rf"{SPACE}*+(?P<comma_first>,{SPACE}*+)?(?P<open_paren>\({SPACE}*+)?"
    rf"(?P<chapter_word>פרק{SPACE}++)?(?P<chapter>{NUMERAL})"
    rf"(?:(?P<separator>{SPACE}*+[,:]{SPACE}*+|\.(?=[{LETTER}])|{SPACE}++)"
    rf"(?P<verse_word>פסוק(?:ים)?{SPACE}++)?(?P<verse>{NUMERAL})"
    rf"(?:(?:{DASH}|{SPACE}++עד{SPACE}++)"
    rf"(?:(?:פרק{SPACE}++)?(?P<chapter_to>{NUMERAL})(?:{SPACE}*+[,:]{SPACE}*+|{SPACE}++(?=פסוק))"
    rf"|(?P<chapter_to_marked>{_MARKED}){SPACE}++)?(?:פסוק{SPACE}++)?(?P<verse_to>{NUMERAL}))?)?"
    rf"{WORD_END}"
)
_TANAKH_GROUPS = (
    "comma_first", "open_paren", "chapter_word", "chapter", "separator", "verse_word", "verse",
    "chapter_to", "chapter_to_marked", "verse_to",
)  # fmt: skip
# What may follow numbers written as bare letters outside brackets (``ירמיה י``,
# ``דברי הימים ב לב יט``): the end of the text or of a clause, never another word.
ENDS = re.compile(rf"{SPACE}*(?:\Z|[.;)\]\n\r\u05c3])")  # not ",": "לג, סע"ד" goes on
# Bare numerals that are also everyday words at the end of a clause (לא, לו, מה, עד ...).
WORDS_LIKE_NUMERALS = frozenset({"לא", "לו", "לה", "מה", "עד", "פה", "כה", "נא", "יד", "טל"})
_CHAPTER_RANGE = re.compile(rf"{DASH}(?P<chapter_to>{NUMERAL}){WORD_END}")
_CLOSE_PAREN = re.compile(rf"{SPACE}*+\)")
_MARK = re.compile(f"{GERSHAYIM}|{GERESH}")
_HAS_GERSHAYIM = re.compile(GERSHAYIM)
_CLOSE = re.compile(rf"{SPACE}*+[);,]")
_CLOSE_BRACKET = re.compile(rf"{SPACE}*+[)\]]")
_GERESH_LETTER = re.compile(f"[{LETTER}]{GERESH}")
_DIVINE = re.compile(f"ה{GERESH}")  # ה' with a geresh and a space after: the divine name


def _in_parens(text: str, start: int) -> bool:
    i = start - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return i >= 0 and text[i] in "(;["


def _chapter_marked(token: str, text: str, inpar: bool, end: int) -> bool:
    """A chapter alone needs gershayim (``קי"ט``); a geresh letter (``ד׳``, Sefaria's own
    form) at the end of a clause, but ``ה'``/``י'`` (the divine name) only in parentheses that
    close right after it; bare letters (``ירמיה י``) at the end of a clause, unless the
    letters are also a common word there (``לא``)."""
    if _HAS_GERSHAYIM.search(token) or token.isdigit():
        return True
    if _GERESH_LETTER.fullmatch(token):
        if inpar and _CLOSE_BRACKET.match(text[end : end + 3]):
            return True
        return token[0] not in "הי" and bool(ENDS.match(text, end))
    return token not in WORDS_LIKE_NUMERALS and bool(ENDS.match(text, end))


def _verse_ok(cat: Catalog, book: str, c: int, v: int | None) -> bool:
    counts = cat.verses.get(book)
    if counts is None or not 0 < c <= len(counts):
        return False
    return v is None or 0 < v <= counts[c - 1]


class TanakhNumbers(NamedTuple):
    """Chapter, verse and optional range end read after a book name."""

    end: int
    chapter: int
    verse: int | None
    chapter_to: int | None
    verse_to: int | None
    separator: str  # "," or ":" or "פסוק" between chapter and verse; "" for a space


# tuple.__new__ in C: a NamedTuple's own __new__ is Python, and this runs per candidate title
_tanakh_numbers = TanakhNumbers._make


def tanakh_numbers(text: str, pos: int, start: int, *, verse: bool = True) -> TanakhNumbers | None:
    """Chapter, verse and optional range end after a book name.

    ``verse=False`` reads the chapter alone (when the verse read first does not exist).
    """
    m = _TANAKH.match(text, pos)
    if not m:
        return None
    # One call for every group: this runs for each candidate title in a text.
    (
        comma_first, open_paren, chapter_word, chapter_token, sep_token, verse_word,
        verse_token, chapter_to_token, chapter_to_marked, verse_to_token,
    ) = m.group(*_TANAKH_GROUPS)  # fmt: skip
    chapter, verse_n = num(chapter_token), num(verse_token)
    if chapter is None:
        return None
    sep = (sep_token or "").strip() or ("פסוק" if verse_word else "")
    # "in brackets" only where no separator says it already (most citations: "כא, לג")
    inpar = bool(open_paren) or (not sep and _in_parens(text, start))
    if (
        verse
        and verse_token
        and verse_n is not None
        and not (not sep and _DIVINE.fullmatch(chapter_token))  # "ויקרא ה' ה'": the name
        and (
            sep
            or (inpar and _CLOSE.match(text, m.end()))
            or _MARK.search(chapter_token)  # "שמות י״ב י", "שופטים כ י''א": marked numerals
            or _MARK.search(verse_token)
            or ENDS.match(text, m.end())  # "דברי הימים ב לב יט", "תהלים כג א-ב"
        )
    ):
        to_token = chapter_to_token or chapter_to_marked
        chapter_to = num(to_token) if to_token else None
        verse_to = num(verse_to_token) if verse_to_token else None
        if verse_to_token and (verse_to is None or (to_token and chapter_to is None)):
            # "א, א - ועוד": a dash, not a range
            return _tanakh_numbers((m.end("verse"), chapter, verse_n, None, None, sep))
        end = _closed(text, m.end(), open_paren)
        return _tanakh_numbers((end, chapter, verse_n, chapter_to, verse_to, sep))
    if comma_first:  # "שמות, כ"ד, יג": after a comma only chapter and verse
        return None
    inpar = bool(open_paren) or _in_parens(text, start)
    end = m.end("chapter")
    marked_chapter = _MARK.search(chapter_token)
    dash = _CHAPTER_RANGE.match(text, end) if marked_chapter or inpar else None
    if dash and (
        (
            marked_chapter
            and _MARK.search(dash["chapter_to"])
            and (inpar or ENDS.match(text, dash.end()))
        )
        or (inpar and _CLOSE_BRACKET.match(text, dash.end()))  # "(תהלים קד-קו)"
    ):
        chapter_to = num(dash["chapter_to"])  # "שמות ד׳-ה׳": chapters 4 to 5
        if not chapter_to:
            return None
        end = _closed(text, dash.end(), open_paren)
        return _tanakh_numbers((end, chapter, None, chapter_to, None, ""))
    if (
        chapter_word
        or _chapter_marked(chapter_token, text, inpar, end)
        or (inpar and _CLOSE_BRACKET.match(text, end))
    ):
        return _tanakh_numbers((_closed(text, end, open_paren), chapter, None, None, None, ""))
    return None


def _closed(text: str, end: int, op: str | None) -> int:
    """Past the ``)`` that closes numbers opened after the title (``שמות (לב א)``)."""
    close = _CLOSE_PAREN.match(text, end) if op else None
    return close.end() if close else end


_COLON_NUMS = re.compile(
    rf"{SPACE}*+(?P<a>{NUMERAL})(?:{SPACE}*+(?P<sep>[:,]){SPACE}*+(?P<b>{NUMERAL}))?"
    rf"(?:{SPACE}*+:{SPACE}*+(?P<c>{NUMERAL}))?{WORD_END}"
)


def colon_numbers(
    text: str, pos: int, start: int, depth: int, *, comma: bool = False
) -> tuple[int, tuple[int, ...]] | None:
    """Sefaria's own Hebrew form after a title: numbers joined by colons (``ג׳:ד׳``,
    ``א׳:א׳:ב׳``), or one marked numeral (``ג׳``, ``כ״ג``) that ends the clause or closes the
    brackets. The colon says the letters are numbers; a lone numeral needs its geresh or
    gershayim, and ``ה'``/``י'`` alone is the divine name. ``depth``: most numbers the work
    has; more than that is not a citation of it."""
    m = _COLON_NUMS.match(text, pos)
    if m is None or (m["sep"] == "," and not comma):  # "ג, ד": a pair only where asked
        return None
    tokens = [t for t in m.group("a", "b", "c") if t]
    if len(tokens) > depth:
        return None
    if len(tokens) == 1:
        token = tokens[0]
        closed = _in_parens(text, start) and _CLOSE_BRACKET.match(text, m.end())
        divine = token.strip("'\u05f3\u2019") in ("ה", "י")  # "ה'" alone: the divine name
        if divine or not (_MARK.search(token) or token.isdigit()):
            return None
        if not (closed or ENDS.match(text, m.end())):
            return None
    values = tuple(num(t) for t in tokens)
    if any(v is None or v <= 0 for v in values):
        return None
    return m.end(), values  # type: ignore[return-value]


def parse_tanakh(
    cat: Catalog, text: str, pos: int, start: int, book: str, *, chapter_only: bool = True
) -> Parsed | None:
    got = tanakh_numbers(text, pos, start)
    if not got or (got.verse is None and not chapter_only):
        return None
    end, chapter, verse, chapter_to, verse_to, separator = got
    ref = _tanakh_ref(cat, book, end, chapter, verse, chapter_to, verse_to)
    if ref is None and verse is not None and not separator and chapter_only:
        # "שמות כ''ב שם ...": the word after a marked chapter was not its verse
        alone = tanakh_numbers(text, pos, start, verse=False)
        ref = _tanakh_ref(cat, book, alone.end, alone.chapter) if alone else None
    return ref


def _tanakh_ref(
    cat: Catalog,
    book: str,
    end: int,
    chapter: int,
    verse: int | None = None,
    chapter_to: int | None = None,
    verse_to: int | None = None,
) -> Parsed | None:
    if not _verse_ok(cat, book, chapter, verse):
        return None
    if verse is None and chapter_to is not None:
        if not chapter < chapter_to <= len(cat.verses[book]):
            return None
        return end, Ref(book, (str(chapter),), (str(chapter_to),))
    if verse is None:
        return end, Ref(book, (str(chapter),))
    ref = Ref(book, (str(chapter), str(verse)))
    if verse_to is not None:
        last_chapter = chapter_to or chapter
        if (last_chapter, verse_to) <= (chapter, verse):
            return None  # a range runs forward
        if not _verse_ok(cat, book, last_chapter, verse_to):
            return None
        ref = Ref(book, ref.sections, (str(last_chapter), str(verse_to)))
    return end, ref


_VERSE_ONLY = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:פסוק|פס{GERESH}){SPACE}*+(?P<verse>{NUMERAL}){WORD_END}"
)


def parse_verse_only(cat: Catalog, text: str, pos: int, book: str, chapter: int) -> Parsed | None:
    """``שם פסוק ה`` after a verse: another verse of the same chapter."""
    m = _VERSE_ONLY.match(text, pos)
    verse = num(m["verse"]) if m else None
    if m is None or verse is None:
        return None
    return _tanakh_ref(cat, book, m.end(), chapter, verse)


_IBID_NUMBER = re.compile(rf"{SPACE}*+,?{SPACE}*+(?P<number>{NUMERAL}){WORD_END}")


def parse_ibid_verse(
    cat: Catalog, text: str, pos: int, start: int, book: str, chapter: int
) -> Parsed | None:
    """``שם ז`` / ``ושם, ז.`` after a verse: a lone number is a verse of the same chapter
    (as ``שם פסוק ז``), when it ends the clause or closes the brackets. Not the divine name
    (``שם ה'``) nor a numeral that is also a word at a clause's end (``שם לא``)."""
    m = _IBID_NUMBER.match(text, pos)
    if m is None:
        return None
    token = m["number"]
    word = token.strip("'\u05f3\u2019")
    if word in WORDS_LIKE_NUMERALS or (word != token and word in ("ה", "י")):
        return None
    closed = _in_parens(text, start) and _CLOSE_BRACKET.match(text, m.end())
    verse = num(token)
    if verse is None or not (closed or ENDS.match(text, m.end())):
        return None
    return _tanakh_ref(cat, book, m.end(), chapter, verse)


_IBID_CHAPTER = re.compile(
    rf"{SPACE}*+(?P<chapter>[{LETTER}]{{1,3}}{GERSHAYIM}[{LETTER}]|[{LETTER}]{{1,3}}|\d{{1,3}})"
    rf"(?={SPACE}*+[)\]])"
)


def parse_ibid_chapter(cat: Catalog, text: str, pos: int, start: int, book: str) -> Parsed | None:
    """``(שם י"א)``, ``(שם ז)``: another chapter of the same book, alone in brackets.

    Not a geresh numeral: ``(שם ה')`` is the divine name; nor a numeral that is also a
    word (``(שם לא)``).
    """
    m = _IBID_CHAPTER.match(text, pos)
    if m is None or m["chapter"] in WORDS_LIKE_NUMERALS:
        return None
    chapter = num(m["chapter"]) if _in_parens(text, start) else None
    return _tanakh_ref(cat, book, m.end(), chapter) if chapter else None


def parse_parsha(cat: Catalog, text: str, pos: int, start: int, parsha: Parsha) -> Parsed | None:
    got = tanakh_numbers(text, pos, start)
    if not got or got.verse is None or not got.separator:
        return None  # a portion is only cited as "name chapter, verse"
    if not parsha.start <= (got.chapter, got.verse) <= parsha.end:
        return None
    end, chapter, verse, chapter_to, verse_to, _ = got
    return _tanakh_ref(cat, parsha.book, end, chapter, verse, chapter_to, verse_to)


# ---------------------------------------------------------------- Talmud Bavli
# The amud after a comma (``כב, א``, ``טו, סע"א``) or a space (``מ"ה ע"ב``, ``ב עמוד א``).
_AMUD_COMMA = (
    rf"(?:(?:(?:ריש|סוף){SPACE}++)?[רס]?ע{GERSHAYIM}(?P<amud_comma_abbrev>[אב])"
    rf"|(?P<amud_comma_letter>[אב]){GERESH}?)"
)
_AMUD_SPACE = (
    rf"(?:(?:ריש|סוף){SPACE}++)?ע{GERSHAYIM}(?P<amud_abbrev>[אב])"
    rf"|[רס]ע{GERSHAYIM}(?P<amud_edge>[אב])"
    rf"|(?:עמוד{SPACE}++|ע{GERESH}{SPACE}*+)(?P<amud_word>[אב]){GERESH}?"
    rf"|(?P<amud_letter>[אב]){GERESH}?"
)
_DAF = re.compile(
    rf"{SPACE}*+(?P<open_paren>\({SPACE}*+)?"
    rf"(?:(?P<daf_word>דף{SPACE}++|ד{GERESH}{SPACE}*+)(?P<daf>{NUMERAL})"
    rf"|(?P<daf_glued>{glued('ד')})|(?P<daf_bare>{NUMERAL}))"
    rf"(?:(?P<amud_dot>[.:])|{SPACE}*+,{SPACE}*+{_AMUD_COMMA}{WORD_END}"
    rf"|{SPACE}++(?:{_AMUD_SPACE}){WORD_END})?"
)
_DAF_GROUPS = (
    "daf_word", "daf", "daf_glued", "daf_bare", "amud_dot", "amud_comma_abbrev",
    "amud_comma_letter", "amud_abbrev", "amud_edge", "amud_word", "amud_letter",
)  # fmt: skip
_DH_TOKEN = re.compile(f"ד{GERSHAYIM}ה")
_BAD_AMUD = re.compile(rf"{SPACE}*+,?{SPACE}*+עמוד{SPACE}++(?![אב]{GERESH}?{WORD_END})[{LETTER}]")
_BARE_AMUD_END = re.compile(rf"{SPACE}*(?:\Z|[\n.,;:)\]\-\u2013\u2014\u05be])")
_DAF_RANGE = re.compile(
    rf"{DASH}(?:(?:ע{GERSHAYIM}|עמוד{SPACE}++)?(?P<amud_only>[אב]){GERESH}?{WORD_END}"
    rf"|(?P<daf>{NUMERAL})(?:(?P<amud_dot>[.:])"
    rf"|(?:{SPACE}*+,{SPACE}*+|{SPACE}++(?:ע{GERSHAYIM})?)(?P<amud>[אב]){GERESH}?{WORD_END}))"
)
_CHAPTER_TOKEN = re.compile(rf"פ[{LETTER}]?{GERSHAYIM}[{LETTER}]")
_SEGMENT_RANGE = re.compile(
    rf"{DASH}(?:(?P<daf>{NUMERAL}){SPACE}+(?P<amud>[אב]){SPACE}*:{SPACE}*(?P<seg>{NUMERAL})"
    rf"|(?P<last>{NUMERAL})(?!{SPACE}*:)){WORD_END}"
)
_DAF_ONLY_RANGE = re.compile(rf"{DASH}(?P<daf>{NUMERAL}){WORD_END}")
_SEGMENT = re.compile(rf"{SPACE}*+:{SPACE}*+(?P<segment>{NUMERAL}){WORD_END}")
# After "ח." (amud a by a period, outside brackets): the end of the text or line, a bracket,
# or a word that opens the next reference (ועוד, וש"נ, ושם, וראה); else the period may end a
# sentence whose last word merely looks like a numeral.
_AFTER_PERIOD = re.compile(
    rf"{SPACE}*(?:\Z|[\n\r)\]]"
    rf"|ו(?:עוד|ש{GERSHAYIM}נ|שם|ראה|כן|ע{GERESH}|עי{GERESH}|עיין)(?![{LETTER}]))"
)


def _amud(dot: str | None, amuds: list[str | None]) -> str | None:
    if dot:
        return "a" if dot == "." else "b"
    for letter in amuds:
        if letter:
            return "a" if letter == "א" else "b"
    return None


class Daf(NamedTuple):
    """A daf read after a tractate (``שבת לא, א``, ``דף כב.``, ``ס"ה``)."""

    end: int
    daf: int
    amud: str | None  # "a", "b", or None for both sides
    marked: bool  # said by ``דף``/``ד'`` or glued ``דט"ז``
    by_period: bool  # amud a given by a bare period (``ח.``), which may end a sentence


_daf = Daf._make  # see _tanakh_numbers


def talmud_daf(text: str, pos: int, start: int) -> Daf | None:
    """The daf (and amud) at ``pos``.

    ``.``/``:`` after the daf is the amud (``כב.``, ``נ"ד:``, ``ה':``), but a period after a
    geresh numeral or digits only inside closing brackets (``(שבת ה'.)``): ``דף פ'. והנה``
    ends a sentence. A gershayim numeral (``ל"א.``) is unmistakably a number, so its period
    is never taken for mere punctuation.
    """
    m = _DAF.match(text, pos)
    if not m:
        return None
    # one call for every group: this runs per candidate title
    daf_word, daf_token, daf_glued, daf_bare, dot, *amuds = m.group(*_DAF_GROUPS)
    if daf_glued:
        if _DH_TOKEN.fullmatch(daf_glued):
            return None  # "ברכות ד"ה ...": dibbur ha-maschil (opening words), not daf 5
        got = parse_prefixed_numeral(daf_glued, "ד")
        daf = got[1] if got else None
    else:
        daf = num(daf_token or daf_bare)
    if daf is None:
        return None
    amud = _amud(dot, amuds)
    token = daf_token or daf_bare or ""
    gershayim = bool(_HAS_GERSHAYIM.search(token))
    if dot == "." and marked(token) and not gershayim and not _CLOSE_BRACKET.match(text, m.end()):
        amud = None
    marker = bool(daf_word or daf_glued)
    amud_letter = amuds[-1]
    if amud_letter and not (_in_parens(text, start) or _BARE_AMUD_END.match(text, m.end())):
        return None
    if amud is None:
        if _BAD_AMUD.match(text, m.end()):
            return None  # "דף ב עמוד ג": no such amud
        end = m.end("daf" if daf_token else "daf_glued" if daf_glued else "daf_bare")
        inpar = m["open_paren"] or _in_parens(text, start)
        if not marker and not _daf_alone(text, token, end, inpar):
            return None
        return _daf((_closed(text, end, m["open_paren"]), daf, None, marker, False))
    end = _closed(text, m.end(), m["open_paren"])
    return _daf((end, daf, amud, marker, dot == "." and not gershayim))


def _daf_alone(text: str, token: str, end: int, inpar: bool | str) -> bool:
    """A daf with neither ``דף`` nor amud (``(יבמות ס"ה)``, ``שבת צה``, ``עירובין פב-פג``):
    closed brackets, a range of dafs, or the end of a clause after a numeral that is not also
    a common word (``לא``) or the divine name (``ה'``)."""
    if _CHAPTER_TOKEN.fullmatch(token):
        return False  # "ב"ב פ"א": after a tractate, פ"א is chapter 1, not daf 81
    if (inpar and _CLOSE_BRACKET.match(text, end)) or _DAF_ONLY_RANGE.match(text, end):
        return True
    word = token.strip("'\u05f3\u2019")
    return (
        word not in WORDS_LIKE_NUMERALS
        and not (word != token and word in ("ה", "י"))
        and bool(ENDS.match(text, end))
    )


def parse_bavli(
    text: str, pos: int, start: int, tractate: tuple[str, int, int], *, commentary: bool = False
) -> Parsed | None:
    """A daf (and amud, range or segment) of ``tractate`` at ``pos``. A Rashi or Tosafot
    comment named after it by its opening words (``מנחות מד ע"א תד"ה טלית``) is not the
    daf: with ``commentary`` its ref is the commentary on that amud (``Tosafot on Menachot
    44a``, ending after the commentator's name), else ``None``."""
    name, first, last = tractate
    got = talmud_daf(text, pos, start)
    if not got:
        return None
    end, daf, amud, marker, period = got
    if not first <= daf <= last:
        return None
    ref = Ref(name, (f"{daf}a",), (f"{daf}b",)) if amud is None else Ref(name, (f"{daf}{amud}",))
    # one look at the next character decides whether a range, a segment or a commentary's
    # opening words may follow (most citations end at ")", "." or prose)
    more = _AFTER_DAF.match(text, end) is not None
    dash = _DAF_RANGE.match(text, end) if amud and more else None
    seg = _SEGMENT.match(text, end) if amud and more and text[end - 1] not in ".:" else None
    if seg:  # "שבת ג׳ ב:כ״ג": Sefaria's own form, daf, amud and segment
        segment = num(seg["segment"])
        if not segment or segment > 200:
            return None
        ref = Ref(name, (f"{daf}{amud}", str(segment)))
        to = _SEGMENT_RANGE.match(text, seg.end())
        if to is None:
            return seg.end(), ref
        if to["last"]:  # "ב:כ״ג-כ״ה": segments 23 to 25 of that amud
            value = num(to["last"])
            if value and segment < value <= 200:
                return to.end(), Ref(name, ref.sections, (ref.sections[0], str(value)))
            return seg.end(), ref
        # "ג׳ ב:כ״ג-ד׳ א:ה׳": to a segment of a later amud
        daf_to, seg_to = num(to["daf"]), num(to["seg"])
        amud_to = "a" if to["amud"] == "א" else "b"
        if daf_to and seg_to and first <= daf_to <= last and (daf_to, amud_to) > (daf, amud):
            return to.end(), Ref(name, ref.sections, (f"{daf_to}{amud_to}", str(seg_to)))
        return seg.end(), ref
    if amud is None:
        daf_dash = _DAF_ONLY_RANGE.match(text, end) if more else None
        daf_to = num(daf_dash["daf"]) if daf_dash else None
        if daf_dash and daf_to and daf < daf_to <= last:  # "עירובין פב-פג", "ברכות ב׳-ג׳"
            return daf_dash.end(), Ref(name, (f"{daf}a",), (f"{daf_to}b",))
    if dash:
        daf_to = num(dash["daf"]) if dash["daf"] else daf
        if dash["amud_dot"]:
            amud_to = "a" if dash["amud_dot"] == "." else "b"
        else:
            amud_to = "a" if (dash["amud_only"] or dash["amud"]) == "א" else "b"
        if daf_to is not None and first <= daf_to <= last and (daf_to, amud_to) > (daf, amud):
            ref, end = Ref(name, ref.sections, (f"{daf_to}{amud_to}",)), dash.end()
    elif (
        period
        and not marker
        and not _CLOSE_BRACKET.match(text, end)
        and (not _AFTER_PERIOD.match(text, end) or text[pos:end].strip(" .") in WORDS_LIKE_NUMERALS)
    ):
        return None  # "ברכות ח." is amud a when what follows says so, else it may end a sentence
    if _RIF_PAGES.match(text, end):
        return None  # "(פסחים כו ע"ב בדפי הרי"ף)": a page of the Rif's edition, not the daf
    after = COMMENTARY_AFTER_DAF.match(text, end) if more else None
    if after and _dh_follows(text, end):  # "מנחות מד ע"א תד"ה ..." points into Tosafot
        who = "Rashi" if after["rashi"] else "Tosafot" if after["tosafot"] else None
        if not commentary or who is None:
            return None
        return after.end(), Ref(f"{who} on {name}", ref.sections, ref.to_sections)
    return end, ref


# The first character of a range (dash), a segment (":") or a commentary named after the
# daf (``רש"י``, ``תוס'``, ``ד"ה``, ``בתד"ה`` ...): see _DAF_RANGE, _SEGMENT and
# COMMENTARY_AFTER_DAF, which all begin with one of these after optional spaces.
_AFTER_DAF = re.compile(rf"[{SPACE_CHARS}]*+[-\u2013\u2014\u05be:,(רתדבמ]")


def _dh_follows(text: str, end: int) -> bool:
    return bool(_DH.match(text[end : end + 20]))


_RIF_PAGES = re.compile(rf"{SPACE}*+[(,]?{SPACE}*+[במ]?דפי{SPACE}++(?:ה)?רי{GERSHAYIM}ף")
_DH = re.compile(rf".{{0,12}}?ד{GERSHAYIM}ה", re.S)


# ---------------------------------------------------------------- Mishnah
_ORDINAL = "|".join(sorted(ORDINALS, key=len, reverse=True))
_MISHNAH_NUMBER = (
    rf"(?:(?:משנה|מ{GERESH}){SPACE}++(?P<mishnah>{NUMERAL})|(?P<mishnah_glued>{glued('מ')}))"
)
_MISHNAH = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:פרק{SPACE}++(?P<chapter>(?:{_ORDINAL})(?![{LETTER}])|{NUMERAL})"
    rf"|(?P<chapter_glued>{glued('פ', 'רס')}))"
    rf"(?:{SPACE}*+,?{SPACE}*+{_MISHNAH_NUMBER})?{WORD_END}"
)


def _number(m: re.Match[str], group: str, letter: str, markers: str = "") -> int | None:
    """The value of ``group`` (``פרק ג``), else of ``group_glued`` (``פ"ג``: ``letter``
    glued to the numeral, after one of ``markers``)."""
    token = m[group]
    if token:
        return num(token)
    return _glued_value(m[group + "_glued"], letter, markers)


def _end(m: re.Match[str], group: str) -> int:
    """Where ``group`` or its glued form ends."""
    return m.end(group) if m[group] else m.end(group + "_glued")


_GERESH_END = re.compile(f"{GERESH}$")
_LAST_RANGE = re.compile(
    rf"{DASH}(?P<to>[{LETTER}]{{1,4}}(?:{GERSHAYIM}[{LETTER}]|{GERESH})?){WORD_END}"
)


def last_range(text: str, end: int, letter: str, ref: Ref, first: int, limit: int) -> Parsed:
    """``ה"ד-ה"ה``, ``מ"א-מ"ב``, ``ס"א-ג'``: a range of the last number, written glued to
    its section letter again or as a marked numeral (not ``ה'``/``י'``, the divine name), or
    as bare letters that end the clause (``ה"ד-ו)``); anything else after the dash leaves
    the citation as it was."""
    m = _LAST_RANGE.match(text, end)
    if m is None:
        return end, ref
    token = m["to"]
    if not _MARK.search(token):  # bare letters ("ה"ד-ו") only where the clause ends
        closed = _CLOSE_BRACKET.match(text, m.end()) or ENDS.match(text, m.end())
        last = num(token) if closed and token not in WORDS_LIKE_NUMERALS else None
    elif token.startswith(letter):  # "ה"ה"; but "סי'", "הל'" are the words siman, halacha
        last = None if _GERESH_END.search(token) else _glued_value(token, letter)
    elif token.strip("'\u05f3\u2019") not in ("ה", "י"):
        last = num(token)
    else:
        last = None
    if last is None or not first < last <= limit:
        return end, ref
    return m.end(), Ref(ref.index, ref.sections, (*ref.sections[:-1], str(last)))


def parse_mishnah(
    text: str, pos: int, mishnah: tuple[str, int], mishnah_only: bool
) -> Parsed | None:
    name, chapters = mishnah
    m = _MISHNAH.match(text, pos)
    if not m:
        return None
    word = ORDINALS.get(m["chapter"] or "")
    if word is not None:  # "פרק קמא", "פרק בתרא" (the last)
        chapter: int | None = chapters if word == -1 else word
    else:
        chapter = _number(m, "chapter", "פ", "רס")
    if chapter is None or not 0 < chapter <= chapters:
        return None
    if m["mishnah"] or m["mishnah_glued"]:
        mishnah_n = _number(m, "mishnah", "מ")
        if mishnah_n is None or not 0 < mishnah_n <= 40:
            return None
        return last_range(
            text, m.end(), "מ", Ref(name, (str(chapter), str(mishnah_n))), mishnah_n, 40
        )
    if not mishnah_only:
        return None  # "שבת פ"א" alone may be the Bavli chapter
    return _end(m, "chapter"), Ref(name, (str(chapter),))


_PLAIN = re.compile(
    rf"{SPACE}*+(?P<first>{NUMERAL})"
    rf"(?:(?P<separator>{SPACE}*+[,:]{SPACE}*+|{SPACE}++)(?P<second>{NUMERAL}))?{WORD_END}"
)


def plain_pair(text: str, pos: int, start: int) -> tuple[int, int, int | None] | None:
    """Bare ``א, ד`` / ``א:ד`` numbers; ``(… א ד)`` and ``(… א)`` only inside closed parentheses."""
    m = _PLAIN.match(text, pos)
    if not m:
        return None
    first, second = num(m["first"]), num(m["second"])
    closed = _in_parens(text, start) and _CLOSE_BRACKET.match(text, m.end())
    if (
        first is not None
        and second is not None
        and (m["separator"].strip() or closed or ENDS.match(text, m.end()))
    ):
        return m.end(), first, second
    if (
        first is not None
        and not m["second"]
        and (closed or _lone_numeral(m["first"], text, m.end()))
    ):
        return m.end(), first, None  # "(… א)", or one numeral that ends the clause ("כ״ג")
    return None


def _lone_numeral(token: str, text: str, end: int) -> bool:
    """One numeral at the end of a clause: marked (``כ״ג``), or bare letters that are not
    also a word ending clauses (``לא``) nor the divine name (``ה'``)."""
    word = token.strip("'\u05f3\u2019")
    if word in WORDS_LIKE_NUMERALS or (word != token and word in ("ה", "י")):
        return False
    return bool(ENDS.match(text, end))


def parse_mishnah_plain(
    text: str, pos: int, start: int, mishnah: tuple[str, int], *, pair_only: bool = False
) -> Parsed | None:
    """``משנה ברכות א:א``: plain chapter and mishnah once the word משנה said which work.

    ``pair_only`` (a tractate with no Bavli, e.g. ``אבות ג, א``) wants both numbers.
    """
    got = parse_mishnah(text, pos, mishnah, True)
    if got:
        return got
    pair = plain_pair(text, pos, start)
    if not pair or not 0 < pair[1] <= mishnah[1] or (pair_only and pair[2] is None):
        return None
    end, chapter, mishnah_n = pair
    if mishnah_n is None:
        return end, Ref(mishnah[0], (str(chapter),))
    if not 0 < mishnah_n <= 40:
        return None
    return last_range(
        text, end, "מ", Ref(mishnah[0], (str(chapter), str(mishnah_n))), mishnah_n, 40
    )


_MISHNAH_ONLY = re.compile(rf"{SPACE}*+,?{SPACE}*+{_MISHNAH_NUMBER}{WORD_END}")


def parse_mishnah_only(
    text: str, pos: int, mishnah: tuple[str, int], chapter: int
) -> Parsed | None:
    """``שם מ"ג`` after a Mishnah citation: another mishnah of the same chapter."""
    m = _MISHNAH_ONLY.match(text, pos)
    if not m:
        return None
    mishnah_n = _number(m, "mishnah", "מ")
    if mishnah_n is None or not 0 < mishnah_n <= 40 or not 0 < chapter <= mishnah[1]:
        return None
    return m.end(), Ref(mishnah[0], (str(chapter), str(mishnah_n)))


@lru_cache(maxsize=4096)
def _glued_value(token: str | None, prefix: str, markers: str = "") -> int | None:
    got = parse_prefixed_numeral(token or "", prefix, markers=markers)
    return got[1] if got else None


# ---------------------------------------------------------------- Mishneh Torah
_CHAPTER = rf"(?:פרק{SPACE}++(?P<chapter>{NUMERAL})|(?P<chapter_glued>{glued('פ', 'רס')}))"
# "הל' ב" is "halacha 2": the abbreviated word, never ה glued to ל' (30, written ה"ל)
HALACHA_WORD = rf"(?:הלכה|הל{GERESH})"
_HALACHA = (
    rf"(?:{HALACHA_WORD}{SPACE}++(?P<halacha>{NUMERAL})"
    rf"|(?!הל{GERESH})(?P<halacha_glued>{glued('ה')}))"
)
_RAMBAM_NUMS = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:{_CHAPTER})?{SPACE}*+,?{SPACE}*+(?:{_HALACHA}{WORD_END})?"
)
_CHAPTER_BEFORE = re.compile(rf"{SPACE}*+,?{SPACE}*+{_CHAPTER}{SPACE}++(?=מ?הל)")
_HILCHOT = re.compile(rf"{SPACE}*+,?{SPACE}*+(?:ב|מ)?(?:הלכות|הל{GERESH}){SPACE}*+")
_WORD = re.compile(rf"{SPACE}*+\(?([{LETTER}\"'\u05f3\u05f4]+)\)?")


def hilchot_name(cat: Catalog, text: str, pos: int) -> tuple[int, str] | None:
    """Longest run of words after ``הל'`` naming a Mishneh Torah section (parentheses ignored)."""
    ends: list[int] = []
    names: list[str] = []  # loose() of the first n words: loose drops the spaces between them
    p, name = pos, ""
    for _ in range(cat.hilchot_max_words + 1):
        w = _WORD.match(text, p)
        if not w or not w.group(1):
            break
        p = w.end()
        name += loose(w.group(1))
        if name not in cat.hilchot_prefixes:  # no section name goes on like this
            break
        ends.append(p)
        names.append(name)
    for n in range(len(names) - 1, -1, -1):
        index = cat.hilchot.get(names[n])
        if index is not None:
            return ends[n], index
    return None


def parse_rambam(
    cat: Catalog, text: str, pos: int, lead: str, chapter: int | None = None
) -> Parsed | None:
    """After ``רמב"ם`` (``lead="rambam"``) or ``הל'``/``הלכות`` (``lead="hilchot"``).

    ``chapter`` is a chapter already read before the section name (``פ"ח מהל' תרומות``).
    """
    if lead == "rambam":
        before = _CHAPTER_BEFORE.match(text, pos)
        if before:
            chapter = _number(before, "chapter", "פ", "רס")
            pos = before.end()
        h = _HILCHOT.match(text, pos)
        if h:
            pos = h.end()
    got = hilchot_name(cat, text, pos)
    if not got:
        return None
    end, index = got
    m = _RAMBAM_NUMS.match(text, end)
    has_chapter = bool(m and (m["chapter"] or m["chapter_glued"]))
    if chapter is None and not has_chapter and not (m and (m["halacha"] or m["halacha_glued"])):
        return _rambam_colon(text, end, index)
    if m and has_chapter:
        if chapter is not None:
            return None
        chapter = _number(m, "chapter", "פ", "רס")
    if chapter is None or not 0 < chapter <= 30:
        return None
    if m and (m["halacha"] or m["halacha_glued"]):
        halacha = _number(m, "halacha", "ה")
        if halacha is None or not 0 < halacha <= 50:
            return None
        return last_range(text, m.end(), "ה", Ref(index, (str(chapter), str(halacha))), halacha, 50)
    if m and has_chapter:
        end = _end(m, "chapter")
        if _SEIF_AFTER.match(text, end):
            return None  # "הל' ת"ת פ"ד ס"ה": a se'if, so a code with se'ifim, not the Rambam
    return end, Ref(index, (str(chapter),))


_SEIF_AFTER = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:ס{GERSHAYIM}|ס[{LETTER}]{GERSHAYIM}|סעיף|סעי?{GERESH})"
)


def _rambam_colon(text: str, pos: int, index: str) -> Parsed | None:
    """``הלכות תשובה ג׳:ד׳`` (Sefaria's form), ``ג, ד``, ``ג:ד-ה``, or the chapter ``ג׳``."""
    got = colon_numbers(text, pos, pos, 2, comma=True)
    if got is None:
        return None
    end, values = got
    if not 0 < values[0] <= 30 or (len(values) > 1 and not 0 < values[1] <= 50):
        return None
    ref = Ref(index, tuple(map(str, values)))
    if len(values) == 2:
        to = _SECTION_RANGE.match(text, end)
        last = num(to["last"]) if to else None
        if to and last and values[1] < last <= 50:
            return to.end(), Ref(index, ref.sections, (ref.sections[0], str(last)))
    return end, ref


_SECTION_RANGE = re.compile(rf"{DASH}(?P<last>{NUMERAL}){WORD_END}(?!{SPACE}*+:)")


def parse_rambam_ibid(text: str, pos: int, prev: Ref) -> Parsed | None:
    """``שם ה"ג`` / ``שם פ"ה ה"ב`` after a Mishneh Torah citation."""
    m = _RAMBAM_NUMS.match(text, pos)
    if not m or not (m["halacha"] or m["halacha_glued"]):
        return None
    if m["chapter"] or m["chapter_glued"]:
        chapter = _number(m, "chapter", "פ", "רס")
    else:
        chapter = int(prev.sections[0]) if prev.sections else None
    halacha = _number(m, "halacha", "ה")
    if chapter is None or halacha is None or not (0 < chapter <= 30 and 0 < halacha <= 50):
        return None
    return m.end(), Ref(prev.index, (str(chapter), str(halacha)))


# ---------------------------------------------------------------- Shulchan Arukh
_SIMAN = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?P<open_paren>\({SPACE}*+)?"
    # ר"ס / ס"ס: the beginning / end of a siman ("ר"ס רלא")
    rf"(?:(?:סימן|[רס]?סי{GERESH}|ס{GERESH}|[רס]{GERSHAYIM}ס){SPACE}*+(?P<siman>{NUMERAL})"
    # (not ס"ק: a commentary's small se'if, "סעיף קטן")
    rf"|(?!ס{GERSHAYIM}ק)(?P<siman_glued>{glued('ס', 'ר')})"
    rf"|(?P<siman_colon>{NUMERAL})(?={SPACE}*+[:,]))"
    rf"(?:{SPACE}*+,?{SPACE}*+(?:(?:סעיף|סעי?{GERESH}){SPACE}*+(?P<seif>{NUMERAL})"
    rf"|(?P<seif_glued>{glued('ס')}))"
    rf"|{SPACE}*+[:,]{SPACE}*+(?P<seif_colon>{NUMERAL}))?{WORD_END}"
)
_PAREN = re.compile(rf"{SPACE}*+\([^()\n]{{1,25}}\)")
# What follows a siman in a commentary on the code: its small se'if or letter (ס"ק ח, אות ו).
_COMMENT_SUB = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:ס{GERSHAYIM}ק|סק{GERSHAYIM}|סעיף{SPACE}+קטן|אות{SPACE}|בהגה)"
)
_SA_PART = re.compile(rf"{SPACE}*+([{LETTER}\"'\u05f3\u05f4]+(?:{SPACE}++[{LETTER}]+)?)")


def parse_siman(
    text: str, pos: int, part: tuple[str, int], *, alone: bool = False
) -> Parsed | None:
    """``סי' רנ"ה ס"ב``, ``ססי' ל"ד`` (end of the siman), ``קיג:ד``; with ``alone`` (after a
    part's full name, Sefaria's form ``אורח חיים רנ״ה``) also a marked siman by itself."""
    name, simanim = part
    m = _SIMAN.match(text, pos)
    if not m or (m["siman_colon"] and not m["seif_colon"]):
        alone_at = colon_numbers(text, pos, pos, 1) if alone else None
        if alone_at and 0 < alone_at[1][0] <= simanim:
            return alone_at[0], Ref(name, (str(alone_at[1][0]),))
        return None  # "קיג:ד": bare numbers only as siman:seif
    siman = num(m["siman_colon"]) if m["siman_colon"] else _number(m, "siman", "ס", "ר")
    if siman is None or not 0 < siman <= simanim:
        return None
    siman_end = m.end("siman_colon") if m["siman_colon"] else _end(m, "siman")
    if _COMMENT_SUB.match(text, siman_end):
        return None  # "(יו"ד סימן קב ס"ק ח)": a commentary's small se'if, not the code's
    if m["seif"] or m["seif_glued"] or m["seif_colon"]:
        seif = num(m["seif_colon"]) if m["seif_colon"] else _number(m, "seif", "ס")
        if seif is not None and 0 < seif <= 60:
            end, ref = last_range(text, m.end(), "ס", Ref(name, (str(siman), str(seif))), seif, 60)
            return _closed(text, end, m["open_paren"]), ref
        if m["seif_colon"]:
            return None
    return _closed(text, _end(m, "siman"), m["open_paren"]), Ref(name, (str(siman),))


_SEIF_ONLY = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:(?:סעיף|סעי?{GERESH}){SPACE}*+(?P<seif>{NUMERAL})"
    rf"|(?!סי{GERESH})(?P<seif_glued>{glued('ס')})){WORD_END}(?!{SPACE}*+,?{SPACE}*+(?:ס{GERSHAYIM}|סעי?{GERESH}|סעיף))"
)


def parse_seif_only(text: str, pos: int, prev: Ref) -> Parsed | None:
    """``ושם ס"ב`` after a siman: a se'if of the same siman (one glued ``ס"ב`` after ``שם``
    is the se'if; a new siman is written ``סי' ב``, or with its se'if after it)."""
    m = _SEIF_ONLY.match(text, pos)
    seif = _number(m, "seif", "ס") if m else None
    if m is None or seif is None or not 0 < seif <= 60 or not prev.sections:
        return None
    return last_range(text, m.end(), "ס", Ref(prev.index, (prev.sections[0], str(seif))), seif, 60)


def parse_sa_lead(cat: Catalog, text: str, pos: int) -> Parsed | None:
    """``שו"ע [(ואדה"ז)] או"ח סי' X [ס"Y]``."""
    p = _PAREN.match(text, pos)
    if p:
        pos = p.end()
    m = _SA_PART.match(text, pos)
    if not m:
        return None
    words = m.group(1)
    for cand in (words, words.split()[0]):
        part = cat.sa_parts.get(key(cand))
        if part:
            end = pos + m.group(0).index(cand) + len(cand)
            section = _SA_HILCHOT.match(text, end)  # "או"ח הל' שבת סי' רנה"
            if section:
                return parse_siman(text, section.end(), part)
            return parse_siman(text, end, part, alone=" " in key(cand))
    return None


# The name of a group of laws between the part and the siman: up to four words, and only
# when a word for siman follows them.
_SA_HILCHOT = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:הלכות|הל{GERESH}){SPACE}++(?:[{LETTER}\"'\u05f3\u05f4]+{SPACE}++){{1,4}}?"
    rf"(?=(?:סימן|[רס]?סי{GERESH}){SPACE}*+[{LETTER}\d])"
)


_SEIF_KATAN = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:(?:סימן|[רס]?סי{GERESH}){SPACE}*+(?P<siman>{NUMERAL})"
    rf"|(?P<siman_glued>{glued('ס', 'ר')}))"
    rf"{SPACE}*+,?{SPACE}*+(?:(?:ס{GERSHAYIM}ק|סעיף{SPACE}++קטן){SPACE}*+(?P<katan>{NUMERAL})"
    rf"|(?P<katan_glued>{glued('סק')})){WORD_END}"
)


_KATAN_ONLY = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:(?:ס{GERSHAYIM}ק|סעיף{SPACE}++קטן){SPACE}*+(?P<katan>{NUMERAL})"
    rf"|(?P<katan_glued>{glued('סק')})){WORD_END}"
)


def parse_katan_only(text: str, pos: int, name: str, siman: str) -> Parsed | None:
    """``ושם סק"ה`` after a Mishnah Berurah citation: another small se'if of that siman."""
    m = _KATAN_ONLY.match(text, pos)
    katan = (num(m["katan"]) if m["katan"] else _glued_value(m["katan_glued"], "סק")) if m else None
    if m is None or katan is None or not 0 < katan <= 150:
        return None
    return m.end(), Ref(name, (siman, str(katan)))


def parse_seif_katan(text: str, pos: int, work: tuple[str, int]) -> Parsed | None:
    """``משנ"ב סי' רנ"ה סק"ד`` -> ``Mishnah Berurah 255:4``: a siman of the Shulchan Arukh
    and the commentary's small se'if there; both numbers, or no link (a siman alone may be
    the Shulchan Arukh's own)."""
    name, simanim = work
    m = _SEIF_KATAN.match(text, pos)
    if not m:  # "משנה ברורה א׳:א׳": Sefaria's form, siman and small se'if by colon
        got = colon_numbers(text, pos, pos, 2)
        if got is None or len(got[1]) != 2 or not (got[1][0] <= simanim and got[1][1] <= 150):
            return None
        return got[0], Ref(name, tuple(map(str, got[1])))
    siman = _number(m, "siman", "ס", "ר")
    katan = num(m["katan"]) if m["katan"] else _glued_value(m["katan_glued"], "סק")
    if siman is None or katan is None or not (0 < siman <= simanim and 0 < katan <= 150):
        return None
    return m.end(), Ref(name, (str(siman), str(katan)))


# ---------------------------------------------------------------- Tanya, Midrash
_TANYA = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:(?:פרק|פ{GERESH}){SPACE}*+(?P<chapter>{NUMERAL})"
    rf"|(?P<chapter_glued>{glued('פ', 'רס')})"
    rf"|(?:סימן|סי{GERESH}){SPACE}*+(?P<letter>{NUMERAL})|(?P<letter_glued>{glued('ס')})){WORD_END}"
)
_NONSPACE = re.compile(r"\S+")
_TANYA_PART = re.compile(
    rf"{SPACE}*+,?{SPACE}*+([{LETTER}\"'\u05f3\u05f4]+(?:{SPACE}++[{LETTER}]+){{0,2}})"
)


# "ח"א" / "בח"ב": a part (chelek) of Likkutei Amarim, whose second part is Shaar HaYichud
_CHELEK = re.compile(rf"{SPACE}*+,?{SPACE}*+ב?ח{GERSHAYIM}([אב])(?![{LETTER}])")


def parse_tanya(cat: Catalog, text: str, pos: int, part: tuple[str, int] | None) -> Parsed | None:
    if part is None:  # after "תניא": an optional part name, else Part I
        m = _TANYA_PART.match(text, pos)
        part = cat.tanya_parts['לקו"א']
        if m:
            words = list(_NONSPACE.finditer(m.group(1)))
            for n in range(len(words), 0, -1):
                found = cat.tanya_parts.get(key(" ".join(w[0] for w in words[:n])))
                if found:
                    part = found
                    pos = m.start(1) + words[n - 1].end()
                    break
    if part[0].endswith("Likkutei Amarim"):  # "לק"א ח"ב": Likkutei Amarim's second part
        chelek = _CHELEK.match(text, pos)
        if chelek:
            second = chelek[1] == "ב"
            part = cat.tanya_parts["שער היחוד והאמונה" if second else 'לקו"א']
            pos = chelek.end()
    name, chapters = part
    m = _TANYA.match(text, pos)
    if not m:  # "תניא, ליקוטי אמרים ב׳", "ב׳:ג׳": Sefaria's form, chapter and segment
        got = colon_numbers(text, pos, pos, 2)
        if got is None or not got[1][0] <= chapters:
            return None
        return got[0], Ref(name, tuple(map(str, got[1])))
    if m["letter"] or m["letter_glued"]:  # Iggeret HaKodesh is numbered by letter (siman)
        if not name.endswith("Kodesh"):
            return None
        chapter = _number(m, "letter", "ס")
    else:
        chapter = _number(m, "chapter", "פ", "רס")
    if chapter is None or not 0 < chapter <= chapters:
        return None
    return m.end(), Ref(name, (str(chapter),))


_MIDRASH = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:(?:פרשה|פרק|מזמור|פ{GERESH}){SPACE}*+(?P<chapter>{NUMERAL})"
    rf"|(?P<chapter_glued>{glued('פ', 'רס')}))"
    rf"(?:{SPACE}*+,{SPACE}*+(?P<section>{NUMERAL})"
    # the Vilna edition's paragraph, named: "פ"ח ס"א", "פרשה א אות א", "פ"ח סי' ב"
    rf"|{SPACE}++(?:(?:אות|סימן|סי{GERESH}){SPACE}*+(?P<section_word>{NUMERAL})"
    rf"|(?!ספ)(?P<section_word_glued>{glued('ס')})))?{WORD_END}"  # ספ"ט: end of ch. 9
)


# Midrashim whose second number, as cited, is a verse of the book they expound, not
# Sefaria's paragraph: only the chapter (mizmor) is linked.
_VERSE_CITED = frozenset({"Midrash Tehillim"})


def parse_midrash(text: str, pos: int, start: int, book: tuple[str, int]) -> Parsed | None:
    name, chapters = book
    m = _MIDRASH.match(text, pos)
    if not m:
        pair = plain_pair(text, pos, start)
        if not pair or not 0 < pair[1] <= chapters or not 0 < (pair[2] or 1) <= 200:
            return None
        end, first, second = pair
        if second is None or (name in _VERSE_CITED and ":" not in text[pos:end]):
            return end, Ref(name, (str(first),))  # "כג, א": a verse; "כ״ג:א׳" Sefaria's section
        return end, Ref(name, (str(first), str(second)))
    chapter = _number(m, "chapter", "פ", "רס")
    if chapter is None or not 0 < chapter <= chapters:
        return None
    if (m["section"] or m["section_word"] or m["section_word_glued"]) and name not in _VERSE_CITED:
        section = num(m["section"]) if m["section"] else _number(m, "section_word", "ס")
        if section is None or not 0 < section <= 200:
            return None
        return last_range(text, m.end(), "ס", Ref(name, (str(chapter), str(section))), section, 200)
    return _end(m, "chapter"), Ref(name, (str(chapter),))


glued_value = _glued_value
