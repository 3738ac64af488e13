"""The titles the scanner looks for, as one regular expression, and what a title found means.

Every title of the catalog (``_data``) goes into one trie-shaped alternation, built at first
use: a position in the text costs one walk of the trie, not one test per title. Each title
carries its own look-ahead (a numbered title wants numbers after it), so most prose words that
look like a title (``שם``, ``שבת``) fail inside the expression. :func:`title_roles` gives the
roles of a spelling found, memoised.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from libtext.sefaria._chapters import TitleMatch
from libtext.sefaria._data import Catalog, catalog, key
from libtext.sefaria._parse import GERESH, GERSHAYIM, SPACE, SPACE_CHARS, WORD_END

_PREFIXES = "ובלהמכש"
_AFTER_TITLE_PREFIXES = _PREFIXES + "ד"  # "פ"ג דנדה": ד (of) only where a chapter precedes
_CHAR = {'"': GERSHAYIM, "'": GERESH, " ": f"[{SPACE_CHARS}\\-\u05be]+"}
_LEAD_ROLES = {
    "block", "context_ibid", "commentator", "sa_lead", "tanya", "rambam", "hilchot", "mishnah_lead",
    "yerushalmi", "daf_lead", "work_lead", "chapter_lead", "tosefta",
}  # fmt: skip
_TITLE_ONLY_ROLES = {"tractate", "tanakh", "parsha"}  # may follow a chapter or a work word


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


def title_at(text: str, p: int) -> TitleMatch | None:
    m = _bare_title().match(text, p)
    if m is None:
        return None
    roles = catalog().roles.get(key(m["title"])) or {}
    return TitleMatch(m.start("prefix"), m["prefix"], m.end(), roles)


@cache
def master() -> re.Pattern[str]:
    """A title at a given position (``match``), for a title that follows another."""
    return re.compile(rf"(?<![\w\"'\u05f3\u05f4]){_title_body()}")


@cache
def scanner() -> re.Pattern[str]:
    """The titles of a whole text (``finditer``).

    It consumes the character before a title instead of looking behind: a pattern that
    starts with a character class lets ``re`` skip in C to the next word boundary instead
    of entering the matcher at every position (about a fifth fewer instructions).
    """
    return re.compile(_BOUNDARY + _title_body())


_MIDDLE_ROLES = (
    "sa_lead", "sa_part", "seif_katan", "tanya", "tanya_part", "rambam", "hilchot", "midrash",
)  # fmt: skip
# Roles that decide alone how a title is read, in the order they take precedence.
_DECIDING_ROLES = (
    "block", "ibid", "context_ibid", "commentator", "chapter_lead", "work_lead", "yerushalmi",
    "tosefta", "daf_lead", "mishnah_lead",
)  # fmt: skip
# roles, which of _MIDDLE_ROLES it has, and its deciding role (if any)
Roles = tuple[dict[str, Any], tuple[str, ...], str | None]
ROLE_CACHE: dict[str, Roles] = {}


def title_roles(cat: Catalog, title: str) -> Roles:
    """Roles of a matched title (memoised: the same few spellings recur all through a text)."""
    if len(ROLE_CACHE) > 10_000:
        ROLE_CACHE.clear()
    roles = cat.roles.get(key(title)) or {}
    middle = tuple(r for r in _MIDDLE_ROLES if r in roles)
    deciding = next((r for r in _DECIDING_ROLES if r in roles), None)
    entry = ROLE_CACHE[title] = (roles, middle, deciding)
    return entry
