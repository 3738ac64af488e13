"""Every ``curl`` of docs/http.md works against ``libtext serve``, as written.

Each bash block that has curl lines runs against a real server on 127.0.0.1 started
the way the block says (``LIBTEXT_API_KEY=change-me libtext serve``, or plainly), from
a folder holding ``examples/sample.pdf``; the online library is the fake of
``test_docs_examples``. Only the port differs from the page.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.test_docs_examples import fake_library
from tests.test_serve_e2e import free_port

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


def serve(
    folder: Path, extra_env: dict[str, str], library: str
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIBTEXT_")}
    env.update(extra_env, LIBTEXT_LIBRARY_URL=library)
    cmd = [
        sys.executable,
        "-c",
        "from libtext.cli import main; main()",
        "serve",
        "--port",
        str(port),
    ]
    cmd += ["--store", f"sqlite:///{folder / 'texts.db'}", "--log-level", "warning"]
    proc = subprocess.Popen(
        cmd, env=env, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            pytest.fail(f"libtext serve exited with {proc.returncode}:\n{out}")
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("libtext serve did not answer within 30 s")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()
        proc.wait()


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
        proc, base = serve(folder, env, library)
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
