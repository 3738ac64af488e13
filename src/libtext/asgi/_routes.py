"""The cached read routes, declared once: FastAPI and the fast path both read this table.

Each :class:`CachedRoute` names its path, its integer query parameters (alias,
bounds, default, description), the store read behind it and its OpenAPI text.
:func:`libtext.asgi.create_app` registers an endpoint for each whose signature is
made from the parameters, so FastAPI validates them and documents them; the fast
path (``libtext.asgi._fastpath``) matches the same path and parses the same
parameters, in their plainest form only, to answer cache hits before the router.
A parameter added here is seen by both.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Header, Path, Query

from libtext.asgi._cache import CachedBody
from libtext.models import PaginatedTextsResponse, ProcessedDocument

if TYPE_CHECKING:  # pragma: no cover
    from libtext.asgi._settings import Settings
    from libtext.store import TextStore

__all__ = ["MAX_PAGE", "CachedRoute", "IntQuery", "cached_routes"]

MAX_PAGE = 1_000_000
"""Largest ``page`` (and ``revision``) number accepted by the routes."""

_DECIMAL = re.compile(rb"[1-9][0-9]{0,8}")
_PATH_PARAM = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class IntQuery:
    """An integer query parameter, ``ge <= value <= le``; ``default=None``: optional."""

    name: str
    """The argument's name (the read's ``args`` key)."""
    alias: str
    """The name in the query string."""
    ge: int
    le: int
    default: int | None
    description: str

    def annotation(self) -> Any:
        """The parameter as FastAPI reads it from an endpoint's signature."""
        kind: Any = int if self.default is not None else int | None
        alias = self.alias if self.alias != self.name else None
        query = Query(alias=alias, ge=self.ge, le=self.le, description=self.description)
        return Annotated[kind, query]

    def parse(self, raw: bytes) -> int | None:
        """The value of ``raw`` when written plainly (``20``, no sign, no leading zero)
        and within bounds; ``None`` leaves the request to FastAPI."""
        if not _DECIMAL.fullmatch(raw):
            return None
        value = int(raw)
        return value if self.ge <= value <= self.le else None


@dataclass(frozen=True)
class CachedRoute:
    """A ``GET`` route whose answers the read cache keeps (see ``libtext.asgi._cache``)."""

    name: str
    path: str
    """At most one path parameter, as the last segment (``/api/texts/{slug}``)."""
    query: tuple[IntQuery, ...]
    read: Callable[[TextStore, dict[str, Any]], CachedBody]
    """The store read, in a worker thread: ``args`` are the path and query values."""
    response_model: Any
    summary: str
    description: str = ""
    statuses: tuple[int, ...] = (400, 500, 503, 504)
    """Error statuses for the OpenAPI document (401 is added when GETs need a key)."""
    negotiate: bool = False
    """Also serves the exported files (``libtext.export``) by ``Accept`` or ``?format=``;
    only JSON answers are cached (the fast path leaves other requests to the route)."""
    _prefix: str = field(init=False, repr=False)
    _segment: str | None = field(init=False, repr=False)
    _names: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        params = _PATH_PARAM.findall(self.path)
        segment = params[0] if params else None
        prefix = self.path[: -len(f"/{{{segment}}}")] if segment else self.path
        if len(params) > 1 or (segment and not self.path.endswith(f"/{{{segment}}}")):
            raise ValueError(f"{self.path}: one path parameter at most, as the last segment")
        names = (*((segment,) if segment else ()), *(q.name for q in self.query))
        object.__setattr__(self, "_prefix", prefix)
        object.__setattr__(self, "_segment", segment)
        object.__setattr__(self, "_names", names)

    @property
    def arg_names(self) -> tuple[str, ...]:
        """The read's argument names: the path parameter, then the query's."""
        return self._names

    def key(self, args: dict[str, Any]) -> Hashable:
        """The cache key of one request's arguments."""
        return (self.name, *[args[name] for name in self._names])

    def match(self, path: str) -> dict[str, Any] | None:
        """The path parameter of ``path`` if it is this route's (as Starlette's ``{x}``)."""
        if self._segment is None:
            return {} if path == self._prefix else None
        prefix = self._prefix + "/"
        if not path.startswith(prefix) or len(path) == len(prefix):
            return None
        value = path[len(prefix) :]
        return None if "/" in value else {self._segment: value}

    def parse_query(self, raw: bytes) -> dict[str, Any] | None:
        """The query's values when every pair is plain (``page=2&pageSize=20``), each
        parameter at most once and nothing else; else ``None`` (FastAPI decides)."""
        values: dict[str, Any] = {q.name: q.default for q in self.query}
        by_alias = {q.alias.encode(): q for q in self.query}
        seen: set[bytes] = set()
        for pair in raw.split(b"&") if raw else ():
            key, eq, value = pair.partition(b"=")
            param = by_alias.get(key)
            if not eq or param is None or key in seen:
                return None
            seen.add(key)
            if (parsed := param.parse(value)) is None:
                return None
            values[param.name] = parsed
        return values

    def signature(self) -> inspect.Signature:
        """The endpoint's signature, from which FastAPI parses and documents the route."""
        kw = inspect.Parameter.KEYWORD_ONLY
        segment = Annotated[str, Path(description=f"The {self._segment} of the item to read.")]
        params = [inspect.Parameter(self._segment, kw, annotation=segment)] if self._segment else []
        params += [
            inspect.Parameter(q.name, kw, default=q.default, annotation=q.annotation())
            for q in self.query
        ]
        if self.negotiate:
            fmt = Query(
                max_length=20,
                description="json (default), docx, epub, md, tei or html; wins over Accept.",
            )
            accept = Header(max_length=1000, description="The media type wanted (see below).")
            params += [
                inspect.Parameter(
                    "format", kw, default=None, annotation=Annotated[str | None, fmt]
                ),
                inspect.Parameter(
                    "accept", kw, default=None, annotation=Annotated[str | None, accept]
                ),
            ]
        return inspect.Signature(params)


def _list_texts(store: TextStore, args: dict[str, Any]) -> CachedBody:
    return CachedBody(store.list(args["page"], args["page_size"]).model_dump_json().encode())


def _get_text(store: TextStore, args: dict[str, Any]) -> CachedBody:
    document, tag = store._tagged(args["slug"], args["revision"])
    return CachedBody(document.model_dump_json().encode(), tag)


def cached_routes(settings: Settings) -> tuple[CachedRoute, ...]:
    """The table, with the page sizes ``settings`` allow."""
    page = IntQuery("page", "page", 1, MAX_PAGE, 1, "1-based page number.")
    page_size = IntQuery(
        "page_size",
        "pageSize",
        1,
        settings.max_page_size,
        settings.default_page_size,
        "Texts per page.",
    )
    revision = IntQuery(
        "revision", "revision", 1, MAX_PAGE, None, "A revision number (default: the current one)."
    )
    return (
        CachedRoute(
            name="list_texts",
            path="/api/texts",
            query=(page, page_size),
            read=_list_texts,
            response_model=PaginatedTextsResponse,
            summary="List All Texts",
            description="Stored texts, newest first.",
        ),
        CachedRoute(
            name="get_text",
            path="/api/texts/{slug}",
            query=(revision,),
            read=_get_text,
            response_model=ProcessedDocument,
            summary="Get Text by Slug",
            description="The stored document, without the source library's internal ids; its "
            "ETag header names the revision (send it as If-Match to edit). ``revision`` reads "
            "an older revision. ``Accept`` (or ``format``) asks for a published file instead: "
            "``text/html`` (reader page), ``text/markdown``, ``application/tei+xml``, "
            "``application/epub+zip`` or "
            "``application/vnd.openxmlformats-officedocument.wordprocessingml.document``; "
            "406 for any other type.",
            statuses=(400, 404, 406, 500, 503, 504),
            negotiate=True,
        ),
    )
