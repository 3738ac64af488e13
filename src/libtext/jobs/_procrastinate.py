"""The scale-out queue: jobs handed to workers by procrastinate, on PostgreSQL.

libtext's own job rows (state, progress, events, the PDF) stay in the store's
database as with the embedded queue; procrastinate decides which worker runs which
job, and when: a ``libtext_process`` task per job, taken with ``FOR UPDATE SKIP
LOCKED``, workers woken by ``LISTEN/NOTIFY`` instead of polling, worker heartbeats in
``procrastinate_workers``. Each worker also watches for jobs whose worker stopped
beating (``get_stalled_jobs``) and hands them out again, so a job whose worker died
runs again after about ``lease`` seconds. See ``docs/jobs.md`` for why procrastinate.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final

import anyio
import sqlalchemy as sa
from sqlalchemy.engine import Connection, make_url

import libtext.jobs._db as _db
from libtext._wording import install_hint
from libtext.errors import ConfigurationError, LibtextError, StoreError
from libtext.jobs._models import JobState

if TYPE_CHECKING:  # pragma: no cover
    from libtext.jobs._run import Runner

__all__ = ["QUEUE", "TASK", "Deferrer", "conninfo", "ensure_schema", "work_procrastinate"]

logger = logging.getLogger("libtext.jobs")

QUEUE: Final = "libtext"
TASK: Final = "libtext_process"
_SCHEMA_LOCK: Final = 0x6C69627072636E  # serializes procrastinate's schema creation


def _procrastinate() -> Any:
    try:
        import procrastinate
    except ImportError as exc:
        raise ConfigurationError(
            f"Jobs on PostgreSQL run on procrastinate: {install_hint('jobs')} ({exc})."
        ) from None
    return procrastinate


def conninfo(url: str) -> str:
    """A libpq URI for a SQLAlchemy PostgreSQL URL (``postgresql+psycopg://...``)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise ConfigurationError(
            "The scale-out job queue runs on PostgreSQL: url must be a "
            "'postgresql://' or 'postgresql+psycopg://' URL.",
            details={"url": parsed.render_as_string(hide_password=True)},
        )
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def ensure_schema(conn: Connection) -> None:
    """Make procrastinate's tables if missing (in the caller's transaction, locked)."""
    procrastinate = _procrastinate()
    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SCHEMA_LOCK})
    if conn.execute(sa.text("SELECT to_regclass('procrastinate_jobs')")).scalar() is None:
        schema = procrastinate.schema.SchemaManager.get_schema()
        conn.exec_driver_sql(schema.replace("%", "%%"))  # no parameters: "%" is literal


def _app(connector: Any) -> Any:
    procrastinate = _procrastinate()
    app = procrastinate.App(connector=connector)
    return app


class Deferrer:
    """Hands jobs to procrastinate from sync code (``submit``; ``asubmit`` runs it in a thread).

    One small connection pool per queue, opened on first use, closed by ``close``.
    """

    def __init__(self, info: str) -> None:
        self.info = info
        self._lock = threading.Lock()
        self._app: Any = None
        self._task: Any = None

    def defer(self, job_id: str, *, at: datetime | None = None) -> None:
        with self._lock:
            if self._app is None:
                procrastinate = _procrastinate()
                connector = procrastinate.SyncPsycopgConnector(
                    conninfo=self.info, min_size=1, max_size=2
                )
                app = _app(connector)
                self._task = app.task(name=TASK, queue=QUEUE)(_not_here)
                app.open()
                self._app = app
            task = self._task
        (task.configure(schedule_at=at) if at else task).defer(job_id=job_id)

    def close(self) -> None:
        with self._lock:
            if self._app is not None:
                self._app.close()
                self._app = None


async def _async_commits(connection: Any) -> None:
    await connection.execute("SET synchronous_commit TO off")
    if not connection.autocommit:
        await connection.commit()


def _not_here(job_id: str) -> None:  # pragma: no cover - the workers' task runs the job
    raise RuntimeError("libtext jobs run in workers (JobQueue.work)")


async def work_procrastinate(
    runner: Runner, info: str, concurrency: int, stopped: Callable[[], bool]
) -> None:
    """Run jobs handed out by procrastinate until ``stopped()``; running ones go back."""
    from libtext.jobs._embedded import HOST, STOP_CHECK

    procrastinate = _procrastinate()
    lease = runner.lease
    # The worker's own writes (taking a job, ending it, heartbeats) can be lost in a
    # database crash at no cost (the job is handed out again, and libtext's row says
    # whether it is over): they need not wait for a disk flush each.
    app = _app(procrastinate.PsycopgConnector(conninfo=info, configure=_async_commits))

    @app.task(name=TASK, queue=QUEUE, pass_context=True)  # type: ignore[untyped-decorator]
    async def process(context: Any, job_id: str) -> None:
        owner = f"{HOST}:{os.getpid()}:p{context.job.id}-{context.job.attempts}"
        started = await runner.db(_db.start, job_id, owner, lease)
        if started is None:
            return  # over already (cancelled while queued, or ended by another run)
        job, spec = started
        try:
            state = await runner.run(job, spec, owner)
        except anyio.get_cancelled_exc_class():
            with anyio.CancelScope(shield=True):  # this worker stops: the job goes back
                with contextlib.suppress(LibtextError):
                    if await runner.db(_db.requeue, job.id, owner, 0.0, job.progress):
                        await process.defer_async(job_id=job_id)
            raise
        if state is JobState.QUEUED:  # a failure that may pass: again, after its delay
            when = await runner.db(_db.not_before, job_id, write=False)
            await process.configure(schedule_at=when).defer_async(job_id=job_id)

    async def rescue() -> None:
        """Hand out again the jobs of workers that stopped beating (died)."""
        while True:
            await anyio.sleep(min(lease / 2, 5.0))
            try:
                stalled = await app.job_manager.get_stalled_jobs(
                    queue=QUEUE, seconds_since_heartbeat=lease
                )
                for job in stalled:
                    job_id = str(job.task_kwargs.get("job_id", ""))
                    # procrastinate's heartbeat is a worker's; libtext's lease is the job's
                    # own: a worker whose loop was only slow keeps its job.
                    if not await runner.db(_db.lease_over, job_id, write=False):
                        continue
                    with contextlib.suppress(Exception):  # another worker retried it first
                        await app.job_manager.retry_job(job)
                        logger.info("job %s: its worker stopped; handed out again", job_id)
                # A job whose procrastinate job ended while a worker still ran it (a
                # worker thought dead, then back) has nothing to retry: hand it anew.
                for job_id in await runner.db(_db.orphans, lease, write=False):
                    await process.defer_async(job_id=job_id)
                    logger.info("job %s: no worker holds it; handed out anew", job_id)
            except Exception as exc:  # the database is away: try again later
                logger.warning("looking for stalled jobs failed: %s", type(exc).__name__)

    try:
        async with app.open_async(), anyio.create_task_group() as tg:
            tg.start_soon(rescue)

            async def run() -> None:
                await app.run_worker_async(
                    queues=[QUEUE],
                    concurrency=concurrency,
                    install_signal_handlers=False,
                    update_heartbeat_interval=max(lease / 3, 0.2),
                    stalled_worker_timeout=lease,
                    shutdown_graceful_timeout=0,
                    delete_jobs="successful",
                    fetch_job_polling_interval=5.0,
                )

            tg.start_soon(run)
            while not stopped():
                await anyio.sleep(STOP_CHECK)
            tg.cancel_scope.cancel()
    except procrastinate.exceptions.ConnectorException as exc:
        raise StoreError(
            f"The job queue's database failed: {type(exc.__cause__ or exc).__name__}.",
        ) from None
