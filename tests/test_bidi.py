"""libtext's own bidi algorithm for its subset of characters against python-bidi's."""

from __future__ import annotations

import random

import pytest
from bidi import get_display

from libtext.pdf._bidi import _CLASS, display

# The characters of the lines libtext reads most, weighted towards the ones the rules
# treat apart: digits and their separators and terminators, brackets, marks, spaces.
_COMMON = (
    list("אבגדהוזחטיכלמנסעפצקרשתםןךףץ")
    + list("abcXYZ")
    + list("0123456789")
    + [" "] * 4
    + list(".,:;/-+%$#!?'\"()[]{}<>")
    + ["\u05b0", "\u05b4", "\u0591", "\u00a0", "\u2013", "\u200f", "\u200e", "\u05be"]
    + ["\u00b0", "\u2026", "\u05c3", "\u0301", "\u201d", "\ufb2a", "\u2030"]
)


def _lines(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    every = sorted(_CLASS)
    out = []
    for k in range(count):
        pool = _COMMON if k % 2 else every
        out.append("".join(rng.choice(pool) for _ in range(rng.randint(0, 16))))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_random_lines_match_python_bidi(seed: int) -> None:
    for line in _lines(seed, 5000):
        for direction in ("L", "R"):
            assert display(line, direction) == get_display(line, base_dir=direction), (
                line,
                direction,
            )


@pytest.mark.parametrize(
    ("line", "direction"),
    [
        ("ALS תווצ תדובעל", "R"),
        ("2022 לירפא", "R"),
        ("(ROSC) האייחה רחאל", "R"),
        ("1,000.5% ןמ", "R"),
        ("abc (אב) 12", "L"),
        ("אב [cd 3] (הו", "R"),
        ("\u05d0\u05b0 1-2 ", "R"),
    ],
)
def test_lines_of_books(line: str, direction: str) -> None:
    assert display(line, direction) == get_display(line, base_dir=direction)


@pytest.mark.parametrize(
    "line",
    [
        "\u0627\u0644 12",  # Arabic letters: rule W2 turns the digits into Arabic ones
        "\u0661\u0662 אב",  # Arabic digits
        "אב \u202bcd",  # an explicit embedding
        "אב \u2067cd\u2069",  # an isolate
        "אב\ncd",  # two paragraphs
        "אב\tcd",  # a segment separator
        "ab\u00adcd",  # a boundary neutral (soft hyphen)
        "אב \u2045cd\u2046",  # a paired bracket outside the subset
    ],
)
def test_outside_the_subset_is_left_to_python_bidi(line: str) -> None:
    assert display(line, "R") is None
    assert display(line, "L") is None


def test_subset_covers_hebrew_latin_digits_and_punctuation() -> None:
    for ch in "אבת\u05b0\u0591aZ09 .,:;()[]{}%$#+-/\u00a0\u2013\u2026\u200f":
        assert ch in _CLASS, ch
