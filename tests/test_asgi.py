"""The HTTP adapter in-process: every route, every error status, limits, auth, CORS.

Routes run against the real modules (a SQLite file store, the offline outliner and
translator, the library client over respx); the error map is driven by small fakes
that raise each ``LibtextError`` branch on purpose.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from libtext import RetryPolicy, errors
from libtext._wording import for_http
from libtext.asgi import Settings, create_app
from libtext.asgi._errors import STATUS_MAP, status_for
from libtext.models import (
    PaginatedTextsResponse,
    PaginationInfo,
    ProcessedDocument,
    Section,
    SourceMetadata,
    TextListItem,
)

# --- helpers ------------------------------------------------------------------------


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def assert_error(response: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]  # type: ignore[no-any-return]


def doc(title: str = "ספר", work: str = "חלק א", work_id: str | None = "w1") -> ProcessedDocument:
    return ProcessedDocument(
        source_metadata=SourceMetadata(publication_title=title, work_title=work, author_name="x"),
        sections=[Section(sequence_id=1, chapter_title="פרק א", original_hebrew_block="שלום")],
        work_id=work_id,
        page_count=3,
        first_page_id="p1",
        last_page_id="p3",
    )


class RaisingStore:
    """A store whose every call raises the given exception (or blocks its thread)."""

    def __init__(self, exc: BaseException | None = None, *, sleep: float = 0.0) -> None:
        self.exc = exc
        self.sleep = sleep

    def _go(self) -> Any:
        if self.sleep:
            time.sleep(self.sleep)
        if self.exc is not None:
            raise self.exc
        return PaginatedTextsResponse(
            texts=[], pagination=PaginationInfo.of(page=1, page_size=20, total=0)
        )

    def list(self, page: int = 1, page_size: int = 20) -> Any:
        return self._go()

    def get(self, slug: str) -> Any:
        return self._go()

    def data_version(self, *, wait: bool = True) -> None:
        return None  # never known: every read reaches the store

    def _tagged(self, slug: str, revision: Any = None) -> Any:
        return self._go(), '"1-0"'

    async def asave(self, document: Any) -> Any:
        return await anyio.to_thread.run_sync(self._go)

    async def aping(self) -> bool:
        await anyio.to_thread.run_sync(self._go)
        return True


# --- fixtures -----------------------------------------------------------------------


@pytest.fixture
def small_pdf(fixtures_dir: Path) -> bytes:
    return (fixtures_dir / "small.pdf").read_bytes()


@pytest.fixture
def store(tmp_path: Path) -> Any:
    store_mod = pytest.importorskip("libtext.store")
    st = store_mod.TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    yield st
    st.close()


@pytest.fixture
async def client(store: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(create_app(store=store, settings=Settings())) as c:
        yield c


def fake_app(exc: BaseException | None = None, **settings: Any) -> Any:
    return create_app(store=RaisingStore(exc), settings=Settings(**settings))


# --- the error map ------------------------------------------------------------------


def test_every_error_class_has_a_status() -> None:
    classes = [getattr(errors, name) for name in errors.__all__]
    for cls in classes:
        exc = cls("p", "ENV") if cls is errors.MissingAPIKeyError else cls("boom")
        status = status_for(exc)
        assert 400 <= status < 600
        assert status != 500 or cls is errors.LibtextError, cls


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (errors.InvalidSlugError("bad slug"), 400, "invalid_slug"),
        (errors.InvalidInputError("bad"), 400, "invalid_input"),
        (errors.NotFoundError("no such text"), 404, "not_found"),
        (errors.InputTooLargeError("big"), 413, "too_large"),
        (errors.TooManyPagesError("pages"), 413, "too_many_pages"),
        (errors.UnsupportedMediaError("media"), 415, "unsupported_media"),
        (errors.RateLimitError("slow down", provider="p"), 429, "rate_limited"),
        (errors.LibraryError("down", status_code=500), 502, "library_error"),
        (errors.ProviderError("bad", provider="p"), 502, "provider_error"),
        (errors.ProviderAuthError("key", provider="p"), 502, "provider_auth"),
        (errors.LibraryTimeoutError("slow"), 504, "library_timeout"),
        (errors.ProviderTimeoutError("slow", provider="p"), 504, "provider_timeout"),
        (errors.StoreError("db down"), 503, "store_error"),
        (errors.MissingAPIKeyError("openai/x", "OPENAI_API_KEY"), 503, "missing_api_key"),
    ],
)
async def test_libtext_errors_map_to_status_and_error_response(
    exc: errors.LibtextError, status: int, code: str
) -> None:
    async with client_for(fake_app(exc)) as c:
        r = await c.get("/api/texts")
    err = assert_error(r, status, code)
    assert err["message"] == for_http(exc.message)  # the server's words, not Python's
    assert err["details"] == json.loads(json.dumps(exc.details))


def test_status_map_is_most_specific_first() -> None:
    seen: list[type[errors.LibtextError]] = []
    for cls, _ in STATUS_MAP:
        assert not any(issubclass(cls, earlier) for earlier in seen), cls
        seen.append(cls)


async def test_bug_gives_500_without_traceback_or_secret(caplog: pytest.LogCaptureFixture) -> None:
    async with client_for(fake_app(RuntimeError("password=hunter2 at db.internal"))) as c:
        r = await c.get("/api/texts")
    err = assert_error(r, 500, "internal_error")
    assert "hunter2" not in r.text and "Traceback" not in r.text and "RuntimeError" not in r.text
    assert err["details"] == {}
    assert "hunter2" in caplog.text  # logged for the operator


async def test_timeout_gives_504() -> None:
    app = create_app(store=RaisingStore(sleep=5), settings=Settings(request_timeout=0.05))
    async with client_for(app) as c:
        r = await c.get("/api/texts/some-slug")
    assert assert_error(r, 504, "timeout")["details"] == {"timeout_s": 0.05}


async def test_unknown_route_and_method() -> None:
    async with client_for(fake_app()) as c:
        assert_error(await c.get("/api/nope"), 404, "not_found")
        r = await c.delete("/api/texts")
        assert_error(r, 405, "method_not_allowed")
        assert "GET" in r.headers["allow"]


@pytest.mark.parametrize(
    "query",
    ["page=0", "page=x", "pageSize=0", "pageSize=101", "pageSize=1.5", "page=10000001"],
)
async def test_bad_pagination_is_400(query: str) -> None:
    async with client_for(fake_app()) as c:
        err = assert_error(await c.get(f"/api/texts?{query}"), 400, "invalid_request")
    assert err["details"]["errors"][0]["loc"][0] == "query"


async def test_page_size_limit_is_configurable() -> None:
    app = fake_app(max_page_size=5, default_page_size=5)
    async with client_for(app) as c:
        assert (await c.get("/api/texts?pageSize=5")).status_code == 200
        assert_error(await c.get("/api/texts?pageSize=6"), 400)


# --- texts (real SQLite store) ------------------------------------------------------


async def test_texts_empty_then_newest_first(client: httpx.AsyncClient, store: Any) -> None:
    r = await client.get("/api/texts")
    assert r.status_code == 200
    assert r.json() == {
        "texts": [],
        "pagination": {"page": 1, "pageSize": 20, "total": 0, "totalPages": 0},
    }
    slugs = [store.save(doc(title=f"ספר {i}", work=f"work {i}")).slug for i in range(3)]
    body = (await client.get("/api/texts", params={"page": 1, "pageSize": 2})).json()
    assert body["pagination"] == {"page": 1, "pageSize": 2, "total": 3, "totalPages": 2}
    assert [t["slug"] for t in body["texts"]] == slugs[::-1][:2]
    PaginatedTextsResponse.model_validate(body)
    assert all(TextListItem.model_validate(t).created_at for t in body["texts"])


async def test_get_text_hides_library_ids(client: httpx.AsyncClient, store: Any) -> None:
    saved = store.save(doc())
    r = await client.get(f"/api/texts/{saved.slug}")
    assert r.status_code == 200
    body = r.json()
    assert body["sections"][0]["original_hebrew_block"] == "שלום"
    assert (
        body["work_id"] is None and body["first_page_id"] is None and body["last_page_id"] is None
    )
    assert body["page_count"] == 3


async def test_get_text_bad_and_unknown_slug(client: httpx.AsyncClient) -> None:
    assert_error(await client.get("/api/texts/Not%20A%20Slug!"), 400, "invalid_slug")
    assert_error(await client.get("/api/texts/no-such-text"), 404, "not_found")


async def test_text_routes_serve_current_json_across_stores(
    client: httpx.AsyncClient, store: Any
) -> None:
    """The routes' bytes are the models' JSON, and a write through another store shows."""
    store_mod = pytest.importorskip("libtext.store")
    slug = store.save(doc(title="ספר ראשון")).slug
    for _ in range(2):  # the second answer comes from the read cache
        listed = await client.get("/api/texts", params={"pageSize": 5})
        one = await client.get(f"/api/texts/{slug}")
        assert listed.headers["content-type"] == one.headers["content-type"] == "application/json"
        assert listed.content == store.list(1, 5).model_dump_json().encode()
        assert one.content == store.get(slug).model_dump_json().encode()

    with store_mod.TextStore(str(store.engine.url)) as other:  # another process's view
        other.update(slug, doc(title="ספר ראשון", work="חלק ב"))
        assert (await client.get(f"/api/texts/{slug}")).json()["source_metadata"][
            "work_title"
        ] == "חלק ב"
        newer = other.save(doc(title="ספר שני")).slug
        body = (await client.get("/api/texts", params={"pageSize": 5})).json()
        assert [t["slug"] for t in body["texts"]] == [newer, slug]
        other.delete(slug)
    assert_error(await client.get(f"/api/texts/{slug}"), 404, "not_found")
    assert (await client.get("/api/texts")).json()["pagination"]["total"] == 1


def count_calls(app: Any, name: str) -> list[int]:
    """Count the requests that reached the cached read route ``name`` (past the fast path)."""
    reads = app.state.backend.reads
    calls: list[int] = []
    original = reads.serve

    async def counted(route: Any, args: dict[str, Any]) -> Any:
        if route.name == name:
            calls.append(1)
        return await original(route, args)

    reads.serve = counted
    return calls


async def test_cache_hits_skip_the_router_with_identical_responses(store: Any) -> None:
    slug = store.save(doc()).slug
    app = create_app(store=store, settings=Settings())
    list_calls, get_calls = count_calls(app, "list_texts"), count_calls(app, "get_text")
    async with client_for(app) as c:
        for url in ("/api/texts?page=1&pageSize=5", f"/api/texts/{slug}", "/api/texts"):
            miss, hit = await c.get(url), await c.get(url)
            assert hit.status_code == miss.status_code == 200
            assert hit.content == miss.content
            assert hit.headers == miss.headers
    assert len(list_calls) == 2 and len(get_calls) == 1  # the misses only
    assert miss.content == store.list().model_dump_json().encode()


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("page=0", 400),
        ("pageSize=101", 400),
        ("page=1&page=x", 400),
        ("page=10000001", 400),
        ("page=01", 200),
        ("page=1&page=1", 200),
        ("page=1&other=2", 400),  # an unknown parameter (test_http_strict.py)
        ("pageSize=%32", 200),
    ],
)
async def test_unusual_list_queries_still_go_to_the_route(
    store: Any, query: str, status: int
) -> None:
    store.save(doc())
    app = create_app(store=store, settings=Settings())
    calls = count_calls(app, "list_texts")
    async with client_for(app) as c:
        await c.get("/api/texts?page=1&pageSize=20")  # fills the cache
        await c.get("/api/texts?page=1&pageSize=2")
        r = await c.get(f"/api/texts?{query}")
    assert r.status_code == status, r.text
    if status == 400:
        assert_error(r, 400, "invalid_input" if "other" in query else "invalid_request")
    else:
        assert r.content == store.list(1, 2 if "%32" in query else 20).model_dump_json().encode()
    assert len(calls) == (3 if status == 200 else 2)  # FastAPI checked it, not the cache


async def test_cached_reads_keep_their_guards(store: Any) -> None:
    slug = store.save(doc()).slug
    app = create_app(store=store, settings=Settings(api_key="k3y", protect_get=True))
    async with client_for(app) as c:
        auth = {"Authorization": "Bearer k3y"}
        for _ in range(2):  # the second would be a hit, if served without the key
            listed = await c.get("/api/texts", headers=auth)
            assert (await c.get(f"/api/texts/{slug}", headers=auth)).status_code == 200
        assert_error(await c.get(f"/api/texts/{slug}"), 401, "unauthorized")
        assert_error(await c.get("/api/texts"), 401, "unauthorized")
        assert listed.content == store.list().model_dump_json().encode()
    async with client_for(create_app(store=store, settings=Settings())) as c:
        assert_error(await c.get("/api/texts/Bad_Slug"), 400, "invalid_slug")
        assert_error(await c.get(f"/api/texts/{slug}/x"), 404, "not_found")


async def test_cached_reads_work_when_mounted(store: Any) -> None:
    from fastapi import FastAPI

    slug = store.save(doc()).slug
    parent = FastAPI()
    parent.mount("/svc", create_app(store=store, settings=Settings()))
    async with client_for(parent) as c:
        for _ in range(2):
            one = (await c.get(f"/svc/api/texts/{slug}")).content
            assert one == store.get(slug).model_dump_json().encode()
            listed = (await c.get("/svc/api/texts")).content
            assert listed == store.list().model_dump_json().encode()
        assert (await c.get(f"/api/texts/{slug}")).status_code == 404


async def test_slow_store_read_times_out_without_waiting_for_the_thread(store: Any) -> None:
    import threading

    sa = pytest.importorskip("sqlalchemy")
    slug = store.save(doc()).slug
    release = threading.Event()
    state: list[str] = []

    def slow(*args: Any) -> None:
        state.append("started")
        release.wait(30)
        state.append("finished")

    app = create_app(store=store, settings=Settings(request_timeout=0.2))
    sa.event.listen(store.engine, "before_cursor_execute", slow)
    try:
        async with client_for(app) as c:
            r = await c.get(f"/api/texts/{slug}")
        assert_error(r, 504, "timeout")
        assert state == ["started"]  # answered while the query was still waiting
    finally:
        release.set()


# --- health -------------------------------------------------------------------------


async def test_health(client: httpx.AsyncClient) -> None:
    r = await client.get("/api/health")
    assert r.status_code == 200
    from libtext import __version__

    assert r.json() == {
        "status": "ok",
        "version": __version__,
        "store": "ok",
        "providers": ["offline"],
    }


async def test_health_degraded_when_store_fails() -> None:
    async with client_for(fake_app(errors.StoreError("down"))) as c:
        r = await c.get("/api/health")
    body = r.json()
    assert body["status"] == "degraded" and body["store"] == "unavailable"
    assert r.status_code == 503  # a load balancer must see it (it answered 200 before)


# --- uploads: limits and media types ------------------------------------------------


async def test_wrong_content_type_is_415() -> None:
    async with client_for(fake_app()) as c:
        r = await c.post(
            "/api/extract", content=b"%PDF-1.4", headers={"content-type": "text/plain"}
        )
        assert_error(r, 415, "unsupported_media")
        r = await c.post("/api/extract", files={"file": ("a.png", b"%PDF-1.4 x", "image/png")})
        assert_error(r, 415, "unsupported_media")


async def test_not_a_pdf_is_415(fixtures_dir: Path) -> None:
    data = (fixtures_dir / "not_a_pdf.pdf").read_bytes()
    async with client_for(fake_app()) as c:
        for route in ("/api/extract", "/api/outline", "/api/process"):
            r = await c.post(route, files={"file": ("not_a_pdf.pdf", data, "application/pdf")})
            assert_error(r, 415, "unsupported_media")


async def test_the_uploads_name_reaches_the_document_and_its_errors(
    small_pdf: bytes, fixtures_dir: Path
) -> None:
    """A synchronous route reads an upload under its name, as a file opened by path
    (and as a queued job): the document carries it, an error names the file."""
    async with client_for(fake_app()) as c:
        r = await c.post(
            "/api/extract", files={"file": ("dir/Pirkei Avot.pdf", small_pdf, "application/pdf")}
        )
        assert r.status_code == 200, r.text
        assert r.json()["source_name"] == "Pirkei Avot.pdf"
        damaged = (fixtures_dir / "truncated.pdf").read_bytes()
        for route in ("/api/extract", "/api/outline", "/api/process"):
            r = await c.post(route, files={"file": ("letters.pdf", damaged, "application/pdf")})
            assert 400 <= r.status_code < 500, r.text
            assert "letters.pdf" in r.json()["error"]["message"], (route, r.text)


async def test_missing_file_part_and_empty_file_are_400() -> None:
    async with client_for(fake_app()) as c:
        r = await c.post(
            "/api/extract",
            data={"other": "x"},
            files={"doc": ("a.pdf", b"%PDF-", "application/pdf")},
        )
        assert_error(r, 400, "invalid_input")
        r = await c.post("/api/extract", files={"file": ("a.pdf", b"", "application/pdf")})
        assert_error(r, 400, "empty_file")


async def test_content_length_over_limit_is_413_before_reading() -> None:
    received: list[bytes] = []

    async def body() -> AsyncIterator[bytes]:
        received.append(b"x")
        yield b"%PDF-" + b"0" * 100

    async with client_for(fake_app(max_upload_bytes=1000)) as c:
        r = await c.post(
            "/api/extract",
            content=body(),
            headers={"content-type": "multipart/form-data; boundary=b", "content-length": "5000"},
        )
    err = assert_error(r, 413, "too_large")
    assert err["details"] == {"max_bytes": 1000}


async def test_streamed_body_over_limit_is_413_while_streaming() -> None:
    sent = 0
    chunk = b"a" * 1024

    async def body() -> AsyncIterator[bytes]:
        nonlocal sent
        yield b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-'
        for _ in range(1000):  # 1 MB, never sent in full
            sent += 1
            yield chunk

    async with client_for(fake_app(max_upload_bytes=10 * 1024)) as c:
        r = await c.post(
            "/api/extract",
            content=body(),
            headers={"content-type": "multipart/form-data; boundary=b"},
        )
    assert "content-length" not in r.request.headers
    assert_error(r, 413, "too_large")
    assert sent < 20  # stopped near the limit, not after reading the whole body


async def test_json_body_over_limit_is_413() -> None:
    async with client_for(fake_app(max_upload_bytes=100)) as c:
        r = await c.post(
            "/api/translate", json={"sequence_id": 1, "original_hebrew_block": "א" * 200}
        )
    assert_error(r, 413, "too_large")


# --- auth ---------------------------------------------------------------------------


async def test_api_key_guards_post_routes_only() -> None:
    app = fake_app(api_key="s3cret-key")
    async with client_for(app) as c:
        seg = {"sequence_id": 1, "original_hebrew_block": "שלום"}
        r = await c.post("/api/translate", json=seg)
        assert_error(r, 401, "unauthorized")
        assert r.headers["www-authenticate"] == "Bearer"
        r = await c.post("/api/translate", json=seg, headers={"Authorization": "Bearer wrong"})
        assert_error(r, 401, "unauthorized")
        assert "s3cret" not in r.text
        r = await c.post(
            "/api/extract",
            files={"file": ("a.pdf", b"x", "application/pdf")},
            headers={"Authorization": "Basic s3cret-key"},
        )
        assert_error(r, 401)
        # right key: the request gets past auth to the upload check
        r = await c.post(
            "/api/extract",
            files={"file": ("a.pdf", b"x", "application/pdf")},
            headers={"Authorization": "Bearer s3cret-key"},
        )
        assert_error(r, 415)
        assert (await c.get("/api/texts")).status_code == 200


async def test_api_key_from_environment_and_protect_get(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LIBTEXT_API_KEY", "env-key")
    monkeypatch.setenv("LIBTEXT_PROTECT_GET", "true")
    app = create_app(store=RaisingStore())
    assert "env-key" not in repr(app.state.settings)
    async with client_for(app) as c:
        assert_error(await c.get("/api/texts"), 401)
        ok = await c.get("/api/texts", headers={"Authorization": "Bearer env-key"})
        assert ok.status_code == 200
        assert (await c.get("/api/health")).status_code == 200


# --- CORS ---------------------------------------------------------------------------


async def test_cors_off_by_default_and_configurable() -> None:
    headers = {"Origin": "https://site.example", "Access-Control-Request-Method": "POST"}
    async with client_for(fake_app()) as c:
        r = await c.get("/api/health", headers={"Origin": "https://site.example"})
        assert "access-control-allow-origin" not in r.headers
    async with client_for(fake_app(cors_origins=("https://site.example",))) as c:
        r = await c.options("/api/process", headers=headers)
        assert r.status_code == 200
        assert r.headers["access-control-allow-origin"] == "https://site.example"
        r = await c.options("/api/process", headers={**headers, "Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in r.headers


# --- settings and import ------------------------------------------------------------


def test_settings_from_env() -> None:
    env = {
        "LIBTEXT_MAX_UPLOAD_BYTES": "1000",
        "LIBTEXT_MAX_PDF_PAGES": "7",
        "LIBTEXT_REQUEST_TIMEOUT": "2.5",
        "LIBTEXT_CORS_ORIGINS": "https://a.example, https://b.example",
        "LIBTEXT_PROVIDERS": "offline,openai/gpt-4o-mini",
    }
    s = Settings.from_env(env, max_page_size=50)
    assert (s.max_upload_bytes, s.max_pdf_pages, s.request_timeout, s.max_page_size) == (
        1000,
        7,
        2.5,
        50,
    )
    assert s.cors_origins == ("https://a.example", "https://b.example")
    assert s.provider_names == ("offline", "openai/gpt-4o-mini")
    assert Settings.from_env({}) == Settings()
    assert Settings().max_upload_bytes == 50 * 2**20


@pytest.mark.parametrize(
    ("variable", "value", "kind"),
    [
        ("LIBTEXT_MAX_PDF_PAGES", "many", "an integer"),
        ("LIBTEXT_PDF_TIMEOUT", "soon", "a number"),
        ("LIBTEXT_PROTECT_GET", "maybe", "true or false"),  # before: silently false
    ],
)
def test_a_bad_variable_is_named(variable: str, value: str, kind: str) -> None:
    with pytest.raises(errors.ConfigurationError) as caught:
        Settings.from_env({variable: value})
    assert str(caught.value) == f"Environment variable {variable} must be {kind}, got {value!r}."
    assert caught.value.details["variable"] == variable


def test_the_variables_are_read_by_pydantic_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic_settings import BaseSettings

    from libtext.asgi._settings import _Environment

    assert issubclass(_Environment, BaseSettings)
    assert _Environment.model_config["env_prefix"] == "LIBTEXT_"
    monkeypatch.setenv("LIBTEXT_PROTECT_GET", "on")
    monkeypatch.setenv("LIBTEXT_CORS_ORIGINS", "*")
    monkeypatch.setenv("LIBTEXT_API_KEY", "")  # empty: unset
    s = Settings.from_env()
    assert s.protect_get is True and s.cors_origins == ("*",) and s.api_key is None


def test_store_url_variable_is_the_one_textstore_reads() -> None:
    url, old = "sqlite:///texts-env.db", "sqlite:///texts-old.db"
    assert Settings.from_env({"LIBTEXT_DATABASE_URL": url}).store_url == url
    with pytest.warns(DeprecationWarning, match="LIBTEXT_DATABASE_URL"):
        assert Settings.from_env({"LIBTEXT_STORE_URL": old}).store_url == old
    both = {"LIBTEXT_DATABASE_URL": url, "LIBTEXT_STORE_URL": old}
    assert Settings.from_env(both).store_url == url
    assert Settings.from_env(both, store_url="sqlite:///arg.db").store_url == "sqlite:///arg.db"
    assert Settings.from_env({}).store_url is None


async def test_app_made_store_opens_the_database_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("libtext.store")
    db = tmp_path / "from-env.db"
    monkeypatch.setenv("LIBTEXT_DATABASE_URL", f"sqlite:///{db}")
    monkeypatch.setenv("LIBTEXT_STORE_URL", f"sqlite:///{tmp_path / 'deprecated.db'}")
    app = create_app()
    async with app.router.lifespan_context(app), client_for(app) as c:
        response = await c.get("/api/texts")
    assert response.status_code == 200, response.text
    assert db.exists() and not (tmp_path / "deprecated.db").exists()


@pytest.mark.parametrize(
    ("env", "overrides"),
    [
        ({"LIBTEXT_MAX_UPLOAD_BYTES": "lots"}, {}),
        ({}, {"max_page_size": 0}),
        ({}, {"default_page_size": 200}),
        ({}, {"providers": ()}),
        ({}, {"api_key": " "}),
        ({}, {"no_such_field": 1}),
    ],
)
def test_bad_settings_raise_configuration_error(
    env: dict[str, str], overrides: dict[str, Any]
) -> None:
    with pytest.raises(errors.ConfigurationError):
        Settings.from_env(env, **overrides)


def test_import_without_fastapi_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['fastapi'] = None\n"
        "try:\n    import libtext.asgi\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "libtext[server]'" in out.stdout or ".[server]'" in out.stdout


# --- OpenAPI ------------------------------------------------------------------------


def test_openapi_declares_models_and_error_responses() -> None:
    schema = fake_app(api_key="k").openapi()
    ops = {(m.upper(), p): op for p, item in schema["paths"].items() for m, op in item.items()}
    assert set(ops) == {
        ("GET", "/api/health"),
        ("GET", "/api/search"),
        ("GET", "/api/texts"),
        ("GET", "/api/texts/{slug}"),
        ("GET", "/api/texts/{slug}/revisions"),
        ("GET", "/api/texts/{slug}/diff"),
        ("POST", "/api/texts/{slug}/revert"),
        ("PATCH", "/api/texts/{slug}/sections/{sequence_id}"),
        ("GET", "/api/library/test"),
        ("POST", "/api/extract"),
        ("POST", "/api/outline"),
        ("POST", "/api/process"),
        ("POST", "/api/translate"),
        ("GET", "/api/jobs"),
        ("GET", "/api/jobs/{job_id}"),
        ("DELETE", "/api/jobs/{job_id}"),
        ("GET", "/api/jobs/{job_id}/events"),
    }
    error_ref = {"$ref": "#/components/schemas/ErrorResponse"}
    for (method, path), op in ops.items():
        assert "422" not in op["responses"], path
        assert op["responses"]["500"]["content"]["application/json"]["schema"] == error_ref
        assert "400" in op["responses"], path  # an unknown parameter, on every route
        if method == "POST" or path.startswith("/api/jobs"):
            assert "401" in op["responses"], path
    assert ops[("GET", "/api/texts/{slug}")]["responses"]["404"]
    upload = ops[("POST", "/api/extract")]["requestBody"]["content"]["multipart/form-data"]
    assert upload["schema"]["properties"]["file"]["format"] == "binary"
    assert "application/json" in ops[("POST", "/api/process")]["requestBody"]["content"]
    page_size = next(p for p in ops[("GET", "/api/texts")]["parameters"] if p["name"] == "pageSize")
    assert page_size["schema"]["maximum"] == 100 and page_size["schema"]["default"] == 20
    names = set(schema["components"]["schemas"])
    assert {"ErrorResponse", "ProcessRequest", "ProcessResponse", "PaginatedTextsResponse"} <= names
    assert "HTTPValidationError" not in names
    refs = json.dumps(schema)
    for ref in {r.split('"')[0] for r in refs.split("#/components/schemas/")[1:]}:
        assert ref in names, ref


# --- extract (real PDF extraction) --------------------------------------------------


@pytest.fixture
def pdf_module() -> Any:
    return pytest.importorskip("libtext.pdf")


async def test_extract_sample_pdf(pdf_module: Any, small_pdf: bytes) -> None:
    async with client_for(fake_app()) as c:
        r = await c.post(
            "/api/extract", files={"file": ("small.pdf", small_pdf, "application/pdf")}
        )
    assert r.status_code == 200, r.text
    body = r.json()
    assert len(body["pages"]) == 5
    expected = pdf_module.extract_pdf(small_pdf)
    assert [len(p["lines"]) for p in body["pages"]] == [len(p.lines) for p in expected.pages]
    assert "פרק" in json.dumps(body, ensure_ascii=False)


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [
        ("truncated.pdf", 400, None),
        ("encrypted.pdf", 400, "encrypted_pdf"),
        ("empty_text.pdf", 400, "no_text_layer"),
        ("zero_bytes.pdf", 400, "empty_file"),
    ],
)
async def test_extract_bad_pdfs(
    pdf_module: Any, fixtures_dir: Path, name: str, status: int, code: str | None
) -> None:
    data = (fixtures_dir / name).read_bytes()
    async with client_for(fake_app()) as c:
        r = await c.post("/api/extract", files={"file": (name, data, "application/pdf")})
    assert_error(r, status, code)


async def test_too_many_pages_is_413(pdf_module: Any, small_pdf: bytes) -> None:
    async with client_for(fake_app(max_pdf_pages=2)) as c:
        r = await c.post(
            "/api/extract", files={"file": ("small.pdf", small_pdf, "application/pdf")}
        )
    assert_error(r, 413, "too_many_pages")


async def test_extract_runs_off_the_event_loop(pdf_module: Any, fixtures_dir: Path) -> None:
    """While a big PDF is parsed, other requests are still answered."""
    big = (fixtures_dir / "big.pdf").read_bytes()
    async with client_for(fake_app()) as c:
        order: list[str] = []

        async def upload() -> None:
            await c.post("/api/extract", files={"file": ("big.pdf", big, "application/pdf")})
            order.append("extract")

        async def ping() -> None:
            await anyio.sleep(0.05)
            await c.get("/api/health")
            order.append("health")

        async with anyio.create_task_group() as tg:
            tg.start_soon(upload)
            tg.start_soon(ping)
    assert order == ["health", "extract"]


# --- docs -------------------------------------------------------------------------


async def test_docs_mount_example_runs() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "http.md").read_text()
    block = (
        text.split("## Mount it in your own app", 1)[1]
        .split("```python\n", 1)[1]
        .split("```", 1)[0]
    )
    namespace: dict[str, Any] = {}
    exec(compile(block, "docs/http.md", "exec"), namespace)
    async with client_for(namespace["app"]) as c:
        assert (await c.get("/")).json() == {"hello": "world"}
        schema = (await c.get("/texts/openapi.json")).json()
        assert "/api/texts/{slug}" in schema["paths"]
        assert_error(await c.get("/texts/api/texts?pageSize=0"), 400, "invalid_request")
        r = await c.post(
            "/texts/api/extract",
            content=b"x" * (10 * 2**20 + 1),
            headers={"content-type": "application/pdf"},
        )
        assert_error(r, 413, "too_large")


async def test_translate_needs_json() -> None:
    async with client_for(fake_app()) as c:
        r = await c.post(
            "/api/translate",
            content=b"sequence_id=1",
            headers={"content-type": "application/x-www-form-urlencoded"},
        )
        assert_error(r, 415, "unsupported_media")
        r = await c.post(
            "/api/translate", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert_error(r, 400, "invalid_request")


# --- outline, process, translate (real Outliner, Translator, process) ---------------


class RaisingProvider:
    """A provider (the protocol: a name and an async ``complete``) that always fails."""

    def __init__(self, name: str, exc: Exception) -> None:
        self.name = name
        self.exc = exc

    async def complete(self, request: Any) -> Any:
        raise self.exc


def fast_retry() -> Any:
    """One attempt, no back-off: failure tests stay fast."""
    structured = pytest.importorskip("libtext.providers.structured")
    return structured.RetryPolicy(max_attempts=1, base_delay=0.0, max_delay=0.0)


@pytest.fixture
def outline_module() -> Any:
    pytest.importorskip("libtext.pdf")
    return pytest.importorskip("libtext.outline")


@pytest.fixture
def translate_module() -> Any:
    return pytest.importorskip("libtext.translate")


async def test_outline_one_provider(outline_module: Any, small_pdf: bytes) -> None:
    async with client_for(fake_app()) as c:
        r = await c.post(
            "/api/outline?providers=offline",
            files={"file": ("small.pdf", small_pdf, "application/pdf")},
        )
        default = await c.post(
            "/api/outline", files={"file": ("small.pdf", small_pdf, "application/pdf")}
        )
    assert r.status_code == 200, r.text
    expected = await outline_module.Outliner(providers=["offline"]).aoutline(small_pdf)
    assert r.json() == expected.model_dump(mode="json")
    assert default.json() == r.json()
    assert r.json()["outline_segments"]


async def test_outline_several_providers_compares(outline_module: Any, small_pdf: bytes) -> None:
    failing = RaisingProvider("flaky", errors.ProviderError("down", provider="flaky"))
    app = fake_app(providers=("offline", failing), retry=fast_retry())
    async with client_for(app) as c:
        r = await c.post(
            "/api/outline?providers=offline,flaky",
            files={"file": ("s.pdf", small_pdf, "application/pdf")},
        )
    assert r.status_code == 200, r.text
    body = r.json()
    assert [o["provider"] for o in body["results"]] == ["offline", "flaky"]
    assert [o["ok"] for o in body["results"]] == [True, False]
    assert body["results"][0]["outline"]["outline_segments"]


async def test_outline_unknown_provider_is_400(small_pdf: bytes) -> None:
    async with client_for(fake_app()) as c:
        r = await c.post(
            "/api/outline?providers=openai/gpt-4o",
            files={"file": ("s.pdf", small_pdf, "application/pdf")},
        )
    err = assert_error(r, 400, "invalid_input")
    assert err["details"]["available"] == ["offline"]


@pytest.mark.parametrize(
    ("exc", "status"),
    [
        (errors.RateLimitError("429", provider="p"), 429),
        (errors.ProviderTimeoutError("slow", provider="p"), 504),
        (errors.ProviderAuthError("key rejected", provider="p"), 502),
    ],
)
async def test_outline_provider_failures(
    outline_module: Any, small_pdf: bytes, exc: Exception, status: int
) -> None:
    app = fake_app(providers=(RaisingProvider("p", exc),), retry=fast_retry())
    async with client_for(app) as c:
        r = await c.post("/api/outline", files={"file": ("s.pdf", small_pdf, "application/pdf")})
    assert_error(r, status)


SEGMENT = {
    "sequence_id": 1,
    "chapter_title": "פרק א",
    "original_hebrew_block": "ויאמר אלהים יהי אור (בראשית א, ג) ויהי אור.",
}


async def test_translate_segment(translate_module: Any) -> None:
    from libtext.models import EnrichedSegment

    async with client_for(fake_app()) as c:
        r = await c.post("/api/translate", json=SEGMENT)
    assert r.status_code == 200, r.text
    expected = await translate_module.Translator(provider="offline").atranslate(
        EnrichedSegment.model_validate(SEGMENT)
    )
    assert r.json() == expected.model_dump(mode="json")
    assert r.json()["original_hebrew_block"] == SEGMENT["original_hebrew_block"]


@pytest.mark.parametrize(
    ("exc", "status"),
    [
        (errors.RateLimitError("429", provider="p"), 429),
        (errors.ProviderError("bad", provider="p"), 502),
        (errors.ProviderTimeoutError("slow", provider="p"), 504),
    ],
)
async def test_translate_provider_failures(
    translate_module: Any, exc: Exception, status: int
) -> None:
    app = fake_app(providers=("offline", RaisingProvider("p", exc)), retry=fast_retry())
    async with client_for(app) as c:
        r = await c.post("/api/translate?provider=p", json=SEGMENT)
    assert_error(r, status)


async def test_translate_invalid_segment_is_400() -> None:
    async with client_for(fake_app()) as c:
        r = await c.post("/api/translate", json={"sequence_id": "one"})
    assert_error(r, 400, "invalid_request")
    async with client_for(fake_app()) as c:
        r = await c.post("/api/translate?provider=nope", json=SEGMENT)
    assert_error(r, 400, "invalid_input")


async def test_process_pdf_then_fetch(
    client: httpx.AsyncClient, outline_module: Any, translate_module: Any, small_pdf: bytes
) -> None:
    pytest.importorskip("libtext.process")
    r = await client.post(
        "/api/process?providers=offline",
        files={"file": ("small.pdf", small_pdf, "application/pdf")},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    slug = body["slug"]
    assert body["document"]["sections"]
    assert body["document"]["page_count"] == 5
    fetched = await client.get(f"/api/texts/{slug}")
    assert fetched.json() == body["document"]
    listed = (await client.get("/api/texts")).json()
    assert [t["slug"] for t in listed["texts"]] == [slug]


async def test_process_bad_bodies(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/process", json={"work": "x"})
    assert_error(r, 400, "invalid_input")
    r = await client.post("/api/process", json={"work_id": "../../etc"})
    assert_error(r, 400, "invalid_input")
    r = await client.post("/api/process", content=b"hello", headers={"content-type": "text/plain"})
    assert_error(r, 415, "unsupported_media")
    r = await client.post("/api/process?providers=gpt", json={"work_id": "1"})
    assert_error(r, 400, "invalid_input")


# --- search, library test, process by work id (real LibraryClient, mock library) ----

LIBRARY_URL = "https://library.test/books"
LIBRARY_TREE: dict[str, Any] = {
    "100": {"content": {"type": "children", "data": [{"id": 101, "heading": "פרק א"}]}},
    "101": {
        "content": {
            "type": "page",
            "data": {"text": "<h2>פרק א</h2><p>ויאמר אלהים יהי אור ויהי אור.</p>"},
        }
    },
}


class MockLibrary:
    """The online library's API over ``httpx.MockTransport``, with switchable faults."""

    def __init__(self) -> None:
        self.fault: int | str | None = None
        self.phrases: list[str] = []

    def handle(self, request: httpx.Request) -> httpx.Response:
        if self.fault == "timeout":
            raise httpx.ReadTimeout("slow", request=request)
        if isinstance(self.fault, int):
            return httpx.Response(self.fault, json={"error": "down"})
        if request.url.path.endswith("/api/search"):
            phrase = request.url.params["phrase"]
            self.phrases.append(phrase)
            hits = [{"id": 101, "heading": "פרק א", "snippet": f"… {phrase} …"}]
            return httpx.Response(200, json={"results": hits, "count": 30})
        node = request.url.params.get("path", "").removeprefix("/")  # sent as /<id>
        if node in LIBRARY_TREE:
            return httpx.Response(200, json=LIBRARY_TREE[node])
        if node.isdigit() and len(node) == 10:  # the health probe's id
            return httpx.Response(200, json=LIBRARY_TREE["100"])
        return httpx.Response(404, json={"error": "not found"})

    def client(self) -> Any:
        from libtext.library import LibraryClient

        return LibraryClient(
            base_url=LIBRARY_URL,
            rate_limit=None,
            retry=RetryPolicy(max_attempts=1),
            transport=httpx.MockTransport(self.handle),
        )


@pytest.fixture
def mock_library() -> MockLibrary:
    return MockLibrary()


@pytest.fixture
async def library_client(mock_library: MockLibrary, store: Any) -> AsyncIterator[httpx.AsyncClient]:
    library = mock_library.client()
    async with client_for(create_app(store=store, library=library, settings=Settings())) as c:
        yield c
    await library.aclose()


async def test_search(library_client: httpx.AsyncClient, mock_library: MockLibrary) -> None:
    r = await library_client.get("/api/search", params={"q": "  יהי   אור ", "page": 2})
    assert r.status_code == 200, r.text
    body = r.json()
    assert mock_library.phrases == ["יהי אור"]
    assert body["query"] == "יהי אור"
    assert body["results"][0]["id"] == "101"
    assert body["results"][0]["link"] == f"{LIBRARY_URL}/101"
    assert body["pagination"]["page"] == 2 and body["pagination"]["total"] == 30


@pytest.mark.parametrize("query", ["", "q=", "q=%20%20", "q=x&page=0", f"q={'x' * 201}"])
async def test_search_bad_query_is_400(library_client: httpx.AsyncClient, query: str) -> None:
    assert_error(await library_client.get(f"/api/search?{query}"), 400)


@pytest.mark.parametrize(
    ("fault", "status", "code"),
    [(500, 502, "library_error"), ("timeout", 504, "library_timeout")],
)
async def test_search_library_failures(
    library_client: httpx.AsyncClient,
    mock_library: MockLibrary,
    fault: int | str,
    status: int,
    code: str,
) -> None:
    mock_library.fault = fault
    assert_error(await library_client.get("/api/search?q=אור"), status, code)


async def test_library_test_reports_status(
    library_client: httpx.AsyncClient, mock_library: MockLibrary
) -> None:
    from libtext.models import LibraryStatus

    ok = (await library_client.get("/api/library/test")).json()
    assert LibraryStatus.model_validate(ok).reachable
    assert ok["status_code"] == 200 and ok["base_url"] == LIBRARY_URL
    assert ok["latency_ms"] >= 0 and ok["error"] is None
    mock_library.fault = 503
    r = await library_client.get("/api/library/test")
    assert r.status_code == 200  # the check itself worked: the library is down
    down = r.json()
    assert down["reachable"] is False and down["status_code"] == 503 and down["error"]


async def test_process_library_work_then_fetch(
    library_client: httpx.AsyncClient, outline_module: Any, translate_module: Any
) -> None:
    pytest.importorskip("libtext.process")
    r = await library_client.post("/api/process", json={"work_id": "100"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert "יהי אור" in json.dumps(body["document"], ensure_ascii=False)
    assert body["document"]["work_id"] is None  # library ids are not exposed
    fetched = await library_client.get(f"/api/texts/{body['slug']}")
    assert fetched.json() == body["document"]
    r = await library_client.post("/api/process", json={"work_id": "999"})
    assert_error(r, 404, "not_found")


# --- worker threads and timeouts ----------------------------------------------------


async def test_pdf_timeout_kills_the_worker_and_frees_its_slot(
    pdf_module: Any, small_pdf: bytes
) -> None:
    """One worker: if the timed-out parse kept running, the next upload would wait for it.

    (This replaces a test that pinned the old behaviour, a parse thread left running
    after the 504, which is what let one upload block PDF work for everyone.)
    """
    from tests.hostile_pdfs import shared_stream

    slow = shared_stream(2000, 30_000)  # ~150,000 characters on each of 2,000 pages
    app = fake_app(pdf_timeout=1.5, pdf_workers=1, max_page_chars=10**7, max_pdf_chars=10**9)
    async with client_for(app) as c:
        await c.post("/api/extract", files={"file": ("s.pdf", small_pdf, "application/pdf")})
        t0 = time.monotonic()
        r = await c.post("/api/extract", files={"file": ("slow.pdf", slow, "application/pdf")})
        assert time.monotonic() - t0 < 6
        error = assert_error(r, 504, "extraction_timeout")
        assert error["details"]["limit"] == "timeout"
        t1 = time.monotonic()
        ok = await c.post("/api/extract", files={"file": ("s.pdf", small_pdf, "application/pdf")})
        assert ok.status_code == 200, ok.text
        assert time.monotonic() - t1 < 4


async def test_route_timeout_cancels_and_kills_the_pdf_worker(
    pdf_module: Any, small_pdf: bytes
) -> None:
    from tests.hostile_pdfs import shared_stream

    slow = shared_stream(2000, 30_000)
    app = fake_app(
        processing_timeout=3.0,
        pdf_timeout=300.0,
        pdf_workers=1,
        max_page_chars=10**7,
        max_pdf_chars=10**9,
    )
    async with client_for(app) as c:
        await c.post("/api/extract", files={"file": ("s.pdf", small_pdf, "application/pdf")})
        r = await c.post("/api/extract", files={"file": ("slow.pdf", slow, "application/pdf")})
        assert_error(r, 504, "timeout")
        ok = await c.post("/api/extract", files={"file": ("s.pdf", small_pdf, "application/pdf")})
        assert ok.status_code == 200, ok.text  # the slot was freed, within 3 s


def test_page_size_limit_cannot_pass_the_store_limit() -> None:
    store_mod = pytest.importorskip("libtext.store")
    Settings(max_page_size=store_mod.MAX_PAGE_SIZE)
    with pytest.raises(errors.ConfigurationError, match="at most"):
        Settings(max_page_size=store_mod.MAX_PAGE_SIZE + 1)


# --- the spec's field names in the OpenAPI document -----------------------------------


def test_openapi_uses_the_spec_field_names() -> None:
    schema = fake_app().openapi()
    components = schema["components"]["schemas"]

    def fields(name: str) -> set[str]:
        return set(components[name]["properties"])

    # Field tables of ../shared/spec/service.md
    assert fields("PaginationInfo") == {"page", "pageSize", "total", "totalPages"}
    assert {
        "slug",
        "publication_title",
        "work_title",
        "author_name",
        "page_count",
        "created_at",
        "updated_at",
    } <= fields("TextListItem")
    assert fields("PaginatedTextsResponse") == {"texts", "pagination"}
    assert {"publication_title", "work_title", "author_name"} <= fields("SourceMetadata")
    outline_fields = {
        "sequence_id",
        "chapter_number",
        "chapter_title",
        "segment_title",
        "summary",
        "page_ref",
        "start_phrase_hebrew",
        "end_phrase_hebrew",
    }
    assert outline_fields <= fields("OutlineSegment")
    assert fields("DocumentOutline") == {"source_metadata", "outline_segments"}
    assert outline_fields | {"original_hebrew_block", "translation_data", "footnotes"} <= fields(
        "Section"
    )
    assert {
        "source_metadata",
        "sections",
        "work_id",
        "page_count",
        "first_page_id",
        "last_page_id",
    } <= fields("ProcessedDocument")
    assert {"hebrew_phrase_expanded", "english_translation", "sefaria_link"} <= fields(
        "TranslationData"
    )
    assert {"marker", "content", "translation"} <= fields("Footnote")

    paths = schema["paths"]
    page_params = {p["name"] for p in paths["/api/texts"]["get"]["parameters"]}
    assert page_params == {"page", "pageSize"}

    def ok_schema(path: str, method: str) -> Any:
        return paths[path][method]["responses"]["200"]["content"]["application/json"]["schema"]

    ref = "#/components/schemas/"
    assert ok_schema("/api/texts", "get") == {"$ref": ref + "PaginatedTextsResponse"}
    assert ok_schema("/api/texts/{slug}", "get") == {"$ref": ref + "ProcessedDocument"}
    assert ok_schema("/api/library/test", "get") == {"$ref": ref + "LibraryStatus"}
    assert ok_schema("/api/health", "get") == {"$ref": ref + "HealthResponse"}
    assert ok_schema("/api/translate", "post") == {"$ref": ref + "TranslatedSegment"}
    outline = ok_schema("/api/outline", "post")
    assert {s["$ref"] for s in outline["anyOf"]} == {
        ref + "DocumentOutline",
        ref + "OutlineComparison",
    }
    process_body = paths["/api/process"]["post"]["requestBody"]["content"]
    assert process_body["application/json"]["schema"] == {"$ref": ref + "ProcessRequest"}
    assert process_body["multipart/form-data"]["schema"]["required"] == ["file"]
    translate_body = paths["/api/translate"]["post"]["requestBody"]["content"]
    assert translate_body["application/json"]["schema"] == {"$ref": ref + "EnrichedSegment"}
