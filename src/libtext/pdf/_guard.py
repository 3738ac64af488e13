"""Bounded PDF work: worker processes with a memory cap, a timeout that kills, size limits.

A hostile PDF (a Flate stream that inflates to gigabytes, 100,000 pages, one content
stream shared by thousands of pages, reference loops) must cost one worker, not the
process that asked. So :func:`libtext.pdf.extract_pdf` and the HTTP adapter hand the
PDF's bytes to a small pool of worker processes (``python -m libtext.pdf._worker``):

* each worker runs under ``RLIMIT_AS`` (``memory_mb``): a bomb ends that worker, the
  caller gets :class:`~libtext.errors.InputTooLargeError` naming the limit, and the next
  call gets a fresh worker;
* the caller waits at most ``timeout`` seconds, then the worker is killed: the capacity
  is really free again (a thread cannot be stopped, a process can), and the caller gets
  :class:`~libtext.errors.ExtractionTimeoutError`;
* before pdfium parses anything, :func:`prescan` reads the page tree's ``/Count`` and
  inflates each Flate content stream only up to :class:`PdfLimits`;
* while pages are read, :class:`PdfLimits` bounds characters per page and per document.

Where no process can be started (a sandbox, a platform without ``resource``), the same
limits apply in the calling process, without the memory cap and the kill.
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import re
import select
import struct
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import anyio
import anyio.to_thread
from anyio import CapacityLimiter
from anyio.lowlevel import RunVar

from libtext._keywords import strict_keywords, warn_deprecated
from libtext.errors import (
    ConfigurationError,
    ExtractionTimeoutError,
    InputTooLargeError,
    InvalidPDFError,
    LibtextError,
    TooManyPagesError,
)

if TYPE_CHECKING:  # pragma: no cover
    from libtext.models import ExtractedDocument

__all__ = [
    "DEFAULT_MEMORY_MB",
    "DEFAULT_TIMEOUT",
    "DEFAULT_WORKERS",
    "PdfGuard",
    "PdfLimits",
    "Splitter",
    "default_guard",
    "prescan",
    "read_frame",
    "shared_guard",
    "write_frame",
]

logger = logging.getLogger("libtext.pdf")

T = TypeVar("T")

Extract = Callable[..., "ExtractedDocument"]
"""``libtext.pdf._extract_data``: keyword arguments of one request -> the document."""


class Splitter(Protocol):
    """How one request is read in parts by several workers at once, and put together.

    :mod:`libtext.pdf` knows pages; the pool knows which workers are idle. A part's
    request carries ``part=True`` (the worker answers with that part's pages, not a
    document).
    """

    def plan(self, request: dict[str, Any], workers: int) -> list[dict[str, Any]] | None:
        """At most ``workers`` part requests, in order, or None: read it whole."""

    def merge(self, request: dict[str, Any], replies: list[Any]) -> Any:
        """The document from the parts' replies, in order (or what the request's task
        makes of it, such as its JSON), or None: read it whole."""


MB = 2**20
DEFAULT_WORKERS = max(1, min(4, (os.cpu_count() or 2) - 1))
"""One core left to the caller (a server's event loop), at most four workers."""
DEFAULT_MEMORY_MB = 1024
DEFAULT_TIMEOUT = 120.0
STARTUP_TIMEOUT = 60.0
"""Seconds a new worker may take to start (Python, pdfium) before it counts as dead."""


def _too_large(limit: str, value: int, maximum: int, what: str, fix: str) -> InputTooLargeError:
    return InputTooLargeError(
        f"The PDF's {what} is over the limit {limit}={maximum:,} (at least {value:,}); {fix}",
        details={"limit": limit, limit: maximum, "value": value},
    )


@dataclass(frozen=True, kw_only=True)
class PdfLimits:
    """Size limits checked while a PDF is read (``None``: no limit).

    Attributes:
        max_page_chars: Characters on one page (a dense printed page has ~5,000).
        max_chars: Characters in the whole document.
        max_stream_bytes: Bytes one Flate content stream may inflate to.
        max_decoded_bytes: Bytes all Flate content streams together may inflate to.
    """

    max_page_chars: int | None = 100_000
    max_chars: int | None = 10_000_000
    max_stream_bytes: int | None = 64 * MB
    max_decoded_bytes: int | None = 512 * MB

    def __post_init__(self) -> None:
        for name in ("max_page_chars", "max_chars", "max_stream_bytes", "max_decoded_bytes"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ConfigurationError(f"PdfLimits.{name} must be a positive integer or None.")

    def check_page(self, number: int, chars: int, total: int) -> None:
        """Raise when page ``number`` (``chars`` characters, ``total`` so far) passes a limit."""
        if self.max_page_chars is not None and chars > self.max_page_chars:
            raise _too_large(
                "max_page_chars",
                chars,
                self.max_page_chars,
                f"page {number} text ({chars:,} characters)",
                "this is not a printed page; check the file.",
            )
        if self.max_chars is not None and total > self.max_chars:
            raise _too_large(
                "max_chars",
                total,
                self.max_chars,
                f"text (by page {number})",
                "read part of it with pages=range(...).",
            )


# Unknown fields name the closest one, as on every public class.
PdfLimits.__init__ = strict_keywords()(PdfLimits.__init__)  # type: ignore[method-assign]


# --- before parsing -------------------------------------------------------------------

# "endstream" is told apart after the match: a look-behind would make the regex
# engine try it at every byte of the file (30 times slower on a 3 MB book).
_STREAM = re.compile(rb"stream(?:\r\n|\n|\r)")
_ROOT = re.compile(rb"/Root\s+(\d+)\s+\d+\s+R")
_PAGES_REF = re.compile(rb"/Pages\s+(\d+)\s+\d+\s+R")
_COUNT = re.compile(rb"/Count\s+(\d{1,12})")
_IMAGE = re.compile(rb"/Subtype\s*/Image")
_INFLATE_STEP = 1 * MB


def _object_body(data: bytes, number: int) -> bytes | None:
    """The text of ``number 0 obj ... endobj`` (the last definition wins, as in updates)."""
    key = b"%d 0 obj" % number
    pos = data.rfind(key)
    while pos > 0 and data[pos - 1 : pos].isdigit():  # "11 0 obj" when looking for 1
        pos = data.rfind(key, 0, pos)
    if pos < 0:
        return None
    start = pos + len(key)
    end = data.find(b"endobj", start)
    return data[start : end if end >= 0 else start + 4096]


def tree_page_count(data: bytes) -> int | None:
    """``/Count`` of the page tree's root, read from the raw bytes; ``None`` if not found.

    Only uncompressed objects are looked at: a root kept in an object stream is counted
    by pdfium instead (in a worker whose memory is capped).
    """
    roots = _ROOT.findall(data)
    if not roots:
        return None
    catalog = _object_body(data, int(roots[-1]))
    ref = _PAGES_REF.search(catalog) if catalog is not None else None
    if ref is None:
        return None
    pages = _object_body(data, int(ref.group(1)))
    count = _COUNT.search(pages) if pages is not None else None
    return int(count.group(1)) if count is not None else None


def _inflated_size(data: bytes, start: int, end: int, limit: int | None) -> int:
    """Bytes the Flate stream at ``data[start:end]`` inflates to, stopping past ``limit``."""
    d = zlib.decompressobj()
    total = 0
    view = memoryview(data)[start:end]
    try:
        for pos in range(0, len(view), 64 * 1024):
            pending: bytes | memoryview = view[pos : pos + 64 * 1024]
            while pending and not d.eof:
                total += len(d.decompress(pending, _INFLATE_STEP))
                pending = d.unconsumed_tail
                if limit is not None and total > limit:
                    return total
            if d.eof:
                break
    except zlib.error:
        pass  # damaged or not really Flate: pdfium decides what to make of it
    return total


def prescan(data: bytes, limits: PdfLimits, *, max_pages: int | None, whole: bool = True) -> None:
    """Refuse a PDF by its page tree and inflated sizes before pdfium parses it.

    Args:
        data: The PDF's bytes.
        limits: The stream limits to apply.
        max_pages: Most pages allowed when the whole document is read.
        whole: The whole document is read (no ``pages=`` selection).

    Raises:
        TooManyPagesError: The page tree's ``/Count`` is over ``max_pages``.
        InputTooLargeError: A content stream, or all of them, inflate past the limits.
    """
    if whole and max_pages is not None:
        count = tree_page_count(data)
        if count is not None and count > max_pages:
            raise TooManyPagesError(
                f"The PDF has {count:,} pages, over the limit of {max_pages}; "
                "pass pages=range(...) to read part of it, or a larger max_pages=.",
                details={"pages": count, "max_pages": max_pages, "limit": "max_pages"},
            )
    if limits.max_stream_bytes is None and limits.max_decoded_bytes is None:
        return
    total = 0
    for m in _STREAM.finditer(data):
        if data[max(0, m.start() - 3) : m.start()] == b"end":
            continue
        head = data[max(0, m.start() - 2048) : m.start()]
        head = head[head.rfind(b"obj") + 1 :]
        if b"FlateDecode" not in head or _IMAGE.search(head):
            continue  # images are decoded to draw them, never to read text
        end = data.find(b"endstream", m.end())
        end = len(data) if end < 0 else end
        room = None if limits.max_decoded_bytes is None else limits.max_decoded_bytes - total
        caps = [x for x in (limits.max_stream_bytes, room) if x is not None]
        size = _inflated_size(data, m.end(), end, min(caps) if caps else None)
        if limits.max_stream_bytes is not None and size > limits.max_stream_bytes:
            raise _too_large(
                "max_stream_bytes",
                size,
                limits.max_stream_bytes,
                "content stream (inflated)",
                "it is a compression bomb or not a text document.",
            )
        total += size
        if limits.max_decoded_bytes is not None and total > limits.max_decoded_bytes:
            raise _too_large(
                "max_decoded_bytes",
                total,
                limits.max_decoded_bytes,
                "content (all streams, inflated)",
                "read part of it with pages=range(...), or split the file.",
            )


# --- the wire between the caller and a worker ------------------------------------------

_LEN = struct.Struct("!Q")


def write_frame(fd: int, payload: bytes) -> None:
    """Write one length-prefixed frame to a file descriptor."""
    view = memoryview(_LEN.pack(len(payload)) + payload)
    while view:
        view = view[os.write(fd, view[: 4 * MB]) :]


def _read_exact(fd: int, n: int, deadline: float | None) -> bytes:
    chunks: list[bytes] = []
    while n:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
        chunk = os.read(fd, min(n, 4 * MB))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, deadline: float | None = None) -> bytes:
    """One frame; ``EOFError`` when the other side is gone, ``TimeoutError`` at the deadline."""
    (size,) = _LEN.unpack(_read_exact(fd, _LEN.size, deadline))
    return _read_exact(fd, size, deadline)


# --- the pool ---------------------------------------------------------------------------


class _Died(Exception):
    """The worker process ended without answering."""


class _NoProcess(Exception):
    """No worker process could be started (a sandbox, no executable, no resources)."""


class _Worker:
    """One ``python -m libtext.pdf._worker`` process and its two pipes."""

    def __init__(self, memory_mb: int | None) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        cmd = [sys.executable, "-m", "libtext.pdf._worker", str((memory_mb or 0) * MB)]
        # Its own session: a Ctrl-C meant for the server does not reach it; it ends
        # when its stdin closes (the server gone) or when it is killed.
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            close_fds=True,
            start_new_session=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self.ready = False

    def call(self, payload: bytes, timeout: float) -> Any:
        try:
            if not self.ready:
                # Starting Python and pdfium is not the PDF's time: a separate allowance.
                if read_frame(self._out, time.monotonic() + STARTUP_TIMEOUT) != b"ready":
                    raise _Died
                self.ready = True
            deadline = time.monotonic() + timeout
            write_frame(self._in, payload)
            return pickle.loads(read_frame(self._out, deadline))
        except (EOFError, BrokenPipeError, ConnectionResetError):
            raise _Died from None

    def exit_reason(self) -> str:
        code = self.proc.poll()
        if code is None:
            return "stopped"
        return f"signal {-code}" if code < 0 else f"exit status {code}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


@dataclass
class _Job:
    """One call's hold on a worker, so an async caller's cancellation can kill it."""

    worker: _Worker | None = None
    cancelled: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)
    parts: list[_Job] = field(default_factory=list)  # a split request's other workers

    def part(self) -> _Job:
        """A job for one more part of this call, cancelled with it."""
        with self.lock:
            sub = _Job(cancelled=self.cancelled)
            self.parts.append(sub)
            return sub

    def cancel(self) -> None:
        with self.lock:
            self.cancelled = True
            if self.worker is not None and self.worker.proc.poll() is None:
                # Only the signal: the thread reading its pipe sees EOF and cleans up
                # (closing the pipe under that thread could hand it a reused descriptor).
                self.worker.proc.kill()
            parts = list(self.parts)
        for sub in parts:
            sub.cancel()


def _rebuild(cls: type[LibtextError], message: str, details: dict[str, Any]) -> LibtextError:
    exc = cls.__new__(cls)
    LibtextError.__init__(exc, message, details=details)
    return exc


class PdfGuard:
    """A small pool of PDF worker processes (see the module docstring).

    Args:
        concurrency: PDFs read at once, each in its own worker process; more callers
            wait. Default: the CPU count less one, between 1 and 4.
        memory_mb: Address-space cap of each worker in MiB (``None``: none).
        timeout: Seconds a PDF may take in its worker; then the worker is killed and
            :class:`~libtext.errors.ExtractionTimeoutError` raised. Waiting for a free
            worker is bounded by the same time (starting one has its own allowance).
        limits: Size limits checked before and while parsing.
        isolate: ``False`` reads in the calling process (same limits, no memory cap,
            no kill): for platforms where processes cannot be started.

    ``workers=``, the old spelling of ``concurrency=``, still works until libtext 0.2,
    with a :class:`DeprecationWarning`.
    """

    @strict_keywords(deprecated=("workers",))
    def __init__(
        self,
        *,
        concurrency: int | None = None,
        memory_mb: int | None = DEFAULT_MEMORY_MB,
        timeout: float = DEFAULT_TIMEOUT,
        limits: PdfLimits | None = None,
        isolate: bool = True,
        **deprecated: Any,
    ) -> None:
        if "workers" in deprecated:
            warn_deprecated("PdfGuard", "workers", "concurrency=...")
            if concurrency is not None:
                raise TypeError(
                    "PdfGuard() got both concurrency= and its old spelling workers=; "
                    "pass concurrency=."
                )
            concurrency = deprecated.pop("workers")
        if concurrency is None:
            concurrency = DEFAULT_WORKERS
        if not isinstance(concurrency, int) or isinstance(concurrency, bool) or concurrency < 1:
            raise ConfigurationError("PdfGuard(concurrency=...) must be an integer of at least 1.")
        if memory_mb is not None and (not isinstance(memory_mb, int) or memory_mb < 64):
            raise ConfigurationError("PdfGuard(memory_mb=...) must be at least 64 (MiB) or None.")
        if not isinstance(timeout, int | float) or timeout <= 0:
            raise ConfigurationError("PdfGuard(timeout=...) must be a positive number of seconds.")
        if limits is not None and not isinstance(limits, PdfLimits):
            raise TypeError(f"PdfGuard(limits=...) takes PdfLimits, not {type(limits).__name__}.")
        self.concurrency = concurrency
        self.memory_mb = memory_mb
        self.timeout = float(timeout)
        self.limits = limits or PdfLimits()
        self.isolate = isolate and _can_isolate()
        self._slots = threading.BoundedSemaphore(concurrency)
        self._idle: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    @property
    def workers(self) -> int:
        """The old name of :attr:`concurrency` (until libtext 0.2)."""
        return self.concurrency

    def __repr__(self) -> str:
        return (
            f"PdfGuard(concurrency={self.concurrency}, memory_mb={self.memory_mb}, "
            f"timeout={self.timeout:g}, isolate={self.isolate})"
        )

    # --- calls ------------------------------------------------------------------------

    def _extract(
        self,
        request: dict[str, Any],
        *,
        run: Callable[..., T],
        job: _Job | None = None,
        split: Splitter | None = None,
    ) -> T:
        """Run ``libtext.pdf._extract_data(**request, limits=...)`` under the guard
        (or the worker task ``request["task"]`` names, such as the document's JSON).

        ``run`` is that function, for the in-process paths (passed in, so this module
        does not import :mod:`libtext.pdf`, which imports it); a worker imports it itself.
        With ``split``, a big document is read in parts by the workers that are idle
        now (each with its own memory cap and timeout); a busy pool reads it whole.
        """
        request = {**request, "limits": self.limits}
        result: T = self._call(request, run=run, job=job, split=split)
        return result

    def _call(
        self,
        request: dict[str, Any],
        *,
        run: Callable[..., Any],
        job: _Job | None,
        split: Splitter | None = None,
    ) -> Any:
        """``run(**request)`` in a worker (the worker runs ``request["task"]``, see
        ``libtext.pdf._worker.TASKS``), or here when processes cannot be used."""
        if not self.isolate:
            return run(**{k: v for k, v in request.items() if k != "task"})
        job = job or _Job()
        if not self._slots.acquire(timeout=self.timeout):
            raise self._timeout(queued=True)
        extra = 0
        try:
            if split is not None:
                # Idle capacity only: never wait for a second slot.
                while extra < self.concurrency - 1 and self._slots.acquire(blocking=False):
                    extra += 1
                parts = split.plan(request, extra + 1) if extra else None
                if parts is not None and len(parts) > 1:
                    merged = split.merge(request, self._run_parts(parts, job))
                    if merged is not None:
                        return merged
                for _ in range(extra):
                    self._slots.release()
                extra = 0
            return self._run(request, job)
        except _NoProcess as exc:
            self._no_processes(exc.__cause__)
            return run(**{k: v for k, v in request.items() if k != "task"})
        finally:
            for _ in range(extra + 1):
                self._slots.release()

    def _run_parts(self, parts: list[dict[str, Any]], job: _Job) -> list[Any]:
        """The parts' replies, in order, each read by a worker of its own at once.

        The first error in the parts' order is raised (the one a whole read meets
        first), after every part has ended.
        """
        replies: list[Any] = [None] * len(parts)
        errors: list[BaseException | None] = [None] * len(parts)

        def read(k: int, sub: _Job) -> None:
            try:
                replies[k] = self._run(parts[k], sub)
            except BaseException as exc:  # handed to the caller's thread below
                errors[k] = exc

        threads = [
            threading.Thread(target=read, args=(k, job.part()), daemon=True)
            for k in range(1, len(parts))
        ]
        for thread in threads:
            thread.start()
        read(0, job)
        for thread in threads:
            thread.join()
        for error in errors:
            if error is not None:
                raise error
        return replies

    async def arun(self, task: str, run: Callable[..., T], /, **kwargs: Any) -> T:
        """``run(**kwargs)`` as the worker task ``task`` (``libtext.pdf._worker.TASKS``).

        For CPU-bound work on untrusted input other than parsing (the offline outline):
        the guard's timeout and a cancelled caller kill the worker, so no input can hold
        the caller's process (its event loop, the GIL) for longer. ``run`` is the same
        function, used in this process where workers cannot be started.
        """
        if not self.isolate:
            return await anyio.to_thread.run_sync(partial(run, **kwargs))
        job = _Job()
        request = {**kwargs, "task": task}
        try:
            result: T = await anyio.to_thread.run_sync(
                partial(self._call, request, run=run, job=job),
                abandon_on_cancel=True,
                limiter=_waiting_threads(),
            )
            return result
        except anyio.get_cancelled_exc_class():
            job.cancel()
            raise

    async def _aextract(
        self, request: dict[str, Any], *, run: Callable[..., T], split: Splitter | None = None
    ) -> T:
        """Async :meth:`_extract`: a cancelled caller kills its worker(s) at once."""
        if not self.isolate:
            return await anyio.to_thread.run_sync(partial(self._extract, request, run=run))
        job = _Job()
        try:
            return await anyio.to_thread.run_sync(
                partial(self._extract, request, run=run, job=job, split=split),
                abandon_on_cancel=True,
                limiter=_waiting_threads(),
            )
        except anyio.get_cancelled_exc_class():
            job.cancel()
            raise

    def warm(self) -> None:
        """Start the workers now (each imports pdfium in the background), not on first use."""
        if not self.isolate:
            return
        try:
            with self._lock:
                while len(self._idle) < self.concurrency and not self._closed:
                    self._idle.append(_Worker(self.memory_mb))
        except OSError as exc:
            self._no_processes(exc)

    def close(self) -> None:
        """Stop the idle workers; calls in progress end with their worker."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()

    # --- internals --------------------------------------------------------------------

    def _take(self) -> _Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.proc.poll() is None:
                    return worker
                worker.kill()
        try:
            return _Worker(self.memory_mb)
        except OSError as exc:
            raise _NoProcess from exc

    def _no_processes(self, exc: BaseException | None) -> None:
        """Fall back to reading in this process, once, with a warning that says why."""
        if self.isolate:
            logger.warning(
                "cannot start PDF worker processes (%s): reading PDFs in this process, "
                "with the size limits but without the memory cap and the kill",
                exc,
            )
            self.isolate = False

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and start its successor now, so the next call finds one warm."""
        worker.kill()
        with self._lock:
            if not self._closed and len(self._idle) < self.concurrency:
                # On failure the next call starts one (or falls back, see extract).
                with contextlib.suppress(OSError):
                    self._idle.append(_Worker(self.memory_mb))

    def _give(self, worker: _Worker) -> None:
        with self._lock:
            if not self._closed:
                self._idle.append(worker)
                return
        worker.kill()

    def _run(self, request: dict[str, Any], job: _Job) -> Any:
        payload = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        with job.lock:
            if job.cancelled:
                raise self._timeout(queued=True)
            worker = job.worker = self._take()
        try:
            reply = worker.call(payload, self.timeout)
        except TimeoutError:
            self._replace(worker)
            raise self._timeout(queued=False, task=request.get("task", "extract")) from None
        except _Died:
            self._replace(worker)
            if job.cancelled:
                raise self._timeout(queued=False, task=request.get("task", "extract")) from None
            raise self._died(worker) from None
        except BaseException:
            worker.kill()
            raise
        kind = reply[0]
        if kind == "ok":
            self._give(worker)
            return reply[1]
        if kind == "err":
            self._give(worker)
            raise _rebuild(reply[1], reply[2], reply[3])
        self._replace(worker)  # "memory": its heap may be in any state
        raise self._memory()

    def _memory(self) -> InputTooLargeError:
        return InputTooLargeError(
            f"Reading the PDF needed more than the memory limit memory_mb={self.memory_mb} "
            "of its worker; it is a compression bomb or far larger than a text document.",
            details={"limit": "memory_mb", "memory_mb": self.memory_mb},
        )

    def _died(self, worker: _Worker) -> LibtextError:
        reason = worker.exit_reason()
        logger.warning("PDF worker ended while reading a PDF (%s)", reason)
        if self.memory_mb is None:
            return InvalidPDFError(
                f"The PDF reader stopped on this file ({reason}); it is damaged or hostile.",
                details={"reason": reason},
            )
        error = self._memory()
        error.message += f" (the worker ended: {reason})"
        error.details["reason"] = reason
        return error

    def _timeout(self, *, queued: bool, task: str = "extract") -> ExtractionTimeoutError:
        if queued:
            message = (
                f"All {self.concurrency} PDF workers stayed busy for {self.timeout:g} s; "
                "retry later."
            )
        elif task != "extract":
            message = (
                f"The {task} of the document took longer than the limit "
                f"timeout={self.timeout:g} s; its worker was stopped. Retry with part of it."
            )
        else:
            message = (
                f"Reading the PDF took longer than the limit timeout={self.timeout:g} s; its "
                "worker was stopped. Retry with pages=range(...) or a smaller file."
            )
        return ExtractionTimeoutError(
            message, details={"limit": "timeout", "timeout_s": self.timeout, "queued": queued}
        )


WAITING_THREADS = 64
"""Threads per event loop that wait on PDF workers: their own limiter, so a burst of
uploads never takes the default threads other work (a health check's store ping) needs."""

_WAITING: RunVar[CapacityLimiter] = RunVar("libtext_pdf_waiting")


def _waiting_threads() -> CapacityLimiter:
    """The event loop's limiter of threads waiting on PDF workers (made on first use)."""
    try:
        return _WAITING.get()
    except LookupError:
        limiter = CapacityLimiter(WAITING_THREADS)
        _WAITING.set(limiter)
        return limiter


def _can_isolate() -> bool:
    try:
        import resource  # noqa: F401 - the worker's memory cap needs it
    except ImportError:  # pragma: no cover - Windows
        return False
    return bool(sys.executable)


_shared: dict[tuple[Any, ...], PdfGuard] = {}
_shared_lock = threading.Lock()


def shared_guard(
    *,
    concurrency: int = DEFAULT_WORKERS,
    memory_mb: int | None = DEFAULT_MEMORY_MB,
    timeout: float = DEFAULT_TIMEOUT,
    limits: PdfLimits | None = None,
) -> PdfGuard:
    """The process's guard with these settings, made on first use, stopped at exit.

    Apps and calls with the same settings share their workers instead of each
    starting their own (an HTTP app per test, a notebook's repeated calls).
    """
    limits = limits or PdfLimits()
    key = (concurrency, memory_mb, float(timeout), limits)
    with _shared_lock:
        guard = _shared.get(key)
        if guard is None:
            guard = PdfGuard(
                concurrency=concurrency, memory_mb=memory_mb, timeout=timeout, limits=limits
            )
            if not _shared:
                import atexit

                atexit.register(_close_shared)
            _shared[key] = guard
        return guard


def _close_shared() -> None:
    with _shared_lock:
        guards = list(_shared.values())
        _shared.clear()
    for guard in guards:
        guard.close()


def default_guard() -> PdfGuard:
    """The guard :func:`libtext.pdf.extract_pdf` uses unless told otherwise.

    Its settings come from ``LIBTEXT_PDF_WORKERS``, ``LIBTEXT_PDF_MEMORY_MB`` and
    ``LIBTEXT_PDF_TIMEOUT``, read when it is asked for (defaults: the CPU count less
    one, between 1 and 4; 1024; 120).
    """
    return shared_guard(
        concurrency=_env_number("LIBTEXT_PDF_WORKERS", DEFAULT_WORKERS, int),
        memory_mb=_env_number("LIBTEXT_PDF_MEMORY_MB", DEFAULT_MEMORY_MB, int),
        timeout=_env_number("LIBTEXT_PDF_TIMEOUT", DEFAULT_TIMEOUT, float),
    )


def _env_number(name: str, default: Any, kind: Callable[[str], Any]) -> Any:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ConfigurationError(
            f"Environment variable {name} must be a number, got {raw!r}."
        ) from None
