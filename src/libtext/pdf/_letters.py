"""How many Hebrew and how many Latin letters a text holds, counted in bytes.

The page's direction, a block's script and a row's order are votes of letters; a
page asks them of its whole text and its blocks. Windows-1255 gives exactly the
Hebrew letters (U+05D0-U+05EA) the bytes 0xE0-0xFA and Latin-1 the ASCII letters
theirs, every other character is dropped or kept apart: four times the speed of
``str.count`` per letter, and more than that of ``findall`` of letter runs.
"""

from __future__ import annotations

from typing import Any

from libtext.pdf._compiled import cython_module

__all__ = ["letters_in_bytes", "script_letters"]

_NOT_HEBREW_BYTES = bytes(b for b in range(256) if not 0xE0 <= b <= 0xFA)
_NOT_LATIN_BYTES = bytes(b for b in range(256) if not (0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A))


def script_letters(text: str) -> tuple[int, int]:
    """The number of Hebrew letters (U+05D0-U+05EA) and of ASCII letters in ``text``:
    one pass of the C twin's loop (``_charcalls.script_letters``) where it is built (a
    page's text is counted once, each OCR line again), else :func:`letters_in_bytes`."""
    twin = _twin()
    if twin is not None:
        got: tuple[int, int] = twin(text)
        return got
    return letters_in_bytes(text)


_TWIN: list[Any] = []


def _twin() -> Any:
    """The C twin of :func:`letters_in_bytes`, or None (decided once)."""
    if not _TWIN:
        module = cython_module("_charcalls")
        _TWIN.append(None if module is None else module.script_letters)
    return _TWIN[0]


def letters_in_bytes(text: str) -> tuple[int, int]:
    """The reference count of :func:`script_letters`, in bytes (see the module)."""
    hebrew = text.encode("cp1255", "ignore").translate(None, _NOT_HEBREW_BYTES)
    latin = text.encode("latin-1", "ignore").translate(None, _NOT_LATIN_BYTES)
    return len(hebrew), len(latin)
