"""The Unicode bidi algorithm (UAX #9) for one line of the characters libtext meets most.

python-bidi's ``get_display`` costs a call into Rust, a copy of the text each way and
a full run of the algorithm for every line that mixes directions or holds a number. The
lines libtext reads are one paragraph without explicit embeddings or isolates, and
their characters are Hebrew and Latin letters, European digits, spaces, marks and
common punctuation: for them the algorithm comes down to a few rules (W1, W4-W7, N0-N2,
I1-I2, L1-L2), run here. Any other character (Arabic, Arabic digits, a control, a
formatting character, a bracket other than ``()[]{}``) makes :func:`display` answer
None, and the caller runs python-bidi. Like ``get_display`` it mirrors nothing. The
classes are Python's own, of characters whose class no Unicode version has changed
(below U+0800, and a few punctuation blocks); tests/test_bidi.py compares the two on
random lines of every class here.
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["characters", "display"]

# Bidi classes of the subset (the resolved types reuse _L, _R, _EN, _ON and _WS).
_L: Final = 0
_R: Final = 1
_EN: Final = 2
_ES: Final = 3
_ET: Final = 4
_CS: Final = 5
_NSM: Final = 6
_WS: Final = 7
_ON: Final = 8
_NAMES: Final = {"L": _L, "R": _R, "EN": _EN, "ES": _ES, "ET": _ET, "CS": _CS, "NSM": _NSM}
_NAMES.update({"WS": _WS, "ON": _ON})
# The only paired brackets (rule N0) of the subset: the opening ones, and each closing
# one's opening bracket.
_OPENING: Final = "([{"
_CLOSING: Final = {")": "(", "]": "[", "}": "{"}
# Blocks above U+0800 whose classes have stayed as they are: general punctuation
# (without the line and paragraph separators, the explicit formatting characters and
# the paired brackets U+2045-U+2046), the Hebrew presentation forms.
_EXTRA: Final = (
    (0x2010, 0x2027),
    (0x2030, 0x2044),
    (0x2047, 0x205E),
    (0x200E, 0x200F),
    (0xFB1D, 0xFB4F),
)


def _classes() -> dict[str, int]:
    codes = list(range(0x800))
    for lo, hi in _EXTRA:
        codes.extend(range(lo, hi + 1))
    table: dict[str, int] = {}
    for c in codes:
        ch = chr(c)
        name = unicodedata.bidirectional(ch)
        if name not in _NAMES:
            continue
        if name == "ON" and unicodedata.mirrored(ch) and ch not in "()[]{}<>":
            # A mirrored character of another kind may be a paired bracket of a later
            # Unicode version (no such character below U+0800 but these six is).
            continue
        table[ch] = _NAMES[name]
    return table


_CLASS: Final = _classes()
# The same by code point, for the per-character loop (``ord(text[i])`` compiled makes
# no string): a class, or _OUT outside the subset.
_OUT: Final = 255
_TABLE: Final = bytes([_CLASS.get(chr(c), _OUT) for c in range(max(ord(ch) for ch in _CLASS) + 1)])
_SEPARATOR: Final = (_ES, _CS)


def characters(classes: tuple[str, ...], below: int) -> str:
    """The characters of the subset below code point ``below`` whose bidi class is one
    of ``classes`` (names: ``"R"``, ``"NSM"``, ...), in code point order."""
    wanted = {_NAMES[name] for name in classes}
    return "".join([ch for ch, t in _CLASS.items() if ord(ch) < below and t in wanted])


def display(text: str, direction: str) -> str | None:
    """The display order of one line ``text`` whose paragraph direction is
    ``direction`` ("L" or "R"), as ``get_display(text, base_dir=direction)`` gives it;
    None when ``text`` holds a character outside the subset."""
    n = len(text)
    table = _TABLE
    size = len(table)
    types: list[int] = [0] * n
    rtl = direction == "R"
    e = _R if rtl else _L  # the embedding direction, and that of sos and eos
    has_r = has_l = has_en = has_et = False
    prev = e
    for i in range(n):
        c = ord(text[i])
        t = table[c] if c < size else _OUT
        if t == _OUT:
            return None
        if t == _NSM:
            t = prev  # W1: a mark takes the type of the character before it (or sos)
        elif t == _R:
            has_r = True
        elif t == _L:
            has_l = True
        elif t == _EN:
            has_en = True
        elif t == _ET:
            has_et = True
        types[i] = t
        prev = t
    if not rtl and not has_r:
        return text  # every character at level 0
    if rtl and not has_l and not has_en:
        return text[::-1]  # every character at level 1
    if has_en:
        # W4: one separator between two European digits joins them.
        for i in range(1, n - 1):
            if types[i] in _SEPARATOR and types[i - 1] == _EN and types[i + 1] == _EN:
                types[i] = _EN
        if has_et:
            # W5: terminators next to a European number are part of it.
            i = 0
            while i < n:
                if types[i] != _ET:
                    i += 1
                    continue
                end = i
                while end < n and types[end] == _ET:
                    end += 1
                if (i > 0 and types[i - 1] == _EN) or (end < n and types[end] == _EN):
                    for k in range(i, end):
                        types[k] = _EN
                i = end
    # W6: other separators and terminators are neutral; W7: a European number after
    # a left-to-right letter (or sos) is one.
    strong = e
    for i in range(n):
        t = types[i]
        if t in (_ES, _ET, _CS):
            types[i] = _ON
        elif t in (_L, _R):
            strong = t
        elif t == _EN and strong == _L:
            types[i] = _L
    _brackets(text, types, e)
    # N1, N2: a run of neutrals between two strong types of one direction takes it
    # (numbers count as right-to-left), else the embedding direction; I1, I2: the
    # levels (0 to 2), written over the types.
    before = e  # the direction of the last strong type (or number), sos at first
    i = 0
    while i < n:
        t = types[i]
        if t != _ON and t != _WS:
            types[i] = _level(t, rtl)
            before = _L if t == _L else _R
            i += 1
            continue
        end = i
        while end < n and (types[end] == _ON or types[end] == _WS):
            end += 1
        after = e if end == n else (_L if types[end] == _L else _R)
        level = _level(before if before == after else e, rtl)
        for k in range(i, end):
            types[k] = level
        i = end
    # L1: trailing whitespace goes to the paragraph's level.
    k = n - 1
    while k >= 0 and table[ord(text[k])] == _WS:
        types[k] = e
        k -= 1
    return _reorder(text, types)


def _level(t: int, rtl: bool) -> int:
    """Rules I1, I2: the level of a resolved type (L, R or EN) in the paragraph."""
    if rtl:
        return 1 if t == _R else 2
    return 0 if t == _L else 1 if t == _R else 2


def _strong_of(t: int) -> int:
    """A resolved type as rule N0 sees it: L, R (numbers count as R), or -1."""
    if t == _L:
        return _L
    if t in (_R, _EN):
        return _R
    return -1


def _brackets(text: str, types: list[int], e: int) -> None:
    """Rule N0: each pair of brackets takes the direction of the strong text inside
    it: the embedding direction if any is of it, else the other if the text before
    the pair (or sos) is of the other too. Marks after a bracket follow it."""
    if "(" not in text and "[" not in text and "{" not in text:
        return
    stack: list[int] = []
    pairs: list[tuple[int, int]] = []
    n = len(text)
    for i in range(n):
        if types[i] != _ON:
            continue
        ch = text[i]
        if ch in _OPENING:
            if len(stack) == 63:
                break  # BD16: too deep, no more pairs
            stack.append(i)
            continue
        opening = _CLOSING.get(ch)
        if opening is None:
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if text[stack[depth]] == opening:
                pairs.append((stack[depth], i))
                del stack[depth:]
                break
    pairs.sort()
    for o, c in pairs:
        found_e = False
        found_other = False
        for k in range(o + 1, c):
            s = _strong_of(types[k])
            if s == e:
                found_e = True
                break
            if s >= 0:
                found_other = True
        if found_e:
            side = e
        elif found_other:
            before = e
            for k in range(o - 1, -1, -1):
                s = _strong_of(types[k])
                if s >= 0:
                    before = s
                    break
            side = before  # the other direction if the text before is of it, else e
        else:
            continue
        for at in (o, c):
            types[at] = side
            k = at + 1
            while k < n and _TABLE[ord(text[k])] == _NSM:
                types[k] = side
                k += 1


def _reorder(text: str, levels: list[int]) -> str:
    """Rule L2 for levels 0 to 2: each run at level 1 or above reads reversed, its
    level-2 pieces (reversed twice) as they are."""
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        if levels[i] == 0:
            end = i + 1
            while end < n and levels[end] == 0:
                end += 1
            out.append(text[i:end])
            i = end
            continue
        end = i + 1
        while end < n and levels[end] > 0:
            end += 1
        pieces: list[str] = []
        k = i
        while k < end:
            level = levels[k]
            stop = k + 1
            while stop < end and levels[stop] == level:
                stop += 1
            pieces.append(text[k:stop] if level == 2 else text[k:stop][::-1])
            k = stop
        pieces.reverse()
        out.extend(pieces)
        i = end
    return "".join(out)
