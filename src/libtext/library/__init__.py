"""LibraryClient: find, read and convert works of the online Chabad library.

The library (chabadlibrary.org, "ספריית ליובאוויטש") has no published API; what
:class:`LibraryClient` knows of it comes from public client code and is read
tolerantly (see ``libtext.library._api``). A work is a tree: sections list their
children, pages carry HTML and notes. The client walks that tree in reading order,
politely: one client-wide rate limit, a bound on requests in flight, retries with
backoff on connection errors, 429 (honouring ``Retry-After``) and 5xx, never on
other 4xx.

Async at the core (``asearch``, ``aget_work``, ...); each sync twin runs the same
coroutine on libtext's loop thread (``libtext._sync.run_sync``), so it also works in
Jupyter. Sync and async calls mix freely on one client: it keeps one HTTP connection
pool per event loop (see ``libtext.library._http``).
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncGenerator, Iterator, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import Any

import anyio
import httpx
from pydantic import BaseModel, ConfigDict, Field

from libtext._keywords import strict_keywords, warn_deprecated, warn_deprecated_call
from libtext._policy import RetryPolicy
from libtext._sync import run_sync, with_twin_docs
from libtext.errors import (
    ConfigurationError,
    InvalidInputError,
    LibtextError,
)
from libtext.library._api import RawNode, read_node, read_search
from libtext.library._cache import PageCache
from libtext.library._html import parse_page
from libtext.library._http import LibraryHTTP
from libtext.library._limits import Clock, RateLimiter, Sleep
from libtext.library._nav import find_titles, query_words
from libtext.library._search import normalize_phrase, read_counts, snippet
from libtext.library._walk import Walk
from libtext.library._works import KNOWN_WORKS, LIBRARY_NAME, KnownWork, work_to_document
from libtext.models import (
    LibraryPage,
    LibraryStatus,
    NavSearchResult,
    NavSearchResultsResponse,
    PaginationInfo,
    ProcessedDocument,
    SearchCount,
    SearchCountsResponse,
    SearchResult,
    SearchResultsResponse,
    WorkByIdResponse,
)

__all__ = [
    "DEFAULT_BASE_URL",
    "KNOWN_WORKS",
    "LIBRARY_NAME",
    "SEARCH_PAGE_SIZE",
    "Clock",
    "KnownWork",
    "LibraryChild",
    "LibraryClient",
    "LibrarySection",
    "Sleep",
]

DEFAULT_BASE_URL = "https://chabadlibrary.org/books"
"""Where the library lives; its API is under ``{base_url}/api/``."""

SEARCH_PAGE_SIZE = 25
"""Hits per page of the library's full-text search (fixed by the library)."""

_PROBE_ID = "3400000000"
_ID_RE = re.compile(r"^[0-9A-Za-z_-]{1,40}$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class LibraryChild(_Model):
    """An entry of a section's table of contents."""

    id: str
    heading: str = ""
    link: str = ""


class LibrarySection(_Model):
    """A section of the library: a node whose content is a list of children.

    ``heading_path`` is known when the library sends it (older API) or when the
    section is a known top-level work; otherwise it is empty.
    """

    id: str
    title: str = ""
    heading_path: list[str] = Field(default_factory=list)
    children: list[LibraryChild] = Field(default_factory=list)
    link: str = ""


def _node_id(value: str | int) -> str:
    """An id as given, or the id at the end of a page URL; validated."""
    text = str(value).strip()
    if text.startswith(("http://", "https://")):
        text = httpx.URL(text).path.rstrip("/").rsplit("/", 1)[-1]
    text = text.removeprefix("/")
    if not _ID_RE.match(text):
        raise InvalidInputError(
            f"{value!r} is not a library id. Ids are numbers such as 3400000000 (Tanya); "
            "find one with nav_search() or search() (libtext library find / search), "
            "or pass a chabadlibrary.org/books/ URL.",
            details={"id": str(value)[:100]},
        )
    return text


_LEGACY_RETRY = {"retries": "max_attempts", "backoff": "base_delay", "max_wait": "max_delay"}
"""The LibraryClient's old retry keywords -> the RetryPolicy field each now is."""

DEFAULT_RETRY = RetryPolicy(max_attempts=4, base_delay=0.5, max_delay=60.0)
"""The LibraryClient's retries (``call_timeout`` and ``deadline`` are not used: a request
is bounded by ``timeout=``)."""


def _legacy_retry(retry: RetryPolicy | None, old: dict[str, Any]) -> RetryPolicy:
    """``retry=``, or one made from the old ``retries=/backoff=/max_wait=`` (with a warning)."""
    if not old:
        return retry or DEFAULT_RETRY
    if retry is not None:
        raise TypeError(
            "LibraryClient() got both retry= and the old retries=/backoff=/max_wait=; "
            "pass retry=RetryPolicy(...) only."
        )
    fields: dict[str, Any] = {}
    for name, value in old.items():
        field_name = _LEGACY_RETRY[name]
        shown = "max_attempts=retries + 1" if name == "retries" else f"{field_name}=..."
        warn_deprecated("LibraryClient", name, f"retry=RetryPolicy({shown})", stacklevel=5)
        fields[field_name] = value + 1 if name == "retries" else value
    try:
        return replace(DEFAULT_RETRY, **fields)
    except ValueError as exc:
        raise ConfigurationError(str(exc)) from None


@with_twin_docs
class LibraryClient:
    """Client of the online Chabad library (chabadlibrary.org).

    Args:
        base_url: The library's books URL; default ``$LIBTEXT_LIBRARY_URL`` or
            ``https://chabadlibrary.org/books``.
        timeout: Seconds per HTTP request.
        rate_limit: Requests per second for the whole client (``None`` or ``0``:
            unlimited). The default is polite; please keep it so.
        burst: Requests allowed at once before the rate limit spaces them.
        concurrency: Requests in flight at most, across all calls of this client.
        retry: Retries on connection errors, timeouts, 429 and 5xx
            (:class:`~libtext.RetryPolicy`): ``max_attempts`` tries in all, the first
            wait ``base_delay`` seconds doubling each retry (``Retry-After`` replaces
            it when the library sends one), at most ``max_delay``. Default: 4 attempts,
            0.5 s, 60 s.
        transport: An ``httpx`` transport (tests pass ``httpx.MockTransport``); the
            pools of every event loop the client is used on share it.
        cache_dir: A directory to keep page answers in, so repeated reads of the
            same page do not ask the library again. ``None``: ``$LIBTEXT_LIBRARY_CACHE``
            when set (as for ``libtext library --cache-dir``), else no cache.
        user_agent: The ``User-Agent`` header; the default names libtext.
        clock: Monotonic seconds for the rate limit and the health check.
        sleep: Awaitable sleep used by the rate limit and retries.

    The old ``retries=``, ``backoff=`` and ``max_wait=`` still work until libtext 0.2,
    with a :class:`DeprecationWarning`; any other unknown keyword raises
    :class:`TypeError`. After :meth:`close` the client cannot be used again (as a
    :class:`~libtext.TextStore`); make a new one.
    """

    @strict_keywords(deprecated=tuple(_LEGACY_RETRY))
    def __init__(
        self,
        *,
        base_url: str | None = None,
        timeout: float = 30.0,
        rate_limit: float | None = 3.0,
        burst: int = 1,
        concurrency: int = 4,
        retry: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        user_agent: str | None = None,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        **deprecated: Any,
    ) -> None:
        retry = _legacy_retry(retry, deprecated)
        retries, backoff, max_wait = retry.max_attempts - 1, retry.base_delay, retry.max_delay
        url = (base_url or os.environ.get("LIBTEXT_LIBRARY_URL") or DEFAULT_BASE_URL).strip()
        if not url.startswith(("http://", "https://")):
            raise ConfigurationError(
                f"The library URL {url!r} is not an http(s) URL: pass base_url=... or set "
                "LIBTEXT_LIBRARY_URL (default https://chabadlibrary.org/books)."
            )
        if timeout <= 0 or concurrency < 1 or retries < 0 or (rate_limit or 0) < 0:
            raise ConfigurationError(
                "timeout must be > 0, concurrency >= 1, retries >= 0 and rate_limit >= 0 "
                "(or None for no limit)."
            )
        self.base_url = url.rstrip("/")
        self.timeout = timeout
        self.concurrency = concurrency
        self.retry = retry
        self._clock: Clock = clock or anyio.current_time
        self._limiter = RateLimiter(rate_limit, burst=burst, clock=clock, sleep=sleep)
        self._api = LibraryHTTP(
            base_url=self.base_url,
            timeout=timeout,
            retries=retries,
            backoff=backoff,
            max_wait=max_wait,
            concurrency=concurrency,
            transport=transport,
            user_agent=user_agent,
            limiter=self._limiter,
            sleep=sleep or anyio.sleep,
        )
        if cache_dir is None:
            cache_dir = os.environ.get("LIBTEXT_LIBRARY_CACHE") or None
        self._cache = PageCache(cache_dir) if cache_dir is not None else None
        self._toc: dict[str, RawNode] = {}

    # --- lifecycle ----------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the HTTP connections; the client cannot be used afterwards."""
        await self._api.aclose()

    def close(self) -> None:
        """Sync twin of :meth:`aclose`."""
        if self._api.is_open:
            run_sync(self.aclose)
        self._api.closed = True

    async def __aenter__(self) -> LibraryClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def __enter__(self) -> LibraryClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def link(self, node_id: str | int) -> str:
        """The page URL of a node, as a reader opens it."""
        return f"{self.base_url}/{node_id}"

    async def _node(self, node_id: str) -> RawNode:
        """One node, from the page cache when it is there."""
        params = {"path": f"/{node_id}"}  # as the site's current clients send it
        endpoint = self._api.endpoint("main", params)
        key = f"{self.base_url}{endpoint}"
        if self._cache is not None:
            body = await self._cache.get(key)
            if body is not None:
                try:
                    cached = read_node(body, node_id=node_id, endpoint=endpoint)
                except LibtextError:
                    cached = None
                if cached is not None and cached.kind == "page":
                    return cached
        body = await self._api.get_json("main", params)
        node = read_node(body, node_id=node_id, endpoint=endpoint)
        if self._cache is not None and node.kind == "page":
            await self._cache.put(key, body)
        if node.kind == "section":
            self._toc[node_id] = node
        return node

    async def _nodes(self, ids: Sequence[str]) -> list[RawNode]:
        """Several nodes at once (bounded by ``concurrency``), in the order asked."""
        if len(ids) == 1:
            return [await self._node(ids[0])]
        results: list[RawNode | BaseException | None] = [None] * len(ids)

        async def one(k: int, node_id: str) -> None:
            try:
                results[k] = await self._node(node_id)
            except Exception as exc:  # kept, raised below in order
                results[k] = exc

        async with anyio.create_task_group() as tg:
            for k, node_id in enumerate(ids):
                tg.start_soon(one, k, node_id)
        nodes: list[RawNode] = []
        for result in results:
            if isinstance(result, BaseException):
                raise result
            assert result is not None
            nodes.append(result)
        return nodes

    # --- search -------------------------------------------------------------------

    def _phrase(self, query: str) -> str:
        phrase = normalize_phrase(query)
        if not phrase.strip("\"' "):
            raise InvalidInputError(
                "The search query has no Hebrew word: the library searches Hebrew letters "
                '(nikud and other signs are ignored), e.g. "ביטול היש".'
            )
        return phrase

    async def asearch(
        self, query: str, section_id: str | int | None = None, page: int = 1
    ) -> SearchResultsResponse:
        """Full-text search of the library, 25 hits a page.

        The query is reduced as the site's own search box does: Hebrew letters plus
        ``"`` and ``'`` (``״`` and ``׳`` become those; nikud is dropped); the reduced
        phrase is the response's ``query``. Each hit's snippet is a window of about
        100 characters around the phrase in its page.

        Args:
            query: Words or a phrase, e.g. ``"ביטול היש"``.
            section_id: Search only under this work or section (default: everywhere;
                :meth:`asearch_counts` tells where a phrase occurs).
            page: 1-based page of hits.

        Raises:
            InvalidInputError: No Hebrew word in the query, or ``page`` < 1.
            LibraryError: The library failed or answered with an unexpected shape.
        """
        phrase = self._phrase(query)
        if page < 1:
            raise InvalidInputError(f"page must be 1 or more, not {page}.")
        params = {
            "phrase": phrase,
            "section_id": "0" if section_id is None else _node_id(section_id),
            "offset": str(page - 1),  # the site counts pages of hits from 0
        }
        body = await self._api.get_json("search", params)
        raw = read_search(body, endpoint=self._api.endpoint("search", params))
        return SearchResultsResponse(
            query=phrase,
            results=[
                SearchResult(
                    id=h.id,
                    heading=h.heading,
                    snippet=snippet(h.html, phrase),
                    link=self.link(h.id),
                )
                for h in raw.results
            ],
            pagination=PaginationInfo.of(page=page, page_size=SEARCH_PAGE_SIZE, total=raw.count),
        )

    def search(
        self, query: str, section_id: str | int | None = None, page: int = 1
    ) -> SearchResultsResponse:
        """Sync twin of :meth:`asearch`."""
        return run_sync(self.asearch, query, section_id, page)

    async def asearch_counts(self, query: str) -> SearchCountsResponse:
        """Where a phrase occurs: its hits per section of the library, most first.

        One request (``api/statistics``), so a user can see where a phrase is before
        paging through its hits; pass a ``section_id`` to :meth:`asearch` to read
        them. The phrase is reduced as in :meth:`asearch`.

        Raises:
            InvalidInputError: No Hebrew word in the query.
            LibraryError: The library failed or answered with an unexpected shape.
        """
        phrase = self._phrase(query)
        params = {"phrase": phrase}
        body = await self._api.get_json("statistics", params)
        raw = read_counts(body, endpoint=self._api.endpoint("statistics", params))
        counts = [
            SearchCount(
                section_id=c.section_id,
                count=c.count,
                title=known.title if (known := KNOWN_WORKS.get(c.section_id)) else "",
                link=self.link(c.section_id),
            )
            for c in sorted(raw, key=lambda c: -c.count)
        ]
        return SearchCountsResponse(query=phrase, counts=counts, total=sum(c.count for c in counts))

    def search_counts(self, query: str) -> SearchCountsResponse:
        """Sync twin of :meth:`asearch_counts`."""
        return run_sync(self.asearch_counts, query)

    # --- nodes and pages ----------------------------------------------------------

    def page_to_text(
        self,
        page: Mapping[str, Any] | str,
        *,
        page_id: str = "",
        heading_path: Sequence[str] = (),
        path_ids: Sequence[str] = (),
    ) -> LibraryPage:
        """A page's HTML and notes -> a :class:`~libtext.models.LibraryPage`.

        Pure (no I/O). Headings stay on their own lines, ``[ftnref_G_N]`` becomes
        ``[N]`` and the ``haoros`` become footnotes with the same markers; glosses
        (``[hagoho]``) are paragraphs of their own, printed-edition pages become
        ``printed_pages``; the library's other marks are read as
        ``libtext.library._html`` says, Hebrew in brackets is kept.

        Args:
            page: The page ``data`` as the API sends it
                (``{"text": html, "haoros": notes}``), or bare HTML.
            page_id: The page's id (taken from ``page`` when it has one).
            heading_path: Section headings from the work down to this page.
            path_ids: Ids from the work's first level down to this page.
        """
        return self._page_text(page, page_id=page_id, heading_path=heading_path, path_ids=path_ids)

    def _page_text(
        self,
        page: RawNode | Mapping[str, Any] | str,
        *,
        page_id: str = "",
        heading_path: Sequence[str] = (),
        path_ids: Sequence[str] = (),
    ) -> LibraryPage:
        """:meth:`page_to_text`, also for a node read by this client."""
        if isinstance(page, RawNode):
            html, notes, page_id = page.html, page.haoros, page_id or page.id
            if not heading_path:
                heading_path = page.breadcrumbs or ([page.title] if page.title else [])
        elif isinstance(page, str):
            html, notes = page, ""
        else:
            html = str(page.get("text") or "")
            notes = page.get("haoros") or page.get("notes") or ""
            notes = "\n\n".join(map(str, notes)) if isinstance(notes, list) else str(notes)
            page_id = page_id or str(page.get("id") or "")
        parsed = parse_page(html, notes)
        return LibraryPage(
            id=page_id,
            heading_path=list(heading_path),
            text=parsed.text,
            footnotes=parsed.footnotes,
            link=self.link(page_id) if page_id else "",
            path_ids=list(path_ids),
            printed_pages=parsed.printed_pages,
            unknown_tokens=parsed.unknown_tokens,
        )

    async def aget_node(self, node_id: str | int) -> LibrarySection | LibraryPage:
        """One node: a section with its children, or a page with its text and notes.

        Raises:
            NotFoundError: No such node.
            LibraryError: The library failed or answered with an unexpected shape.
        """
        nid = _node_id(node_id)
        raw = await self._node(nid)
        if raw.kind == "page":
            return self._page_text(raw)
        known = KNOWN_WORKS.get(nid)
        title = raw.title or (known.title if known else "")
        return LibrarySection(
            id=nid,
            title=title,
            heading_path=raw.breadcrumbs or ([title] if known else []),
            children=[
                LibraryChild(id=c.id, heading=c.heading, link=self.link(c.id)) for c in raw.children
            ],
            link=self.link(nid),
        )

    def get_node(self, node_id: str | int) -> LibrarySection | LibraryPage:
        """Sync twin of :meth:`aget_node`."""
        return run_sync(self.aget_node, node_id)

    # --- walking a work -----------------------------------------------------------

    async def _start(
        self, work_id: str | int, max_pages: int | None, resume_after: str | Sequence[str] | None
    ) -> tuple[str, RawNode, Walk]:
        wid = _node_id(work_id)
        if max_pages is not None and max_pages < 1:
            raise InvalidInputError(f"max_pages must be 1 or more (or None), not {max_pages}.")
        walk = Walk(
            fetch=self._nodes,
            to_page=self._walked_page,
            concurrency=self.concurrency,
            max_pages=max_pages,
        )
        if isinstance(resume_after, str | int):
            walk.resume_target = _node_id(resume_after)
        elif resume_after is not None:
            ids = [_node_id(i) for i in resume_after]
            if ids and ids[0] == wid:
                ids = ids[1:]
            if ids:
                walk.resume_ids = ids
        root = await self._node(wid)
        walk.seen.add(wid)
        return wid, root, walk

    def _walked_page(
        self, node: RawNode, heading_path: Sequence[str], path_ids: Sequence[str]
    ) -> LibraryPage:
        return self._page_text(node, heading_path=heading_path, path_ids=path_ids)

    def _title(self, wid: str, root: RawNode) -> str:
        known = KNOWN_WORKS.get(wid)
        return (
            root.title
            or (known.title if known else "")
            or (root.breadcrumbs[-1] if root.breadcrumbs else "")
        )

    async def aiter_pages(
        self,
        work_id: str | int,
        *,
        max_pages: int | None = None,
        resume_after: str | Sequence[str] | None = None,
    ) -> AsyncGenerator[LibraryPage, None]:
        """Stream a work's pages in reading order, each with its heading path.

        Args:
            work_id: The work's (or any section's) id.
            max_pages: Stop after this many pages.
            resume_after: Continue after this page: its ``path_ids`` (skips what was
                read without fetching it) or just its id (walks from the start, reading
                but not yielding the pages before it).
        """
        _, root, walk = await self._start(work_id, max_pages, resume_after)
        async for page in walk.pages(root):
            yield page

    def iter_pages(
        self,
        work_id: str | int,
        *,
        max_pages: int | None = None,
        resume_after: str | Sequence[str] | None = None,
    ) -> Iterator[LibraryPage]:
        """Sync twin of :meth:`aiter_pages` (a generator; each page is read on demand)."""
        agen = self.aiter_pages(work_id, max_pages=max_pages, resume_after=resume_after)

        async def step() -> tuple[bool, LibraryPage | None]:
            try:
                return True, await agen.__anext__()
            except StopAsyncIteration:
                return False, None

        try:
            while True:
                more, page = run_sync(step)
                if not more or page is None:
                    return
                yield page
        finally:
            run_sync(agen.aclose)

    async def aget_work(
        self,
        work_id: str | int,
        *,
        max_pages: int | None = None,
        resume_after: str | Sequence[str] | None = None,
    ) -> WorkByIdResponse:
        """Read a work's pages in reading order (see :meth:`aiter_pages`).

        ``truncated`` says whether ``max_pages`` stopped the walk before its end;
        pass ``pages[-1].path_ids`` (or ``resume_after``) back as ``resume_after`` to
        continue.

        Raises:
            NotFoundError: No such work.
            LibraryError: The library failed or answered with an unexpected shape.
        """
        wid, root, walk = await self._start(work_id, max_pages, resume_after)
        pages = [page async for page in walk.pages(root)]
        unknown: dict[str, int] = {}
        for page in pages:
            for name, n in page.unknown_tokens.items():
                unknown[name] = unknown.get(name, 0) + n
        return WorkByIdResponse(
            work_id=wid,
            title=self._title(wid, root),
            pages=pages,
            page_count=len(pages),
            truncated=walk.truncated,
            resume_after=pages[-1].id if pages else None,
            unknown_tokens=unknown,
        )

    def get_work(
        self,
        work_id: str | int,
        *,
        max_pages: int | None = None,
        resume_after: str | Sequence[str] | None = None,
    ) -> WorkByIdResponse:
        """Sync twin of :meth:`aget_work`."""
        return run_sync(self.aget_work, work_id, max_pages=max_pages, resume_after=resume_after)

    # --- finding works by title ---------------------------------------------------

    async def anav_search(
        self,
        query: str,
        *,
        roots: Sequence[str | int] | None = None,
        depth: int = 3,
        max_requests: int = 40,
        limit: int = 20,
    ) -> NavSearchResultsResponse:
        """Find works and sections by title in the library's table of contents.

        The library has no known title-search endpoint, so this walks the table of
        contents from the known top-level works (:data:`KNOWN_WORKS`, or ``roots``),
        expanding first the entries whose titles share words with the query, for at
        most ``max_requests`` requests and ``depth`` levels. Sections read stay
        cached on the client, so later searches cost less. Matching ignores nikud,
        quote marks and one-letter prefixes; numbers match Hebrew numerals
        (``"תניא 32"`` finds ``פרק לב``). Every query word must match the entry's
        path. A title deeper than the budget is not found: search with ``roots``
        nearer to it, or use :meth:`asearch`.
        """
        words = query_words(query)
        if not words:
            raise InvalidInputError("The title query is empty: give a work or section name.")
        found = await find_titles(
            words,
            roots=[_node_id(r) for r in (roots if roots is not None else list(KNOWN_WORKS))],
            fetch=self._node,
            cached=self._toc.get,
            depth=depth,
            max_requests=max_requests,
        )
        return NavSearchResultsResponse(
            query=query,
            results=[
                NavSearchResult(id=e.id, title=e.heading, path=e.path, link=self.link(e.id))
                for e in found[:limit]
            ],
        )

    def nav_search(
        self,
        query: str,
        *,
        roots: Sequence[str | int] | None = None,
        depth: int = 3,
        max_requests: int = 40,
        limit: int = 20,
    ) -> NavSearchResultsResponse:
        """Sync twin of :meth:`anav_search`."""
        return run_sync(
            self.anav_search,
            query,
            roots=roots,
            depth=depth,
            max_requests=max_requests,
            limit=limit,
        )

    # --- health -------------------------------------------------------------------

    async def aping(self) -> LibraryStatus:
        """Whether the library answers: one request (no retries), its status and latency.

        Never raises for an upstream failure; the result says what went wrong.
        """
        params = {"path": f"/{_PROBE_ID}"}
        endpoint = self._api.endpoint("main", params)
        await self._limiter.acquire()
        start = self._clock()
        status: int | None = None
        try:
            response = await self._api.get_once("main", params)
            status = response.status_code
            latency = (self._clock() - start) * 1000.0
            self._api.decode(response, endpoint)
            error = None
        except httpx.TimeoutException:
            latency, error = None, f"timed out after {self.timeout:g} s"
        except httpx.HTTPError as exc:
            latency, error = None, f"could not connect ({type(exc).__name__})"
        except LibtextError as exc:
            error = exc.message
        return LibraryStatus(
            reachable=error is None,
            status_code=status,
            latency_ms=round(latency, 1) if latency is not None else None,
            base_url=self.base_url,
            error=error,
        )

    def ping(self) -> LibraryStatus:
        """Sync twin of :meth:`aping`."""
        return run_sync(self.aping)

    async def atest(self) -> LibraryStatus:
        """Deprecated name of :meth:`aping` (removed in libtext 0.2)."""
        warn_deprecated_call("LibraryClient.atest", "aping()")
        return await self.aping()

    def test(self) -> LibraryStatus:
        """Deprecated name of :meth:`ping` (removed in libtext 0.2)."""
        warn_deprecated_call("LibraryClient.test", "ping()")
        return run_sync(self.aping)

    # --- conversion ---------------------------------------------------------------

    def to_document(self, work: WorkByIdResponse) -> ProcessedDocument:
        """A work read from the library -> a :class:`~libtext.models.ProcessedDocument`.

        Pure (no I/O). One section per page with text, in reading order: its Hebrew in
        ``original_hebrew_block``, its notes in ``footnotes``, its last heading as the
        chapter title (numbered when written like ``פרק לב``), ``page_ref`` its
        1-based position in the work. Translations are left to the Translator.

        Raises:
            EmptyDocumentError: The work has no page with text.
        """
        return work_to_document(work)
