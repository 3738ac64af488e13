"""Every fenced Python block of docs/ and the README runs as written.

Each page's blocks run in order in one namespace (a later block may use an earlier
one's names), in a temporary folder holding ``examples/sample.pdf``. Nothing reaches
the network: the online library is a small fake served on 127.0.0.1
(``LIBTEXT_LIBRARY_URL``), OpenAI-style models talk to a fake server that refuses
the key (``OPENAI_BASE_URL``), and the store URL points into the temporary folder.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from tests.fake_llm import FakeLLMServer, FakeReply, error_body

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", flags=re.S | re.M)


def python_blocks(page: Path) -> list[str]:
    return FENCE.findall(page.read_text(encoding="utf-8"))


def _children(*entries: tuple[str, str]) -> dict[str, Any]:
    return {"content": {"type": "children", "data": [{"id": i, "heading": h} for i, h in entries]}}


def _page(html: str, haoros: str = "") -> dict[str, Any]:
    return {"content": {"type": "page", "data": {"text": html, "haoros": haoros}}}


# A corner of the library: Tanya (a known work) with three chapters.
LIBRARY: dict[str, Any] = {
    "3400000000": _children(
        ("3400000031", "פרק לא"), ("3400000032", "פרק לב"), ("3400000033", "פרק לג")
    ),
    "3400000031": _page("<h2>פרק לא</h2><p>והנה גם כשיתבונן האדם.</p>"),
    "3400000032": _page(
        "<h2>פרק לב</h2><p>והנה על ידי קיום הדברים הנ״ל[ftnref_1_1] להיות גופו נבזה.</p>",
        "[ftn_1_1]) ראה לעיל פרק לא.",
    ),
    "3400000033": _page("<h2>פרק לג</h2><p>עוד זאת תהיה שמחת הנפש האמיתית.</p>"),
}


class _Library(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path.endswith("/api/search"):  # the real answer's shape: mafteach_id, tree, text
            hit = {
                "mafteach_id": 3400000032,
                "tree": "<a>תניא</a> / <a>ליקוטי אמרים</a> / <a>פרק לב</a>",
                "text": LIBRARY["3400000032"]["content"]["data"]["text"],
            }
            body: Any = {"results": [hit], "count": 1}
        elif url.path.endswith("/api/statistics"):
            body = [{"section_id": 3400000000, "count": 1}]
        else:
            node = (query.get("path") or query.get("id") or [""])[0].lstrip("/")
            body = LIBRARY.get(node, _children())  # other works: empty tables of contents
        data = json.dumps(body, ensure_ascii=False).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@contextlib.contextmanager
def fake_library() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Library)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/books"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "sample.pdf", tmp_path / "examples" / "sample.pdf")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # "~/.cache/..." stays in here
    monkeypatch.setenv("LIBTEXT_DATABASE_URL", f"sqlite:///{tmp_path / 'default.db'}")
    monkeypatch.setenv("LIBTEXT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-docs-example")
    with (
        FakeLLMServer(
            responder=lambda _body: FakeReply(status=401, body=error_body("Incorrect API key"))
        ) as llm,
        fake_library() as library,
    ):
        monkeypatch.setenv("OPENAI_BASE_URL", llm.url)
        monkeypatch.setenv("OPENAI_API_BASE", llm.url)
        monkeypatch.setenv("LIBTEXT_LIBRARY_URL", library)
        yield tmp_path


def test_every_page_with_python_has_its_blocks_found() -> None:
    counted = {p.name: len(python_blocks(p)) for p in PAGES}
    raw = {p.name: p.read_text(encoding="utf-8").count("```python") for p in PAGES}
    assert counted == raw
    assert sum(counted.values()) >= 20


@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)], ids=lambda p: p.name)
def test_python_blocks_run(page: Path, sandbox: Path) -> None:
    namespace: dict[str, Any] = {"__name__": f"docs_{page.stem}"}
    for i, block in enumerate(python_blocks(page)):
        code = compile(block, f"{page.relative_to(ROOT)} (block {i + 1})", "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, namespace)
    if page.name == "outline.md":  # the page shows two chapters from outline_text
        assert len(namespace["chapters"].outline_segments) == 2
