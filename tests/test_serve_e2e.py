"""``libtext serve`` end to end: a real uvicorn process on 127.0.0.1.

Processes the sample PDF with the offline provider, lists the stored texts and
fetches the new one by slug, all over real HTTP.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from libtext.cli import cli


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    pytest.importorskip("libtext.store")
    pytest.importorskip("libtext.process")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIBTEXT_")}
    cmd = [
        sys.executable,
        "-c",
        "from libtext.cli import main; main()",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--store",
        f"sqlite:///{tmp_path / 'served.db'}",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read().decode() if proc.stdout else ""
                pytest.fail(f"libtext serve exited with {proc.returncode}:\n{out}")
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("libtext serve did not answer within 30 s")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()


def test_process_list_fetch_over_http(server: str, fixtures_dir: Path) -> None:
    pdf = (fixtures_dir / "small.pdf").read_bytes()
    with httpx.Client(base_url=server, timeout=120) as http:
        health = http.get("/api/health").json()
        assert health["store"] == "ok" and health["providers"] == ["offline"]

        r = http.post(
            "/api/process",
            params={"providers": "offline"},
            files={"file": ("small.pdf", pdf, "application/pdf")},
        )
        assert r.status_code == 200, r.text
        created = r.json()
        slug = created["slug"]
        assert created["document"]["sections"]

        listed = http.get("/api/texts", params={"page": 1, "pageSize": 20}).json()
        assert listed["pagination"]["total"] == 1
        assert [t["slug"] for t in listed["texts"]] == [slug]

        fetched = http.get(f"/api/texts/{slug}")
        assert fetched.status_code == 200
        assert fetched.json() == created["document"]
        assert fetched.json()["work_id"] is None

        missing = http.get("/api/texts/no-such-slug-here")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_serve_help_lists_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0, result.output
    for option in ("--host", "--port", "--store", "--workers"):
        assert option in result.output
