"""Jobs over HTTP: what the 202 answer saves the client, and what following a job costs.

Starts ``libtext serve`` on 127.0.0.1 (SQLite store, offline provider, one in-process
job worker) over a fake online library on 127.0.0.1 that serves a work of
``--pages`` pages, then, in the same run:

* ``POST /api/process`` answered synchronously (the whole run inside the request)
  against ``POST /api/process?wait=false`` (``202 Accepted`` with the job): median
  latency of each and their ratio;
* end to end through the queue: from the 202 to the ``succeeded`` event read on
  ``GET /api/jobs/{id}/events``, against the synchronous request's latency: the
  queue's overhead per job as the client sees it (a worker's poll for work, the
  stream's poll for events);
* event delivery: for every event read on the stream, the time between the event's
  ``at`` and its arrival at the client (median and p95).

Usage: python benchmarks/jobs_http.py [--runs 8] [--pages 6]
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py would shadow the standard library's http: keep this folder off
# sys.path, and put the repository root on it (for tests.served).
_here = os.path.dirname(os.path.abspath(__file__))
_root = os.path.dirname(_here)
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
sys.path.insert(0, _root)

import argparse  # noqa: E402
import contextlib  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from datetime import datetime  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import httpx  # noqa: E402
from tests.library_server import serve_library  # noqa: E402
from tests.served import serving  # noqa: E402


def work_tree(pages: int) -> dict[str, Any]:
    root = "7100000000"
    children = [{"id": f"71000001{i:02d}", "heading": f"פרק {i + 1}"} for i in range(pages)]
    tree: dict[str, Any] = {root: {"content": {"type": "children", "data": children}}}
    for i, child in enumerate(children):
        text = f"<h2>פרק {i + 1}</h2><p>" + "ויאמר אלהים יהי אור ויהי אור. " * 40 + "</p>"
        tree[child["id"]] = {"content": {"type": "page", "data": {"text": text}}}
    return tree


def fake_library(tree: dict[str, Any]) -> contextlib.AbstractContextManager[str]:
    return serve_library(lambda node: tree.get(node, {"content": None}))


def follow(client: httpx.Client, location: str) -> tuple[float, list[float]]:
    """Read the job's events to the end: (when the last arrived, each event's lag in s)."""
    lags: list[float] = []
    data = ""
    with client.stream("GET", location + "/events") as response:
        for line in response.iter_lines():
            if line.startswith("data:"):
                data = line[5:].strip()
            elif not line and data:
                event = json.loads(data)
                at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
                lags.append(time.time() - at)
                data = ""
    return time.perf_counter(), lags


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=8)
    parser.add_argument("--pages", type=int, default=6)
    args = parser.parse_args()
    body = {"work_id": "7100000000"}
    sync_s: list[float] = []
    accept_s: list[float] = []
    end_to_end_s: list[float] = []
    lags: list[float] = []
    with (
        tempfile.TemporaryDirectory() as tmp,
        fake_library(work_tree(args.pages)) as library,
    ):
        env = {"LIBTEXT_LIBRARY_URL": library, "LIBTEXT_JOBS_WORKERS": "1"}
        store = ["--store", f"sqlite:///{Path(tmp) / 'texts.db'}", "--log-level", "warning"]
        with (
            serving([*store, "--no-access-log"], env=env) as (_, base),
            httpx.Client(base_url=base, timeout=120) as client,
        ):
            client.post("/api/process", json=body).raise_for_status()  # warm both paths
            client.post("/api/process?wait=false", json=body).raise_for_status()
            time.sleep(2)
            for _ in range(args.runs):
                start = time.perf_counter()
                client.post("/api/process", json=body).raise_for_status()
                sync_s.append(time.perf_counter() - start)

                start = time.perf_counter()
                r = client.post("/api/process", json=body, headers={"Prefer": "respond-async"})
                accepted = time.perf_counter()
                assert r.status_code == 202, r.text
                accept_s.append(accepted - start)
                done, job_lags = follow(client, r.headers["location"])
                end_to_end_s.append(done - start)
                lags.extend(job_lags)
                final = client.get(r.headers["location"]).json()
                assert final["state"] == "succeeded", final

    def ms(values: list[float]) -> str:
        return f"{statistics.median(values) * 1000:8.1f} ms"

    sync, accept, e2e = (statistics.median(v) for v in (sync_s, accept_s, end_to_end_s))
    p95 = sorted(lags)[max(0, int(len(lags) * 0.95) - 1)]
    print(f"work of {args.pages} pages, offline provider, {args.runs} runs (medians)")
    print(f"  POST /api/process (synchronous)        {ms(sync_s)}")
    print(f"  POST /api/process (respond-async, 202) {ms(accept_s)}  ratio {accept / sync:.3f}")
    print(
        f"  202 -> 'succeeded' event on the stream {ms(end_to_end_s)}  "
        f"ratio {e2e / sync:.2f}, +{(e2e - sync) * 1000:.0f} ms per job"
    )
    print(
        f"  event delivery lag: median {statistics.median(lags) * 1000:.0f} ms, "
        f"p95 {p95 * 1000:.0f} ms over {len(lags)} events"
    )


if __name__ == "__main__":
    main()
