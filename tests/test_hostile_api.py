"""Hostile inputs short of PDFs: invalid Unicode, wrong types, devices, huge strings,
keys in the query string, protected docs, health a load balancer can trust, a silent
PostgreSQL, slow bodies, idle connections and the translation size limit."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from tests.served import serving, silent_port

from libtext import Translator, errors
from libtext.models import EnrichedSegment, Footnote, ProcessedDocument, Section
from libtext.pdf import extract_pdf

asgi = pytest.importorskip("libtext.asgi")
Settings = asgi.Settings
create_app = asgi.create_app


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def error_of(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text[:500]
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    return body["error"]  # type: ignore[no-any-return]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    store_mod = pytest.importorskip("libtext.store")
    st = store_mod.TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    yield st
    st.close()


# --- valid Unicode at every boundary --------------------------------------------------

BAD_TEXT = ["שלום \ud800 עולם", "\udfff", "אבג\ufffe", "\U0010ffff", "א\ufdd0"]


@pytest.mark.parametrize("text", BAD_TEXT)
def test_models_refuse_text_that_is_not_unicode(text: str) -> None:
    with pytest.raises(ValueError, match="valid Unicode"):
        EnrichedSegment(sequence_id=1, original_hebrew_block=text)
    with pytest.raises(ValueError, match="valid Unicode"):
        Section(sequence_id=1, chapter_title=text)
    with pytest.raises(ValueError, match="valid Unicode"):
        Footnote(marker="1", content=text)


def test_valid_text_still_passes() -> None:
    seg = EnrichedSegment(sequence_id=1, original_hebrew_block="בְּרֵאשִׁית 😀 \u200f")
    assert seg.original_hebrew_block.startswith("בְּ")


@pytest.mark.parametrize("text", BAD_TEXT[:2])
def test_translator_refuses_lone_surrogates(text: str) -> None:
    with pytest.raises(errors.InvalidInputError, match="surrogate"):
        Translator(provider="offline").translate(text)


async def test_translate_route_answers_400_not_500() -> None:
    body = b'{"sequence_id": 1, "original_hebrew_block": "\\u05e9\\ud800 x"}'
    async with client_for(create_app(settings=Settings())) as c:
        r = await c.post(
            "/api/translate", content=body, headers={"content-type": "application/json"}
        )
    error = error_of(r, 400)
    assert "surrogate" in error["message"] and "U+D800" in error["message"]


def test_pdf_text_is_made_valid_before_it_reaches_the_models() -> None:
    from libtext.pdf._visual import valid_text

    # A lone UTF-16 half or a non-character is dropped; halves of a pair are joined.
    assert valid_text("אב\ud83dג\uffff") == "אבג"
    assert valid_text("א\ude00\ud83d") == "א😀"
    assert valid_text("בְּרֵאשִׁית 😀") == "בְּרֵאשִׁית 😀"


def test_nothing_unserializable_reaches_the_store(store: Any) -> None:
    with pytest.raises(ValueError, match="valid Unicode"):
        store.save(ProcessedDocument(sections=[Section(sequence_id=1, chapter_title="a\ud800")]))
    assert store.list().pagination.total == 0


# --- Python API hygiene ---------------------------------------------------------------


def test_wrong_types_raise_type_error_naming_the_argument() -> None:
    cases: list[tuple[Any, str]] = [
        (lambda: extract_pdf(42), "source"),  # type: ignore[arg-type]
        (lambda: extract_pdf(b"%PDF-1.4", max_pages="5"), "max_pages"),  # type: ignore[arg-type]
        (lambda: extract_pdf(b"%PDF-1.4", password=123), "password"),  # type: ignore[arg-type]
        (lambda: extract_pdf(b"%PDF-1.4", guard="yes"), "guard"),  # type: ignore[arg-type]
        (lambda: Translator(provider="offline", glossary={1: 2}), "glossary"),
        (lambda: Translator(provider="offline", glossary=["x"]), "glossary"),
        (lambda: Translator(provider="offline").translate(123), "segment"),
    ]
    store_mod = pytest.importorskip("libtext.store")
    cases.append((lambda: store_mod.TextStore(123), "url"))
    for call, name in cases:
        with pytest.raises(TypeError, match=f"{name}=") as info:
            call()
        assert isinstance(info.value, errors.InvalidInputError)  # and 400 over HTTP


def test_outline_text_refuses_marks_alone() -> None:
    from libtext import Outliner

    outliner = Outliner(providers=["offline"])
    with pytest.raises(errors.EmptyDocumentError):
        outliner.outline_text("\u05b0\u05b4" * 500_000)  # 1 MB of vowel points
    with pytest.raises(TypeError, match="text="):
        outliner.outline_text(b"bytes")  # type: ignore[arg-type]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_device_files_are_refused_at_once(device: str) -> None:
    t0 = time.monotonic()
    with pytest.raises(errors.InvalidInputError, match="not a regular file"):
        extract_pdf(device)
    with pytest.raises(errors.InvalidInputError, match="not a regular file"):
        extract_pdf(device, max_bytes=None)
    with open(device, "rb") as fh, pytest.raises(errors.InvalidInputError, match="device"):
        extract_pdf(fh, max_bytes=None)
    with open(device, "rb") as fh, pytest.raises(errors.InputTooLargeError):
        extract_pdf(fh, max_bytes=1000)  # a bounded read of a device ends at the limit
    assert time.monotonic() - t0 < 2


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    with pytest.raises(errors.InvalidInputError, match="not a regular file"):
        extract_pdf(fifo)


def test_nul_in_path_is_invalid_input() -> None:
    with pytest.raises(errors.InvalidInputError, match="NUL"):
        extract_pdf("doc\x00.pdf")


def test_messages_quote_at_most_a_short_piece_of_the_input() -> None:
    huge = "א" * 10_000_000
    for call in (
        lambda: extract_pdf(huge),
        lambda: extract_pdf(huge + "\x00"),
        lambda: extract_pdf(b"%PDF-1.4", mode=huge),  # type: ignore[arg-type]
    ):
        with pytest.raises(errors.LibtextError) as info:
            call()
        assert len(info.value.message) < 300
        assert len(str(info.value.details)) < 300
    store_mod = pytest.importorskip("libtext.store")
    with pytest.raises(errors.ConfigurationError) as info:
        store_mod.TextStore(huge)
    assert len(info.value.message) < 400


# --- translation size -------------------------------------------------------------------


def test_translator_size_limit_names_itself() -> None:
    translator = Translator(provider="offline", max_segment_chars=1000)
    with pytest.raises(errors.InputTooLargeError) as info:
        translator.translate("שלום עולם. " * 200)
    assert info.value.details["limit"] == "max_segment_chars"
    assert "max_segment_chars=1,000" in info.value.message
    notes = [Footnote(marker="1", content="א" * 995)]  # 9 + 995 > 1000
    with pytest.raises(errors.InputTooLargeError):
        translator.translate("שלום עולם", footnotes=notes)


async def test_translate_route_413_over_the_segment_limit() -> None:
    app = create_app(settings=Settings(max_segment_chars=5000))
    segment = {"sequence_id": 1, "original_hebrew_block": "שלום עולם. " * 1000}
    async with client_for(app) as c:
        r = await c.post("/api/translate", json=segment)
        ok = await c.post("/api/translate", json={**segment, "original_hebrew_block": "שלום"})
    error = error_of(r, 413)
    assert error["code"] == "too_large" and error["details"]["limit"] == "max_segment_chars"
    assert ok.status_code == 200


# --- health, auth, docs -----------------------------------------------------------------


class DownStore:
    def ping(self) -> bool:
        return False

    async def aping(self) -> bool:
        return False


async def test_health_is_503_when_the_store_is_down() -> None:
    async with client_for(create_app(store=DownStore(), settings=Settings())) as c:  # type: ignore[arg-type]
        r = await c.get("/api/health")
    assert r.status_code == 503
    body = r.json()
    assert body["status"] == "degraded" and body["store"] == "unavailable"
    assert body["providers"] == ["offline"]


async def test_health_is_503_when_a_provider_has_no_key(
    store: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("litellm")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = Settings(providers=("offline", "openai/gpt-4o-mini"))
    async with client_for(create_app(store=store, settings=settings)) as c:
        r = await c.get("/api/health")
    assert r.status_code == 503 and r.json()["store"] == "ok"
    async with client_for(create_app(store=store, settings=Settings())) as c:
        assert (await c.get("/api/health")).status_code == 200


@pytest.fixture
def silent_postgres() -> Iterator[int]:
    """A TCP server on 127.0.0.1 that accepts connections and never answers."""
    with silent_port() as port:
        yield port


def test_silent_postgres_fails_within_seconds(silent_postgres: int) -> None:
    store_mod = pytest.importorskip("libtext.store")
    pytest.importorskip("psycopg")
    store = store_mod.TextStore(f"postgresql+psycopg://u:secret@127.0.0.1:{silent_postgres}/db")
    try:
        t0 = time.monotonic()
        with pytest.raises(errors.StoreError) as info:
            store.list()
        assert time.monotonic() - t0 < 9  # the 5 s connect timeout, not a stall
        assert "secret" not in info.value.message

        async def health() -> httpx.Response:
            async with client_for(create_app(store=store, settings=Settings())) as c:
                return await c.get("/api/health")

        t0 = time.monotonic()
        r = anyio.run(health)
        assert r.status_code == 503 and time.monotonic() - t0 < 8
    finally:
        store.close()


def keyed_app(**settings: Any) -> Any:
    return create_app(settings=Settings(api_key="s3cret-key", **settings))


@pytest.mark.parametrize("param", ["api_key", "access_token", "API_KEY", "token"])
async def test_key_in_query_string_is_refused(param: str) -> None:
    async with client_for(keyed_app()) as c:
        r = await c.get(f"/api/texts?{param}=s3cret-key")
        posted = await c.post(f"/api/translate?{param}=s3cret-key", json={})
    for response in (r, posted):
        error = error_of(response, 401)
        assert "Authorization" in error["message"] and "query string" in error["message"]
        assert "s3cret-key" not in response.text
    assert r.headers["www-authenticate"] == "Bearer"


def test_access_log_redacts_credentials() -> None:
    from libtext.asgi._auth import RedactCredentials, redact_query

    assert redact_query("/api/texts?page=2&api_key=abc&x=1") == (
        "/api/texts?page=2&api_key=[redacted]&x=1"
    )
    assert redact_query("/a?access_token=abc") == "/a?access_token=[redacted]"
    assert redact_query("/a?page=1") == "/a?page=1"
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:1", "GET", "/api/texts?token=abc", "1.1", 401),
        None,
    )
    RedactCredentials().filter(record)
    assert "abc" not in record.getMessage() and "[redacted]" in record.getMessage()
    keyed_app()
    access = logging.getLogger("uvicorn.access")
    assert sum(isinstance(f, RedactCredentials) for f in access.filters) == 1


@pytest.mark.parametrize("path", ["/docs", "/redoc", "/openapi.json"])
async def test_protect_get_covers_the_docs(path: str) -> None:
    async with client_for(keyed_app(protect_get=True)) as c:
        denied = await c.get(path)
        allowed = await c.get(path, headers={"Authorization": "Bearer s3cret-key"})
        health = await c.get("/api/health")
    error_of(denied, 401)
    assert allowed.status_code == 200
    assert health.status_code == 200
    async with client_for(keyed_app()) as c:
        assert (await c.get(path)).status_code == 200  # without protect_get: open


# --- a real server: connection limits, idle and slow clients, the access log -------------


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    pytest.importorskip("libtext.store")
    tmp = tmp_path_factory.mktemp("limited")
    log = tmp / "server.log"
    env = {"LIBTEXT_BODY_TIMEOUT": "1", "LIBTEXT_API_KEY": "s3cret-key"}
    args = ["--store", f"sqlite:///{tmp / 'served.db'}", "--log-level", "info"]
    args += ["--limit-concurrency", "4", "--header-timeout", "1"]
    with (
        log.open("wb") as out,
        serving(args, env=env, stdout=out, output=log.read_text) as (_, base),
    ):
        yield base, log


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


def test_idle_connections_are_closed_and_limited(limited_server: tuple[str, Path]) -> None:
    base, _ = limited_server
    idle = [_connect(base) for _ in range(6)]
    try:
        idle[0].sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # headers never finish
        time.sleep(0.3)
        r = httpx.get(f"{base}/api/texts", timeout=5)
        # Over --limit-concurrency 4, but idle sockets are closed to make room (issue
        # 27): the app answers, not uvicorn's plain 503.
        assert r.status_code == 200
        # ... and health has connections of its own
        assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200
        t0 = time.monotonic()
        for sock in idle:
            assert sock.recv(1024) == b""  # closed by the server (header timeout 1 s)
        assert time.monotonic() - t0 < 4
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.2)
    assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200


def test_slow_body_gets_408(limited_server: tuple[str, Path]) -> None:
    base, _ = limited_server
    with _connect(base) as sock:
        sock.sendall(
            b"POST /api/translate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret-key\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        t0 = time.monotonic()
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = sock.recv(4096)
            if not chunk:
                break
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert time.monotonic() - t0 < 4


def test_query_key_redacted_in_the_real_access_log(limited_server: tuple[str, Path]) -> None:
    base, log = limited_server
    r = httpx.get(f"{base}/api/texts?page=1&api_key=leaked-value-123", timeout=5)
    assert r.status_code == 401
    time.sleep(0.3)
    text = log.read_text()
    assert "/api/texts?page=1&api_key=[redacted]" in text
    assert "leaked-value-123" not in text
