"""Every ``curl`` of docs/http.md works against ``libtext serve``, as written.

Each bash block that has curl lines runs against a real server on 127.0.0.1 started
the way the block says (``LIBTEXT_API_KEY=change-me libtext serve``, or plainly), from
a folder holding ``examples/sample.pdf``; the online library is the fake of
``test_docs_examples``. Only the port differs from the page.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.served import serve, stop
from tests.test_docs_examples import fake_library

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "http.md"
DOC_BASE = "http://127.0.0.1:8000"


def curl_blocks() -> list[tuple[dict[str, str], list[str]]]:
    """(server environment, curl lines) of each bash block with curl lines."""
    out = []
    for block in re.findall(r"^```bash\n(.*?)^```", PAGE.read_text("utf-8"), flags=re.S | re.M):
        lines = block.strip().splitlines()
        curls = [ln for ln in lines if ln.startswith("curl ")]
        if not curls:
            continue
        env: dict[str, str] = {}
        for line in lines:
            words = shlex.split(line)
            if "libtext" in words and "serve" in words:
                env = dict(w.split("=", 1) for w in words[: words.index("libtext")])
        out.append((env, curls))
    return out


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "sample.pdf", tmp_path / "examples" / "sample.pdf")
    return tmp_path


@pytest.fixture
def library() -> Iterator[str]:
    with fake_library() as url:
        yield url


def test_the_page_has_curls_for_every_kind_of_route() -> None:
    routes = " ".join(c for _, curls in curl_blocks() for c in curls)
    for route in ("/api/search", "/api/outline", "/api/process", "/api/texts", "/api/translate"):
        assert route in routes


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_every_curl_of_the_page_works(folder: Path, library: str) -> None:
    pytest.importorskip("libtext.asgi")
    for env, curls in curl_blocks():
        args = ["--store", f"sqlite:///{folder / 'texts.db'}", "--log-level", "warning"]
        proc, base = serve(args, env={**env, "LIBTEXT_LIBRARY_URL": library}, cwd=folder)
        try:
            for line in curls:
                args = [a.replace(DOC_BASE, base) for a in shlex.split(line)]
                assert any(base in a for a in args), line
                done = subprocess.run(
                    [*args, "-sS", "-o", str(folder / "body"), "-w", "%{http_code}"],
                    cwd=folder,
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
                body = (folder / "body").read_text("utf-8", errors="replace")
                assert done.returncode == 0, (line, done.stderr)
                assert done.stdout.startswith("2"), (line, done.stdout, body[:500])
        finally:
            stop(proc)
