"""The HTTP adapter's read cache and its route table (libtext.asgi._cache, _routes).

A real SQLite file store behind the app; what reaches the database is seen by
SQLAlchemy's statement events, so "served from the cache" means "no query".
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
sa = pytest.importorskip("sqlalchemy")

from tests.test_store import make_doc  # noqa: E402

from libtext import errors  # noqa: E402
from libtext.asgi import Settings, create_app  # noqa: E402
from libtext.asgi._routes import cached_routes  # noqa: E402
from libtext.store import TextStore  # noqa: E402


def client_for(app: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


@contextmanager
def text_queries(store: TextStore) -> Iterator[list[str]]:
    """The statements that read the texts' tables while the block runs."""
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "libtext_texts" in statement or "libtext_text_bodies" in statement:
            seen.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", record)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TextStore]:
    with TextStore(f"sqlite:///{tmp_path / 'texts.db'}") as st:
        yield st


async def test_answers_are_the_models_json_and_repeated_ones_skip_the_database(
    store: TextStore,
) -> None:
    slugs = [store.save(make_doc(title=f"ספר {i}", sections=2)).slug for i in range(5)]
    async with client_for(create_app(store=store, settings=Settings())) as c:
        for page, size in ((1, 20), (1, 2), (2, 2), (3, 2), (9, 3)):
            expected = store.list(page, size).model_dump_json().encode()
            params = {"page": page, "pageSize": size}
            assert (await c.get("/api/texts", params=params)).content == expected
            with text_queries(store) as seen:
                assert (await c.get("/api/texts", params=params)).content == expected
            assert seen == [], "a repeated read should come from the cache"
        for slug in slugs:
            expected = store.get(slug).model_dump_json().encode()
            first = await c.get(f"/api/texts/{slug}")
            with text_queries(store) as seen:
                again = await c.get(f"/api/texts/{slug}", params={"revision": 1})
                again = await c.get(f"/api/texts/{slug}")
            assert first.content == again.content == expected
            assert first.headers["etag"] == again.headers["etag"]
            assert first.headers["etag"].startswith('"1-')
            assert len(seen) == 1  # the revision=1 read only (another key)
        assert (await c.get(f"/api/texts/{slugs[0]}")).json()["work_id"] is None


async def test_writes_through_another_store_and_in_memory_are_seen(store: TextStore) -> None:
    async with client_for(create_app(store=store, settings=Settings())) as c:
        with TextStore(str(store.engine.url)) as writer:
            slug = writer.save(make_doc(title="ספר")).slug
            old = (await c.get(f"/api/texts/{slug}")).content
            assert (await c.get(f"/api/texts/{slug}")).content == old  # cached now
            writer.update(slug, make_doc(title="ספר", marker="ב"))
            new = await c.get(f"/api/texts/{slug}")
            assert new.content == store.get(slug).model_dump_json().encode() != old
            writer.delete(slug)
            assert (await c.get(f"/api/texts/{slug}")).status_code == 404
            assert (await c.get("/api/texts")).json()["pagination"]["total"] == 0
    with TextStore("sqlite://") as memory:
        async with client_for(create_app(store=memory, settings=Settings())) as c:
            slug = memory.save(make_doc()).slug
            old = (await c.get(f"/api/texts/{slug}")).content
            memory.update(slug, make_doc(marker="ב"))
            assert (await c.get(f"/api/texts/{slug}")).content != old
            assert (await c.get("/api/texts")).json()["pagination"]["total"] == 1


async def test_cache_is_bounded_and_can_be_turned_off(store: TextStore) -> None:
    for i in range(30):
        store.save(make_doc(title=f"ספר {i}"))
    size = len(store.list(1, 1).model_dump_json().encode())
    budget = 8 * size + 64  # room for about 8 one-text pages
    app = create_app(store=store, settings=Settings(cache_bytes=budget))
    async with client_for(app) as c:
        for page in range(1, 31):
            await c.get("/api/texts", params={"page": page, "pageSize": 1})
        cache = app.state.backend.reads.cache
        assert 0 < cache.size <= budget and len(cache) < 30
        with text_queries(store) as seen:
            await c.get("/api/texts", params={"page": 30, "pageSize": 1})  # still kept
        assert seen == []
        with text_queries(store) as seen:
            await c.get("/api/texts", params={"page": 1, "pageSize": 1})  # evicted long ago
        assert seen
    app = create_app(store=store, settings=Settings(cache_bytes=0))
    async with client_for(app) as c:
        with text_queries(store) as seen:
            first = await c.get("/api/texts", params={"page": 2, "pageSize": 3})
            again = await c.get("/api/texts", params={"page": 2, "pageSize": 3})
        assert first.content == again.content == store.list(2, 3).model_dump_json().encode()
        assert len(seen) == 2  # no cache: each request lists again


def test_cache_bytes_setting() -> None:
    assert Settings().cache_bytes == 16 * 2**20
    assert Settings.from_env({"LIBTEXT_CACHE_BYTES": "0"}).cache_bytes == 0
    for bad in ({"cache_bytes": -1},):
        with pytest.raises(errors.ConfigurationError, match="cache_bytes"):
            Settings(**bad)
    with pytest.raises(errors.ConfigurationError, match="LIBTEXT_CACHE_BYTES"):
        Settings.from_env({"LIBTEXT_CACHE_BYTES": "lots"})


def test_store_cache_bytes_is_deprecated_and_harmless() -> None:
    with pytest.warns(DeprecationWarning, match="cache_bytes"):
        st = TextStore("sqlite://", cache_bytes=0)
    with st:
        st.save(make_doc())
        assert st.list().pagination.total == 1


def test_table_declares_each_parameter_once_for_fastapi_and_the_fast_path() -> None:
    """The OpenAPI parameters are the table's, and the fast path parses by the same."""
    settings = Settings(max_page_size=50, default_page_size=10)
    app = create_app(settings=settings)
    paths = app.openapi()["paths"]
    for route in cached_routes(settings):
        documented = {p["name"]: p for p in paths[route.path]["get"]["parameters"]}
        for query in route.query:
            schema = documented[query.alias]["schema"]
            if query.default is not None:
                assert (schema["minimum"], schema["maximum"]) == (query.ge, query.le)
                assert schema["default"] == query.default
            else:  # optional: anyOf [integer within bounds, null]
                bounded = next(s for s in schema["anyOf"] if s.get("type") == "integer")
                assert (bounded["minimum"], bounded["maximum"]) == (query.ge, query.le)
    listed, one = cached_routes(settings)
    assert listed.parse_query(b"") == {"page": 1, "page_size": 10}
    assert listed.parse_query(b"pageSize=50&page=3") == {"page": 3, "page_size": 50}
    for raw in (b"pageSize=51", b"page=0", b"page=01", b"page=1&page=1", b"x=1", b"page"):
        assert listed.parse_query(raw) is None, raw
    assert one.match("/api/texts/a-b") == {"slug": "a-b"}
    assert one.match("/api/texts/a/b") is None and one.match("/api/texts/") is None
    assert listed.match("/api/texts") == {} and listed.match("/api/textsx") is None
    assert one.parse_query(b"revision=2") == {"revision": 2}
    assert one.parse_query(b"") == {"revision": None}


async def test_fast_path_serves_what_the_route_would(store: TextStore) -> None:
    """Each request twice: the first through the route, the second from the fast path."""
    slug = store.save(make_doc()).slug
    store.edit_section(slug, 1, chapter_title="שני")
    app = create_app(store=store, settings=Settings())
    reached: list[str] = []
    reads = app.state.backend.reads
    original = reads.serve

    async def counted(route: Any, args: dict[str, Any]) -> Any:
        reached.append(route.name)
        return await original(route, args)

    reads.serve = counted
    async with client_for(app) as c:
        for url in (f"/api/texts/{slug}?revision=1", f"/api/texts/{slug}", "/api/texts?page=1"):
            miss, hit = await c.get(url), await c.get(url)
            assert miss.status_code == hit.status_code == 200
            assert (miss.content, miss.headers) == (hit.content, hit.headers)
    assert reached == ["get_text", "get_text", "list_texts"]
    assert miss.headers.get("etag") is None  # the list has none
