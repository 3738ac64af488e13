"""Hebrew numerals and normalization."""

from __future__ import annotations

import pytest

from libtext.hebrew import (
    format_numeral,
    normalize_for_match,
    parse_numeral,
    parse_prefixed_numeral,
    strip_nikud,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("א", 1), ("י", 10), ("יא", 11), ("ט\"ו", 15), ("ט״ז", 16), ("קי\"ט", 119),
        ("תתקצ\"ט", 999), ("כ'", 20), ("ל״ב", 32), ("ה'תשפ\"ו", 5786), ("ה׳תשפ״ו", 5786),
        ("יו\"ד", 10), ("וא\"ו", 6), ("רם", 240), ("תקמ\"ה", 545),
    ],
)  # fmt: skip
def test_parse_numeral(text: str, value: int) -> None:
    assert parse_numeral(text) == value


@pytest.mark.parametrize("text", ["", "abc", "יה", "אב", "כי", "פרק", "שלום", "יוד"])
def test_parse_numeral_rejects_non_numerals(text: str) -> None:
    assert parse_numeral(text) is None


@pytest.mark.parametrize("value", [1, 9, 10, 15, 16, 20, 99, 119, 120, 345, 999])
def test_format_round_trip(value: int) -> None:
    assert parse_numeral(format_numeral(value)) == value
    assert parse_numeral(format_numeral(value, marks=False)) == value


def test_strip_nikud_keeps_letters_and_maqaf() -> None:
    assert strip_nikud("בְּרֵאשִׁית בָּרָא") == "בראשית ברא"
    assert strip_nikud("עַל־פְּנֵי") == "על־פני"


def test_normalize_for_match() -> None:
    assert normalize_for_match("שָׁלוֹם  עֲלֵיכֶם״") == 'שלומ עליכמ"'


@pytest.mark.parametrize(
    ("text", "value"),
    [
        # geresh / gershayim: Unicode, ASCII, doubled apostrophe, typographic quotes
        ("ט׳", 9), ("ט'", 9), ("ט’", 9), ("קי״ט", 119), ('קי"ט', 119), ("קי''ט", 119),
        ("קי”ט", 119), ("ק׳", 100),
        # 15 and 16 are written ט"ו / ט"ז, never י"ה / י"ו
        ("ט״ו", 15), ("טו", 15), ('ט"ז', 16), ("טז", 16), ('קט"ו', 115), ('רט"ז', 216),
        # spelled letter names
        ('יו"ד', 10), ("יו״ד", 10), ('וא"ו', 6), ('אל"ף', 1), ('זי"ן', 7), ('טי"ת', 9),
        # thousands
        ('ה\'תשפ"ו', 5786), ("ה׳תשפ״ו", 5786), ('ה\' תשנ"ב', 5752), ('א\'תתקמ"ב', 1942),
        # nikud is ignored
        ("קִי\"ט", 119),
    ],
)  # fmt: skip
def test_parse_numeral_edge_cases(text: str, value: int) -> None:
    assert parse_numeral(text) == value


@pytest.mark.parametrize("text", ['י"ה', 'י"ו', "יה", "יו", "שת", "ויו", "אב", "הא", "״", "'"])
def test_parse_numeral_rejects_malformed(text: str) -> None:
    assert parse_numeral(text) is None


@pytest.mark.parametrize("first", list("אבגדהוזחט"))
def test_doubled_apostrophe_is_gershayim_not_thousands(first: str) -> None:
    # "ט''ו" is 15 like "ט״ו"; only a single geresh after a units letter means thousands.
    for last in "אבגדהוזחט":
        unicode_ = parse_numeral(f"{first}\u05f4{last}")
        assert parse_numeral(f"{first}''{last}") == unicode_ == parse_numeral(f'{first}"{last}')
    assert parse_numeral(f"{first}'תשפ''ו") == parse_numeral(f"{first}׳תשפ״ו") > 1000


def test_spelled_letters_can_be_turned_off() -> None:
    assert parse_numeral('יו"ד', spelled=False) is None
    assert parse_numeral('וא"ו', spelled=False) is None


@pytest.mark.parametrize(
    ("token", "prefix", "markers", "expected"),
    [
        ('פי"א', "פ", "", ("", 11)),  # chapter 11
        ("פי״א", "פ", "", ("", 11)),
        ('ה"ד', "ה", "", ("", 4)),  # halacha 4
        ('הט"ו', "ה", "", ("", 15)),
        ('סל"א', "ס", "", ("", 31)),  # siman 31
        ('סקמ"ג', "ס", "", ("", 143)),
        ('רפל"ו', "פ", "רס", ("ר", 36)),  # beginning of chapter 36
        ('ספי"ב', "פ", "רס", ("ס", 12)),  # end of chapter 12
        ('סע"ב', "ס", "", ("", 72)),  # seif 72 (as a glued siman/seif number)
        ('מכ"א', "מ", "", ("", 21)),  # mishnah 21
        ('ד"כ', "ד", "", ("", 20)),  # daf 20
        ("פ׳ה", "פ", "", ("", 5)),
    ],
)
def test_parse_prefixed_numeral_edge_cases(
    token: str, prefix: str, markers: str, expected: tuple[str, int]
) -> None:
    assert parse_prefixed_numeral(token, prefix, markers=markers) == expected


@pytest.mark.parametrize(
    ("token", "prefix"), [("פה", "פ"), ('פי"ה', "פ"), ('ה"', "ה"), ('ס"א', "פ"), ("סעב", "ס")]
)
def test_parse_prefixed_numeral_rejects(token: str, prefix: str) -> None:
    assert parse_prefixed_numeral(token, prefix) is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("שלום \ud800", "a lone surrogate (U+D800) at offset 5"),
        ("\udfff", "a lone surrogate (U+DFFF) at offset 0"),
        ("אב\ufdd0", "a Unicode non-character (U+FDD0) at offset 2"),
        ("a\U0001fffe", "a Unicode non-character (U+1FFFE) at offset 1"),
        ("\U0010ffff", "a Unicode non-character (U+10FFFF) at offset 0"),
        ("שלום \U0001f600 \ufdcf \ufdf0 \U0010fffd", None),  # valid, if unusual
    ],
)
def test_unicode_problem_names_what_is_not_text(text: str, problem: str | None) -> None:
    """One rule, kept low: the models refuse, the PDF reader drops, the HTTP adapter escapes."""
    from libtext import models
    from libtext.hebrew import NOT_TEXT, unicode_problem

    assert unicode_problem(text) == problem
    assert (NOT_TEXT.search(text) is None) == (problem is None)
    assert models.unicode_problem is unicode_problem  # the public path stays
