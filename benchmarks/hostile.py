"""Hostile PDFs against a real ``libtext serve``: answer, peak memory, time to usable.

Starts ``libtext serve`` on 127.0.0.1 and uploads each PDF of ``tests/hostile_pdfs.py``
(a Flate stream inflating to 2 GiB, 100,000 pages, 2,000 pages sharing one stream,
deep and cyclic references, an xref loop) to ``POST /api/extract``. For each it
prints the status and error code, the time to the answer, the peak RSS of the server
and its PDF workers together (sampled every 20 ms), and the time until a small valid
PDF is extracted right after, against the same small extract timed before any attack
(the baseline of this run).

Before issue 17 (parsing in server threads, no memory cap) the Flate bomb drove the
server to 8-14 GB until killed, 100,000 pages to 3.9 GB, 2,000 pages sharing a stream
to 1.2 GB, and a timed-out parse kept blocking the next extract (504 or no answer).

Then the long-line PDF, a queue flood, a hung database, and three connection floods
(slow bodies, idle sockets, event streams) against ``--limit-concurrency 64``: the share
of health calls answered within 1 s and of normal GETs served while each lasts.

    python benchmarks/hostile.py [--memory-mb 1024] [--timeout 120] [--max-stream-bytes N]
                                 [--flood-seconds 15] [--floods-only]
"""

from __future__ import annotations

import os
import sys

# benchmarks/http.py would shadow the standard library's http (used by httpx).
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]

import argparse  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import httpx  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import hostile_pdfs  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def tree_rss(pid: int) -> int:
    total = rss(pid)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                total += rss(int(entry.name))
    return total


def start_server(db: Path, env: dict[str, str], *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    """``libtext serve`` on a free port of 127.0.0.1 over the SQLite file ``db``, once
    its health answers: the process and its base URL."""
    port = free_port()
    cmd = [
        sys.executable, "-c", "from libtext.cli import main; main()", "serve",
        "--port", str(port), "--store", f"sqlite:///{db}", "--log-level", "warning",
        "--no-access-log", *extra,
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.TransportError:
            time.sleep(0.1)


def upload(base: str, data: bytes) -> tuple[httpx.Response, float, int, int]:
    """The response, seconds, peak tree RSS while it ran, server pid's RSS after."""
    import threading

    peak = 0
    stop = threading.Event()
    pid = int(os.environ["_HOSTILE_PID"])

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            peak = max(peak, tree_rss(pid))
            stop.wait(0.02)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    t0 = time.perf_counter()
    try:
        r = httpx.post(
            f"{base}/api/extract",
            files={"file": ("doc.pdf", data, "application/pdf")},
            timeout=600,
        )
    finally:
        stop.set()
        thread.join()
    return r, time.perf_counter() - t0, peak, rss(pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory-mb", type=int, default=1024)
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument(
        "--max-stream-bytes",
        type=int,
        default=None,
        help="raise the inflate pre-check (e.g. 8589934592) to see the memory cap act alone",
    )
    parser.add_argument(
        "--flood-seconds", type=float, default=15, help="length of each connection flood"
    )
    parser.add_argument("--floods-only", action="store_true", help="only the connection floods")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LIBTEXT_")}
    if args.floods_only:
        connection_flood_rows(env, args.flood_seconds)
        return
    small = hostile_pdfs.simple(pages=3, words=40)
    with tempfile.TemporaryDirectory() as tmp:
        env["LIBTEXT_PDF_MEMORY_MB"] = str(args.memory_mb)
        env["LIBTEXT_PDF_TIMEOUT"] = str(args.timeout)
        if args.max_stream_bytes:
            env["LIBTEXT_MAX_STREAM_BYTES"] = str(args.max_stream_bytes)
        t0 = time.perf_counter()
        proc, base = start_server(Path(tmp) / "b.db", env)
        os.environ["_HOSTILE_PID"] = str(proc.pid)
        try:
            print(f"server up in {time.perf_counter() - t0:.1f} s, RSS {rss(proc.pid) >> 20} MiB")
            upload(base, small)
            baseline = min(upload(base, small)[1] for _ in range(3))
            print(f"baseline: small extract {baseline * 1000:.0f} ms")
            print()
            print(
                f"{'PDF':<24} {'KiB':>7} {'answer':>22} {'s':>6} {'peak MiB':>9} "
                f"{'usable s':>9} {'x base':>7}"
            )
            for name, make in hostile_pdfs.HOSTILE.items():
                data = make()
                r, seconds, peak, _ = upload(base, data)
                code = r.json().get("error", {}).get("code", "") if r.status_code != 200 else ""
                u0 = time.perf_counter()
                after, _, _, _ = upload(base, small)
                usable = time.perf_counter() - u0
                assert after.status_code == 200, after.text[:200]
                print(
                    f"{name:<24} {len(data) >> 10:>7} {r.status_code:>4} {code:<17} "
                    f"{seconds:>6.2f} {peak >> 20:>9} {usable:>9.2f} {usable / baseline:>7.1f}"
                )
            print()
            print("peak = server + PDF workers, sampled every 20 ms; usable = next small extract")
            print()
            long_line_row(base)
        finally:
            proc.terminate()
            proc.wait(timeout=15)
        queue_flood_row(env)
        hung_database_row()
        connection_flood_rows(env, args.flood_seconds)


def _health_during(base: str, work: Callable[[], httpx.Response]) -> tuple[Any, float, list[float]]:
    """Run ``work`` in a thread; poll health meanwhile: (response, seconds, health latencies)."""
    import threading

    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()))
    t0 = time.perf_counter()
    thread.start()
    latencies: list[float] = []
    while thread.is_alive():
        h0 = time.perf_counter()
        try:
            httpx.get(f"{base}/api/health", timeout=10)
            latencies.append(time.perf_counter() - h0)
        except httpx.TransportError:
            latencies.append(float("inf"))
        time.sleep(0.05)
    thread.join()
    return out[0], time.perf_counter() - t0, latencies


def long_line_row(base: str) -> None:
    """The sub-KB PDF with one 60,000-character line, outlined (froze main for minutes)."""
    data = hostile_pdfs.long_line()
    files = {"file": ("long.pdf", data, "application/pdf")}
    r, seconds, lat = _health_during(
        base, lambda: httpx.post(f"{base}/api/outline", files=files, timeout=600)
    )
    worst = max(lat) if lat else 0.0
    within = sum(1 for x in lat if x <= 1.0) / len(lat) if lat else 1.0
    print(
        f"long-line PDF ({len(data)} B) /api/outline: {r.status_code} in {seconds:.2f} s; "
        f"health during it: {len(lat)} calls, worst {worst * 1000:.0f} ms, "
        f"{within:.0%} within 1 s"
    )


def queue_flood_row(env: dict[str, str]) -> None:
    """60 asynchronous ~10 MB uploads at once to a server whose jobs nobody takes (the
    worst case): how many are queued, how many refused, what the database grew by."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "q.db"
        proc, base = start_server(db, {**env, "LIBTEXT_JOBS_WORKERS": "0"})
        try:
            before = db.stat().st_size
            data = hostile_pdfs.simple(pages=1, words=20) + b"%" + b"x" * (10 * 2**20)
            statuses: list[int] = []
            retry_after = set()
            t0 = time.perf_counter()
            for _ in range(60):
                r = httpx.post(
                    f"{base}/api/process?wait=false",
                    files={"file": ("big.pdf", data, "application/pdf")},
                    timeout=60,
                )
                statuses.append(r.status_code)
                if "retry-after" in r.headers:
                    retry_after.add(r.headers["retry-after"])
            seconds = time.perf_counter() - t0
            grew = (db.stat().st_size - before) >> 20
            print(
                f"queue flood (no workers): 60 x {len(data) >> 20} MiB in {seconds:.1f} s: "
                f"{statuses.count(202)} queued, {statuses.count(503)} refused 503 queue_full "
                f"(Retry-After {sorted(retry_after)}), database +{grew} MiB"
            )
        finally:
            proc.terminate()
            proc.wait(timeout=15)


def hung_database_row() -> None:
    """A PostgreSQL that accepts connections and never answers, once the app runs (the
    CLI refuses to start on one): the first health call's answer and time."""
    import threading

    import anyio

    from libtext.asgi import Settings, create_app

    held: list[socket.socket] = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    url = f"postgresql+psycopg://u:p@127.0.0.1:{listener.getsockname()[1]}/db"

    async def first_health() -> tuple[str, float]:
        app = create_app(settings=Settings(store_url=url))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            t0 = time.perf_counter()
            with anyio.move_on_after(120):
                r = await client.get("/api/health")
                body = r.json()
                return f"{r.status_code} {body['status']}/{body['store']}", time.perf_counter() - t0
            return "no answer in 120 s", time.perf_counter() - t0

    try:
        answer, seconds = anyio.run(first_health)
        print(f"hung database: first health {answer} in {seconds:.2f} s")
    finally:
        listener.close()
        for conn in held:
            conn.close()


FLOOD_LIMIT = 64
"""``--limit-concurrency`` of the flooded server: floods of a bounded size."""


async def _flood(kind: str, n: int, host: str, port: int, job: str, stop: Any) -> int:
    """``n`` hostile connections of ``kind``, each reopened as soon as the server closes
    it, until ``stop`` is set; returns how many connections were opened in all."""
    import asyncio

    opened = 0
    slow = (
        b"POST /api/extract HTTP/1.1\r\nHost: f\r\nContent-Length: 100000\r\n"
        b"Content-Type: multipart/form-data; boundary=b\r\n\r\n--b\r\n"
    )
    stream = f"GET /api/jobs/{job}/events HTTP/1.1\r\nHost: f\r\n\r\n".encode()

    async def one() -> None:
        nonlocal opened
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(host, port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            opened += 1
            try:
                if kind == "slow bodies":  # a byte every 2 s, never the whole body
                    writer.write(slow)
                    while not stop.is_set():
                        try:
                            if not await asyncio.wait_for(reader.read(4096), 2):
                                break
                            break  # answered (408): open another
                        except TimeoutError:
                            writer.write(b"x")
                elif kind == "idle sockets":  # connect, send nothing
                    while not stop.is_set():
                        try:
                            if not await asyncio.wait_for(reader.read(4096), 0.5):
                                break
                        except TimeoutError:
                            continue
                else:  # event streams of one queued job; a 429 is ignored
                    writer.write(stream)
                    while not stop.is_set():
                        try:
                            chunk = await asyncio.wait_for(reader.read(4096), 0.5)
                        except TimeoutError:
                            continue
                        if not chunk or chunk.startswith(b"HTTP/1.1 429"):
                            break
            except OSError:
                pass
            finally:
                writer.close()
            await asyncio.sleep(0.05)

    await asyncio.gather(*(one() for _ in range(n)))
    return opened


async def _flood_row(kind: str, n: int, base: str, job: str, seconds: float) -> str:
    import asyncio

    host, port = base.removeprefix("http://").split(":")
    stop = asyncio.Event()
    flood = asyncio.ensure_future(_flood(kind, n, host, int(port), job, stop))
    await asyncio.sleep(1.5)  # the flood takes its slots
    health: list[float] = []
    gets: list[int] = []
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=5) as client:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            h0 = time.perf_counter()
            try:
                await client.get("/api/health")
                health.append(time.perf_counter() - h0)
            except httpx.HTTPError:
                health.append(float("inf"))
            try:
                gets.append((await client.get("/api/texts")).status_code)
            except httpx.HTTPError:
                gets.append(0)
            await asyncio.sleep(0.1)
    stop.set()
    opened = await flood
    within = sum(1 for x in health if x <= 1.0) / len(health)
    served = gets.count(200) / len(gets)
    return (
        f"{kind:<14} {n:>5} {opened:>7} {len(health):>7} {within:>9.0%} "
        f"{len(gets):>6} {served:>7.0%}"
    )


def connection_flood_rows(env: dict[str, str], seconds: float) -> None:
    """Slow bodies, idle sockets and event streams flooding a server of
    ``--limit-concurrency`` :data:`FLOOD_LIMIT` on 127.0.0.1: the share of health calls
    answered within 1 s, and of normal GETs served (200), while each lasts."""
    import anyio

    with tempfile.TemporaryDirectory() as tmp:
        flood_env = {**env, "LIBTEXT_JOBS_WORKERS": "0"}  # the job's stream stays open
        limit = ("--limit-concurrency", str(FLOOD_LIMIT))
        proc, base = start_server(Path(tmp) / "f.db", flood_env, *limit)
        try:
            small = hostile_pdfs.simple(pages=1, words=20)
            r = httpx.post(
                f"{base}/api/process?wait=false",
                files={"file": ("s.pdf", small, "application/pdf")},
                timeout=30,
            )
            job = r.json()["id"]
            print()
            print(
                f"connection floods, --limit-concurrency {FLOOD_LIMIT}, {seconds:g} s each "
                "(connections reopened as soon as the server closes them)"
            )
            print(
                f"{'flood':<14} {'conns':>5} {'opened':>7} {'health':>7} {'in 1 s':>9} "
                f"{'GETs':>6} {'served':>7}"
            )
            for kind, n in (
                ("slow bodies", FLOOD_LIMIT - 1),
                ("idle sockets", 2 * FLOOD_LIMIT),
                ("event streams", FLOOD_LIMIT),
            ):
                print(anyio.run(_flood_row, kind, n, base, job, seconds))
                time.sleep(1)
            print("health = calls made, in 1 s = share answered within 1 s; served = GET")
            print("/api/texts answered 200 (not uvicorn's 503)")
        finally:
            proc.terminate()
            proc.wait(timeout=15)


if __name__ == "__main__":
    main()
