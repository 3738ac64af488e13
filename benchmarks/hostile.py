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

    python benchmarks/hostile.py [--memory-mb 1024] [--timeout 120] [--max-stream-bytes N]
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
from pathlib import Path  # noqa: E402

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
    args = parser.parse_args()
    small = hostile_pdfs.simple(pages=3, words=40)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("LIBTEXT_")}
        env["LIBTEXT_PDF_MEMORY_MB"] = str(args.memory_mb)
        env["LIBTEXT_PDF_TIMEOUT"] = str(args.timeout)
        if args.max_stream_bytes:
            env["LIBTEXT_MAX_STREAM_BYTES"] = str(args.max_stream_bytes)
        cmd = [
            sys.executable,
            "-c",
            "from libtext.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--store",
            f"sqlite:///{Path(tmp) / 'b.db'}",
            "--log-level",
            "warning",
            "--no-access-log",
        ]
        proc = subprocess.Popen(cmd, env=env, stderr=subprocess.DEVNULL)
        os.environ["_HOSTILE_PID"] = str(proc.pid)
        base = f"http://127.0.0.1:{port}"
        try:
            t0 = time.perf_counter()
            while True:
                try:
                    if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
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
        finally:
            proc.terminate()
            proc.wait(timeout=15)


if __name__ == "__main__":
    main()
