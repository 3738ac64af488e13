"""What the jobs commands share: opening the queue, and a job as one line of text.

``libtext jobs``, ``libtext process --queue`` and ``libtext library process`` use the
queue in the store's database (``--store`` or ``LIBTEXT_DATABASE_URL``), the one
``libtext serve`` and ``libtext worker`` take jobs from.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from libtext.cli._extras import STORE_ENV, missing_extra, open_store
from libtext.cli._options import store_url_option

if TYPE_CHECKING:
    from libtext.jobs import Job, JobQueue

__all__ = ["describe", "job_line", "open_queue", "store_option"]

store_option = store_url_option(
    f"Database URL of the store whose job queue to use (default: {STORE_ENV}, else "
    "texts.db in the user data directory).",
)


@contextmanager
def open_queue(store_url: str | None) -> Iterator[JobQueue]:
    """The job queue of the store at ``store_url``, closed (with the store) at the end."""
    try:
        from libtext.jobs import JobQueue
    except ImportError as exc:
        raise missing_extra("store", exc) from None
    store = open_store(store_url)
    try:
        with JobQueue(store) as queue:
            yield queue
    finally:
        store.close()


def describe(job: Job) -> str:
    """What the job processes: ``work 3400000000`` or ``pdf doc.pdf``."""
    if job.kind == "work":
        return f"work {job.work_id or '?'}"
    return f"pdf {job.filename or '(upload)'}"


def job_line(job: Job) -> str:
    """``id  state  what  stage done/total  slug-or-error``, tab separated."""
    from libtext.models import format_utc

    progress = job.progress
    where = f"{progress.stage} {progress.done}/{progress.total}" if progress.stage else "-"
    outcome = job.slug or (job.error.error.code if job.error else "")
    fields = [job.id, job.state.value, describe(job), where, format_utc(job.created_at)]
    return "\t".join([*fields, *([outcome] if outcome else [])])
