"""HTTP adapter throughput next to the framework's ceiling, in the same run.

Starts ``libtext serve`` on 127.0.0.1 over a SQLite store of 10,000 texts, and a
bare Starlette app (same uvicorn settings) that returns constant JSON bodies of
the same sizes as the two libtext responses. Then loads

    GET /api/texts?page=1&pageSize=20
    GET /api/texts/{slug}

on both with the same load generator and prints requests/s, p99 latency and the
ratio libtext / ceiling (goal: >= 50%).

Load generator: ``wrk`` when it is on PATH (Debian: ``apt-get install wrk``),
otherwise an httpx async client (the script says which it used); the mixed run alone
(``--mixed-only``) uses a raw asyncio keep-alive client instead. The httpx client
is itself the bottleneck at a few thousand requests/s, so its ratios understate
the gap; wrk's are the ones to quote.

To tell the adapter's cost from the cache's and the store's, it also times the
calls behind the two routes directly (on the same file, median in this process):
the read-cache hits the routes serve (``CachedReads.hit`` of
``libtext.asgi._cache``: the store's ``data_version`` and the LRU), whose share of
a libtext request it prints, and for reference the uncached ``TextStore.list`` /
``TextStore.get`` a miss costs.

Mixed run (issue 17): the same GET load on ``GET /api/texts/{slug}`` alone, then with one
PDF upload a second to ``POST /api/extract`` from a process of its own (``--upload``, default
``../shared/fixtures/big.pdf``); prints both p99 latencies and requests/s, the p99 ratio
(goal <= 2x) and the throughput ratio (goal >= 70%). ``--mixed-only`` skips the ceiling
table.

Usage: python benchmarks/http.py [--texts 10000] [--duration 10] [--connections 32]
       [--mixed-only] [--upload PATH]
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
import re  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import textwrap  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import httpx  # noqa: E402

from libtext.models import ProcessedDocument, Section, SourceMetadata  # noqa: E402
from libtext.store import TextStore  # noqa: E402

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


def fill_store(store: TextStore, n: int) -> str:
    """Save ``n`` small documents through ``TextStore.save``; return a slug from the middle."""
    middle = ""
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
        slug = store.save(doc).slug
        if i == n // 2:
            middle = slug
    return middle


def store_medians_us(store: TextStore, slug: str, repeat: int = 300) -> dict[str, float]:
    """Median time of the calls behind the two routes, interleaved."""
    from libtext.asgi import Settings, create_app
    from libtext.asgi._routes import cached_routes

    settings = Settings()
    reads = create_app(store=store, settings=settings).state.backend.reads
    list_route, one_route = cached_routes(settings)
    list_args = {"page": 1, "page_size": 20}
    one_args = {"slug": slug, "revision": None}

    async def fill() -> None:
        await reads.serve(list_route, list_args)
        await reads.serve(one_route, one_args)

    asyncio.run(fill())
    assert reads.hit(list_route, list_args) and reads.hit(one_route, one_args), "no cache hits"
    calls: dict[str, Callable[[], object]] = {
        "list": lambda: reads.hit(list_route, list_args),
        "one": lambda: reads.hit(one_route, one_args),
        "list uncached": lambda: store.list(page=1, page_size=20),
        "one uncached": lambda: store.get(slug),
    }
    times: dict[str, list[float]] = {k: [] for k in calls}
    for _ in range(repeat):
        for key, call in calls.items():
            t0 = time.perf_counter()
            call()
            times[key].append(time.perf_counter() - t0)
    return {k: statistics.median(v) * 1e6 for k, v in times.items()}


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


async def _raw_load(url: str, duration: int, connections: int) -> tuple[float, float]:
    """Keep-alive GETs over raw asyncio streams: a client that costs far less than the
    server it loads (httpx's own cost hides the server's at a few thousand requests/s)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    request = f"GET {target} HTTP/1.1\r\nHost: {parts.hostname}\r\n\r\n".encode()
    latencies: list[float] = []
    stop = time.perf_counter() + duration

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        try:
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                if not head.startswith(b"HTTP/1.1 200"):
                    status = head.split(b"\r\n", 1)[0]
                    raise SystemExit(f"{url}: {status!r}")
                found = re.search(rb"(?i)content-length:\s*(\d+)", head)
                assert found is not None
                length = int(found.group(1))
                await reader.readexactly(length)
                latencies.append(time.perf_counter() - t0)
        finally:
            writer.close()

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
    if tool == "raw":
        return asyncio.run(_raw_load(url, duration, connections))
    return asyncio.run(_httpx_load(url, duration, connections))


def default_upload() -> Path | None:
    shared = Path(os.environ.get("LIBTEXT_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    for name in ("big.pdf", "book.pdf", "small.pdf"):
        if (shared / "fixtures" / name).is_file():
            return shared / "fixtures" / name
    return None


UPLOADER = textwrap.dedent(
    """
    import signal, sys, time
    import httpx

    url, path = sys.argv[1], sys.argv[2]
    files = {"file": ("upload.pdf", open(path, "rb").read(), "application/pdf")}
    stopping = []
    # SIGTERM ends the loop after the upload in flight: its work ends in this round.
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    with httpx.Client(timeout=120) as client:
        while not stopping:
            t0 = time.perf_counter()
            status = client.post(url, files=files).status_code
            spent = time.perf_counter() - t0
            print(status, spent, flush=True)
            while not stopping and time.perf_counter() - t0 < 1.0:
                time.sleep(0.02)
    """
)


class Uploader:
    """One ``POST /api/extract`` a second, in a process of its own, until stopped.

    Not a thread of the load generator: building a multipart body of megabytes and
    reading the JSON answer would hold the generator's GIL, and the GETs it could not
    send would be counted against the server.
    """

    def __init__(self, url: str, pdf: Path) -> None:
        self.url, self.pdf = url, pdf
        self.statuses: list[int] = []
        self.seconds: list[float] = []
        self._proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> Uploader:
        cmd = [sys.executable, "-c", UPLOADER, self.url, str(self.pdf)]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._proc is not None
        self._proc.terminate()  # stops after the upload in flight, waited for here
        out, _ = self._proc.communicate()
        for line in out.splitlines():
            status, seconds = line.split()
            self.statuses.append(int(status))
            self.seconds.append(float(seconds))


def mixed_run(base: str, path: str, pdf: Path, tool: str, args: argparse.Namespace) -> None:
    url = base + path
    httpx.post(
        base + "/api/extract",
        files={"file": ("u.pdf", pdf.read_bytes(), "application/pdf")},
        timeout=120,
    ).raise_for_status()  # workers warm, the PDF readable
    alone, mixed = [], []
    statuses: list[int] = []
    seconds: list[float] = []
    for _ in range(args.rounds):
        alone.append(measure(url, tool, args.duration, args.connections))
        with Uploader(base + "/api/extract", pdf) as up:
            mixed.append(measure(url, tool, args.duration, args.connections))
        statuses += up.statuses
        seconds += up.seconds
    (rps_a, p99_a), (rps_m, p99_m) = max(alone), max(mixed)
    print()
    print(
        f"mixed run: GET /api/texts/{{slug}}, a {pdf.stat().st_size // 1024} KiB PDF uploaded "
        "once a second (or as soon as the last one is answered) by another process"
    )
    print(f"{'':<24} {'rps':>8} {'p99 ms':>8}")
    print(f"{'GET only':<24} {rps_a:>8.0f} {p99_a:>8.1f}")
    print(f"{'GET + 1 upload/s':<24} {rps_m:>8.0f} {p99_m:>8.1f}")
    ok = sum(1 for s in statuses if s == 200)
    median = statistics.median(seconds) if seconds else float("nan")
    print(
        f"uploads: {len(statuses)} answered in {args.rounds * args.duration} s, {ok} with 200, "
        f"median {median:.2f} s each"
    )
    print(
        f"p99 ratio {p99_m / p99_a:.2f}x (goal <= 2x), "
        f"throughput ratio {rps_m / rps_a:.0%} (goal >= 70%)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=10_000)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument(
        "--rounds", type=int, default=2, help="alternate libtext/ceiling runs; best of each"
    )
    parser.add_argument("--mixed-only", action="store_true", help="skip the ceiling table")
    parser.add_argument("--upload", type=Path, default=None, help="PDF of the mixed run")
    args = parser.parse_args()
    tool = "wrk" if shutil.which("wrk") else "raw" if args.mixed_only else "httpx"
    upload = args.upload or default_upload()

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        url = f"sqlite:///{db}"
        t0 = time.perf_counter()
        with TextStore(url) as store:
            slug = fill_store(store, args.texts)
            fill_s = time.perf_counter() - t0
            store_us = store_medians_us(store, slug)
        size_kib = db.stat().st_size // 1024
        print(
            f"store: {args.texts} texts saved with TextStore.save in {fill_s:.1f} s ({size_kib} KiB)"
        )

        lib_port, ceil_port = free_port(), free_port()
        procs: list[subprocess.Popen[bytes]] = []
        try:
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
            procs.append(start(cmd, lib_port, "/api/health"))
            lib = f"http://127.0.0.1:{lib_port}"
            paths = {"list": "/api/texts?page=1&pageSize=20", "one": f"/api/texts/{slug}"}
            bodies = {k: httpx.get(lib + p, timeout=10).content for k, p in paths.items()}
            files = {}
            for key, body in bodies.items():
                files[key] = Path(tmp) / f"{key}.json"
                files[key].write_bytes(body)
            note = "" if tool == "wrk" else " (wrk not found on PATH)"
            if upload is not None:
                print(f"load generator: {tool}{note}")
                mixed_run(lib, paths["one"], upload, tool, args)
            else:
                print("mixed run skipped: no PDF (--upload, or ../shared/fixtures)")
            if args.mixed_only:
                return
            print()
            ceiling_cmd = [
                sys.executable,
                "-c",
                CEILING_APP,
                str(ceil_port),
                str(files["list"]),
                str(files["one"]),
            ]
            procs.append(start(ceiling_cmd, ceil_port, "/api/texts"))
            ceil = f"http://127.0.0.1:{ceil_port}"

            note = "" if tool == "wrk" else " (wrk not found on PATH)"
            print(f"load generator: {tool}{note}")
            print(
                f"{args.connections} connections, {args.duration} s per run, best of "
                f"{args.rounds} alternating runs, 1 uvicorn worker each, {os.cpu_count()} CPUs"
            )
            print()
            print(
                f"{'route':<36} {'bytes':>6} {'libtext rps':>12} {'p99 ms':>8} "
                f"{'ceiling rps':>12} {'p99 ms':>8} {'ratio':>7} {'store':>7}"
            )
            for key, path in paths.items():
                lib_runs, ceil_runs = [], []
                for _ in range(args.rounds):
                    lib_runs.append(measure(lib + path, tool, args.duration, args.connections))
                    ceil_runs.append(measure(ceil + path, tool, args.duration, args.connections))
                lib_rps, lib_p99 = max(lib_runs)
                ceil_rps, ceil_p99 = max(ceil_runs)
                # One worker is saturated: it spends 1/rps per request, store_us of it in the store.
                share = store_us[key] * lib_rps / 1e6
                shown = path if key == "list" else "/api/texts/{slug}"
                print(
                    f"GET {shown:<32} {len(bodies[key]):>6} {lib_rps:>12.0f} {lib_p99:>8.1f} "
                    f"{ceil_rps:>12.0f} {ceil_p99:>8.1f} {lib_rps / ceil_rps:>6.0%} {share:>6.0%}"
                )
            print()
            print("ratio = libtext requests/s / bare Starlette requests/s (goal >= 50%)")
            print(
                "store = share of a libtext request spent in the store call itself, a "
                f"read-cache hit (list {store_us['list']:.0f} us, get {store_us['one']:.0f} us "
                "median, timed directly)"
            )
            print(
                "uncached, as on a miss: TextStore.list "
                f"{store_us['list uncached']:.0f} us, TextStore.get "
                f"{store_us['one uncached']:.0f} us"
            )
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
