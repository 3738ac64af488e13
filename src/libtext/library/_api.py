"""The online library's JSON, read tolerantly into typed nodes and search hits.

What is known of the API comes from public client code, not from documentation, so
every reader here accepts the shapes seen in the wild and turns anything else into
a :class:`~libtext.errors.LibraryError` that names the endpoint, never a KeyError:

* ``api/main?path=ID`` -> ``{"content": {"type": "children", "data": [{id, heading}]}}``
  for a section, ``{"content": {"type": "page", "data": {"text", "haoros"}}}`` for a
  page (``type`` missing: inferred from ``data``);
* the older ``api/main?id=ID`` -> ``{tree, page, children, navigation, sections}``;
* ``api/search?phrase=&section_id=&offset=`` -> ``{"count": N, "results":
  [{mafteach_id, tree, text}]}``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from libtext.errors import LibraryError, NotFoundError
from libtext.library._html import plain
from libtext.library._search import breadcrumb

__all__ = ["RawChild", "RawNode", "RawSearch", "RawSearchHit", "read_node", "read_search"]


class _Wire(BaseModel):
    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True, validate_by_name=True)


def _text(value: Any) -> Any:
    """Join a list of strings (some notes come as one); ``None`` becomes ``""``."""
    if value is None:
        return ""
    if isinstance(value, list):
        return "\n\n".join(str(v) for v in value if v is not None)
    return value


class RawChild(_Wire):
    """An entry of a section's table of contents."""

    id: str = Field(min_length=1)
    heading: str = Field(default="", validation_alias=AliasChoices("heading", "title", "name"))

    @field_validator("heading", mode="before")
    @classmethod
    def _heading(cls, value: Any) -> Any:
        return plain(str(_text(value)))


class RawNode(_Wire):
    """A node as the API sent it: a section (children), a page (HTML), or both."""

    id: str
    kind: Literal["section", "page"]
    title: str = ""
    children: list[RawChild] = Field(default_factory=list)
    html: str = ""
    haoros: str = ""
    breadcrumbs: list[str] = Field(default_factory=list)


class _WirePage(_Wire):
    text: str = Field(default="", validation_alias=AliasChoices("text", "html", "content"))
    haoros: str = Field(default="", validation_alias=AliasChoices("haoros", "notes", "footnotes"))
    heading: str = Field(default="", validation_alias=AliasChoices("heading", "title", "name"))

    @field_validator("text", "haoros", "heading", mode="before")
    @classmethod
    def _join(cls, value: Any) -> Any:
        return _text(value)


class RawSearchHit(_Wire):
    """A search hit: its page id, breadcrumb and page HTML as sent.

    The site sends ``{mafteach_id, tree, text}`` (``tree`` breadcrumb HTML, ``text``
    the whole page's HTML); other names seen in older or test answers are accepted.
    """

    id: str = Field(
        min_length=1,
        validation_alias=AliasChoices("mafteach_id", "id", "page_id", "book_id", "node_id"),
    )
    heading: str = Field(
        default="",
        validation_alias=AliasChoices("tree", "heading", "title", "name", "path", "breadcrumbs"),
    )
    html: str = Field(
        default="", validation_alias=AliasChoices("text", "snippet", "content", "highlight")
    )

    @field_validator("heading", mode="before")
    @classmethod
    def _heading(cls, value: Any) -> Any:
        return breadcrumb(_text(value) if not isinstance(value, list) else value)

    @field_validator("html", mode="before")
    @classmethod
    def _html(cls, value: Any) -> Any:
        return str(_text(value))


class RawSearch(_Wire):
    """A page of search hits and the library's total count."""

    results: list[RawSearchHit] = Field(
        default_factory=list, validation_alias=AliasChoices("results", "items", "data")
    )
    count: int = Field(default=0, ge=0, validation_alias=AliasChoices("count", "total"))

    @field_validator("results", mode="before")
    @classmethod
    def _none(cls, value: Any) -> Any:
        return [] if value is None else value


def _shape_error(endpoint: str, what: str) -> LibraryError:
    return LibraryError(
        f"The online library answered {endpoint} with an unexpected shape ({what}). "
        "Its API may have changed; please report this with the endpoint.",
        endpoint=endpoint,
    )


def _children(value: Any, endpoint: str) -> list[RawChild]:
    if isinstance(value, dict):
        value = value.get("children", value.get("data"))
    if value is None:
        return []
    if not isinstance(value, list):
        raise _shape_error(endpoint, f"children are a {type(value).__name__}, not a list")
    children: list[RawChild] = []
    for entry in value:
        # The older shape lists two columns: an entry's `left` is the next entry.
        pair = [entry, entry.get("left")] if isinstance(entry, dict) else [entry]
        for item in pair:
            if item is None:
                continue
            try:
                children.append(RawChild.model_validate(item))
            except ValidationError:
                continue  # an entry without an id cannot be walked; skip it
    if value and not children:
        raise _shape_error(endpoint, "no child has an id")
    return children


def _page(value: Any, endpoint: str) -> _WirePage:
    if isinstance(value, str):
        return _WirePage(text=value)
    try:
        return _WirePage.model_validate(value)
    except ValidationError as exc:
        raise _shape_error(endpoint, f"page data: {exc.errors()[0]['msg']}") from None


def _breadcrumbs(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    crumbs = [
        plain(str(v.get("heading", v.get("title", "")))) for v in value if isinstance(v, dict)
    ]
    return [c for c in crumbs if c]


def read_node(payload: Any, *, node_id: str, endpoint: str) -> RawNode:
    """One ``api/main`` answer -> a :class:`RawNode`.

    Raises:
        NotFoundError: The answer says there is no such node (``content`` null).
        LibraryError: The answer has none of the known shapes.
    """
    if not isinstance(payload, dict):
        raise _shape_error(endpoint, f"a JSON {type(payload).__name__}, not an object")
    if "content" in payload:
        content = payload["content"]
        if content is None or content == {}:
            raise NotFoundError(
                f"The online library has no node {node_id!r} ({endpoint}). "
                "Check the id, or find one with nav_search() or search() "
                "(libtext library find / search).",
                details={"endpoint": endpoint, "id": node_id},
            )
        if not isinstance(content, dict):
            raise _shape_error(endpoint, "'content' is not an object")
        kind = str(content.get("type") or "").lower()
        data = content.get("data")
        title = plain(str(_text(content.get("heading") or content.get("title") or "")))
        crumbs = _breadcrumbs(content.get("tree") or content.get("breadcrumbs"))
        if kind in ("children", "section", "list") or (not kind and isinstance(data, list)):
            children = _children(data, endpoint)
            return RawNode(
                id=node_id, kind="section", title=title, children=children, breadcrumbs=crumbs
            )
        if kind in ("page", "text") or (not kind and isinstance(data, dict | str)):
            if isinstance(data, dict) and "text" not in data and "children" in data:
                children = _children(data, endpoint)
                return RawNode(id=node_id, kind="section", title=title, children=children)
            page = _page(data, endpoint)
            return RawNode(
                id=node_id,
                kind="page",
                title=title or page.heading,
                html=page.text,
                haoros=page.haoros,
                breadcrumbs=crumbs,
            )
        raise _shape_error(endpoint, f"content type {kind or 'missing'!r}")
    # The older api/main?id= shape.
    if "page" in payload or "children" in payload:
        crumbs = _breadcrumbs(payload.get("tree"))
        children = _children(payload.get("children"), endpoint)
        raw_page = payload.get("page")
        page = _page(raw_page, endpoint) if raw_page else _WirePage()
        title = page.heading or (crumbs[-1] if crumbs else "")
        if page.text.strip() or page.haoros.strip():
            return RawNode(
                id=node_id,
                kind="page",
                title=title,
                children=children,
                html=page.text,
                haoros=page.haoros,
                breadcrumbs=crumbs,
            )
        return RawNode(
            id=node_id, kind="section", title=title, children=children, breadcrumbs=crumbs
        )
    raise _shape_error(endpoint, "neither 'content' nor 'page'/'children'")


def read_search(payload: Any, *, endpoint: str) -> RawSearch:
    """One ``api/search`` answer -> hits and total count (hits without an id skipped)."""
    if isinstance(payload, list):
        payload = {"results": payload, "count": len(payload)}
    if not isinstance(payload, dict):
        raise _shape_error(endpoint, f"a JSON {type(payload).__name__}, not an object")
    results = payload.get("results", payload.get("items", payload.get("data")))
    if results is not None and not isinstance(results, list):
        raise _shape_error(endpoint, "'results' is not a list")
    hits: list[RawSearchHit] = []
    for entry in results or []:
        try:
            hits.append(RawSearchHit.model_validate(entry))
        except ValidationError:
            continue
    if results and not hits:
        raise _shape_error(endpoint, "no search result has an id")
    raw_count: Any = payload.get("count", payload.get("total", len(hits)))
    try:
        count = max(int(raw_count), len(hits))
    except (TypeError, ValueError):
        raise _shape_error(endpoint, "'count' is not a number") from None
    return RawSearch(results=hits, count=count)
