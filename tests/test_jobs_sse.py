"""A job's events read through a real ``libtext serve``, with a reconnect in the middle.

The server runs its own worker (``LIBTEXT_JOBS_WORKERS=1``) and reads a library
work from a fake library on 127.0.0.1 whose page waits for the test's signal, so
the job is certainly still running when the client drops its first connection.
The client then reconnects with ``Last-Event-ID`` and reads to the end: every event
once, ids 1, 2, 3, ... without a gap, the last one the final state.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.library_server import serve_library
from tests.served import serving

pytest.importorskip("libtext.asgi")
pytest.importorskip("libtext.jobs")

TREE: dict[str, Any] = {
    "5100000000": {
        "content": {
            "type": "children",
            "data": [
                {"id": "5100000001", "heading": "פרק א"},
                {"id": "5100000002", "heading": "פרק ב"},
            ],
        }
    },
    "5100000001": {
        "content": {"type": "page", "data": {"text": "<h2>פרק א</h2><p>בראשית ברא אלהים.</p>"}}
    },
    "5100000002": {
        "content": {"type": "page", "data": {"text": "<h2>פרק ב</h2><p>ויכלו השמים והארץ.</p>"}}
    },
}


@contextlib.contextmanager
def gated_library(gate: threading.Event) -> Iterator[str]:
    """The library above; its pages are answered only once ``gate`` is set."""

    def answer(node: str) -> Any:
        body = TREE.get(node, {"content": None})
        if body.get("content", {}) and body["content"]["type"] == "page":
            gate.wait(60)
        return body

    with serve_library(answer) as url:
        try:
            yield url
        finally:
            gate.set()


def read_events(
    client: httpx.Client, url: str, headers: dict[str, str], until: str | None = None
) -> tuple[list[dict[str, Any]], bool]:
    """Events of one connection: up to the first ``state`` event ``until`` (then the
    client hangs up), or to the end of the stream. Also whether the server ended it."""
    events: list[dict[str, Any]] = []
    fields: dict[str, str] = {}
    with client.stream("GET", url, headers=headers) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line:
                if not line.startswith(":"):
                    name, _, value = line.partition(":")
                    fields[name] = value.removeprefix(" ")
                continue
            if "data" in fields:
                event = {**fields, "data": json.loads(fields["data"])}
                events.append(event)
                if until and event["event"] == "state" and event["data"]["state"] == until:
                    return events, False
            fields = {}
    return events, True


def test_events_from_start_to_finish_with_a_reconnect(tmp_path: Path) -> None:
    gate = threading.Event()
    db = tmp_path / "texts.db"
    with gated_library(gate) as library:
        env = {"LIBTEXT_LIBRARY_URL": library, "LIBTEXT_JOBS_WORKERS": "1"}
        args = ["--store", f"sqlite:///{db}", "--log-level", "warning"]
        with serving(args, env=env) as (_, base), httpx.Client(base_url=base, timeout=60) as c:
            r = c.post(
                "/api/process", json={"work_id": "5100000000"}, headers={"Prefer": "respond-async"}
            )
            assert r.status_code == 202, r.text
            url = r.headers["location"] + "/events"

            first, ended = read_events(c, url, {}, until="running")
            assert not ended, first
            assert [e["data"]["state"] for e in first if e["event"] == "state"] == [
                "queued",
                "running",
            ]
            # The page is held back: the job is running, and stays so while we are away.
            assert c.get(r.headers["location"]).json()["state"] == "running"
            gate.set()

            last = first[-1]["id"]
            rest, ended = read_events(c, url, {"Last-Event-ID": last})
            assert ended  # the server closes the stream after the final state

        events = first + rest
        ids = [int(e["id"]) for e in events]
        assert ids == list(range(1, len(ids) + 1)), ids  # nothing missed, nothing twice
        assert int(rest[0]["id"]) == int(last) + 1
        final = events[-1]
        assert final["event"] == "state"
        assert final["data"]["state"] == "succeeded"
        assert any(e["event"] == "progress" for e in rest)
        assert all(e["data"]["jobId"] == r.json()["id"] for e in events)
        for event in events:
            assert event["event"] == event["data"]["type"]
            assert int(event["id"]) == event["data"]["id"]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl_reads_the_stream_to_its_end(tmp_path: Path) -> None:
    """The docs' curl line: ``curl -N`` prints the events and returns when the job is over."""
    import subprocess

    gate = threading.Event()
    gate.set()
    with gated_library(gate) as library:
        env = {"LIBTEXT_LIBRARY_URL": library, "LIBTEXT_JOBS_WORKERS": "1"}
        args = ["--store", f"sqlite:///{tmp_path / 'texts.db'}", "--log-level", "warning"]
        with serving(args, env=env) as (_, base):
            job = httpx.post(f"{base}/api/process?wait=false", json={"work_id": "5100000000"})
            done = subprocess.run(
                ["curl", "-sSN", f"{base}/api/jobs/{job.json()['id']}/events"],
                capture_output=True,
                text=True,
                timeout=60,
            )
    assert done.returncode == 0, done.stderr
    assert "event: state" in done.stdout
    assert '"state":"succeeded"' in done.stdout.replace(" ", "")
