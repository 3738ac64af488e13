"""The library calls behind the HTTP routes, one method per route.

Routes stay a few lines (parse, await one method here, return the model); this
class owns what the routes share: the lazily made store and library client, the
provider choice, the timeouts and the read cache (``libtext.asgi._cache``). Objects passed in by the
caller are used as they are and never closed here; objects made here are closed
by :meth:`Backend.aclose` (the app's shutdown).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.to_thread
from anyio.lowlevel import RunVar
from starlette.responses import StreamingResponse

from libtext._offload import offloading
from libtext._version import __version__
from libtext.asgi._cache import CachedReads
from libtext.asgi._errors import PreconditionRequiredError, RequestTimeoutError
from libtext.asgi._settings import Settings
from libtext.errors import InputTooLargeError, LibtextError
from libtext.models import (
    DocumentOutline,
    EnrichedSegment,
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
    from libtext.library import LibraryClient
    from libtext.outline import Outliner
    from libtext.providers.base import Provider
    from libtext.store import TextStore
    from libtext.translate import Translator

__all__ = ["MAX_EDIT_CHARS", "PROBE_TIMEOUT", "Backend"]

T = TypeVar("T")

MAX_EDIT_CHARS = 1_000_000
"""Characters of JSON one section edit may hold: a long chapter's translation with room
to spare. Every revision keeps what it changed, so an edit's size is what history costs."""
PROBE_TIMEOUT = 2.0
"""Seconds each health probe (the store, the providers) may take before it counts as down."""
PROBE_THREADS = 4
"""Threads health probes may hold at once; a probe stuck on a hung database keeps one."""

_PROBES: RunVar[anyio.CapacityLimiter] = RunVar("libtext_health_probes")


async def _probe(check: Callable[[], bool]) -> bool:
    """``check()`` in a thread of its own small pool, abandoned if the caller gives up.

    A thread cannot be stopped: one blocked on a database that never answers is left
    to its driver's own timeout, and the probe's pool (not the default one other
    requests need) is what it holds meanwhile.
    """
    try:
        limiter = _PROBES.get()
    except LookupError:
        limiter = anyio.CapacityLimiter(PROBE_THREADS)
        _PROBES.set(limiter)
    return await anyio.to_thread.run_sync(check, abandon_on_cancel=True, limiter=limiter)


def _unwrap(exc: BaseException) -> BaseException:
    """The one libtext error inside task-group exception groups, if that is all there is."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


class Backend:
    """What the routes call. Made by :func:`libtext.asgi.create_app`."""

    def __init__(
        self,
        *,
        settings: Settings,
        store: TextStore | None = None,
        outliner: Outliner | None = None,
        translator: Translator | None = None,
        library: LibraryClient | None = None,
    ) -> None:
        self.settings = settings
        self._store = store
        self._library = library
        self._outliner = outliner
        self._translator = translator
        self._owned: list[Any] = []
        self._lock = anyio.Lock()
        self.reads = CachedReads(self, settings.cache_bytes)
        self._providers_ok: bool | None = None
        # Shared by apps with the same settings (never closed by one of them).
        self.pdf_guard = settings.pdf_guard()

    # --- resources ---------------------------------------------------------------

    async def store(self) -> TextStore:
        """The store given to ``create_app``, or one made from ``settings.store_url``."""
        if self._store is None:
            async with self._lock:
                if self._store is None:
                    from libtext.store import TextStore

                    url = self.settings.store_url
                    # Abandoned if the caller gives up (health on a database that never
                    # answers): the thread ends at the driver's connect timeout.
                    store = await anyio.to_thread.run_sync(
                        lambda: TextStore(url), abandon_on_cancel=True
                    )
                    self._owned.append(store)
                    self._store = store
        return self._store

    def store_if_made(self) -> TextStore | None:
        """The store, if given or made already; never makes one (no I/O)."""
        return self._store

    def library(self) -> LibraryClient:
        """The library client given to ``create_app``, or a default one."""
        if self._library is None:
            from libtext.library import LibraryClient

            self._library = LibraryClient(timeout=self.settings.request_timeout)
            self._owned.append(self._library)
        return self._library

    def outliner(self, names: tuple[str, ...] = ()) -> Outliner:
        """The configured outliner, or one for the providers a request names."""
        if not names and self._outliner is not None:
            return self._outliner
        chosen = self.settings.pick_providers(names)
        from libtext.outline import Outliner

        outliner = Outliner(providers=chosen, retry=self.settings.retry)
        if not names:
            self._outliner = outliner
        return outliner

    def translator(self, name: str | None = None) -> Translator:
        """The configured translator, or one for the provider a request names."""
        if name is None and self._translator is not None:
            return self._translator
        provider: str | Provider = self.settings.pick_providers((name,) if name else ())[0]
        from libtext.translate import Translator

        translator = Translator(provider=provider, retry=self.settings.retry)
        if name is None:
            self._translator = translator
        return translator

    async def aclose(self) -> None:
        """Close what this backend made (not what the caller passed in)."""
        owned, self._owned = self._owned, []
        for obj in reversed(owned):
            aclose = getattr(obj, "aclose", None)
            if aclose is not None:
                await aclose()
            else:
                await anyio.to_thread.run_sync(obj.close)
            if obj is self._library:  # closed for good: a restarted app makes a new one
                self._library = None

    # --- calls -------------------------------------------------------------------

    async def within(self, timeout: float, fn: Callable[[], Awaitable[T]]) -> T:
        try:
            with anyio.fail_after(timeout):
                return await fn()
        except LibtextError:  # ExtractionTimeoutError is a TimeoutError too: keep its code
            raise
        except TimeoutError:
            raise RequestTimeoutError(
                f"The operation did not finish within {timeout:g} s; retry later or with a "
                "smaller document.",
                details={"timeout_s": timeout},
            ) from None
        except BaseExceptionGroup as group:
            inner = _unwrap(group)
            if isinstance(inner, LibtextError):
                raise inner from None
            raise

    async def _extract(self, data: bytes, filename: str | None = None) -> ExtractedDocument:
        """PDF extraction in the guard's worker processes (see ``libtext.pdf._guard``).

        The route's timeout (or a client gone) cancels the wait and kills the worker:
        the next upload finds the capacity free, and the event loop never parses. The
        upload's name goes with it, as a file opened by path would give it (and as a
        queued job's does).
        """
        import io

        from libtext.pdf import aextract_pdf

        source = io.BytesIO(data)
        source.name = filename or ""
        return await aextract_pdf(
            source,
            max_pages=self.settings.max_pdf_pages,
            max_bytes=self.settings.max_upload_bytes,
            guard=self.pdf_guard,
        )

    async def health(self) -> HealthResponse:
        """Version, store reachability and the providers on offer; answers within seconds.

        ``status`` is ``"degraded"`` (and the route answers 503) when the store is
        configured but does not answer within :data:`PROBE_TIMEOUT` s, or a configured
        provider cannot be made (a missing key): a load balancer should then send
        traffic elsewhere. Each probe has its own time limit and runs in an abandoned
        thread when it passes it: a database that accepts connections and never
        answers makes health say so instead of making it wait.
        """
        state: Any = "ok"
        timeout = min(self.settings.request_timeout, PROBE_TIMEOUT)
        try:
            with anyio.fail_after(timeout):
                store = self._store
                if store is None:
                    store = await self.store()
                ping = getattr(store, "ping", None)  # a store passed in may have aping only
                up = await (_probe(ping) if callable(ping) else store.aping())
                if not up:
                    state = "unavailable"
        except ImportError:
            state = "not_configured"
        except Exception:
            state = "unavailable"
        try:
            with anyio.fail_after(timeout):
                providers_ok = await self._providers_usable()
        except TimeoutError:
            providers_ok = False
        healthy = state != "unavailable" and providers_ok
        return HealthResponse(
            status="ok" if healthy else "degraded",
            version=__version__,
            store=state,
            providers=list(self.settings.provider_names),
        )

    async def _providers_usable(self) -> bool:
        """Whether every configured provider can be made (keys present); checked once.

        In a thread: a litellm provider imports litellm, a second of work.
        """
        if self._providers_ok is None:
            from libtext.providers.registry import resolve_provider

            def check() -> bool:
                try:
                    for provider in self.settings.providers:
                        resolve_provider(provider)
                except LibtextError:
                    return False
                return True

            self._providers_ok = await anyio.to_thread.run_sync(check)
        return self._providers_ok

    async def search(self, query: str, page: int) -> SearchResultsResponse:
        return await self.within(
            self.settings.request_timeout, lambda: self.library().asearch(query, page=page)
        )

    async def library_test(self) -> LibraryStatus:
        return await self.within(self.settings.request_timeout, lambda: self.library().aping())

    async def text_revisions(self, slug: str) -> TextRevisionsResponse:
        async def call() -> TextRevisionsResponse:
            return await (await self.store()).arevisions(slug)

        return await self.within(self.settings.request_timeout, call)

    async def export(self, slug: str, revision: int | None, fmt: str) -> StreamingResponse:
        """A stored text as a published file, streamed (``libtext.export``).

        The document is read and checked (404, bad revision) before the first byte;
        Markdown, TEI and HTML are then made a section at a time as the client reads,
        DOCX and EPUB written to a temporary file first, in a worker thread.
        """
        from libtext.export import EXTENSIONS, MEDIA_TYPES, iter_export

        async def call() -> Iterator[bytes]:
            document = await (await self.store()).aget(slug, revision=revision)
            if fmt in ("docx", "epub"):
                return await anyio.to_thread.run_sync(partial(iter_export, document, fmt))
            return iter_export(document, fmt)

        chunks = await self.within(self.settings.request_timeout, call)
        name = f"{slug}.{EXTENSIONS[fmt]}"
        how = "inline" if fmt == "html" else "attachment"
        return StreamingResponse(
            chunks,
            media_type=MEDIA_TYPES[fmt],
            headers={"Content-Disposition": f'{how}; filename="{name}"', "Vary": "Accept"},
        )

    async def text_diff(self, slug: str, old: int, new: int | None) -> TextDiff:
        async def call() -> TextDiff:
            store = await self.store()
            return await store.adiff(slug, from_revision=old, to_revision=new)

        return await self.within(self.settings.request_timeout, call)

    async def revert(
        self, slug: str, revision: int, if_match: str | None, author: str | None
    ) -> tuple[TextRevision, str]:
        """Revert to ``revision``, refused without the ETag it is based on; the new ETag."""
        _require_if_match(slug, if_match, "Reverting")

        async def call() -> tuple[TextRevision, str]:
            store = await self.store()
            revert = partial(
                store._revert_tagged, slug, revision, expected_etag=if_match, author=author
            )
            return await anyio.to_thread.run_sync(revert)

        return await self.within(self.settings.request_timeout, call)

    async def edit_section(
        self,
        slug: str,
        sequence_id: int,
        edit: SectionEdit,
        if_match: str | None,
        author: str | None,
    ) -> SectionEditResult:
        """One section edit, refused without the ETag it is based on (``If-Match``)."""
        _require_if_match(slug, if_match, "Editing")

        size = len(edit.model_dump_json(exclude_unset=True))
        if size > MAX_EDIT_CHARS:
            raise InputTooLargeError(
                f"The section edit is {size:,} characters of JSON, over the limit of "
                f"{MAX_EDIT_CHARS:,}; a section is edited a part at a time.",
                details={"limit": "max_edit_chars", "max_edit_chars": MAX_EDIT_CHARS},
            )

        async def call() -> SectionEditResult:
            store = await self.store()
            return await store.aedit_section(
                slug, sequence_id, edit, expected_etag=if_match, author=author
            )

        return await self.within(self.settings.request_timeout, call)

    async def extract_json(self, data: bytes, filename: str | None = None) -> bytes:
        """The extracted document as JSON, serialized in the PDF worker: the server
        process only moves bytes (no document of thousands of lines unpickled, then
        dumped again, for each upload while other requests wait for the GIL)."""
        from libtext.pdf import aextract_json

        settings = self.settings
        return await self.within(
            settings.processing_timeout,
            lambda: aextract_json(
                data,
                name=filename or "",
                max_pages=settings.max_pdf_pages,
                max_bytes=settings.max_upload_bytes,
                guard=self.pdf_guard,
            ),
        )

    async def outline(
        self, data: bytes, names: tuple[str, ...], filename: str | None = None
    ) -> DocumentOutline | OutlineComparison:
        """One provider gives its outline; several give the comparison."""
        outliner = self.outliner(names)

        async def call() -> DocumentOutline | OutlineComparison:
            doc = await self._extract(data, filename)
            with offloading(self.pdf_guard):
                if len(names) > 1:
                    return await outliner.acompare(doc)
                return await outliner.aoutline(doc)

        return await self.within(self.settings.processing_timeout, call)

    async def process(
        self,
        source: bytes | ProcessRequest,
        names: tuple[str, ...],
        filename: str | None = None,
        *,
        save_partial: bool = False,
    ) -> ProcessResponse:
        """Outline, translate and store a PDF or a library work; return it with its slug.

        A document some of whose sections could not be translated is stored only with
        ``save_partial`` (else :class:`~libtext.errors.PartialTranslationError`, 409).
        """
        outliner = self.outliner(names)
        translator = self.translator(names[0] if names else None)
        from libtext.process import aprocess_document, check_failures, failed_sections

        limit = self.settings.max_pdf_pages

        async def call() -> ProcessResponse:
            doc_source: Any
            if isinstance(source, bytes):
                doc_source = await self._extract(source, filename)
            else:
                max_pages = min(source.max_pages or limit, limit)
                doc_source = await self.library().aget_work(source.work_id, max_pages=max_pages)
            with offloading(self.pdf_guard):
                document = await aprocess_document(
                    doc_source, outliner=outliner, translator=translator
                )
            check_failures(
                document, saving=True, save_partial=save_partial, provider=translator.name
            )
            item = await (await self.store()).asave(document)
            return ProcessResponse(
                slug=item.slug,
                document=document.public(),
                failed_sections=failed_sections(document),
            )

        return await self.within(self.settings.processing_timeout, call)

    async def translate(self, segment: EnrichedSegment, name: str | None) -> TranslatedSegment:
        from libtext.translate import check_segment_size

        check_segment_size(segment, self.settings.max_segment_chars, "max_segment_chars")
        translator = self.translator(name)

        async def call() -> TranslatedSegment:
            # The plan (citation scan, phrase split) and the offline answer of a long
            # block run in the guard's workers: the timeout stops them.
            with offloading(self.pdf_guard):
                return await translator.atranslate(segment)

        return await self.within(self.settings.processing_timeout, call)


def _require_if_match(slug: str, if_match: str | None, doing: str) -> None:
    if not if_match or not if_match.strip() or if_match.strip() == "*":
        raise PreconditionRequiredError(
            f"{doing} a text needs the header 'If-Match' with the ETag of the text "
            f"as read (GET /api/texts/{slug} sends it), so that an edit made since "
            "is not overwritten.",
            details={"header": "If-Match"},
        )
