"""Citations that name a chapter, or a whole work, instead of numbering a passage.

Talmudic writing cites a tractate by its chapter as often as by daf: ``פ"ק בפסחים``,
``רפ"ג דכלאים``, ``ר"פ בתרא דמשנה ברכות``, ``פרק אלו דברים בפסחים``, ``נדה פ"ג``. A Bavli
chapter links to its daf range (Sefaria's chapter bounds, ``data/bavli_chapters.json``), a
tractate without Bavli to its Mishnah chapter. A work named without numbers (``בספר בראשית``,
``במסכת תמיד``, ``בפרשת בהעלותך``) links to the whole book, tractate or portion.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from libtext.sefaria._data import ORDINALS, Catalog, Parsha, key, loose
from libtext.sefaria._parse import (
    GERESH,
    GERSHAYIM,
    HALACHA_WORD,
    LETTER,
    NUMERAL,
    SPACE,
    WORD_END,
    Ref,
    colon_numbers,
    last_range,
    num,
    parse_bavli,
    talmud_daf,
)


class TitleMatch(NamedTuple):
    """A title found at a position (``דכלאים``: prefix ``ד``, roles of ``כלאים``)."""

    start: int  # where its prefix starts
    prefix: str  # the letters glued before it (ו, ב, ד ...)
    end: int
    roles: dict[str, Any]


TitleAt = Callable[[str, int], TitleMatch | None]  # the title at a position, if any

_ORDINAL = "|".join(sorted(ORDINALS, key=len, reverse=True))
_CHAPTER_WORD = re.compile(
    rf"{SPACE}++(?P<chapter>(?:{_ORDINAL})(?![{LETTER}])|{NUMERAL}{WORD_END})"
)
_SPACE = re.compile(rf"{SPACE}++")
# Between the chapter and the tractate: "ד"/"ב"/"מ" glued to the tractate, or to a word
# that says which work (``דמשנה ברכות``, ``במסכת שבת``).
_WORK_WORD = re.compile(rf"[דבמ](?P<work>משנה|מסכת|מס'|גמרא){SPACE}++")
_WORDS = re.compile(rf"{SPACE}++([{LETTER}]+(?:{GERSHAYIM}[{LETTER}])?)")
_NUMBERISH = re.compile(
    rf"{SPACE}*+[,(]?{SPACE}*+(?:\d|(?:פרק|פרשה|דף|סימן|סי'|עמוד|פסוק|משנה|הלכה)(?![{LETTER}])"
    rf"|[{LETTER}]{{1,3}}{GERSHAYIM}[{LETTER}](?![{LETTER}])|[{LETTER}]'(?![{LETTER}])|[{LETTER}]{{1,3}}{SPACE}*+[,:.)])"
)
_MAX_NAME_WORDS = 6


def chapter_value(token: str, count: int) -> int | None:
    """A chapter written as a numeral or a word (``קמא`` = 1, ``בתרא`` = the last)."""
    word = ORDINALS.get(key(token))
    if word is not None:
        return count if word == -1 else word
    return num(key(token))


def bavli_chapter(cat: Catalog, tractate: str, chapter: int) -> Ref | None:
    """The daf range of a Bavli chapter: ``Pesachim 2a-21a``."""
    chapters = cat.bavli_chapters.get(tractate)
    if not chapters or not 0 < chapter <= len(chapters):
        return None
    _, first, last = chapters[chapter - 1]
    return Ref(tractate, (first,), (last,))


def chapter_ref(cat: Catalog, tr: dict[str, Any], chapter: int, mishnah: bool) -> Ref | None:
    """A tractate's chapter: the Bavli's daf range, or the Mishnah chapter when there is no
    Bavli or the citation says ``משנה``."""
    if tr["bavli"] is not None and not mishnah:
        return bavli_chapter(cat, tr["bavli"][0], chapter)
    name, count = tr["mishnah"]
    return Ref(name, (str(chapter),)) if 0 < chapter <= count else None


def _chapter_count(cat: Catalog, tr: dict[str, Any], mishnah: bool) -> int:
    if tr["bavli"] is not None and not mishnah:
        return len(cat.bavli_chapters.get(tr["bavli"][0], ()))
    return int(tr["mishnah"][1])


def _tractate_at(text: str, p: int, title_at: TitleAt) -> tuple[int, dict[str, Any], bool] | None:
    """``דכלאים`` / ``בפסחים`` / ``דמשנה ברכות`` at ``p``: (end, tractate, says Mishnah)."""
    w = _WORK_WORD.match(text, p)
    if w:
        got = title_at(text, w.end())
        if got is None or got.prefix:
            return None
        tr = got.roles.get("tractate")
        return (got.end, tr, w["work"] == "משנה") if tr else None
    got = title_at(text, p)
    if got is None or got.prefix not in ("ד", "ב", "מ"):
        return None
    tr = got.roles.get("tractate")
    return (got.end, tr, False) if tr else None


def parse_chapter_lead(
    cat: Catalog, text: str, pos: int, value: tuple[str, int | None], title_at: TitleAt
) -> tuple[int, Ref, str] | None:
    """``פ"ג דנדה``, ``ר"פ בתרא דמשנה ברכות``, ``פרק אלו דברים בפסחים``: ``(end, ref, kind)``.

    A daf after the tractate (``בפ"ב דשבועות דט"ז``) is the passage cited, when it lies in
    that chapter (kind ``"full"``); else the chapter is (kind ``"chapter"``).
    """
    _, chapter = value
    if chapter is not None:  # glued: the tractate follows
        sp = _SPACE.match(text, pos)
        found = _tractate_at(text, sp.end(), title_at) if sp else None
        if found is None:
            return None
        end, tr, mishnah = found
        ref = chapter_ref(cat, tr, chapter, mishnah)
        return _daf_in_chapter(text, end, tr, ref) if ref else None
    word = _CHAPTER_WORD.match(text, pos)
    if word and (word["chapter"] in ORDINALS or num(word["chapter"])):  # then the tractate
        sp = _SPACE.match(text, word.end())
        found = _tractate_at(text, sp.end(), title_at) if sp else None
        if found is not None:
            end, tr, mishnah = found
            c = chapter_value(word["chapter"], _chapter_count(cat, tr, mishnah))
            ref = chapter_ref(cat, tr, c, mishnah) if c else None
            return _daf_in_chapter(text, end, tr, ref) if ref else None
    named = _named_chapter(cat, text, pos, title_at)
    return (named[0], named[1], "chapter") if named else None


def _daf_in_chapter(text: str, end: int, tr: dict[str, Any], chapter: Ref) -> tuple[int, Ref, str]:
    """The daf that follows a Bavli chapter's tractate, if it lies in that chapter."""
    got = parse_bavli(text, end, end, tr["bavli"]) if chapter.to_sections and tr["bavli"] else None
    if got is None:
        return end, chapter, "chapter"
    daf_end, ref = got
    first, last = _amud_key(chapter.sections[0]), _amud_key(chapter.to_sections[0])
    start = _amud_key(ref.sections[0])
    stop = _amud_key(ref.to_sections[0]) if ref.to_sections else start
    if stop < first or start > last:
        return end, chapter, "chapter"  # "בפ"ק דשבועות דט"ז": not in chapter 1 (2a-14a)
    return daf_end, ref, "full"


def _amud_key(section: str) -> tuple[int, str]:
    """``"21a"`` -> ``(21, "a")``, to compare amudim."""
    return int(section[:-1]), section[-1]


def _named_chapter(cat: Catalog, text: str, pos: int, title_at: TitleAt) -> tuple[int, Ref] | None:
    """``פרק אלו דברים בפסחים``: the chapter's name (Sefaria's), then the tractate."""
    p, name = pos, ""
    names, prefixes = _chapter_names(cat)
    for _ in range(_MAX_NAME_WORDS):
        w = _WORDS.match(text, p)
        if not w:
            return None
        if name in names:  # a whole chapter name so far: the tractate may follow
            found = _tractate_at(text, w.start(1), title_at)
            if found is not None and found[1]["bavli"] is not None:
                end, tr, _ = found
                for he, first, last in cat.bavli_chapters[tr["bavli"][0]]:
                    if he == name:
                        return end, Ref(tr["bavli"][0], (first,), (last,))
                return None
        name += loose(w.group(1))
        if name not in prefixes:  # no chapter is called this: "פרק זה" in prose stops here
            return None
        p = w.end()
    return None


_NAME_CACHE: dict[int, tuple[frozenset[str], frozenset[str]]] = {}


def _chapter_names(cat: Catalog) -> tuple[frozenset[str], frozenset[str]]:
    """Every chapter name, and every prefix of one (loose form), to stop reading prose early."""
    got = _NAME_CACHE.get(id(cat))
    if got is None:
        names = frozenset(he for chapters in cat.bavli_chapters.values() for he, _, _ in chapters)
        prefixes = frozenset(n[:i] for n in names for i in range(1, len(n) + 1))
        got = _NAME_CACHE[id(cat)] = (names, prefixes)
    return got


def parse_chapter_after(
    cat: Catalog, tr: dict[str, Any], got: tuple[int, Ref] | None
) -> tuple[int, Ref] | None:
    """``נדה פ"ג`` (a Mishnah chapter read after a tractate) as the Bavli chapter's range."""
    if got is None or tr["bavli"] is None:
        return got
    ref = bavli_chapter(cat, tr["bavli"][0], int(got[1].sections[0]))
    return (got[0], ref) if ref else None


def numbers_follow(text: str, pos: int) -> bool:
    """True when a numeral or a section word follows: the work is cited with numbers."""
    return bool(_NUMBERISH.match(text, pos))


def whole_work(role: str, value: Any) -> Ref:
    """The ref of a work named without numbers."""
    if role == "tanakh":
        return Ref(value)
    if role == "tractate":
        return Ref(value["bavli"][0] if value["bavli"] else value["mishnah"][0])
    parsha: Parsha = value
    return Ref(
        parsha.book,
        (str(parsha.start[0]), str(parsha.start[1])),
        (str(parsha.end[0]), str(parsha.end[1])),
    )


# ---------------------------------------------------------------- Yerushalmi, daf first

# The Yerushalmi covers the orders Zeraim, Moed, Nashim, Nezikin and Niddah.
_NO_YERUSHALMI = {
    "Avot", "Eduyot", "Zevachim", "Menachot", "Chullin", "Bekhorot", "Arakhin", "Temurah",
    "Keritot", "Meilah", "Tamid", "Middot", "Kinnim", "Kelim", "Oholot", "Negaim", "Parah",
    "Tahorot", "Mikvaot", "Makhshirin", "Zavim", "Tevul Yom", "Yadayim", "Oktzin",
}  # fmt: skip
_YERUSHALMI_NUMS = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:פרק{SPACE}++(?P<chapter>{NUMERAL})"
    rf"|(?P<chapter_glued>[רס]?פ[{LETTER}]{{0,2}}{GERSHAYIM}[{LETTER}]))"
    rf"(?:{SPACE}*+,?{SPACE}*+(?:{HALACHA_WORD}{SPACE}++(?P<halacha>{NUMERAL})"
    rf"|(?P<halacha_glued>ה[{LETTER}]{{0,2}}{GERSHAYIM}[{LETTER}])))?{WORD_END}"
)

# "ירושלמי מס' ברכות": the word for tractate may stand between the lead and the name
_SPACE_TRACTATE = re.compile(rf"{SPACE}++(?:(?:מסכת|מס{GERESH}){SPACE}++)?")


def parse_yerushalmi(
    text: str, pos: int, title_at: TitleAt, glued: Callable[[str | None, str, str], int | None]
) -> tuple[int, Ref, str] | None:
    """``ירושלמי יומא פ"א ה"א`` -> ``Jerusalem Talmud Yoma 1:1``."""
    sp = _SPACE_TRACTATE.match(text, pos)
    got = title_at(text, sp.end()) if sp else None
    tr = got.roles.get("tractate") if got and got.prefix in ("", "ב", "ד", "מ") else None
    if got is None or tr is None:
        return None
    en, chapters = tr["mishnah"]
    short = en.removeprefix("Mishnah ").replace("Pirkei ", "")
    if short in _NO_YERUSHALMI:
        return None
    name = "Jerusalem Talmud " + (tr["bavli"][0] if tr["bavli"] else short)
    m = _YERUSHALMI_NUMS.match(text, got.end)
    if not m:
        return _yerushalmi_colon(text, got.end, name, chapters)
    chapter = num(m["chapter"]) if m["chapter"] else glued(m["chapter_glued"], "פ", "רס")
    if chapter is None or not 0 < chapter <= chapters:
        return None
    if m["halacha"] or m["halacha_glued"]:
        halacha = num(m["halacha"]) if m["halacha"] else glued(m["halacha_glued"], "ה", "")
        if halacha is None or not 0 < halacha <= 30:
            return None
        end, ref = last_range(
            text, m.end(), "ה", Ref(name, (str(chapter), str(halacha))), halacha, 30
        )
        return end, ref, "full"
    end = m.end("chapter") if m["chapter"] else m.end("chapter_glued")
    return end, Ref(name, (str(chapter),)), "chapter"


def _yerushalmi_colon(text: str, pos: int, name: str, chapters: int) -> tuple[int, Ref, str] | None:
    """``ירושלמי ברכות א׳:א׳`` / ``א׳:א׳:ב׳``: Sefaria's form, chapter, halakhah, segment.
    Only with colons (or one marked numeral): ``ירושלמי ברכות ב, א`` is a printed page."""
    got = colon_numbers(text, pos, pos, 3)
    if got is None:
        return None
    end, values = got
    if not values[0] <= chapters or (len(values) > 1 and values[1] > 30):
        return None
    return end, Ref(name, tuple(map(str, values))), "chapter" if len(values) == 1 else "full"


_DAF_WORD = re.compile(rf"{SPACE}*+דף(?![{LETTER}])")


def parse_daf_first(text: str, pos: int, start: int, title_at: TitleAt) -> tuple[int, Ref] | None:
    """``בבלי דף ב עמוד א במכות``, ``דט"ז דשבועות``: the daf, then the tractate."""
    m = _DAF_WORD.match(text, pos)
    got = talmud_daf(text, m.end() if m else pos, start)
    if not got:
        return None
    end, daf, amud, _, _ = got
    sp = _SPACE.match(text, end)
    found = _tractate_at(text, sp.end(), title_at) if sp else None
    if found is None or found[1]["bavli"] is None:
        return None
    name, first, last = found[1]["bavli"]
    if not first <= daf <= last:
        return None
    ref = Ref(name, (f"{daf}a",), (f"{daf}b",)) if amud is None else Ref(name, (f"{daf}{amud}",))
    return found[0], ref
