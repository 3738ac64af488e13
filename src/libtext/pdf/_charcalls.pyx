# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The C twin of :class:`libtext.pdf._pdfium.CharCalls`: pdfium's per-character calls
made from C, a few nanoseconds each instead of a ctypes call's microsecond.

The functions' addresses are taken from pypdfium2's ctypes bindings (no pdfium header
or link step): each is cast to its C prototype from pdfium's public headers. Every
method returns what the pure-Python class returns, down to the bits (the same C calls
into the same reused buffers, so a failed call leaves the previous values, as there);
``tests/test_compiled.py`` hashes every PDF's extraction both ways. Built by
``scripts/build_compiled.py`` with Cython; without it the pure-Python class runs.
"""

import ctypes

ctypedef struct FS_RECTF:
    float left
    float top
    float right
    float bottom

ctypedef int (*char_box_f)(void*, int, double*, double*, double*, double*) noexcept nogil
ctypedef int (*loose_box_f)(void*, int, FS_RECTF*) noexcept nogil
ctypedef int (*origin_f)(void*, int, double*, double*) noexcept nogil
ctypedef double (*font_size_f)(void*, int) noexcept nogil
ctypedef int (*matrix_f)(void*, int, void*) noexcept nogil
ctypedef void* (*text_object_f)(void*, int) noexcept nogil
ctypedef void* (*font_f)(void*) noexcept nogil
ctypedef int (*render_mode_f)(void*) noexcept nogil
ctypedef int (*is_generated_f)(void*, int) noexcept nogil


cdef size_t _address(object fn):
    got = ctypes.cast(fn, ctypes.c_void_p).value
    if not got:
        raise ImportError(f"pdfium function without an address: {fn!r}")
    return <size_t>got


cdef class CharCalls:
    """One text page's character boxes, origins, font sizes and matrices."""

    cdef void* tp
    cdef void* _matrix
    cdef object _keep  # the ctypes matrix the caller reads after matrix()
    cdef double buf[4]
    cdef FS_RECTF rect
    cdef char_box_f _char_box
    cdef loose_box_f _loose_box
    cdef origin_f _char_origin
    cdef font_size_f _font_size
    cdef matrix_f _get_matrix
    cdef text_object_f _text_object
    cdef font_f _font
    cdef render_mode_f _render_mode
    cdef is_generated_f _is_generated

    def __init__(self, raw: object, textpage: object, matrix: object) -> None:
        self.tp = <void*><size_t>(ctypes.cast(textpage, ctypes.c_void_p).value or 0)
        self._keep = matrix
        self._matrix = <void*><size_t>ctypes.addressof(matrix)
        self.buf[0] = self.buf[1] = self.buf[2] = self.buf[3] = 0.0
        self.rect.left = self.rect.top = self.rect.right = self.rect.bottom = 0.0
        self._char_box = <char_box_f>_address(raw.FPDFText_GetCharBox)
        self._loose_box = <loose_box_f>_address(raw.FPDFText_GetLooseCharBox)
        self._char_origin = <origin_f>_address(raw.FPDFText_GetCharOrigin)
        self._font_size = <font_size_f>_address(raw.FPDFText_GetFontSize)
        self._get_matrix = <matrix_f>_address(raw.FPDFText_GetMatrix)
        self._text_object = <text_object_f>_address(raw.FPDFText_GetTextObject)
        self._font = <font_f>_address(raw.FPDFTextObj_GetFont)
        self._render_mode = <render_mode_f>_address(raw.FPDFTextObj_GetTextRenderMode)
        self._is_generated = <is_generated_f>_address(raw.FPDFText_IsGenerated)

    cdef inline void _box(self, int i) noexcept:
        self._char_box(self.tp, i, &self.buf[0], &self.buf[1], &self.buf[2], &self.buf[3])

    def box(self, int i) -> tuple:
        self._box(i)
        return (self.buf[0], self.buf[1])

    def box_middle(self, int i) -> tuple:
        self._box(i)
        return (self.buf[0], self.buf[1], (self.buf[2] + self.buf[3]) / 2)

    def boxes(self, list indices) -> list:
        cdef list out = []
        cdef object i
        for i in indices:
            self._box(<int>i)
            out.append((self.buf[0], self.buf[1]))
        return out

    def looses(self, list indices) -> list:
        cdef list out = []
        cdef object i
        for i in indices:
            self._loose_box(self.tp, <int>i, &self.rect)
            out.append(<double>self.rect.left)
            out.append(<double>self.rect.right)
        return out

    def glyph_boxes(self, int a, int b) -> list:
        cdef list out = []
        cdef int i
        for i in range(a, b):
            self._loose_box(self.tp, i, &self.rect)
            self._box(i)
            out.append(<double>self.rect.left)
            out.append(<double>self.rect.right)
            out.append(self.buf[0])
            out.append(self.buf[1])
        return out

    def is_generated(self, int i) -> bool:
        return self._is_generated(self.tp, i) != 0

    def origin(self, int i) -> tuple:
        self._char_origin(self.tp, i, &self.buf[0], &self.buf[1])
        return (self.buf[0], self.buf[1])

    def font_size(self, int i) -> float:
        return self._font_size(self.tp, i)

    def matrix(self, int i) -> bool:
        return self._get_matrix(self.tp, i, self._matrix) != 0

    def text_object(self, int i) -> object:
        cdef void* got = self._text_object(self.tp, i)
        return None if got == NULL else <size_t>got

    def font(self, obj: int) -> object:
        cdef void* got = self._font(<void*><size_t>obj)
        return None if got == NULL else <size_t>got

    def render_mode(self, obj: int) -> int:
        return self._render_mode(<void*><size_t>obj)
