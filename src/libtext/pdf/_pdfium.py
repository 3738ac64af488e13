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
import importlib
from typing import Any, Protocol

from libtext.pdf._compiled import pure_python

__all__ = ["CharCalls", "PageChars", "char_calls", "char_calls_twin"]

_UNCHECKED: dict[tuple[int, Any], Any] = {}


def _unchecked(fn: Any, restype: Any) -> Any:
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

    def __init__(self, raw: Any, textpage: Any, matrix: Any) -> None:
        self.tp = ctypes.c_void_p(ctypes.cast(textpage, ctypes.c_void_p).value)
        self._buf = (ctypes.c_double * 4)()
        base = ctypes.addressof(self._buf)
        self._quad = tuple(ctypes.c_void_p(base + 8 * k) for k in range(4))
        self._matrix = ctypes.c_void_p(ctypes.addressof(matrix))
        self._char_box = _unchecked(raw.FPDFText_GetCharBox, ctypes.c_int)
        self._rect = raw.FS_RECTF()
        self._rect_ref = ctypes.c_void_p(ctypes.addressof(self._rect))
        self._loose_box = _unchecked(raw.FPDFText_GetLooseCharBox, ctypes.c_int)
        self._char_origin = _unchecked(raw.FPDFText_GetCharOrigin, ctypes.c_int)
        self._font_size = _unchecked(raw.FPDFText_GetFontSize, ctypes.c_double)
        self._get_matrix = _unchecked(raw.FPDFText_GetMatrix, ctypes.c_int)
        self._text_object = _unchecked(raw.FPDFText_GetTextObject, ctypes.c_void_p)
        self._font = _unchecked(raw.FPDFTextObj_GetFont, ctypes.c_void_p)
        self._render_mode = _unchecked(raw.FPDFTextObj_GetTextRenderMode, ctypes.c_int)
        self._is_generated = _unchecked(raw.FPDFText_IsGenerated, ctypes.c_int)

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


class PageChars(Protocol):
    """What the page reader asks of :class:`CharCalls` or of its C twin."""

    def box(self, i: int) -> tuple[float, float]: ...

    def box_middle(self, i: int) -> tuple[float, float, float]: ...

    def boxes(self, indices: list[int]) -> list[tuple[float, float]]: ...

    def looses(self, indices: list[int]) -> list[float]: ...

    def glyph_boxes(self, a: int, b: int) -> list[float]: ...

    def is_generated(self, i: int) -> bool: ...

    def origin(self, i: int) -> tuple[float, float]: ...

    def font_size(self, i: int) -> float: ...

    def matrix(self, i: int) -> bool: ...

    def text_object(self, i: int) -> int | None: ...

    def font(self, obj: int) -> int | None: ...

    def render_mode(self, obj: int) -> int: ...


_TWIN: list[Any] = []


def char_calls_twin() -> Any:
    """The C twin's class (``libtext.pdf._charcalls.CharCalls``), or None where it is
    not built or ``LIBTEXT_PURE_PYTHON`` asks for the reference (decided once)."""
    if not _TWIN:
        found: Any = None
        if not pure_python():
            try:
                found = importlib.import_module("libtext.pdf._charcalls").CharCalls
            except ImportError:
                found = None
        _TWIN.append(found)
    return _TWIN[0]


def char_calls(raw: Any, textpage: Any, matrix: Any) -> PageChars:
    """One text page's per-character calls: the C twin where built, else :class:`CharCalls`.

    ``matrix`` is a ``FS_MATRIX`` that :meth:`CharCalls.matrix` fills.
    """
    twin = char_calls_twin()
    if twin is not None:
        got: PageChars = twin(raw, textpage, matrix)
        return got
    return CharCalls(raw, textpage, matrix)
