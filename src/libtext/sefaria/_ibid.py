"""Citations that take their work from the one before: ``שם`` (ibid), a bare ``דף``/``סימן``
in a run of citations (context ibid), and the next pair of a list (``יחזקאל א, טז. י, י.``).
"""

from __future__ import annotations

import re

from libtext.sefaria._data import Catalog
from libtext.sefaria._hits import Hit, Result
from libtext.sefaria._parse import (
    BREAK,
    GERESH,
    GERSHAYIM,
    PUNCTUATION_MARKS,
    SPACE,
    WORD_END,
    Ref,
    parse_bavli,
    parse_ibid_chapter,
    parse_ibid_verse,
    parse_katan_only,
    parse_midrash,
    parse_mishnah,
    parse_mishnah_only,
    parse_rambam_ibid,
    parse_seif_katan,
    parse_seif_only,
    parse_siman,
    parse_tanakh,
    parse_tanya,
    parse_verse_only,
    talmud_daf,
    tanakh_numbers,
)

_IBID_AMUD = re.compile(rf"{SPACE}*+(?:ע{GERSHAYIM}|עמוד{SPACE}++)([אב]){GERESH}?{WORD_END}")
_PUNCTUATION = re.compile(PUNCTUATION_MARKS)


CONTINUED = frozenset({"tanakh", "bavli", "midrash", "tanya", "rambam"})
CONTINUE_MARKS = frozenset(".;")
_CONTINUE_GAP = re.compile(rf"[.;]{SPACE}*+(?=[\u05d0-\u05ea])")
_CHAPTER_ITEM = re.compile(
    rf"(?:פרק{SPACE}|פרשה{SPACE}|[רס]?פ[\u05d0-\u05ea]{{0,2}}{GERSHAYIM}[\u05d0-\u05ea])"
)
_CONTINUE_END = re.compile(rf"{SPACE}*(?:\Z|[.;\])\n\r])")


def continuation(cat: Catalog, text: str, prev: Hit) -> Hit | None:
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
    return Hit(found[0], found[1], prev.kind, prev.data, start=p, shape="ibid", conf=0.9)


_BREAK_OR_WORK = re.compile(
    rf"[{BREAK}]|(?<![\u05d0-\u05ea])[\u05d0-\u05ea]{{2,}}[\"\u05f4][\u05d0-\u05ea]"
)


def parse_context_ibid(text: str, p: int, start: int, kind: str, prev: Hit | None) -> Result:
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
    return Hit(got[0], got[1], kind, prev.data, start=start, shape="ibid", conf=0.9)


_CONTEXT_END = re.compile(rf"{SPACE}*(?:$|[.;)\]\n]|שם(?![\u05d0-\u05ea]))")


def parse_ibid(cat: Catalog, text: str, pos: int, start: int, prev: Hit) -> Result:
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
    return Hit(got[0], got[1], kind, data, shape="ibid", conf=0.9)
