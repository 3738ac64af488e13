"""A commentary cited on its verse or daf: ``רש"י בראשית א, א``, ``רש"י על ברכות ב:``,
``תוס' ד"ה אחת מנחות עח, א`` (by its opening words: a coarse link to the amud).
"""

from __future__ import annotations

import re

from libtext.sefaria._data import TORAH_NODES, Catalog, catalog, key
from libtext.sefaria._hits import Hit, Result
from libtext.sefaria._parse import (
    GERSHAYIM,
    NUMERAL,
    SPACE,
    SPACE_CHARS,
    WORD_END,
    Ref,
    num,
    parse_bavli,
    parse_parsha,
    parse_tanakh,
)
from libtext.sefaria._titles import master

_COMMENT_LINK = re.compile(
    rf"{SPACE}*+(?:על{SPACE}++(?:התורה{SPACE}++)?|עה{GERSHAYIM}[פת]{SPACE}++)?"
)


_DH_WORDS = re.compile(rf"{SPACE}*+(?:ב?ד{GERSHAYIM}ה|בד{GERSHAYIM}ה){SPACE}++")
_NEXT_WORD = re.compile(rf"[^{SPACE_CHARS}]+{SPACE}++")
_TORAH = ("Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy")


def _commented_title(text: str, p: int, dh: bool) -> re.Match[str] | None:
    """The title a commentary is on: right after it, or after its ``ד"ה`` (opening words);
    ``dh``: the lead itself ends in ``ד"ה`` (``תוד"ה``)."""
    words = _DH_WORDS.match(text, p)
    if not dh and not words:
        return master().match(text, p)
    p = words.end() if words else p
    for _ in range(6):
        w = _NEXT_WORD.match(text, p)
        if w is None:
            return None
        p = w.end()
        m = master().match(text, p)
        if m and "tractate" in (catalog().roles.get(key(m["title"])) or {}):
            return m
    return None


def parse_commentary(
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
                return Hit(end, ref, "commentary", book, exact=not dh)
        tr = roles.get("tractate")
        if on_bavli and tr and tr["bavli"]:
            got = parse_bavli(text, m.end(), m.start(), tr["bavli"])
            if got and f"{name} on {tr['bavli'][0]}" in cat.indexes:
                ref = Ref(f"{name} on {tr['bavli'][0]}", got[1].sections, got[1].to_sections)
                return Hit(got[0], ref, "commentary", tr["bavli"], exact=not dh)
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
