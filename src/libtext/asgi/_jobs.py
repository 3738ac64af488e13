"""The jobs routes: ``/api/jobs`` and the asynchronous form of ``POST /api/process``.

A thin mapping over :class:`libtext.jobs.JobQueue`, registered by
:func:`install_job_routes` in one place of ``create_app``:

* ``POST /api/process`` with ``Prefer: respond-async`` or ``?wait=false`` enqueues the
  job and answers ``202 Accepted``, ``Location: /api/jobs/{id}`` and the ``Job``;
* ``GET /api/jobs`` (paged like ``/api/texts``), ``GET /api/jobs/{id}``,
  ``DELETE /api/jobs/{id}`` (cancel);
* ``GET /api/jobs/{id}/events``: Server-Sent Events, from after ``Last-Event-ID`` to the
  job's final state.

Every jobs route needs the API key when the server has one, GETs included: a job
names what someone uploaded. The queue lives in the store's database and the
app's lifespan runs ``Settings.jobs_workers`` jobs at once in this process
(:meth:`JobsBackend.arun_workers`).
"""

# No ``from __future__ import annotations``: FastAPI reads the route signatures.

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio
from fastapi import Depends, FastAPI, Header, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import Receive, Scope, Send

from libtext.asgi._errors import NoWorkersError, error_json
from libtext.asgi._responses import json_response
from libtext.asgi._sse import HEARTBEAT, comment, last_event_id, prefers_async, retry_frame
from libtext.asgi._streams import StreamSlots
from libtext.asgi._uploads import upload_filename
from libtext.jobs import Job, JobEvent, JobQueue, JobState
from libtext.models import PaginationInfo, ProcessRequest, QueueFigures

if TYPE_CHECKING:  # pragma: no cover
    from libtext.asgi._backend import Backend

__all__ = [
    "JobsBackend",
    "PaginatedJobsResponse",
    "accept",
    "install_job_routes",
    "wants_async",
]

logger = logging.getLogger("libtext.asgi")

T = TypeVar("T")

JOB_ID_MAX = 100
"""Longest job id accepted in a path (ids the queue makes are far shorter)."""

RESTART_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds before in-process workers start again after their loop failed (a store down)."""


class PaginatedJobsResponse(BaseModel):
    """One page of jobs, newest first (extension; shaped like ``PaginatedTextsResponse``)."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    jobs: list[Job] = Field(default_factory=list)
    """The jobs of this page, newest first."""
    pagination: PaginationInfo
    """Where this page sits in the list."""


def wants_async(prefer: list[str] | None, wait: bool | None) -> bool:
    """``?wait=false`` or ``Prefer: respond-async``; ``?wait=true`` wins over the header."""
    if wait is not None:
        return not wait
    return prefers_async(prefer or ())


class JobsBackend:
    """The job queue behind the routes and the in-process workers.

    Args:
        backend: The app's backend: its store is the queue's database, its settings
            choose the providers.
        queue: A queue to use as it is (never closed here); default one over the
            backend's store, made on first use and closed by :meth:`aclose`.
    """

    def __init__(self, backend: "Backend", queue: JobQueue | None = None) -> None:
        self.backend = backend
        self.streams = StreamSlots()
        self._queue = queue
        self._owned: JobQueue | None = None
        self._lock = anyio.Lock()
        self.workers_attached = False
        """Whether this app's lifespan runs its workers now (see :meth:`check_workers`)."""

    def check_workers(self) -> None:
        """Refuse to queue a job that nothing would run.

        The app's own workers run in its lifespan, which Starlette never runs for a
        mounted app: without them a 202 would leave the job queued forever.
        ``jobs_workers=0`` says workers run elsewhere (``libtext worker``).

        Raises:
            NoWorkersError: ``jobs_workers`` asks for workers and none is attached (503).
        """
        if self.backend.settings.jobs_workers and not self.workers_attached:
            raise NoWorkersError(
                "No job worker is running for this app, so a queued job would never run: "
                "its lifespan did not run (a mounted app needs "
                "lifespan=lambda _: libtext.asgi.lifespan(texts_app) on the host app), or "
                "set LIBTEXT_JOBS_WORKERS=0 and run `libtext worker` on the same database. "
                "Without Prefer: respond-async the request runs at once.",
                details={"jobs_workers": self.backend.settings.jobs_workers},
            )

    async def queue(self) -> JobQueue:
        if self._queue is None:
            async with self._lock:
                if self._queue is None:
                    store = await self.backend.store()
                    settings = self.backend.settings
                    queue = await anyio.to_thread.run_sync(
                        lambda: JobQueue(
                            store,
                            max_queued=settings.max_queued_jobs,
                            max_queued_bytes=settings.max_queued_bytes,
                        )
                    )
                    self._queue = self._owned = queue
        return self._queue

    async def aclose(self) -> None:
        owned, self._owned = self._owned, None
        if owned is not None:
            if self._queue is owned:
                self._queue = None
            await owned.aclose()

    # --- the routes' calls ---------------------------------------------------------

    async def _call(self, fn: Callable[[JobQueue], Awaitable[T]]) -> T:
        """``fn(queue)`` within ``request_timeout`` (504 after it), as the store reads."""
        settings = self.backend.settings

        async def call() -> T:
            return await fn(await self.queue())

        return await self.backend.within(settings.request_timeout, call)

    async def submit(
        self,
        source: bytes | ProcessRequest,
        names: tuple[str, ...],
        filename: str | None,
        *,
        save_partial: bool = False,
    ) -> Job:
        """Enqueue a PDF or a library work for the provider the request names.

        The job keeps the provider's name; the workers of this app are given the
        configured providers by name (their keys stay in the server's settings).
        """
        settings = self.backend.settings
        settings.pick_providers(names)  # 400 for a provider this server does not offer
        provider = names[0] if names else settings.provider_names[0]
        if isinstance(source, bytes):
            data = source
            job = await self._call(
                lambda q: q.asubmit(
                    data, filename=filename, provider=provider, save_partial=save_partial
                )
            )
        else:
            work_id = source.work_id
            max_pages = min(source.max_pages or settings.max_pdf_pages, settings.max_pdf_pages)
            job = await self._call(
                lambda q: q.asubmit(
                    work_id=work_id,
                    provider=provider,
                    max_pages=max_pages,
                    save_partial=save_partial,
                )
            )
        what = job.filename or (f"work {job.work_id}" if job.work_id else job.kind)
        logger.info("job %s queued: %s, provider %s", job.id, what, job.provider)
        return job

    async def log_start(self) -> None:
        """One line at startup: which store and queue this app uses (password masked)."""
        try:
            store = await self.backend.store()
            queue = await self.queue()
        except Exception as exc:  # the health route reports it; the server still starts
            logger.warning("libtext: the store could not be opened at startup (%s)", exc)
            return
        kind = (
            "PostgreSQL (procrastinate)"
            if queue._broker_url is not None
            else "embedded, in the store's database"
        )
        workers = self.backend.settings.jobs_workers
        logger.info(
            "libtext: store %s; job queue %s; %s",
            store.url,
            kind,
            f"{workers} job worker(s) in this process"
            if workers
            else "no job worker in this process (libtext worker runs the jobs)",
        )

    async def list(
        self, page: int, page_size: int, state: JobState | None
    ) -> PaginatedJobsResponse:
        from libtext.jobs._count import acount_jobs

        async def call(queue: JobQueue) -> PaginatedJobsResponse:
            offset = (page - 1) * page_size
            jobs = await queue.alist(state=state, limit=page_size, offset=offset)
            total = await acount_jobs(queue, state)
            info = PaginationInfo.of(page=page, page_size=page_size, total=total)
            return PaginatedJobsResponse(jobs=jobs, pagination=info)

        return await self._call(call)

    async def get(self, job_id: str) -> Job:
        return await self._call(lambda q: q.aget(job_id))

    async def cancel(self, job_id: str) -> Job:
        return await self._call(lambda q: q.acancel(job_id))

    async def figures(self) -> QueueFigures | None:
        """The queue's waiting jobs and bytes for health; ``None`` before the queue is
        opened or when counting takes longer than a health probe may."""
        queue = self._queue
        if queue is None:
            return None
        from libtext.asgi._backend import PROBE_TIMEOUT, _probe

        counted: list[tuple[int, int]] = []

        def count() -> bool:
            counted.append(queue.waiting())
            return True

        try:
            with anyio.fail_after(PROBE_TIMEOUT):
                await _probe(count)
        except Exception:
            return None
        jobs, held = counted[0]
        return QueueFigures(
            queued=jobs,
            queued_bytes=held,
            max_queued=queue.max_queued,
            max_queued_bytes=queue.max_queued_bytes,
        )

    async def events(self, job_id: str, after: int, client: str = "") -> "EventStream":
        """The job's events after ``after`` as a response that streams them to the end.

        The job is looked up first, so an unknown id is a 404 before the stream starts;
        then the stream takes a slot of the bounded pool (``libtext.asgi._streams``):
        429 when ``client`` holds its share or the pool is full.
        """
        await self.get(job_id)
        release = self.streams.take(client)
        return EventStream(await self.queue(), job_id, after, release=release)

    # --- in-process workers --------------------------------------------------------

    async def arun_workers(self, concurrency: int, stop: anyio.Event) -> None:
        """Run ``concurrency`` jobs at once until ``stop`` is set.

        A failing loop (the store unreachable at startup) is logged and started again
        after a growing pause, so the server keeps answering meanwhile.
        """
        failures = 0
        while not stop.is_set():
            try:
                queue = await self.queue()
                settings = self.backend.settings
                providers = dict(zip(settings.provider_names, settings.providers, strict=True))
                await queue.awork(
                    concurrency,
                    stop,
                    providers=providers,
                    library=self.backend.library(),
                    # A job's PDF is read as the synchronous route reads an upload.
                    **settings.job_pdf_options(),
                )
                return
            except Exception as exc:  # keep the server up; say why the jobs stopped
                delay = RESTART_DELAYS[min(failures, len(RESTART_DELAYS) - 1)]
                failures += 1
                logger.error("job workers stopped (%s); starting again in %g s", exc, delay)
                with anyio.move_on_after(delay):
                    await stop.wait()


class EventStream(Response):
    """A job's events as ``text/event-stream``, from after ``after`` to the final state.

    A response class rather than a generator: the reader of the queue, the writer
    and the watch for the client hanging up are three tasks of one task group, so a
    client gone stops the reading at once, and a quiet stream gets a comment every
    ``HEARTBEAT`` seconds.
    """

    media_type = "text/event-stream"

    def __init__(
        self,
        queue: JobQueue,
        job_id: str,
        after: int,
        *,
        release: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(
            media_type=self.media_type,
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        # A stream has no length: no ``content-length: 0`` from the empty body above.
        self.raw_headers = [(k, v) for k, v in self.raw_headers if k != b"content-length"]
        self.queue = queue
        self.job_id = job_id
        self.after = after
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self._stream(receive, send)
        finally:
            self.release()  # the stream's slot, however the stream ended

    async def _stream(self, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        events, received = anyio.create_memory_object_stream[JobEvent](16)
        gone = False

        async def read() -> None:
            async with events:
                async for event in self.queue.aevents(self.job_id, after=self.after):
                    await events.send(event)

        async def watch(scope: anyio.CancelScope) -> None:
            nonlocal gone
            while (await receive())["type"] != "http.disconnect":
                pass
            gone = True
            scope.cancel()

        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            tg.start_soon(watch, tg.cancel_scope)
            await _body(send, retry_frame())
            async with received:
                while True:
                    with anyio.move_on_after(HEARTBEAT) as quiet:
                        try:
                            event = await received.receive()
                        except anyio.EndOfStream:
                            break
                    if quiet.cancelled_caught:
                        await _body(send, comment("waiting"))
                    else:
                        await _body(send, event.sse().encode())
            tg.cancel_scope.cancel()  # the job is over: stop watching for a hang-up
        if not gone:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


class _EventStreamSchema(Response):
    """The media type of the events route in the OpenAPI document (it returns ``EventStream``)."""

    media_type = "text/event-stream"


def _as_json(responses: dict[int | str, dict[str, Any]]) -> dict[int | str, dict[str, Any]]:
    """Error responses of the events route: JSON bodies, although the route streams."""
    ref = {"$ref": "#/components/schemas/ErrorResponse"}
    return {
        status: {
            "description": spec["description"],
            "content": {"application/json": {"schema": ref}},
        }
        for status, spec in responses.items()
    }


async def _body(send: Send, chunk: bytes) -> None:
    await send({"type": "http.response.body", "body": chunk, "more_body": True})


def _location(request: Request, job_id: str) -> str:
    """The job's URL path, under the prefix the app is mounted at."""
    return f"{request.scope.get('root_path', '')}/api/jobs/{job_id}"


def _job_response(job: Job, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return json_response(job, status=status, headers=headers)


async def accept(
    jobs: JobsBackend,
    request: Request,
    source: bytes | ProcessRequest,
    names: tuple[str, ...],
    *,
    save_partial: bool = False,
) -> Response:
    """``202 Accepted`` for a queued process request, with the job's ``Location``."""
    jobs.check_workers()
    job = await jobs.submit(source, names, upload_filename(request), save_partial=save_partial)
    headers = {"Location": _location(request, job.id), "Preference-Applied": "respond-async"}
    return _job_response(job, 202, headers)


def install_job_routes(
    app: FastAPI,
    jobs: JobsBackend,
    *,
    auth: Callable[[Request], Coroutine[Any, Any, None]],
    errors: Callable[..., dict[int | str, dict[str, Any]]],
    auth_err: tuple[int, ...],
    max_page: int,
) -> None:
    """Add the ``/api/jobs`` routes to ``app``."""
    settings = jobs.backend.settings
    deps = [Depends(auth)]
    JobId = Annotated[str, Path(min_length=1, max_length=JOB_ID_MAX, description="The job's id.")]

    @app.get(
        "/api/jobs",
        response_model=PaginatedJobsResponse,
        tags=["Jobs"],
        summary="List jobs",
        description="Processing jobs, newest first; ``state`` keeps those in one state.",
        dependencies=deps,
        responses=errors(400, *auth_err, 500, 503),
    )
    async def list_jobs(
        page: Annotated[int, Query(ge=1, le=max_page, description="1-based page number.")] = 1,
        page_size: Annotated[
            int,
            Query(alias="pageSize", ge=1, le=settings.max_page_size, description="Jobs per page."),
        ] = settings.default_page_size,
        state: Annotated[JobState | None, Query(description="Only jobs in this state.")] = None,
    ) -> Response:
        listed = await jobs.list(page, page_size, state)
        return json_response(listed)

    @app.get(
        "/api/jobs/{job_id}",
        response_model=Job,
        tags=["Jobs"],
        summary="Get a job",
        description="The job's state, progress, attempts and times; its ``slug`` once it "
        "succeeded, its ``error`` once it failed.",
        dependencies=deps,
        responses=errors(400, *auth_err, 404, 500, 503),
    )
    async def get_job(job_id: JobId) -> Response:
        return _job_response(await jobs.get(job_id))

    @app.delete(
        "/api/jobs/{job_id}",
        response_model=Job,
        tags=["Jobs"],
        summary="Cancel a job",
        description="A queued job is cancelled at once; a running one stops before its next "
        "provider call and stores nothing. A job already over is answered as it is.",
        dependencies=deps,
        responses=errors(400, *auth_err, 404, 500, 503),
    )
    async def cancel_job(job_id: JobId) -> Response:
        return _job_response(await jobs.cancel(job_id))

    @app.api_route(
        "/api/jobs/{job_id}",
        methods=["POST", "PUT", "PATCH", "OPTIONS"],
        include_in_schema=False,
    )
    async def job_other_methods(request: Request) -> Response:
        # Two routes share this path: Starlette's own 405 would name only the first.
        return error_json(
            405,
            "method_not_allowed",
            f"{request.method} is not allowed on {request.url.path}.",
            headers={"Allow": "GET, DELETE"},
        )

    @app.get(
        "/api/jobs/{job_id}/events",
        tags=["Jobs"],
        summary="Job events",
        description="Server-Sent Events: each change of state or progress as ``id:`` (grows "
        "by one per event), ``event:`` (``state`` or ``progress``) and ``data:`` (the "
        "``JobEvent`` as JSON). The stream ends after the final state. Reconnect with "
        "``Last-Event-ID`` (or ``?after=``) to get the events after that one.",
        dependencies=deps,
        response_class=_EventStreamSchema,
        responses={
            200: {
                "description": "The event stream",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            **_as_json(errors(400, *auth_err, 404, 500, 503)),
        },
    )
    async def job_events(
        request: Request,
        job_id: JobId,
        last_event: Annotated[
            str | None,
            Header(
                alias="Last-Event-ID",
                max_length=40,
                description="The id of the last event received: the stream resumes after it.",
            ),
        ] = None,
        after: Annotated[
            int | None,
            Query(ge=0, le=2**53, description="Send the events after this id."),
        ] = None,
    ) -> Response:
        start = max(last_event_id(last_event), after or 0)
        client = request.client.host if request.client is not None else ""
        return await jobs.events(job_id, start, client)
