"""A griffe extension for libtext's API reference (mkdocs.yml loads it).

- Sphinx roles in docstrings (``:func:`x```, ``:class:`~a.B```) become code, as the
  reader sees them in ``help()``; mkdocstrings would print the role as written.
- A sync twin gets its async twin's docstring, as ``libtext._sync.complete_twin_docs``
  gives it at run time (the reference reads the source, not the running objects).
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|meth|class|attr|mod|data|exc|obj):`~?([^`]+)`")
_TWIN = "Sync twin of"


def _plain(text: str) -> str:
    return _ROLE.sub(lambda m: f"`{m.group(1)}`", text)


class LibtextDocs(griffe.Extension):
    """Roles to code, and full sync-twin docstrings."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _plain(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._twins(pkg)

    def _twins(self, obj: griffe.Object) -> None:
        for member in list(obj.members.values()):
            if member.is_alias:
                continue
            if member.is_class or member.is_module:
                self._twins(member)
            doc = member.docstring
            twin = obj.members.get("a" + member.name)
            if (
                doc is None
                or not doc.value.startswith(_TWIN)
                or twin is None
                or twin.is_alias
                or twin.docstring is None
            ):
                continue
            head, _, body = inspect.cleandoc(twin.docstring.value).partition("\n")
            doc.value = f"{doc.value.strip()}\n\n{head}\n{body}".rstrip()
