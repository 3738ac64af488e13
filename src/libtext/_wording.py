"""An error's words for where it surfaces: arguments in Python, flags in the CLI,
the server's settings over HTTP.

Library messages are written for Python callers (``pass api_key=...``). The CLI and
the HTTP adapter pass every message through :func:`for_cli` / :func:`for_http`,
which swap each Python phrase of :data:`PHRASES` for its own words. A test raises
each of these errors through the three surfaces and checks that none speaks
another's language.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import NamedTuple

__all__ = ["PHRASES", "Phrase", "for_cli", "for_http", "install_hint"]


class Phrase(NamedTuple):
    python: str
    cli: str
    http: str


PHRASES: tuple[Phrase, ...] = (
    Phrase(
        "pass save_partial=True to keep the document",
        "give --save-partial to keep the document",
        'send the request again with "save_partial": true in its JSON body (or '
        "?save_partial=true with a PDF upload) to keep the document",
    ),
    Phrase(
        "(TextStore(url=...) or LIBTEXT_DATABASE_URL)",
        "(--store or LIBTEXT_DATABASE_URL)",
        "(the server's LIBTEXT_DATABASE_URL, or libtext serve --store)",
    ),
    Phrase(" or pass api_key=... explicitly.", ".", " where the server runs."),
    Phrase("(TextStore.list())", "('libtext texts list')", "(GET /api/texts)"),
    Phrase(
        "passed as api_key= or set in the provider's environment variable",
        "set in the provider's environment variable",
        "set in the provider's environment variable where the server runs",
    ),
    Phrase(
        "pass password='...', or decrypt it first",
        "give it with --password, or decrypt it first",
        "decrypt it before uploading",
    ),
    Phrase(
        "pass the right password='...'",
        "give the right one with --password",
        "decrypt it before uploading",
    ),
    Phrase(
        "(base_url=... or LIBTEXT_LIBRARY_URL)",
        "(--base-url or LIBTEXT_LIBRARY_URL)",
        "(the server's LIBTEXT_LIBRARY_URL)",
    ),
    Phrase(
        "pass base_url=... or set LIBTEXT_LIBRARY_URL",
        "give --base-url or set LIBTEXT_LIBRARY_URL",
        "set LIBTEXT_LIBRARY_URL where the server runs",
    ),
)


def for_cli(message: str) -> str:
    """``message`` in the command line's words (flags)."""
    for phrase in PHRASES:
        message = message.replace(phrase.python, phrase.cli)
    return message


def for_http(message: str) -> str:
    """``message`` in an HTTP client's words (the server's settings, no Python)."""
    for phrase in PHRASES:
        message = message.replace(phrase.python, phrase.http)
    return message


@cache
def _checkout() -> Path | None:
    """The source tree libtext runs from (an editable install), else ``None``."""
    root = Path(__file__).resolve().parents[2]  # src/libtext/_wording.py -> the tree
    pyproject = root / "pyproject.toml"
    try:
        named = 'name = "libtext"' in pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if named and (root / "src" / "libtext").is_dir() else None


def install_hint(extra: str) -> str:
    """The command that brings ``extra`` on this install.

    ``pip install 'libtext[store]'`` resolves only from a package index; from a
    checkout (an editable install) the same extra is ``pip install -e '.[store]'``
    in the tree, so that is what a developer is told.
    """
    root = _checkout()
    if root is None:
        return f"pip install 'libtext[{extra}]'"
    try:
        here = Path.cwd().resolve() == root
    except OSError:
        here = False
    where = "." if here else os.fspath(root)
    return f"pip install -e '{where}[{extra}]'"
