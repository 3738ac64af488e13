"""A job's provider answers kept with the job, for workers on several machines.

Each worker keeps provider answers in its local provider cache (a SQLite file), so a
job run again on the same machine, or with ``LIBTEXT_CACHE_DIR`` on a shared folder,
sends the provider only the calls that had no answer yet. On PostgreSQL the workers
may be on other machines, each with its own cache: there a job's answers are also
written to ``libtext_job_answers`` in the jobs database as they arrive, and a worker
that takes the job again (its first worker died) copies them into its own cache
before it starts. Reads stay local (a primary-key read of a file, inline on the
event loop); each answer costs one more write, off the loop. The rows go when the
job ends.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import libtext.jobs._db as _db
from libtext.providers._cache import ProviderCache

if TYPE_CHECKING:  # pragma: no cover
    from libtext.store import TextStore

__all__ = ["JobAnswers", "load_answers"]

logger = logging.getLogger("libtext.jobs")


class JobAnswers(ProviderCache):
    """The worker's provider cache, each new answer also kept with the job.

    Args:
        local: The worker's own cache (answers are read there, and written there too).
        store: The store whose database holds the job.
        job_id: The job the answers belong to.
    """

    def __init__(self, local: ProviderCache, store: TextStore, job_id: str) -> None:
        super().__init__(local.path)
        self.local = local
        self.store = store
        self.job_id = job_id

    def __repr__(self) -> str:
        return f"JobAnswers({self.local!r}, job {self.job_id})"

    def get(self, key: str) -> str | None:
        value = self.local.get(key)
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: str, value: str, *, task: str, provider: str, prompt_version: str) -> None:
        """Into the local cache, and with the job (a failure there only costs a rerun)."""
        self.local.put(key, value, task=task, provider=provider, prompt_version=prompt_version)
        try:
            with self.store._connection(write=True) as conn:
                _db.save_answer(
                    conn,
                    self.job_id,
                    key,
                    value,
                    task=task,
                    provider=provider,
                    prompt_version=prompt_version,
                )
        except Exception as exc:  # the database is away: the answer stays local
            logger.warning("job %s: answer not kept with the job (%s)", self.job_id, exc)

    def __len__(self) -> int:
        return len(self.local)

    def clear(self) -> None:
        self.local.clear()

    def close(self) -> None:
        """The local cache is the worker's: it stays open."""


def load_answers(store: TextStore, job_id: str, local: ProviderCache) -> int:
    """Copy the answers kept with a job into ``local``; how many there were."""
    with store._connection() as conn:
        rows = _db.answers(conn, job_id)
    for row in rows:
        local.put(
            row.key,
            row.value,
            task=row.task,
            provider=row.provider,
            prompt_version=row.prompt_version,
        )
    return len(rows)
