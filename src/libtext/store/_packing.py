"""How a replaced revision's document is kept: compressed, in the same text column.

Ten edits of a long book used to keep ten whole copies of its JSON (107 MB for a
book of 10 MB). A revision is read only by the history, old-revision and revert
paths, so it is kept zlib-compressed (Hebrew JSON shrinks about 5 to 8 times),
base64-encoded behind the marker ``z:`` so that the column stays text on SQLite and
PostgreSQL alike: no migration. Rows written before are JSON (they start with
``{``) and are read as they are; a libtext that does not know the marker refuses a
packed revision with its "incompatible libtext" error instead of misreading it.
"""

from __future__ import annotations

import base64
import zlib
from typing import Final

__all__ = ["pack_body", "unpack_body"]

_MARK: Final = "z:"
_LEVEL: Final = 6


def pack_body(body: str) -> str:
    """``body`` (a document's JSON) as a history row keeps it."""
    packed = zlib.compress(body.encode("utf-8"), _LEVEL)
    return _MARK + base64.b64encode(packed).decode("ascii")


def unpack_body(stored: str) -> str:
    """The JSON of a history row's ``body``, packed or (written before) plain."""
    if not stored.startswith(_MARK):
        return stored
    return zlib.decompress(base64.b64decode(stored[len(_MARK) :])).decode("utf-8")
