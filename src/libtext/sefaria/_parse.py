"""Locator grammars for :mod:`libtext.sefaria`: what may follow a title, and what it means.

Each ``parse_*`` function gets the text and the offset just after a title and returns
``(end, ref)`` or ``None``. Numbers are validated (canonical Hebrew numerals, chapter and
verse counts, daf ranges), which is what keeps ordinary prose from turning into links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from libtext.hebrew import parse_numeral, parse_prefixed_numeral
from libtext.sefaria._data import COMMENTARY_AFTER_DAF, ORDINALS, Catalog, Parsha, key, loose

L = "\u05d0-\u05ea"
Q = "(?:''|[\"\u05f4\u201d])"  # gershayim
G = "['\u05f3\u2019]"  # geresh
NUM = rf"(?:[{L}]{{1,3}}{Q}[{L}]|[{L}]{G}|[{L}]{{1,4}}|\d{{1,3}})"
# Any whitespace run may separate the parts of a citation: PDF text wraps lines inside
# "(משלי\nה)", and typesetting leaves tabs, NBSP and double spaces. These are the characters
# ``\s`` matches, spelled out: a character set is a table lookup, ``\s`` a function call.
WS = "\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
SP = f"[{WS}]"


def glued(prefix: str, markers: str = "") -> str:
    """Regex for a numeral with its section letter glued on (``פי"א``, ``רפל"ו``)."""
    lead = f"[{markers}]?" if markers else ""
    return rf"{lead}{prefix}[{L}]{{0,3}}{Q}[{L}]|{lead}{prefix}{G}?[{L}]{G}"


END = rf"(?![{L}]|{Q}[{L}]|{G}[{L}])"
DASH = rf"{SP}*[-\u2013\u2014\u05be]{SP}*"


@lru_cache(maxsize=4096)
def num(token: str | None) -> int | None:
    """Value of a numeral token (Hebrew or digits), ``None`` if malformed."""
    if not token:
        return None
    return int(token) if token.isdigit() else parse_numeral(token)


def marked(token: str) -> bool:
    """True when a Hebrew numeral carries geresh/gershayim (or is digits)."""
    return token.isdigit() or bool(_MARK.search(token))


@dataclass(frozen=True, slots=True)
class Ref:
    """A Sefaria reference: an index title, sections and an optional range end.

    ``Ref("Genesis", ("21", "33"))`` is ``Genesis 21:33``; ``to_sections`` holds the
    full end address of a range (``Shabbat 15a-16b``).
    """

    index: str
    sections: tuple[str, ...] = ()
    to_sections: tuple[str, ...] = ()

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


Parsed = tuple[int, Ref]

# ---------------------------------------------------------------- Tanakh
_MARKED = rf"[{L}]{{1,3}}{Q}[{L}]|[{L}]{G}"  # a numeral that says it is one
_TANAKH = re.compile(
    rf"{SP}*(?P<bc>,{SP}*)?(?P<op>\({SP}*)?(?P<pk>פרק{SP}+)?(?P<c>{NUM})"
    rf"(?:(?P<sep>{SP}*[,:]{SP}*|\.(?=[{L}])|{SP}+)(?P<vk>פסוק(?:ים)?{SP}+)?(?P<v>{NUM})"
    rf"(?:(?:{DASH}|{SP}+עד{SP}+)(?:(?:פרק{SP}+)?(?P<c2>{NUM})(?:{SP}*[,:]{SP}*|{SP}+(?=פסוק))"
    rf"|(?P<c2s>{_MARKED}){SP}+)?(?:פסוק{SP}+)?(?P<v2>{NUM}))?)?{END}"
)
_TANAKH_GROUPS = ("bc", "op", "pk", "c", "sep", "vk", "v", "c2", "c2s", "v2")
# What may follow numbers written as bare letters outside brackets (``ירמיה י``,
# ``דברי הימים ב לב יט``): the end of the text or of a clause, never another word.
ENDS = re.compile(rf"{SP}*(?:\Z|[.;)\]\n\r\u05c3])")  # not ",": "לג, סע"ד" goes on
# Bare numerals that are also everyday words at the end of a clause (לא, לו, מה, עד ...).
WORDS_LIKE_NUMERALS = frozenset({"לא", "לו", "לה", "מה", "עד", "פה", "כה", "נא", "יד", "טל"})
_CHAPTER_RANGE = re.compile(rf"{DASH}(?P<c2>{NUM}){END}")
_CLOSE_PAREN = re.compile(rf"{SP}*\)")
_MARK = re.compile(f"{Q}|{G}")
_GERSHAYIM = re.compile(Q)
_CLOSE = re.compile(rf"{SP}*[);,]")
_CLOSE_BRACKET = re.compile(rf"{SP}*[)\]]")
_GERESH_LETTER = re.compile(f"[{L}]{G}")


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
    if _GERSHAYIM.search(token) or token.isdigit():
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


def tanakh_numbers(
    text: str, pos: int, start: int, *, verse: bool = True
) -> tuple[int, int, int | None, int | None, int | None, str] | None:
    """Chapter, verse and optional range end after a book name; ``(end, c, v, c2, v2, sep)``.

    ``verse=False`` reads the chapter alone (when the verse read first does not exist).
    """
    m = _TANAKH.match(text, pos)
    if not m:
        return None
    # One call for every group: this runs for each candidate title in a text.
    bc, op, pk, tc, tsep, vk, tv, tc2, tc2s, tv2 = m.group(*_TANAKH_GROUPS)
    c, v = num(tc), num(tv)
    if c is None:
        return None
    inpar = bool(op) or _in_parens(text, start)
    sep = (tsep or "").strip() or ("פסוק" if vk else "")
    if (
        verse
        and tv
        and v is not None
        and (
            sep
            or (inpar and _CLOSE.match(text, m.end()))
            or _MARK.search(tc)  # "שמות י״ב י", "שופטים כ י''א": marked numerals
            or _MARK.search(tv)
            or (not tv2 and ENDS.match(text, m.end()))  # "דברי הימים ב לב יט"
        )
    ):
        c2 = num(tc2 or tc2s) if tc2 or tc2s else None
        v2 = num(tv2) if tv2 else None
        if tv2 and (v2 is None or ((tc2 or tc2s) and c2 is None)):
            return m.end("v"), c, v, None, None, sep  # "א, א - ועוד": a dash, not a range
        return _closed(text, m.end(), op), c, v, c2, v2, sep
    if bc:  # "שמות, כ"ד, יג": after a comma only chapter and verse
        return None
    end = m.end("c")
    r = _CHAPTER_RANGE.match(text, end) if _MARK.search(tc) else None
    if r and _MARK.search(r["c2"]) and (inpar or ENDS.match(text, r.end())):
        c2 = num(r["c2"])  # "שמות ד׳-ה׳": chapters 4 to 5
        return (_closed(text, r.end(), op), c, None, c2, None, "") if c2 else None
    if pk or _chapter_marked(tc, text, inpar, end) or (inpar and _CLOSE_BRACKET.match(text, end)):
        return _closed(text, end, op), c, None, None, None, ""
    return None


def _closed(text: str, end: int, op: str | None) -> int:
    """Past the ``)`` that closes numbers opened after the title (``שמות (לב א)``)."""
    close = _CLOSE_PAREN.match(text, end) if op else None
    return close.end() if close else end


def parse_tanakh(
    cat: Catalog, text: str, pos: int, start: int, book: str, *, chapter_only: bool = True
) -> Parsed | None:
    got = tanakh_numbers(text, pos, start)
    if not got or (got[2] is None and not chapter_only):
        return None
    end, c, v, c2, v2, sep = got
    ref = _tanakh_ref(cat, book, end, c, v, c2, v2)
    if ref is None and v is not None and not sep and chapter_only:
        # "שמות כ''ב שם ...": the word after a marked chapter was not its verse
        got = tanakh_numbers(text, pos, start, verse=False)
        ref = _tanakh_ref(cat, book, got[0], got[1], None, None, None) if got else None
    return ref


def _tanakh_ref(
    cat: Catalog, book: str, end: int, c: int, v: int | None, c2: int | None, v2: int | None
) -> Parsed | None:
    if not _verse_ok(cat, book, c, v):
        return None
    if v is None and c2 is not None:
        if not c < c2 <= len(cat.verses[book]):
            return None
        return end, Ref(book, (str(c),), (str(c2),))
    if v is None:
        return end, Ref(book, (str(c),))
    ref = Ref(book, (str(c), str(v)))
    if v2 is not None:
        ce = c2 or c
        if not _verse_ok(cat, book, ce, v2) or (ce, v2) <= (c, v):
            return None
        ref = Ref(book, ref.sections, (str(ce), str(v2)))
    return end, ref


_VERSE_ONLY = re.compile(rf"{SP}*,?{SP}*(?:פסוק|פס{G}){SP}*(?P<v>{NUM}){END}")


def parse_verse_only(cat: Catalog, text: str, pos: int, book: str, chapter: int) -> Parsed | None:
    """``שם פסוק ה`` after a verse: another verse of the same chapter."""
    m = _VERSE_ONLY.match(text, pos)
    v = num(m["v"]) if m else None
    if m is None or v is None:
        return None
    return _tanakh_ref(cat, book, m.end(), chapter, v, None, None)


_IBID_CHAPTER = re.compile(rf"{SP}*(?P<c>[{L}]{{1,3}}{Q}[{L}]|\d{{1,3}})(?={SP}*[)\]])")


def parse_ibid_chapter(cat: Catalog, text: str, pos: int, start: int, book: str) -> Parsed | None:
    """``(שם י"א)``: another chapter of the same book, alone in brackets.

    Only a numeral with gershayim (or digits): ``(שם ה')`` is the divine name.
    """
    m = _IBID_CHAPTER.match(text, pos)
    c = num(m["c"]) if m and _in_parens(text, start) else None
    return _tanakh_ref(cat, book, m.end(), c, None, None, None) if m and c else None


def parse_parsha(cat: Catalog, text: str, pos: int, start: int, parsha: Parsha) -> Parsed | None:
    got = tanakh_numbers(text, pos, start)
    if not got or got[2] is None or not got[5]:
        return None  # a portion is only cited as "name chapter, verse"
    end, c, v, c2, v2, _ = got
    assert v is not None
    if not parsha.start <= (c, v) <= parsha.end:
        return None
    return _tanakh_ref(cat, parsha.book, end, c, v, c2, v2)


# ---------------------------------------------------------------- Talmud Bavli
_AMUD_COMMA = rf"(?:(?:(?:ריש|סוף){SP}+)?[רס]?ע{Q}(?P<a1>[אב])|(?P<a2>[אב]){G}?)"
_AMUD_SPACE = (
    rf"(?:(?:ריש|סוף){SP}+)?ע{Q}(?P<a3>[אב])|[רס]ע{Q}(?P<a4>[אב])"
    rf"|עמוד{SP}+(?P<a5>[אב]){G}?|(?P<a6>[אב]){G}?"
)
_DAF = re.compile(
    rf"{SP}*(?P<op>\({SP}*)?(?:(?P<dm>דף{SP}+|ד{G}{SP}*)(?P<d>{NUM})|(?P<dg>{glued('ד')})|(?P<d0>{NUM}))"
    rf"(?:(?P<dot>[.:])|{SP}*,{SP}*{_AMUD_COMMA}{END}|{SP}+(?:{_AMUD_SPACE}){END})?"
)
_DH_TOKEN = re.compile(f"ד{Q}ה")
_BAD_AMUD = re.compile(rf"{SP}*,?{SP}*עמוד{SP}+(?![אב]{G}?{END})[{L}]")
_BARE_AMUD_END = re.compile(rf"{SP}*(?:\Z|[\n.,;:)\]\-\u2013\u2014\u05be])")
_DAF_RANGE = re.compile(
    rf"{DASH}(?:(?:ע{Q}|עמוד{SP}+)?(?P<ao>[אב]){G}?{END}"
    rf"|(?P<d>{NUM})(?:(?P<dot>[.:])|(?:{SP}*,{SP}*|{SP}+(?:ע{Q})?)(?P<a>[אב]){G}?{END}))"
)
_CHAPTER_TOKEN = re.compile(rf"פ[{L}]?{Q}[{L}]")
_DAF_ONLY_RANGE = re.compile(rf"{DASH}(?P<d>{NUM}){END}")
_SEGMENT = re.compile(rf"{SP}*:{SP}*(?P<s>{NUM}){END}")
# After "ח." (amud a by a period, outside brackets): the end of the text or line, a bracket,
# or a word that opens the next reference (ועוד, וש"נ, ושם, וראה); else the period may end a
# sentence whose last word merely looks like a numeral.
_AFTER_PERIOD = re.compile(
    rf"{SP}*(?:\Z|[\n\r)\]]|ו(?:עוד|ש{Q}נ|שם|ראה|כן|ע{G}|עי{G}|עיין)(?![{L}]))"
)


_DAF_GROUPS = ("dm", "d", "dg", "d0", "dot", "a1", "a2", "a3", "a4", "a5", "a6")


def _amud(dot: str | None, amuds: list[str | None]) -> str | None:
    if dot:
        return "a" if dot == "." else "b"
    for a in amuds:
        if a:
            return "a" if a == "א" else "b"
    return None


def talmud_daf(text: str, pos: int, start: int) -> tuple[int, int, str | None, bool, bool] | None:
    """``(end, daf, amud or None, explicit daf marker, amud given by a bare period)``.

    ``.``/``:`` after the daf is the amud (``כב.``, ``נ"ד:``, ``ה':``), but a period after a
    geresh numeral or digits only inside closing brackets (``(שבת ה'.)``): ``דף פ'. והנה``
    ends a sentence. A gershayim numeral (``ל"א.``) is unmistakably a number, so its period
    is never taken for mere punctuation.
    """
    m = _DAF.match(text, pos)
    if not m:
        return None
    dm, d, dg, d0, dot, *amuds = m.group(*_DAF_GROUPS)  # one call: this runs per candidate
    if dg:
        if _DH_TOKEN.fullmatch(dg):
            return None  # "ברכות ד"ה ...": dibbur ha-maschil (opening words), not daf 5
        got = parse_prefixed_numeral(dg, "ד")
        daf = got[1] if got else None
    else:
        daf = num(d or d0)
    if daf is None:
        return None
    amud = _amud(dot, amuds)
    token = d or d0 or ""
    gershayim = bool(_GERSHAYIM.search(token))
    if dot == "." and marked(token) and not gershayim and not _CLOSE_BRACKET.match(text, m.end()):
        amud = None
    marker = bool(dm or dg)
    if amuds[5] and not (_in_parens(text, start) or _BARE_AMUD_END.match(text, m.end())):
        return None
    if amud is None:
        if _BAD_AMUD.match(text, m.end()):
            return None  # "דף ב עמוד ג": no such amud
        end = m.end("d") if d else m.end("dg") if dg else m.end("d0")
        if not marker and not _daf_alone(text, token, end, m["op"] or _in_parens(text, start)):
            return None
        return _closed(text, end, m["op"]), daf, None, marker, False
    return _closed(text, m.end(), m["op"]), daf, amud, marker, dot == "." and not gershayim


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


def parse_bavli(text: str, pos: int, start: int, tractate: tuple[str, int, int]) -> Parsed | None:
    name, first, last = tractate
    got = talmud_daf(text, pos, start)
    if not got:
        return None
    end, daf, amud, marker, period = got
    if not first <= daf <= last:
        return None
    ref = Ref(name, (f"{daf}a",), (f"{daf}b",)) if amud is None else Ref(name, (f"{daf}{amud}",))
    r = _DAF_RANGE.match(text, end) if amud else None
    seg = _SEGMENT.match(text, end) if amud and text[end - 1] not in ".:" else None
    if seg:  # "שבת ג׳ ב:כ״ג": Sefaria's own form, daf, amud and segment
        s = num(seg["s"])
        return (seg.end(), Ref(name, (f"{daf}{amud}", str(s)))) if s and s <= 200 else None
    if amud is None:
        r2 = _DAF_ONLY_RANGE.match(text, end)
        d2 = num(r2["d"]) if r2 else None
        if r2 and d2 and daf < d2 <= last:  # "עירובין פב-פג", "ברכות ב׳-ג׳"
            return r2.end(), Ref(name, (f"{daf}a",), (f"{d2}b",))
    if r:
        d2 = num(r["d"]) if r["d"] else daf
        a2 = r["ao"] or r["a"]
        amud2 = ("a" if r["dot"] == "." else "b") if r["dot"] else ("a" if a2 == "א" else "b")
        if d2 is not None and first <= d2 <= last and (d2, amud2) > (daf, amud or "a"):
            ref, end = Ref(name, ref.sections, (f"{d2}{amud2}",)), r.end()
    elif (
        period
        and not marker
        and not _CLOSE_BRACKET.match(text, end)
        and (not _AFTER_PERIOD.match(text, end) or text[pos:end].strip(" .") in WORDS_LIKE_NUMERALS)
    ):
        return None  # "ברכות ח." is amud a when what follows says so, else it may end a sentence
    if COMMENTARY_AFTER_DAF.match(text, end) and _dh_follows(text, end):
        return None  # "מנחות מד ע"א תד"ה ..." points into Tosafot, not the daf
    return end, ref


def _dh_follows(text: str, end: int) -> bool:
    return bool(_DH.match(text[end : end + 20]))


_DH = re.compile(rf".{{0,12}}?ד{Q}ה", re.S)


# ---------------------------------------------------------------- Mishnah
_ORDINAL = "|".join(sorted(ORDINALS, key=len, reverse=True))
_MISHNAH = re.compile(
    rf"{SP}*,?{SP}*(?:פרק{SP}+(?P<c>(?:{_ORDINAL})(?![{L}])|{NUM})|(?P<cg>{glued('פ', 'רס')}))"
    rf"(?:{SP}*,?{SP}*(?:(?:משנה|מ{G}){SP}+(?P<m>{NUM})|(?P<mg>{glued('מ')})))?{END}"
)


def parse_mishnah(
    text: str, pos: int, mishnah: tuple[str, int], mishnah_only: bool
) -> Parsed | None:
    name, chapters = mishnah
    m = _MISHNAH.match(text, pos)
    if not m:
        return None
    word = ORDINALS.get(m["c"] or "")
    if word is not None:  # "פרק קמא", "פרק בתרא" (the last)
        c: int | None = chapters if word == -1 else word
    else:
        c = num(m["c"]) if m["c"] else _glued_value(m["cg"], "פ", "רס")
    if c is None or not 0 < c <= chapters:
        return None
    if m["m"] or m["mg"]:
        mi = num(m["m"]) if m["m"] else _glued_value(m["mg"], "מ")
        if mi is None or not 0 < mi <= 40:
            return None
        return m.end(), Ref(name, (str(c), str(mi)))
    if not mishnah_only:
        return None  # "שבת פ"א" alone may be the Bavli chapter
    return m.end("c") if m["c"] else m.end("cg"), Ref(name, (str(c),))


_PLAIN = re.compile(rf"{SP}*(?P<a>{NUM})(?:(?P<sep>{SP}*[,:]{SP}*|{SP}+)(?P<b>{NUM}))?{END}")


def plain_pair(text: str, pos: int, start: int) -> tuple[int, int, int | None] | None:
    """Bare ``א, ד`` / ``א:ד`` numbers; ``(… א ד)`` and ``(… א)`` only inside closed parentheses."""
    m = _PLAIN.match(text, pos)
    if not m:
        return None
    a, b = num(m["a"]), num(m["b"])
    closed = _in_parens(text, start) and _CLOSE_BRACKET.match(text, m.end())
    if (
        a is not None
        and b is not None
        and (m["sep"].strip() or closed or ENDS.match(text, m.end()))
    ):
        return m.end(), a, b
    if a is not None and not m["b"] and closed:
        return m.end(), a, None
    return None


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
    end, c, mi = pair
    if mi is None:
        return end, Ref(mishnah[0], (str(c),))
    return (end, Ref(mishnah[0], (str(c), str(mi)))) if 0 < mi <= 40 else None


_MISHNAH_ONLY = re.compile(
    rf"{SP}*,?{SP}*(?:(?:משנה|מ{G}){SP}+(?P<m>{NUM})|(?P<mg>{glued('מ')})){END}"
)


def parse_mishnah_only(
    text: str, pos: int, mishnah: tuple[str, int], chapter: int
) -> Parsed | None:
    """``שם מ"ג`` after a Mishnah citation: another mishnah of the same chapter."""
    m = _MISHNAH_ONLY.match(text, pos)
    if not m:
        return None
    mi = num(m["m"]) if m["m"] else _glued_value(m["mg"], "מ")
    if mi is None or not 0 < mi <= 40 or not 0 < chapter <= mishnah[1]:
        return None
    return m.end(), Ref(mishnah[0], (str(chapter), str(mi)))


@lru_cache(maxsize=4096)
def _glued_value(token: str | None, prefix: str, markers: str = "") -> int | None:
    got = parse_prefixed_numeral(token or "", prefix, markers=markers)
    return got[1] if got else None


# ---------------------------------------------------------------- Mishneh Torah
_CHAPTER = rf"(?:פרק{SP}+(?P<c>{NUM})|(?P<cg>{glued('פ', 'רס')}))"
_HALACHA = rf"(?:הלכה{SP}+(?P<h>{NUM})|(?P<hg>{glued('ה')}))"
_RAMBAM_NUMS = re.compile(rf"{SP}*,?{SP}*(?:{_CHAPTER})?{SP}*,?{SP}*(?:{_HALACHA}{END})?")
_CHAPTER_BEFORE = re.compile(rf"{SP}*,?{SP}*{_CHAPTER}{SP}+(?=מ?הל)")
_HILCHOT = re.compile(rf"{SP}*,?{SP}*(?:ב|מ)?(?:הלכות|הל{G}){SP}*")
_WORD = re.compile(rf"{SP}*\(?([{L}\"'\u05f3\u05f4]+)\)?")


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
            chapter = num(before["c"]) if before["c"] else _glued_value(before["cg"], "פ", "רס")
            pos = before.end()
        h = _HILCHOT.match(text, pos)
        if h:
            pos = h.end()
    got = hilchot_name(cat, text, pos)
    if not got:
        return None
    end, index = got
    m = _RAMBAM_NUMS.match(text, end)
    if m and (m["c"] or m["cg"]):
        if chapter is not None:
            return None
        chapter = num(m["c"]) if m["c"] else _glued_value(m["cg"], "פ", "רס")
    if chapter is None or not 0 < chapter <= 30:
        return None
    if m and (m["h"] or m["hg"]):
        hal = num(m["h"]) if m["h"] else _glued_value(m["hg"], "ה")
        if hal is None or not 0 < hal <= 50:
            return None
        return m.end(), Ref(index, (str(chapter), str(hal)))
    if m and (m["c"] or m["cg"]):
        end = m.end("c") if m["c"] else m.end("cg")
    return end, Ref(index, (str(chapter),))


def parse_rambam_ibid(text: str, pos: int, prev: Ref) -> Parsed | None:
    """``שם ה"ג`` / ``שם פ"ה ה"ב`` after a Mishneh Torah citation."""
    m = _RAMBAM_NUMS.match(text, pos)
    if not m or not (m["h"] or m["hg"]):
        return None
    if m["c"] or m["cg"]:
        chapter = num(m["c"]) if m["c"] else _glued_value(m["cg"], "פ", "רס")
    else:
        chapter = int(prev.sections[0]) if prev.sections else None
    hal = num(m["h"]) if m["h"] else _glued_value(m["hg"], "ה")
    if chapter is None or hal is None or not (0 < chapter <= 30 and 0 < hal <= 50):
        return None
    return m.end(), Ref(prev.index, (str(chapter), str(hal)))


# ---------------------------------------------------------------- Shulchan Arukh
_SIMAN = re.compile(
    rf"{SP}*,?{SP}*(?P<op>\({SP}*)?(?:(?:סימן|סי{G}|ס{G}){SP}*(?P<s>{NUM})"
    rf"|(?P<sg>{glued('ס', 'ר')})|(?P<sc>{NUM})(?={SP}*:))"
    rf"(?:{SP}*,?{SP}*(?:(?:סעיף|סעי{G}){SP}*(?P<f>{NUM})|(?P<fg>{glued('ס')}))"
    rf"|{SP}*:{SP}*(?P<fc>{NUM}))?{END}"
)
_PAREN = re.compile(rf"{SP}*\([^()\n]{{1,25}}\)")
_SA_PART = re.compile(rf"{SP}*([{L}\"'\u05f3\u05f4]+(?:{SP}+[{L}]+)?)")


def parse_siman(text: str, pos: int, part: tuple[str, int]) -> Parsed | None:
    name, simanim = part
    m = _SIMAN.match(text, pos)
    if not m or (m["sc"] and not m["fc"]):  # "קיג:ד": bare numbers only as siman:seif
        return None
    s = num(m["s"] or m["sc"]) if m["s"] or m["sc"] else _glued_value(m["sg"], "ס", "ר")
    if s is None or not 0 < s <= simanim:
        return None
    if m["f"] or m["fg"] or m["fc"]:
        f = num(m["f"] or m["fc"]) if m["f"] or m["fc"] else _glued_value(m["fg"], "ס")
        if f is not None and 0 < f <= 60:
            return _closed(text, m.end(), m["op"]), Ref(name, (str(s), str(f)))
        if m["fc"]:
            return None
    end = m.end("s") if m["s"] else m.end("sg")
    return _closed(text, end, m["op"]), Ref(name, (str(s),))


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
            return parse_siman(text, pos + m.group(0).index(cand) + len(cand), part)
    return None


# ---------------------------------------------------------------- Tanya, Midrash
_TANYA = re.compile(
    rf"{SP}*,?{SP}*(?:(?:פרק|פ{G}){SP}*(?P<c>{NUM})|(?P<cg>{glued('פ', 'רס')})"
    rf"|(?:סימן|סי{G}){SP}*(?P<e>{NUM})|(?P<eg>{glued('ס')})){END}"
)
_NONSPACE = re.compile(r"\S+")
_TANYA_PART = re.compile(rf"{SP}*,?{SP}*([{L}\"'\u05f3\u05f4]+(?:{SP}+[{L}]+){{0,2}})")


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
    name, chapters = part
    m = _TANYA.match(text, pos)
    if not m:
        return None
    if m["e"] or m["eg"]:
        if not name.endswith("Kodesh"):
            return None
        c = num(m["e"]) if m["e"] else _glued_value(m["eg"], "ס")
    else:
        c = num(m["c"]) if m["c"] else _glued_value(m["cg"], "פ", "רס")
    if c is None or not 0 < c <= chapters:
        return None
    return m.end(), Ref(name, (str(c),))


_MIDRASH = re.compile(
    rf"{SP}*,?{SP}*(?:(?:פרשה|פרק|מזמור|פ{G}){SP}*(?P<c>{NUM})|(?P<cg>{glued('פ', 'רס')}))"
    rf"(?:{SP}*,{SP}*(?P<s>{NUM}))?{END}"
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
        end, chapter, section = pair
        if section is None or name in _VERSE_CITED:
            return end, Ref(name, (str(chapter),))
        return end, Ref(name, (str(chapter), str(section)))
    c = num(m["c"]) if m["c"] else _glued_value(m["cg"], "פ", "רס")
    if c is None or not 0 < c <= chapters:
        return None
    if m["s"] and name not in _VERSE_CITED:
        s = num(m["s"])
        if s is None or not 0 < s <= 200:
            return None
        return m.end(), Ref(name, (str(c), str(s)))
    return (m.end("c") if m["c"] else m.end("cg")), Ref(name, (str(c),))


glued_value = _glued_value
