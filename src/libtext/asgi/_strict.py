"""Unknown names are errors over HTTP too: a misspelt parameter never runs a default.

The Python API raises ``TypeError`` for an unknown keyword (``libtext._keywords``);
over HTTP the same slip (``?provider=`` where the route takes ``providers``, a form
field beside the PDF) would otherwise be dropped by FastAPI and the request would
run with the default provider. :func:`reject_unknown_query` is an app-wide
dependency: it reads the parameters the matched route declares and answers 400
(an ``ErrorResponse`` naming the unknown name and the nearest valid one) for any
other. :func:`reject_unknown_fields` does the same for the fields of a multipart
form, whose only field is ``file``.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.requests import Request

from libtext.errors import InvalidInputError

__all__ = ["query_names", "reject_unknown_fields", "reject_unknown_query", "unknown_name"]


def query_names(route: APIRoute) -> frozenset[str]:
    """The query parameter names ``route`` declares (aliases as sent), its dependencies'
    included (a walk of a few objects, done per request: no cache to go stale)."""
    return frozenset(_walk(route.dependant))


def _walk(dependant: Dependant) -> Iterable[str]:
    for param in dependant.query_params:
        yield param.alias
    for sub in dependant.dependencies:
        yield from _walk(sub)


def _nearest(name: str, valid: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(name, sorted(valid), n=1, cutoff=0.6)
    return close[0] if close else None


def unknown_name(kind: str, name: str, valid: Collection[str], hint: str = "") -> InvalidInputError:
    """The 400 for an unknown ``kind`` (``query parameter``, ``form field``) ``name``."""
    nearest = _nearest(name, valid)
    if nearest is not None:
        advice = f"did you mean {nearest!r}?"
    elif valid:
        advice = f"this route takes: {', '.join(sorted(valid))}."
    else:
        advice = "this route takes none."
    return InvalidInputError(
        f"Unknown {kind} {name!r}; {advice}{hint}",
        details={"unknown": name, "did_you_mean": nearest, "valid": sorted(valid)},
    )


async def reject_unknown_query(request: Request) -> None:
    """400 for a query parameter the matched route does not declare."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.include_in_schema:
        return
    valid = query_names(route)
    for name in request.query_params:
        if name not in valid:
            raise unknown_name("query parameter", name, valid)


def reject_unknown_fields(request: Request, names: Iterable[str], valid: Collection[str]) -> None:
    """400 for a form field other than ``valid``; a query parameter's name sent as a
    field is told to go in the query string."""
    route = request.scope.get("route")
    query = query_names(route) if isinstance(route, APIRoute) else frozenset()
    for name in names:
        if name in valid:
            continue
        in_query = name if name in query else _nearest(name, query)
        hint = (
            f" {in_query!r} is a query parameter: send it in the URL (?{in_query}=...)."
            if in_query
            else ""
        )
        raise unknown_name("form field", name, valid, hint)
