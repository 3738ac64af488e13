"""Per-page access to pdfium's text page for the line reader (:mod:`._read`).

:class:`PageReader` asks pdfium about a page's characters through a few reusable
buffers (or the C twin of :class:`~libtext.pdf._pdfium.CharCalls`) and keeps each
answer for the page: the gutter search, the line reader and the glyph reader ask
about the same characters. The rules that read lines stay in :mod:`._read`.
"""

from __future__ import annotations

import ctypes
import re
from typing import Any, Final, Protocol

from libtext.pdf._pdfium import PageChars, char_calls
from libtext.pdf._text import is_mark
from libtext.pdf._visual import Direction, Glyph

__all__ = ["Boxes", "PageReader"]

_HEBREW: Final = re.compile("[\u05d0-\u05ea]")


class Boxes(Protocol):
    """What the mark and punctuation repairs ask of a page: boxes and pdfium's calls.

    A protocol, not :class:`PageReader`, so that a test can hand them recorded boxes
    (compiled, a parameter typed with a class accepts that class only).
    """

    raw: Any
    tp: Any

    def box(self, i: int) -> tuple[float, float]: ...


class PageReader:
    """Per-page access to pdfium's text page through a few reusable ctypes buffers."""

    def __init__(
        self,
        raw: Any,
        textpage: Any,
        height: float,
        direction: Direction = "R",
        page: Any = None,
    ) -> None:
        self.raw = raw
        self.tp = textpage
        self.page = page
        self.height = height
        self.direction: Direction = direction
        self._rect = raw.FS_RECTF()
        self._matrix = raw.FS_MATRIX()
        self._calls: PageChars = char_calls(raw, textpage, self._matrix, page)
        self._name = ctypes.create_string_buffer(128)
        self._flags = ctypes.c_int()
        # The gutter search, the line reader and the glyph reader ask for the same
        # characters' boxes and sizes: one ctypes call each per page (but for the
        # gutter search's batches, see boxes()).
        self._boxes: dict[int, tuple[float, float]] = {}
        self._sizes: dict[int, float] = {}
        self._baselines: dict[int, float] = {}
        self._middles: dict[int, float] = {}
        self._replaced: dict[int, tuple[float, float] | None] | None = None
        self._unions: dict[int, tuple[float, float] | None] = {}
        self._bold_fonts: dict[int, bool] = {}
        self._char_objects: dict[int, int | None] = {}
        self._modes: dict[int, int] = {}
        self._fills: dict[int, tuple[int, int, int] | None] = {}
        # Read once: a module attribute costs a lookup on every line's two questions.
        self._invisible_mode = int(raw.FPDF_TEXTRENDERMODE_INVISIBLE)
        self._fill_stroke_mode = int(raw.FPDF_TEXTRENDERMODE_FILL_STROKE)

    def looses(self, indices: list[int]) -> list[float]:
        """The advance boxes (where each sits among its neighbours) of many characters,
        from one batch, flat: left, right of the first, left, right of the second, ..."""
        return self._calls.looses(indices)

    def pair_gaps(self, line: str, a: int) -> tuple[list[int], list[float]]:
        """Where letters abut in ``line`` (character ``a`` of the page first) and the gaps
        between their advance boxes, from one batch (see :meth:`CharCalls.pair_gaps`)."""
        return self._calls.pair_gaps(line, a)

    def invisible(self, i: int) -> bool:
        """Whether character ``i`` is drawn invisibly: an OCR engine's text over a scan."""
        obj = self._text_object(i)
        if not obj:
            return False
        return self._render_mode(obj) == self._invisible_mode

    def _text_object(self, i: int) -> int | None:
        # A line's weight and its visibility are asked of the same character.
        # One lookup: an address is never -1.
        got = self._char_objects.get(i, -1)
        if got == -1:
            got = self._char_objects[i] = self._calls.text_object(i)
        return got

    def _render_mode(self, obj: int) -> int:
        got = self._modes.get(obj)
        if got is None:
            got = self._modes[obj] = self._calls.render_mode(obj)
        return got

    def box(self, i: int) -> tuple[float, float]:
        got = self._boxes.get(i)
        if got is None:
            lo, hi, self._middles[i] = self._calls.box_middle(i)
            got = self._boxes[i] = (lo, hi)
        return got

    def middle(self, i: int) -> float:
        """The vertical middle of character ``i``'s ink box (page coordinates)."""
        got = self._middles.get(i)
        if got is None:
            lo, hi, got = self._calls.box_middle(i)
            self._middles[i] = got
            self._boxes[i] = (lo, hi)
        return got

    def boxes(self, indices: list[int]) -> list[tuple[float, float]]:
        """:meth:`box` of many characters in one batch, not kept: the gutter search
        reads the letters around a page's spaces once, and keeping them cost more
        than asking again for the few that are read later."""
        return self._calls.boxes(indices)

    def glyphs(self, text: str, a: int, b: int) -> list[Glyph]:
        """Characters ``a`` to ``b - 1`` with their advance boxes and ink centres (for
        marks), the boxes read in one batch."""
        # The boxes come flat from one call and the glyphs are made here: compiled, a
        # native constructor call; made in the C twin, the generic call to the class
        # cost more than the flat list (measured: a fifth more for the glyph reader).
        flat = self._calls.glyph_boxes(a, b)
        out: list[Glyph] = []
        for k in range(b - a):
            i = a + k
            ch = text[i]
            left, right, lo, hi = flat[4 * k], flat[4 * k + 1], flat[4 * k + 2], flat[4 * k + 3]
            if ch.isspace():
                generated = self._calls.is_generated(i)
                out.append(Glyph(ch, left, right, (lo + hi) / 2, generated, i))
                continue
            if left == lo and right == hi:
                # pdfium gives the characters of a replacement text (/ActualText) equal
                # slices of its first glyph's box; everywhere else the loose box (the
                # advance) differs from the ink box.
                span = self.replacement_box(i)
                if span is not None:
                    out.append(Glyph(ch, span[0], span[1], (span[0] + span[1]) / 2, index=i))
                    continue
            out.append(Glyph(ch, left, right, (lo + hi) / 2, False, i))
        return out

    def replacement_box(self, i: int) -> tuple[float, float] | None:
        """Where character ``i`` of a replacement text (/ActualText) is drawn, else None.

        A marked-content sequence with /ActualText (Word writes one per pointed
        letter: the letter's glyph and its marks' glyphs, some raised on glyphs of
        their own) reads as its replacement text (PDF 32000-1, 14.9.4); pdfium lays
        that text over one glyph alone, often a mark's. The text belongs where all
        of the sequence's glyphs are: their union, shared by its base letters in the
        line's direction, each mark with its letter.
        """
        if self._replaced is None:
            self._replaced = {}
        if i in self._replaced:
            return self._replaced[i]
        calls = self._calls
        key = calls.text_object(i)
        if key is None:
            union = None
        elif key in self._unions:
            union = self._unions[key]  # a text object's characters share the answer
        else:
            union = self._unions[key] = calls.span_union(key)
        if key is None or union is None:
            self._replaced[i] = None
            return None
        n = calls.count_chars()
        first, last = i, i
        while first > 0 and calls.text_object(first - 1) == key:
            first -= 1
        while last + 1 < n and calls.text_object(last + 1) == key:
            last += 1
        chars = [chr(calls.unicode(k)) for k in range(first, last + 1)]
        bases = [k for k, ch in enumerate(chars) if not is_mark(ch) and not ch.isspace()] or [0]
        lo, hi = union
        step = (hi - lo) / len(bases)
        rtl = self.direction == "R" or any(_HEBREW.match(chars[k]) for k in bases)
        owner = 0
        for k in range(len(chars)):
            if k in bases:
                owner = bases.index(k)
            slot = len(bases) - 1 - owner if rtl else owner
            self._replaced[first + k] = (lo + slot * step, lo + (slot + 1) * step)
        return self._replaced[i]

    def baseline(self, i: int) -> float:
        got = self._baselines.get(i)
        if got is None:
            got = self._baselines[i] = self.height - self._calls.origin(i)[1]
        return got

    def size(self, i: int) -> float:
        """The size a reader sees: the ``Tf`` operand times the text and page matrices.

        InDesign and Quartz write ``1 Tf`` and scale by the text matrix; Windows' Print
        to PDF writes ``327.68 Tf`` scaled down by 0.081: the operand alone says nothing.
        """
        got = self._sizes.get(i)
        if got is not None:
            return got
        size = self._sizes[i] = self._calls.size(i)
        return size

    def line_size(self, text: str, a: int, b: int) -> float:
        """The low median of the sizes of ``text[a:b]``'s letters (0.0 without one), in one
        call: an OCR layer sizes each word to its box, so a few samples may hit an outlier."""
        return self._calls.line_size(text[a:b], a)

    def metrics(self, i: int) -> tuple[float, float]:
        """Character ``i``'s size and baseline."""
        return self.size(i), self.baseline(i)

    def bold(self, i: int) -> bool:
        """Bold by its font (weight, name, ForceBold), or drawn filled and stroked.

        The font's part is asked once per font and page: a page has a few fonts and
        dozens of lines.
        """
        calls = self._calls
        obj = self._text_object(i)
        font = calls.font(obj) if obj else None
        if not obj or not font:
            return self._font_bold(i) or (obj is not None and self._stroked(obj))
        by_font = self._bold_fonts.get(font)
        if by_font is None:
            by_font = self._bold_fonts[font] = self._font_bold(i)
        return by_font or self._stroked(obj)

    def fill(self, i: int) -> tuple[int, int, int] | None:
        """Character ``i``'s fill colour (red, green, blue; None when pdfium has none):
        asked of each line's middle (the text's colour) and a short line's ends (a title's)."""
        obj = self._text_object(i)
        if not obj:
            return None
        if obj in self._fills:
            return self._fills[obj]
        got = self._fills[obj] = self._calls.fill(obj)
        return got

    def font_of(self, i: int) -> int | None:
        """Character ``i``'s font (a handle: equal for one font of the page)."""
        obj = self._text_object(i)
        return self._calls.font(obj) if obj else None

    def slanted(self, i: int) -> bool:
        """Whether character ``i`` is drawn slanted (a shear in its matrix: a producer's
        oblique or italic of an upright font)."""
        if not self._calls.matrix(i):
            return False
        m = self._matrix
        a, b, c, d = float(m.a), float(m.b), float(m.c), float(m.d)
        return abs(c) > 0.05 * abs(d) and abs(b) < 0.05 * abs(a)

    def font_name(self, i: int) -> str:
        n = self.raw.FPDFText_GetFontInfo(self.tp, i, self._name, 128, ctypes.byref(self._flags))
        return self._name.value.decode("latin-1", "replace") if n else ""

    def _font_bold(self, i: int) -> bool:
        weight = self.raw.FPDFText_GetFontWeight(self.tp, i)
        n = self.raw.FPDFText_GetFontInfo(self.tp, i, self._name, 128, ctypes.byref(self._flags))
        name = self._name.value.decode("latin-1", "replace").lower() if n else ""
        if any(w in name for w in _BOLD_NAMES):
            return True
        # A face named for a light weight is not bold whatever weight its descriptor
        # claims (a font's oblique whose weight class says 920 beside its upright's 500).
        if weight >= 600 and not any(w in name.rpartition("+")[2] for w in _LIGHT_NAMES):
            return True
        # Flag bit 19 is ForceBold (PDF 32000-1, table 123).
        return bool(self._flags.value & (1 << 18))

    def _stroked(self, obj: int) -> bool:
        # Word and others fake bold by stroking the glyph outline as well as filling it.
        return self._render_mode(obj) == self._fill_stroke_mode


# Words in a font's name that say its weight: bold ones, and light ones.
_BOLD_NAMES: Final = ("bold", "black", "heavy", "semibold", "demi")
_LIGHT_NAMES: Final = ("regular", "medium", "light", "thin")
