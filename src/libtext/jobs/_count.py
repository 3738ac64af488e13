"""How many jobs there are (in a state): the total of a paged list.

Kept beside the queue's tables, which it reads; ``GET /api/jobs`` needs it for
``total`` and ``totalPages``, as ``GET /api/texts`` has them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy.engine import Connection

    from libtext.jobs import JobQueue, JobState

__all__ = ["acount_jobs", "count_jobs"]


def count_jobs(queue: JobQueue, state: JobState | None = None) -> int:
    """Jobs in ``queue`` (only those in ``state`` if given)."""
    import sqlalchemy as sa

    from libtext.jobs._tables import JOBS

    def count(conn: Connection) -> int:
        query = sa.select(sa.func.count()).select_from(JOBS)
        if state is not None:
            query = query.where(JOBS.c.state == state.value)
        return int(conn.execute(query).scalar_one())

    return int(queue._run("count the jobs", count))


async def acount_jobs(queue: JobQueue, state: JobState | None = None) -> int:
    """Async twin of :func:`count_jobs`."""
    return await anyio.to_thread.run_sync(count_jobs, queue, state)
