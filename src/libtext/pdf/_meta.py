"""The PDF's document information (Title, Author) made readable, or dropped.

Hebrew producers often write the Info strings wrong: as single bytes that pdfium reads
as Latin-1 (PDFDocEncoding). Two habits are common, and both are undone here:

* Windows code page 1255 bytes (``àáâ`` for ``אבג``);
* the low byte of each UTF-16 code unit (``ÐÙêß`` for ``איתן``: U+05D0 → 0xD0).

A string is taken as such mojibake only when it has a "word" of two or more letters
all in U+00C0–U+00FF and no ASCII letter inside it, which real European text almost
never has (``été`` has a ``t``), and when decoding turns those words into Hebrew.

An Author that is an account name (a login such as ``jdoe42``, an e-mail address, the
installer's ``User``) names no one and is dropped.

Print drivers also put the printed file's name in the title
(``Microsoft Word - notes.docx``): the program's prefix is dropped, and a title that
is then a bare file name is no title at all.
"""

from __future__ import annotations

import re

__all__ = ["decode_mojibake", "info_author", "info_text"]

_HIGH_WORD = re.compile(r"[\u00c0-\u00ff]{2,}")
_LETTERS_WORD = re.compile(r"[A-Za-z\u00c0-\u00ff]+")
_PRINTER_PREFIX = re.compile(
    r"^(?:Microsoft\s+(?:Word|PowerPoint|Excel|Office\s+\w+)|Word|PowerPoint)\s+-\s+",
    re.IGNORECASE,
)
_FILE_NAME = re.compile(
    r"^[^\s/\\]*\.(?:docx?|pptx?|xlsx?|rtf|odt|pdf|txt|indd|tex|html?)$|^[\w\-.]+\.\w{2,4}$",
    re.IGNORECASE,
)
_HEBREW = re.compile("[\u05d0-\u05ea]")
# A login rather than a person: one lower-case Latin token (``jdoe``, ``user42``,
# ``yossi.k``), an e-mail address, or the placeholder an installer fills in.
_ACCOUNT = re.compile(r"^(?=[^A-Z]*[a-z])[a-z0-9._\-]+$|^\S+@\S+$")
_PLACEHOLDERS = frozenset({"user", "admin", "administrator", "owner", "windows user", "unknown"})


def _low_byte(ch: str) -> str:
    code = ord(ch)
    return chr(0x500 + code) if 0xD0 <= code <= 0xEA else ch


def _cp1255(ch: str) -> str:
    code = ord(ch)
    if 0xE0 <= code <= 0xFA:
        return chr(0x5D0 + code - 0xE0)
    return ch


def decode_mojibake(text: str) -> str:
    """Hebrew read back from single-byte mojibake; ``text`` unchanged if it is not that."""
    words = _LETTERS_WORD.findall(text)
    high = [w for w in words if _HIGH_WORD.fullmatch(w)]
    if not high or sum(map(len, high)) < sum(map(len, words)) / 2:
        return text
    best, best_score = text, 0
    for convert in (_cp1255, _low_byte):
        out = "".join(convert(ch) if "\u00c0" <= ch <= "\u00ff" else ch for ch in text)
        left = sum(1 for ch in out if "\u00c0" <= ch <= "\u00ff")
        score = len(_HEBREW.findall(out)) - 2 * left
        if score > best_score:
            best, best_score = out, score
    return best


def info_text(value: str) -> str:
    """A Title or Author string as a reader would write it ("" when it is none)."""
    text = " ".join(value.replace("\x00", " ").split())
    stripped = _PRINTER_PREFIX.sub("", text)
    if stripped != text or _FILE_NAME.match(text):
        # A print driver's title is the file's name: keep it only if it reads as a title.
        if _FILE_NAME.match(stripped) or not stripped.strip():
            return ""
        text = stripped
    return decode_mojibake(text).strip()


def info_author(value: str) -> str:
    """An Author string as a reader would write it; ``""`` for an account name."""
    text = info_text(value)
    if _ACCOUNT.match(text) or text.casefold() in _PLACEHOLDERS:
        return ""
    return text
