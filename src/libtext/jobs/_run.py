"""Running one job: the pipeline, its progress events, its cancel check, its one save.

The same code runs a job however it was handed out (the embedded queue's lease or
the scale-out queue): the worker holds the job under an ``owner`` token, and every
write about it checks that it still does, so a worker that lost its job (its lease
ran out while it was stalled) can neither report on it nor store its text.

* Progress: the pipeline's callback only notes the step; a watcher task writes the
  notes every ``FLUSH_EVERY`` seconds (one transaction, consecutive steps of a stage
  folded into the last) and reads ``cancel_requested`` with them, or alone every
  ``READ_EVERY`` seconds when there is nothing to write.
* Cancel: checked before every provider call (one indexed read, shared by the calls
  that start together), and by the watcher, which cancels the calls in flight: a
  cancelled job makes at most the calls already under way, and stores nothing.
* Exactly once: the text is saved and the job marked ``succeeded`` in one transaction
  (``TextStore._save(within=...)``), which fails, storing nothing, if the worker no
  longer holds the job or its cancel was asked.
* Resume: answers come from the provider cache beside the store, where every finished
  section's answer was written, so a job run again after a crash sends only the
  unfinished sections to the provider. On PostgreSQL they are also kept with the job
  (``libtext.jobs._answers``) for a worker on another machine.
"""

from __future__ import annotations

import builtins
import contextlib
import logging
import math
import random
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel
import anyio.to_thread

import libtext.jobs._db as _db
from libtext.errors import LibtextError
from libtext.jobs._models import Job, JobProgress, JobState
from libtext.models import ErrorDetail, ErrorResponse

if TYPE_CHECKING:  # pragma: no cover
    from sqlalchemy.engine import Connection

    from libtext._policy import RetryPolicy
    from libtext.library import LibraryClient
    from libtext.pdf._guard import PdfGuard
    from libtext.providers._cache import ProviderCache
    from libtext.providers.base import Provider, ProviderRequest, ProviderResponse
    from libtext.store import TextStore

__all__ = ["Runner"]

logger = logging.getLogger("libtext.jobs")

FLUSH_EVERY = 0.25
"""Seconds between the watcher's writes of progress (each also reads the cancel flag)."""

READ_EVERY = 1.0
"""Seconds between the watcher's reads of the job's row when it has nothing to write:
the calls in flight of a job cancelled (or taken over) meanwhile are abandoned within
this; no call starts after the cancel (each call checks first). A read costs the
worker a thread hop and a transaction: four a second over a job of minutes add up."""


RECHECK_AFTER = 0.05
"""Seconds a read of the job's row answers the cancel checks of the calls that follow."""


class _LostJob(Exception):
    """This worker no longer holds the job (lease taken over, or cancel asked)."""


class _Checked:
    """A provider that checks, before each call, that its job may go on."""

    def __init__(
        self,
        inner: Provider,
        check: Callable[[], Awaitable[None]],
        options: dict[str, Any] | None = None,
        counted: Callable[[bool], None] | None = None,
    ) -> None:
        self._inner = inner
        self._check = check
        self._options = dict(options or {})
        self._counted = counted
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:  # max_concurrency, reads_payload, warm_up...
        return getattr(self._inner, name)

    async def complete(self, request: ProviderRequest) -> ProviderResponse:
        await self._check()
        if self._options:  # a provider object: the job's options ride on every request
            request = replace(request, options={**self._options, **request.options})
        if self._counted is None:
            return await self._inner.complete(request)
        self._counted(False)
        try:
            return await self._inner.complete(request)
        finally:
            self._counted(True)


@dataclass
class _Steps:
    """Progress noted by the pipeline, and provider answers to keep with the job (on
    PostgreSQL, see ``libtext.jobs._answers``), waiting for the watcher to write them."""

    pending: list[JobProgress] = field(default_factory=list)
    last: JobProgress = field(default_factory=JobProgress)
    answers: list[_db.Answer] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    sections: tuple[int, int] = (0, 0)
    """The translate stage's sections (done, total), as the pipeline reports them."""
    calls: list[int] = field(default_factory=lambda: [0, 0])
    """Provider calls of the translate stage: [started, answered]."""

    def keep(self, answer: _db.Answer) -> None:
        """An answer to write with the next progress (called from the cache's thread)."""
        with self.lock:
            self.answers.append(answer)

    def take_answers(self) -> list[_db.Answer]:
        with self.lock:
            out, self.answers = self.answers, []
        return out

    def note(self, stage: str, done: int, total: int) -> None:
        if stage == "translate":
            self.sections = (done, total)
            self._fold(self._translate_step())
            return
        self._fold(JobProgress(stage=stage, done=done, total=max(total, done)))

    def call(self, answered: bool) -> None:
        """A provider call started or answered (``_Checked``): in the translate stage,
        progress counts calls, so ``done/total`` moves with each one."""
        if self.last.stage != "translate":
            return
        self.calls[1 if answered else 0] += 1
        self._fold(self._translate_step())

    def _translate_step(self) -> JobProgress:
        """``done``: calls answered; ``total``: calls started plus at least one for each
        section not done yet (it only grows, until the last section ends)."""
        done_sections, sections = self.sections
        started, answered = self.calls
        if done_sections >= sections:  # the stage's end (answers all cached: sections)
            end = answered or sections
            return JobProgress(stage="translate", done=end, total=end)
        total = max(started, answered + sections - done_sections)
        if self.last.stage == "translate":
            total = max(total, self.last.total)
        return JobProgress(stage="translate", done=answered, total=max(total, answered))

    def _fold(self, step: JobProgress) -> None:
        stage = step.stage
        if self.pending and self.pending[-1].stage == stage:
            self.pending[-1] = step  # a stage's steps fold into its latest
        else:
            self.pending.append(step)
        self.last = step

    def take(self) -> list[JobProgress]:
        out, self.pending = self.pending, []
        return out


class Runner:
    """Runs jobs against one store; shared by the worker loops of a process."""

    def __init__(
        self,
        store: TextStore,
        *,
        lease: float,
        retry: RetryPolicy,
        providers: Mapping[str, str | Provider] | None = None,
        library: LibraryClient | None = None,
        concurrency: int | None = None,
        pdf_guard: PdfGuard | None = None,
        max_pdf_pages: int | None = None,
        max_pdf_bytes: int | None = None,
    ) -> None:
        self.pdf_guard = pdf_guard
        self.max_pdf_pages = max_pdf_pages
        self.max_pdf_bytes = max_pdf_bytes
        self.store = store
        self.lease = lease
        self.retry = retry
        self.providers = dict(providers or {})
        self.library = library
        self.concurrency = concurrency
        self.held: dict[str, str] = {}  # job id -> owner, for the heartbeat thread
        self._cache: ProviderCache | None = None

    def close(self) -> None:
        """Close the provider cache's connection (the store is the queue's)."""
        if self._cache is not None:
            self._cache.close()

    # --- the lease, beaten from a thread of its own ------------------------------------

    def beat(self, stop: threading.Event) -> None:
        """Extend the lease of every job this process runs, every third of a lease.

        A thread, not a task: a job's CPU work (a long PDF, a first import) can hold the
        event loop for seconds, and a live worker must not lose its jobs for that.
        """
        while not stop.wait(self.lease / 3):
            for job_id, owner in builtins.list(self.held.items()):
                try:
                    with self.store._connection(write=True) as conn:
                        _db.heartbeat(conn, job_id, owner, self.lease)
                except Exception as exc:  # the database is away: the next beat may pass
                    logger.warning("job %s: heartbeat failed (%s)", job_id, type(exc).__name__)

    @contextlib.contextmanager
    def beating(self) -> Iterator[None]:
        stop = threading.Event()
        thread = threading.Thread(target=self.beat, args=(stop,), name="libtext-lease", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()

    # --- the database, off the event loop ------------------------------------------

    async def db(self, fn: Callable[..., Any], *args: Any, write: bool = True) -> Any:
        def call() -> Any:
            with self.store._errors("run a job"), self.store._connection(write=write) as conn:
                return fn(conn, *args)

        return await anyio.to_thread.run_sync(call)

    # --- one job ---------------------------------------------------------------------

    async def run(self, job: Job, spec: dict[str, Any], owner: str) -> JobState | None:
        """Run a job this worker holds to its end; the state it ended in (``None``: lost)."""
        steps = _Steps(last=job.progress)
        scope = anyio.CancelScope()  # the pipeline's: cancelled to stop the job here
        cancel = anyio.Event()
        lost = anyio.Event()

        checked = [-1.0]  # when the job's row was last read (by a check or the watcher)

        def read(row: Any) -> None:
            """What the job's row says: lost (no row: the lease is another's) or cancelled."""
            if row is None:
                lost.set()
            elif row.cancel_requested:
                cancel.set()

        async def check() -> None:
            """Before a provider call: stop here if the job was cancelled or taken over.

            Calls that start together (the sections of a document) share one read.
            """
            if anyio.current_time() - checked[0] > RECHECK_AFTER:
                checked[0] = anyio.current_time()
                read(await self.db(_db.held, job.id, owner, write=False))
            if cancel.is_set() or lost.is_set():
                scope.cancel()
                await anyio.lowlevel.checkpoint()

        async def watch() -> None:
            while True:
                await anyio.sleep(FLUSH_EVERY)
                pending, answers = steps.take(), steps.take_answers()
                if pending or answers:
                    checked[0] = anyio.current_time()
                    read(await self.db(_db.progress, job.id, owner, pending, answers))
                elif anyio.current_time() - checked[0] >= READ_EVERY:
                    checked[0] = anyio.current_time()
                    read(await self.db(_db.held, job.id, owner, write=False))
                if cancel.is_set() or lost.is_set():
                    scope.cancel()
                    return

        self.held[job.id] = owner
        what = job.filename or (f"work {job.work_id}" if job.work_id else job.kind)
        logger.info(
            "job %s running: %s, provider %s, attempt %d", job.id, what, job.provider, job.attempts
        )
        try:
            return await self._run(job, spec, owner, steps, scope, cancel, lost, check, watch)
        finally:
            self.held.pop(job.id, None)

    async def _run(
        self,
        job: Job,
        spec: dict[str, Any],
        owner: str,
        steps: _Steps,
        scope: anyio.CancelScope,
        cancel: anyio.Event,
        lost: anyio.Event,
        check: Callable[[], Awaitable[None]],
        watch: Callable[[], Coroutine[Any, Any, None]],
    ) -> JobState | None:
        error: LibtextError | None = None
        document: Any = None
        async with anyio.create_task_group() as tg:
            tg.start_soon(watch)
            with scope:
                try:
                    document = await self._process(job, spec, steps, check)
                except LibtextError as exc:
                    error = exc
                except Exception as exc:
                    inner = _single(exc)
                    if isinstance(inner, LibtextError):
                        error = inner
                    else:
                        logger.exception("job %s failed", job.id)
                        error = LibtextError(
                            f"The job stopped on an unexpected error ({type(inner).__name__}); "
                            "see the worker's log."
                        )
            tg.cancel_scope.cancel()  # the watcher

        if lost.is_set():
            logger.warning("job %s: this worker no longer holds it; left to its holder", job.id)
            return None
        if cancel.is_set() or scope.cancelled_caught:
            ok = await self.db(_db.finish, job.id, owner, JobState.CANCELLED, steps.last)
            if ok:
                logger.info("job %s cancelled", job.id)
            return JobState.CANCELLED if ok else None
        if error is not None:
            pending, answers = steps.take(), steps.take_answers()
            if pending or answers:  # the answers serve the job's next run, wherever it runs
                await self.db(_db.progress, job.id, owner, pending, answers)
            return await self._failed(job, owner, error, steps.last)
        return await self._save(job, owner, document, steps)

    async def _failed(
        self, job: Job, owner: str, error: LibtextError, progress: JobProgress
    ) -> JobState | None:
        retryable = bool(getattr(error, "retryable", False)) or error.code == "store_error"
        if retryable and job.attempts < self.retry.max_attempts:
            delay = min(self.retry.max_delay, self.retry.base_delay * 2 ** (job.attempts - 1))
            delay = random.uniform(0, delay) if math.isfinite(delay) else 0.0
            ok = await self.db(_db.requeue, job.id, owner, delay, progress)
            if ok:
                logger.info("job %s queued again in %.1f s (%s)", job.id, delay, error.code)
            return JobState.QUEUED if ok else None
        body = ErrorResponse(
            error=ErrorDetail(code=error.code, message=error.message, details=_safe(error.details))
        )
        ok = await self.db(
            partial(_db.finish, error=body), job.id, owner, JobState.FAILED, progress
        )
        if ok:
            logger.info("job %s failed: %s", job.id, error.code)
        return JobState.FAILED if ok else None

    async def _save(self, job: Job, owner: str, document: Any, steps: _Steps) -> JobState | None:
        steps.note("save", 1, 1)
        pending = steps.take()  # written with the text and the job's end: one transaction
        final = steps.last
        saved: list[str] = []

        def within(conn: Connection, item: Any) -> None:
            saved.append(item.slug)
            row = _db.held(conn, job.id, owner)
            if row is None or row.cancel_requested:
                raise _LostJob
            _db.finish(
                conn,
                job.id,
                owner,
                JobState.SUCCEEDED,
                final,
                slug=item.slug,
                steps=pending,
                checked=True,
            )

        def save() -> bool:
            try:
                self.store._save(document, within=within)
            except _LostJob:
                return False
            return True

        with anyio.CancelScope(shield=True):  # saved whole, with the job's end, or not at all
            if await anyio.to_thread.run_sync(save):
                logger.info("job %s succeeded: text %s", job.id, saved[-1] if saved else "")
                return JobState.SUCCEEDED
        row = await self.db(_db.held, job.id, owner, write=False)
        if row is not None and row.cancel_requested:
            ok = await self.db(_db.finish, job.id, owner, JobState.CANCELLED, steps.last)
            return JobState.CANCELLED if ok else None
        return None

    async def _process(
        self,
        job: Job,
        spec: dict[str, Any],
        steps: _Steps,
        check: Callable[[], Awaitable[None]],
    ) -> Any:
        from libtext.outline import Outliner
        from libtext.process import DEFAULT_CONCURRENCY, aprocess_document, check_failures
        from libtext.providers._cache import ProviderCache, default_cache_path
        from libtext.providers.registry import resolve_provider
        from libtext.translate import Translator

        options: dict[str, Any] = spec.get("options") or {}
        chosen = self.providers.get(job.provider, job.provider)
        resolved = (
            resolve_provider(chosen, options=options or None) if isinstance(chosen, str) else chosen
        )
        # A name was resolved with the options; an object gets them on each request,
        # the outline's included, as a named provider would send them.
        provider = _Checked(
            resolved, check, None if isinstance(chosen, str) else options, counted=steps.call
        )
        concurrency = self.concurrency or DEFAULT_CONCURRENCY
        outliner = Outliner(provider=provider, options=options or None)
        translator = Translator(provider=provider, options=options or None, concurrency=concurrency)
        cache: Any = False
        if provider.name != "offline":
            if self._cache is None:  # one per worker: its SQLite connection is reused
                self._cache = ProviderCache(default_cache_path(self.store.url))
            cache = self._cache
            if self.store.engine.dialect.name == "postgresql":  # workers on several machines
                cache = await self._shared_answers(job, self._cache, steps.keep)
        source: Any
        if job.kind == "work":
            assert job.work_id is not None
            await check()
            source = await self._library().aget_work(job.work_id, max_pages=spec.get("max_pages"))
        else:
            data = spec.pop("data", None)  # read with the claim
            if data is None:
                data = await self.db(_db.read_input, job.id, write=False)
            if data is None:
                raise LibtextError("The job's PDF is no longer stored; submit it again.")
            steps.note("extract", 0, 1)
            source = await self._extract(data, job.filename)
        from libtext._offload import offloading
        from libtext.pdf._guard import default_guard

        # The outline's rules run in the PDF workers: the job's timeout can kill them,
        # and a rule stuck on a hostile line never stops this loop's lease heartbeat.
        with offloading(self.pdf_guard if self.pdf_guard is not None else default_guard()):
            document = await aprocess_document(
                source,
                outliner=outliner,
                translator=translator,
                cache=cache,
                concurrency=concurrency,
                progress=steps.note,
            )
        # Saved only whole, unless the job asked for a partial text (its answers are
        # cached: running it again asks only for what failed).
        check_failures(
            document,
            saving=True,
            save_partial=bool(spec.get("save_partial")),
            provider=provider.name,
        )
        return document

    async def _shared_answers(
        self, job: Job, local: ProviderCache, keep: Callable[[_db.Answer], None]
    ) -> ProviderCache:
        """The cache of a job whose workers may be on several machines.

        A job run again (its worker died) first gets the answers its earlier runs kept
        with it, wherever they ran; every new answer is kept with it too.
        """
        from libtext.jobs._answers import JobAnswers, load_answers

        if job.attempts > 1:
            try:
                count = await anyio.to_thread.run_sync(load_answers, self.store, job.id, local)
                logger.info("job %s: %d provider answers of its earlier runs", job.id, count)
            except Exception as exc:  # the calls are asked again: slower, not wrong
                logger.warning("job %s: earlier answers not loaded (%s)", job.id, exc)
        return JobAnswers(local, keep)

    async def _extract(self, data: bytes, filename: str | None) -> Any:
        """The PDF's text under the worker's PDF limits (the server's, for its workers).

        The upload's name goes with it, as a file opened by path would give it.
        """
        import io

        from libtext.pdf import DEFAULT_MAX_BYTES, DEFAULT_MAX_PAGES, aextract_pdf

        source = io.BytesIO(data)
        source.name = filename or ""
        return await aextract_pdf(
            source,
            max_pages=self.max_pdf_pages if self.max_pdf_pages is not None else DEFAULT_MAX_PAGES,
            max_bytes=self.max_pdf_bytes if self.max_pdf_bytes is not None else DEFAULT_MAX_BYTES,
            guard=self.pdf_guard if self.pdf_guard is not None else True,
        )

    def _library(self) -> LibraryClient:
        if self.library is None:
            from libtext.library import LibraryClient

            self.library = LibraryClient()
        return self.library


def _single(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _safe(details: dict[str, Any]) -> dict[str, Any]:
    """Details as JSON can carry them (a job's error is stored as JSON)."""
    import json

    try:
        json.dumps(details)
    except (TypeError, ValueError):
        return {k: str(v) for k, v in details.items()}
    return details
