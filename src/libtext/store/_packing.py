"""How a replaced revision's document is kept: compressed, in the same text column.

Ten edits of a long book used to keep ten whole copies of its JSON (107 MB for a
book of 10 MB). A revision is read only by the history, old-revision and revert
paths, so it is kept bzip2-compressed (a book's Hebrew JSON shrinks about 5 times;
zlib, 3.7 times) and base85-encoded behind the marker ``b:``, so that the column stays
text on SQLite and PostgreSQL alike: no migration. Rows written before are JSON (they
start with ``{``) and are read as they are; a libtext that does not know the marker refuses a
packed revision with its "incompatible libtext" error instead of misreading it.
"""

from __future__ import annotations

import base64
import bz2
from typing import Final

__all__ = ["pack_body", "unpack_body"]

_MARK: Final = "b:"


def pack_body(body: str) -> str:
    """``body`` (a document's JSON) as a history row keeps it."""
    return _MARK + base64.b85encode(bz2.compress(body.encode("utf-8"))).decode("ascii")


def unpack_body(stored: str) -> str:
    """The JSON of a history row's ``body``, packed or (written before) plain."""
    if not stored.startswith(_MARK):
        return stored
    return bz2.decompress(base64.b85decode(stored[len(_MARK) :])).decode("utf-8")
