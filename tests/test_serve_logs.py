"""What ``libtext serve`` tells its operator: the store and queue at start, one line per
job state change, and no line per offline provider call."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("sqlmodel")

from tests.served import serving

SAMPLE = Path(__file__).resolve().parents[1] / "examples" / "sample.pdf"


def test_serve_logs_store_queue_and_each_job_state(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    url = f"sqlite:///{tmp_path / 'texts.db'}"
    with log.open("wb") as out:
        args = ["--store", url, "--no-access-log", "--jobs-workers", "1"]
        with serving(args, stdout=out, output=log.read_text) as (_, base):
            r = httpx.post(
                f"{base}/api/process",
                files={"file": ("sample.pdf", SAMPLE.read_bytes(), "application/pdf")},
                headers={"Prefer": "respond-async"},
                timeout=60,
            )
            assert r.status_code == 202, r.text
            job_id = r.json()["id"]
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                state = httpx.get(f"{base}/api/jobs/{job_id}", timeout=30).json()["state"]
                if state not in ("queued", "running"):
                    break
                time.sleep(0.2)
            assert state == "succeeded"
            time.sleep(0.3)  # the last line reaches the file
    text = log.read_text()
    assert f"libtext: store {url}; job queue embedded" in text, text
    assert "1 job worker(s) in this process" in text
    for what in ("queued: sample.pdf, provider offline", "running: sample.pdf", "succeeded"):
        assert f"job {job_id} {what}" in text, text
    assert sum(f"job {job_id}" in line for line in text.splitlines()) == 3  # one per state
    assert "provider=offline" not in text  # offline calls are DEBUG only
