"""The job models: what ``JobQueue`` returns and ``/api/jobs`` serves.

JSON keys are camelCase (``createdAt``, ``jobId``), as the spec's ``pageSize``; Python
attributes are snake_case and either spelling validates.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import ConfigDict, Field
from pydantic.alias_generators import to_camel

from libtext.models import ErrorResponse, UtcDatetime, _Model

__all__ = ["FINAL_STATES", "Job", "JobEvent", "JobKind", "JobProgress", "JobState"]


class JobState(StrEnum):
    """Where a job is: ``queued -> running -> succeeded | failed | cancelled``.

    A running job whose worker dies goes back to ``running`` under a new worker (its
    ``attempts`` grows); a job whose provider call fails in a way that may pass goes
    back to ``queued`` until its attempts are spent.
    """

    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def final(self) -> bool:
        """Whether the job is over (no event follows a final state)."""
        return self in FINAL_STATES


FINAL_STATES = frozenset({JobState.SUCCEEDED, JobState.FAILED, JobState.CANCELLED})

JobKind = Literal["pdf", "work"]
"""What a job processes: an uploaded PDF or an online library work."""


class _JobModel(_Model):
    model_config = ConfigDict(
        extra="ignore",
        use_attribute_docstrings=True,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        alias_generator=to_camel,
    )


class JobProgress(_JobModel):
    """How far a running job is: ``done`` of ``total`` in ``stage``.

    Stages follow :func:`libtext.process_document`: ``extract``, ``outline``,
    ``section``, ``translate``, ``save``; ``""`` before the job starts. In
    ``translate`` the steps are provider calls: ``done`` counts the answered ones and
    ``total`` the calls started plus at least one per section not done yet, so it
    may grow while sections start.
    """

    stage: str = Field(default="", description="the pipeline's stage; empty before the start")
    done: int = Field(default=0, ge=0, description="steps done in the stage")
    total: int = Field(default=0, ge=0, description="steps of the stage known so far")


class Job(_JobModel):
    """A processing job and where it is.

    ``slug`` is set once the job ``succeeded`` (the stored text); ``error`` once it
    ``failed`` (as the HTTP adapter's error body). ``attempts`` counts the runs
    started: a worker's death or a passing failure starts another.
    ``cancel_requested`` is set by :meth:`JobQueue.cancel` on a running job until its
    worker stops it (extension).
    """

    id: str
    """The job's id."""
    state: JobState
    """queued, running, succeeded, failed or cancelled."""
    kind: JobKind
    """pdf (an upload) or work (an online library work)."""
    progress: JobProgress = Field(default_factory=JobProgress)
    """How far the job is."""
    attempts: int = Field(default=0, ge=0)
    """Runs started (a worker's death or a passing failure starts another)."""
    created_at: UtcDatetime
    """When it was submitted (UTC)."""
    started_at: UtcDatetime | None = None
    """When its latest run started (UTC)."""
    finished_at: UtcDatetime | None = None
    """When it ended (UTC)."""
    slug: str | None = None
    """The stored text, once it succeeded."""
    error: ErrorResponse | None = None
    """The error, once it failed."""
    filename: str | None = None
    """The uploaded PDF's name, if given."""
    work_id: str | None = None
    """The library work's id, for a work job."""
    provider: str = "offline"
    """The provider that outlines and translates it."""
    cancel_requested: bool = False
    """True while a running job's worker stops it."""


class JobEvent(_JobModel):
    """One change of a job: its state, or its progress.

    ``id`` grows by one per event of a job, from 1 (Server-Sent Events use it as the
    event id, so a client that reconnects asks for the events after the last it saw).
    ``state`` and ``progress`` are the job's as of this event.
    """

    id: int = Field(ge=1)
    """The event's number for its job, from 1 (the SSE event id)."""
    job_id: str
    """The job's id."""
    type: Literal["state", "progress"]
    """state (the job's state changed) or progress."""
    state: JobState
    """The job's state as of this event."""
    progress: JobProgress = Field(default_factory=JobProgress)
    """The job's progress as of this event."""
    at: UtcDatetime
    """When it happened (UTC)."""

    def sse(self) -> str:
        """The event as one Server-Sent Events message (``id``, ``event``, ``data``)."""
        return f"id: {self.id}\nevent: {self.type}\ndata: {self.model_dump_json()}\n\n"
