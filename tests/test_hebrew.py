"""Hebrew numerals and normalization."""

from __future__ import annotations

import pytest

from libtext.hebrew import format_numeral, normalize_for_match, parse_numeral, strip_nikud


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
