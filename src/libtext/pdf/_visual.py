"""A line's logical text from its glyphs' positions, by the Unicode bidi algorithm.

pdfium's own order is wrong in three common cases: LuaTeX writes right-to-left text
in visual order and no space characters; Latin words, numbers and punctuation inside
a Hebrew line come out in pdfium's guess of an order ("txt.students"); characters
outside the BMP come out as UTF-16 halves, reversed on right-to-left lines. This
module ignores that order: it sorts the glyphs left to right by their advance boxes,
restores word spaces from the gaps between boxes, hangs each mark on the letter whose
box it sits over, and lets the bidi algorithm (:mod:`._bidi`, python-bidi beyond its
characters) turn the visual line into logical order with the line's paragraph
direction. Brackets are left as drawn, like pdfium's text, so the document-wide mirror
vote of :mod:`libtext.pdf` treats both alike.
"""

from __future__ import annotations

import bisect
import math
import re
import unicodedata
from collections.abc import Callable
from typing import Final, Literal

from libtext.hebrew import NOT_TEXT as _NOT_TEXT
from libtext.hebrew import unicode_problem
from libtext.pdf._bidi import characters, display

__all__ = [
    "TOUCH",
    "Glyph",
    "Part",
    "join_surrogates",
    "pair_brackets",
    "turns_at",
    "valid_text",
    "visual_direction",
    "visual_parts",
]

Direction = Literal["L", "R"]

# A gap between two glyphs' advance boxes wider than this many font sizes is a space.
# Letters of one word abut (kerning moves them a few hundredths of an em); a word
# space is at least a sixth of an em even on a tight justified line.
SPACE_GAP: Final = 0.12
# Letters whose advance boxes are closer than this many font sizes touch: no word
# space is drawn between them, whatever the text stream says.
TOUCH: Final = 0.05
# With the stream's spaces, a gap this wide is a space all the same; and one this
# much wider than the line's usual gap between neighbours.
_STREAM_GAP: Final = 0.45
_OVER_USUAL: Final = 0.15
# A stream space narrower than this many font sizes has no width of its own.
_NO_WIDTH: Final = 0.01
# Wider than this many font sizes, with words on both sides: two columns.
_COLUMN_GAP: Final = 1.5
# Wider than this many font sizes: two items on one line (a list number and its text).
_TAB_GAP: Final = 1.2
# Punctuation that ends a sentence, after its last word.
_SENTENCE_END: Final = frozenset(".?!:;")
# Invisible characters that are neither letters nor spaces (combining grapheme joiner;
# bidi embeddings, overrides and isolates, which Typst writes into a contents row).
_DROP: Final = frozenset("\u034f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Marks drawn at the top left of their letter, over the gap to the letter after it.
_LEFT_MARKS: Final = frozenset("\u05b9\u05ba\u05c2")


def _no_attrs(*args: object, **kwargs: object) -> Callable[[type], type]:
    return lambda cls: cls


try:  # mypyc's class options (mypy_extensions ships with mypy, not with libtext)
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - read by mypyc alone: a no-op without it
    mypyc_attr = _no_attrs  # type: ignore[assignment]


@mypyc_attr(acyclic=True)
class Glyph:
    """One character of a line: its advance box (x0, x1) and its ink centre.

    A plain class, not a dataclass: compiled, a dataclass's ``__init__`` stays the
    interpreted one the dataclasses module writes, and a book makes 200,000 glyphs.
    Compiled, acyclic (it holds a string, numbers and a flag): the garbage collector
    neither tracks nor traverses the glyphs, nor do they count towards its next run.
    """

    __slots__ = ("center", "ch", "generated", "index", "x0", "x1")

    def __init__(
        self,
        ch: str,
        x0: float,
        x1: float,
        center: float,
        generated: bool = False,
        index: int = -1,
    ) -> None:
        self.ch = ch
        self.x0 = x0
        self.x1 = x1
        self.center = center
        self.generated = generated  # a space pdfium inferred from a gap, not the stream's
        self.index = index  # the character's index in the page's text (-1: none)

    def __repr__(self) -> str:
        return (
            f"Glyph({self.ch!r}, {self.x0}, {self.x1}, {self.center}, "
            f"generated={self.generated}, index={self.index})"
        )


def join_surrogates(glyphs: list[Glyph]) -> list[Glyph]:
    """Merge UTF-16 halves (in either order, as pdfium may reverse them) into one glyph.

    A lone half is dropped: it is not a character and would make the text unencodable.
    """
    if _HALF.search("".join([g.ch for g in glyphs])) is None:
        return glyphs  # nearly every line: no half to join
    out: list[Glyph] = []
    k = 0
    while k < len(glyphs):
        g = glyphs[k]
        o = ord(g.ch[0]) if len(g.ch) == 1 else 0
        if 0xD800 <= o <= 0xDFFF:
            nxt = glyphs[k + 1] if k + 1 < len(glyphs) else None
            p = ord(nxt.ch) if nxt is not None and len(nxt.ch) == 1 else 0
            hi, lo = (o, p) if o < 0xDC00 else (p, o)
            if nxt is not None and 0xD800 <= hi < 0xDC00 <= lo <= 0xDFFF:
                ch = chr(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                x0, x1 = min(g.x0, nxt.x0), max(g.x1, nxt.x1)
                out.append(Glyph(ch, x0, x1, (x0 + x1) / 2))
                k += 2
                continue
            k += 1
            continue
        out.append(g)
        k += 1
    return out


_PAIR: Final = re.compile(r"([\ud800-\udbff])([\udc00-\udfff])|([\udc00-\udfff])([\ud800-\udbff])")
_HALF: Final = re.compile(r"[\ud800-\udfff]")


def _pair(m: re.Match[str]) -> str:
    hi, lo = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    return chr(0x10000 + ((ord(hi) - 0xD800) << 10) + (ord(lo) - 0xDC00))


def valid_text(text: str) -> str:
    """``text`` with UTF-16 halves joined (either order), lone halves and non-characters
    dropped: the models refuse both, and one bad glyph must not fail a whole document."""
    if _HALF.search(text):
        text = _HALF.sub("", _PAIR.sub(_pair, text))
    return text if unicode_problem(text) is None else _NOT_TEXT.sub("", text)


# Every character _NOT_TEXT matches and a few more, in four ranges: a search tests a
# character against each of a character set's items, and _NOT_TEXT has 36.
_MAYBE_NOT_TEXT: Final = re.compile(
    r"[\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff\U0001fffe-\U0010ffff]"
)


def valid_texts(texts: list[str]) -> list[str]:
    """:func:`valid_text` of each of ``texts``: one search of them all first, as nearly
    every page is valid throughout (a book's lines cost a search each otherwise)."""
    if _MAYBE_NOT_TEXT.search("".join(texts)) is None:  # _NOT_TEXT holds the halves too
        return texts
    return [valid_text(text) for text in texts]


# Per-character tables, filled on first sight of a character: a book uses a few
# hundred, and a dictionary hit costs a fraction of a unicodedata lookup. Bounded all
# the same (a hostile file may use every code point): past the bound, computed.
_TABLE_LIMIT: Final = 8192
_STRONG: Final[dict[str, Direction | None]] = {}
# What a glyph is to a line: a base letter, a mark (over its letter), a space, or
# skipped (an invisible joiner, a control character).
_BASE: Final = 0
_MARK: Final = 1
_SPACE: Final = 2
_SKIP: Final = 3
_KINDS: Final[dict[str, int]] = {}


def _strong(ch: str) -> Direction | None:
    try:
        return _STRONG[ch]
    except KeyError:
        pass
    bidi = unicodedata.bidirectional(ch[0])
    direction: Direction | None = "R" if bidi in ("R", "AL") else "L" if bidi == "L" else None
    if len(_STRONG) < _TABLE_LIMIT:
        _STRONG[ch] = direction
    return direction


def _kind(ch: str) -> int:
    try:
        return _KINDS[ch]
    except KeyError:
        pass
    if ch.isspace():
        kind = _SPACE
    elif ch in _DROP:
        kind = _SKIP
    else:
        category = unicodedata.category(ch[0])
        kind = _MARK if category in ("Mn", "Me") else _SKIP if category == "Cc" else _BASE
    if len(_KINDS) < _TABLE_LIMIT:
        _KINDS[ch] = kind
    return kind


# A glyph's kind and strong direction in one lookup, for the per-glyph loop: the
# kind in the low two bits, above them 0 (no strong direction), 1 ("L") or 2 ("R");
# _HALF_CODE alone for a UTF-16 half. The bits above say what the per-mark and
# per-gap tests ask of a character (each the same test of the string, made once per
# character, not once per glyph: compiled, a string comparison is a generic call).
_CODES: Final[dict[str, int]] = {}
_HALF_CODE: Final = 16
_STRONG_BITS: Final = 12  # the strong direction's two bits
_DIGIT: Final = 32  # "0" to "9"
_HEBREW_BIT: Final = 64  # a Hebrew letter, alef to tav
_ACCENT: Final = 128  # cantillation, U+0591 to U+05AF
_LEFT_BIT: Final = 256  # one of _LEFT_MARKS
_VAV: Final = 512
_PUNCT_BIT: Final = 1024  # see _punct
_DIRECTIONS: Final[tuple[Direction | None, Direction | None, Direction | None]] = (
    None,
    "L",
    "R",
)


def _code(ch: str) -> int:
    try:
        return _CODES[ch]
    except KeyError:
        pass
    strong = _strong(ch)
    code = _kind(ch) | (0 if strong is None else 4 if strong == "L" else 8)
    code |= _DIGIT if "0" <= ch <= "9" else 0
    code |= _HEBREW_BIT if _hebrew(ch) else 0
    code |= _ACCENT if "\u0591" <= ch <= "\u05af" else 0
    code |= _LEFT_BIT if ch in _LEFT_MARKS else 0
    code |= _VAV if ch == "ו" else 0
    code |= _PUNCT_BIT if _punct(ch) else 0
    if 0xD800 <= ord(ch[0]) <= 0xDFFF:
        code = _HALF_CODE
    if len(_CODES) < _TABLE_LIMIT:
        _CODES[ch] = code
    return code


def visual_direction(glyphs: list[Glyph], default: Direction) -> Direction:
    """The paragraph direction of a line from its two visual ends.

    A right-to-left line starts at the right: when the rightmost and the leftmost
    strong letters agree, that is the direction; when they differ (a Hebrew line that
    starts or ends with a Latin word) a stream in logical order that starts at the
    right says right-to-left (a Hebrew paragraph on a page of English), else the
    page's direction decides.
    """
    # The (centre, direction) pairs' min and max, as tuples compare (a tie on the
    # centre goes to "L" on the left, "R" on the right), in one pass.
    left: Direction | None = None
    right: Direction | None = None
    lo = hi = 0.0
    for g in glyphs:
        d = _strong(g.ch)
        if d is None:
            continue
        c = g.center
        if left is None or right is None:
            left, right, lo, hi = d, d, c, c
            continue
        if c < lo or (c == lo and d < left):
            lo, left = c, d
        if c > hi or (c == hi and d > right):
            hi, right = c, d
    if left is None or right is None:
        return default
    if left != right:
        return _stream_start(glyphs, lo, hi) or default
    if left == "L" and default == "R":
        visual = "".join(g.ch for g in sorted(glyphs, key=lambda g: g.center))
        return _ends_leftwards(visual)
    return left


def _stream_start(glyphs: list[Glyph], lo: float, hi: float) -> Direction | None:
    """``"R"`` when the line's first run of one direction stands at its right end and
    the stream is in logical order (its Hebrew letters mostly follow each other
    leftwards; a visual stream starts at the left): a right-to-left paragraph's line.
    Else None: a stream that starts at the left may be a table's row read across."""
    back = ahead = 0
    prev: Glyph | None = None
    for g in glyphs:
        if _HEBREW_LETTER.match(g.ch):
            if prev is not None:
                if g.center < prev.center:
                    back += 1
                else:
                    ahead += 1
            prev = g
        elif g.ch != " " and _strong(g.ch) is not None:
            prev = None
    if back <= ahead:
        return None
    first: Direction | None = None
    for g in glyphs:
        d = _strong(g.ch)
        if d is None:
            continue
        if first is None:
            first = d
        elif d != first:
            break
        if g.center >= hi:
            return "R"
    return None


_HEBREW_LETTER: Final = re.compile("[\u05d0-\u05ea]")
# A list's bullet drawn as a letter (Word's second-level ``o``), alone at a line's end.
_LETTER_BULLET: Final = re.compile(r"\s[A-Za-z]\s*$")


def _ends_leftwards(visual: str) -> Direction:
    """The direction of a line whose two visual ends are Latin, on a right-to-left page.

    A Latin line that ends a right-to-left sentence (a term in a Hebrew flowchart
    box) has its full stop on the left, where that sentence ends; a Hebrew item of a
    list whose bullet is a letter (``o``, at the right) reads from the right.
    """
    solid = visual.strip()
    if len(solid) > 1 and solid[0] in _SENTENCE_END and solid[-1] not in _SENTENCE_END:
        return "R"
    if _LETTER_BULLET.search(solid) and _HEBREW_LETTER.search(solid):
        return "R"
    return "L"


def _dist(b: Glyph, x: float) -> float:
    """How far ``x`` is from ``b``'s advance box (0 inside it)."""
    if b.x0 <= x <= b.x1:
        return 0.0
    return min(abs(x - b.x0), abs(x - b.x1))


def _owners(
    bases: list[Glyph], marks: list[Glyph], size: float, codes: list[int] | None = None
) -> list[int]:
    """For each mark, the index (in ``bases``, left to right) of the letter it sits over.

    Over a letter's advance box, else the nearest (some producers give a mark its own
    slot just after its letter). ``codes``: the bases' :func:`_code` where known.
    """
    owners: list[int] = []
    if not marks:
        return owners
    if codes is None:
        codes = [_code(b.ch) for b in bases]
    tolerance = 0.15 * size
    centers = [(b.x0 + b.x1) / 2 for b in bases]
    count = len(bases)
    for m in marks:
        x = m.center
        # bisect.bisect_left(centers, x), written out: compiled, a typed loop where
        # the module function is a generic call (this runs for every mark).
        k, top = 0, count
        while k < top:
            middle = (k + top) // 2
            if centers[middle] < x:
                k = middle + 1
            else:
                top = middle
        # The nearest box (0 inside it), the narrower on a tie: a plain loop, as this
        # runs for every mark of a pointed book.
        # (distance, width) compared as a pair, without a tuple per candidate.
        best, best_dist, best_width = -1, math.inf, math.inf
        for j in range(max(0, k - 3), min(count, k + 3)):
            # A point is never a digit's (a note's number set small beside its word).
            far = size if codes[j] & _DIGIT else 0.0
            dist = _dist(bases[j], x) + far
            width = bases[j].x1 - bases[j].x0
            if dist < best_dist or (dist == best_dist and width < best_width):
                best, best_dist, best_width = j, dist, width
        code = _code(m.ch)
        accent = code & _ACCENT != 0
        left_mark = code & _LEFT_BIT != 0
        # Holam male sits over its vav; a holam on the vav's right edge, touching the
        # letter on its right, is that letter's (הֹו in יְהֹוָה).
        b = bases[best]
        own_vav = (
            left_mark
            and codes[best] & _VAV != 0
            and not (
                best + 1 < len(bases)
                and b.x1 - x <= 0.2 * (b.x1 - b.x0)
                and _dist(bases[best + 1], x) <= 0.05 * size
            )
        )
        if (accent or left_mark) and best + 1 < count and not own_vav:
            # Holam sits at its letter's top left: over the gap, or over the right
            # edge of the letter on the left (לֹא); over a vav it is the vav's own.
            # Cantillation drawn at its letter's left edge (הַיּ֔וֹם) likewise.
            b = bases[best]
            right = best + 1
            edge = min(tolerance, 0.3 * (b.x1 - b.x0))
            if _dist(bases[right], x) <= tolerance and b.x1 - x <= edge:
                best = right
        owners.append(best)
    return owners


def _slot_owners(
    glyphs: list[Glyph],
    rank: list[int],
    dirs: list[Direction | None],
    mark_of: list[int],
    mark_pos: list[int],
    bases: list[Glyph],
    marks: list[Glyph],
    owners: list[int],
    size: float,
) -> list[int]:
    """``owners`` with marks that have slots of their own given to their stream letter.

    A font without zero-width marks (Word 365's) draws each mark in a slot of its
    own after its letter, in the stream's order: such a slot's position says which
    letter comes before it, not which one it sits over. A mark whose slot covers no
    letter and continues, edge to edge, the row of slots leftwards from the Hebrew
    letter it follows in the stream belongs to that letter, when the box alone gave it
    to that letter's stream neighbour (a LuaTeX title's slots lie elsewhere).
    ``rank`` and ``mark_of`` give each glyph's index in ``bases`` and in ``marks``
    (-1: none), ``mark_pos`` each mark's position.
    """
    out = list(owners)
    if not marks:
        return out  # nearly every line of an unpointed book
    slack = 0.05 * size
    # The marks come in the stream's order: a run of them at consecutive positions
    # belongs to the glyph before it when that is a Hebrew letter.
    k = 0
    while k < len(marks):
        first, end = k, k + 1
        while end < len(marks) and mark_pos[end] == mark_pos[end - 1] + 1:
            end += 1
        k = end
        pos = mark_pos[first] - 1
        if pos < 0 or rank[pos] < 0 or dirs[pos] != "R":
            continue
        base = glyphs[pos]
        nxt: Glyph | None = None  # the stream's next Hebrew letter, looked up once
        looked = False
        slotted = []
        for n in range(first, end):
            m, near = marks[n], bases[owners[n]]
            if m.x1 - m.x0 <= slack or min(near.x1, m.x1) - max(near.x0, m.x0) > slack:
                continue  # no slot, or drawn over a letter (TeX): its box says where
            if near is not base:
                if not looked:
                    looked = True
                    nxt = _next_letter(glyphs, rank, dirs, mark_of, mark_pos[end - 1] + 1)
                if near is not nxt:
                    continue  # the slot is not between its letter and the stream's next one
            slotted.append(n)
        if not slotted:
            continue
        # Right to left: the slots run leftwards from the letter, edge to edge (in
        # any stream order: Word writes dagesh before the vowel drawn right of it).
        edge = base.x0
        for n in sorted(slotted, key=lambda n: -marks[n].x1):
            if abs(edge - marks[n].x1) > slack:
                break
            out[n] = rank[pos]
            edge = marks[n].x0
    return out


def _next_letter(
    glyphs: list[Glyph],
    rank: list[int],
    dirs: list[Direction | None],
    mark_of: list[int],
    pos: int,
) -> Glyph | None:
    """The first Hebrew letter (a base, not a mark, strong right to left) from ``pos`` on."""
    for q in range(pos, len(glyphs)):
        if mark_of[q] < 0 and rank[q] >= 0 and dirs[q] == "R":
            return glyphs[q]
    return None


class Part:
    """One line's worth of text (a column's, when one baseline held two).

    A plain class, not a dataclass, as :class:`Glyph` (one a line); equal as a
    dataclass would be, field by field.
    """

    __slots__ = ("baseline", "brackets_fixed", "cells", "size", "text", "x0", "x1")

    def __init__(
        self,
        text: str,
        brackets_fixed: bool,
        x0: float,
        x1: float,
        size: float | None = None,
        baseline: float | None = None,
        cells: list[tuple[float, float, str]] | None = None,
    ) -> None:
        self.text = text
        self.brackets_fixed = brackets_fixed
        self.x0 = x0
        self.x1 = x1
        self.size = size  # a text of its own on the line: its size and baseline
        self.baseline = baseline
        # A left-to-right part of a right-to-left line read across a tab: its pieces
        # (x0, x1, text), maybe a table's cells (see :mod:`._rows`).
        self.cells: list[tuple[float, float, str]] = [] if cells is None else cells

    def _fields(self) -> tuple[object, ...]:
        return (
            self.text,
            self.brackets_fixed,
            self.x0,
            self.x1,
            self.size,
            self.baseline,
            self.cells,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Part):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Part(text={self.text!r}, brackets_fixed={self.brackets_fixed}, x0={self.x0}, "
            f"x1={self.x1}, size={self.size}, baseline={self.baseline}, cells={self.cells})"
        )


def visual_parts(
    glyphs: list[Glyph],
    size: float,
    direction: Direction,
    metrics: Callable[[int], tuple[float, float]] | None = None,
    *,
    ocr: bool = False,
) -> list[Part]:
    """The logical lines of one baseline's glyphs (any order), in reading order.

    Items far apart on the line (a list number and its text, set off by a tab) are
    read one by one and joined in the line's direction; an item of digits and
    punctuation alone (``2.``) reads number first, as its reader meets it. Items
    with words on both sides of a gap wider than a column gutter are separate parts,
    and so are two texts side by side that are not one line (the Hebrew and the
    English cell of a bilingual table row): ``metrics`` gives the font size and
    baseline of a glyph's :attr:`Glyph.index`. ``ocr``: the line is an OCR text layer,
    whose own space characters are word spaces wherever they stand.
    """
    # Glyphs are named by their index in ``glyphs`` ("positions") from here on.
    marks: list[Glyph] = []
    mark_of = [-1] * len(glyphs)  # position -> index in marks
    mark_pos: list[int] = []  # index in marks -> position
    # Bases in stream order, and the stream's word boundaries (pairs of bases around a
    # space character: its own, or one pdfium inferred).
    stream: list[int] = []
    # A pair of positions (p, q) is keyed p * n + q: a number hashes without a tuple.
    n = len(glyphs)
    real: dict[int, float] = {}  # -> the space's width
    where: dict[int, float] = {}  # -> the space's centre
    inferred: set[int] = set()
    pending: Glyph | None = None
    dirs: list[Direction | None] = [None] * n  # position -> a base's strong direction
    codes = [0] * n  # position -> a base's _code
    # The stream's spaces by their first base: a base starts at most one pair.
    real_to = [-1] * n
    for pos, g in enumerate(glyphs):
        code = _CODES.get(g.ch, -1)  # one lookup: nearly every character is known
        if code < 0:
            code = _code(g.ch)
        if code == _HALF_CODE:
            # A UTF-16 half: read the line again with the halves joined (no line has
            # one but in a few books: no search of every line's text for them).
            return visual_parts(join_surrogates(glyphs), size, direction, metrics, ocr=ocr)
        kind = code & 3
        if kind == _SPACE:
            if stream and (pending is None or pending.generated):
                pending = g
            continue
        if kind != _BASE:
            if kind == _MARK:
                mark_of[pos] = len(marks)
                mark_pos.append(pos)
                marks.append(g)
            continue
        if pending is not None:
            if pending.generated:
                inferred.add(stream[-1] * n + pos)
            else:
                real[stream[-1] * n + pos] = pending.x1 - pending.x0
                where[stream[-1] * n + pos] = pending.center
                real_to[stream[-1]] = pos
            pending = None
        stream.append(pos)
        dirs[pos] = _DIRECTIONS[(code >> 2) & 3]
        codes[pos] = code
    if not stream:
        return []
    stream = _drop_precomposed(glyphs, stream, codes, size)
    base_pos = _left_to_right(glyphs, stream)
    bases = [glyphs[p] for p in base_pos]
    base_codes = [codes[p] for p in base_pos]
    rank = [-1] * len(glyphs)  # position -> index in bases
    for k, p in enumerate(base_pos):
        rank[p] = k
    strong = [dirs[p] for p in base_pos]
    attached: dict[int, list[str]] = {}
    lo = [g.x0 for g in bases]
    hi = [g.x1 for g in bases]
    if marks:
        owners = _owners(bases, marks, size, base_codes)
        owners = _slot_owners(glyphs, rank, dirs, mark_of, mark_pos, bases, marks, owners, size)
    else:
        owners = []
    for i in range(len(marks)):  # marks and their owners (zip is a generic call compiled)
        m, k = marks[i], owners[i]
        own = attached.get(k)
        if own is None:
            attached[k] = [m.ch]
        elif m.ch not in own:  # a letter bears a mark once (WeasyPrint maps two glyphs to one)
            own.append(m.ch)
        if m.x1 - m.x0 > 0.05 * size:  # a mark with a slot of its own widens its letter
            lo[k], hi[k] = min(lo[k], m.x0), max(hi[k], m.x1)
    # Word spaces: the text stream's own where it has them, else the gaps (LuaTeX
    # writes no spaces). Even with the stream's spaces, a gap clearly wider than the
    # line's usual one between neighbours is a space: a producer that writes a word
    # space where its run ends (a bracket or a colon after a Hebrew word, drawn on
    # the far side of it) leaves the drawn gap without a character. The usual gap
    # is the median, that of letters within words; a justified line that spaces
    # its letters apart raises it.
    em = max(size, 1.0)
    gap_limit = SPACE_GAP * em
    if real:  # the usual gap matters with the stream's spaces alone
        gaps = [lo[k] - hi[k - 1] for k in range(1, len(bases))]
        wide = 0
        for gap in gaps:
            if gap > SPACE_GAP * em:
                wide += 1
        if 2 * len(real) < wide:
            real = {}  # a stray space or two in a stream without them
        else:
            gaps = sorted([0.0 if gap < 0.0 else gap for gap in gaps])  # max(gap, 0.0)
            usual = gaps[len(gaps) // 2] if gaps else 0.0
            gap_limit = min(_STREAM_GAP * em, max(SPACE_GAP * em, usual + _OVER_USUAL * em))
    # Where a stream space is drawn matters only when its own letters are far apart
    # on the line (a line pdfium took in two halves); between neighbours it is
    # placed already, and its box may lie anywhere (Word 365 puts a right-to-left
    # space's origin inside the next word); one letter apart (pdfium put a letter
    # of a replacement text after it), the gaps on either side of that letter do.
    # A space of no width between two Hebrew letters (pdfium's at the bounds of a
    # replacement text, which LuaTeX writes for each pointed cluster it draws as one
    # glyph) marks no place on the line: the gaps alone tell whether it is a word's.
    no_width = _NO_WIDTH * em
    sized = any(w > no_width for w in real.values()) if real else False
    apart: dict[int, int] = {}
    for key in real:
        p, q = divmod(key, n)
        if rank[p] >= 0 and rank[q] >= 0:
            if real[key] <= no_width and codes[p] & codes[q] & _HEBREW_BIT:
                continue
            apart[key] = abs(rank[p] - rank[q])
    spaces = sorted(x for pair, x in where.items() if apart.get(pair, 0) > 2) if real else []
    # What follows each base: "" (same word), " " or a new item (a tab-wide gap).
    after = [""] * len(bases)
    tab, space_gap, touch = _TAB_GAP * em, SPACE_GAP * em, TOUCH * em
    for k in range(1, len(bases)):
        gap = lo[k] - hi[k - 1]
        if gap > tab:
            after[k - 1] = "\t"
            continue
        if gap > gap_limit:
            after[k - 1] = " "
            continue
        # XeTeX writes a zero-width space after every pointed letter: a space
        # counts where it has a width, or where the letters stand apart. One with a
        # width between letters that touch takes no room on the page (Word draws
        # some over a letter): not a space, unless the direction turns there (its
        # boundary, which Word draws without room). An OCR layer's (``ocr``) spaces
        # are its engine's word boundaries, set where the scan shows them: kept.
        a, b = base_pos[k - 1], base_pos[k]
        pair = a * n + b
        back = b * n + a
        # max(real.get(pair, -1.0), real.get(back, -1.0)), each looked up only when
        # there (at most one of the two: a base starts one pair).
        stream_space = -1.0
        if real:
            if real_to[a] == b:
                stream_space = real[pair]
            elif real_to[b] == a:
                stream_space = real[back]
        if (
            sized
            and 0.0 <= stream_space <= no_width
            and base_codes[k - 1] & base_codes[k] & _HEBREW_BIT
        ):
            # In a stream whose word spaces have widths, one of no width between two
            # Hebrew letters is pdfium's at the bounds of a replacement text (Typst
            # writes one for each pointed cluster): the line's usual limit decides.
            stream_space = -1.0
        if (
            (stream_space > 0.1 * em and (gap >= touch or turns_at(bases[k - 1].ch, bases[k].ch)))
            or (stream_space >= 0 and (gap > space_gap or ocr))
            or (spaces and gap > 0.03 * em and _space_between(spaces, hi[k - 1], lo[k]))
            or (inferred and gap > 0.5 * SPACE_GAP * em and (pair in inferred or back in inferred))
            or (gap > space_gap and _turns(strong[k - 1], strong[k]))
        ):
            after[k - 1] = " "
    # A stream space between neighbours is settled above, kept or not: one between
    # two letters that touch is pdfium's (it makes one up where a mark on a glyph
    # of its own is raised), not a word's. One letter apart, the space is in the
    # wider gap beside that letter unless one of the two is a space already.
    # Others (a line pdfium took in two halves, a space at a direction change) go
    # to the widest gaps left.
    missing = 0
    for key, distance in apart.items():
        p, q = divmod(key, n)
        if distance <= 1:
            continue
        first, last = sorted((rank[p], rank[q]))
        if distance > 2:
            # A space with a width at a direction change: Word's run boundary. One
            # between Hebrew letters, drawn in a gap of their span that has a space
            # already, is placed (Typst draws pointed clusters out of the stream's order).
            width = real.get(key, 0.0)
            if (
                width <= 0.1 * em or not _at_turn(bases, after, rank[p], rank[q], direction)
            ) and not (
                _hebrew(glyphs[p].ch)
                and _hebrew(glyphs[q].ch)
                and _placed(where.get(key, -1.0), first, last, lo, hi, after)
            ):
                missing += 1
            continue
        between = range(first + 1, last + 1)
        if all(not after[k - 1] for k in between):
            widest = _widest_gap(between, lo, hi)
            if lo[widest] - hi[widest - 1] > 0.06 * em:
                after[widest - 1] = " "
    if missing > 0:
        free = _widest_first(
            [
                k
                for k in range(1, len(bases))
                if not after[k - 1]
                and lo[k] - hi[k - 1] > 0.06 * em
                and not base_codes[k - 1] & _PUNCT_BIT
                and not base_codes[k] & _PUNCT_BIT
            ],
            lo,
            hi,
        )
        for k in free[:missing]:
            after[k - 1] = " "
    if metrics is not None:
        cuts = [
            (hi[k - 1] + lo[k]) / 2
            for k in range(1, len(bases))
            if after[k - 1] and _other_text(bases, strong, k, lo[k] - hi[k - 1], metrics)
        ]
        if cuts:
            return _split_texts(glyphs, cuts, size, direction, metrics)
    item: list[str] = []
    items: list[list[str]] = [item]
    spans: list[list[float]] = [[lo[0], hi[0]]]
    for k, g in enumerate(bases):
        if k and after[k - 1] == "\t":
            item = []
            items.append(item)
            spans.append([lo[k], hi[k]])
        elif k and after[k - 1]:
            item.append(" ")
        spans[-1][1] = hi[k]
        own = attached.get(k) if attached else None
        if own is None:
            item.append(g.ch)
        elif strong[k] == "R":
            # Written reversed, so that the bidi reversal gives letter, then marks
            # (an index loop: compiled, reversed() is a generic iterator).
            for j in range(len(own) - 1, -1, -1):
                item.append(own[j])
            item.append(g.ch)
        else:
            item.append(g.ch)
            item.extend(own)
    # Items far apart with words on both sides are two columns' lines: parts of their own.
    groups: list[list[int]] = [[0]]
    for k in range(1, len(items)):
        far = spans[k][0] - spans[k - 1][1] > _COLUMN_GAP * em
        if far and _letters(items[k]) >= 3 and _letters(items[k - 1]) >= 3:
            groups.append([])
        groups[-1].append(k)
    parts = []
    for group in groups:
        if len(group) == 1:
            visual = "".join(items[group[0]])
        else:
            visual = "".join([ch for k in group for ch in items[k]])
        lead, tail = _end_directions(visual)
        own_dir = lead if lead is not None and lead == tail else direction
        if own_dir == "L" and direction == "R":
            own_dir = _ends_leftwards(visual)
        # Bracket characters say little (pdfium mirrors some itself, producers map
        # mirrored glyphs either way) but on the page a pair always reads "(" then ")"
        # left to right: so set them before the bidi algorithm pairs them, and after.
        # A group without brackets has none before the bidi algorithm or after it: no
        # search of each item for them, twice.
        brackets = (
            "(" in visual
            or ")" in visual
            or "[" in visual
            or "]" in visual
            or "{" in visual
            or "}" in visual
        )
        # A group of one item (nearly every line) is its visual text.
        raw = [visual] if len(group) == 1 else ["".join(items[k]) for k in group]
        texts = [
            _item_text(
                _trailing_marks(pair_brackets(item)[0] if brackets else item, own_dir),
                own_dir,
            )
            for item in raw
        ]
        if own_dir == "R":
            texts.reverse()
        paired = [
            pair_brackets(t.replace(_RLM, ""), lone=True)
            if brackets
            else (t.replace(_RLM, ""), True)
            for t in texts
        ]
        text = unicodedata.normalize("NFC", " ".join(t for t, _ in paired))
        part = Part(text, all(ok for _, ok in paired), spans[group[0]][0], spans[group[-1]][1])
        if own_dir == "L" and direction == "R" and len(group) > 1:
            part.cells = [
                (spans[k][0], spans[k][1], t) for k, (t, _) in zip(group, paired, strict=True)
            ]
        parts.append(part)
    if direction == "R":
        parts.reverse()
    return parts


# Gaps ranked in helpers of their own: a lambda in visual_parts would make its
# compiled twin keep ``lo`` and ``hi`` in a closure's environment for the whole call.
def _widest_gap(between: range, lo: list[float], hi: list[float]) -> int:
    """The ``k`` of ``between`` with the widest gap before ``lo[k]`` (the first on a tie)."""
    return max(between, key=lambda k: lo[k] - hi[k - 1])


def _left_to_right(glyphs: list[Glyph], stream: list[int]) -> list[int]:
    """``stream`` ordered by its glyphs' advance box centres, left to right (stable).

    A stream drawn in order (left to right, or right to left without a tie) comes
    back as it is or reversed, without a sort: nearly every line is one of the two.
    """
    count = len(stream)
    if count < 2:
        return stream
    # One run first, the centres in locals (compiled: no float object per glyph).
    g = glyphs[stream[0]]
    prev = (g.x0 + g.x1) / 2
    g = glyphs[stream[1]]
    falling = (g.x0 + g.x1) / 2 < prev
    end = 1
    while end < count:
        g = glyphs[stream[end]]
        center = (g.x0 + g.x1) / 2
        if (center < prev) != falling:
            break
        prev = center
        end += 1
    if end == count:
        # One falling run (nearly every right-to-left line), or one rising run.
        return stream[::-1] if falling else stream
    centers = [(glyphs[p].x0 + glyphs[p].x1) / 2 for p in stream]
    # The stream's runs, as a stable sort finds them: each rising (no centre left
    # of the one before) as it is, each falling (every centre left of the one
    # before: no tie) reversed; a few runs merged, the earlier first on a tie. That
    # is the stable sort's answer without a key call per glyph (pdfium's logical
    # order of a right-to-left line with a number in it is three runs).
    runs: list[list[int]] = []  # indices in stream
    start = 0
    while start < count and len(runs) <= _MERGED_RUNS:
        end = start + 1
        if end < count and centers[end] < centers[start]:
            while end < count and centers[end] < centers[end - 1]:
                end += 1
            runs.append(list(range(end - 1, start - 1, -1)))
        else:
            while end < count and not centers[end] < centers[end - 1]:
                end += 1
            runs.append(list(range(start, end)))
        start = end
    if len(runs) > _MERGED_RUNS or any(c != c for c in centers):  # NaN: the sort's own
        return [stream[k] for k in sorted(range(count), key=centers.__getitem__)]
    order = runs[0]
    for r in range(1, len(runs)):
        order = _merge(order, runs[r], centers)
    return [stream[k] for k in order]


_MERGED_RUNS: Final = 4  # more runs than this: sorted


def _merge(left: list[int], right: list[int], centers: list[float]) -> list[int]:
    """Two runs of indices in ``centers``, each in order, merged: ``left``'s first on a tie."""
    out: list[int] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if centers[right[j]] < centers[left[i]]:
            out.append(right[j])
            j += 1
        else:
            out.append(left[i])
            i += 1
    out.extend(left[i:])
    out.extend(right[j:])
    return out


def _widest_first(ks: list[int], lo: list[float], hi: list[float]) -> list[int]:
    """``ks`` ordered by the gap before ``lo[k]``, widest first (stable)."""
    return sorted(ks, key=lambda k: hi[k - 1] - lo[k])


def _end_directions(visual: str) -> tuple[Direction | None, Direction | None]:
    """The strong directions of a text's first and last letters (None: no letter)."""
    lead: Direction | None = None
    for ch in visual:
        lead = _strong(ch)
        if lead is not None:
            break
    if lead is None:
        return None, None
    for k in range(len(visual) - 1, -1, -1):
        tail = _strong(visual[k])
        if tail is not None:
            return lead, tail
    return lead, None


def _split_texts(
    glyphs: list[Glyph],
    cuts: list[float],
    size: float,
    direction: Direction,
    metrics: Callable[[int], tuple[float, float]],
) -> list[Part]:
    """The parts of a line that holds two texts, each read at its own size."""
    pieces: list[list[Glyph]] = [[] for _ in range(len(cuts) + 1)]
    for g in glyphs:
        pieces[bisect.bisect_left(cuts, g.center)].append(g)
    parts: list[Part] = []
    for piece in pieces if direction == "L" else reversed(pieces):
        letters = [g for g in piece if g.index >= 0 and _strong(g.ch[0])]
        own, baseline = metrics(letters[len(letters) // 2].index) if letters else (size, None)
        for part in visual_parts(piece, own, visual_direction(piece, direction)):
            part.size, part.baseline = own, baseline
            parts.append(part)
    return parts


# Sizes this far apart (largest / smallest) are two texts, not one line's words.
_OTHER_SIZE: Final = 1.25
# A gap this wide (in the smaller size) is more than a word space.
_OTHER_GAP: Final = 0.5


def _other_text(
    bases: list[Glyph],
    strong: list[Direction | None],
    k: int,
    gap: float,
    metrics: Callable[[int], tuple[float, float]],
) -> bool:
    """Whether the gap before ``bases[k]`` parts two texts that are not one line.

    One line has one baseline; runs in another script may be set in another size
    on it (Word sizes Latin and Hebrew apart), but two blocks side by side (the
    cells of a bilingual table row) each have their own. So: the letters nearest
    the gap run in opposite directions, in clearly different sizes, on baselines
    apart, with more than a word space between them. ``strong`` is each base's strong
    direction.
    """
    # Plain loops, not next() over a generator: this runs at every space of a line.
    j = -1
    for i in range(k - 1, max(0, k - 3) - 1, -1):
        if strong[i] is not None:
            j = i
            break
    if j < 0:
        return False
    n = -1
    for i in range(k, min(len(bases), k + 3)):
        if strong[i] is not None:
            n = i
            break
    if n < 0:
        return False
    left, right = bases[j], bases[n]
    if left.index < 0 or right.index < 0 or strong[j] == strong[n]:
        return False
    (a, y_a), (b, y_b) = metrics(left.index), metrics(right.index)
    small = min(a, b)
    return (
        small > 0
        and max(a, b) >= _OTHER_SIZE * small
        and gap >= _OTHER_GAP * small
        and abs(y_a - y_b) >= 0.02 * small
    )


def _turns(da: Direction | None, db: Direction | None) -> bool:
    """Whether two letters (their strong directions) run in opposite directions (no
    word holds both: a gap between them is a word space even where the stream has none)."""
    return da is not None and db is not None and da != db


def _at_turn(bases: list[Glyph], after: list[str], a: int, b: int, direction: Direction) -> bool:
    """Place the stream's space between ``bases[a]`` and ``bases[b]`` (far apart on the
    line, in opposite directions) where their runs meet; False if it has no place.

    On a right-to-left line, ``ה scores`` is drawn ``scores ה``: the space written
    between the Hebrew letter and the Latin run's first letter stands between the
    run's other end and the Hebrew letter. Whichever of the two letters runs in the
    line's direction, the space is beside it, on the side where the embedded run
    begins.
    """
    da, db = _run_direction(bases[a].ch), _run_direction(bases[b].ch)
    if da is None or db is None or da == db:
        return False
    own, other = (a, db) if da == direction else (b, da) if db == direction else (-1, None)
    if own < 0:
        return False
    for j in (own - 1, own + 1):
        if 0 <= j < len(bases) and _run_direction(bases[j].ch) == other:
            k = max(own, j)  # the gap before bases[k]
            if not after[k - 1]:
                after[k - 1] = " "
            return True
    return False


_RUN_DIRECTIONS: Final[dict[str, Direction | None]] = {}


def _run_direction(ch: str) -> Direction | None:
    """A character's direction in a run: its strong one, digits left to right."""
    try:
        return _RUN_DIRECTIONS[ch]  # one lookup: nearly every call hits
    except KeyError:
        pass
    bidi = unicodedata.bidirectional(ch[0])
    direction: Direction | None = (
        "R" if bidi in ("R", "AL") else "L" if bidi in ("L", "EN", "AN") else None
    )
    if len(_RUN_DIRECTIONS) < 4096:  # the characters a book uses: bounded all the same
        _RUN_DIRECTIONS[ch] = direction
    return direction


def turns_at(a: str, b: str) -> bool:
    """Whether the text changes direction between two characters (a letter and a
    word or number in the other direction): the stream's space there is the
    direction change's boundary."""
    da, db = _run_direction(a), _run_direction(b)
    return da is not None and db is not None and da != db


def _letters(chars: list[str]) -> int:
    return sum(1 for ch in chars if _strong(ch) is not None)


def _punct(ch: str) -> bool:
    """Punctuation that hugs the word before it: no space goes on either side of it here."""
    return ch in ".,:;!?\u05c3"


_NEAREST: Final = (1, -1, 2, -2, 3, -3)  # a letter's stream neighbours, nearest first


def _drop_precomposed(
    glyphs: list[Glyph], stream: list[int], codes: list[int], size: float
) -> list[int]:
    """Drop the stray characters of precomposed pointed letters.

    A font that draws a pointed letter (``פְּ``) as one glyph gives the letter a sliver
    of a box and the glyph itself one more character (``&``, ``)``, whatever its
    faulty mapping says) over it. The stray goes; the letter takes its box.
    ``stream`` holds positions in ``glyphs``, ``codes`` their :func:`_code`.
    """
    # A stray: no strong direction, no Hebrew letter; a letter: a Hebrew one.
    stray_bits = _STRONG_BITS | _HEBREW_BIT
    # Only a letter within three of a stray candidate (a base without a strong
    # direction: punctuation, a digit) can take one: most lines have few or none.
    count = len(stream)
    near = [False] * count
    found = False
    for j in range(count):
        if not codes[stream[j]] & stray_bits:
            for k in range(max(0, j - 3), min(count, j + 4)):
                near[k] = True
            found = True
    if not found:
        return stream
    drop: set[int] = set()
    for k in range(count):
        if not near[k]:
            continue
        g = glyphs[stream[k]]
        # The width first: a number compared, where most letters fail.
        if g.x1 - g.x0 >= 0.4 * size or not codes[stream[k]] & _HEBREW_BIT:
            continue
        for step in _NEAREST:
            j = k + step
            if not 0 <= j < count or j in drop:
                continue
            if codes[stream[j]] & stray_bits:
                continue
            o = glyphs[stream[j]]
            if o.x0 - 0.5 <= g.x0 and g.x1 <= o.x1 + 0.5 and o.x1 - o.x0 > g.x1 - g.x0:
                g.x0, g.x1 = o.x0, o.x1
                drop.add(j)
                break
    return [g for k, g in enumerate(stream) if k not in drop] if drop else stream


def _placed(
    x: float, first: int, last: int, lo: list[float], hi: list[float], after: list[str]
) -> bool:
    """Whether a stream space drawn at ``x`` lies in a gap between bases ``first`` and
    ``last`` (visual ranks) that has a space already."""
    for k in range(first + 1, last + 1):
        if after[k - 1] and hi[k - 1] - 0.5 <= x <= lo[k] + 0.5:
            return True
    return False


def _hebrew(ch: str) -> bool:
    return "\u05d0" <= ch <= "\u05ea"


def _space_between(spaces: list[float], lo: float, hi: float) -> bool:
    """Whether one of the stream's spaces is drawn in the gap ``lo``-``hi`` (not in a letter)."""
    k = bisect.bisect_left(spaces, lo - 0.05)
    return k < len(spaces) and spaces[k] <= hi + 0.05


_RLM: Final = "\u200f"
# Sentence punctuation at the left end of a word, with a space or nothing before it.
_LEFT_PUNCT: Final = re.compile(r"(?:(?<=\s)|^)([.,:;!?]+)(?=[^\W\d_])")
# What every match of it that changes the text holds (punctuation before a letter
# outside the Hebrew block, none of whose letters is left to right), found by a
# scan for its first character (the pattern above, starting with a lookbehind, is
# tried at every position).
_PUNCT_LETTER: Final = re.compile(r"[.,:;!?][^\W\d_\u0590-\u05ff]")
# A list label's number and its dash (``1-``, typed after Hebrew words) drawn between
# a Latin run and those words: the label is the Hebrew text's, not the Latin run's end.
_LABEL_NUMBER: Final = re.compile(r"(?<=\S\s)-(?=\d{1,3}\s+[\u05d0-\u05ea])")
_DASH_DIGIT: Final = re.compile(r"-\d")  # in every match of it: a scan for "-" first


def _trailing_marks(visual: str, direction: Direction) -> str:
    """Mark the punctuation that ends a left-to-right word read right to left.

    On a right-to-left line ``CLS:`` followed by another Latin run is drawn with
    the colon on the word's left (``V7 :CLS``): the producer placed each run in the
    line's direction. The bidi algorithm would join the two runs over the colon
    and read ``V7 :CLS``; the punctuation's place on the page says it ends ``CLS``.
    A right-to-left mark after it keeps it with the line's direction (removed
    again from the text). Left-to-right text never has a full stop or colon at a
    word's left edge.
    """
    if direction != "R":
        return visual
    if "-" in visual and _DASH_DIGIT.search(visual):
        visual = _LABEL_NUMBER.sub(_RLM + "-", visual)
    # Only punctuation before a left-to-right letter changes: a Hebrew line's full
    # stop drawn left of its last word (nearly every line) is left as it is, and
    # the scan passes over it.
    for m in _PUNCT_LETTER.finditer(visual):
        if _strong(visual[m.end() - 1]) == "L":
            break
    else:
        return visual
    if not _LEFT_PUNCT.search(visual):
        return visual
    return _LEFT_PUNCT.sub(
        lambda m: m.group(1) + _RLM if _strong(visual[m.end()]) == "L" else m.group(1), visual
    )


def _plain_class(classes: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern of strings of the characters below U+0800 in these bidi classes (the
    scripts whose classes no Unicode version has changed), built at import."""
    chars = characters(classes, 0x800)  # the bidi subset's table (:mod:`._bidi`)
    return re.compile("[" + "".join(re.escape(ch) for ch in chars) + "]*")


# Strings the bidi algorithm lays out as a whole in one direction: strong letters
# of that direction, marks and spaces.
_PLAIN_R: Final = _plain_class(("R", "NSM", "WS"))
_PLAIN_L: Final = _plain_class(("L", "NSM", "WS"))


def _plain_text(visual: str, direction: Direction) -> str | None:
    """The bidi algorithm's display of ``visual`` without running it, where that is
    plain: every character strong in the paragraph's direction, a mark or a space
    (all resolve to the paragraph's level; rule L1 sets trailing spaces to it too)
    reads reversed on a right-to-left line and as it is on a left-to-right one.
    None where the algorithm must run (a number, punctuation, the other direction)."""
    if direction == "R":
        return visual[::-1] if _PLAIN_R.fullmatch(visual) else None
    return visual if _PLAIN_L.fullmatch(visual) else None


_BIDI: Final[list[Callable[..., object]]] = []  # python-bidi's get_display, imported on first use


def _display(visual: str, direction: Direction) -> str:
    """The bidi algorithm's display order of ``visual``: libtext's own for the
    characters it covers (:mod:`._bidi`), else python-bidi's (imported once, when first
    needed: the import takes a tenth of a second, and a statement per call costs a
    lookup)."""
    own = display(visual, direction)
    if own is not None:
        return own
    if not _BIDI:
        from bidi import get_display

        _BIDI.append(get_display)
    return str(_BIDI[0](visual, base_dir=direction))


def _item_text(visual: str, direction: Direction) -> str:
    plain = _plain_text(visual, direction)
    if plain is not None:
        return plain  # a no-number item: the first branch below is not taken
    if not any(_strong(ch) for ch in visual) and any(ch.isdigit() for ch in visual):
        left = _display(visual, "L")
        return left if left[:1].isdigit() else _display(visual, "R")
    return _display(visual, direction)


_OPEN: Final = {"(": ")", "[": "]", "{": "}"}
_CLOSE: Final = {v: k for k, v in _OPEN.items()}
_ANY_BRACKET: Final = re.compile(r"[()\[\]{}]")  # most lines have none: one search says so


def pair_brackets(text: str, lone: bool = False) -> tuple[str, bool]:
    """Brackets of a logical line set by pairing: the first of a pair opens.

    Producers map a mirrored bracket glyph to either character (LuaTeX even maps
    both to ``(``), so the characters say nothing; their order does. A line whose
    brackets of each kind pair up is rewritten (and reported as right). Where they
    do not (a bracket that closes on the next line), with ``lone`` (``text`` read
    from the glyphs, in logical order) each bracket is set by where it stands: one
    before a word and after a space opens, one after a word and before a space
    closes; a line with a bracket of neither kind (a lone ``1)``) is left to the
    document's mirror vote.
    """
    if _ANY_BRACKET.search(text) is None:
        return text, True
    kinds = [(m.start(), _CLOSE.get(m.group(), m.group())) for m in _ANY_BRACKET.finditer(text)]
    if not kinds:
        return text, True
    counts: dict[str, int] = {}
    for _, k in kinds:
        counts[k] = counts.get(k, 0) + 1
    if any(c % 2 for c in counts.values()):
        return _by_neighbours(text, kinds) if lone else (text, False)
    chars = list(text)
    depth: dict[str, int] = {}
    for i, k in kinds:
        # Nested same-kind pairs are rare on one line: alternate open, close.
        d = depth.get(k, 0)
        chars[i] = k if d == 0 else _OPEN[k]
        depth[k] = 1 - d
    return "".join(chars), True


def _by_neighbours(text: str, kinds: list[tuple[int, str]]) -> tuple[str, bool]:
    """:func:`pair_brackets` for a line whose brackets do not pair: each set by its
    neighbours, or the line left as it is when one stands between two words or two
    spaces, or by a number or a letter alone (a list label: ``1)``, ``א)``)."""
    chars = list(text)
    for i, k in kinds:
        before = i == 0 or text[i - 1].isspace()
        after = i + 1 == len(text) or text[i + 1].isspace()
        if before == after:
            return text, False
        lo, hi = i, i + 1
        while lo > 0 and not text[lo - 1].isspace():
            lo -= 1
        while hi < len(text) and not text[hi].isspace():
            hi += 1
        if sum(ch.isalpha() for ch in text[lo:hi]) < 2:
            return text, False
        chars[i] = k if before else _OPEN[k]  # k: the kind's opening bracket
    return "".join(chars), True
