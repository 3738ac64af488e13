"""The per-glyph path's shortcuts give what the full path gives.

Truth comes from the generator's input (where each mark was drawn, which letter owns
it) or from python-bidi itself, never from libtext's output.
"""

from __future__ import annotations

import random
import unicodedata

import pytest
from bidi import get_display

from libtext.pdf._text import MIRROR, bracket_directions
from libtext.pdf._visual import Glyph, _plain_text, visual_parts

_HEBREW = "אבגדהוזחטיכלמנסעפצקרשתךםןףץ"
_POINTS = "\u05b0\u05b4\u05b8\u05bc\u05c1\u0591"
_LATIN = "abcXYZé"


@pytest.mark.parametrize("seed", range(4))
def test_plain_text_is_pythonbidis_display(seed: int) -> None:
    """Where the shortcut answers, it answers as python-bidi does; where the text holds
    a digit, punctuation or the other direction's letters, it leaves it to python-bidi."""
    rng = random.Random(seed)
    alphabets = [
        _HEBREW + _POINTS + "  ",
        _LATIN + "\u0301  ",
        _HEBREW + _LATIN + _POINTS + " 0123.,()-:\u200f\u00a0\u05be",
    ]
    answered = 0
    for _ in range(3000):
        chars = rng.choice(alphabets)
        text = "".join(rng.choice(chars) for _ in range(rng.randint(0, 14)))
        for direction in ("R", "L"):
            got = _plain_text(text, direction)
            if got is None:
                continue
            answered += 1
            assert got == get_display(text, base_dir=direction), (text, direction)
            assert not any(ch.isdigit() or ch in ".,()-:" for ch in text)
    assert answered > 1000  # the shortcut is taken, not only declined


def test_plain_text_declines_mixed_runs() -> None:
    assert _plain_text("שלום abc", "R") is None
    assert _plain_text("שלום 12", "R") is None
    assert _plain_text("abc שלום", "L") is None
    assert _plain_text("שָׁלוֹם עולם", "R") == "שָׁלוֹם עולם"[::-1]
    assert _plain_text("hello world", "L") == "hello world"


def _word_line() -> tuple[list[Glyph], str]:
    """A pointed word drawn as Word 365 does: each mark in a slot of its own after its
    letter in the stream, the slots running leftwards from the letter's right-to-left
    edge. Returns the glyphs (stream order) and the word's logical text."""
    # Letters right to left: bet (its dagesh and qamats in slots at its left), alef.
    bet = Glyph("ב", 90.0, 100.0, 95.0, index=0)
    dagesh = Glyph("\u05bc", 86.0, 90.0, 88.0, index=1)
    qamats = Glyph("\u05b8", 82.0, 86.0, 84.0, index=2)  # nearer alef's box than bet's
    alef = Glyph("א", 70.0, 82.0, 76.0, index=3)
    truth = unicodedata.normalize("NFC", "ב\u05bc\u05b8א")
    return [bet, dagesh, qamats, alef], truth


def test_slotted_marks_go_to_their_stream_letter() -> None:
    glyphs, truth = _word_line()
    parts = visual_parts(glyphs, 10.0, "R")
    assert [p.text for p in parts] == [truth]


def test_slotted_marks_in_any_stream_order() -> None:
    bet, dagesh, qamats, alef = _word_line()[0]
    # Word may write the dagesh after the vowel drawn right of it.
    parts = visual_parts([bet, qamats, dagesh, alef], 10.0, "R")
    assert [p.text for p in parts] == [unicodedata.normalize("NFC", "ב\u05bc\u05b8א")]


def test_marks_after_a_latin_letter_keep_their_boxes() -> None:
    """A run of marks after a glyph that is not a Hebrew letter is no Word slot run:
    each mark goes to the letter its box is over."""
    glyphs = [
        Glyph("a", 0.0, 5.0, 2.5, index=0),
        Glyph("\u0301", 1.0, 4.0, 2.5, index=1),
        Glyph("b", 5.0, 10.0, 7.5, index=2),
    ]
    parts = visual_parts(glyphs, 10.0, "L")
    assert [p.text for p in parts] == [unicodedata.normalize("NFC", "a\u0301b")]


def test_precomposed_stray_is_dropped_only_over_its_letter() -> None:
    """A pointed letter drawn as one glyph: a sliver of a box for the letter and a stray
    character over it; the stray goes. A punctuation mark away from it stays."""
    size = 10.0
    glyphs = [
        Glyph("ש", 90.0, 100.0, 95.0, index=0),
        Glyph("פ", 84.0, 85.0, 84.5, index=1),  # the sliver
        Glyph("&", 80.0, 90.0, 85.0, index=2),  # the stray over it
        Glyph("ר", 70.0, 80.0, 75.0, index=3),
        Glyph(" ", 60.0, 70.0, 65.0, index=4),
        Glyph("א", 50.0, 60.0, 55.0, index=5),
        Glyph("ב", 40.0, 50.0, 45.0, index=6),
        Glyph(".", 37.0, 40.0, 38.5, index=7),
    ]
    parts = visual_parts(glyphs, size, "R")
    assert [p.text for p in parts] == ["שפר אב."]


@pytest.mark.parametrize(
    "text",
    ["אב (גד) הו", "ab [c] d", "no brackets here", "«א» ‹b› <c> {d}", ")א(", ""],
)
def test_bracket_directions_cover_every_bracket(text: str) -> None:
    got = bracket_directions(text)
    assert sorted(got) == [i for i, ch in enumerate(text) if ch in MIRROR]


def test_an_ocr_layers_space_between_abutting_word_boxes_parts_the_words() -> None:
    # An OCR layer writes a space of no width between two words whose boxes abut
    # (a one-letter word boxed large against the next): its space is the engine's
    # word boundary. XeTeX's zero-width spaces after pointed letters are not.
    glyphs = [
        Glyph("א", 100.0, 110.0, 105.0, index=0),
        Glyph("\u05b7", 100.0, 103.0, 101.5, index=1),
        Glyph(" ", 99.0, 99.0, 99.0, index=2),
        Glyph("מ", 91.0, 98.5, 94.75, index=3),
        Glyph("ל", 85.0, 91.0, 88.0, index=4),
        Glyph("ך", 80.0, 85.0, 82.5, index=5),
    ]
    texts = [
        unicodedata.normalize(
            "NFC", " ".join(p.text for p in visual_parts(glyphs, 16.0, "R", ocr=ocr))
        )
        for ocr in (False, True)
    ]
    assert texts == ["אַמלך", "אַ מלך"]


def test_part_is_equal_field_by_field_and_unhashable() -> None:
    from libtext.pdf._visual import Part

    part = Part("אב", True, 1.0, 2.0)
    assert part == Part("אב", True, 1.0, 2.0)
    assert part != Part("אב", True, 1.0, 2.0, cells=[(1.0, 2.0, "אב")])
    assert part.cells == [] and part.size is None and part.baseline is None
    assert Part("a", True, 0.0, 1.0).cells is not Part("a", True, 0.0, 1.0).cells
    with pytest.raises(TypeError):
        hash(part)
