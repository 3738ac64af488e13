"""Find the classical sources a Hebrew text cites and link them to Sefaria, offline.

Asking an LLM for Sefaria links gives invented references, and Sefaria's own linker is a
remote service; this module resolves citations deterministically from bundled title tables
and chapter/verse counts, so links are correct, free and reproducible::

    >>> from libtext.sefaria import find_citations, resolve, ref_url
    >>> [c.ref for c in find_citations('כמ"ש (בראשית כא, לג) ויטע אשל')]
    ['Genesis 21:33']
    >>> resolve('רמב"ם הל\\' תשובה פ"ג ה"ד').normal()
    'Mishneh Torah, Repentance 3:4'
    >>> ref_url("Tanya, Part I; Likkutei Amarim 2")
    'https://www.sefaria.org/Tanya,_Part_I;_Likkutei_Amarim.2'

Covered: Tanakh (books, Chabad abbreviations, Torah verses cited by parsha name), Talmud
Bavli (daf and amud in every common notation), Mishnah, Mishneh Torah, Shulchan Arukh,
Tanya, Midrash Rabbah on the Torah, Rashi/Ramban/Ibn Ezra/Sforno/Or HaChaim on the Torah,
ranges and ``שם`` (ibid). Works cited by printed page (Zohar, Likkutei Torah, Torah Ohr)
are recognised but left unlinked rather than linked wrongly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from libtext._sefaria_data import Catalog, Parsha, catalog, key
from libtext._sefaria_parse import (
    END,
    SP,
    WS,
    G,
    Q,
    Ref,
    parse_bavli,
    parse_ibid_chapter,
    parse_midrash,
    parse_mishnah,
    parse_mishnah_only,
    parse_mishnah_plain,
    parse_parsha,
    parse_rambam,
    parse_rambam_ibid,
    parse_sa_lead,
    parse_siman,
    parse_tanakh,
    parse_tanya,
    parse_verse_only,
    talmud_daf,
)
from libtext.hebrew import parse_prefixed_numeral

__all__ = ["SEFARIA_BASE_URL", "Citation", "Ref", "find_citations", "ref_url", "resolve",
           "translate_citation"]  # fmt: skip

SEFARIA_BASE_URL = "https://www.sefaria.org/"

_PREFIXES = "ובלהמכש"
_CHAR = {'"': Q, "'": G, " ": f"[{WS}\\-\u05be]+"}
_LEAD_ROLES = {"block", "commentator", "sa_lead", "tanya", "rambam", "hilchot", "mishnah_lead"}
_SPACES = re.compile(rf"{SP}*")
_URL_TAIL = re.compile(r"_(?=\d[0-9ab.\-]*$)")
_BLOCK_GAP = re.compile(r"[\s(\[,:]{0,4}")
_COMMENT_LINK = re.compile(rf"{SP}*(?:על{SP}+(?:התורה{SP}+)?|עה{Q}[פת]{SP}+)?")
_IBID_AMUD = re.compile(rf"{SP}*(?:ע{Q}|עמוד{SP}+)([אב]){G}?{END}")
_BREAK = "\n\r\v\f\x1c-\x1e\x85\u2028\u2029"  # what str.splitlines() splits on
_LINE_BREAK = re.compile(f"[{_BREAK}]")
_LINE_END = re.compile(f"[^\\S{_BREAK}]*[{_BREAK}]")


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation found in a text.

    Attributes:
        start: Offset of the first character of the citation in the text.
        end: Offset just past its last character (``text[start:end]`` is the match).
        text: The matched string, e.g. ``'ב"מ פה, ב'``.
        ref: Sefaria's normal reference, e.g. ``"Bava Metzia 85b"``.
        english: English rendering of the reference (Sefaria's English title and numbering).
        url: Link to the passage on Sefaria.
    """

    start: int
    end: int
    text: str
    ref: str
    english: str
    url: str

    def _repr_html_(self) -> str:
        from libtext._html import citations_html

        return citations_html([self])


class Citations(list[Citation]):
    """The list :func:`find_citations` returns; shown as a table in Jupyter."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        from libtext._html import citations_html

        return citations_html(self)


def ref_url(ref: str | Ref, *, bilingual: bool = False) -> str:
    """Sefaria URL of a reference, following Sefaria's ``Ref.url()`` rule.

    Spaces become ``_``, ``:`` becomes ``.``, and the last ``_`` before the section numbers
    becomes ``.``: ``"Mishneh Torah, Repentance 3:4"`` ->
    ``https://www.sefaria.org/Mishneh_Torah,_Repentance.3.4``. ``bilingual`` adds
    ``?lang=bi`` (Hebrew and English side by side).
    """
    path = _url_path(ref.normal() if isinstance(ref, Ref) else str(ref).strip())
    return SEFARIA_BASE_URL + path + ("?lang=bi" if bilingual else "")


@lru_cache(maxsize=4096)
def _url_path(normal: str) -> str:
    return _URL_TAIL.sub(".", normal.replace(" ", "_").replace(":", "."), count=1)


def find_citations(text: str) -> list[Citation]:
    """Every citation in a Hebrew text, in order, with its span, Sefaria ref and URL."""
    out = Citations()  # a list, with a table view in Jupyter
    for s, e, ref in _scan(text):
        normal = ref.normal()
        out.append(Citation(s, e, text[s:e], normal, normal, SEFARIA_BASE_URL + _url_path(normal)))
    return out


def resolve(citation_text: str) -> Ref | None:
    """The Sefaria reference of the (first) citation in ``citation_text``, or ``None``."""
    found = _scan(citation_text)
    return found[0][2] if found else None


_GAP_WORDS = {
    "ראה": "See", "ראו": "See", "עיין": "See", "ע'": "See", "וראה": "and see",
    "ועיין": "and see", "וע'": "and see", "וכן": "and also", "גם": "also", "ו": "and",
}  # fmt: skip
_GAP_TOKEN = re.compile(r"[^\s.,;:()\[\]\-\u2013\u2014]+|[\s.,;:()\[\]\-\u2013\u2014]+")


def translate_citation(text: str) -> str | None:
    """Render a footnote that consists only of citations in English, deterministically.

    ``'בראשית א, א.'`` -> ``'Genesis 1:1.'``; ``'ראה שבת לא, א; ב"מ פה, ב'`` ->
    ``'See Shabbat 31a; Bava Metzia 85b'``. Returns ``None`` when the text holds anything
    besides citations, punctuation and a few linking words (ראה, עיין, וכן), so a caller
    can fall back to a real translation.
    """
    found = _scan(text)
    if not found:
        return None
    out: list[str] = []
    pos = 0
    for s, e, ref in found:
        gap = _translate_gap(text[pos:s])
        if gap is None:
            return None
        out += [gap, ref.normal()]
        pos = e
    tail = _translate_gap(text[pos:])
    if tail is None:
        return None
    result = "".join([*out, tail]).strip()
    return result[:1].upper() + result[1:]


def _translate_gap(gap: str) -> str | None:
    parts: list[str] = []
    for tok in _GAP_TOKEN.findall(gap):
        if tok[0].isspace() or not tok.strip(" \t\n.,;:()[]-\u2013\u2014"):
            parts.append(re.sub(r"\s+", " ", tok))
        elif key(tok) in _GAP_WORDS:
            parts.append(_GAP_WORDS[key(tok)])
        else:
            return None
    return "".join(parts)


# ---------------------------------------------------------------- scanning


def _trie_regex(tails: dict[str, str]) -> str:
    """One alternation of ``tails``' keys, each followed by its own (zero-width) tail."""
    trie: dict[str, Any] = {}
    for k, tail in tails.items():
        node = trie
        for ch in k:
            node = node.setdefault(ch, {})
        node[""] = tail

    def emit(node: dict[str, Any]) -> str:
        alts = [_CHAR.get(ch, re.escape(ch)) + emit(child) for ch, child in node.items() if ch]
        if "" in node:  # after every longer title: the trie prefers the longest match
            alts.append(node[""])
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return emit(trie)


_BOUNDARY = "[^\\w\"'\u05f3\u05f4]"  # a title never continues a word or a numeral


@cache
def _title_body() -> str:
    """One alternation of every title (a trie, so each position costs one branch)."""
    roles = catalog().roles
    # Titles that must be followed by numbers get a cheap look-ahead for a short word, a
    # word with geresh/gershayim, or digits: most prose words after "שם" or "שבת" fail it.
    # Possessive and atomic groups keep a failing look-ahead from backtracking.
    numbered = sorted(k for k, r in roles.items() if not _LEAD_ROLES & r.keys())
    leads = sorted(k for k, r in roles.items() if _LEAD_ROLES & r.keys())
    ahead = (
        rf"(?={SP}*+[,(]?{SP}*+(?:\d|(?:פרק|פרשה|דף|סימן|עמוד|פסוק|משנה|הלכה){SP}"
        rf"|[\u05d0-\u05ea]{{1,5}}+(?:{Q}|{G})"
        rf"|(?=[\u05d0-\u05ea])(?>(?:[קרשת]{{1,3}}+[יכלמנסעפצ]?|[יכלמנסעפצ])?(?:ט[וז]|[א-ט])?)"
        rf"(?![\u05d0-\u05ea])))"
    )
    # One trie for both kinds (each title carries its own look-ahead), so a position costs
    # one walk instead of two. A trie prefers the longest title, but numbered titles must win
    # over leads (``אבות`` before ``אבות דר"נ``): leads that extend a numbered title, and leads
    # related to those, get a trie of their own, tried last.
    late = {k for k in leads if any(k.startswith(n) for n in numbered)}
    late |= {k for k in leads if any(k.startswith(x) or x.startswith(k) for x in late)}
    main = {k: END + ahead for k in numbered} | {k: END for k in leads if k not in late}
    tries = [_trie_regex(dict(sorted(main.items())))]
    if late:
        tries.append(_trie_regex({k: END for k in sorted(late)}))
    return rf"(?P<pre>[{_PREFIXES}]{{0,2}}?)(?P<t>{'|'.join(tries)})"


@cache
def _master() -> re.Pattern[str]:
    """A title at a given position (``match``), for a title that follows another."""
    return re.compile(rf"(?<![\w\"'\u05f3\u05f4]){_title_body()}")


@cache
def _scanner() -> re.Pattern[str]:
    """The titles of a whole text (``finditer``).

    It consumes the character before a title instead of looking behind: a pattern that
    starts with a character class lets ``re`` skip in C to the next word boundary instead
    of entering the matcher at every position (about a fifth fewer instructions).
    """
    return re.compile(_BOUNDARY + _title_body())


def _scan(text: str) -> list[tuple[int, int, Ref]]:
    """``(start, end, ref)`` of each citation, in order."""
    # A leading space gives a title at offset 0 the boundary character the scanner wants;
    # offsets are shifted back at the end.
    text = " " + text
    cat = catalog()
    cache = _ROLE_CACHE
    out: list[tuple[int, int, Ref]] = []
    prev: _Hit | None = None
    pos = 0
    blocked_to = -1
    for m in _scanner().finditer(text):
        start = m.start("pre")
        if start < pos:
            continue
        title = m["t"]
        entry = cache.get(title) or _roles(cat, title)
        if not entry[0]:
            continue
        got = _parse(cat, text, m, entry, prev)
        if start <= blocked_to:  # "לקו"ת (במדבר יג, א)": a page of the blocking work
            blocked_to = -1
            if isinstance(got, _Hit):
                pos, prev = got.end, None
                continue
        if got is None:
            continue
        if isinstance(got, int):  # a blocker: the next citation belongs to that work
            blocked_to = _BLOCK_GAP.match(text, got).end()  # type: ignore[union-attr]
            pos, prev = got, None
            continue
        begin = start if got.start is None else got.start
        if _own_lines(text, begin, got.end):
            continue
        out.append((begin - 1, got.end - 1, got.ref))
        prev = got
        pos = got.end
    return out


def _own_lines(text: str, start: int, end: int) -> bool:
    """True for a citation broken over lines that it fills alone: a heading or running header
    (``ליקוטי אמרים`` over ``פרק א``), not a reference wrapped in the middle of a sentence."""
    if not _LINE_BREAK.search(text, start, end) or not _LINE_END.match(text, end):
        return False
    i = start - 1
    while i > 0 and text[i].isspace() and not _LINE_BREAK.match(text, i):
        i -= 1
    return i > 0 and bool(_LINE_BREAK.match(text, i))


_MIDDLE_ROLES = ("sa_lead", "sa_part", "tanya", "tanya_part", "rambam", "hilchot", "midrash")
_Roles = tuple[dict[str, Any], tuple[str, ...]]  # roles, and which of _MIDDLE_ROLES it has
_ROLE_CACHE: dict[str, _Roles] = {}


def _roles(cat: Catalog, title: str) -> _Roles:
    """Roles of a matched title (memoised: the same few spellings recur all through a text)."""
    if len(_ROLE_CACHE) > 10_000:
        _ROLE_CACHE.clear()
    roles = cat.roles.get(key(title)) or {}
    entry = _ROLE_CACHE[title] = (roles, tuple(r for r in _MIDDLE_ROLES if r in roles))
    return entry


@dataclass(slots=True)
class _Hit:
    end: int
    ref: Ref
    kind: str
    data: Any
    start: int | None = None  # when the citation begins before its title (פ"ח מהל' ...)


Result = _Hit | int | None


def _parse(
    cat: Catalog,
    text: str,
    m: re.Match[str],
    entry: _Roles,
    prev: _Hit | None,
) -> Result:
    roles, middle = entry
    start, pos, pre = m.start("pre"), m.end(), m["pre"]
    if "block" in roles:
        return pos
    if "ibid" in roles:
        if pre not in ("", "ו") or prev is None:
            return None
        return _parse_ibid(cat, text, pos, start, prev)
    if "commentator" in roles:
        return _parse_commentary(cat, text, pos, roles["commentator"])
    if "mishnah_lead" in roles:
        nxt = _master().match(text, _SPACES.match(text, pos).end())  # type: ignore[union-attr]
        tr = cat.roles.get(key(nxt["t"]), {}).get("tractate") if nxt else None
        if nxt is None or tr is None or nxt["pre"]:
            return None
        got = parse_mishnah_plain(text, nxt.end(), start, tr["mishnah"])
        return _Hit(got[0], got[1], "mishnah", tr["mishnah"]) if got else None
    before, chapter = start, None
    for role in middle:
        value = roles[role]
        got = None
        if role == "sa_lead":
            got = parse_sa_lead(cat, text, pos)
        elif role == "sa_part":
            got = parse_siman(text, pos, value)
        elif role in ("tanya", "tanya_part"):
            got = parse_tanya(cat, text, pos, None if role == "tanya" else value)
        elif role == "rambam":
            got = parse_rambam(cat, text, pos, role)
        elif role == "hilchot":
            before, chapter = _chapter_before(text, start)
            got = parse_rambam(cat, text, pos, role, chapter)
            if not got and chapter is not None:
                got = parse_rambam(cat, text, pos, role)
                chapter = None
        elif role == "midrash":
            got = parse_midrash(text, pos, start, value)
        if got:
            hit = _Hit(got[0], got[1], _kind(got[1]), _book_data(cat, got[1].index, value))
            if (
                role == "hilchot"
                and chapter is not None
                and hit.ref.sections[:1] == (str(chapter),)
            ):
                hit.start = before
            return hit
        if role == "sa_lead" or (role == "rambam" and "tractate" not in roles):
            return None
    if "tractate" in roles:
        tr = roles["tractate"]
        got = parse_mishnah(text, pos, tr["mishnah"], tr["bavli"] is None)
        if not got and tr["bavli"] is None:  # "אבות ג, א": no Bavli to confuse it with
            got = parse_mishnah_plain(text, pos, start, tr["mishnah"], pair_only=True)
        if got:
            return _Hit(got[0], got[1], "mishnah", tr["mishnah"])
        if tr["bavli"]:
            got = parse_bavli(text, pos, start, tr["bavli"])
            if got:
                return _Hit(got[0], got[1], "bavli", tr["bavli"])
    if "tanakh" in roles:
        got = parse_tanakh(cat, text, pos, start, roles["tanakh"])
        if got:
            return _Hit(got[0], got[1], "tanakh", roles["tanakh"])
    if "parsha" in roles:
        parsha: Parsha = roles["parsha"]
        got = parse_parsha(cat, text, pos, start, parsha)
        if got:
            return _Hit(got[0], got[1], "tanakh", parsha.book)
    return None


def _book_data(cat: Catalog, index: str, value: Any) -> Any:
    """(index, count) of the book a lead word resolved to, for a later ``שם``."""
    return _parts_by_index().get(index, value)


@cache
def _parts_by_index() -> dict[str, tuple[str, int]]:
    cat = catalog()
    tables = (cat.tanya_parts, cat.sa_parts)
    return {entry[0]: entry for table in tables for entry in table.values()}


def _kind(ref: Ref) -> str:
    if ref.index.startswith("Mishneh Torah"):
        return "rambam"
    if ref.index.startswith("Shulchan Arukh"):
        return "sa"
    if ref.index.startswith("Tanya"):
        return "tanya"
    return "midrash"


_CHAPTER_BEFORE_HILCHOT = re.compile(
    rf"(?<![\u05d0-\u05ea])([רס]?פ[\u05d0-\u05ea]{{0,3}}{Q}[\u05d0-\u05ea]){SP}+מ$"
)


def _chapter_before(text: str, start: int) -> tuple[int, int | None]:
    """``פ"ח מהל' תרומות``: the chapter written before the section name, and where it starts."""
    m = _CHAPTER_BEFORE_HILCHOT.search(text, max(0, start - 12), start + 1)
    if not m:
        return start, None
    got = parse_prefixed_numeral(m[1], "פ", markers="רס")
    return (m.start(), got[1]) if got else (start, None)


def _parse_commentary(cat: Catalog, text: str, pos: int, value: tuple[str, bool]) -> Result:
    name, torah_only = value
    link = _COMMENT_LINK.match(text, pos)
    p = link.end() if link else pos
    m = _master().match(text, p)
    roles = cat.roles.get(key(m["t"])) if m and not m["pre"] else None
    if m and roles:
        got = None
        if "tanakh" in roles:
            got = parse_tanakh(cat, text, m.end(), m.start(), roles["tanakh"])
        if not got and "parsha" in roles:
            got = parse_parsha(cat, text, m.end(), m.start(), roles["parsha"])
        if got:
            book = got[1].index
            torah = book in ("Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy")
            if torah or not torah_only:
                ref = Ref(f"{name} on {book}", got[1].sections, got[1].to_sections)
                return _Hit(got[0], ref, "commentary", book)
    return pos  # a commentary we cannot number: block what follows


def _parse_ibid(cat: Catalog, text: str, pos: int, start: int, prev: _Hit) -> Result:
    """``שם`` (ibid): the previous citation's book with new numbers."""
    kind, data = prev.kind, prev.data
    got: tuple[int, Ref] | None = None
    if kind == "tanakh":  # not "שם ה'" (the divine name) as a chapter
        got = parse_tanakh(cat, text, pos, start, data, chapter_only=False)
        if not got and len(prev.ref.sections) == 2:  # "שם פסוק ה": the same chapter
            got = parse_verse_only(cat, text, pos, data, int(prev.ref.sections[0]))
        if not got:
            got = parse_ibid_chapter(cat, text, pos, start, data)
    elif kind == "bavli":
        amud = _IBID_AMUD.match(text, pos)
        if amud and prev.ref.sections:
            daf = prev.ref.sections[0][:-1]
            got = amud.end(), Ref(data[0], (daf + ("a" if amud[1] == "א" else "b"),))
        elif talmud_daf(text, pos, start):
            got = parse_bavli(text, pos, start, data)
    elif kind == "mishnah":
        got = parse_mishnah(text, pos, data, True)
        if not got and len(prev.ref.sections) == 2:  # "ושם מ"ג": the same chapter
            got = parse_mishnah_only(text, pos, data, int(prev.ref.sections[0]))
    elif kind == "rambam":
        got = parse_rambam_ibid(text, pos, prev.ref)
    elif kind == "sa":
        got = parse_siman(text, pos, data)
    elif kind == "tanya":
        got = parse_tanya(cat, text, pos, data)
    elif kind == "midrash":
        got = parse_midrash(text, pos, start, data)
    if not got:
        return None
    return _Hit(got[0], got[1], kind, data)
