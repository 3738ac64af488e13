"""What a work named once covers: the following items of its list, to the end of the note.

Source lists name a work once and then give its items: ``ראה זהר ויגש רי, א. ויקרא כ, ב.``
cites two pages of the Zohar (Vayigash 210a, Vayikra 20b), not Leviticus 20:2. Once a work
the linker does not number by verse (the Zohar, Likkutei Torah, a midrash cited at its
verse ...) is named, a Torah portion or a book that is also a portion's name, ``שם``, or a
page number that follows it in the same list belongs to that work, up to:

* another work's title (``ישעי' א, א`` after a Zohar item is Isaiah again),
* words that are not list items (prose: the list is over),
* the end of the note (a blank line) or the bracket that held the work's name.

A Zohar page of the Vilna edition (``זח"א דף פג:``, ``זהר ויקרא כ, ב``) is linked to
Sefaria's parasha of the Zohar that holds it (``Zohar, Lech Lecha``), a coarse link:
Sefaria's Zohar has no offline page table finer than its parashot
(``data/zohar_parashot.json``). A page on an amud shared by two parashot, outside every
parasha, or outside the parasha the text names, is left unlinked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from libtext.sefaria._data import ZOHAR_TITLES, Catalog, amud_index, catalog, key
from libtext.sefaria._hits import Found, make_found
from libtext.sefaria._parse import GERESH, GERSHAYIM, SPACE, Ref, num, talmud_daf
from libtext.sefaria._titles import master, title_at, title_roles

_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")
_MAX_NOTE = 2000  # a list never runs longer than this
_GAP_TOKEN = re.compile(
    r"\s+|[.,;:\-\u2013\u2014\u05be?]+|\([^()\n]{0,40}\)|\[[^\[\]\n]{0,40}\]"
    r"|[\u05d0-\u05ea\"'\u05f3\u05f4]+|\S"
)
# Words that may stand between the items of a list of pages without ending it.
_LIST_WORDS = frozenset(
    key(w)
    for w in (
        "ואילך", 'וש"נ', "ועוד", "ושם", 'ע"ש', 'עיי"ש', "בהגהה", "ובהגהה", "הובא", "דף",
        'ע"א', 'ע"ב', 'סע"א', 'סע"ב', 'רע"א', 'רע"ב', "ריש", "סוף", 'ח"א', 'ח"ב', 'ח"ג',
        "ע'", "עמ'", "שם", "ג\"כ", "וכן", "גם",
    )
)  # fmt: skip
# Words that name a part of the Zohar rather than a parasha: its introduction.
_ZOHAR_INTRO = frozenset({"הקדמה", "בהקדמה", "ההקדמה", "הקדמת"})
_VOLUME = re.compile(
    rf"{SPACE}*+\(?{SPACE}*+ח{GERSHAYIM}(?P<volume>[אבג]){SPACE}*+\)?{SPACE}*+,?{SPACE}*+"
    rf"(?:(?:דף|ד{GERESH}){SPACE}*+)?"
)


@dataclass(slots=True)
class Scope:
    """The list a work's name opened: where its last item ended and where the note ends."""

    owned_to: int
    end: int
    zohar: bool
    volume: int | None = None  # the Zohar volume named (זח"ב, זהר ח"ב)
    node: int | None = None  # the Zohar parasha of the last item (for שם)


def scope_end(text: str, start: int, after: int) -> int:
    """The end of the note a work named at ``start`` is in: a blank line, or the bracket
    that closes one opened before the name on its line."""
    limit = min(len(text), after + _MAX_NOTE)  # bounded: a text may have no blank line
    blank = _BLANK_LINE.search(text, after, limit)
    end = blank.start() if blank else limit
    line = max(text.rfind("\n", max(0, start - 200), start), start - 200, 0)
    depth = 0
    for ch in text[line:start]:
        depth += ch in "(["
        depth -= ch in ")]" and depth > 0
    if depth:
        level = 0
        for i in range(after, end):
            ch = text[i]
            if ch in "([":
                level += 1
            elif ch in ")]":
                if level == 0:
                    return i
                level -= 1
    return end


def list_gap(text: str, begin: int, end: int) -> bool:
    """True when only list separators, bracketed asides, page numbers and list words
    (``ואילך``, ``וש"נ``) stand between two items: the list goes on."""
    if end - begin > 120:
        return False
    for tok in _GAP_TOKEN.findall(text, begin, end):
        if tok[0].isspace() or tok[0] in "()[].,;:-\u2013\u2014\u05be?":
            continue
        word = key(tok).strip("'\"")
        if key(tok) in _LIST_WORDS or word in _LIST_WORDS:
            continue
        if len(word) <= 4 and num(word) is not None:
            continue
        return False
    return True


def owns(cat: Catalog, roles: dict[str, object], title: str, scope: Scope) -> bool:
    """True when a title in a work's list is an item of that work: a Torah portion (also
    a book that is a portion's name), ``שם``, a siman of a code's commentary, a word for a
    page, or (in the Zohar) its introduction."""
    if roles.keys() & {"parsha", "ibid", "context_ibid", "sa_part"}:
        return True
    return scope.zohar and key(title) in _ZOHAR_INTRO


def zohar_volume(text: str, pos: int, volume: int | None) -> tuple[int, int | None]:
    """After ``זהר``: ``ח"ב`` names the volume (``זהר ח"ב קיד, א``); returns where the
    page begins and the volume (or ``volume`` as given by ``זח"ב``)."""
    m = _VOLUME.match(text, pos)
    if m is None:
        return pos, volume
    return m.end(), "אבג".index(m["volume"]) + 1


def zohar_page(
    cat: Catalog, text: str, pos: int, start: int, volume: int | None, node: int | None
) -> tuple[int, Ref | None] | None:
    """The Vilna page at ``pos`` and the Zohar parasha that holds it: ``(end, ref)``, the
    ref ``None`` when no single parasha holds the page. ``None`` when no page follows."""
    daf = talmud_daf(text, pos, start)
    if daf is None or not 0 < daf.daf < 400:
        return None
    amuds = (f"{daf.daf}a", f"{daf.daf}b") if daf.amud is None else (f"{daf.daf}{daf.amud}",)
    first, last = amud_index(amuds[0]), amud_index(amuds[-1])
    if node is not None:
        nodes = [node] if cat.zohar[node][2] <= first and last <= cat.zohar[node][3] else []
    else:
        nodes = [
            i
            for i, (_, vol, lo, hi) in enumerate(cat.zohar)
            if vol == volume and lo <= last and first <= hi
        ]
        if len(nodes) == 1 and not (
            cat.zohar[nodes[0]][2] <= first and last <= cat.zohar[nodes[0]][3]
        ):
            nodes = []  # a daf whose two amudim lie in two parashot
    if len(nodes) != 1:
        return daf.end, None
    return daf.end, Ref("Zohar, " + cat.zohar[nodes[0]][0])


# ---------------------------------------------------------------- the scan's side
# A blocking work's first item, a page of a Zohar volume, the next item of a list.

_SPACES = re.compile(rf"{SPACE}*+")
# what may stand between a blocking work and its page: brackets, and the portion it is on
# ("לקו"ת פ' ויקרא ב, א": Likkutei Torah's page on Vayikra, not Leviticus 2:1)
_BLOCK_GAP = re.compile(rf"[\s(\[,:]{{0,4}}(?:(?:פרשת|פ{GERESH}){SPACE}*+)?")
_MIDRASH_WORDS = frozenset({"מדרש", "מדרשי"})
_NAME_WORD = re.compile(rf"{SPACE}+[\u05d0-\u05ea\"']{{2,}}")


def block_gap(text: str, end: int, title: str) -> int:
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
        nxt = master().match(text, _SPACES.match(text, p).end())  # type: ignore[union-attr]
        if nxt and title_roles(catalog(), nxt["title"])[0].keys() & {"tanakh", "parsha"}:
            return nxt.start()
    return gap


def zohar_volume_page(
    cat: Catalog, text: str, start: int, end: int, title: str, scope: Scope
) -> list[Found]:
    """``זח"א דף פג:``, ``זהר ח"ב קיד, א``: a Vilna page of a volume, linked to the Zohar's
    parasha that holds it (coarse)."""
    p, volume = zohar_volume(text, end, ZOHAR_TITLES.get(key(title)))
    if volume is None:
        intro = _INTRO_AT.match(text, end)
        if intro is None:
            return []
        scope.owned_to = intro.end()
        return _zohar_pages(cat, text, intro.start("word"), intro.end(), 0, scope)
    scope.volume = volume
    node = None
    named = title_at(text, _SPACES.match(text, p).end())  # type: ignore[union-attr]
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
    return [make_found((start - 1, page[0] - 1, page[1], "chapter", 0.9, False))]


_SECTION_WORDS = re.compile(
    rf"(?:{SPACE}+\(?[\u05d0-\u05ea\"']{{2,}}\)?){{0,3}}?{SPACE}*(?=(?:דף|ד{GERESH}){SPACE})"
)


def _node_of(cat: Catalog, ref: Ref) -> int | None:
    name = ref.index.removeprefix("Zohar, ")
    return next((i for i, z in enumerate(cat.zohar) if z[0] == name), None)


def owned_item(
    cat: Catalog, text: str, m: re.Match[str], roles: dict[str, Any], scope: Scope
) -> list[Found]:
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
) -> list[Found]:
    """The pages of one Zohar parasha from ``p`` on: ``ד, א. ז, ב``."""
    out: list[Found] = []
    while node is not None:
        page = zohar_page(cat, text, p, begin, None, node)
        if page is None or page[1] is None:
            scope.owned_to = page[0] if page else scope.owned_to
            break
        out.append(make_found((begin - 1, page[0] - 1, page[1], "chapter", 0.9, False)))
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
_INTRO_AT = re.compile(rf"{SPACE}*(?P<word>ב?הקדמה)(?![\u05d0-\u05ea])")
