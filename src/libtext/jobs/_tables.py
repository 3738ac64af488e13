"""The job tables, in the TextStore's own database, beside the texts.

``libtext_jobs``
    One row per job: what to process, its state, progress and outcome, and (for the
    embedded queue) which worker holds it and until when (``owner``, ``lease_until``).
``libtext_job_inputs``
    The uploaded PDF of a ``pdf`` job, kept apart so listing never reads it, and
    deleted when the job ends.
``libtext_job_events``
    Every change of a job, numbered per job from 1: what ``events()`` and the SSE
    route replay to a client that reconnects.
``libtext_job_answers``
    On PostgreSQL, the provider answers a running job got, kept with the job until it
    ends: a worker on another machine that resumes the job loads them into its own
    provider cache first (see ``libtext.jobs._answers``).

They are made on a :class:`JobQueue`'s first use with ``CREATE TABLE IF NOT
EXISTS``: adding tables changes nothing a TextStore reads, so the store's schema
version does not move for them.
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa

__all__ = ["ANSWERS", "EVENTS", "INPUTS", "JOBS", "metadata"]

metadata: Final = sa.MetaData()

_TIME = sa.DateTime(timezone=True)

JOBS: Final = sa.Table(
    "libtext_jobs",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("kind", sa.String(10), nullable=False),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("provider", sa.Text, nullable=False, server_default="offline"),
    sa.Column("options", sa.Text, nullable=False, server_default="{}"),  # JSON
    sa.Column("filename", sa.Text),
    sa.Column("work_id", sa.Text),
    sa.Column("max_pages", sa.Integer),
    sa.Column("stage", sa.String(20), nullable=False, server_default=""),
    sa.Column("done", sa.Integer, nullable=False, server_default="0"),
    sa.Column("total", sa.Integer, nullable=False, server_default="0"),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("max_attempts", sa.Integer, nullable=False, server_default="3"),
    sa.Column("created_at", _TIME, nullable=False),
    sa.Column("started_at", _TIME),
    sa.Column("finished_at", _TIME),
    sa.Column("not_before", _TIME, nullable=False),
    sa.Column("slug", sa.Text),
    sa.Column("error", sa.Text),  # JSON of an ErrorResponse
    sa.Column("cancel_requested", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("owner", sa.String(80)),  # "<host>:<pid>:<token>"
    sa.Column("lease_until", _TIME),
    sa.Column("last_event", sa.Integer, nullable=False, server_default="0"),
    sa.Index("ix_libtext_jobs_state_created", "state", "created_at"),
    sa.Index("ix_libtext_jobs_created", "created_at", "id"),
)

INPUTS: Final = sa.Table(
    "libtext_job_inputs",
    metadata,
    sa.Column("job_id", sa.String(40), primary_key=True),
    sa.Column("data", sa.LargeBinary, nullable=False),
)

EVENTS: Final = sa.Table(
    "libtext_job_events",
    metadata,
    sa.Column("job_id", sa.String(40), primary_key=True),
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("type", sa.String(10), nullable=False),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("stage", sa.String(20), nullable=False, server_default=""),
    sa.Column("done", sa.Integer, nullable=False, server_default="0"),
    sa.Column("total", sa.Integer, nullable=False, server_default="0"),
    sa.Column("at", _TIME, nullable=False),
)

ANSWERS: Final = sa.Table(
    "libtext_job_answers",
    metadata,
    sa.Column("job_id", sa.String(40), primary_key=True),
    sa.Column("key", sa.String(64), primary_key=True),  # the provider cache's key
    sa.Column("task", sa.String(20), nullable=False),
    sa.Column("provider", sa.Text, nullable=False),
    sa.Column("prompt_version", sa.String(40), nullable=False),
    sa.Column("value", sa.Text, nullable=False),
)
