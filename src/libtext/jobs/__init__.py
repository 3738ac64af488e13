"""Durable processing jobs: submit a PDF or a library work, follow it, cancel it.

A :class:`JobQueue` keeps its jobs in the TextStore's own database (tables
``libtext_jobs``, ``libtext_job_inputs``, ``libtext_job_events``) and hands them to
workers: :meth:`JobQueue.work` in any process (``libtext worker``, or ``libtext
serve``'s own). A job's states::

    queued --> running --> succeeded
      |  ^        |   \\--> failed
      |  |        |    \\--> cancelled
      |  \\-------/ (a failure that may pass, until retry.max_attempts)
      \\--> cancelled

A running job whose worker dies is taken again by another worker once its lease
(``lease`` seconds) has run out, and resumes from the provider cache: the sections
its first run finished are not sent to the provider again. See ``docs/jobs.md``.

Example:
    ```python
    from libtext.jobs import JobQueue

    with JobQueue("sqlite:///texts.db") as queue:
        job = queue.submit(pdf="examples/sample.pdf")
        queue.work(stop=lambda: queue.get(job.id).state.final)
        print(queue.get(job.id).state)  # JobState.SUCCEEDED
    ```
"""

from __future__ import annotations

import builtins
import json
import os
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, Final, Protocol, Self

import anyio
import anyio.to_thread

try:
    import sqlalchemy  # noqa: F401 - the queue's tables live in the store's database
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    from libtext._wording import install_hint

    raise ImportError(
        f"libtext.jobs needs the store extra: {install_hint('store')} "
        f"(module {exc.name!r} is missing)",
        name=exc.name,
    ) from None

import libtext.jobs._db as _db
from libtext._keywords import strict_keywords
from libtext._policy import RetryPolicy
from libtext._sync import complete_twin_docs, run_sync
from libtext.errors import (
    ConfigurationError,
    EmptyFileError,
    InvalidInputError,
    InvalidPDFError,
    InvalidTypeError,
    NotFoundError,
    StoreError,
)
from libtext.jobs._models import FINAL_STATES, Job, JobEvent, JobKind, JobProgress, JobState
from libtext.jobs._tree import LibraryWork, TreeItem, TreeMethods, TreeSubmission

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy.engine import Connection

    from libtext.library import LibraryClient
    from libtext.pdf._guard import PdfGuard
    from libtext.providers.base import Provider
    from libtext.store import TextStore

__all__ = [
    "DEFAULT_LEASE",
    "FINAL_STATES",
    "Job",
    "JobEvent",
    "JobKind",
    "JobProgress",
    "JobQueue",
    "JobState",
    "LibraryWork",
    "StopSignal",
    "TreeItem",
    "TreeSubmission",
]

DEFAULT_LEASE: Final = 15.0
"""Seconds a worker holds a job without a heartbeat (it beats every third of it)."""

DEFAULT_RETRY: Final = RetryPolicy(max_attempts=3, base_delay=5.0, max_delay=300.0)
"""Runs of a job at most (a worker's death counts as one), and the wait before a rerun."""

EVENT_POLL: Final = 0.2
"""Seconds between two reads of a job's new events while following it."""

_ID_CHARS = frozenset("0123456789abcdef")


class StopSignal(Protocol):
    """Anything with ``is_set()``: a ``threading.Event``, an ``anyio.Event``."""

    def is_set(self) -> bool: ...


def _stopped(stop: StopSignal | Callable[[], bool] | None) -> bool:
    if stop is None:
        return False
    if hasattr(stop, "is_set"):
        return bool(stop.is_set())
    return bool(stop())


class JobQueue(TreeMethods):
    """Processing jobs kept in a TextStore's database, run by any number of workers.

    Args:
        store: A :class:`~libtext.store.TextStore` or its URL (``None``: the default
            store, as ``TextStore()``). Jobs live in its database and their texts are
            saved there. A store made here from a URL is closed by :meth:`close`.
        queue_url: A PostgreSQL URL for the scale-out queue (procrastinate) when the
            store is elsewhere; by default a PostgreSQL store is its own queue's
            database and a SQLite store runs the embedded queue. (``url=`` is the
            store's URL everywhere in libtext, so it is refused here.)
        lease: Seconds a worker holds a job without a heartbeat; a job whose worker
            died runs again after at most this long.
        retry: How often a job runs at most (``max_attempts``; a worker's death counts
            as one run) and how long a job that failed in a way that may pass (a
            provider's 429 or 5xx after its own retries, a store outage) waits before
            it runs again (``base_delay`` doubling up to ``max_delay``).
        max_queued: Jobs that may wait (``queued``) at once; one more is refused with
            :class:`~libtext.errors.QueueFullError` (``None``: no bound).
        max_queued_bytes: Bytes of PDF that the waiting jobs may hold together (the
            PDFs live in the database until their job ends); ``None``: no bound.

    Every method has an async twin (``asubmit``, ``aget``, ``alist``, ``acancel``,
    ``aevents``, ``awork``). Use it as a context manager, or call :meth:`close`.
    """

    @strict_keywords(deprecated=("url",))
    def __init__(
        self,
        store: TextStore | str | None = None,
        *,
        queue_url: str | None = None,
        lease: float = DEFAULT_LEASE,
        retry: RetryPolicy | None = None,
        max_queued: int | None = None,
        max_queued_bytes: int | None = None,
        **old: Any,
    ) -> None:
        from libtext.store import TextStore

        if "url" in old:
            raise TypeError(
                "JobQueue() got an unexpected keyword argument 'url'; the queue's PostgreSQL "
                "URL is queue_url= (url= names the store's database everywhere in libtext: "
                "pass the store's URL as the first argument)."
            )
        url = queue_url

        for name, bound in (("max_queued", max_queued), ("max_queued_bytes", max_queued_bytes)):
            if bound is not None and (
                isinstance(bound, bool) or not isinstance(bound, int) or bound < 1
            ):
                raise ConfigurationError(
                    f"{name} must be a positive integer or None, got {bound!r}."
                )
        self.max_queued = max_queued
        self.max_queued_bytes = max_queued_bytes

        if isinstance(lease, bool) or not isinstance(lease, int | float) or not lease > 0:
            raise ConfigurationError(f"lease must be a positive number of seconds, got {lease!r}.")
        if retry is not None and not isinstance(retry, RetryPolicy):
            raise ConfigurationError("retry must be a RetryPolicy.")
        if url is not None and not isinstance(url, str):
            raise ConfigurationError("queue_url must be a database URL string.")
        self.lease = float(lease)
        self.retry = retry or DEFAULT_RETRY
        self.queue_url = url
        self._own_store = not isinstance(store, TextStore)
        if isinstance(store, TextStore):
            self.store = store
        elif store is None or isinstance(store, str):
            self.store = TextStore(store)
        else:
            raise ConfigurationError(
                "store must be a TextStore or a database URL such as 'sqlite:///texts.db'."
            )
        self._ready = False
        self._closed = False
        self._deferrer: Any = None
        from libtext.jobs._embedded import Waker

        self._waker = Waker()  # submit wakes this queue's idle workers (embedded)
        broker = url
        if broker is None and self.store.engine.dialect.name == "postgresql":
            broker = self.store._url.render_as_string(hide_password=False)
        if broker is not None:
            from libtext.jobs._procrastinate import Deferrer, conninfo

            self._deferrer = Deferrer(conninfo(broker))
        self._broker_url = broker

    def __repr__(self) -> str:
        return f"JobQueue({self.store.url!r})"

    # --- plumbing ----------------------------------------------------------------

    def _run(self, operation: str, fn: Callable[..., Any], *args: Any, write: bool = False) -> Any:
        if self._closed:
            raise StoreError("This JobQueue is closed; make a new one.")
        with self.store._errors(operation):
            self._prepare()
            with self.store._connection(write=write) as conn:
                return fn(conn, *args)

    def _prepare(self) -> None:
        if self._ready:
            return
        from libtext.jobs._tables import metadata

        self.store._ensure_schema()
        with self.store._connection(write=True) as conn:
            _lock_schema(conn)
            metadata.create_all(conn, checkfirst=True)
            if self._broker_url is not None and self.queue_url is None:
                from libtext.jobs._procrastinate import ensure_schema

                ensure_schema(conn)
        if self._broker_url is not None and self.queue_url is not None:
            _broker_schema(self.queue_url)
        self._ready = True

    # --- submit, read, cancel ----------------------------------------------------

    @strict_keywords()
    def submit(
        self,
        pdf: str | os.PathLike[str] | bytes | bytearray | IO[bytes] | None = None,
        *,
        work_id: str | None = None,
        filename: str | None = None,
        provider: str = "offline",
        options: dict[str, Any] | None = None,
        max_pages: int | None = None,
        save_partial: bool = False,
    ) -> Job:
        """Queue a PDF (a path, bytes or a binary file) or a library work for processing.

        Args:
            pdf: The PDF; it is stored with the job until the job ends.
            work_id: Instead of ``pdf``: an online library work's id.
            filename: The PDF's name, for lists (default: the path's name).
            provider: The provider's name for the outline and the translation:
                ``"offline"``, a litellm ``"provider/model"``, or a name the workers
                know (:meth:`work`'s ``providers``). Keys stay with the workers.
            options: Model options for the provider (``{"temperature": 0}``).
            max_pages: Pages read from a library work at most.
            save_partial: Store the text even when some of its sections could not be
                translated (as :func:`~libtext.process_document`'s); by default such a
                job fails with :class:`~libtext.errors.PartialTranslationError` and
                stores nothing.

        Returns:
            The job, ``queued``.

        Raises:
            InvalidInputError: Neither or both of ``pdf`` and ``work_id``, an empty
                file or one that is not a PDF, options that are not JSON.
        """
        kind, data, name = _source(pdf, work_id, filename)
        if not isinstance(provider, str) or not provider.strip():
            raise InvalidTypeError(
                "provider must be a provider's name ('offline', 'openai/gpt-4o-mini' or one "
                "the workers are given); pass Provider objects to work(providers=...)."
            )
        try:
            json.dumps(options or {})
        except (TypeError, ValueError):
            raise InvalidInputError("options must be JSON: a dict of numbers and text.") from None
        if max_pages is not None and (not isinstance(max_pages, int) or max_pages < 1):
            raise InvalidInputError("max_pages must be 1 or more.")

        def insert(conn: Any) -> Job:
            _db.check_room(conn, len(data or b""), self.max_queued, self.max_queued_bytes)
            return _db.insert(
                conn,
                job_id=uuid.uuid4().hex,
                kind=kind,
                data=data,
                filename=name,
                work_id=work_id,
                max_pages=max_pages,
                provider=provider.strip(),
                options=dict(options or {}),
                save_partial=bool(save_partial),
                max_attempts=self.retry.max_attempts,
                # procrastinate's record of the job, committed next in the same
                # database, makes this one durable too (one disk flush, not two).
                durable_later=self._deferrer is not None and self.queue_url is None,
            )

        job: Job = self._run("queue the job", insert, write=True)
        if self._deferrer is None:
            self._waker.wake()
        else:
            try:
                self._deferrer.defer(job.id)
            except Exception as exc:
                self._run("forget the job", _db.delete, job.id, write=True)
                raise StoreError(
                    f"The job could not be handed to the queue ({type(exc).__name__}); "
                    "check that the queue's PostgreSQL database is reachable, and retry.",
                ) from None
        return job

    def waiting(self) -> tuple[int, int]:
        """Jobs waiting to run, and the bytes of PDF they hold (health reports them)."""
        figures: tuple[int, int] = self._run("count the waiting jobs", _db.waiting)
        return figures

    async def asubmit(
        self,
        pdf: str | os.PathLike[str] | bytes | bytearray | IO[bytes] | None = None,
        *,
        work_id: str | None = None,
        filename: str | None = None,
        provider: str = "offline",
        options: dict[str, Any] | None = None,
        max_pages: int | None = None,
        save_partial: bool = False,
    ) -> Job:
        """Async twin of :meth:`submit`."""
        return await anyio.to_thread.run_sync(
            lambda: self.submit(
                pdf,
                work_id=work_id,
                filename=filename,
                provider=provider,
                options=options,
                max_pages=max_pages,
                save_partial=save_partial,
            )
        )

    def get(self, job_id: str) -> Job:
        """The job as it is now.

        Raises:
            NotFoundError: No job has this id.
        """
        found = self._run("read the job", _db.get, _check_id(job_id))
        if found is None:
            raise _not_found(job_id)
        return found  # type: ignore[no-any-return]

    async def aget(self, job_id: str) -> Job:
        """Async twin of :meth:`get`."""
        return await anyio.to_thread.run_sync(self.get, job_id)

    def list(
        self, state: JobState | str | None = None, limit: int = 50, offset: int = 0
    ) -> builtins.list[Job]:
        """Jobs, newest first; only those in ``state`` if given.

        Raises:
            InvalidInputError: An unknown state, ``limit`` not 1 to 500, ``offset`` < 0.
        """
        chosen = _check_state(state)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 500:
            raise InvalidInputError("limit must be 1 to 500.")
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InvalidInputError("offset must be 0 or more.")
        return self._run("list the jobs", _db.list_jobs, chosen, limit, offset)  # type: ignore[no-any-return]

    async def alist(
        self, state: JobState | str | None = None, limit: int = 50, offset: int = 0
    ) -> builtins.list[Job]:
        """Async twin of :meth:`list`."""
        return await anyio.to_thread.run_sync(self.list, state, limit, offset)

    def cancel(self, job_id: str) -> Job:
        """Cancel a job: a queued one at once, a running one by its worker within a call.

        A running job's worker stops its provider calls (it makes at most those already
        under way) and stores nothing; the job then ends ``cancelled``. The job is
        returned as it is after the request (a running one with ``cancel_requested``);
        a job already over is returned unchanged.

        Raises:
            NotFoundError: No job has this id.
        """
        found = self._run("cancel the job", _db.request_cancel, _check_id(job_id), write=True)
        if found is None:
            raise _not_found(job_id)
        return found  # type: ignore[no-any-return]

    async def acancel(self, job_id: str) -> Job:
        """Async twin of :meth:`cancel`."""
        return await anyio.to_thread.run_sync(self.cancel, job_id)

    def events(self, job_id: str, after: int = 0) -> Iterator[JobEvent]:
        """The job's events after event ``after``, following it live until it ends.

        Ends after the event of a final state (at once if that was seen already).

        Raises:
            NotFoundError: No job has this id (raised on the first ``next()``).
        """
        job_id = _check_id(job_id)
        while True:
            batch, final = self._events_batch(job_id, after)
            for event in batch:
                after = event.id
                yield event
            if final and not batch:
                return
            if not batch:
                time.sleep(EVENT_POLL)

    async def aevents(self, job_id: str, after: int = 0) -> AsyncIterator[JobEvent]:
        """Async twin of :meth:`events`."""
        job_id = _check_id(job_id)
        while True:
            batch, final = await anyio.to_thread.run_sync(self._events_batch, job_id, after)
            for event in batch:
                after = event.id
                yield event
            if final and not batch:
                return
            if not batch:
                await anyio.sleep(EVENT_POLL)

    def _events_batch(self, job_id: str, after: int) -> tuple[builtins.list[JobEvent], bool]:
        def read(conn: Connection) -> tuple[builtins.list[JobEvent], bool]:
            state = _db.state_of(conn, job_id)
            if state is None:
                raise _not_found(job_id)
            return _db.events_after(conn, job_id, after), JobState(state).final

        return self._run("read the job's events", read)  # type: ignore[no-any-return]

    # --- workers -----------------------------------------------------------------

    def work(
        self,
        concurrency: int = 1,
        stop: StopSignal | Callable[[], bool] | None = None,
        *,
        providers: Mapping[str, str | Provider] | None = None,
        library: LibraryClient | None = None,
        pdf_guard: PdfGuard | None = None,
        max_pdf_pages: int | None = None,
        max_pdf_bytes: int | None = None,
    ) -> None:
        """Sync twin of :meth:`awork`."""
        run_sync(
            self.awork,
            concurrency,
            stop,
            providers=providers,
            library=library,
            pdf_guard=pdf_guard,
            max_pdf_pages=max_pdf_pages,
            max_pdf_bytes=max_pdf_bytes,
        )

    async def awork(
        self,
        concurrency: int = 1,
        stop: StopSignal | Callable[[], bool] | None = None,
        *,
        providers: Mapping[str, str | Provider] | None = None,
        library: LibraryClient | None = None,
        pdf_guard: PdfGuard | None = None,
        max_pdf_pages: int | None = None,
        max_pdf_bytes: int | None = None,
    ) -> None:
        """Run jobs in this process until ``stop`` is set (or this call is cancelled).

        Args:
            concurrency: Jobs run at once by this worker.
            stop: An event (``threading.Event``, ``anyio.Event``) or a function, checked
                between jobs and while idle; once set, the jobs running here go back to
                the queue (another worker resumes them from the provider cache).
            providers: Providers by the name jobs give (``provider=`` of
                :meth:`submit`), e.g. with their keys; other names are resolved as
                ``Outliner(provider=name)`` would.
            library: The client for library works (default ``LibraryClient()``).
            pdf_guard: The worker processes that read the jobs' PDFs, with their memory
                cap, timeout and size limits (default: ``extract_pdf``'s shared guard);
                ``libtext serve`` gives its own, so a job's PDF is read as an upload is.
            max_pdf_pages: Pages a job's PDF may have (default ``extract_pdf``'s).
            max_pdf_bytes: Bytes a job's PDF may have (default ``extract_pdf``'s).
        """
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ConfigurationError("concurrency must be 1 or more.")
        from libtext.jobs._run import Runner

        await anyio.to_thread.run_sync(lambda: self._run("open the job tables", lambda c: None))
        runner = Runner(
            self.store,
            lease=self.lease,
            retry=self.retry,
            providers=providers,
            library=library,
            pdf_guard=pdf_guard,
            max_pdf_pages=max_pdf_pages,
            max_pdf_bytes=max_pdf_bytes,
        )
        try:
            with runner.beating():
                await self._work(runner, concurrency, stop)
        finally:
            runner.close()
            if library is None and runner.library is not None:
                with anyio.CancelScope(shield=True):
                    await runner.library.aclose()

    async def _work(
        self, runner: Any, concurrency: int, stop: StopSignal | Callable[[], bool] | None
    ) -> None:
        from libtext.jobs._embedded import work_embedded

        if self._deferrer is None:
            await work_embedded(runner, concurrency, lambda: _stopped(stop), self._waker)
            return
        from libtext.jobs._procrastinate import work_procrastinate

        info = self._deferrer.info
        await work_procrastinate(runner, info, concurrency, lambda: _stopped(stop))

    # --- lifecycle ---------------------------------------------------------------

    def close(self) -> None:
        """Close the store if this queue made it. The queue cannot be used afterwards."""
        self._closed = True
        if self._deferrer is not None:
            self._deferrer.close()
        if self._own_store:
            self.store.close()

    async def aclose(self) -> None:
        """Async twin of :meth:`close`."""
        await anyio.to_thread.run_sync(self.close)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()


def _lock_schema(conn: Connection) -> None:
    if conn.dialect.name == "postgresql":
        import sqlalchemy as sa

        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": 0x6C69626A6F6273})


def _broker_schema(url: str) -> None:
    """procrastinate's tables in a broker database apart from the store's."""
    import sqlalchemy as sa

    from libtext.jobs._procrastinate import ensure_schema

    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            ensure_schema(conn)
    finally:
        engine.dispose()


def _source(
    pdf: Any, work_id: str | None, filename: str | None
) -> tuple[JobKind, bytes | None, str | None]:
    if (pdf is None) == (work_id is None):
        raise InvalidInputError("Give either pdf= (a PDF) or work_id= (a library work), not both.")
    if work_id is not None:
        from libtext.models import ProcessRequest

        if not isinstance(work_id, str):
            raise InvalidTypeError("work_id must be a string.")
        try:
            ProcessRequest(work_id=work_id)
        except ValueError:
            raise InvalidInputError(
                "work_id must be a library id: letters, digits and . _ : - (at most 200)."
            ) from None
        return "work", None, None
    name = filename
    if isinstance(pdf, str | os.PathLike):
        path = Path(pdf)
        data = path.read_bytes()
        name = name or path.name
    elif isinstance(pdf, bytes | bytearray):
        data = bytes(pdf)
    elif hasattr(pdf, "read"):
        data = pdf.read()
        if not isinstance(data, bytes):
            raise InvalidTypeError("pdf must be opened in binary mode ('rb').")
    else:
        raise InvalidTypeError(
            f"pdf must be a path, bytes or a binary file, not {type(pdf).__name__}."
        )
    if not data:
        raise EmptyFileError("The PDF is empty (0 bytes).")
    if b"%PDF-" not in data[:1024]:
        raise InvalidPDFError("This is not a PDF: it does not start with '%PDF-'.")
    if name is not None and (not isinstance(name, str) or len(name) > 255):
        raise InvalidInputError("filename must be text of 255 characters at most.")
    return "pdf", data, name


def _check_id(job_id: str) -> str:
    if not isinstance(job_id, str) or len(job_id) != 32 or not set(job_id) <= _ID_CHARS:
        raise _not_found(job_id)
    return job_id


def _not_found(job_id: object) -> NotFoundError:
    shown = repr(job_id)[:40] if isinstance(job_id, str) else type(job_id).__name__
    return NotFoundError(f"No job has the id {shown}.", details={"resource": "job"})


def _check_state(state: JobState | str | None) -> JobState | None:
    if state is None or isinstance(state, JobState):
        return state
    try:
        return JobState(state)
    except ValueError:
        choices = ", ".join(s.value for s in JobState)
        raise InvalidInputError(
            f"Unknown job state {str(state)[:20]!r}; use one of {choices}."
        ) from None


complete_twin_docs(JobQueue)
