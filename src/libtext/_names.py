"""What a short name (an author, a title typed by an editor) may not contain.

Control characters (ESC starts terminal escape sequences in a log viewer; a newline
forges a log line) and the bidi embedding, override and isolate controls (which
reorder what a reader sees around them: an author shown as someone else) are refused
in names and titles, with a message naming the character. The right-to-left and
left-to-right marks (U+200F, U+200E) stay allowed: Hebrew text needs them.
"""

from __future__ import annotations

import unicodedata

__all__ = ["name_problem"]

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def name_problem(value: str, *, allow_newlines: bool = False) -> str | None:
    """What is wrong with ``value`` as a name or title (``None``: nothing)."""
    for ch in value:
        if ch in _BIDI_CONTROLS:
            return f"the bidi control U+{ord(ch):04X} ({unicodedata.name(ch, 'control')})"
        if unicodedata.category(ch) == "Cc" and not (allow_newlines and ch in "\n\t"):
            return f"the control character U+{ord(ch):04X}"
    return None
