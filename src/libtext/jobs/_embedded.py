"""The embedded queue's worker loop: claim with a lease, run, claim again.

Claims are one write transaction on the store's database (``BEGIN IMMEDIATE`` on
SQLite, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so any number of worker processes
share one database without taking a job twice. A worker with work claims the next
job as soon as a slot frees. An idle worker is woken at once by a ``submit`` of the
same :class:`~libtext.jobs.JobQueue` (the :class:`Waker`: ``libtext serve`` submits
and works in one process); for jobs submitted by other processes it looks again
after ``POLL_MIN`` seconds, backing off to ``POLL_MAX``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from typing import Any

import anyio

import libtext.jobs._db as _db
from libtext.errors import LibtextError
from libtext.jobs._run import Runner

__all__ = ["Waker", "work_embedded"]

logger = logging.getLogger("libtext.jobs")

STOP_CHECK = 0.1
POLL_MIN = 0.02
POLL_MAX = 1.0
"""An idle worker looks for work after POLL_MIN s, backing off to POLL_MAX s."""
HOST = socket.gethostname()[:30]
"""A job's ``owner`` names the worker's host and process, for whoever looks at the table."""


class Waker:
    """Wakes the idle worker loops of one queue from any thread, without blocking.

    ``submit`` runs in the caller's thread (``asubmit`` in a worker thread), the loops
    on their event loops: each loop registers a function that sets its event through
    its own loop's thread-safe entry (``call_soon_threadsafe``), so a submit never
    waits for a busy event loop.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[int, Callable[[], None]] = {}
        self._next = 0

    def add(self, wake: Callable[[], None]) -> int:
        with self._lock:
            self._next += 1
            self._waiters[self._next] = wake
            return self._next

    def remove(self, token: int) -> None:
        with self._lock:
            self._waiters.pop(token, None)

    def wake(self) -> None:
        with self._lock:
            waiters = list(self._waiters.values())
        for wake in waiters:
            with contextlib.suppress(RuntimeError):  # that loop has closed meanwhile
                wake()


def _threadsafe(fn: Callable[[], None]) -> Callable[[], None]:
    """``fn`` made callable from any thread: it runs soon on the current event loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # pragma: no cover - another anyio backend: a blocking hand-over
        import anyio.from_thread
        import anyio.lowlevel

        token = anyio.lowlevel.current_token()
        return lambda: anyio.from_thread.run_sync(fn, token=token)

    def call() -> None:
        loop.call_soon_threadsafe(fn)

    return call


async def work_embedded(
    runner: Runner,
    concurrency: int,
    stopped: Callable[[], bool],
    waker: Waker | None = None,
) -> None:
    """Run jobs, ``concurrency`` at once, until ``stopped()``; running ones go back queued.

    ``waker`` (the queue's) wakes an idle loop when a job is submitted.
    """
    slots = anyio.Semaphore(concurrency)
    wake = anyio.Event()
    submitted = [False]  # set by the waker: a job may be due, claim before sleeping

    def on_submit() -> None:
        submitted[0] = True
        wake.set()

    token = waker.add(_threadsafe(on_submit)) if waker is not None else None

    async def one(job: Any, spec: dict[str, Any], owner: str) -> None:
        nonlocal wake
        try:
            state = await runner.run(job, spec, owner)
            if state is None:  # the runner logged every state it reached
                logger.info("job %s: left to another worker", job.id)
        except LibtextError as exc:  # the store failed: the lease runs out, another retries
            logger.warning("job %s: %s", job.id, exc.message)
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):
                with contextlib.suppress(LibtextError):  # stopped mid-job: back to the queue
                    await runner.db(_db.requeue, job.id, owner, 0.0, job.progress)
            raise
        finally:
            slots.release()
            wake.set()

    async def claim_loop() -> None:
        nonlocal wake
        idle = POLL_MIN
        while True:
            await slots.acquire()
            owner = f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
            try:
                claimed = await runner.db(_db.claim, owner, runner.lease)
            except LibtextError as exc:
                logger.warning("claiming a job failed: %s", exc.message)
                claimed = None
                idle = POLL_MAX
            if claimed is None:
                slots.release()
                if submitted[0]:  # a submit came while this claim ran: look again now
                    submitted[0] = False
                    continue
                wake = anyio.Event()
                with anyio.move_on_after(idle):
                    await wake.wait()
                if submitted[0]:
                    submitted[0] = False
                    idle = POLL_MIN
                else:
                    idle = min(idle * 2, POLL_MAX)
                continue
            idle = POLL_MIN
            job, spec = claimed
            tg.start_soon(one, job, spec, owner)

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(claim_loop)
            while not stopped():
                await anyio.sleep(STOP_CHECK)
            tg.cancel_scope.cancel()
    finally:
        if waker is not None and token is not None:
            waker.remove(token)
