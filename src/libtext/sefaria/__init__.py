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
from functools import lru_cache

from libtext.sefaria._data import ZOHAR_TITLES, catalog, key
from libtext.sefaria._hits import Found, Hit, make_found
from libtext.sefaria._ibid import CONTINUE_MARKS, CONTINUED, continuation
from libtext.sefaria._match import parse_match
from libtext.sefaria._parse import (
    BREAK,
    GERESH,
    GERSHAYIM,
    PUNCTUATION_MARKS,
    SPACE,
    Ref,
    num,
    slot_setters,
)
from libtext.sefaria._scope import (
    Scope,
    block_gap,
    list_gap,
    owned_item,
    owns,
    scope_end,
    zohar_volume_page,
)
from libtext.sefaria._titles import ROLE_CACHE, scanner, title_roles

__all__ = ["SEFARIA_BASE_URL", "Citation", "Ref", "find_citations", "ref_url", "resolve",
           "translate_citation"]  # fmt: skip

SEFARIA_BASE_URL = "https://www.sefaria.org/"

_URL_TAIL = re.compile(r"_(?=\d[0-9ab.\-]*$)")
_LINE_BREAK = re.compile(f"[{BREAK}]")
_LINE_END = re.compile(f"[^\\S{BREAK}]*[{BREAK}]")


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

# The scan is here; what it asks is in the modules below it: the titles' patterns and roles
# (_titles), the reading of a title's numbers (_match, with _ibid and _commentary), the list
# a work's name opens and the Zohar's pages (_scope), the locator grammars (_parse, _chapters).
_POINTS = re.compile("[\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]")


def _scan(text: str) -> list[Found]:
    """``(start, end, ref, kind, confidence)`` of each citation, in order.

    Pointed text (nikud, cantillation) is matched with the marks removed; offsets are mapped
    back, so ``text[start:end]`` is still the citation as written.
    """
    if not _POINTS.search(text):
        return _scan_plain(text)
    kept = [i for i, ch in enumerate(text) if not _POINTS.match(ch)]
    found = _scan_plain("".join(text[i] for i in kept))
    return [f._replace(start=kept[f.start], end=kept[f.end - 1] + 1) for f in found]


def _scan_plain(text: str) -> list[Found]:
    # A leading space gives a title at offset 0 the boundary character the scanner wants;
    # offsets are shifted back at the end.
    text = " " + text
    cat = catalog()
    cache = ROLE_CACHE
    out: list[Found] = []
    prev: Hit | None = None
    pos = 0
    blocked_to = -1
    scope: Scope | None = None  # the list a blocking work's name opened (see _scope)
    line_break, marks = _LINE_BREAK.search, _MARKS.search  # bound once: they run per citation
    for m in scanner().finditer(text):
        start = m.start("prefix")
        if start < pos:
            continue
        title = m["title"]
        entry = cache.get(title) or title_roles(cat, title)
        if not entry[0]:
            continue
        if scope is not None:
            listed = start < scope.end and (
                start <= blocked_to or list_gap(text, scope.owned_to, start)
            )
            if listed and owns(cat, entry[0], title, scope):
                # "זהר ויגש רי, א. ויקרא כ, ב": the next page of the Zohar, not Leviticus
                out += owned_item(cat, text, m, entry[0], scope)
                pos, prev, blocked_to = scope.owned_to, None, -1
                continue
            if not listed:
                scope = None
        got = parse_match(cat, text, m, entry, prev)
        if got is None:  # ("פ'" in "לקו"ת פ' ויקרא" reads as nothing: the block holds)
            continue
        if start <= blocked_to:  # "לקו"ת (במדבר יג, א)": a page of the blocking work
            blocked_to = -1
            if isinstance(got, Hit):
                pos, prev = got.end, None
                if scope is not None:
                    scope.owned_to = got.end
                continue
        if isinstance(got, int):  # a blocker: the next citation belongs to that work
            blocked_to = block_gap(text, got, title)
            pos, prev = got, None
            outer = scope  # "זהר (רע"מ) ויקרא": a part of the work named in its list
            scope = Scope(blocked_to, scope_end(text, start, got), key(title) in ZOHAR_TITLES)
            if outer is not None:
                scope.end, scope.zohar = max(scope.end, outer.end), scope.zohar or outer.zohar
            if scope.zohar:  # "זח"א דף פג:", "זהר ח"ב קיד, א": a page of a volume
                out += zohar_volume_page(cat, text, start, got, title, scope)
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
        out.append(make_found((begin - 1, got.end - 1, got.ref, shape, conf, exact)))
        prev = got
        pos = got.end
        if got.kind in CONTINUED and text[pos : pos + 1] in CONTINUE_MARKS:
            while (more := continuation(cat, text, prev)) is not None:
                first = (more.start or 1) - 1  # continuation always sets its start
                out.append(
                    make_found((first, more.end - 1, more.ref, "ibid", more.conf, more.exact))
                )
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


_LEADERS = re.compile(r"(?:\.[^\S\n]*){3,}|\u2026")
# (Only whether one exists is asked: from each break to the next, so it stays linear.)
_DIGIT_ON_NEXT_LINE = re.compile(f"[{BREAK}][^\\d{BREAK}]*+\\d")


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


_BARE = {1.0: 0.7, 0.9: 0.6, 0.5: 0.5}  # confidence when the numbers are bare letters
# Punctuation or a word that marks numbers as numbers (``פרק יג``, ``כא, לג``, ``ל"ב``).
_MARKS = re.compile(
    rf"{PUNCTUATION_MARKS}|(?:דף|פרק|פסוק|פסוקים|סימן|סעיף|עמוד|הלכה|משנה|פרשה){SPACE}"
)
_MERGE_GAP = 6  # at most " - " and spaces between the two halves of a range
_RANGE_GAP = re.compile(rf"{SPACE}*+[-\u2013\u2014\u05be]{SPACE}*+")


def _bracketed(text: str, begin: int, end: int) -> bool:
    """A citation in brackets: its numbers are numbers even when written as bare letters."""
    return text[begin - 1 : begin] in ("(", "[") or text[end : end + 1] in (")", "]")


def _merge(text: str, last: Found, begin: int, hit: Hit) -> Found | None:
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
