"""HTTP adapter throughput next to the framework's ceiling, in the same run.

Starts ``libtext serve`` on 127.0.0.1 over a SQLite store of 10,000 texts, and a
bare Starlette app (same uvicorn settings) that returns constant JSON bodies of
the same sizes as the two libtext responses. Then loads

    GET /api/texts?page=1&pageSize=20
    GET /api/texts/{slug}

on both with the same load generator and prints requests/s, p99 latency and the
ratio libtext / ceiling (goal: >= 50%).

Load generator: ``wrk`` when it is on PATH (Debian: ``apt-get install wrk``),
otherwise an httpx async client (the script says which it used). The httpx client
is itself the bottleneck at a few thousand requests/s, so its ratios understate
the gap; wrk's are the ones to quote.

If ``libtext.store`` is not importable (the store extra or module is missing),
the libtext side runs ``create_app`` under uvicorn over ``SqliteStandIn``, a
minimal sqlite3 store with the same contract, and the output says so.

Usage: python benchmarks/http.py [--texts 10000] [--duration 10] [--connections 32]
"""

from __future__ import annotations

import os
import sys

# This file is named http.py: keep its folder off sys.path so ``import http``
# (used by httpx) finds the standard library.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

import argparse  # noqa: E402
import asyncio  # noqa: E402
import importlib.util  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import httpx  # noqa: E402

from libtext.models import ProcessedDocument, Section, SourceMetadata  # noqa: E402

HAVE_STORE = importlib.util.find_spec("libtext.store") is not None

STAND_IN = textwrap.dedent(
    '''
    import sqlite3, threading
    from datetime import UTC, datetime
    import anyio
    from libtext.errors import InvalidSlugError, NotFoundError
    from libtext.models import PaginatedTextsResponse, PaginationInfo, ProcessedDocument, TextListItem

    class SqliteStandIn:
        """The TextStore contract (save/alist/aget/aping) over sqlite3, for benchmarks only."""

        def __init__(self, path):
            self._db = sqlite3.connect(path, check_same_thread=False)
            self._lock = threading.Lock()
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS texts (slug TEXT PRIMARY KEY, publication_title TEXT,"
                " work_title TEXT, author_name TEXT, page_count INT, created_at TEXT,"
                " updated_at TEXT, document TEXT)")
            self._db.execute("CREATE INDEX IF NOT EXISTS texts_created ON texts (created_at)")

        def save(self, doc, slug):
            now = datetime.now(UTC).isoformat()
            m = doc.source_metadata
            with self._lock, self._db:
                self._db.execute("INSERT INTO texts VALUES (?,?,?,?,?,?,?,?)",
                    (slug, m.publication_title, m.work_title, m.author_name, doc.page_count,
                     now, now, doc.model_dump_json()))
            return slug

        def list(self, page=1, page_size=20):
            with self._lock:
                total = self._db.execute("SELECT COUNT(*) FROM texts").fetchone()[0]
                rows = self._db.execute(
                    "SELECT slug, publication_title, work_title, author_name, page_count,"
                    " created_at, updated_at FROM texts ORDER BY created_at DESC LIMIT ? OFFSET ?",
                    (page_size, (page - 1) * page_size)).fetchall()
            keys = ("slug", "publication_title", "work_title", "author_name", "page_count",
                    "created_at", "updated_at")
            return PaginatedTextsResponse(
                texts=[TextListItem(**dict(zip(keys, r))) for r in rows],
                pagination=PaginationInfo.of(page=page, page_size=page_size, total=total))

        def get(self, slug):
            if not slug.replace("-", "").isalnum():
                raise InvalidSlugError("bad slug")
            with self._lock:
                row = self._db.execute("SELECT document FROM texts WHERE slug=?", (slug,)).fetchone()
            if row is None:
                raise NotFoundError("no such text")
            return ProcessedDocument.model_validate_json(row[0]).public()

        async def alist(self, page=1, page_size=20):
            return await anyio.to_thread.run_sync(self.list, page, page_size)

        async def aget(self, slug):
            return await anyio.to_thread.run_sync(self.get, slug)

        async def aping(self):
            return True

        def close(self):
            self._db.close()
    '''
)

STAND_IN_SERVER = STAND_IN + textwrap.dedent(
    """
    import sys, uvicorn
    from libtext.asgi import Settings, create_app
    app = create_app(store=SqliteStandIn(sys.argv[2]), settings=Settings())
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                access_log=False)
    """
)

CEILING_APP = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route

    LIST = Path(sys.argv[2]).read_bytes()
    ONE = Path(sys.argv[3]).read_bytes()

    async def texts(request):
        return Response(LIST, media_type="application/json")

    async def text(request):
        return Response(ONE, media_type="application/json")

    app = Starlette(routes=[Route("/api/texts", texts), Route("/api/texts/{slug}", text)])
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                access_log=False)
    """
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def fill_store(db: Path, n: int) -> str:
    """Store ``n`` small documents; return the slug of one in the middle."""
    store: Any
    if HAVE_STORE:
        from libtext.store import TextStore

        store = TextStore(f"sqlite:///{db}")
    else:
        namespace: dict[str, Any] = {}
        exec(STAND_IN, namespace)
        store = namespace["SqliteStandIn"](str(db))
    middle = ""
    try:
        for i in range(n):
            doc = ProcessedDocument(
                source_metadata=SourceMetadata(
                    publication_title=f"ליקוטי מוהר״ן {i}",
                    work_title=f"Torah {i}",
                    author_name="רבי נחמן מברסלב",
                ),
                sections=[
                    Section(
                        sequence_id=j,
                        chapter_title=f"פרק {j}",
                        original_hebrew_block="אשרי תמימי דרך ההולכים בתורת ה׳ " * 8,
                    )
                    for j in range(1, 4)
                ],
                page_count=5,
            )
            slug = store.save(doc).slug if HAVE_STORE else store.save(doc, f"text-{i}")
            if i == n // 2:
                middle = slug
    finally:
        store.close()
    return middle


def start(cmd: list[str], port: int, probe: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIBTEXT_")}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"server exited: {' '.join(cmd)}\n{err}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}{probe}", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"server did not start: {' '.join(cmd)}")


def run_wrk(url: str, duration: int, connections: int) -> tuple[float, float]:
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    p99_ms = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise SystemExit(f"{url}: {errors.group(1)} error responses\n{out}")
    return rps, p99_ms


async def _httpx_load(url: str, duration: int, connections: int) -> tuple[float, float]:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        stop = time.perf_counter() + duration

        async def worker() -> None:
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                r = await client.get(url)
                latencies.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    raise SystemExit(f"{url}: HTTP {r.status_code}")

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(connections)))
        elapsed = time.perf_counter() - t0
    p99 = statistics.quantiles(latencies, n=100)[98] * 1000
    return len(latencies) / elapsed, p99


def measure(url: str, tool: str, duration: int, connections: int) -> tuple[float, float]:
    # A short warm-up so both servers are measured hot.
    for _ in range(50):
        httpx.get(url, timeout=10)
    if tool == "wrk":
        return run_wrk(url, duration, connections)
    return asyncio.run(_httpx_load(url, duration, connections))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=10_000)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    args = parser.parse_args()
    tool = "wrk" if shutil.which("wrk") else "httpx"

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        url = f"sqlite:///{db}"
        t0 = time.perf_counter()
        slug = fill_store(db, args.texts)
        print(
            f"store: {args.texts} texts in {time.perf_counter() - t0:.1f} s ({db.stat().st_size // 1024} KiB)"
        )

        lib_port, ceil_port = free_port(), free_port()
        procs: list[subprocess.Popen[bytes]] = []
        try:
            if HAVE_STORE:
                print("libtext side: libtext serve over TextStore")
                cmd = [
                    sys.executable,
                    "-c",
                    "from libtext.cli import main; main()",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(lib_port),
                    "--store",
                    url,
                    "--log-level",
                    "warning",
                    "--no-access-log",
                ]
            else:
                print(
                    "libtext side: libtext.store is not importable, so create_app under "
                    "uvicorn over SqliteStandIn (sqlite3, the TextStore contract)"
                )
                cmd = [sys.executable, "-c", STAND_IN_SERVER, str(lib_port), str(db)]
            procs.append(start(cmd, lib_port, "/api/health"))
            lib = f"http://127.0.0.1:{lib_port}"
            paths = {"list": "/api/texts?page=1&pageSize=20", "one": f"/api/texts/{slug}"}
            bodies = {k: httpx.get(lib + p, timeout=10).content for k, p in paths.items()}
            files = {}
            for key, body in bodies.items():
                files[key] = Path(tmp) / f"{key}.json"
                files[key].write_bytes(body)
            procs.append(
                start(
                    [
                        sys.executable,
                        "-c",
                        CEILING_APP,
                        str(ceil_port),
                        str(files["list"]),
                        str(files["one"]),
                    ],
                    ceil_port,
                    "/api/texts",
                )
            )
            ceil = f"http://127.0.0.1:{ceil_port}"

            print(f"load generator: {tool}" + ("" if tool == "wrk" else " (wrk not found on PATH)"))
            print(
                f"{args.connections} connections, {args.duration} s per run, 1 uvicorn worker each, {os.cpu_count()} CPUs"
            )
            print()
            print(
                f"{'route':<36} {'bytes':>6} {'libtext rps':>12} {'p99 ms':>8} {'ceiling rps':>12} {'p99 ms':>8} {'ratio':>7}"
            )
            for key, path in paths.items():
                lib_rps, lib_p99 = measure(lib + path, tool, args.duration, args.connections)
                ceil_rps, ceil_p99 = measure(ceil + path, tool, args.duration, args.connections)
                shown = path if key == "list" else "/api/texts/{slug}"
                print(
                    f"GET {shown:<32} {len(bodies[key]):>6} {lib_rps:>12.0f} {lib_p99:>8.1f} "
                    f"{ceil_rps:>12.0f} {ceil_p99:>8.1f} {lib_rps / ceil_rps:>6.0%}"
                )
            print()
            print("ratio = libtext requests/s / bare Starlette requests/s (goal >= 50%)")
        finally:
            for proc in procs:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


if __name__ == "__main__":
    main()
