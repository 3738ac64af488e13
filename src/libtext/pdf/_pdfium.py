"""pdfium's per-character text calls, without ctypes' per-call argument checks.

pypdfium2 declares every function's argument types, so each call converts and checks
its pointers; the fast engine asks about tens of thousands of characters per book,
and that check costs more than pdfium's answer (about 3x the C call). The same C
functions are called here through prototypes without declared arguments, with the
pointers made once per page. Only functions whose arguments are a text page, a
character index and pointers are wrapped; their C types are unchanged.

:func:`char_calls` hands out the C twin of :class:`CharCalls` where it is built
(``_charcalls``, Cython: the same calls made from C, without ctypes at all), this
class otherwise or under ``LIBTEXT_PURE_PYTHON=1``; both give the same values.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any, Protocol

from libtext.pdf._compiled import cython_module

__all__ = ["CharCalls", "PageChars", "char_calls", "char_calls_twin", "unchecked"]

_UNCHECKED: dict[tuple[int, Any], Any] = {}
# Punctuation that does not start a pair of abutting letters (:meth:`CharCalls.pair_gaps`).
_PAIR_STOPS = frozenset(".,:;!?")


def unchecked(fn: Any, restype: Any) -> Any:
    """``fn`` (a pypdfium2 binding) as a prototype that passes its arguments as given."""
    address = ctypes.cast(fn, ctypes.c_void_p).value or 0
    key = (address, restype)
    got = _UNCHECKED.get(key)
    if got is None:
        got = ctypes.CFUNCTYPE(restype)(address)
        _UNCHECKED[key] = got
    return got


class CharCalls:
    """One text page's character boxes, origins, font sizes and matrices."""

    def __init__(self, raw: Any, textpage: Any, matrix: Any, page: Any = None) -> None:
        self.tp = ctypes.c_void_p(ctypes.cast(textpage, ctypes.c_void_p).value)
        address = ctypes.cast(page, ctypes.c_void_p).value if page is not None else None
        self._page = ctypes.c_void_p(address) if address else None
        self._objects: dict[int, int] | None = None
        self._count_chars = unchecked(raw.FPDFText_CountChars, ctypes.c_int)
        self._unicode = unchecked(raw.FPDFText_GetUnicode, ctypes.c_uint)
        self._count_objects = unchecked(raw.FPDFPage_CountObjects, ctypes.c_int)
        self._get_object = unchecked(raw.FPDFPage_GetObject, ctypes.c_void_p)
        self._count_marks = unchecked(raw.FPDFPageObj_CountMarks, ctypes.c_int)
        self._get_mark = unchecked(raw.FPDFPageObj_GetMark, ctypes.c_void_p)
        self._value_type = unchecked(raw.FPDFPageObjMark_GetParamValueType, ctypes.c_int)
        self._bounds = unchecked(raw.FPDFPageObj_GetBounds, ctypes.c_int)
        self._string_type = int(raw.FPDF_OBJECT_STRING)
        self._buf = (ctypes.c_double * 4)()
        base = ctypes.addressof(self._buf)
        self._quad = tuple(ctypes.c_void_p(base + 8 * k) for k in range(4))
        self._matrix = ctypes.c_void_p(ctypes.addressof(matrix))
        self._m = matrix
        self._char_box = unchecked(raw.FPDFText_GetCharBox, ctypes.c_int)
        self._rect = raw.FS_RECTF()
        self._rect_ref = ctypes.c_void_p(ctypes.addressof(self._rect))
        self._loose_box = unchecked(raw.FPDFText_GetLooseCharBox, ctypes.c_int)
        self._char_origin = unchecked(raw.FPDFText_GetCharOrigin, ctypes.c_int)
        self._font_size = unchecked(raw.FPDFText_GetFontSize, ctypes.c_double)
        self._get_matrix = unchecked(raw.FPDFText_GetMatrix, ctypes.c_int)
        self._text_object = unchecked(raw.FPDFText_GetTextObject, ctypes.c_void_p)
        self._font = unchecked(raw.FPDFTextObj_GetFont, ctypes.c_void_p)
        self._render_mode = unchecked(raw.FPDFTextObj_GetTextRenderMode, ctypes.c_int)
        self._is_generated = unchecked(raw.FPDFText_IsGenerated, ctypes.c_int)
        self._fill_color = unchecked(raw.FPDFPageObj_GetFillColor, ctypes.c_int)
        self._rgba = (ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint())
        self._rgba_refs = tuple(ctypes.byref(x) for x in self._rgba)

    def box(self, i: int) -> tuple[float, float]:
        """Left and right of character ``i``'s ink box (``FPDFText_GetCharBox``)."""
        self._char_box(self.tp, i, *self._quad)
        buf = self._buf
        return buf[0], buf[1]

    def box_middle(self, i: int) -> tuple[float, float, float]:
        """:meth:`box` and the vertical middle of the ink box, from one call."""
        self._char_box(self.tp, i, *self._quad)
        buf = self._buf
        return buf[0], buf[1], (buf[2] + buf[3]) / 2

    def boxes(self, indices: list[int]) -> list[tuple[float, float]]:
        """:meth:`box` of many characters, in one tight loop (the gutter search's path)."""
        call, tp, quad, buf = self._char_box, self.tp, self._quad, self._buf
        out: list[tuple[float, float]] = []
        append = out.append
        for i in indices:
            call(tp, i, *quad)
            append((buf[0], buf[1]))
        return out

    def looses(self, indices: list[int]) -> list[float]:
        """Left and right of many characters' advance boxes (``FPDFText_GetLooseCharBox``)
        in one tight loop, flat: left and right of the first, of the second, ..."""
        call, tp, ref, rect = self._loose_box, self.tp, self._rect_ref, self._rect
        out: list[float] = []
        extend = out.extend
        for i in indices:
            call(tp, i, ref)
            extend((rect.left, rect.right))
        return out

    def glyph_boxes(self, a: int, b: int) -> list[float]:
        """Advance and ink boxes of characters ``a`` to ``b - 1`` in one tight loop, flat:
        advance left, advance right, ink left, ink right of each (the glyph reader's path).
        """
        loose, char_box, tp = self._loose_box, self._char_box, self.tp
        ref, rect, quad, buf = self._rect_ref, self._rect, self._quad, self._buf
        q0, q1, q2, q3 = quad
        out: list[float] = []
        extend = out.extend
        for i in range(a, b):
            loose(tp, i, ref)
            char_box(tp, i, q0, q1, q2, q3)
            extend((rect.left, rect.right, buf[0], buf[1]))
        return out

    def pair_gaps(self, line: str, a: int) -> tuple[list[int], list[float]]:
        """Where two letters abut in ``line`` (``line[k]`` is character ``a + k``) and
        the gap between their advance boxes, in one tight loop (an OCR layer's lines).

        A pair is an index ``k`` whose character is neither a space nor one of
        ``.,:;!?`` and follows one that is no space (the pattern ``(?<=\\S)[^\\s.,:;!?]``);
        its gap is ``max(left, left) - min(right, right)`` of characters ``a + k - 1``
        and ``a + k`` (ties as the builtins break them). Each character's box is asked
        once, in the line's order.
        """
        call, tp, ref, rect = self._loose_box, self.tp, self._rect_ref, self._rect
        pairs: list[int] = []
        gaps: list[float] = []
        lp = rp = 0.0
        loaded = -1
        for k in range(1, len(line)):
            ch = line[k]
            if ch.isspace() or ch in _PAIR_STOPS or line[k - 1].isspace():
                continue
            if loaded != k - 1:
                call(tp, a + k - 1, ref)
                lp, rp = rect.left, rect.right
            call(tp, a + k, ref)
            lq, rq = rect.left, rect.right
            loaded = k
            pairs.append(k)
            gaps.append((lq if lq > lp else lp) - (rq if rq < rp else rp))
            lp, rp = lq, rq
        return pairs, gaps

    def is_generated(self, i: int) -> bool:
        """Whether character ``i`` is one pdfium inferred (a space from a gap)."""
        return bool(self._is_generated(self.tp, i))

    def origin(self, i: int) -> tuple[float, float]:
        """Character ``i``'s origin, in page coordinates (``FPDFText_GetCharOrigin``)."""
        q = self._quad
        self._char_origin(self.tp, i, q[0], q[1])
        return self._buf[0], self._buf[1]

    def font_size(self, i: int) -> float:
        """The ``Tf`` operand of character ``i`` (``FPDFText_GetFontSize``)."""
        return float(self._font_size(self.tp, i))

    def matrix(self, i: int) -> bool:
        """Fill the matrix given at construction with character ``i``'s; False if none."""
        return bool(self._get_matrix(self.tp, i, self._matrix))

    def size(self, i: int) -> float:
        """Character ``i``'s size as a reader sees it: the ``Tf`` operand times the
        square root of its matrix's determinant (the matrix given at construction is
        filled, as by :meth:`matrix`), in one call (``PageReader.size``)."""
        size = float(self._font_size(self.tp, i))
        if self._get_matrix(self.tp, i, self._matrix):
            m = self._m
            scale = math.sqrt(abs(m.a * m.d - m.b * m.c))
            size = size * scale if scale > 0 else size
        return size

    def fill(self, obj: int) -> tuple[int, int, int] | None:
        """A page object's fill colour (red, green, blue), None where pdfium has none
        (``FPDFPageObj_GetFillColor``)."""
        if not self._fill_color(ctypes.c_void_p(obj), *self._rgba_refs):
            return None
        c = self._rgba
        return (c[0].value, c[1].value, c[2].value)

    def line_size(self, line: str, a: int) -> float:
        """The low median of the sizes of ``line``'s letters (``line[k]`` is character
        ``a + k``; a letter is what ``str.isalpha`` says), each as ``PageReader.size``
        reads it (the ``Tf`` size times the square root of the matrix's determinant);
        0.0 without a letter. An OCR layer sizes each word to its box: a one-letter
        word boxed large must not set its line's size, as a sample of three letters let it.
        """
        size_of, get_matrix = self._font_size, self._get_matrix
        tp, ref, m = self.tp, self._matrix, self._m
        sizes: list[float] = []
        for k, ch in enumerate(line):
            if not ch.isalpha():
                continue
            size = size_of(tp, a + k)
            if get_matrix(tp, a + k, ref):
                scale = math.sqrt(abs(m.a * m.d - m.b * m.c))
                size = size * scale if scale > 0 else size
            sizes.append(size)
        if not sizes:
            return 0.0
        sizes.sort()
        return sizes[(len(sizes) - 1) // 2]

    def text_object(self, i: int) -> int | None:
        """The address of character ``i``'s text object (None for an inferred space)."""
        got: int | None = self._text_object(self.tp, i)
        return got

    def font(self, obj: int) -> int | None:
        """The address of a text object's font (the document's, shared by its pages)."""
        got: int | None = self._font(ctypes.c_void_p(obj))
        return got

    def render_mode(self, obj: int) -> int:
        """A text object's rendering mode (``FPDF_TEXTRENDERMODE_*``)."""
        return int(self._render_mode(ctypes.c_void_p(obj)))

    def count_chars(self) -> int:
        """How many characters the text page holds (``FPDFText_CountChars``)."""
        return int(self._count_chars(self.tp))

    def unicode(self, i: int) -> int:
        """Character ``i``'s code point as pdfium gives it (``FPDFText_GetUnicode``)."""
        return int(self._unicode(self.tp, i))

    def _actual_text_mark(self, obj: ctypes.c_void_p) -> tuple[int, int] | None:
        """The depth and address of ``obj``'s innermost mark with /ActualText, else None."""
        for k in range(int(self._count_marks(obj)) - 1, -1, -1):
            mark = self._get_mark(obj, ctypes.c_ulong(k))
            if self._value_type(ctypes.c_void_p(mark), b"ActualText") == self._string_type:
                return k, mark or 0
        return None

    def span_union(self, obj: int) -> tuple[float, float] | None:
        """The x extent of the marked sequence with /ActualText that holds the text
        object ``obj`` (an address): the union of the boxes of its neighbours in
        content order that share its mark (one mark item, at the same depth); None
        without such a mark, a page or any width."""
        handle = ctypes.c_void_p(obj)
        found = self._actual_text_mark(handle)
        page = self._page
        if found is None or page is None:
            return None
        depth, mark = found
        if self._objects is None:
            count = int(self._count_objects(page))
            self._objects = {(self._get_object(page, k) or 0): k for k in range(count)}
        k = self._objects.get(obj)
        if k is None:
            return None
        lo, hi = math.inf, -math.inf
        box = [ctypes.c_float() for _ in range(4)]
        refs = [ctypes.byref(v) for v in box]
        for step in (-1, 1):
            j = k if step < 0 else k + 1
            while 0 <= j < len(self._objects):
                other = ctypes.c_void_p(self._get_object(page, j))
                if self._count_marks(other) <= depth or (
                    (self._get_mark(other, ctypes.c_ulong(depth)) or 0) != mark
                ):
                    break
                if self._bounds(other, *refs) and box[2].value > box[0].value:
                    lo, hi = min(lo, box[0].value), max(hi, box[2].value)
                j += step
        return (lo, hi) if hi > lo else None


class PageChars(Protocol):
    """What the page reader asks of :class:`CharCalls` or of its C twin."""

    def box(self, i: int) -> tuple[float, float]: ...

    def box_middle(self, i: int) -> tuple[float, float, float]: ...

    def boxes(self, indices: list[int]) -> list[tuple[float, float]]: ...

    def looses(self, indices: list[int]) -> list[float]: ...

    def glyph_boxes(self, a: int, b: int) -> list[float]: ...

    def pair_gaps(self, line: str, a: int) -> tuple[list[int], list[float]]: ...

    def is_generated(self, i: int) -> bool: ...

    def origin(self, i: int) -> tuple[float, float]: ...

    def font_size(self, i: int) -> float: ...

    def matrix(self, i: int) -> bool: ...

    def size(self, i: int) -> float: ...

    def fill(self, obj: int) -> tuple[int, int, int] | None: ...

    def line_size(self, line: str, a: int) -> float: ...

    def text_object(self, i: int) -> int | None: ...

    def font(self, obj: int) -> int | None: ...

    def render_mode(self, obj: int) -> int: ...

    def count_chars(self) -> int: ...

    def unicode(self, i: int) -> int: ...

    def span_union(self, obj: int) -> tuple[float, float] | None: ...


_TWIN: list[Any] = []


def char_calls_twin() -> Any:
    """The C twin's class (``libtext.pdf._charcalls.CharCalls``), or None where it is
    not built or ``LIBTEXT_PURE_PYTHON`` asks for the reference (decided once)."""
    if not _TWIN:
        module = cython_module("_charcalls")
        _TWIN.append(None if module is None else module.CharCalls)
    return _TWIN[0]


def char_calls(raw: Any, textpage: Any, matrix: Any, page: Any = None) -> PageChars:
    """One text page's per-character calls: the C twin where built, else :class:`CharCalls`.

    ``matrix`` is a ``FS_MATRIX`` that :meth:`CharCalls.matrix` fills; ``page`` the
    page's handle (for :meth:`CharCalls.span_union`).
    """
    twin = char_calls_twin()
    if twin is not None:
        got: PageChars = twin(raw, textpage, matrix, page)
        return got
    return CharCalls(raw, textpage, matrix, page)
