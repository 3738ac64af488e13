"""``libtext serve`` end to end: a real uvicorn process on 127.0.0.1.

Processes the sample PDF with the offline provider, lists the stored texts and
fetches the new one by slug, all over real HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from tests.served import serving

from libtext.cli import cli


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    pytest.importorskip("libtext.store")
    pytest.importorskip("libtext.process")
    args = ["--host", "127.0.0.1", "--store", f"sqlite:///{tmp_path / 'served.db'}"]
    with serving([*args, "--log-level", "warning"]) as (_, base):
        yield base


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
