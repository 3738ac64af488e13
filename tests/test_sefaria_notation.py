"""libtext.sefaria on real citation notation: each case is written from what the notation
means (gematria, daf/amud, rashei teivot), not from the linker's output."""

from __future__ import annotations

import pytest

from libtext.sefaria import find_citations


def found(text: str) -> list[tuple[str, str]]:
    return [(c.text, c.ref) for c in find_citations(text)]


def refs(text: str) -> list[str]:
    return [c.ref for c in find_citations(text)]


# ---------------------------------------------------------------- bugs


@pytest.mark.parametrize(
    "text",
    [
        'ברכות ד"ה',  # ד"ה = dibbur ha-maschil (the opening words), not "daf 5"
        'ברכות ד"ה אמר רבא',
        "ברכות ד״ה",
    ],
)
def test_dibbur_hamaschil_is_not_a_daf(text: str) -> None:
    assert refs(text) == []


def test_tosafot_dibbur_hamaschil_points_into_tosafot_not_the_daf() -> None:
    # תוד"ה = תוספות ד"ה: the words after it open a Tosafot comment on Menachot 78a
    assert refs('תוד"ה אחת מנחות עח, א') == ["Tosafot on Menachot 78a"]
    assert refs("תוס' ד\"ה אחת מנחות עח, א") == ["Tosafot on Menachot 78a"]
    assert "Menachot 78a" not in refs('ראה תוד"ה אחת מנחות עח, א')


def test_a_dash_that_is_not_a_range_keeps_the_citation() -> None:
    assert found("בראשית א, א - ועוד דבר") == [("בראשית א, א", "Genesis 1:1")]


def test_a_dash_between_two_books_gives_two_citations() -> None:
    assert refs("בראשית א, א - שמות ב, ג") == ["Genesis 1:1", "Exodus 2:3"]


def test_a_range_with_the_title_repeated_is_one_range() -> None:
    text = "דברי הימים א ט״ו:ט״ו - דברי הימים א ט״ז:י״ז"
    assert found(text) == [(text, "I Chronicles 15:15-16:17")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('רש"י על ברכות ב:', ["Rashi on Berakhot 2b"]),  # ":" = amud b
        ('רש"י על בראשית א, א', ["Rashi on Genesis 1:1"]),
        ("מדרש תהלים פרק כג", ["Midrash Tehillim 23"]),  # the midrash, not Psalms 23
        ('רמב"ן על ברכות ב:', []),  # Ramban on the Talmud is another work: no link
    ],
)
def test_commentary_written_with_al_links_the_commentary(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize("text", ["מכות דף ב עמוד ג", "מכות דף ב עמוד ד'", "שבת דף ה עמוד ה"])
def test_an_impossible_amud_is_no_link(text: str) -> None:
    # a daf has two sides, א and ב
    assert refs(text) == []


def test_pointed_text_links_and_keeps_offsets() -> None:
    text = '(יְשַׁעְיָה ל"ח)'
    (c,) = find_citations(text)
    assert c.ref == "Isaiah 38"
    assert text[c.start : c.end] == c.text == 'יְשַׁעְיָה ל"ח'
    pointed = "כְּמוֹ שֶׁכָּתוּב (בְּרֵאשִׁית א, א) וְכוּ'"
    (c,) = find_citations(pointed)
    assert (c.ref, c.text) == ("Genesis 1:1", "בְּרֵאשִׁית א, א")
