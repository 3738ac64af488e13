"""Every real PDF at hand through the CLI and the HTTP routes: no 5xx, no traceback.

The PDFs are read from ``../shared/realdata/pdfs`` and ``../shared/fixtures`` (never
copied here); the tests skip when they are absent. A PDF either gives valid JSON or,
for bad input (damaged, encrypted, no text), a one-line ``error:`` from the CLI and
a 4xx with an ``ErrorResponse`` body over HTTP. HTTP sends only the files of at most
``HTTP_MAX_PAGES`` pages so that the test stays quick on two cores; the CLI reads all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tests.conftest import FIXTURES, SHARED

from libtext.cli import cli

REALDATA = SHARED / "realdata" / "pdfs"
HTTP_MAX_PAGES = 60


def _pdfs() -> list[Path]:
    found: list[Path] = []
    for folder in (REALDATA, FIXTURES):
        if folder.is_dir():
            found.extend(sorted(folder.glob("*.pdf")))
    return found


PDFS = _pdfs()
needs_pdfs = pytest.mark.skipif(not PDFS, reason=f"no real PDFs at {REALDATA} or {FIXTURES}")


def _page_count(pdf: Path) -> int:
    """Pages by pdfium, 0 for a file it cannot open (bad input: cheap, sent over HTTP)."""
    import pypdfium2

    try:
        doc = pypdfium2.PdfDocument(str(pdf))
    except pypdfium2.PdfiumError:
        return 0
    try:
        return len(doc)
    finally:
        doc.close()


def _valid_json(text: str) -> Any:
    text.encode("utf-8")  # raises on a lone surrogate
    return json.loads(text)


@needs_pdfs
@pytest.mark.parametrize("pdf", PDFS, ids=[p.name for p in PDFS])
def test_cli_extract_json_or_one_line_error(pdf: Path) -> None:
    result = CliRunner().invoke(cli, ["extract", str(pdf), "--format", "json"])
    assert "Traceback" not in result.stdout + result.stderr
    if result.exit_code == 0:
        assert _valid_json(result.stdout)["pages"]
        return
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert isinstance(result.exception, SystemExit)  # handled, not an escaped bug


@needs_pdfs
@pytest.mark.parametrize("pdf", PDFS, ids=[p.name for p in PDFS])
def test_python_api_json_is_valid_utf8_or_a_libtext_error(pdf: Path) -> None:
    from libtext import LibtextError, Outliner, extract_pdf

    try:
        doc = extract_pdf(pdf)
    except LibtextError as exc:  # bad input: a typed error that says what to do
        assert exc.message and "Traceback" not in exc.message
        return
    for page in doc.pages:
        for line in page.lines:
            line.text.encode("utf-8")
    assert _valid_json(doc.model_dump_json())["pages"]
    outline = Outliner().outline(doc)
    assert "outline_segments" in _valid_json(outline.model_dump_json())


@pytest.fixture(scope="module")
def http() -> Iterator[Any]:
    pytest.importorskip("libtext.asgi")
    from fastapi.testclient import TestClient

    from libtext.asgi import Settings, create_app

    app = create_app(settings=Settings(request_timeout=120, store_url="sqlite://"))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


HTTP_PDFS = [p for p in PDFS if _page_count(p) <= HTTP_MAX_PAGES]


@needs_pdfs
@pytest.mark.parametrize("route", ["/api/extract", "/api/outline", "/api/process"])
@pytest.mark.parametrize("pdf", HTTP_PDFS, ids=[p.name for p in HTTP_PDFS])
def test_http_routes_answer_json_or_4xx(http: Any, route: str, pdf: Path) -> None:
    files = {"file": (pdf.name, pdf.read_bytes(), "application/pdf")}
    r = http.post(route, files=files)
    assert r.status_code < 500, r.text[:500]
    assert "Traceback" not in r.text
    body = _valid_json(r.text)
    if r.status_code >= 400:
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    elif route == "/api/extract":
        assert body["pages"]
    elif route == "/api/outline":
        assert "outline_segments" in body
    else:
        assert body["slug"] and "sections" in body["document"]
