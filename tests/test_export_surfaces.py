"""Export from the store, the command line and HTTP: the same file as the Python API.

Over HTTP, ``GET /api/texts/{slug}`` negotiates (``Accept`` or ``?format=``, 406 for
anything else), streams the file, and keeps JSON answers (and their fast path) as they
were. Each surface's file is compared with :func:`libtext.export.export` of the same
stored revision, member by member for the zip formats, the export time aside.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests import export_docs

from libtext.export import EXTENSIONS, FORMATS, MEDIA_TYPES, export
from libtext.models import ErrorResponse, ProcessedDocument, Section, TranslationData

pytest.importorskip("sqlmodel")
from libtext.store import TextStore

_TIME = re.compile(rb"\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?: UTC|Z)?)?")
_UUID = re.compile(rb"urn:uuid:[0-9a-f-]{36}")


def _same_file(a: bytes, b: bytes) -> None:
    """Equal but for the export time (and the EPUB identifier made from it)."""
    if a[:2] == b"PK":
        za, zb = zipfile.ZipFile(io.BytesIO(a)), zipfile.ZipFile(io.BytesIO(b))
        assert za.namelist() == zb.namelist()
        for name in za.namelist():
            _same_file(za.read(name), zb.read(name))
        return
    assert _UUID.sub(b"", _TIME.sub(b"T", a)) == _UUID.sub(b"", _TIME.sub(b"T", b))


def _small(n: int = 3) -> ProcessedDocument:
    return ProcessedDocument(
        source_metadata={"publication_title": "ספר", "work_title": "חיבור"},
        sections=[
            Section(
                sequence_id=i,
                chapter_number=str(i),
                chapter_title=f"פרק {i}",
                original_hebrew_block="שלום עולם",
                translation_data=[
                    TranslationData(hebrew_phrase="שלום עולם", english_translation=f"hello {i}")
                ],
            )
            for i in range(1, n + 1)
        ],
    )


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TextStore]:
    with TextStore(f"sqlite:///{tmp_path / 'texts.db'}") as s:
        yield s


def test_store_exports_the_current_revision_or_an_older_one(store: TextStore) -> None:
    slug = store.save(_small()).slug
    changed = _small()
    changed.sections[0].translation_data[0].english_translation = "greetings"
    store.update(slug, changed)
    current = (store.export(slug, "md") or b"").decode()
    first = (store.export(slug, "md", revision=1) or b"").decode()
    assert "Revision 2" in current and "greetings" in current
    assert "Revision 1" in first and "hello 1" in first and "greetings" not in first
    from libtext.errors import InvalidInputError, NotFoundError

    with pytest.raises(NotFoundError):
        store.export(slug, "md", revision=9)
    with pytest.raises(InvalidInputError):
        store.export(slug, "pdf")


async def test_async_twin(store: TextStore) -> None:
    slug = store.save(_small()).slug
    assert (await store.aexport(slug, "tei") or b"").startswith(b"<?xml")


# --- the command line ------------------------------------------------------------------


def _cli(*args: str) -> Any:
    from click.testing import CliRunner

    from libtext.cli import cli

    return CliRunner().invoke(cli, list(args))


def test_cli_writes_a_file_or_standard_output(store: TextStore, tmp_path: Path) -> None:
    slug = store.save(_small()).slug
    out = tmp_path / "book.epub"
    result = _cli("texts", "export", slug, "--format", "epub", "-o", str(out), "--store", store.url)
    assert result.exit_code == 0, result.output
    assert zipfile.ZipFile(out).read("mimetype") == b"application/epub+zip"
    result = _cli("texts", "export", slug, "--format", "md", "--store", store.url)
    assert result.exit_code == 0 and result.stdout_bytes.startswith("# חיבור".encode())
    result = _cli("texts", "export", "no-such-text", "--format", "md", "--store", store.url)
    assert result.exit_code == 2 and "error:" in result.output and "Traceback" not in result.output
    result = _cli("texts", "export", slug, "--format", "pdf", "--store", store.url)
    assert result.exit_code == 2 and "docx" in result.output


# --- HTTP ------------------------------------------------------------------------------


@pytest.fixture
async def client(store: TextStore) -> AsyncIterator[httpx.AsyncClient]:
    pytest.importorskip("fastapi")
    from libtext.asgi import Settings, create_app

    app = create_app(store=store, settings=Settings())
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
        yield c


ACCEPTS = {fmt: MEDIA_TYPES[fmt].split(";")[0] for fmt in FORMATS}


async def test_accept_and_format_choose_the_file(
    client: httpx.AsyncClient, store: TextStore
) -> None:
    slug = store.save(_small()).slug
    as_json = await client.get(f"/api/texts/{slug}")
    assert as_json.headers["content-type"] == "application/json"
    assert as_json.headers["vary"] == "Accept"
    for fmt, media in ACCEPTS.items():
        r = await client.get(f"/api/texts/{slug}", headers={"Accept": media})
        assert r.status_code == 200, r.text[:300]
        assert r.headers["content-type"].startswith(media)
        assert f'filename="{slug}.{EXTENSIONS[fmt]}"' in r.headers["content-disposition"]
        _same_file(r.content, export(store.get(slug), fmt) or b"")
        by_query = await client.get(f"/api/texts/{slug}", params={"format": fmt})
        _same_file(by_query.content, r.content)
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    r = await client.get(f"/api/texts/{slug}", headers={"Accept": browser})
    assert r.headers["content-type"].startswith("text/html")
    for accept in ("application/json", "*/*", "application/json, text/html;q=0.5"):
        r = await client.get(f"/api/texts/{slug}", headers={"Accept": accept})
        assert r.headers["content-type"] == "application/json", accept
    r = await client.get(f"/api/texts/{slug}", headers={"Accept": "text/html;q=0, */*;q=0.1"})
    assert r.headers["content-type"] == "application/json"


@pytest.mark.parametrize(
    ("headers", "params"),
    [
        ({"Accept": "image/png"}, {}),
        ({"Accept": "text/markdown;q=0"}, {}),
        ({}, {"format": "pdf"}),
        ({"Accept": "application/json"}, {"format": "rtf"}),
    ],
)
async def test_anything_else_is_406_with_an_error_body(
    client: httpx.AsyncClient, store: TextStore, headers: dict[str, str], params: dict[str, str]
) -> None:
    slug = store.save(_small()).slug
    r = await client.get(f"/api/texts/{slug}", headers=headers, params=params)
    assert r.status_code == 406
    body = ErrorResponse.model_validate(r.json())
    assert body.error.code == "not_acceptable" and "json" in body.error.message


async def test_the_json_fast_path_never_answers_a_request_for_a_file(
    client: httpx.AsyncClient, store: TextStore
) -> None:
    slug = store.save(_small()).slug
    for _ in range(3):  # warm the read cache: the fast path answers JSON from here on
        assert (await client.get(f"/api/texts/{slug}")).status_code == 200
    r = await client.get(f"/api/texts/{slug}", headers={"Accept": "text/markdown"})
    assert r.headers["content-type"].startswith("text/markdown")
    r = await client.get(f"/api/texts/{slug}", headers={"Accept": "image/png"})
    assert r.status_code == 406
    r = await client.get(f"/api/texts/{slug}")
    assert r.headers["vary"] == "Accept" and r.json()["sections"]


async def test_a_revision_is_exported_and_a_missing_one_is_404(
    client: httpx.AsyncClient, store: TextStore
) -> None:
    slug = store.save(_small()).slug
    changed = _small()
    changed.sections[0].translation_data[0].english_translation = "greetings"
    store.update(slug, changed)
    r = await client.get(f"/api/texts/{slug}", params={"format": "md", "revision": 1})
    assert "Revision 1" in r.text and "greetings" not in r.text
    r = await client.get(f"/api/texts/{slug}", params={"format": "md", "revision": 7})
    assert r.status_code == 404
    r = await client.get("/api/texts/no-such-text", params={"format": "docx"})
    assert r.status_code == 404


async def test_the_body_is_streamed_a_section_at_a_time(store: TextStore) -> None:
    pytest.importorskip("fastapi")
    from libtext.asgi import Settings, create_app

    slug = store.save(_small(40)).slug
    app = create_app(store=store, settings=Settings())
    messages: list[dict[str, Any]] = []

    asked: list[bool] = []

    async def receive() -> dict[str, Any]:
        if asked:  # the client stays connected: nothing more to say
            import anyio

            await anyio.sleep_forever()
        asked.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": f"/api/texts/{slug}",
        "raw_path": f"/api/texts/{slug}".encode(),
        "query_string": b"format=html",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }
    await app(scope, receive, send)
    bodies = [m for m in messages if m["type"] == "http.response.body" and m.get("body")]
    assert len(bodies) > 40  # one piece per section, and more


# --- the real documents, on every surface --------------------------------------------


@pytest.fixture(scope="module")
def real_docs() -> list[ProcessedDocument]:
    docs = []
    if export_docs.pdf_available():
        docs.append(export_docs.pdf_document())
    if export_docs.library_available():
        docs.append(export_docs.library_document())
    if not docs:
        pytest.skip("../shared/realdata not found (set LIBTEXT_SHARED)")
    return docs


async def test_real_documents_come_out_the_same_on_every_surface(
    client: httpx.AsyncClient, store: TextStore, real_docs: list[ProcessedDocument], tmp_path: Path
) -> None:
    pytest.importorskip("docx")
    for doc in real_docs:
        slug = store.save(doc).slug
        stored = store.get(slug)
        for fmt in FORMATS:
            python = export(stored, fmt) or b""
            r = await client.get(f"/api/texts/{slug}", headers={"Accept": ACCEPTS[fmt]})
            assert r.status_code == 200
            _same_file(r.content, python)
            out = tmp_path / f"{slug}.{fmt}"
            result = _cli(
                "texts", "export", slug, "--format", fmt, "-o", str(out), "--store", store.url
            )
            assert result.exit_code == 0, result.output
            _same_file(out.read_bytes(), python)
