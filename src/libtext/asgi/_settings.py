"""Settings of the HTTP adapter: limits, API key, CORS, providers.

Kept free of FastAPI imports so a deployment can build and check its settings
without the ``server`` extra.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from libtext.errors import ConfigurationError

if TYPE_CHECKING:  # pragma: no cover
    from libtext.pdf._guard import PdfGuard
    from libtext.providers.base import Provider
    from libtext.providers.structured import RetryPolicy

__all__ = ["Settings"]

MB = 2**20
STORE_MAX_PAGE_SIZE = 100
"""``libtext.store.MAX_PAGE_SIZE``, repeated so settings load without the store extra."""
MAX_JOBS_WORKERS = 64


_POSITIVE_INTS = (
    "max_queued_jobs",
    "max_queued_bytes",
    "max_upload_bytes",
    "max_pdf_pages",
    "default_page_size",
    "max_page_size",
    "pdf_workers",
    "max_page_chars",
    "max_pdf_chars",
    "max_stream_bytes",
    "max_segment_chars",
)


def _default_pdf_workers() -> int:
    """One core left to the event loop, at most four (``libtext.pdf._guard``'s default)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in value.split(",") if part.strip())


class _Environment(BaseSettings):
    """The ``LIBTEXT_*`` variables :meth:`Settings.from_env` reads, parsed and checked by
    pydantic-settings: a value of the wrong type names its variable.

    Every field is optional: a variable left unset (or empty) keeps the default of
    :class:`Settings`. The comma lists stay strings here (pydantic-settings would read
    them as JSON) and are split by ``from_env``.
    """

    model_config = SettingsConfigDict(
        env_prefix="LIBTEXT_", env_ignore_empty=True, extra="ignore", case_sensitive=False
    )

    max_upload_bytes: int | None = None
    max_pdf_pages: int | None = None
    max_page_size: int | None = None
    pdf_workers: int | None = None
    pdf_memory_mb: int | None = None
    max_page_chars: int | None = None
    max_pdf_chars: int | None = None
    max_stream_bytes: int | None = None
    max_segment_chars: int | None = None
    cache_bytes: int | None = None
    jobs_workers: int | None = None
    max_queued_jobs: int | None = None
    max_queued_bytes: int | None = None
    request_timeout: float | None = None
    processing_timeout: float | None = None
    pdf_timeout: float | None = None
    body_timeout: float | None = None
    api_key: str | None = None
    protect_get: bool | None = None
    cors_origins: str | None = None
    providers: str | None = None
    database_url: str | None = None
    store_url: str | None = None  # LIBTEXT_STORE_URL: the deprecated name of the one above

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)  # the variables come from read(), below


_KINDS = {"int": "an integer", "float": "a number", "bool": "true or false"}


def _read_environment(env: Mapping[str, str]) -> _Environment:
    """The variables of ``env`` through pydantic-settings' own environment source."""
    source = _MappingSource(_Environment, env)
    try:
        return _Environment(**source())
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        name = f"LIBTEXT_{str(first['loc'][0]).upper()}"
        kind = next((v for k, v in _KINDS.items() if first["type"].startswith(k)), "valid")
        raise ConfigurationError(
            f"Environment variable {name} must be {kind}, got {first.get('input')!r}.",
            details={"variable": name},
        ) from None


class _MappingSource(EnvSettingsSource):
    """pydantic-settings' environment source over a given mapping (``from_env(environ)``)
    rather than ``os.environ`` only."""

    def __init__(self, settings_cls: type[BaseSettings], env: Mapping[str, str]) -> None:
        self._mapping = env
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # An empty variable is unset, as env_ignore_empty says (and as before).
        return {key.lower(): value for key, value in self._mapping.items() if value}


def _store_url_alias(env: Mapping[str, str]) -> str | None:
    """``LIBTEXT_STORE_URL``, the adapter's old name for ``LIBTEXT_DATABASE_URL`` (deprecated)."""
    raw = env.get("LIBTEXT_STORE_URL")
    if raw:
        warnings.warn(
            "LIBTEXT_STORE_URL is deprecated: set LIBTEXT_DATABASE_URL, the store URL that "
            "TextStore, the CLI and the HTTP adapter all read.",
            DeprecationWarning,
            stacklevel=3,
        )
    return raw or None


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Limits and switches of :func:`libtext.asgi.create_app`.

    Every field has a documented default and an environment variable read by
    :meth:`from_env` (when the app is created, never at import).

    Attributes:
        max_upload_bytes: Largest request body accepted (``LIBTEXT_MAX_UPLOAD_BYTES``,
            default 50 MB). Checked against ``Content-Length`` and counted while the
            body streams; the request is rejected with 413 as soon as it passes.
        max_pdf_pages: Most pages read from an uploaded PDF (``LIBTEXT_MAX_PDF_PAGES``,
            default 2000); more gives 413 ``too_many_pages``.
        default_page_size: ``pageSize`` of ``GET /api/texts`` when not given (20).
        max_page_size: Largest ``pageSize`` accepted (``LIBTEXT_MAX_PAGE_SIZE``,
            default 100, the most the store serves); more gives 400.
        request_timeout: Seconds allowed for short calls: search, library test,
            store reads (``LIBTEXT_REQUEST_TIMEOUT``, default 30). Passing it gives 504.
        processing_timeout: Seconds allowed for extract, outline, process and
            translate (``LIBTEXT_PROCESSING_TIMEOUT``, default 600). Passing it gives
            504; PDF work, the offline outline and the translation's own CPU work
            (citation scan, phrase split, offline answer) are stopped (their worker
            process killed); a provider's call in flight is cancelled.
        api_key: When set (``LIBTEXT_API_KEY``), POST routes require
            ``Authorization: Bearer <api_key>``. Never shown in ``repr``.
        protect_get: Also require the key on every GET route except ``/api/health``:
            the API's routes and the documentation (``/docs``, ``/redoc``,
            ``/openapi.json``) alike (``LIBTEXT_PROTECT_GET``, default false).
        cors_origins: Origins allowed by CORS (``LIBTEXT_CORS_ORIGINS``, comma
            separated; ``*`` for any). Empty (the default) adds no CORS headers.
        providers: The AI providers this server offers, by spec (``"offline"``,
            ``"openai/gpt-4o-mini"``) or as :class:`~libtext.providers.base.Provider`
            instances (``LIBTEXT_PROVIDERS``, comma separated; default ``offline``).
            The first is the default; requests naming any other get 400.
        retry: Retry policy of the provider calls the app makes (``None``: the
            library's default). Keep its deadline under ``processing_timeout``.
        pdf_workers: PDF worker processes (``LIBTEXT_PDF_WORKERS``, default the CPU
            count less one, between 1 and 4): PDFs read at once; more uploads wait
            their turn (within ``pdf_timeout``). Workers run at a lower CPU priority.
        pdf_memory_mb: Address-space cap of each PDF worker in MiB
            (``LIBTEXT_PDF_MEMORY_MB``, default 1024); a PDF that needs more gives 413.
        pdf_timeout: Seconds one PDF may take to read, waiting for a worker included
            (``LIBTEXT_PDF_TIMEOUT``, default 120); then its worker is killed (504) and
            the capacity is free for the next upload.
        max_page_chars: Characters on one PDF page (``LIBTEXT_MAX_PAGE_CHARS``,
            default 100,000); more gives 413 naming the limit.
        max_pdf_chars: Characters in one PDF (``LIBTEXT_MAX_PDF_CHARS``, default
            10,000,000); more gives 413.
        max_stream_bytes: Bytes one compressed content stream may inflate to
            (``LIBTEXT_MAX_STREAM_BYTES``, default 64 MiB); checked before parsing (413).
        max_segment_chars: Characters of Hebrew (block and footnotes) in one
            ``POST /api/translate`` segment (``LIBTEXT_MAX_SEGMENT_CHARS``, default
            1,000,000); more gives 413.
        body_timeout: Seconds a client may take to send each part of a request body
            (``LIBTEXT_BODY_TIMEOUT``, default 30); a slower one gets 408, so slow
            uploads cannot hold connections open.
        cache_bytes: Bytes of response bodies kept by the read cache of
            ``GET /api/texts`` and ``GET /api/texts/{slug}`` (``LIBTEXT_CACHE_BYTES``,
            default 16 MiB; 0 turns it off). An answer is served from it only while
            the store's data version says no write committed since.
        jobs_workers: Jobs the app runs at once in its own process, taken from the job
            queue in the store's database (``LIBTEXT_JOBS_WORKERS``, default 1, at most
            64; 0 runs none, for servers whose jobs ``libtext worker`` processes run).
            Started and stopped with the app's lifespan; each ``--workers`` process of
            ``libtext serve`` runs its own.
        max_queued_jobs: Jobs that may wait at once (``LIBTEXT_MAX_QUEUED_JOBS``,
            default 100); one more gets 503 ``queue_full`` with ``Retry-After``.
        max_queued_bytes: Bytes of PDF the waiting jobs may hold together in the
            database (``LIBTEXT_MAX_QUEUED_BYTES``, default 512 MiB); past it, 503
            ``queue_full``.
        store_url: Database URL of the :class:`~libtext.TextStore` the app makes when
            none is passed (``LIBTEXT_DATABASE_URL``, the variable ``TextStore`` and the
            CLI read; ``LIBTEXT_STORE_URL`` is a deprecated alias it wins over; ``None``
            uses the store's default).
    """

    max_upload_bytes: int = 50 * MB
    max_pdf_pages: int = 2000
    default_page_size: int = 20
    max_page_size: int = 100
    request_timeout: float = 30.0
    processing_timeout: float = 600.0
    api_key: str | None = field(default=None, repr=False)
    protect_get: bool = False
    cors_origins: tuple[str, ...] = ()
    providers: tuple[str | Provider, ...] = ("offline",)
    retry: RetryPolicy | None = None
    store_url: str | None = field(default=None, repr=False)
    pdf_workers: int = field(default_factory=_default_pdf_workers)
    pdf_memory_mb: int = 1024
    pdf_timeout: float = 120.0
    max_page_chars: int = 100_000
    max_pdf_chars: int = 10_000_000
    max_stream_bytes: int = 64 * MB
    max_segment_chars: int = 1_000_000
    body_timeout: float = 30.0
    cache_bytes: int = 16 * MB
    jobs_workers: int = 1
    max_queued_jobs: int = 100
    max_queued_bytes: int = 512 * MB

    def __post_init__(self) -> None:
        for name in _POSITIVE_INTS:
            if getattr(self, name) < 1:
                raise ConfigurationError(f"Settings.{name} must be at least 1.")
        if self.max_page_size > STORE_MAX_PAGE_SIZE:
            raise ConfigurationError(
                f"Settings.max_page_size may be at most {STORE_MAX_PAGE_SIZE}, the largest "
                "page the text store serves."
            )
        if self.default_page_size > self.max_page_size:
            raise ConfigurationError("Settings.default_page_size must not exceed max_page_size.")
        if self.cache_bytes < 0:
            raise ConfigurationError("Settings.cache_bytes must be 0 (no cache) or more.")
        if not 0 <= self.jobs_workers <= MAX_JOBS_WORKERS:
            raise ConfigurationError(
                f"Settings.jobs_workers must be between 0 and {MAX_JOBS_WORKERS}."
            )
        if self.pdf_memory_mb < 64:
            raise ConfigurationError("Settings.pdf_memory_mb must be at least 64 (MiB).")
        if min(self.request_timeout, self.processing_timeout, self.pdf_timeout) <= 0 or (
            self.body_timeout <= 0
        ):
            raise ConfigurationError("Settings timeouts must be positive numbers of seconds.")
        if not self.providers:
            raise ConfigurationError("Settings.providers must name at least one provider.")
        if self.api_key is not None and not self.api_key.strip():
            raise ConfigurationError("Settings.api_key is empty; pass None to disable it.")
        names = self.provider_names
        if len(set(names)) != len(names):
            raise ConfigurationError(f"Settings.providers has duplicate names: {names}.")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``LIBTEXT_*`` environment variables, then ``overrides``.

        Args:
            environ: Where to read variables (default ``os.environ``).
            **overrides: Field values that win over the environment.
        """
        env = os.environ if environ is None else environ
        read = _read_environment(env)
        values: dict[str, Any] = {
            name: value
            for name, value in read.model_dump(exclude_none=True).items()
            if name not in ("cors_origins", "providers", "database_url", "store_url")
        }
        if read.cors_origins:
            values["cors_origins"] = _split(read.cors_origins)
        if read.providers:
            values["providers"] = _split(read.providers)
        if url := read.database_url or _store_url_alias(env):
            values["store_url"] = url
        known = {f.name for f in fields(cls)}
        unknown = set(overrides) - known
        if unknown:
            raise ConfigurationError(f"Unknown Settings field(s): {sorted(unknown)}.")
        values.update(overrides)
        return cls(**values)

    def replace(self, **changes: Any) -> Settings:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    @property
    def provider_names(self) -> tuple[str, ...]:
        """The names clients use in ``?providers=``."""
        return tuple(p if isinstance(p, str) else p.name for p in self.providers)

    def pick_providers(self, names: tuple[str, ...]) -> tuple[str | Provider, ...]:
        """The configured providers for requested names; the default when none.

        Raises:
            InvalidInputError: A name is not offered by this server.
        """
        from libtext.errors import InvalidInputError

        if not names:
            return self.providers[:1]
        by_name = dict(zip(self.provider_names, self.providers, strict=True))
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise InvalidInputError(
                f"Provider(s) {', '.join(map(repr, unknown))} not offered by this server; "
                f"choose from: {', '.join(self.provider_names)}.",
                details={"unknown": unknown, "available": list(self.provider_names)},
            )
        if len(set(names)) != len(names):
            raise InvalidInputError("Each provider may be named only once in ?providers=.")
        return tuple(by_name[n] for n in names)

    def pdf_guard(self) -> PdfGuard:
        """The PDF guard these settings describe, shared by everything in this process
        with the same settings (never closed by one of them)."""
        from libtext.pdf._guard import PdfLimits, shared_guard

        return shared_guard(
            concurrency=self.pdf_workers,
            memory_mb=self.pdf_memory_mb,
            timeout=self.pdf_timeout,
            limits=PdfLimits(
                max_page_chars=self.max_page_chars,
                max_chars=self.max_pdf_chars,
                max_stream_bytes=self.max_stream_bytes,
            ),
        )

    def job_pdf_options(self) -> dict[str, Any]:
        """``JobQueue.work``'s PDF keywords: a job's PDF is read as an upload is."""
        return {
            "pdf_guard": self.pdf_guard(),
            "max_pdf_pages": self.max_pdf_pages,
            "max_pdf_bytes": self.max_upload_bytes,
        }
