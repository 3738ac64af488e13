"""Citations that name a chapter, or a whole work, instead of numbering a passage.

Talmudic writing cites a tractate by its chapter as often as by daf: ``פ"ק בפסחים``,
``רפ"ג דכלאים``, ``ר"פ בתרא דמשנה ברכות``, ``פרק אלו דברים בפסחים``, ``נדה פ"ג``. A Bavli
chapter links to Sefaria's own chapter ref, which starts and ends inside an amud
(``Pesachim 2a:1-21a:7``, ``data/bavli_chapters.json``), a
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
    """A Bavli chapter as Sefaria refers to it, segment-precise: ``Pesachim 2a:1-21a:7``
    (a chapter starts and ends inside an amud; whole amudim would hold its neighbours)."""
    chapters = cat.bavli_chapters.get(tractate)
    if not chapters or not 0 < chapter <= len(chapters):
        return None
    _, first, last = chapters[chapter - 1]
    return segment_range(tractate, first, last)


def segment_range(tractate: str, first: str, last: str) -> Ref:
    """``Ref("Pesachim", ("2a", "1"), ("21a", "7"))`` from ``"2a:1"`` and ``"21a:7"``."""
    return Ref(tractate, tuple(first.split(":")), tuple(last.split(":")))


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
                        return end, segment_range(tr["bavli"][0], first, last)
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
_SPACE_TRACTATE = re.compile(rf"{SPACE}*+(?:(?:מסכת|מס{GERESH}){SPACE}++)?")


def parse_yerushalmi(
    text: str,
    pos: int,
    title_at: TitleAt,
    glued: Callable[[str | None, str, str], int | None],
    previous: dict[str, Any] | None = None,
    *,
    tosefta: bool = False,
) -> tuple[int, Ref, str, bool] | None:
    """``ירושלמי יומא פ"א ה"א`` -> ``Jerusalem Talmud Yoma 1:1``: ``(end, ref, kind, exact)``.

    Also with the chapter first (``ירושלמי ספ"ב דברכות``), words for where in it
    (``ירושלמי סוף פ"ט דברכות``: the chapter, a coarse link), brackets (``ירושלמי (ע"ז
    פ"א ה"א)``) and ``שם`` for ``previous``, the tractate cited last (``ירושלמי שם``).

    ``tosefta``: the same notation after ``תוספתא``. Its halachot are numbered differently
    in each edition, so a halacha links to its chapter (``Tosefta Berakhot 1``, coarse).
    """
    name_of = _tosefta_name if tosefta else _yerushalmi_name
    edge = _YERUSHALMI_EDGE.match(text, pos)
    p, coarse = (edge.end(), bool(edge["edge"])) if edge else (pos, False)
    first = _CHAPTER_FIRST.match(text, p)
    if first:  # "ספ"ב דברכות", "פרק ב דברכות": the chapter, then the tractate
        got = title_at(text, first.end())
        tr = got.roles.get("tractate") if got and got.prefix in ("ב", "ד", "מ") else None
        name = name_of(tr) if tr else None
        if got is None or tr is None or name is None:
            return None
        if first["chapter"]:
            chapter = num(first["chapter"])
        else:
            chapter = glued(first["chapter_glued"], "פ", "רס")
            coarse = coarse or first["chapter_glued"][0] in "רס"
        if chapter is None or not 0 < chapter <= tr["mishnah"][1]:
            return None
        after = _HALACHA_AFTER.match(text, got.end)  # "פ"א דפאה סוף ה"א": its halacha
        halacha = glued(after["glued"], "ה", "") if after and after["glued"] else None
        if after and after["word"]:
            halacha = num(after["word"])
        if after and halacha and 0 < halacha <= 30 and not tosefta:
            exact = not (coarse or after["edge"])
            return after.end(), Ref(name, (str(chapter), str(halacha))), "full", exact
        return got.end, Ref(name, (str(chapter),)), "chapter", not coarse
    ibid = _IBID_WORD.match(text, p)
    if ibid and previous is not None:  # "ירושלמי שם": the tractate just cited
        tr, end = previous, ibid.end()
    else:
        sp = _SPACE_TRACTATE.match(text, p)
        got = title_at(text, sp.end()) if sp else None
        tr = got.roles.get("tractate") if got and got.prefix in ("", "ב", "ד", "מ") else None
        if got is None or tr is None:
            return None
        end = got.end
    name = name_of(tr)
    if name is None:
        return None
    chapters = tr["mishnah"][1]
    m = _YERUSHALMI_NUMS.match(text, end)
    if not m and tosefta:
        return None
    if not m:
        found = _yerushalmi_colon(text, end, name, chapters)
        return (*found, not coarse) if found else None
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
        if tosefta:
            return end, Ref(name, (str(chapter),)), "chapter", False
        return end, ref, "full", True
    end = m.end("chapter") if m["chapter"] else m.end("chapter_glued")
    coarse = coarse or bool(m["chapter_glued"] and m["chapter_glued"][0] in "רס")
    return end, Ref(name, (str(chapter),)), "chapter", not coarse


# Tractates the Tosefta does not have, or splits (Kelim: Bava Kamma, Metzia, Batra).
_NO_TOSEFTA = {"Avot", "Tamid", "Middot", "Kinnim", "Kelim"}


def _tosefta_name(tr: dict[str, Any]) -> str | None:
    """Sefaria's Tosefta index: ``Tosefta`` and the Mishnah's name (``Tosefta Ta'anit``)."""
    short = tr["mishnah"][0].removeprefix("Mishnah ").replace("Pirkei ", "")
    return None if short in _NO_TOSEFTA else "Tosefta " + short


def _yerushalmi_name(tr: dict[str, Any]) -> str | None:
    en: str = tr["mishnah"][0]
    short = en.removeprefix("Mishnah ").replace("Pirkei ", "")
    if short in _NO_YERUSHALMI:
        return None
    return "Jerusalem Talmud " + (tr["bavli"][0] if tr["bavli"] else short)


# Between "ירושלמי" and the tractate: a bracket, and words for where in it (its end ...).
_YERUSHALMI_EDGE = re.compile(
    rf"{SPACE}*+\(?(?:{SPACE}*+(?P<edge>סוף|ריש|תחילת|בסוף|בריש|בתחילת|ס{GERSHAYIM}פ|ר{GERSHAYIM}פ)"
    rf"(?=(?:{SPACE}++(?:מסכת|מס{GERESH}))?{SPACE}++[{LETTER}]))?"
)
_CHAPTER_FIRST = re.compile(
    rf"{SPACE}*(?:(?P<chapter_glued>[רס]?פ[{LETTER}]{{0,2}}{GERSHAYIM}[{LETTER}]|[רס]?פ{GERSHAYIM}ק)"
    rf"|פרק{SPACE}+(?P<chapter>{NUMERAL}))"
    rf"{SPACE}+(?=[דבמ][{LETTER}])"
)
_HALACHA_AFTER = re.compile(
    rf"{SPACE}*+,?{SPACE}*+(?:(?P<edge>סוף|ריש|בסוף|בריש){SPACE}++)?"
    rf"(?:(?P<glued>ה[{LETTER}]{{0,2}}{GERSHAYIM}[{LETTER}])|{HALACHA_WORD}{SPACE}+(?P<word>{NUMERAL}))"
    rf"{WORD_END}"
)
_IBID_WORD = re.compile(rf"{SPACE}*+\(?{SPACE}*+שם(?![{LETTER}])")


def _yerushalmi_colon(text: str, pos: int, name: str, chapters: int) -> tuple[int, Ref, str] | None:
    """``ירושלמי ברכות א׳:א׳`` / ``א׳:א׳:ב׳``: Sefaria's form, chapter, halakhah, segment.
    Only with colons (or one marked numeral): ``ירושלמי ברכות ב, א`` is a printed page."""
    got = colon_numbers(text, pos, pos, 3)
    if got is None:
        return None
    end, values = got
    if not values[0] <= chapters or (len(values) > 1 and values[1] > 30):
        return None
    ref = Ref(name, tuple(map(str, values)))
    to = _LAST_COLON.match(text, end) if len(values) > 1 else None
    value = num(to["last"]) if to else None
    if to and value and values[-1] < value <= 200:  # "א׳:א׳:ב׳-ד׳": a range of the last
        return to.end(), Ref(name, ref.sections, (*ref.sections[:-1], str(value))), "full"
    return end, ref, "chapter" if len(values) == 1 else "full"


_LAST_COLON = re.compile(
    rf"{SPACE}*[-\u2013\u05be]{SPACE}*(?P<last>{NUMERAL}){WORD_END}(?!{SPACE}*:)"
)


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
