"""A title the scanner found, read: its roles choose the grammar (``_parse``, ``_chapters``,
``_ibid``, ``_commentary``) that reads the numbers after it, or say that it blocks what follows.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from libtext.hebrew import parse_prefixed_numeral
from libtext.sefaria._chapters import (
    numbers_follow,
    parse_chapter_after,
    parse_chapter_lead,
    parse_daf_first,
    parse_yerushalmi,
    whole_work,
)
from libtext.sefaria._commentary import parse_commentary
from libtext.sefaria._data import Catalog, Parsha, catalog, key
from libtext.sefaria._hits import Hit, Result
from libtext.sefaria._ibid import parse_context_ibid, parse_ibid
from libtext.sefaria._parse import (
    GERESH,
    GERSHAYIM,
    SPACE,
    SPACE_CHARS,
    Ref,
    glued_value,
    hilchot_name,
    parse_bavli,
    parse_midrash,
    parse_mishnah,
    parse_mishnah_plain,
    parse_parsha,
    parse_rambam,
    parse_sa_lead,
    parse_seif_katan,
    parse_siman,
    parse_tanakh,
    parse_tanya,
)
from libtext.sefaria._titles import Roles, master, title_at, title_roles

_SPACES = re.compile(rf"{SPACE}*+")
_COMMA_GAP = re.compile(rf"{SPACE}*+,?{SPACE}*+")


def parse_match(
    cat: Catalog,
    text: str,
    m: re.Match[str],
    entry: Roles,
    prev: Hit | None,
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
    prev: Hit | None,
) -> Result:
    """A title whose role alone says how to read it: a lead word, ``שם``, a blocker."""
    start, pos, pre = m.start("prefix"), m.end(), m["prefix"]
    if deciding == "block":
        return pos
    if deciding == "ibid":
        if pre not in ("", "ו") or prev is None or _owned(cat, text, start, prev.end):
            return None  # "ד"ח שם": ibid of the work just named, not of the last citation
        return parse_ibid(cat, text, pos, start, prev)
    if deciding == "context_ibid":
        return parse_context_ibid(text, m.start("title"), start, roles["context_ibid"], prev)
    if deciding == "commentator":
        dh = key(m["title"]).endswith('ד"ה')
        return parse_commentary(cat, text, pos, roles["commentator"], dh)
    if deciding == "chapter_lead":
        chapter = parse_chapter_lead(cat, text, pos, roles["chapter_lead"], title_at)
        if chapter is None:
            return None
        end, ref, shape = chapter
        return Hit(end, ref, "chapter", None, shape=shape, conf=0.9 if shape == "chapter" else 1)
    if deciding == "work_lead":
        return _parse_work(cat, text, pos, start, roles["work_lead"], prev)
    if deciding in ("yerushalmi", "tosefta"):
        found = parse_yerushalmi(
            text,
            pos,
            title_at,
            glued_value,
            _tractate_of(cat, prev),
            tosefta=deciding == "tosefta",
        )
        if found is None:
            return _past_tractate(text, pos)  # not the Bavli tractate that follows
        end, ref, shape, exact = found
        conf = 0.9 if shape != "full" else 1
        return Hit(end, ref, "yerushalmi", None, shape=shape, conf=conf, exact=exact)
    if deciding == "daf_lead":
        got = parse_daf_first(text, pos, start, title_at)
        return Hit(got[0], got[1], "bavli", None) if got else None
    # "mishnah_lead": משנה, then the tractate
    after = _COMMA_GAP.match(text, pos).end()  # type: ignore[union-attr]
    nxt = master().match(text, after)  # "משנה ברכות", "משנה, ברכות" (Sefaria's form)
    tr = cat.roles.get(key(nxt["title"]), {}).get("tractate") if nxt else None
    if nxt is None or tr is None or nxt["prefix"]:
        return None
    got = parse_mishnah_plain(text, nxt.end(), start, tr["mishnah"])
    return Hit(got[0], got[1], "mishnah", tr["mishnah"]) if got else None


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
        found = title_at(text, gap.end())
        if found is not None and "tractate" in found.roles:
            return found.end
        word = _ONE_WORD.match(text, gap.end())
        if word is None:
            break
        p = word.end()
    return pos


def _tractate_of(cat: Catalog, prev: Hit | None) -> dict[str, Any] | None:
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
                    return Hit(name[0], Ref(name[1]), "rambam", None, shape="book", conf=0.5)
        elif role == "midrash" and "ה" not in pre:  # "המדרש תהלים": "the midrash", Psalms
            got = parse_midrash(text, pos, start, value)
        if got:
            hit = Hit(got[0], got[1], _kind(got[1]), _book_data(cat, got[1].index, value))
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
            return Hit(got[0], got[1], "mishnah", tr["mishnah"])
        if tr["bavli"]:
            got = parse_bavli(text, pos, start, tr["bavli"], commentary=True)
            if got and " on " in got[1].index:  # "תד"ה טלית" after the daf: Tosafot's amud
                if got[1].index not in cat.indexes:
                    return got[0]  # (Sefaria has no Tosafot on Tamid): the commentary's
                return Hit(got[0], got[1], "commentary", None, exact=False)
            if got:
                return Hit(got[0], got[1], "bavli", tr["bavli"])
            got = None
            if pre in ("", "ו", "ד"):  # "בשבת פרק כב" is as likely prose
                got = parse_chapter_after(cat, tr, parse_mishnah(text, pos, tr["mishnah"], True))
            if got:  # "נדה פ"ג": the Bavli chapter's daf range
                return Hit(got[0], got[1], "bavli", tr["bavli"], shape="chapter", conf=0.9)
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
            return Hit(got[0], got[1], "tanakh", roles["tanakh"])
    if "parsha" in roles:
        parsha: Parsha = roles["parsha"]
        got = parse_parsha(cat, text, pos, start, parsha)
        if got:
            return Hit(got[0], got[1], "tanakh", parsha.book)
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
    cat: Catalog, text: str, pos: int, start: int, want: str, prev: Hit | None
) -> Result:
    """``בספר בראשית``, ``במסכת תמיד``, ``בפרשת בהעלותך``: the work named after a word that
    says what kind of work it is; with numbers a full citation, without them the whole work."""
    p = _SPACES.match(text, pos).end()  # type: ignore[union-attr]
    title = title_at(text, p)
    if title is None or title.prefix or want not in title.roles:
        return None
    inner = master().match(text, p)
    if inner is not None and not inner["prefix"]:
        entry = title_roles(cat, inner["title"])
        if want == "parsha":  # "פרשת שופטים טז, יח": the portion, not the book Judges
            entry = ({"parsha": title.roles["parsha"]}, (), None)
        got = parse_match(cat, text, inner, entry, prev)
        if isinstance(got, Hit):
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
    return Hit(title.end, ref, kind, data, start=start, shape="book", conf=0.5)
