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
Bavli (daf and amud in every common notation), Yerushalmi, Mishnah, Mishneh Torah, Shulchan
Arukh, Mishnah Berurah, Tanya, Midrash Rabbah on the Torah, Rashi/Ramban/Ibn Ezra/Sforno/Or
HaChaim on the Torah, Sefaria's own Hebrew forms, ranges and ``שם`` (ibid). Works cited by
printed page (Zohar, Likkutei Torah, Torah Ohr) are recognised but left unlinked rather than
linked wrongly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, NamedTuple

from libtext.hebrew import parse_prefixed_numeral
from libtext.sefaria._chapters import (
    TitleMatch,
    numbers_follow,
    parse_chapter_after,
    parse_chapter_lead,
    parse_daf_first,
    parse_yerushalmi,
    whole_work,
)
from libtext.sefaria._data import TORAH_NODES, ZOHAR_TITLES, Catalog, Parsha, catalog, key
from libtext.sefaria._parse import (
    GERESH,
    GERSHAYIM,
    NUMERAL,
    SPACE,
    SPACE_CHARS,
    WORD_END,
    Ref,
    glued_value,
    hilchot_name,
    num,
    parse_bavli,
    parse_ibid_chapter,
    parse_ibid_verse,
    parse_katan_only,
    parse_midrash,
    parse_mishnah,
    parse_mishnah_only,
    parse_mishnah_plain,
    parse_parsha,
    parse_rambam,
    parse_rambam_ibid,
    parse_sa_lead,
    parse_seif_katan,
    parse_seif_only,
    parse_siman,
    parse_tanakh,
    parse_tanya,
    parse_verse_only,
    slot_setters,
    talmud_daf,
    tanakh_numbers,
)
from libtext.sefaria._scope import (
    Scope,
    list_gap,
    owns,
    scope_end,
    zohar_page,
    zohar_volume,
)

__all__ = ["SEFARIA_BASE_URL", "Citation", "Ref", "find_citations", "ref_url", "resolve",
           "translate_citation"]  # fmt: skip

SEFARIA_BASE_URL = "https://www.sefaria.org/"

_PREFIXES = "ובלהמכש"
_AFTER_TITLE_PREFIXES = _PREFIXES + "ד"  # "פ"ג דנדה": ד (of) only where a chapter precedes
_CHAR = {'"': GERSHAYIM, "'": GERESH, " ": f"[{SPACE_CHARS}\\-\u05be]+"}
_LEAD_ROLES = {
    "block", "context_ibid", "commentator", "sa_lead", "tanya", "rambam", "hilchot", "mishnah_lead",
    "yerushalmi", "daf_lead", "work_lead", "chapter_lead", "tosefta",
}  # fmt: skip
_TITLE_ONLY_ROLES = {"tractate", "tanakh", "parsha"}  # may follow a chapter or a work word
_SPACES = re.compile(rf"{SPACE}*+")
_COMMA_GAP = re.compile(rf"{SPACE}*+,?{SPACE}*+")
_URL_TAIL = re.compile(r"_(?=\d[0-9ab.\-]*$)")
# what may stand between a blocking work and its page: brackets, and the portion it is on
# ("לקו"ת פ' ויקרא ב, א": Likkutei Torah's page on Vayikra, not Leviticus 2:1)
_BLOCK_GAP = re.compile(rf"[\s(\[,:]{{0,4}}(?:(?:פרשת|פ{GERESH}){SPACE}*+)?")
_COMMENT_LINK = re.compile(
    rf"{SPACE}*+(?:על{SPACE}++(?:התורה{SPACE}++)?|עה{GERSHAYIM}[פת]{SPACE}++)?"
)
_IBID_AMUD = re.compile(rf"{SPACE}*+(?:ע{GERSHAYIM}|עמוד{SPACE}++)([אב]){GERESH}?{WORD_END}")
_BREAK = "\n\r\v\f\x1c-\x1e\x85\u2028\u2029"  # what str.splitlines() splits on
_LINE_BREAK = re.compile(f"[{_BREAK}]")
_LINE_END = re.compile(f"[^\\S{_BREAK}]*[{_BREAK}]")


@dataclass(frozen=True, slots=True, init=False)
class Citation:
    """One citation found in a text.

    Attributes:
        start: Offset of the first character of the citation in the text.
        end: Offset just past its last character (``text[start:end]`` is the match).
        text: The matched string, e.g. ``'ב"מ פה, ב'``.
        ref: Sefaria's normal reference, e.g. ``"Bava Metzia 85b"``.
        english: English rendering of the reference (Sefaria's English title and numbering).
        url: Link to the passage on Sefaria.
        confidence: How sure the linker is that this is a citation of ``ref`` (0-1):
            ``1.0`` when the numbers are marked as numbers (geresh/gershayim, ``פרק``, ``דף``,
            a comma, parentheses), ``0.9`` for a chapter or ``שם`` (ibid), ``0.7`` for bare
            letters outside parentheses (``ירמיה י``), ``0.5`` for a work named without
            numbers (``בספר בראשית``). Callers choose their own threshold.
        kind: ``"full"`` (a passage), ``"chapter"`` (a whole chapter, e.g. a Bavli chapter's
            daf range), ``"book"`` (a book, tractate, section or Torah portion named without
            numbers) or ``"ibid"`` (``שם``: the previous citation's work with new numbers).
        exact: ``True`` when ``ref`` is exactly the place cited; ``False`` for a coarse link.
    """

    start: int
    end: int
    text: str
    ref: str
    english: str
    url: str
    confidence: float = 1.0
    kind: str = "full"
    exact: bool = True

    def __init__(
        self,
        start: int,
        end: int,
        text: str,
        ref: str,
        english: str,
        url: str,
        confidence: float = 1.0,
        kind: str = "full",
        exact: bool = True,
    ) -> None:
        # The slots' own setters (see Ref.__init__): one Citation per citation found.
        (
            set_start,
            set_end,
            set_text,
            set_ref,
            set_english,
            set_url,
            set_conf,
            set_kind,
            set_exact,
        ) = _SET_CITATION
        set_start(self, start)
        set_end(self, end)
        set_text(self, text)
        set_ref(self, ref)
        set_english(self, english)
        set_url(self, url)
        set_conf(self, confidence)
        set_kind(self, kind)
        set_exact(self, exact)

    def _repr_html_(self) -> str:
        from libtext._html import citations_html

        return citations_html([self])


_SET_CITATION = slot_setters(
    Citation, ("start", "end", "text", "ref", "english", "url", "confidence", "kind", "exact")
)


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
    for start, end, ref, kind, confidence, exact in _scan(text):
        normal = ref.normal()
        url = SEFARIA_BASE_URL + _url_path(normal)
        out.append(
            Citation(start, end, text[start:end], normal, normal, url, confidence, kind, exact)
        )
    return out


def resolve(citation_text: str) -> Ref | None:
    """The Sefaria reference of the (first) citation in ``citation_text``, or ``None``."""
    found = _scan(citation_text)
    return found[0].ref if found else None


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
    found = [f for f in _scan(text) if f.kind != "book"]  # "בספר בראשית" is more than "Genesis"
    if not found:
        return None
    out: list[str] = []
    pos = 0
    for f in found:
        gap = _translate_gap(text[pos : f.start])
        if gap is None:
            return None
        out += [gap, f.ref.normal()]
        pos = f.end
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


# A title never continues a word or a numeral. The word characters are spelled out as
# ranges (Latin, Greek, Cyrillic, Hebrew and its presentation forms, digits): a range is a
# table test, ``\\w`` a Unicode category look-up at every character the scanner skips.
_WORD_CHARS = "0-9A-Za-z_\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u05d0-\u05ea\ufb1d-\ufb4f"
_BOUNDARY = f"[^{_WORD_CHARS}\"'\u05f3\u05f4]"


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
        rf"(?={SPACE}*+[,(]?{SPACE}*+(?:\d|(?:פרק|פרשה|דף|סימן|סעיף|עמוד|פסוק|משנה|הלכה){SPACE}"
        rf"|[\u05d0-\u05ea]{{1,5}}+(?:{GERSHAYIM}|{GERESH})"
        rf"|(?=[\u05d0-\u05ea])(?>(?:[קרשת]{{1,3}}+[יכלמנסעפצ]?|[יכלמנסעפצ])?(?:ט[וז]|[א-ט])?)"
        rf"(?![\u05d0-\u05ea])))"
    )
    # One trie for both kinds (each title carries its own look-ahead), so a position costs
    # one walk instead of two. A trie prefers the longest title, but numbered titles must win
    # over leads (``אבות`` before ``אבות דר"נ``): leads that extend a numbered title, and leads
    # related to those, get a trie of their own, tried last.
    # A Torah portion is cited only as "name chapter, verse" (``וירא כא, לג``): its look-ahead
    # wants the separator too, so the prose words ``בא``, ``ראה``, ``נח`` before a short word
    # stop in the expression. ``דף``/``סימן`` after a citation (context ibid) want a numeral.
    pair = (
        rf"(?={SPACE}*+,?{SPACE}*+\(?{SPACE}*+(?:פרק{SPACE}++)?"
        rf"(?:\d{{1,3}}+|[\u05d0-\u05ea]{{1,4}}+(?:{GERSHAYIM}[\u05d0-\u05ea]|{GERESH})?)"
        rf"(?:{SPACE}*+[,:]|\.[\u05d0-\u05ea]|{SPACE}++פסוק))"
    )
    tails = {k: WORD_END + (pair if roles[k].keys() == {"parsha"} else ahead) for k in numbered}
    tails |= {k: WORD_END + ahead for k in leads if roles[k].keys() == {"context_ibid"}}
    late = {k for k in leads if any(k.startswith(n) for n in numbered)}
    late |= {k for k in leads if any(k.startswith(x) or x.startswith(k) for x in late)}
    main = {k: tails.get(k, WORD_END) for k in [*numbered, *leads] if k not in late}
    tries = [_trie_regex(dict(sorted(main.items())))]
    if late:
        tries.append(_trie_regex({k: WORD_END for k in sorted(late)}))
    return rf"(?P<prefix>[{_PREFIXES}]{{0,2}}?)(?P<title>{'|'.join(tries)})"


@cache
def _bare_title() -> re.Pattern[str]:
    """Any title at a position, numbers or not (after ``פ"ג ד``, ``במסכת``)."""
    cat = catalog()
    keys = {
        k: WORD_END
        for k, r in cat.roles.items()
        if _TITLE_ONLY_ROLES & r.keys() and k not in cat.glued_of
    }
    trie = _trie_regex(dict(sorted(keys.items())))
    pre = _AFTER_TITLE_PREFIXES
    return re.compile(rf"(?<![\w\"'\u05f3\u05f4])(?P<prefix>[{pre}]{{0,2}}?)(?P<title>{trie})")


def _title_at(text: str, p: int) -> TitleMatch | None:
    m = _bare_title().match(text, p)
    if m is None:
        return None
    roles = catalog().roles.get(key(m["title"])) or {}
    return TitleMatch(m.start("prefix"), m["prefix"], m.end(), roles)


_POINTS = re.compile("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")


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


class _Found(NamedTuple):
    """A citation before it becomes a :class:`Citation`."""

    start: int
    end: int
    ref: Ref
    kind: str  # Citation.kind
    confidence: float
    exact: bool  # Citation.exact


_found = _Found._make  # tuple.__new__ in C, not the NamedTuple's Python __new__


def _scan(text: str) -> list[_Found]:
    """``(start, end, ref, kind, confidence)`` of each citation, in order.

    Pointed text (nikud, cantillation) is matched with the marks removed; offsets are mapped
    back, so ``text[start:end]`` is still the citation as written.
    """
    if not _POINTS.search(text):
        return _scan_plain(text)
    kept = [i for i, ch in enumerate(text) if not _POINTS.match(ch)]
    found = _scan_plain("".join(text[i] for i in kept))
    return [f._replace(start=kept[f.start], end=kept[f.end - 1] + 1) for f in found]


def _scan_plain(text: str) -> list[_Found]:
    # A leading space gives a title at offset 0 the boundary character the scanner wants;
    # offsets are shifted back at the end.
    text = " " + text
    cat = catalog()
    cache = _ROLE_CACHE
    out: list[_Found] = []
    prev: _Hit | None = None
    pos = 0
    blocked_to = -1
    scope: Scope | None = None  # the list a blocking work's name opened (see _scope)
    line_break, marks = _LINE_BREAK.search, _MARKS.search  # bound once: they run per citation
    for m in _scanner().finditer(text):
        start = m.start("prefix")
        if start < pos:
            continue
        title = m["title"]
        entry = cache.get(title) or _roles(cat, title)
        if not entry[0]:
            continue
        if scope is not None:
            listed = start < scope.end and (
                start <= blocked_to or list_gap(text, scope.owned_to, start)
            )
            if listed and owns(cat, entry[0], title, scope):
                # "זהר ויגש רי, א. ויקרא כ, ב": the next page of the Zohar, not Leviticus
                out += _owned_item(cat, text, m, entry[0], scope)
                pos, prev, blocked_to = scope.owned_to, None, -1
                continue
            if not listed:
                scope = None
        got = _parse_match(cat, text, m, entry, prev)
        if got is None:  # ("פ'" in "לקו"ת פ' ויקרא" reads as nothing: the block holds)
            continue
        if start <= blocked_to:  # "לקו"ת (במדבר יג, א)": a page of the blocking work
            blocked_to = -1
            if isinstance(got, _Hit):
                pos, prev = got.end, None
                if scope is not None:
                    scope.owned_to = got.end
                continue
        if isinstance(got, int):  # a blocker: the next citation belongs to that work
            blocked_to = _block_gap(text, got, title)
            pos, prev = got, None
            outer = scope  # "זהר (רע"מ) ויקרא": a part of the work named in its list
            scope = Scope(blocked_to, scope_end(text, start, got), key(title) in ZOHAR_TITLES)
            if outer is not None:
                scope.end, scope.zohar = max(scope.end, outer.end), scope.zohar or outer.zohar
            if scope.zohar:  # "זח"א דף פג:", "זהר ח"ב קיד, א": a page of a volume
                out += _zohar_volume_page(cat, text, start, got, title, scope)
                if scope.owned_to > blocked_to:
                    pos, blocked_to = scope.owned_to, -1
            continue
        scope = None
        begin = start if got.start is None else got.start
        end = got.end
        if line_break(text, begin, end) and _own_lines(text, begin, end):
            continue
        numbers = begin if got.start is not None or "chapter_lead" in entry[0] else m.end()
        if not _sound(text, m.end(), end):
            continue
        conf = got.conf
        if (
            got.shape != "book"
            and not marks(text, numbers, end)
            and not _bracketed(text, numbers, end)
        ):
            conf = _BARE[conf]  # numbers written as bare letters
        # "דברי הימים א ט"ו:ט"ו - דברי הימים א ט"ז:י"ז": one range, the title repeated
        if out and prev is not None and begin - out[-1].end <= _MERGE_GAP:
            merged = _merge(text, out[-1], begin, got)
            if merged is not None:
                out[-1], prev, pos = merged, got, end
                continue
        shape = got.shape
        if shape == "full" and len(got.ref.sections) == 1 and got.ref.sections[0][-1] not in "ab":
            shape = "chapter"  # "תהלים קי"ט", "תניא פל"ב": a whole chapter (not a daf)
        exact = got.exact
        if (
            exact
            and shape == "chapter"
            and (
                _EDGE.search(text, begin, end)
                or _EDGE_BEFORE.search(text, max(0, begin - 9), begin)
            )
        ):
            exact = False  # "ר"פ ט"ז דשבת", "ספ"ג": the beginning or end of the chapter cited
        if exact and shape == "chapter" and got.kind == "tanakh":
            verse = _VERSE_ITEM.match(text, end)  # "ירמי' ט. יא. יב.": verses of that chapter
            exact = not (verse and num(verse[1]))
        out.append(_found((begin - 1, got.end - 1, got.ref, shape, conf, exact)))
        prev = got
        pos = got.end
        if got.kind in _CONTINUED and text[pos : pos + 1] in _CONTINUE_MARKS:
            while (more := _continuation(cat, text, prev)) is not None:
                first = (more.start or 1) - 1  # _continuation always sets its start
                out.append(_found((first, more.end - 1, more.ref, "ibid", more.conf, more.exact)))
                prev = more
                pos = more.end
    return out


# The beginning or end of a chapter or siman: "ר"פ", "רפ"ג", "ספ"ג", "ס"ס", "ססי'", "סוף פרק".
_EDGE = re.compile(
    rf"(?<![\u05d0-\u05ea])[ובדלמ]{{0,2}}(?:[רס]פ[\u05d0-\u05ea]{{0,2}}{GERSHAYIM}[\u05d0-\u05ea]|[רס]{GERSHAYIM}[פס]"
    rf"|[רס]סי{GERESH}|סו{GERSHAYIM}[פס]|(?:ריש|סוף|בריש|בסוף|תחילת|בתחילת|בתחלת){SPACE}+(?:פרק|סימן))"
)
_VERSE_ITEM = re.compile(rf"\.{SPACE}*([\u05d0-\u05ea]{{1,3}}){SPACE}*[.;]")
_EDGE_BEFORE = re.compile(rf"(?<![\u05d0-\u05ea])[ו]?(?:ב?תחילת|ב?תחלת|ב?סוף|ב?ריש){SPACE}+$")
_MIDRASH_WORDS = frozenset({"מדרש", "מדרשי"})
_NAME_WORD = re.compile(rf"{SPACE}+[\u05d0-\u05ea\"']{{2,}}")


def _block_gap(text: str, end: int, title: str) -> int:
    """Where the first item of a blocking work may start: after brackets and the word for
    its portion (``לקו"ת פ' ויקרא``); after ``מדרש``, after up to two words of the
    midrash's name (``מדרש אגדה בראשית``, ``מדרש משלי``: the midrash, not the book)."""
    gap = _BLOCK_GAP.match(text, end).end()  # type: ignore[union-attr]
    if key(title) not in _MIDRASH_WORDS:
        return gap
    p = end
    for _ in range(2):
        w = _NAME_WORD.match(text, p)
        if w is None:
            break
        p = w.end()
        nxt = _master().match(text, _SPACES.match(text, p).end())  # type: ignore[union-attr]
        if nxt and _roles(catalog(), nxt["title"])[0].keys() & {"tanakh", "parsha"}:
            return nxt.start()
    return gap


def _zohar_volume_page(
    cat: Catalog, text: str, start: int, end: int, title: str, scope: Scope
) -> list[_Found]:
    """``זח"א דף פג:``, ``זהר ח"ב קיד, א``: a Vilna page of a volume, linked to the Zohar's
    parasha that holds it (coarse)."""
    p, volume = zohar_volume(text, end, ZOHAR_TITLES.get(key(title)))
    if volume is None:
        intro = _ZOHAR_INTRO.match(text, end)
        if intro is None:
            return []
        scope.owned_to = intro.end()
        return _zohar_pages(cat, text, intro.start("word"), intro.end(), 0, scope)
    scope.volume = volume
    node = None
    named = _title_at(text, _SPACES.match(text, p).end())  # type: ignore[union-attr]
    parsha = named.roles.get("parsha") if named and not named.prefix else None
    if named and parsha is not None and parsha in cat.zohar_of_parsha:
        # "זוה"ק ח"א לך לך סתרי תורה דף פ.": the parasha, a section's name, then the page
        node, p = cat.zohar_of_parsha[parsha], named.end
        words = _SECTION_WORDS.match(text, p)
        p = words.end() if words else p
    page = zohar_page(cat, text, p, p, volume, node)
    if page is None:
        return []
    scope.owned_to = page[0]
    if page[1] is None:
        return []
    scope.node = _node_of(cat, page[1])
    return [_found((start - 1, page[0] - 1, page[1], "chapter", 0.9, False))]


_SECTION_WORDS = re.compile(
    rf"(?:{SPACE}+\(?[\u05d0-\u05ea\"']{{2,}}\)?){{0,3}}?{SPACE}*(?=(?:דף|ד{GERESH}){SPACE})"
)


def _node_of(cat: Catalog, ref: Ref) -> int | None:
    name = ref.index.removeprefix("Zohar, ")
    return next((i for i, z in enumerate(cat.zohar) if z[0] == name), None)


def _owned_item(
    cat: Catalog, text: str, m: re.Match[str], roles: dict[str, Any], scope: Scope
) -> list[_Found]:
    """An item of a blocking work's list (``ויקרא כ, ב`` after a Zohar page): never the
    Tanakh's. In the Zohar, its page is linked to the parasha that holds it (coarse), and
    the bare pages after it (``ויקרא ד, א. ז, ב``) too."""
    begin, p = m.start("prefix"), m.end()
    if not scope.zohar:
        daf = talmud_daf(text, p, begin)
        scope.owned_to = daf.end if daf else p
        return []
    if "parsha" in roles:
        node = cat.zohar_of_parsha.get(roles["parsha"])
    elif "ibid" in roles:
        node = scope.node
    else:  # "בהקדמה": the Zohar's introduction
        node = 0
    scope.owned_to = p
    return _zohar_pages(cat, text, begin, p, node, scope)


def _zohar_pages(
    cat: Catalog, text: str, begin: int, p: int, node: int | None, scope: Scope
) -> list[_Found]:
    """The pages of one Zohar parasha from ``p`` on: ``ד, א. ז, ב``."""
    out: list[_Found] = []
    while node is not None:
        page = zohar_page(cat, text, p, begin, None, node)
        if page is None or page[1] is None:
            scope.owned_to = page[0] if page else scope.owned_to
            break
        out.append(_found((begin - 1, page[0] - 1, page[1], "chapter", 0.9, False)))
        scope.owned_to = page[0]
        scope.node = node
        more = _ZOHAR_NEXT.match(text, page[0])
        if more is None or more.end() >= scope.end:
            break
        begin = p = more.end()
    return out


_ZOHAR_NEXT = re.compile(
    rf"{SPACE}*[.;]{SPACE}*(?=[\u05d0-\u05ea](?:[\u05d0-\u05ea]{{0,2}}|{GERSHAYIM}[\u05d0-\u05ea]){SPACE}*[,.:])"
)
_ZOHAR_INTRO = re.compile(rf"{SPACE}*(?P<word>ב?הקדמה)(?![\u05d0-\u05ea])")
_LEADERS = re.compile(r"(?:\.[^\S\n]*){3,}|\u2026")
# (Only whether one exists is asked: from each break to the next, so it stays linear.)
_DIGIT_ON_NEXT_LINE = re.compile(f"[{_BREAK}][^\\d{_BREAK}]*+\\d")


def _sound(text: str, numbers: int, end: int) -> bool:
    """False for numbers that cannot be the citation's: an Arabic number on another line
    or after dot leaders (a table of contents: ``קבלת שבת ⏎ 12``), and letters a bracket
    splits from the rest of their word (``(ושבת ו)מועדי``: a bracket inside a word)."""
    if _LEADERS.search(text, numbers, end):
        return False
    if _DIGIT_ON_NEXT_LINE.search(text, numbers, end):
        return False
    after = text[end : end + 2]
    if after[:1] in (")", "]") and "\u05d0" <= after[1:2] <= "\u05ea":
        return False
    return not (text[end - 1 : end] in (")", "]") and "\u05d0" <= text[end : end + 1] <= "\u05ea")


_CONTINUED = frozenset({"tanakh", "bavli", "midrash", "tanya", "rambam"})
_CONTINUE_MARKS = frozenset(".;")
_CONTINUE_GAP = re.compile(rf"[.;]{SPACE}*+(?=[\u05d0-\u05ea])")
_CHAPTER_ITEM = re.compile(
    rf"(?:פרק{SPACE}|פרשה{SPACE}|[רס]?פ[\u05d0-\u05ea]{{0,2}}{GERSHAYIM}[\u05d0-\u05ea])"
)
_CONTINUE_END = re.compile(rf"{SPACE}*(?:\Z|[.;\])\n\r])")


def _continuation(cat: Catalog, text: str, prev: _Hit) -> _Hit | None:
    """``יחזקאל א, טז. י, י.``: in a list of references, a chapter-and-verse (or daf-and-amud)
    pair right after a citation, with only ``.``/``;`` between, cites the same book. Only a
    full pair that ends its clause: ``ראה לעיל ו, ב`` has words between, ``(קמט, ב)`` is
    bracketed (a page of the edition)."""
    gap = _CONTINUE_GAP.match(text, prev.end)
    if gap is None:
        return None
    p = gap.end()
    if prev.kind == "tanakh":
        got = tanakh_numbers(text, p, p)
        if got is None or got.verse is None or got.separator != ",":
            return None
        found = parse_tanakh(cat, text, p, p, prev.data, chapter_only=False)
    elif prev.kind in ("midrash", "tanya", "rambam"):
        # "ב"ר פי"ז, ה. פמ"ד, יז.": the next chapter of the same work, its chapter marked
        if not _CHAPTER_ITEM.match(text, p):
            return None
        if prev.kind == "midrash":
            found = parse_midrash(text, p, p, prev.data)
        elif prev.kind == "tanya":
            found = parse_tanya(cat, text, p, prev.data)
        else:
            found = parse_rambam_ibid(text, p, prev.ref)
    else:
        daf = talmud_daf(text, p, p)
        if daf is None or daf.amud is None or daf.by_period:
            return None
        found = parse_bavli(text, p, p, prev.data)
    if found is None or not _CONTINUE_END.match(text, found[0]):
        return None
    return _Hit(found[0], found[1], prev.kind, prev.data, start=p, shape="ibid", conf=0.9)


_BARE = {1.0: 0.7, 0.9: 0.6, 0.5: 0.5}  # confidence when the numbers are bare letters
# Punctuation or a word that marks numbers as numbers (``פרק יג``, ``כא, לג``, ``ל"ב``).
_PUNCTUATION_MARKS = r"[\d,:.;()\[\]\"'\u05f3\u05f4\u201d\u2019]"
_MARKS = re.compile(
    rf"{_PUNCTUATION_MARKS}|(?:דף|פרק|פסוק|פסוקים|סימן|סעיף|עמוד|הלכה|משנה|פרשה){SPACE}"
)
_PUNCTUATION = re.compile(_PUNCTUATION_MARKS)
_MERGE_GAP = 6  # at most " - " and spaces between the two halves of a range
_RANGE_GAP = re.compile(rf"{SPACE}*+[-\u2013\u2014\u05be]{SPACE}*+")


def _bracketed(text: str, begin: int, end: int) -> bool:
    """A citation in brackets: its numbers are numbers even when written as bare letters."""
    return text[begin - 1 : begin] in ("(", "[") or text[end : end + 1] in (")", "]")


def _merge(text: str, last: _Found, begin: int, hit: _Hit) -> _Found | None:
    """``דברי הימים א ט"ו:ט"ו - דברי הימים א ט"ז:י"ז``: one range with the title repeated."""
    ref, new = last.ref, hit.ref
    if (
        begin - last.end > _MERGE_GAP  # most citations: not right after the last one
        or new.index != ref.index
        or ref.to_sections
        or new.to_sections
        or len(new.sections) != len(ref.sections)
        or not ref.sections
        or not _RANGE_GAP.fullmatch(text, last.end + 1, begin)
        or _order(new.sections) <= _order(ref.sections)
    ):
        return None
    confidence = min(last.confidence, hit.conf)
    return last._replace(end=hit.end - 1, ref=Ref(ref.index, ref.sections, new.sections),
                         confidence=confidence)  # fmt: skip


def _order(sections: tuple[str, ...]) -> tuple[tuple[int, str], ...]:
    out = []
    for part in sections:
        digits = part.rstrip("ab")
        out.append((int(digits) if digits.isdigit() else 0, part[len(digits) :]))
    return tuple(out)


def _own_lines(text: str, start: int, end: int) -> bool:
    """True for a citation broken over lines that it fills alone: a heading or running header
    (``ליקוטי אמרים`` over ``פרק א``), not a reference wrapped in the middle of a sentence."""
    if not _LINE_BREAK.search(text, start, end) or not _LINE_END.match(text, end):
        return False
    i = start - 1
    while i > 0 and text[i].isspace() and not _LINE_BREAK.match(text, i):
        i -= 1
    return i > 0 and bool(_LINE_BREAK.match(text, i))


_MIDDLE_ROLES = (
    "sa_lead", "sa_part", "seif_katan", "tanya", "tanya_part", "rambam", "hilchot", "midrash",
)  # fmt: skip
# Roles that decide alone how a title is read, in the order they take precedence.
_DECIDING_ROLES = (
    "block", "ibid", "context_ibid", "commentator", "chapter_lead", "work_lead", "yerushalmi",
    "tosefta", "daf_lead", "mishnah_lead",
)  # fmt: skip
# roles, which of _MIDDLE_ROLES it has, and its deciding role (if any)
_Roles = tuple[dict[str, Any], tuple[str, ...], str | None]
_ROLE_CACHE: dict[str, _Roles] = {}


def _roles(cat: Catalog, title: str) -> _Roles:
    """Roles of a matched title (memoised: the same few spellings recur all through a text)."""
    if len(_ROLE_CACHE) > 10_000:
        _ROLE_CACHE.clear()
    roles = cat.roles.get(key(title)) or {}
    middle = tuple(r for r in _MIDDLE_ROLES if r in roles)
    deciding = next((r for r in _DECIDING_ROLES if r in roles), None)
    entry = _ROLE_CACHE[title] = (roles, middle, deciding)
    return entry


@dataclass(slots=True)
class _Hit:
    end: int
    ref: Ref
    kind: str
    data: Any
    start: int | None = None  # when the citation begins before its title (פ"ח מהל' ...)
    shape: str = "full"  # Citation.kind: full, chapter, book, ibid
    conf: float = 1.0  # before the bare-numbers factor
    exact: bool = True  # Citation.exact


Result = _Hit | int | None


def _parse_match(
    cat: Catalog,
    text: str,
    m: re.Match[str],
    entry: _Roles,
    prev: _Hit | None,
) -> Result:
    roles, middle, deciding = entry
    if deciding is not None:
        return _parse_deciding(cat, text, m, roles, deciding, prev)
    return _parse_numbered(cat, text, m, roles, middle)


def _parse_deciding(
    cat: Catalog,
    text: str,
    m: re.Match[str],
    roles: dict[str, Any],
    deciding: str,
    prev: _Hit | None,
) -> Result:
    """A title whose role alone says how to read it: a lead word, ``שם``, a blocker."""
    start, pos, pre = m.start("prefix"), m.end(), m["prefix"]
    if deciding == "block":
        return pos
    if deciding == "ibid":
        if pre not in ("", "ו") or prev is None or _owned(cat, text, start, prev.end):
            return None  # "ד"ח שם": ibid of the work just named, not of the last citation
        return _parse_ibid(cat, text, pos, start, prev)
    if deciding == "context_ibid":
        return _parse_context_ibid(text, m.start("title"), start, roles["context_ibid"], prev)
    if deciding == "commentator":
        dh = key(m["title"]).endswith('ד"ה')
        return _parse_commentary(cat, text, pos, roles["commentator"], dh)
    if deciding == "chapter_lead":
        chapter = parse_chapter_lead(cat, text, pos, roles["chapter_lead"], _title_at)
        if chapter is None:
            return None
        end, ref, shape = chapter
        return _Hit(end, ref, "chapter", None, shape=shape, conf=0.9 if shape == "chapter" else 1)
    if deciding == "work_lead":
        return _parse_work(cat, text, pos, start, roles["work_lead"], prev)
    if deciding in ("yerushalmi", "tosefta"):
        found = parse_yerushalmi(
            text,
            pos,
            _title_at,
            glued_value,
            _tractate_of(cat, prev),
            tosefta=deciding == "tosefta",
        )
        if found is None:
            return _past_tractate(text, pos)  # not the Bavli tractate that follows
        end, ref, shape, exact = found
        conf = 0.9 if shape != "full" else 1
        return _Hit(end, ref, "yerushalmi", None, shape=shape, conf=conf, exact=exact)
    if deciding == "daf_lead":
        got = parse_daf_first(text, pos, start, _title_at)
        return _Hit(got[0], got[1], "bavli", None) if got else None
    # "mishnah_lead": משנה, then the tractate
    after = _COMMA_GAP.match(text, pos).end()  # type: ignore[union-attr]
    nxt = _master().match(text, after)  # "משנה ברכות", "משנה, ברכות" (Sefaria's form)
    tr = cat.roles.get(key(nxt["title"]), {}).get("tractate") if nxt else None
    if nxt is None or tr is None or nxt["prefix"]:
        return None
    got = parse_mishnah_plain(text, nxt.end(), start, tr["mishnah"])
    return _Hit(got[0], got[1], "mishnah", tr["mishnah"]) if got else None


_WORD_AHEAD = re.compile(rf"{SPACE}+(?=[^{SPACE_CHARS}])")
_ONE_WORD = re.compile(rf"[^{SPACE_CHARS},.;:()\[\]]+")


def _past_tractate(text: str, pos: int) -> int:
    """A Yerushalmi the linker cannot number blocks a tractate named a few words on
    (``ירושלמי, הובא בר"ן, ברכות ...``): that tractate is the Yerushalmi's, not the Bavli's."""
    p = pos
    for _ in range(4):
        gap = _WORD_AHEAD.match(text, p)
        if gap is None:
            break
        found = _title_at(text, gap.end())
        if found is not None and "tractate" in found.roles:
            return found.end
        word = _ONE_WORD.match(text, gap.end())
        if word is None:
            break
        p = word.end()
    return pos


def _tractate_of(cat: Catalog, prev: _Hit | None) -> dict[str, Any] | None:
    """The tractate the last citation was of (for ``ירושלמי שם``)."""
    if prev is None or prev.kind not in ("bavli", "mishnah") or not prev.data:
        return None
    return _tractates().get(prev.data[0])


@cache
def _tractates() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for roles in catalog().roles.values():
        tr = roles.get("tractate")
        if tr:
            out.setdefault(tr["mishnah"][0], tr)
            if tr["bavli"]:
                out.setdefault(tr["bavli"][0], tr)
    return out


def _parse_numbered(
    cat: Catalog, text: str, m: re.Match[str], roles: dict[str, Any], middle: tuple[str, ...]
) -> Result:
    """A title followed by its numbers: a book, tractate, section or part."""
    start, pos, pre = m.start("prefix"), m.end(), m["prefix"]
    before, chapter = start, None
    code = (middle and middle[0] in _CODE_ROLES) or (not middle and "tractate" in roles)
    if code and _ON_BEFORE.search(text, max(0, start - 4), start):
        # "הגר"ח על הרמב"ם הל' ...", "תוס' ר"י הזקן על קידושין ה ע"ב": a commentary on the
        # code or tractate, at its address
        return pos
    for role in middle:
        value = roles[role]
        got = None
        if role == "sa_lead":
            got = parse_sa_lead(cat, text, pos)
        elif role == "sa_part":  # a siman alone after the full name: Sefaria's form
            got = parse_siman(text, pos, value, alone=" " in m["title"])
        elif role == "seif_katan":
            got = parse_seif_katan(text, pos, value)
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
            if not got:  # "בהלכות אישות": the section, named without numbers
                name = hilchot_name(cat, text, pos) if key(m["title"]) == "הלכות" else None
                if name and not numbers_follow(text, name[0]) and not _owned(cat, text, start):
                    return _Hit(name[0], Ref(name[1]), "rambam", None, shape="book", conf=0.5)
        elif role == "midrash" and "ה" not in pre:  # "המדרש תהלים": "the midrash", Psalms
            got = parse_midrash(text, pos, start, value)
        if got:
            hit = _Hit(got[0], got[1], _kind(got[1]), _book_data(cat, got[1].index, value))
            if role == "midrash" and len(got[1].sections) == 1 and _VERSE_AFTER.match(text, pos):
                hit.exact = False  # "מדרש תהלים קד, יח": the mizmor; Sefaria has no verse
            if (
                role == "hilchot"
                and chapter is not None
                and hit.ref.sections[:1] == (str(chapter),)
            ):
                hit.start = before
            return hit
        if role == "sa_lead":
            # "בשו"ע שלו בהלכות ת"ת": the Alter Rebbe's Shulchan Arukh, not the Rambam's
            own = _OWN_HILCHOT.match(text, pos)
            return own.end() if own else None
        if role == "rambam" and "tractate" not in roles:
            return None
    if "tractate" in roles:
        tr = roles["tractate"]
        got = parse_mishnah(text, pos, tr["mishnah"], tr["bavli"] is None)
        if not got and tr["bavli"] is None:  # "אבות ג, א": no Bavli to confuse it with
            got = parse_mishnah_plain(text, pos, start, tr["mishnah"], pair_only=True)
        if got:
            return _Hit(got[0], got[1], "mishnah", tr["mishnah"])
        if tr["bavli"]:
            got = parse_bavli(text, pos, start, tr["bavli"], commentary=True)
            if got and " on " in got[1].index:  # "תד"ה טלית" after the daf: Tosafot's amud
                if got[1].index not in cat.indexes:
                    return got[0]  # (Sefaria has no Tosafot on Tamid): the commentary's
                return _Hit(got[0], got[1], "commentary", None, exact=False)
            if got:
                return _Hit(got[0], got[1], "bavli", tr["bavli"])
            got = None
            if pre in ("", "ו", "ד"):  # "בשבת פרק כב" is as likely prose
                got = parse_chapter_after(cat, tr, parse_mishnah(text, pos, tr["mishnah"], True))
            if got:  # "נדה פ"ג": the Bavli chapter's daf range
                return _Hit(got[0], got[1], "bavli", tr["bavli"], shape="chapter", conf=0.9)
    portion = "parsha" in roles and _PORTION_BEFORE.search(text, max(0, start - 8), start)
    if "tanakh" in roles and not portion:  # "פ' שופטים": the portion, not the book Judges
        got = parse_tanakh(cat, text, pos, start, roles["tanakh"])
        title = m["title"]
        if got and ('"' in title or "\u05f4" in title or "''" in title) and _OPEN.match(text, pos):
            return None  # "ש"א (יד, ב)": a short abbreviation before page numbers (שער א)
        if (
            got
            and not _VERSE_SEP.search(text, pos, got[0])
            and _PORTION_BEFORE.search(text, max(0, start - 8), start)
        ):
            return None  # "פ' ויקרא ד' ח'": a portion of a work cited by page (Zohar)
        if got:
            return _Hit(got[0], got[1], "tanakh", roles["tanakh"])
    if "parsha" in roles:
        parsha: Parsha = roles["parsha"]
        got = parse_parsha(cat, text, pos, start, parsha)
        if got:
            return _Hit(got[0], got[1], "tanakh", parsha.book)
    return None


# A second number after a midrash's chapter: "קד, יח", "פרק כג, א", "כ״ג:א׳".
_VERSE_AFTER = re.compile(
    rf"{SPACE}*(?:(?:פרשה|פרק|מזמור){SPACE}*)?[^{SPACE_CHARS},:]+{SPACE}*[,:]{SPACE}*[\u05d0-\u05ea\d]"
)


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
    if ref.index == "Mishnah Berurah":
        return "seif_katan"
    return "midrash"


_CODE_ROLES = frozenset({"rambam", "sa_lead"})
_ON_BEFORE = re.compile(rf"(?<![\u05d0-\u05ea])על{SPACE}+\(?$")
# After "שו"ע" with no part of the Shulchan Arukh: up to three words (שלו, הרב, אדה"ז),
# then a section of laws: the code of the one named (Shulchan Arukh HaRav), by section.
_OWN_HILCHOT = re.compile(
    rf"(?:{SPACE}+\(?[\u05d0-\u05ea\"'\u05f3\u05f4]+\)?){{0,3}}?{SPACE}+\(?"
    rf"(?:[רס]?פ[\u05d0-\u05ea]{{0,2}}{GERSHAYIM}[\u05d0-\u05ea]{SPACE}+)?[במ]?(?:הלכות|הל{GERESH})"
    rf"(?![\u05d0-\u05ea])"
)
_CHAPTER_BEFORE_HILCHOT = re.compile(
    rf"(?<![\u05d0-\u05ea])([רס]?פ[\u05d0-\u05ea]{{0,3}}{GERSHAYIM}[\u05d0-\u05ea]){SPACE}++מ$"
)


def _chapter_before(text: str, start: int) -> tuple[int, int | None]:
    """``פ"ח מהל' תרומות``: the chapter written before the section name, and where it starts."""
    m = _CHAPTER_BEFORE_HILCHOT.search(text, max(0, start - 12), start + 1)
    if not m:
        return start, None
    got = parse_prefixed_numeral(m[1], "פ", markers="רס")
    return (m.start(), got[1]) if got else (start, None)


_DH_WORDS = re.compile(rf"{SPACE}*+(?:ב?ד{GERSHAYIM}ה|בד{GERSHAYIM}ה){SPACE}++")
_NEXT_WORD = re.compile(rf"[^{SPACE_CHARS}]+{SPACE}++")
_TORAH = ("Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy")


def _commented_title(text: str, p: int, dh: bool) -> re.Match[str] | None:
    """The title a commentary is on: right after it, or after its ``ד"ה`` (opening words);
    ``dh``: the lead itself ends in ``ד"ה`` (``תוד"ה``)."""
    words = _DH_WORDS.match(text, p)
    if not dh and not words:
        return _master().match(text, p)
    p = words.end() if words else p
    for _ in range(6):
        w = _NEXT_WORD.match(text, p)
        if w is None:
            return None
        p = w.end()
        m = _master().match(text, p)
        if m and "tractate" in (catalog().roles.get(key(m["title"])) or {}):
            return m
    return None


def _parse_commentary(
    cat: Catalog, text: str, pos: int, value: tuple[str, str, bool], dh: bool
) -> Result:
    """``רש"י בראשית א, א``, ``רש"י על ברכות ב:``, ``תוס' ד"ה אחת מנחות עח, א``."""
    name, tanakh, on_bavli = value
    link = _COMMENT_LINK.match(text, pos)
    p = link.end() if link else pos
    dh = dh or bool(_DH_WORDS.match(text, p))  # cited by its opening words: a coarse link
    m = _commented_title(text, p, dh)
    roles = cat.roles.get(key(m["title"])) if m and not m["prefix"] else None
    if m and roles:
        got = None
        if "tanakh" in roles and tanakh:
            got = parse_tanakh(cat, text, m.end(), m.start(), roles["tanakh"])
        if not got and "parsha" in roles and tanakh:
            got = parse_parsha(cat, text, m.end(), m.start(), roles["parsha"])
        if got:
            book = got[1].index
            if tanakh == "all" or book in _TORAH:
                end, sections, to = got[0], got[1].sections, got[1].to_sections
                comment = _comment_number(text, m.end(), end) if len(sections) == 2 else None
                if comment and not to:  # "א׳:א׳:א׳": its first comment there
                    end, sections = comment[0], (*sections, str(comment[1]))
                    last = _COMMENT_RANGE.match(text, end)  # "א׳:א׳:ב׳-ג׳": comments 2 to 3
                    upto = num(last["last"]) if last else None
                    if last and upto and comment[1] < upto <= 60:
                        end, to = last.end(), (*sections[:2], str(upto))
                index = name.format(TORAH_NODES[book]) if "{" in name else f"{name} on {book}"
                if index.split(",")[0] not in cat.indexes:
                    return p  # no such index on Sefaria: no link, and not the verse
                ref = Ref(index, sections, to)
                return _Hit(end, ref, "commentary", book, exact=not dh)
        tr = roles.get("tractate")
        if on_bavli and tr and tr["bavli"]:
            got = parse_bavli(text, m.end(), m.start(), tr["bavli"])
            if got and f"{name} on {tr['bavli'][0]}" in cat.indexes:
                ref = Ref(f"{name} on {tr['bavli'][0]}", got[1].sections, got[1].to_sections)
                return _Hit(got[0], ref, "commentary", tr["bavli"], exact=not dh)
    return p  # a commentary we cannot number: block what follows


_COMMENT_RANGE = re.compile(
    rf"{SPACE}*[-\u2013\u05be]{SPACE}*(?P<last>{NUMERAL}){WORD_END}(?!{SPACE}*:)"
)
_COMMENT_NUMBER = re.compile(rf"{SPACE}*+:{SPACE}*+({NUMERAL}){WORD_END}")


def _comment_number(text: str, begin: int, end: int) -> tuple[int, int] | None:
    """The third number of Sefaria's form (``רש״י על בראשית א׳:א׳:א׳``): the comment on that
    verse. Only after a verse written with a colon, where the colon says it is Sefaria's."""
    if ":" not in text[begin:end]:
        return None
    m = _COMMENT_NUMBER.match(text, end)
    value = num(m[1]) if m else None
    return (m.end(), value) if m and value and value <= 60 else None


_OPEN = re.compile(rf"{SPACE}*+\(")
_PORTION_BEFORE = re.compile(rf"(?<![\u05d0-\u05ea])[ובד]?(?:פ{GERESH}|פרשת){SPACE}*+$")
_VERSE_SEP = re.compile(r"[,:]")
# A section named after these is the section of that work, not of the Torah or Rambam:
# "בר"מ פרשת פנחס" (Ra'aya Meheimna), "המ"א הלכות תענית" (Magen Avraham).
_OWNER_WORD = re.compile(rf"([^{SPACE_CHARS}\[(]+){SPACE}*+$")


def _owned(cat: Catalog, text: str, start: int, after: int = 0) -> bool:
    """True when the word before ``start`` is an abbreviated work name (gershayim), other than
    the words that introduce a citation (כמ"ש, ע"ש ...)."""
    m = _OWNER_WORD.search(text, max(0, start - 20, after), start)
    if m is None:
        return False
    word = key(m[1])
    return '"' in word and word not in _INTRO_WORDS and word[1:] not in _INTRO_WORDS


_INTRO_WORDS = {
    'כמ"ש',
    'מ"ש',
    'כמש"נ',
    'ע"ש',
    'עיי"ש',
    'כנ"ל',
    'הנ"ל',
    'ז"ל',
    'חז"ל',
    'רז"ל',
    'עד"ז',
    'כ"ה',
    'כ"כ',
    'וש"נ',
    'ש"נ',
    'ע"פ',
    'עה"פ',
    'כמשנ"ת',
    'ע"ד',
    'כו"כ',
    'ד"ה',
}  # fmt: skip  (words that introduce a citation, not a work's name)


def _parse_work(
    cat: Catalog, text: str, pos: int, start: int, want: str, prev: _Hit | None
) -> Result:
    """``בספר בראשית``, ``במסכת תמיד``, ``בפרשת בהעלותך``: the work named after a word that
    says what kind of work it is; with numbers a full citation, without them the whole work."""
    p = _SPACES.match(text, pos).end()  # type: ignore[union-attr]
    title = _title_at(text, p)
    if title is None or title.prefix or want not in title.roles:
        return None
    inner = _master().match(text, p)
    if inner is not None and not inner["prefix"]:
        entry = _roles(cat, inner["title"])
        if want == "parsha":  # "פרשת שופטים טז, יח": the portion, not the book Judges
            entry = ({"parsha": title.roles["parsha"]}, (), None)
        got = _parse_match(cat, text, inner, entry, prev)
        if isinstance(got, _Hit):
            got.start = start if got.start is None else got.start
            return got
    if numbers_follow(text, title.end) or _owned(cat, text, start):
        return None  # numbers we could not read, or a section of another work
    value = title.roles[want]
    ref = whole_work(want, value)
    if want == "tractate":
        kind, data = ("bavli", value["bavli"]) if value["bavli"] else ("mishnah", value["mishnah"])
    else:
        kind, data = "tanakh", value if want == "tanakh" else value.book
    return _Hit(title.end, ref, kind, data, start=start, shape="book", conf=0.5)


_BREAK_OR_WORK = re.compile(
    rf"[{_BREAK}]|(?<![\u05d0-\u05ea])[\u05d0-\u05ea]{{2,}}[\"\u05f4][\u05d0-\u05ea]"
)


def _parse_context_ibid(text: str, p: int, start: int, kind: str, prev: _Hit | None) -> Result:
    """``דף כ``, ``סימן תצ"ג`` in a run of citations: the previous citation's tractate or
    Shulchan Arukh part, when nothing between them names another work or ends the line."""
    if prev is None or prev.kind != kind or prev.data is None:
        return None
    if start - prev.end > 40 or _BREAK_OR_WORK.search(text, prev.end, start):
        return None
    got = (
        parse_bavli(text, p, start, prev.data)
        if kind == "bavli"
        else parse_siman(text, p, prev.data)
    )
    if got is None or not (
        _CONTEXT_END.match(text, got[0]) or _PUNCTUATION.search(text, p + 3, got[0])
    ):
        return None  # "דף כב זה": prose, unless the numbers are marked or end the clause
    return _Hit(got[0], got[1], kind, prev.data, start=start, shape="ibid", conf=0.9)


_CONTEXT_END = re.compile(rf"{SPACE}*(?:$|[.;)\]\n]|שם(?![\u05d0-\u05ea]))")


def _parse_ibid(cat: Catalog, text: str, pos: int, start: int, prev: _Hit) -> Result:
    """``שם`` (ibid): the previous citation's book with new numbers."""
    kind, data = prev.kind, prev.data
    got: tuple[int, Ref] | None = None
    if kind == "tanakh":  # not "שם ה'" (the divine name) as a chapter
        got = parse_tanakh(cat, text, pos, start, data, chapter_only=False)
        if not got and len(prev.ref.sections) == 2:  # "שם פסוק ה", "שם ה": the same chapter
            chapter = int(prev.ref.sections[0])
            got = parse_verse_only(cat, text, pos, data, chapter)
            got = got or parse_ibid_verse(cat, text, pos, start, data, chapter)
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
        got = parse_seif_only(text, pos, prev.ref) or parse_siman(text, pos, data)
    elif kind == "tanya":
        got = parse_tanya(cat, text, pos, data)
    elif kind == "seif_katan":
        got = parse_seif_katan(text, pos, data)
        if not got and prev.ref.sections:  # "ושם סק"ה": the same siman
            got = parse_katan_only(text, pos, data[0], prev.ref.sections[0])
    elif kind == "midrash":
        got = parse_midrash(text, pos, start, data)
    if not got:
        return None
    return _Hit(got[0], got[1], kind, data, shape="ibid", conf=0.9)
