"""The embedded queue's worker loop: claim with a lease, run, claim again.

Claims are one write transaction on the store's database (``BEGIN IMMEDIATE`` on
SQLite, ``FOR UPDATE SKIP LOCKED`` on PostgreSQL), so any number of worker processes
share one database without taking a job twice. An idle worker looks again after
``POLL_MIN`` seconds, backing off to ``POLL_MAX``; a worker with work claims the next
job as soon as a slot frees.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Callable
from typing import Any

import anyio

import libtext.jobs._db as _db
from libtext.errors import LibtextError
from libtext.jobs._run import Runner

__all__ = ["work_embedded"]

logger = logging.getLogger("libtext.jobs")

STOP_CHECK = 0.1
POLL_MIN = 0.02
POLL_MAX = 1.0
"""An idle worker looks for work after POLL_MIN s, backing off to POLL_MAX s."""
HOST = socket.gethostname()[:30]
"""A job's ``owner`` names the worker's host and process, for whoever looks at the table."""


async def work_embedded(runner: Runner, concurrency: int, stopped: Callable[[], bool]) -> None:
    """Run jobs, ``concurrency`` at once, until ``stopped()``; running ones go back queued."""
    slots = anyio.Semaphore(concurrency)
    wake = anyio.Event()

    async def one(job: Any, spec: dict[str, Any], owner: str) -> None:
        nonlocal wake
        try:
            state = await runner.run(job, spec, owner)
            logger.info("job %s: %s", job.id, state.value if state else "left to another worker")
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
                wake = anyio.Event()
                with anyio.move_on_after(idle):
                    await wake.wait()
                idle = min(idle * 2, POLL_MAX)
                continue
            idle = POLL_MIN
            job, spec = claimed
            tg.start_soon(one, job, spec, owner)

    async with anyio.create_task_group() as tg:
        tg.start_soon(claim_loop)
        while not stopped():
            await anyio.sleep(STOP_CHECK)
        tg.cancel_scope.cancel()
