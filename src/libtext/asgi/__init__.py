"""The HTTP adapter: libtext's operations as a FastAPI app.

Run it alone with ``libtext serve``, or mount it in your own app::

    from fastapi import FastAPI
    from libtext import TextStore
    from libtext.asgi import Settings, create_app

    app = FastAPI()
    app.mount("/texts-service", create_app(store=TextStore("sqlite:///texts.db")))

The module is a route table plus an exception map (``libtext.asgi._errors``): each
route parses its input, awaits one method of ``libtext.asgi._backend.Backend`` and
returns the model. The two text read routes are declared in their own table
(``libtext.asgi._routes``), read both here and by the fast path
(``libtext.asgi._fastpath``) that answers their cache hits (``libtext.asgi._cache``)
before the router. It needs the ``server`` extra (``pip install 'libtext[server]'``).
"""

# No ``from __future__ import annotations`` here: FastAPI reads the route
# signatures, whose annotations use names local to create_app.

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any

import anyio

try:
    from fastapi import Depends, FastAPI, Header, Path, Query, Request, Response
    from fastapi.middleware.cors import CORSMiddleware
except ImportError as exc:  # pragma: no cover - exercised in a subprocess test
    from libtext._wording import install_hint

    raise ImportError(
        f"libtext.asgi needs the 'server' extra (FastAPI, uvicorn): {install_hint('server')}",
        name=exc.name,
    ) from None

from libtext._version import __version__
from libtext.asgi._auth import AuthGateMiddleware, install_log_redaction, key_dependency
from libtext.asgi._backend import Backend
from libtext.asgi._docs import docs_urls, install_docs
from libtext.asgi._errors import install_error_handlers
from libtext.asgi._fastpath import CachedReadsMiddleware
from libtext.asgi._jobs import JobsBackend, accept, install_job_routes, wants_async
from libtext.asgi._negotiate import negotiate
from libtext.asgi._offloop import OffLoopJSONRoute
from libtext.asgi._responses import json_response
from libtext.asgi._routes import MAX_PAGE, CachedRoute, cached_routes
from libtext.asgi._settings import Settings
from libtext.asgi._strict import reject_unknown_query
from libtext.asgi._uploads import (
    PDF_UPLOAD_BODY,
    PROCESS_BODY,
    BodyLimitMiddleware,
    read_pdf_upload,
    read_process_source,
    require_json,
    upload_filename,
)
from libtext.export import MEDIA_TYPES
from libtext.jobs import Job
from libtext.models import (
    DocumentOutline,
    EnrichedSegment,
    ErrorResponse,
    ExtractedDocument,
    HealthResponse,
    LibraryStatus,
    OutlineComparison,
    ProcessRequest,
    ProcessResponse,
    SearchResultsResponse,
    SectionEdit,
    SectionEditResult,
    TextDiff,
    TextRevision,
    TextRevisionsResponse,
    TranslatedSegment,
)

if TYPE_CHECKING:  # pragma: no cover
    from libtext.jobs import JobQueue
    from libtext.library import LibraryClient
    from libtext.outline import Outliner
    from libtext.store import TextStore
    from libtext.translate import Translator

__all__ = ["Settings", "create_app", "lifespan"]

JOBS_SHUTDOWN_GRACE = 5.0
"""Seconds the in-process job workers get to hand their jobs back at shutdown."""

_DESCRIPTIONS = {
    400: "Invalid input (malformed or unknown parameter, slug, JSON or PDF)",
    401: "Missing or wrong API key (only when the server has one), or a key sent in the "
    "query string",
    408: "The request body arrived too slowly",
    404: "Not found",
    409: "Some sections could not be translated and save_partial was not set: nothing "
    "stored; details.failed_sections names them",
    413: "Input over a size limit (bytes, pages, characters, inflated streams, worker "
    "memory); details.limit names it",
    412: "The text changed since the ETag in If-Match (someone else edited it)",
    406: "None of the media types in Accept (or the format asked) can be served",
    415: "Not a PDF, or not the expected content type",
    428: "If-Match is missing: send the ETag of the text as read",
    429: "An upstream AI provider kept rate limiting",
    500: "Server bug (no details)",
    502: "The online library or an AI provider failed",
    503: "The store or the server configuration is unavailable",
    504: "The operation passed its time limit (a PDF's worker is stopped)",
}


_EXPORT_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The document as JSON, or the published file that Accept or format "
        "asks for (streamed)",
        "content": {media.split(";")[0]: {} for media in MEDIA_TYPES.values()},
    }
}


def _error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorResponse, "description": _DESCRIPTIONS[s]} for s in statuses}


_IF_MATCH_NOTE = (
    "Needs If-Match with the ETag of GET /api/texts/{slug}: 412 when the text changed "
    "since, 428 without it. The response's ETag is the next edit's If-Match."
)

Author = Annotated[
    str | None,
    Query(min_length=1, max_length=200, description="Who makes the change, for the history."),
]


def _add_cached_route(
    app: FastAPI,
    route: CachedRoute,
    backend: Backend,
    dependencies: list[Any],
    statuses: list[int],
) -> None:
    """Register one route of the cached reads' table; its signature is the table's."""

    async def endpoint(**args: Any) -> Response:
        headers = {}
        if route.negotiate:
            headers["Vary"] = "Accept"
            fmt = negotiate(args.pop("accept"), args.pop("format"))
            if fmt != "json":
                return await backend.export(args["slug"], args["revision"], fmt)
        found = await backend.reads.serve(route, args)
        if found.etag:
            headers["ETag"] = found.etag
        return Response(found.body, media_type="application/json", headers=headers)

    endpoint.__signature__ = route.signature()  # type: ignore[attr-defined]
    endpoint.__name__ = route.name
    app.add_api_route(
        route.path,
        endpoint,
        methods=["GET"],
        response_model=route.response_model,
        tags=["Texts"],
        summary=route.summary,
        description=route.description or None,
        dependencies=dependencies,
        responses={**_error_responses(*statuses), **(_EXPORT_RESPONSE if route.negotiate else {})},
        name=route.name,
    )


def _split_providers(raw: str | None) -> tuple[str, ...]:
    return tuple(p.strip() for p in (raw or "").split(",") if p.strip())


def _one_provider(provider: str | None, providers: str | None) -> tuple[str, ...]:
    """``?provider=`` of a route that uses one provider; ``?providers=`` is its old spelling."""
    from libtext.errors import InvalidInputError

    if provider is not None and providers is not None:
        raise InvalidInputError("Send ?provider= only (?providers= is its old spelling).")
    names = _split_providers(provider if provider is not None else providers)
    if len(names) > 1:
        raise InvalidInputError(
            f"This route uses one provider; got {len(names)} ({', '.join(names)}). "
            "To compare providers, use POST /api/outline?providers=a,b.",
            details={"provider": list(names)},
        )
    return names


def create_app(
    *,
    store: "TextStore | None" = None,
    outliner: "Outliner | None" = None,
    translator: "Translator | None" = None,
    library: "LibraryClient | None" = None,
    settings: Settings | None = None,
    jobs: "JobQueue | None" = None,
) -> FastAPI:
    """Build the libtext HTTP app.

    Args:
        store: Where processed texts are kept; default a ``TextStore`` made from
            ``settings.store_url`` on first use.
        outliner: Used when a request names no providers; default an ``Outliner``
            over ``settings.providers[0]``.
        translator: Used when a request names no provider; default a ``Translator``
            over ``settings.providers[0]``.
        library: Client of the online Chabad library; default ``LibraryClient()``.
        settings: Limits, API key, CORS, providers; default ``Settings.from_env()``.
        jobs: The queue of ``/api/jobs`` and of ``POST /api/process?wait=false``;
            default a ``JobQueue`` in the store's database. The app runs
            ``settings.jobs_workers`` of its jobs at once while it is up.

    Objects passed in stay yours to close; objects the app makes are closed at its
    shutdown.
    """
    settings = settings if settings is not None else Settings.from_env()
    reads = cached_routes(settings)
    backend = Backend(
        settings=settings, store=store, outliner=outliner, translator=translator, library=library
    )
    job_backend = JobsBackend(backend, jobs)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        backend.pdf_guard.warm()  # the first upload does not pay for starting workers
        await job_backend.log_start()
        stop = anyio.Event()
        try:
            async with anyio.create_task_group() as tg:
                if settings.jobs_workers:
                    tg.start_soon(job_backend.arun_workers, settings.jobs_workers, stop)
                    job_backend.workers_attached = True
                try:
                    yield
                finally:
                    # Running jobs go back to the queue; after the grace, they are cut.
                    job_backend.workers_attached = False
                    stop.set()
                    tg.cancel_scope.deadline = anyio.current_time() + JOBS_SHUTDOWN_GRACE
        finally:
            await job_backend.aclose()
            await backend.aclose()

    app = FastAPI(
        title="libtext",
        version=__version__,
        summary="Hebrew texts from the Chabad library or PDFs: outlined, translated, stored.",
        lifespan=lifespan,
        # An unknown query parameter is a 400, never a silent default (see _strict).
        dependencies=[Depends(reject_unknown_query)],
        **docs_urls(),
    )
    app.router.route_class = OffLoopJSONRoute  # large JSON bodies parsed off the loop
    install_docs(app)  # /docs and /redoc with packaged assets: they work offline
    app.state.backend = backend
    app.state.settings = settings
    install_error_handlers(app)
    if not settings.protect_get:
        # Innermost: cache hits of the hot read routes skip the router (see the module).
        app.add_middleware(CachedReadsMiddleware, routes=reads, reads=backend.reads)
    app.add_middleware(
        BodyLimitMiddleware,
        max_bytes=settings.max_upload_bytes,
        body_timeout=settings.body_timeout,
    )
    install_log_redaction()
    if settings.api_key:
        app.add_middleware(
            AuthGateMiddleware, api_key=settings.api_key, protect_docs=settings.protect_get
        )
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "If-Match", "Prefer", "Last-Event-ID"],
            expose_headers=["ETag", "Location", "Preference-Applied"],
        )

    auth = key_dependency(settings.api_key)
    post_auth = [Depends(auth)]
    get_auth = [Depends(auth)] if settings.protect_get else []
    auth_err = (401,) if settings.api_key else ()
    get_err = auth_err if settings.protect_get else ()

    Page = Annotated[int, Query(ge=1, le=MAX_PAGE, description="1-based page number.")]
    Slug = Annotated[str, Path(description="The text's slug (see GET /api/texts).")]
    IfMatch = Annotated[
        str | None,
        Header(max_length=200, description="The ETag of GET /api/texts/{slug}, as read."),
    ]
    Providers = Annotated[
        str | None,
        Query(
            max_length=500,
            description="Comma-separated provider names offered by this server "
            f"(default: the first of {', '.join(settings.provider_names)}).",
        ),
    ]

    @app.get(
        "/api/health",
        response_model=HealthResponse,
        tags=["System"],
        summary="Health Check",
        description="503 (same body) when the store or a configured provider is unusable.",
        responses={
            **_error_responses(400, 500),
            503: {"model": HealthResponse, "description": "Degraded: send traffic elsewhere"},
        },
    )
    async def health() -> Response:
        report = await backend.health()
        report.queue = await job_backend.figures()
        # "queue" only once the queue is open: the body is unchanged until then.
        body = report.model_dump_json(by_alias=True, exclude_none=True)
        response = Response(body, media_type="application/json")
        if report.status != "ok":
            response.status_code = 503
        return response

    @app.get(
        "/api/search",
        response_model=SearchResultsResponse,
        tags=["Search"],
        summary="Search library",
        dependencies=get_auth,
        responses=_error_responses(400, *get_err, 500, 502, 504),
    )
    async def search(
        q: Annotated[str, Query(min_length=1, max_length=200, description="Words to find.")],
        page: Page = 1,
    ) -> Response:
        return json_response(await backend.search(q, page))

    for route in reads:
        statuses = sorted({*route.statuses, *get_err})
        _add_cached_route(app, route, backend, get_auth, statuses)

    @app.get(
        "/api/texts/{slug}/revisions",
        response_model=TextRevisionsResponse,
        tags=["Texts"],
        summary="Text revisions",
        description="The text's history, oldest first: number, time, author, what changed.",
        dependencies=get_auth,
        responses=_error_responses(400, *get_err, 404, 500, 503, 504),
    )
    async def text_revisions(slug: Slug) -> Response:
        return json_response(await backend.text_revisions(slug))

    Revision = Annotated[int, Query(ge=1, le=MAX_PAGE, description="A revision number.")]

    @app.get(
        "/api/texts/{slug}/diff",
        response_model=TextDiff,
        tags=["Texts"],
        summary="Compare revisions",
        description="What differs between revision ``from`` and ``to`` (default: the "
        "current one), section by section and phrase by phrase.",
        dependencies=get_auth,
        responses=_error_responses(400, *get_err, 404, 500, 503, 504),
    )
    async def text_diff(
        slug: Slug,
        old: Annotated[
            int, Query(alias="from", ge=1, le=MAX_PAGE, description="The older revision.")
        ],
        new: Annotated[
            int | None,
            Query(
                alias="to",
                ge=1,
                le=MAX_PAGE,
                description="The newer revision (default: the current one).",
            ),
        ] = None,
    ) -> Response:
        return json_response(await backend.text_diff(slug, old, new))

    @app.post(
        "/api/texts/{slug}/revert",
        response_model=TextRevision,
        tags=["Texts"],
        summary="Revert a text",
        description="Make ``revision`` current again, as a new revision (nothing is lost). "
        + _IF_MATCH_NOTE,
        dependencies=post_auth,
        responses=_error_responses(400, *auth_err, 404, 412, 428, 500, 503, 504),
    )
    async def revert_text(
        slug: Slug,
        revision: Revision,
        if_match: IfMatch = None,
        author: Author = None,
    ) -> Response:
        made, etag = await backend.revert(slug, revision, if_match, author)
        return json_response(made, headers={"ETag": etag})

    @app.patch(
        "/api/texts/{slug}/sections/{sequence_id}",
        response_model=SectionEditResult,
        tags=["Texts"],
        summary="Edit a section",
        description="A JSON merge patch of the section's editable fields, as a new revision. "
        + _IF_MATCH_NOTE,
        dependencies=[*post_auth, Depends(require_json)],
        responses=_error_responses(400, *auth_err, 404, 412, 413, 415, 428, 500, 503, 504),
    )
    async def edit_section(
        slug: Slug,
        sequence_id: Annotated[int, Path(description="The section's sequence_id.")],
        edit: SectionEdit,
        if_match: IfMatch = None,
        author: Author = None,
    ) -> Response:
        result = await backend.edit_section(slug, sequence_id, edit, if_match, author)
        return json_response(result, headers={"ETag": result.etag})

    @app.get(
        "/api/library/test",
        response_model=LibraryStatus,
        tags=["Extraction"],
        summary="Test library API",
        description="Whether the online library answers, and how fast.",
        dependencies=get_auth,
        responses=_error_responses(400, *get_err, 500, 502, 504),
    )
    async def library_test() -> Response:
        return json_response(await backend.library_test())

    @app.post(
        "/api/extract",
        response_model=ExtractedDocument,
        tags=["Extraction"],
        summary="Extract Text from Document",
        description="Pages of Hebrew text, in reading order, from a PDF upload.",
        dependencies=post_auth,
        openapi_extra=PDF_UPLOAD_BODY,
        responses=_error_responses(400, *auth_err, 413, 415, 500, 504),
    )
    async def extract(
        request: Request, data: Annotated[bytes, Depends(read_pdf_upload)]
    ) -> Response:
        body = await backend.extract_json(data, upload_filename(request))
        return Response(body, media_type="application/json")

    @app.post(
        "/api/outline",
        response_model=DocumentOutline | OutlineComparison,
        tags=["Processing"],
        summary="Generate Document Outline",
        description="A DocumentOutline for one provider; an OutlineComparison for several.",
        dependencies=post_auth,
        openapi_extra=PDF_UPLOAD_BODY,
        responses=_error_responses(400, *auth_err, 413, 415, 429, 500, 502, 503, 504),
    )
    async def outline(
        request: Request,
        data: Annotated[bytes, Depends(read_pdf_upload)],
        providers: Providers = None,
    ) -> Response:
        names = _split_providers(providers)
        return json_response(await backend.outline(data, names, upload_filename(request)))

    @app.post(
        "/api/process",
        response_model=ProcessResponse,
        tags=["Processing"],
        summary="Process Complete Document",
        description="Outline, translate and store a PDF upload or an online library work "
        '(JSON {"work_id": ...}); returns the stored document and its slug. With '
        "``Prefer: respond-async`` or ``?wait=false``: 202 with the queued ``Job`` and "
        "``Location: /api/jobs/{id}``. A run where some sections could not be translated "
        "is refused (409 ``partial_translation``, nothing stored) unless ``save_partial`` "
        "is set; then it is stored and ``failed_sections`` names them.",
        dependencies=post_auth,
        openapi_extra=PROCESS_BODY,
        responses={
            **_error_responses(400, *auth_err, 404, 409, 413, 415, 429, 500, 502, 503, 504),
            202: {"model": Job, "description": "Queued (respond-async): the job"},
        },
    )
    async def process(
        request: Request,
        source: Annotated[bytes | ProcessRequest, Depends(read_process_source)],
        provider: Annotated[
            str | None, Query(max_length=200, description="A provider offered by this server.")
        ] = None,
        providers: Annotated[
            str | None,
            Query(
                max_length=500,
                deprecated=True,
                description="Old spelling of ``provider`` (one name), until libtext 0.2.",
            ),
        ] = None,
        wait: Annotated[
            bool | None,
            Query(description="false: queue it and answer 202 with the job (see /api/jobs)."),
        ] = None,
        prefer: Annotated[
            str | None,
            Header(description="respond-async (RFC 7240): as wait=false."),
        ] = None,
        save_partial: Annotated[
            bool | None,
            Query(
                description="true: store the document even when some sections could not "
                "be translated (as the JSON body's ``save_partial``; for a PDF upload)."
            ),
        ] = None,
    ) -> Response:
        # Declared as one string (any header value is one); RFC 7240 allows the field
        # to repeat, so every occurrence is read.
        names = _one_provider(provider, providers)
        keep = bool(save_partial) or (isinstance(source, ProcessRequest) and source.save_partial)
        if wants_async(request.headers.getlist("prefer") if prefer else None, wait):
            return await accept(job_backend, request, source, names, save_partial=keep)
        return json_response(
            await backend.process(source, names, upload_filename(request), save_partial=keep)
        )

    @app.post(
        "/api/translate",
        response_model=TranslatedSegment,
        tags=["Processing"],
        summary="Translate Document Segment",
        description="English phrases with Sefaria links for one Hebrew segment.",
        dependencies=[*post_auth, Depends(require_json)],
        responses=_error_responses(400, *auth_err, 413, 415, 429, 500, 502, 503, 504),
    )
    async def translate(
        segment: EnrichedSegment,
        provider: Annotated[
            str | None, Query(max_length=200, description="A provider offered by this server.")
        ] = None,
    ) -> Response:
        return json_response(
            await backend.translate(segment, provider.strip() if provider else None)
        )

    install_job_routes(
        app,
        job_backend,
        auth=auth,
        errors=_error_responses,
        auth_err=auth_err,
        max_page=MAX_PAGE,
    )
    _install_openapi(app)
    return app


def lifespan(app: FastAPI) -> AbstractAsyncContextManager[None]:
    """The startup and shutdown of an app made by :func:`create_app`, for a host app that
    mounts it.

    Starlette never runs a mounted app's lifespan, so its job workers would not start
    (and a ``Prefer: respond-async`` request answers 503 ``no_workers``) and what it made
    would not be closed. Run it in the host's::

        texts = create_app(store=store)
        app = FastAPI(lifespan=lambda _: lifespan(texts))
        app.mount("/texts", texts)

    Raises:
        TypeError: ``app`` was not made by :func:`create_app`.
    """
    if not isinstance(getattr(app.state, "backend", None), Backend):
        raise TypeError("lifespan() takes an app made by libtext.asgi.create_app().")
    context: AbstractAsyncContextManager[None] = app.router.lifespan_context(app)  # type: ignore[assignment]
    return context


def _install_openapi(app: FastAPI) -> None:
    """Errors are 400 ``ErrorResponse`` here, never FastAPI's 422: say so in the schema."""
    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = default_openapi()
        for path in schema.get("paths", {}).values():
            for operation in path.values():
                operation.get("responses", {}).pop("422", None)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        extra = ProcessRequest.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, sub in extra.pop("$defs", {}).items():
            components.setdefault(name, sub)
        components.setdefault("ProcessRequest", extra)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
