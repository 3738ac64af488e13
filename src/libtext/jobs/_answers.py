"""A job's provider answers kept with the job, for workers on several machines.

Each worker keeps provider answers in its local provider cache (a SQLite file), so a
job run again on the same machine, or with ``LIBTEXT_CACHE_DIR`` on a shared folder,
sends the provider only the calls that had no answer yet. On PostgreSQL the workers
may be on other machines, each with its own cache: there a job's answers are also
written to ``libtext_job_answers`` in the jobs database, with the job's progress (at
most a quarter second after they arrive, in the same transaction), and a worker that
takes the job again (its first worker died) copies them into its own cache before it
starts. Reads stay local (a primary-key read of a file, inline on the event loop). The
rows go when the job ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libtext.jobs._db as _db
from libtext.providers._cache import ProviderCache

if TYPE_CHECKING:  # pragma: no cover
    from libtext.store import TextStore

__all__ = ["JobAnswers", "load_answers"]


class JobAnswers(ProviderCache):
    """The worker's provider cache, each new answer also handed to ``keep`` for the job.

    Args:
        local: The worker's own cache (answers are read there, and written there too).
        keep: Called with each new answer (from the cache's thread); the job's runner
            writes them with its next progress.
    """

    def __init__(self, local: ProviderCache, keep: Callable[[_db.Answer], None]) -> None:
        super().__init__(local.path)
        self.local = local
        self._keep = keep

    def __repr__(self) -> str:
        return f"JobAnswers({self.local!r})"

    def get(self, key: str) -> str | None:
        value = self.local.get(key)
        if value is None:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def put(self, key: str, value: str, *, task: str, provider: str, prompt_version: str) -> None:
        self.local.put(key, value, task=task, provider=provider, prompt_version=prompt_version)
        self._keep(_db.Answer(key, value, task, provider, prompt_version))

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
