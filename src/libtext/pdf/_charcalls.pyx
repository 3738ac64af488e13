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

from cpython.unicode cimport Py_UNICODE_ISALPHA, Py_UNICODE_ISSPACE
from libc.math cimport fabs, sqrt

ctypedef struct FS_RECTF:
    float left
    float top
    float right
    float bottom

ctypedef struct FS_MATRIX:
    float a
    float b
    float c
    float d
    float e
    float f

ctypedef int (*char_box_f)(void*, int, double*, double*, double*, double*) noexcept nogil
ctypedef int (*loose_box_f)(void*, int, FS_RECTF*) noexcept nogil
ctypedef int (*origin_f)(void*, int, double*, double*) noexcept nogil
ctypedef double (*font_size_f)(void*, int) noexcept nogil
ctypedef int (*matrix_f)(void*, int, void*) noexcept nogil
ctypedef void* (*text_object_f)(void*, int) noexcept nogil
ctypedef void* (*font_f)(void*) noexcept nogil
ctypedef int (*render_mode_f)(void*) noexcept nogil
ctypedef int (*is_generated_f)(void*, int) noexcept nogil
ctypedef int (*count_f)(void*) noexcept nogil
ctypedef unsigned int (*unicode_f)(void*, int) noexcept nogil
ctypedef void* (*get_object_f)(void*, int) noexcept nogil
ctypedef void* (*get_mark_f)(void*, unsigned long) noexcept nogil
ctypedef int (*value_type_f)(void*, const char*) noexcept nogil
ctypedef int (*bounds_f)(void*, float*, float*, float*, float*) noexcept nogil
ctypedef void* (*child_at_f)(void*, int) noexcept nogil
ctypedef unsigned long (*get_type_f)(void*, void*, unsigned long) noexcept nogil
ctypedef int (*fill_color_f)(
    void*, unsigned int*, unsigned int*, unsigned int*, unsigned int*
) noexcept nogil


_NAMES = (
    "FPDFText_GetCharBox",
    "FPDFText_GetLooseCharBox",
    "FPDFText_GetCharOrigin",
    "FPDFText_GetFontSize",
    "FPDFText_GetMatrix",
    "FPDFText_GetTextObject",
    "FPDFTextObj_GetFont",
    "FPDFTextObj_GetTextRenderMode",
    "FPDFText_IsGenerated",
    "FPDFText_CountChars",
    "FPDFText_GetUnicode",
    "FPDFPage_CountObjects",
    "FPDFPage_GetObject",
    "FPDFPageObj_CountMarks",
    "FPDFPageObj_GetMark",
    "FPDFPageObjMark_GetParamValueType",
    "FPDFPageObj_GetBounds",
    "FPDF_StructTree_CountChildren",
    "FPDF_StructTree_GetChildAtIndex",
    "FPDF_StructElement_CountChildren",
    "FPDF_StructElement_GetChildAtIndex",
    "FPDF_StructElement_GetType",
    "FPDFPageObj_GetFillColor",
)
# The bindings module the addresses were last read from, and the addresses (a page
# is read in a few hundred microseconds: casting 17 functions each time showed).
_SEEN: list = [None, None]


cdef tuple _addresses(object raw):
    if _SEEN[0] is not raw:
        found = []
        for name in _NAMES:
            got = ctypes.cast(getattr(raw, name), ctypes.c_void_p).value
            if not got:
                raise ImportError(f"pdfium function without an address: {name}")
            found.append(<size_t>got)
        _SEEN[0], _SEEN[1] = raw, tuple(found)
    return _SEEN[1]


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
    cdef void* _page
    cdef dict _objects
    cdef Py_ssize_t _n_objects
    cdef count_f _count_chars
    cdef unicode_f _unicode
    cdef count_f _count_objects
    cdef get_object_f _get_object
    cdef count_f _count_marks
    cdef get_mark_f _get_mark
    cdef value_type_f _value_type
    cdef bounds_f _bounds
    cdef int _string_type
    cdef float _box4[4]
    cdef fill_color_f _fill_color

    def __init__(
        self, raw: object, textpage: object, matrix: object, page: object = None
    ) -> None:
        # A pypdfium2 handle is a ctypes pointer: its buffer holds the address.
        self.tp = (<void**><size_t>ctypes.addressof(textpage))[0]
        self._page = NULL
        if page is not None:
            self._page = (<void**><size_t>ctypes.addressof(page))[0]
        self._objects = None
        self._n_objects = 0
        self._box4[0] = self._box4[1] = self._box4[2] = self._box4[3] = 0.0
        self._string_type = raw.FPDF_OBJECT_STRING
        self._keep = matrix
        self._matrix = <void*><size_t>ctypes.addressof(matrix)
        self.buf[0] = self.buf[1] = self.buf[2] = self.buf[3] = 0.0
        self.rect.left = self.rect.top = self.rect.right = self.rect.bottom = 0.0
        cdef tuple fns = _addresses(raw)
        self._char_box = <char_box_f><size_t>fns[0]
        self._loose_box = <loose_box_f><size_t>fns[1]
        self._char_origin = <origin_f><size_t>fns[2]
        self._font_size = <font_size_f><size_t>fns[3]
        self._get_matrix = <matrix_f><size_t>fns[4]
        self._text_object = <text_object_f><size_t>fns[5]
        self._font = <font_f><size_t>fns[6]
        self._render_mode = <render_mode_f><size_t>fns[7]
        self._is_generated = <is_generated_f><size_t>fns[8]
        self._count_chars = <count_f><size_t>fns[9]
        self._unicode = <unicode_f><size_t>fns[10]
        self._count_objects = <count_f><size_t>fns[11]
        self._get_object = <get_object_f><size_t>fns[12]
        self._count_marks = <count_f><size_t>fns[13]
        self._get_mark = <get_mark_f><size_t>fns[14]
        self._value_type = <value_type_f><size_t>fns[15]
        self._bounds = <bounds_f><size_t>fns[16]
        self._fill_color = <fill_color_f><size_t>fns[22]

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

    def pair_gaps(self, str line, int a) -> tuple:
        cdef list pairs = []
        cdef list gaps = []
        cdef double lp = 0.0, rp = 0.0, lq, rq
        cdef Py_ssize_t k, n = len(line)
        cdef Py_ssize_t loaded = -1
        cdef Py_UCS4 ch
        for k in range(1, n):
            ch = line[k]
            if (
                Py_UNICODE_ISSPACE(ch)
                or ch == u"." or ch == u"," or ch == u":" or ch == u";" or ch == u"!" or ch == u"?"
                or Py_UNICODE_ISSPACE(line[k - 1])
            ):
                continue
            if loaded != k - 1:
                self._loose_box(self.tp, <int>(a + k - 1), &self.rect)
                lp, rp = self.rect.left, self.rect.right
            self._loose_box(self.tp, <int>(a + k), &self.rect)
            lq, rq = self.rect.left, self.rect.right
            loaded = k
            pairs.append(k)
            gaps.append((lq if lq > lp else lp) - (rq if rq < rp else rp))
            lp, rp = lq, rq
        return pairs, gaps

    def is_generated(self, int i) -> bool:
        return self._is_generated(self.tp, i) != 0

    def origin(self, int i) -> tuple:
        self._char_origin(self.tp, i, &self.buf[0], &self.buf[1])
        return (self.buf[0], self.buf[1])

    def font_size(self, int i) -> float:
        return self._font_size(self.tp, i)

    def matrix(self, int i) -> bool:
        return self._get_matrix(self.tp, i, self._matrix) != 0

    def size(self, int i) -> float:
        cdef double size = self._font_size(self.tp, i)
        cdef double scale
        cdef FS_MATRIX* m = <FS_MATRIX*>self._matrix
        if self._get_matrix(self.tp, i, self._matrix) != 0:
            scale = sqrt(fabs(<double>m.a * <double>m.d - <double>m.b * <double>m.c))
            if scale > 0:
                size = size * scale
        return size

    def fill(self, obj: int) -> object:
        cdef unsigned int r = 0, g = 0, b = 0, alpha = 0
        if not self._fill_color(<void*><size_t>obj, &r, &g, &b, &alpha):
            return None
        return (r, g, b)

    def line_size(self, str line, int a) -> float:
        cdef list sizes = []
        cdef Py_ssize_t k, n = len(line)
        cdef double size, scale
        cdef FS_MATRIX* m = <FS_MATRIX*>self._matrix
        for k in range(n):
            if not Py_UNICODE_ISALPHA(line[k]):
                continue
            size = self._font_size(self.tp, <int>(a + k))
            if self._get_matrix(self.tp, <int>(a + k), self._matrix) != 0:
                scale = sqrt(fabs(<double>m.a * <double>m.d - <double>m.b * <double>m.c))
                if scale > 0:
                    size = size * scale
            sizes.append(size)
        if not sizes:
            return 0.0
        sizes.sort()
        return sizes[(len(sizes) - 1) // 2]

    def text_object(self, int i) -> object:
        cdef void* got = self._text_object(self.tp, i)
        return None if got == NULL else <size_t>got

    def font(self, obj: int) -> object:
        cdef void* got = self._font(<void*><size_t>obj)
        return None if got == NULL else <size_t>got

    def render_mode(self, obj: int) -> int:
        return self._render_mode(<void*><size_t>obj)

    def count_chars(self) -> int:
        return self._count_chars(self.tp)

    def unicode(self, int i) -> int:
        return self._unicode(self.tp, i)

    def span_union(self, obj: int) -> object:
        cdef void* handle = <void*><size_t>obj
        cdef int depth = -1
        cdef int k
        cdef void* mark = NULL
        cdef void* found
        for k in range(self._count_marks(handle) - 1, -1, -1):
            found = self._get_mark(handle, <unsigned long>k)
            if self._value_type(found, b"ActualText") == self._string_type:
                depth, mark = k, found
                break
        if depth < 0 or self._page == NULL:
            return None
        cdef int count
        if self._objects is None:
            count = self._count_objects(self._page)
            self._objects = {}
            for k in range(count):
                self._objects[<size_t>self._get_object(self._page, k)] = k
            self._n_objects = len(self._objects)
        got = self._objects.get(obj)
        if got is None:
            return None
        cdef Py_ssize_t start = got
        cdef Py_ssize_t j
        cdef int step
        cdef double lo = float("inf")
        cdef double hi = float("-inf")
        cdef void* other
        cdef float* box = self._box4
        for step in (-1, 1):
            j = start if step < 0 else start + 1
            while 0 <= j < self._n_objects:
                other = self._get_object(self._page, <int>j)
                if self._count_marks(other) <= depth or self._get_mark(
                    other, <unsigned long>depth
                ) != mark:
                    break
                if self._bounds(other, &box[0], &box[1], &box[2], &box[3]) and box[2] > box[0]:
                    if box[0] < lo:
                        lo = box[0]
                    if box[2] > hi:
                        hi = box[2]
                j += step
        if hi > lo:
            return (lo, hi)
        return None


def script_letters(str text) -> tuple:
    """How many Hebrew letters (U+05D0 to U+05EA) and ASCII Latin letters ``text``
    holds, in one pass: the C twin of :func:`libtext.pdf._letters.letters_in_bytes`."""
    cdef Py_ssize_t hebrew = 0, latin = 0
    cdef Py_UCS4 ch
    for ch in text:
        if 0x05D0 <= ch <= 0x05EA:
            hebrew += 1
        elif (0x41 <= ch <= 0x5A) or (0x61 <= ch <= 0x7A):
            latin += 1
    return hebrew, latin


def heading_elements(object raw, object tree, dict types, int limit) -> list:
    """(level, element address) of every element of a page's structure tree whose type
    is one of ``types`` (type name to level), in order: the C twin of the walk in
    :func:`libtext.pdf._outline._heading_elements` (same order, same ``limit`` on the
    elements visited, a heading's children not visited)."""
    cdef tuple fns = _addresses(raw)
    cdef count_f tree_count = <count_f><size_t>fns[17]
    cdef child_at_f tree_child = <child_at_f><size_t>fns[18]
    cdef count_f count_children = <count_f><size_t>fns[19]
    cdef child_at_f child_at = <child_at_f><size_t>fns[20]
    cdef get_type_f get_type = <get_type_f><size_t>fns[21]
    cdef void* handle = (<void**><size_t>ctypes.addressof(tree))[0]
    cdef char small[64]
    cdef bytearray big
    cdef list found = []
    cdef list stack = []
    cdef int k, n
    cdef unsigned long size
    cdef size_t element
    cdef int seen = 0
    for k in range(tree_count(handle) - 1, -1, -1):
        stack.append(<size_t>tree_child(handle, k))
    while stack and seen < limit:
        element = stack.pop()
        seen += 1
        if element == 0:
            continue
        size = get_type(<void*>element, small, 64)
        if size > 64:
            size = get_type(<void*>element, NULL, 0)
            if size > 2:
                big = bytearray(size)
                get_type(<void*>element, <char*>big, size)
                kind = bytes(big[: size - 2]).decode("utf-16-le", "replace")
            else:
                kind = ""
        elif size > 2:
            kind = small[: size - 2].decode("utf-16-le", "replace")
        else:
            kind = ""
        level = types.get(kind)
        if level is not None:
            found.append((level, element))
            continue
        n = count_children(<void*>element)
        for k in range(n - 1, -1, -1):
            stack.append(<size_t>child_at(<void*>element, k))
    return found
