"""Slugs of stored texts: made from the titles, checked before any query.

A slug is ``a-z``, ``0-9`` and single hyphens, at most :data:`SLUG_MAX_LENGTH`
characters. It is made from the publication title and the work title with
python-slugify, after the nikud and cantillation are removed: a title printed with
or without vowels gives the same slug, and the letters alone transliterate more
readably (``שֻׁלְחָן עָרוּךְ`` -> ``shlkhn-arvk``, not ``shul-khan-arvk``). Alef and
ayin, which transliterate to nothing, become ``a`` (so ``מאמר א`` and ``מאמר ב`` stay
apart), and geresh/gershayim are dropped (``רמב"ם`` -> ``rmbm``). The base is cut at a
word boundary to :data:`BASE_MAX_LENGTH` so the ``-2``, ``-3``... suffixes always fit.
Changing any of this changes the slugs of texts saved later, never stored ones.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from slugify import slugify

from libtext.errors import InvalidSlugError
from libtext.hebrew import normalize_quotes, strip_nikud

__all__ = [
    "BASE_MAX_LENGTH",
    "FALLBACK_SLUG",
    "SLUG_MAX_LENGTH",
    "base_slug",
    "check_slug",
    "next_slug",
]

SLUG_MAX_LENGTH = 80
BASE_MAX_LENGTH = 60
FALLBACK_SLUG = "text"
"""The base when the titles hold nothing that transliterates (empty, emoji only)."""

_SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_LETTERS = str.maketrans({"א": "a", "ע": "a", "'": None, '"': None})


def base_slug(publication_title: str, work_title: str) -> str:
    """The slug the titles give before any ``-N`` suffix (a title repeated counts once)."""
    parts: list[str] = []
    for title in (publication_title, work_title):
        cleaned = strip_nikud(unicodedata.normalize("NFC", title)).strip()
        if cleaned and cleaned not in parts:
            parts.append(cleaned)
    text = normalize_quotes(" ".join(parts)).translate(_LETTERS)
    slug: str = slugify(text)
    if len(slug) > BASE_MAX_LENGTH:
        # slugify's own word_boundary drops a first word longer than the limit.
        cut = slug.rfind("-", 0, BASE_MAX_LENGTH + 1)
        slug = slug[:cut] if cut > 0 else slug[:BASE_MAX_LENGTH].rstrip("-")
    return slug if _SLUG_RE.fullmatch(slug) else FALLBACK_SLUG


def next_slug(base: str, taken: Iterable[str]) -> str:
    """The next free slug of ``base``'s family: ``base``, then one past the highest ``-N``.

    ``taken`` holds the stored slugs equal to ``base`` or starting with ``base-``;
    others are ignored. Numbering continues past the highest number in use, so a
    slug freed by a delete in the middle of the family is not handed out again.
    """
    suffix = re.compile(re.escape(base) + r"-(\d{1,15})")
    highest = 0
    for slug in taken:
        if slug == base:
            highest = max(highest, 1)
        elif match := suffix.fullmatch(slug):
            highest = max(highest, int(match.group(1)))
    return base if highest == 0 else f"{base}-{highest + 1}"


def check_slug(slug: object) -> str:
    """Return ``slug`` if it is well formed, else raise :class:`InvalidSlugError`."""
    if isinstance(slug, str) and len(slug) <= SLUG_MAX_LENGTH and _SLUG_RE.fullmatch(slug):
        return slug
    shown = repr(slug) if len(repr(slug)) <= 40 else repr(slug)[:37] + "..."
    raise InvalidSlugError(
        f"Not a valid slug: {shown}. A slug is lowercase ASCII letters, digits and single "
        f"hyphens, at most {SLUG_MAX_LENGTH} characters (e.g. 'tnya-lqvty-mrym'); "
        "list the stored texts to find one.",
        details={"max_length": SLUG_MAX_LENGTH},
    )
