"""The job rows: every read and write of the job tables, on a caller's connection.

Each function runs inside one transaction the caller opened (``TextStore._connection``:
on SQLite a write takes the lock at ``BEGIN IMMEDIATE``, so two worker processes never
claim the same job). Times are UTC from this process's clock; the embedded queue runs
on one machine, where they agree.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from libtext.errors import QueueFullError
from libtext.jobs._models import FINAL_STATES, Job, JobEvent, JobProgress, JobState
from libtext.jobs._tables import ANSWERS, EVENTS, INPUTS, JOBS
from libtext.models import ErrorResponse

__all__ = [
    "add_event",
    "claim",
    "events_after",
    "finish",
    "get",
    "insert",
    "list_jobs",
    "now",
    "read_input",
    "request_cancel",
]

_FINAL = [s.value for s in FINAL_STATES]

SAVE_PARTIAL = "libtext:save_partial"
"""The job's ``save_partial``, kept in its ``options`` JSON (no column: tables made by an
older libtext need no change) and taken out when the job is claimed. No model option is
spelt with a colon."""


def now() -> datetime:
    return datetime.now(UTC)


def relaxed(conn: Connection) -> None:
    """Commit this transaction without waiting for PostgreSQL to flush it to disk.

    For the writes a database crash may lose at no cost: a claim (the job is taken
    again), progress (the next write says more), a lease's beat. On PostgreSQL each
    commit otherwise waits for a WAL flush (milliseconds, tens on a busy disk), several
    per job. Never for a text's save or a job's end. SQLite: no change.
    """
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")


def to_job(row: Any) -> Job:
    error = ErrorResponse.model_validate_json(row.error) if row.error else None
    return Job(
        id=row.id,
        state=JobState(row.state),
        kind=row.kind,
        progress=JobProgress(stage=row.stage, done=row.done, total=row.total),
        attempts=row.attempts,
        created_at=row.created_at,
        started_at=row.started_at,
        finished_at=row.finished_at,
        slug=row.slug,
        error=error,
        filename=row.filename,
        work_id=row.work_id,
        provider=row.provider,
        cancel_requested=bool(row.cancel_requested),
    )


_PUBLIC = [c for c in JOBS.c if c.name not in ("owner", "lease_until", "options")]


QUEUE_RETRY_AFTER = 30.0
"""Seconds a refused submitter is told to wait (``Retry-After``): about one job's run."""


def waiting(conn: Connection) -> tuple[int, int]:
    """Jobs waiting (``queued``), and the bytes of PDF they hold."""
    count, held = conn.execute(
        sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(sa.func.length(INPUTS.c.data)), 0))
        .select_from(JOBS.outerjoin(INPUTS, INPUTS.c.job_id == JOBS.c.id))
        .where(JOBS.c.state == JobState.QUEUED.value)
    ).one()
    return int(count), int(held)


def check_room(conn: Connection, size: int, max_jobs: int | None, max_bytes: int | None) -> None:
    """Refuse a job of ``size`` PDF bytes when the waiting jobs already fill the queue.

    Read in the transaction that inserts the job, so a burst of submissions cannot all
    pass the same count (on SQLite the write lock is taken first; on PostgreSQL two
    at the very edge may both pass, which bounds the overshoot by the writers at once).
    """
    if max_jobs is None and max_bytes is None:
        return
    count, held = waiting(conn)
    if max_jobs is not None and count >= max_jobs:
        raise QueueFullError(
            f"The job queue already holds {count} waiting jobs, its limit max_queued="
            f"{max_jobs}; submit again in a while.",
            retry_after=QUEUE_RETRY_AFTER,
            details={"limit": "max_queued", "max_queued": max_jobs, "queued": count},
        )
    if max_bytes is not None and held + size > max_bytes:
        raise QueueFullError(
            f"The waiting jobs' PDFs would pass the limit max_queued_bytes={max_bytes:,} "
            f"({held:,} bytes queued, {size:,} more); submit again in a while.",
            retry_after=QUEUE_RETRY_AFTER,
            details={
                "limit": "max_queued_bytes",
                "max_queued_bytes": max_bytes,
                "queued_bytes": held,
            },
        )


def insert(
    conn: Connection,
    *,
    job_id: str,
    kind: str,
    data: bytes | None,
    filename: str | None,
    work_id: str | None,
    max_pages: int | None,
    provider: str,
    options: dict[str, Any],
    max_attempts: int,
    durable_later: bool = False,
    save_partial: bool = False,
) -> Job:
    """Queue a job: its row (event 1 numbered in it), its PDF and its ``queued`` event.

    ``durable_later``: a synchronous commit on the same PostgreSQL server follows (the
    queue's own record of the job), and flushes this one's WAL with it.
    """
    if durable_later:
        relaxed(conn)
    at = now()
    conn.execute(
        JOBS.insert().values(
            id=job_id,
            kind=kind,
            state=JobState.QUEUED.value,
            provider=provider,
            options=json.dumps(
                {**options, SAVE_PARTIAL: True} if save_partial else options,
                ensure_ascii=False,
                sort_keys=True,
            ),
            filename=filename,
            work_id=work_id,
            max_pages=max_pages,
            max_attempts=max_attempts,
            created_at=at,
            not_before=at,
            last_event=1,
        )
    )
    if data is not None:
        conn.execute(INPUTS.insert().values(job_id=job_id, data=data))
    _insert_event(conn, job_id, 1, "state", JobState.QUEUED, JobProgress(), at)
    return Job(
        id=job_id,
        state=JobState.QUEUED,
        kind=kind,
        created_at=at,
        filename=filename,
        work_id=work_id,
        provider=provider,
    )


def get(conn: Connection, job_id: str) -> Job | None:
    row = conn.execute(sa.select(*_PUBLIC).where(JOBS.c.id == job_id)).first()
    return None if row is None else to_job(row)


def list_jobs(conn: Connection, state: JobState | None, limit: int, offset: int) -> list[Job]:
    query = sa.select(*_PUBLIC)
    if state is not None:
        query = query.where(JOBS.c.state == state.value)
    query = query.order_by(JOBS.c.created_at.desc(), JOBS.c.id.desc()).limit(limit).offset(offset)
    return [to_job(row) for row in conn.execute(query)]


def add_event(
    conn: Connection,
    job_id: str,
    kind: str,
    state: JobState,
    progress: JobProgress,
    at: datetime | None = None,
    values: dict[str, Any] | None = None,
) -> int:
    """Number the job's next event (in the job row, so ids never repeat) and record it.

    ``values`` are written to the job's row by the same statement (a state change and
    its event cost one update, not two).
    """
    number = conn.execute(
        JOBS.update()
        .where(JOBS.c.id == job_id)
        .values(last_event=JOBS.c.last_event + 1, **(values or {}))
        .returning(JOBS.c.last_event)
    ).scalar_one()
    _insert_event(conn, job_id, int(number), kind, state, progress, at)
    return int(number)


def _insert_event(
    conn: Connection,
    job_id: str,
    number: int,
    kind: str,
    state: JobState,
    progress: JobProgress,
    at: datetime | None,
) -> None:
    conn.execute(
        EVENTS.insert().values(
            job_id=job_id,
            id=number,
            type=kind,
            state=state.value,
            stage=progress.stage,
            done=progress.done,
            total=progress.total,
            at=at or now(),
        )
    )


def events_after(conn: Connection, job_id: str, after: int, limit: int = 500) -> list[JobEvent]:
    rows = conn.execute(
        sa.select(EVENTS)
        .where(EVENTS.c.job_id == job_id, EVENTS.c.id > after)
        .order_by(EVENTS.c.id)
        .limit(limit)
    )
    return [
        JobEvent(
            id=r.id,
            job_id=r.job_id,
            type=r.type,
            state=JobState(r.state),
            progress=JobProgress(stage=r.stage, done=r.done, total=r.total),
            at=r.at,
        )
        for r in rows
    ]


def request_cancel(conn: Connection, job_id: str) -> Job | None:
    """A queued job is cancelled at once; a running one is flagged for its worker."""
    job = get(conn, job_id)
    if job is None or job.state.final:
        return job
    if job.state is JobState.QUEUED:
        _end(conn, job_id, JobState.CANCELLED, job.progress)
    elif not job.cancel_requested:
        conn.execute(JOBS.update().where(JOBS.c.id == job_id).values(cancel_requested=True))
    return get(conn, job_id)


def _end(
    conn: Connection,
    job_id: str,
    state: JobState,
    progress: JobProgress,
    *,
    slug: str | None = None,
    error: ErrorResponse | None = None,
) -> None:
    at = now()
    add_event(
        conn,
        job_id,
        "state",
        state,
        progress,
        at,
        {
            "state": state.value,
            "finished_at": at,
            "slug": slug,
            "error": error.model_dump_json() if error is not None else None,
            "owner": None,
            "lease_until": None,
            "stage": progress.stage,
            "done": progress.done,
            "total": progress.total,
        },
    )
    conn.execute(INPUTS.delete().where(INPUTS.c.job_id == job_id))
    conn.execute(ANSWERS.delete().where(ANSWERS.c.job_id == job_id))


def held(conn: Connection, job_id: str, owner: str) -> Any:
    """The job's row if ``owner`` still holds it running, else ``None`` (lease lost)."""
    return conn.execute(
        sa.select(
            JOBS.c.state, JOBS.c.cancel_requested, JOBS.c.stage, JOBS.c.done, JOBS.c.total
        ).where(JOBS.c.id == job_id, JOBS.c.owner == owner, JOBS.c.state == "running")
    ).first()


def finish(
    conn: Connection,
    job_id: str,
    owner: str,
    state: JobState,
    progress: JobProgress,
    *,
    slug: str | None = None,
    error: ErrorResponse | None = None,
    steps: Sequence[JobProgress] = (),
    checked: bool = False,
) -> bool:
    """End a job this worker holds; ``False`` (and no change) if it holds it no more.

    ``steps`` are progress still to record first; ``checked``: the caller has just read
    :func:`held` in this transaction (the save does, to refuse a cancelled job).
    """
    if not checked and held(conn, job_id, owner) is None:
        return False
    write_steps(conn, job_id, steps)
    _end(conn, job_id, state, progress, slug=slug, error=error)
    return True


def requeue(conn: Connection, job_id: str, owner: str, delay: float, progress: JobProgress) -> bool:
    """Put a job this worker holds back in the queue, to run again after ``delay`` s."""
    if held(conn, job_id, owner) is None:
        return False
    add_event(
        conn,
        job_id,
        "state",
        JobState.QUEUED,
        progress,
        None,
        {
            "state": JobState.QUEUED.value,
            "owner": None,
            "lease_until": None,
            "not_before": now() + timedelta(seconds=delay),
        },
    )
    return True


def progress(
    conn: Connection,
    job_id: str,
    owner: str,
    steps: Sequence[JobProgress],
    answers: Sequence[Answer] = (),
) -> Any:
    """Record progress of a job this worker holds, and provider answers to keep with it;
    its row as :func:`held` reads it, or ``None`` (and nothing written) if the worker
    holds it no more."""
    relaxed(conn)
    row = held(conn, job_id, owner)
    if row is not None:
        write_steps(conn, job_id, steps)
        save_answers(conn, job_id, answers)
    return row


def write_steps(conn: Connection, job_id: str, steps: Sequence[JobProgress]) -> None:
    """One ``progress`` event per step; the job's row keeps the last (same statement)."""
    for k, step in enumerate(steps):
        last = k == len(steps) - 1
        values = {"stage": step.stage, "done": step.done, "total": step.total} if last else None
        add_event(conn, job_id, "progress", JobState.RUNNING, step, None, values)


def heartbeat(conn: Connection, job_id: str, owner: str, lease: float) -> Any:
    """Extend the lease; the row (with ``cancel_requested``) if still held, else ``None``."""
    relaxed(conn)
    row = held(conn, job_id, owner)
    if row is not None:
        conn.execute(
            JOBS.update()
            .where(JOBS.c.id == job_id)
            .values(lease_until=now() + timedelta(seconds=lease))
        )
    return row


def claim(conn: Connection, owner: str, lease: float) -> tuple[Job, dict[str, Any]] | None:
    """Take the oldest job due, or a running one whose worker's lease ran out."""
    relaxed(conn)
    at = now()
    due = sa.or_(
        sa.and_(JOBS.c.state == "queued", JOBS.c.not_before <= at),
        sa.and_(JOBS.c.state == "running", JOBS.c.lease_until < at),
    )
    while True:
        row = conn.execute(
            sa.select(JOBS)
            .where(due)
            .order_by(JOBS.c.created_at, JOBS.c.id)
            .limit(1)
            .with_for_update(skip_locked=True)  # PostgreSQL; SQLite's BEGIN IMMEDIATE serializes
        ).first()
        if row is None:
            return None
        taken = _take(conn, row, owner, lease, at)
        if taken is not None:
            return taken


def start(
    conn: Connection, job_id: str, owner: str, lease: float
) -> tuple[Job, dict[str, Any]] | None:
    """Take one job by id, as the scale-out queue hands it out; ``None`` if it is over."""
    relaxed(conn)
    row = conn.execute(sa.select(JOBS).where(JOBS.c.id == job_id).with_for_update()).first()
    if row is None or JobState(row.state).final:
        return None
    at = now()
    if row.state == "running" and row.lease_until is not None and _aware(row.lease_until) > at:
        return None  # a live worker holds it (handed out twice): leave it to that one
    return _take(conn, row, owner, lease, at)


def orphans(conn: Connection, lease: float) -> list[str]:
    """Running jobs whose lease ran out ``lease`` seconds ago and more: nobody took them."""
    limit = now() - timedelta(seconds=lease)
    return [
        str(r)
        for r in conn.execute(
            sa.select(JOBS.c.id).where(JOBS.c.state == "running", JOBS.c.lease_until < limit)
        ).scalars()
    ]


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _take(
    conn: Connection, row: Any, owner: str, lease: float, at: datetime
) -> tuple[Job, dict[str, Any]] | None:
    """Run ``row``'s job under ``owner``; ``None`` if it ended here instead.

    A job taken again after its worker died counts one more attempt; once its attempts
    are spent it fails instead (a document that kills its worker every time must not
    take the queue down with it), and a job whose cancel was asked is cancelled.
    """
    current = JobProgress(stage=row.stage, done=row.done, total=row.total)
    if row.cancel_requested:
        _end(conn, row.id, JobState.CANCELLED, current)
        return None
    if row.attempts >= row.max_attempts:
        error = ErrorResponse.model_validate(
            {
                "error": {
                    "code": "worker_lost",
                    "message": f"The job's worker stopped during each of its "
                    f"{row.attempts} attempts; it is not tried again.",
                    "details": {"attempts": row.attempts},
                }
            }
        )
        _end(conn, row.id, JobState.FAILED, current, error=error)
        return None
    add_event(
        conn,
        row.id,
        "state",
        JobState.RUNNING,
        current,
        at,
        {
            "state": JobState.RUNNING.value,
            "owner": owner,
            "lease_until": at + timedelta(seconds=lease),
            "attempts": JOBS.c.attempts + 1,
            "started_at": sa.func.coalesce(JOBS.c.started_at, at),
        },
    )
    job = to_job(row)
    job = job.model_copy(
        update={
            "state": JobState.RUNNING,
            "attempts": row.attempts + 1,
            "started_at": job.started_at or at,
        }
    )
    options = json.loads(row.options or "{}")
    spec: dict[str, Any] = {
        "options": options,
        "max_pages": row.max_pages,
        "save_partial": bool(options.pop(SAVE_PARTIAL, False)),
    }
    if row.kind == "pdf":  # read with the claim: one transaction less per job
        spec["data"] = read_input(conn, row.id)
    return job, spec


def lease_over(conn: Connection, job_id: str) -> bool:
    """Whether no worker holds the job any more (its lease ran out, or it is not running)."""
    row = conn.execute(
        sa.select(JOBS.c.state, JOBS.c.lease_until).where(JOBS.c.id == job_id)
    ).first()
    if row is None or row.state != "running" or row.lease_until is None:
        return True
    return bool(_aware(row.lease_until) < now())


def not_before(conn: Connection, job_id: str) -> datetime | None:
    value = conn.execute(sa.select(JOBS.c.not_before).where(JOBS.c.id == job_id)).scalar()
    return None if value is None else _aware(value)


def delete(conn: Connection, job_id: str) -> None:
    """Forget a job whose submission failed half-way (no worker ever saw it)."""
    conn.execute(ANSWERS.delete().where(ANSWERS.c.job_id == job_id))
    conn.execute(EVENTS.delete().where(EVENTS.c.job_id == job_id))
    conn.execute(INPUTS.delete().where(INPUTS.c.job_id == job_id))
    conn.execute(JOBS.delete().where(JOBS.c.id == job_id))


@dataclass(frozen=True)
class Answer:
    """A provider answer as the provider cache keeps it, to keep with its job."""

    key: str
    value: str
    task: str
    provider: str
    prompt_version: str


def save_answers(conn: Connection, job_id: str, answers: Sequence[Answer]) -> None:
    """Keep provider answers with their job (a key given again replaces its answer)."""
    if not answers:
        return
    latest = {a.key: a for a in answers}
    conn.execute(
        ANSWERS.delete().where(ANSWERS.c.job_id == job_id, ANSWERS.c.key.in_(list(latest)))
    )
    conn.execute(
        ANSWERS.insert(),
        [
            {
                "job_id": job_id,
                "key": a.key,
                "task": a.task,
                "provider": a.provider,
                "prompt_version": a.prompt_version,
                "value": a.value,
            }
            for a in latest.values()
        ],
    )


def answers(conn: Connection, job_id: str) -> list[Any]:
    """The provider answers kept with a job: ``key, task, provider, prompt_version, value``."""
    return list(conn.execute(sa.select(ANSWERS).where(ANSWERS.c.job_id == job_id)))


def read_input(conn: Connection, job_id: str) -> bytes | None:
    data = conn.execute(sa.select(INPUTS.c.data).where(INPUTS.c.job_id == job_id)).scalar()
    return None if data is None else bytes(data)


def state_of(conn: Connection, job_id: str) -> str | None:
    value = conn.execute(sa.select(JOBS.c.state).where(JOBS.c.id == job_id)).scalar()
    return None if value is None else str(value)
