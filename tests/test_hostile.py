"""Hostile PDFs against the Python API and a real ``libtext serve`` on 127.0.0.1.

For each PDF of ``tests/hostile_pdfs.py`` (a Flate stream inflating to 2 GiB, 100,000
pages, 2,000 pages sharing one stream, deep and cyclic references, an xref loop):

* the answer is a documented error (a 4xx or 504 ``ErrorResponse`` over HTTP, a
  ``LibtextError`` in Python), the one the PDF was built to trigger where that is
  determined by its parameters;
* memory stays under a bound (``LIBTEXT_TEST_RSS_BOUND_MB``, default 1024): the
  server and its PDF workers together, sampled while the request runs;
* a small valid PDF is extracted in at most 2 s right after.

The workers are capped at 512 MiB and 5 s here to keep the module fast.
"""

from __future__ import annotations

import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests import hostile_pdfs
from tests.served import serving

from libtext import errors
from libtext.pdf import PdfGuard, PdfLimits, extract_pdf

RSS_BOUND = int(os.environ.get("LIBTEXT_TEST_RSS_BOUND_MB", "1024")) * 2**20
# Generous bounds: they tell a replaced worker from one waited out (the guard's timeout),
# not speed (benchmarks/hostile.py measures that); a loaded 2-core machine needs ~2.2 s.
USABLE_WITHIN = 4.0
WORKER_MB = 512

# What each PDF is built to trigger: (HTTP status, error codes, details["limit"] or None).
EXPECTED: dict[str, tuple[set[int], set[str], set[str] | None]] = {
    "flate_bomb": ({413}, {"too_large"}, {"max_stream_bytes"}),
    "100k_pages": ({413}, {"too_many_pages"}, {"max_pages"}),
    # 40,000 words of >= 2 characters and a space: over 100,000 characters on page 1.
    "2000_pages_one_stream": ({413}, {"too_large"}, {"max_page_chars"}),
    # Structure a reader must survive; pdfium refuses or reads no text: a 4xx.
    "deep_references": ({400, 413}, {"invalid_pdf", "empty_document", "too_large"}, None),
    "cyclic_references": ({400, 413}, {"invalid_pdf", "empty_document", "too_large"}, None),
    "xref_loop": ({400}, {"invalid_pdf", "empty_document"}, None),
}


@cache
def hostile(name: str) -> bytes:
    return hostile_pdfs.HOSTILE[name]()


SMALL = hostile_pdfs.simple(pages=3, words=40)


def _check_small(doc: Any) -> None:
    assert doc.page_count == 3
    lines = " ".join(line.text for page in doc.pages for line in page.lines)
    assert "word0 " in lines and "word39" in lines


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry.name))
    return kids


class TreeRss:
    """Peak RSS of a process plus its children, sampled every 20 ms in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            total = _rss(self.pid) + sum(_rss(k) for k in _children(self.pid))
            self.peak = max(self.peak, total)
            self._stop.wait(0.02)

    def __enter__(self) -> TreeRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


needs_proc = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")


# --- the generators themselves ------------------------------------------------------


def test_generated_pdfs_are_what_they_claim() -> None:
    import zlib

    data = hostile_pdfs.deflate_repeated(b"abc " * 1000, 40)
    assert zlib.decompress(data) == b"abc " * 40_000
    bomb = hostile("flate_bomb")
    assert len(bomb) < 3 * 2**20  # 2 GiB of spaces in about 2 MB
    start = bomb.index(b"stream\n") + len(b"stream\n")
    inflater = zlib.decompressobj()
    assert len(inflater.decompress(bomb[start : start + 4096], 2**20)) == 2**20
    assert hostile("100k_pages").count(b"/Type /Page ") == 100_000
    assert hostile("2000_pages_one_stream").count(b"/Contents 4 0 R") == 2000
    assert b"/Prev" in hostile("xref_loop")
    assert len(hostile("long_line")) < 1024


def test_long_line_pdf_outlines_in_linear_time(guard: PdfGuard) -> None:
    """A sub-KB PDF with one 30,000+ character line: the offline outline takes
    milliseconds (the contents-entry rule backtracked on it for minutes, issue 27)."""
    from libtext.headings import offline_outline

    doc = extract_pdf(hostile("long_line"), guard=guard)
    assert max(len(ln.text) for p in doc.pages for ln in p.lines) > 30_000
    t0 = time.process_time()
    offline_outline(doc)
    assert time.process_time() - t0 < 2.0


# --- the Python API -----------------------------------------------------------------


@pytest.fixture(scope="module")
def guard() -> Iterator[PdfGuard]:
    g = PdfGuard(concurrency=2, memory_mb=WORKER_MB, timeout=5.0)
    yield g
    g.close()


def _usable_after(run: Callable[[], Any]) -> float:
    t0 = time.monotonic()
    _check_small(run())
    return time.monotonic() - t0


@pytest.mark.parametrize("name", list(EXPECTED))
def test_hostile_pdf_python_api(guard: PdfGuard, name: str) -> None:
    _, codes, limits = EXPECTED[name]
    with pytest.raises(errors.LibtextError) as info:
        extract_pdf(hostile(name), guard=guard, max_bytes=None)
    assert info.value.code in codes, info.value
    if limits is not None:
        assert info.value.details.get("limit") in limits
    assert len(info.value.message) < 400
    assert _usable_after(lambda: extract_pdf(SMALL, guard=guard)) <= USABLE_WITHIN


def test_memory_cap_stops_a_bomb_the_prescan_lets_through() -> None:
    """Without the inflate pre-check, pdfium inflates the bomb: the worker's cap ends it."""
    unchecked = PdfLimits(max_stream_bytes=None, max_decoded_bytes=None)
    g = PdfGuard(concurrency=1, memory_mb=WORKER_MB, timeout=20.0, limits=unchecked)
    try:
        with pytest.raises(errors.InputTooLargeError) as info:
            extract_pdf(hostile("flate_bomb"), guard=g)
        assert info.value.details["limit"] == "memory_mb"
        assert "memory_mb=512" in info.value.message
        assert _usable_after(lambda: extract_pdf(SMALL, guard=g)) <= USABLE_WITHIN
    finally:
        g.close()


def test_timeout_kills_the_worker_python_api() -> None:
    slow = hostile_pdfs.shared_stream(2000, 30_000)
    loose = PdfLimits(max_page_chars=None, max_chars=None)
    g = PdfGuard(concurrency=1, memory_mb=WORKER_MB, timeout=1.5, limits=loose)
    try:
        extract_pdf(SMALL, guard=g)  # the worker is up
        t0 = time.monotonic()
        with pytest.raises(errors.ExtractionTimeoutError) as info:
            extract_pdf(slow, guard=g)
        assert time.monotonic() - t0 < 4
        assert info.value.details["limit"] == "timeout"
        assert isinstance(info.value, TimeoutError)
        # One worker: had the timed-out parse kept it, this would wait and time out too.
        assert _usable_after(lambda: extract_pdf(SMALL, guard=g)) <= USABLE_WITHIN
    finally:
        g.close()


def test_in_process_fallback_keeps_the_limits() -> None:
    with pytest.raises(errors.InputTooLargeError) as info:
        extract_pdf(hostile("2000_pages_one_stream"), guard=False)
    assert info.value.details["limit"] == "max_page_chars"
    with pytest.raises(errors.TooManyPagesError):
        extract_pdf(hostile("100k_pages"), guard=False, max_bytes=None)
    _check_small(extract_pdf(SMALL, guard=False))


def test_falls_back_in_process_when_no_worker_can_start(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from libtext.pdf import _guard as _pdf_guard

    g = PdfGuard(concurrency=1, memory_mb=WORKER_MB, timeout=5.0)
    monkeypatch.setattr(_pdf_guard.sys, "executable", "/nonexistent/python")
    with caplog.at_level(logging.WARNING, logger="libtext.pdf"):
        _check_small(extract_pdf(SMALL, guard=g))
    assert not g.isolate and "in this process" in caplog.text
    with pytest.raises(errors.InputTooLargeError):  # the limits still hold
        extract_pdf(hostile("2000_pages_one_stream"), guard=g)


def test_worker_runs_under_an_address_space_cap(guard: PdfGuard) -> None:
    extract_pdf(SMALL, guard=guard)
    pids = [w.proc.pid for w in guard._idle]
    assert pids
    limits = Path(f"/proc/{pids[0]}/limits")
    if not limits.exists():
        pytest.skip("needs /proc")
    line = next(ln for ln in limits.read_text().splitlines() if "address space" in ln)
    assert str(WORKER_MB * 2**20) in line


# --- a real server --------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    pytest.importorskip("libtext.asgi")
    pytest.importorskip("libtext.store")
    db = tmp_path_factory.mktemp("hostile") / "served.db"
    env = {
        "LIBTEXT_PDF_WORKERS": "2",
        "LIBTEXT_PDF_MEMORY_MB": str(WORKER_MB),
        "LIBTEXT_PDF_TIMEOUT": "5",
        "LIBTEXT_MAX_UPLOAD_BYTES": str(40 * 2**20),
    }
    args = ["--store", f"sqlite:///{db}", "--log-level", "warning", "--no-access-log"]
    with serving(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as (proc, base):
        yield base, proc.pid


def _upload(base: str, data: bytes, timeout: float = 60) -> httpx.Response:
    files = {"file": ("doc.pdf", data, "application/pdf")}
    return httpx.post(f"{base}/api/extract", files=files, timeout=timeout)


@needs_proc
@pytest.mark.parametrize("name", list(EXPECTED))
def test_hostile_pdf_over_http(server: tuple[str, int], name: str) -> None:
    base, pid = server
    statuses, codes, limits = EXPECTED[name]
    data = hostile(name)
    assert _upload(base, SMALL).status_code == 200  # workers warm
    with TreeRss(pid) as rss:
        r = _upload(base, data)
    assert r.status_code in statuses, r.text[:300]
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] in codes
    if limits is not None:
        assert body["error"]["details"]["limit"] in limits
    assert rss.peak <= RSS_BOUND, f"server + workers reached {rss.peak / 2**20:.0f} MiB"
    t0 = time.monotonic()
    ok = _upload(base, SMALL, timeout=10)
    assert ok.status_code == 200, ok.text[:300]
    assert time.monotonic() - t0 <= USABLE_WITHIN
    assert ok.json()["pages"][2]["number"] == 3


def _slowest_health_while(base: str, send: Callable[[], None]) -> float:
    """Run ``send`` in a thread, polling health meanwhile; the slowest health answer."""
    thread = threading.Thread(target=send)
    thread.start()
    slowest = 0.0
    while thread.is_alive():
        t0 = time.monotonic()
        assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200
        slowest = max(slowest, time.monotonic() - t0)
        time.sleep(0.05)
    thread.join()
    return slowest


def test_long_line_pdf_over_http_keeps_health_answering(server: tuple[str, int]) -> None:
    """The long-line PDF outlined over HTTP: an answer (not a freeze), health fast meanwhile."""
    base, _ = server
    result: list[httpx.Response] = []

    def send() -> None:
        files = {"file": ("doc.pdf", hostile("long_line"), "application/pdf")}
        result.append(httpx.post(f"{base}/api/outline", files=files, timeout=60))

    slowest = _slowest_health_while(base, send)
    assert result and result[0].status_code in (200, 400, 413, 504), result[0].text[:300]
    assert slowest < 1.0


@needs_proc
def test_many_bombs_at_once_keep_health_fast(server: tuple[str, int]) -> None:
    """Ten uploads of the 2,000-page PDF at once: health answers fast all along.

    Two workers take them in turn; those still queued when the timeout passes get 504.
    """
    base, pid = server
    data = hostile("2000_pages_one_stream")
    results: list[int] = []

    def send() -> None:
        results.append(_upload(base, data).status_code)

    threads = [threading.Thread(target=send) for _ in range(10)]
    with TreeRss(pid) as rss:
        for t in threads:
            t.start()
        slowest = 0.0
        while any(t.is_alive() for t in threads):
            t0 = time.monotonic()
            assert httpx.get(f"{base}/api/health", timeout=5).status_code == 200
            slowest = max(slowest, time.monotonic() - t0)
            time.sleep(0.05)
        for t in threads:
            t.join()
    assert 413 in results and set(results) <= {413, 504}
    assert slowest < 3.0  # was 5 s with parsing in threads (issue 17)
    assert rss.peak <= RSS_BOUND


@pytest.fixture(scope="module")
def short_timeout_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    pytest.importorskip("libtext.asgi")
    pytest.importorskip("libtext.store")
    db = tmp_path_factory.mktemp("hostile-timeout") / "served.db"
    env = {"LIBTEXT_PDF_WORKERS": "1", "LIBTEXT_PROCESSING_TIMEOUT": "1"}
    args = ["--store", f"sqlite:///{db}", "--log-level", "warning", "--no-access-log"]
    with serving(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as (proc, base):
        yield base, proc.pid


@needs_proc
def test_translation_cpu_work_is_killed_by_the_timeout(
    short_timeout_server: tuple[str, int],
) -> None:
    """A segment of a million characters dense with citations: its plan (citation scan,
    phrase split) and offline answer run in a PDF worker, which the processing timeout
    (1 s here) kills; in a thread they ran on for seconds after the 504. Health answers
    fast meanwhile."""
    base, pid = short_timeout_server
    workers = set(_children(pid))
    assert workers, "no PDF worker was started"
    block = ("בראשית פרק א פסוק ב ויאמר ה׳ אל משה " * 30_000)[:1_000_000]
    result: list[httpx.Response] = []

    def send() -> None:
        body = {"sequence_id": 1, "original_hebrew_block": block}
        result.append(httpx.post(f"{base}/api/translate", json=body, timeout=60))

    slowest = _slowest_health_while(base, send)
    assert result[0].status_code == 504, result[0].text[:300]
    # A frozen loop is minutes (the bug); 2 s leaves room for a loaded 2-core CI machine
    # (benchmarks/hostile.py measures the 1 s goal on a quiet one).
    assert slowest < 2.0, f"health took {slowest:.2f} s"
    deadline = time.monotonic() + 5
    while workers <= set(_children(pid)):  # the worker that ran it is gone
        assert time.monotonic() < deadline, "the worker was not killed"
        time.sleep(0.05)
