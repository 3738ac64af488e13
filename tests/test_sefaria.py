"""libtext.sefaria: citation finding, resolution, URLs, and the glued-numeral parser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from libtext.hebrew import parse_numeral, parse_prefixed_numeral
from libtext.sefaria import Citation, Ref, find_citations, ref_url, resolve, translate_citation


def refs(text: str) -> list[str]:
    return [c.ref for c in find_citations(text)]


# ---------------------------------------------------------------- numerals


@pytest.mark.parametrize(
    ("token", "prefix", "markers", "expected"),
    [
        ('פי"א', "פ", "", ("", 11)),
        ('ה"ד', "ה", "", ("", 4)),
        ('הי"א', "ה", "", ("", 11)),
        ('סל"א', "ס", "ר", ("", 31)),
        ('סר"א', "ס", "ר", ("", 201)),
        ('סרל"א', "ס", "ר", ("", 231)),  # siman 231, not "beginning of siman 31"
        ('רסקנ"ה', "ס", "ר", ("ר", 155)),
        ('רפל"ו', "פ", "רס", ("ר", 36)),
        ('ספ"ה', "פ", "רס", ("ס", 5)),
        ("פט״ו", "פ", "", ("", 15)),
        ('מי"ז', "מ", "", ("", 17)),
        ('ד"כ', "ד", "", ("", 20)),
        ("פ'ה", "פ", "", ("", 5)),
    ],
)
def test_parse_prefixed_numeral(
    token: str, prefix: str, markers: str, expected: tuple[str, int]
) -> None:
    assert parse_prefixed_numeral(token, prefix, markers=markers) == expected


@pytest.mark.parametrize(
    ("token", "prefix"),
    [("פה", "פ"), ('פי"ה', "פ"), ('ס"', "ס"), ('א"ב', "פ"), ('פא"ב', "פ"), ("", "פ")],
)
def test_parse_prefixed_numeral_rejects(token: str, prefix: str) -> None:
    assert parse_prefixed_numeral(token, prefix) is None


def test_existing_numeral_parser_unchanged() -> None:
    assert parse_numeral('קי"ט') == 119
    assert parse_numeral('יו"ד') == 10
    assert parse_numeral("יה") is None


# ---------------------------------------------------------------- URL rule


@pytest.mark.parametrize(
    ("ref", "url"),
    [
        ("Genesis 1:1", "https://www.sefaria.org/Genesis.1.1"),
        ("Mishneh Torah, Repentance 3:4", "https://www.sefaria.org/Mishneh_Torah,_Repentance.3.4"),
        ("Tanya, Part I; Likkutei Amarim 2", "https://www.sefaria.org/Tanya,_Part_I;_Likkutei_Amarim.2"),
        ("Shabbat 15a-16b", "https://www.sefaria.org/Shabbat.15a-16b"),
        ("II Chronicles 32:19", "https://www.sefaria.org/II_Chronicles.32.19"),
        ("Shulchan Arukh, Yoreh De'ah 201:31", "https://www.sefaria.org/Shulchan_Arukh,_Yoreh_De'ah.201.31"),
        ("Zohar, Lech Lecha 10:78-84", "https://www.sefaria.org/Zohar,_Lech_Lecha.10.78-84"),
        ("Genesis 1:1-2:3", "https://www.sefaria.org/Genesis.1.1-2.3"),
        ("Song of Songs", "https://www.sefaria.org/Song_of_Songs"),
    ],
)  # fmt: skip
def test_ref_url(ref: str, url: str) -> None:
    assert ref_url(ref) == url
    assert ref_url(ref, bilingual=True) == url + "?lang=bi"


def test_ref_normal_forms() -> None:
    assert Ref("Genesis", ("1", "1"), ("1", "3")).normal() == "Genesis 1:1-3"
    assert Ref("Genesis", ("1", "31"), ("2", "3")).normal() == "Genesis 1:31-2:3"
    assert str(Ref("Shabbat", ("31a",), ("31b",))) == "Shabbat 31a-31b"
    assert ref_url(Ref("Psalms", ("119",))) == "https://www.sefaria.org/Psalms.119"


# ---------------------------------------------------------------- families


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("משלי ג, ו", "Proverbs 3:6"),
        ("ישעי' נז, טו", "Isaiah 57:15"),
        ("תהלים קיט, א", "Psalms 119:1"),
        ('דה"א כט, יא', "I Chronicles 29:11"),
        ('דה"י ב ז, א', "II Chronicles 7:1"),
        ("(עמוס ז ב)", "Amos 7:2"),
        ("שמות כ''ב", "Exodus 22"),
        ("ויקרא ט״ו:ג׳", "Leviticus 15:3"),
        ("וירא כא, לג", "Genesis 21:33"),
        ("שופטים יז, טו", "Deuteronomy 17:15"),  # Judges 17 has 13 verses: parsha Shoftim
        ("שופטים ה, יא", "Judges 5:11"),
        ('פרש"י תולדות כה, כג', "Rashi on Genesis 25:23"),
        ("ברכות סא, ב", "Berakhot 61b"),
        ('קידושין טו, סע"א', "Kiddushin 15a"),
        ('יבמות סא, רע"א', "Yevamot 61a"),
        ("בבא מציעא נח:", "Bava Metzia 58b"),
        ("שבת ד' כב.", "Shabbat 22a"),
        ('סוטה דף מ"ה ע"ב', "Sotah 45b"),
        ('במנחות ד"כ ע"ב', "Menachot 20b"),
        ('ברכות יו"ד, א', "Berakhot 10a"),
        ("שבת דף לא", "Shabbat 31a-31b"),
        ('כלים פ"א מ"ט', "Mishnah Kelim 1:9"),
        ('אבות פ"א מי"ז', "Pirkei Avot 1:17"),
        ("אבות פרק ד", "Pirkei Avot 4"),
        ('רמב"ם הל\' תשובה פ"ג ה"ד', "Mishneh Torah, Repentance 3:4"),
        ('הל\' יסוה"ת פ"א ה"ד', "Mishneh Torah, Foundations of the Torah 1:4"),
        ('ברמב"ם פ"ח מהל\' תרומות הי"א', "Mishneh Torah, Heave Offerings 8:11"),
        ("הלכות דעות פרק א הלכה ה", "Mishneh Torah, Human Dispositions 1:5"),
        ('או"ח סימן א', "Shulchan Arukh, Orach Chayim 1"),
        ('שו"ע או"ח סימן א סעיף ב', "Shulchan Arukh, Orach Chayim 1:2"),
        ('טושו"ע יו"ד סר"א סל"א', "Shulchan Arukh, Yoreh De'ah 201:31"),
        ('שו"ע או"ח רסקנ"ה', "Shulchan Arukh, Orach Chayim 155"),
        ('תניא פל"ב', "Tanya, Part I; Likkutei Amarim 32"),
        ('תניא רפל"ו', "Tanya, Part I; Likkutei Amarim 36"),
        ('אגה"ק סכ"ה', "Tanya, Part IV; Iggeret HaKodesh 25"),
        ('שעהיוה"א פ"ו', "Tanya, Part II; Shaar HaYichud VehaEmunah 6"),
        ('תניא אגה"ת פ"ד', "Tanya, Part III; Iggeret HaTeshuvah 4"),
        ('ב"ר פי"ט, ז', "Bereishit Rabbah 19:7"),
    ],
)
def test_families(text: str, expected: str) -> None:
    assert refs(text) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("שבת טו. - טז:", "Shabbat 15a-16b"),
        ("ישעי' נז, טו-טז", "Isaiah 57:15-16"),
        ("בראשית א, לא - ב, ג", "Genesis 1:31-2:3"),
        ("ברכות ב, א-ב", "Berakhot 2a-2b"),
    ],
)
def test_ranges(text: str, expected: str) -> None:
    assert refs(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        'לקו"ת (במדבר יג, א)',  # a Likkutei Torah page, not Numbers 13:1
        'תו"א ויקהל פט, ד',
        'זח"ג ע, רע"א',
        'משנת חסידים מס\' ליל ר"ה פ"ח מ"ב',  # Mishnah Rosh Hashanah has 4 chapters
        "שופטים כה, א",  # neither Judges 25 nor inside parsha Shoftim
        "בראשית נא, א",  # Genesis has 50 chapters
        "משלי ג, מ",  # Proverbs 3 has 35 verses
        "ברכות סה, א",  # Berakhot ends at 64
        'מנחות מד ע"א תד"ה טלית',  # Tosafot's comment: its segment is not knowable offline
        "ויאמר משה אל העם לא תיראו כי לא כן הדבר",
        "שם הוי' ושם אלקים",
        "ביום השבת לא יעשה מלאכה",
        "בשבת לא.",  # sentence end, not amud a
        "דברים אלו נאמרו בשבת זו",
    ],
)
def test_negatives(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(תהלים פד)", ["Psalms 84"]),  # a bare chapter only inside closed parentheses
        ("תהלים פד ועוד", []),
        ('(תהילים קי"ט)', ["Psalms 119"]),
        ("(תהלים ב')", ["Psalms 2"]),
        ("שמות ה' אלקינו", []),  # the divine name, not Exodus 5
        ("ירמיהו פרק יא פסוק ה", ["Jeremiah 11:5"]),
        ("(משנה אבות ג יז)", ["Pirkei Avot 3:17"]),
        ("משנה ברכות א:א", ["Mishnah Berakhot 1:1"]),
        ("(בראשית רבה א ד)", ["Bereishit Rabbah 1:4"]),
        ("(שבת קכז.)", ["Shabbat 127a"]),
        ("בנדרים דף פ'. והנה", ["Nedarim 80a-80b"]),  # the period ends the sentence
        ('כדאיתא בסנהדרין דף פ"ז ע"ש', ["Sanhedrin 87a-87b"]),
        ('שו"ע אדה"ז או"ח סי\' א', []),  # Shulchan Arukh HaRav, another index
        ('כמ"ש בליקוטי אמרים פרק מ"ו', ["Tanya, Part I; Likkutei Amarim 46"]),
        ('ראה פ"ח מהל\' תרומות הי"א', ["Mishneh Torah, Heave Offerings 8:11"]),
        ("טור או\"ח סי' א", []),  # the Tur, not the Shulchan Arukh
        ('שו"ע הרב או"ח סי\' א', []),
        ('רמב"ם פיהמ"ש ברכות פ"א מ"א', []),  # Rambam's Mishnah commentary
        ("ירושלמי ברכות ב, א", []),
    ],
)
def test_context_rules(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


def test_real_text_fixture(fixtures_dir: Path) -> None:
    """Tanya (big.pdf's printed lines): its inline sources, found and resolved."""
    data = json.loads((fixtures_dir / "big.lines.json").read_text("utf-8"))
    text = "\n".join(
        "\n".join(ln if isinstance(ln, str) else ln.get("text", "") for ln in page["lines"])
        for page in data["pages"]
    )
    found = find_citations(text)
    got = {c.ref for c in found}
    for ref in ("Numbers 15:31", "Bava Batra 10b", "Proverbs 14:34", "Berakhot 61b",
                "Pirkei Avot 2", "II Samuel 22:3", "Bava Batra 164b", "Malachi 3:6"):  # fmt: skip
        assert ref in got
    assert all(text[c.start : c.end] == c.text for c in found)
    assert len(found) >= 140


def test_span_includes_chapter_written_before_section() -> None:
    text = 'ראה פ"ח מהל\' תרומות הי"א'
    (cit,) = find_citations(text)
    assert cit.text == 'פ"ח מהל\' תרומות הי"א'


def test_spans_and_fields() -> None:
    text = "כמ\"ש (בראשית כא, לג) ויטע אשל, ובגמ' (שבת לא, א) הלל אמר"
    found = find_citations(text)
    assert [c.ref for c in found] == ["Genesis 21:33", "Shabbat 31a"]
    first = found[0]
    assert isinstance(first, Citation)
    assert text[first.start : first.end] == first.text == "בראשית כא, לג"
    assert first.url == "https://www.sefaria.org/Genesis.21.33"
    assert first.english == "Genesis 21:33"


def test_ibid_uses_previous_book() -> None:
    text = "ראה ישעי' נז, טו. ושם נח, ב. ובגמרא ברכות ה, א ושם ע\"ב"
    assert refs(text) == ["Isaiah 57:15", "Isaiah 58:2", "Berakhot 5a", "Berakhot 5b"]
    rambam = 'רמב"ם הל\' תשובה פ"ג ה"ד, ושם ה"ה'
    assert refs(rambam) == ["Mishneh Torah, Repentance 3:4", "Mishneh Torah, Repentance 3:5"]


def test_ibid_without_context_is_not_linked() -> None:
    assert refs("שם נח, ב") == []
    assert refs('לקו"ת שה"ש ב, א ושם ג, ב') == []


def test_resolve() -> None:
    ref = resolve('רמב"ם הל\' תשובה פ"ג ה"ד')
    assert ref is not None and ref.normal() == "Mishneh Torah, Repentance 3:4"
    assert resolve('לקו"ת (במדבר יג, א)') is None
    assert resolve("") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("בראשית א, א.", "Genesis 1:1."),
        ('ראה שבת לא, א; ב"מ פה, ב.', "See Shabbat 31a; Bava Metzia 85b."),
        ("(שמות כא, ד)", "(Exodus 21:4)"),
        ('וראה תניא פל"ב', "And see Tanya, Part I; Likkutei Amarim 32"),
        ("בראשית א, א. ועוד שם", None),
        ("ויאמר משה", None),
        ("", None),
    ],
)
def test_translate_citation(text: str, expected: str | None) -> None:
    assert translate_citation(text) == expected


def test_dev_set_accuracy(data_dir: Path) -> None:
    path = data_dir / "citations_dev.jsonl"
    if not path.exists():
        pytest.skip(f"{path} not found")
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    right = wrong = hit = expected = 0
    for row in rows:
        found = refs(row["text"])
        exp = row["expected_ref"]
        expected += bool(exp)
        hit += bool(exp) and exp in found
        right += sum(r == exp for r in found)
        wrong += sum(r != exp for r in found)
        if exp in found:
            assert ref_url(exp) == row["url"]
    assert right / (right + wrong) >= 0.98
    assert hit / expected >= 0.90


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("אבגדהוזחטיכלמנסעפצקרשתםןץףך \"'׳״:.,;()-\n0123")),
        max_size=80,
    )
)
def test_never_raises_and_spans_are_exact(text: str) -> None:
    found = find_citations(text)
    ends = [0]
    for c in found:
        assert text[c.start : c.end] == c.text
        assert c.start >= ends[-1]  # in order, never overlapping
        assert c.url == ref_url(c.ref)
        ends.append(c.end)
    translate_citation(text)


def test_module_docstring_examples() -> None:
    import doctest

    import libtext.sefaria

    result = doctest.testmod(libtext.sefaria)
    assert result.attempted >= 3 and result.failed == 0
