"""The libtext exception tree.

Every error libtext raises on purpose is a :class:`LibtextError`. Catch the root to
handle them all, or a branch to handle one kind::

    LibtextError                      code
    ├── InvalidInputError             invalid_input       the caller's input is wrong
    │   ├── InvalidPDFError           invalid_pdf         not a PDF, truncated, corrupt
    │   │   ├── EmptyFileError        empty_file          zero bytes
    │   │   ├── EncryptedPDFError     encrypted_pdf       needs a password
    │   │   └── NoTextLayerError      no_text_layer       scanned pages: needs OCR
    │   ├── EmptyDocumentError        empty_document      no usable text at all
    │   ├── InvalidTypeError          invalid_type        an argument of the wrong type
    │   ├── InputTooLargeError        too_large           bytes over the limit
    │   ├── TooManyPagesError         too_many_pages      pages over the limit
    │   ├── UnsupportedMediaError     unsupported_media   not a kind libtext reads
    │   └── InvalidSlugError          invalid_slug        not a well-formed slug
    ├── ConfigurationError            configuration_error a setting or key is missing
    │   └── MissingAPIKeyError        missing_api_key     names the environment variable
    ├── NotFoundError                 not_found           no such text, work or page
    ├── ExtractionTimeoutError        extraction_timeout  a PDF worker passed its time limit
    ├── ConflictError                 conflict            the text changed since the edit's revision
    ├── UpstreamError                 upstream_error      a remote service failed
    │   ├── ProviderError             provider_error      an AI provider failed
    │   │   ├── ProviderAuthError     provider_auth       key rejected (never retried)
    │   │   ├── ProviderOutputError   provider_output     unusable output after a re-ask
    │   │   ├── PartialTranslationError                   some sections untranslated,
    │   │   │                         partial_translation not saved (save_partial=)
    │   │   ├── RateLimitError        rate_limited        429 after retries
    │   │   └── ProviderTimeoutError  provider_timeout    per-call timeout or deadline
    │   └── LibraryError              library_error       the online Chabad library failed
    │       └── LibraryTimeoutError   library_timeout
    ├── StoreError                    store_error         the database failed
    └── QueueFullError                queue_full          too many jobs queued: retry later

Errors carry what a caller needs (``provider``, ``status_code``, ``endpoint``) and
never a secret: messages are written by libtext, not copied from request headers.
The HTTP adapter maps this tree to status codes in one place (``libtext.asgi``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ConfigurationError",
    "ConflictError",
    "EmptyDocumentError",
    "EmptyFileError",
    "EncryptedPDFError",
    "ExtractionTimeoutError",
    "InputTooLargeError",
    "InvalidInputError",
    "InvalidPDFError",
    "InvalidSlugError",
    "InvalidTypeError",
    "LibraryError",
    "LibraryTimeoutError",
    "LibtextError",
    "MissingAPIKeyError",
    "NoTextLayerError",
    "NotFoundError",
    "PartialTranslationError",
    "ProviderAuthError",
    "ProviderError",
    "ProviderOutputError",
    "ProviderTimeoutError",
    "QueueFullError",
    "RateLimitError",
    "StoreError",
    "TooManyPagesError",
    "UnsupportedMediaError",
    "UpstreamError",
]


class LibtextError(Exception):
    """Root of every error libtext raises on purpose.

    Attributes:
        message: What happened and what to do next.
        code: A stable, machine-readable code (used in ``ErrorResponse``).
        details: Extra JSON-safe context (never secrets).
    """

    code: str = "libtext_error"

    def __init__(self, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = dict(details or {})

    def __str__(self) -> str:
        return self.message


# --- caller mistakes -------------------------------------------------------------


class InvalidInputError(LibtextError, ValueError):
    """The input given to libtext cannot be used as it is."""

    code = "invalid_input"


class InvalidPDFError(InvalidInputError):
    """The bytes are not a readable PDF (not a PDF at all, truncated or corrupt)."""

    code = "invalid_pdf"


class EmptyFileError(InvalidPDFError):
    """The file has zero bytes."""

    code = "empty_file"


class EncryptedPDFError(InvalidPDFError):
    """The PDF is encrypted with a user password: give it, or decrypt the file first."""

    code = "encrypted_pdf"


class NoTextLayerError(InvalidPDFError):
    """The PDF's pages are images with no text layer; run OCR first."""

    code = "no_text_layer"


class EmptyDocumentError(InvalidInputError):
    """The document has no usable text (blank pages, empty string)."""

    code = "empty_document"


class InvalidTypeError(InvalidInputError, TypeError):
    """An argument has the wrong type; the message names the argument.

    A ``TypeError`` too, as Python callers expect, and an ``InvalidInputError`` so the
    CLI and the HTTP adapter answer it like any other bad input.
    """

    code = "invalid_type"


def short(value: object, limit: int = 80) -> str:
    """``repr(value)``, cut to about ``limit`` characters: messages never echo a whole input."""
    text = repr(value[: limit + 1]) if isinstance(value, str | bytes) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class InputTooLargeError(InvalidInputError):
    """The input is over a configured size limit (``details["limit"]`` names which)."""

    code = "too_large"


class TooManyPagesError(InvalidInputError):
    """The document has more pages than the configured limit."""

    code = "too_many_pages"


class UnsupportedMediaError(InvalidInputError):
    """The input is of a kind libtext does not read (e.g. an upload that is not a PDF)."""

    code = "unsupported_media"


class InvalidSlugError(InvalidInputError):
    """The slug is not well formed (alphabet ``a-z0-9-``, bounded length)."""

    code = "invalid_slug"


class ConfigurationError(LibtextError):
    """A setting, extra or key needed for this call is missing or wrong."""

    code = "configuration_error"


class MissingAPIKeyError(ConfigurationError):
    """A provider needs an API key that is not set.

    Attributes:
        provider: The provider that needs the key.
        env_var: The environment variable that supplies it.
    """

    code = "missing_api_key"

    def __init__(self, provider: str, env_var: str) -> None:
        super().__init__(
            f"Provider {provider!r} needs an API key: set the environment variable "
            f"{env_var} or pass api_key=... explicitly.",
            details={"provider": provider, "env_var": env_var},
        )
        self.provider = provider
        self.env_var = env_var


class NotFoundError(LibtextError, LookupError):
    """No stored text, library work or page answers to the given identifier."""

    code = "not_found"


class ExtractionTimeoutError(LibtextError, TimeoutError):
    """Reading a PDF passed its time limit; the worker doing it was stopped."""

    code = "extraction_timeout"


class ConflictError(LibtextError):
    """A stored text changed since the revision an edit was based on; nothing was written.

    ``details`` names the revision the edit expected and the current one, and who
    made the current one and when, so the caller can reload and reapply.
    """

    code = "conflict"


# --- upstream failures -----------------------------------------------------------


class UpstreamError(LibtextError):
    """A remote service (AI provider, online library) failed.

    Attributes:
        status_code: The upstream HTTP status, when there was one.
    """

    code = "upstream_error"

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, details=details)
        self.status_code = status_code
        if status_code is not None:
            self.details.setdefault("status_code", status_code)


class ProviderError(UpstreamError):
    """An AI provider failed or gave unusable output.

    Attributes:
        provider: The provider name as the user gave it (e.g. ``openai/gpt-4o-mini``).
        retryable: Whether trying the same call again may succeed (connection
            errors, 5xx, timeouts, 429). Defaults to the class's setting, or to
            ``status_code >= 500`` for a plain ``ProviderError``.
    """

    code = "provider_error"
    default_retryable: bool = False

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        status_code: int | None = None,
        retryable: bool | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, status_code=status_code, details=details)
        self.provider = provider
        if retryable is None:
            retryable = self.default_retryable or (status_code is not None and status_code >= 500)
        self.retryable = retryable
        if provider:
            self.details.setdefault("provider", provider)


class ProviderAuthError(ProviderError):
    """The provider rejected the credentials (401/403). Never retried."""

    code = "provider_auth"


class ProviderOutputError(ProviderError):
    """The provider's output was not valid JSON for the schema, even after a re-ask."""

    code = "provider_output"


class PartialTranslationError(ProviderError):
    """Some sections of a run could not be translated, and the caller did not ask to keep
    such a document (``save_partial=True``): nothing was saved.

    ``details["failed_sections"]`` lists their ``sequence_id``; ``details["sections"]``
    counts the sections translated or tried. Over HTTP it is a 409: the same request with
    ``save_partial`` set stores the document.
    """

    code = "partial_translation"


class RateLimitError(ProviderError):
    """The provider kept answering 429 after libtext's retries.

    Attributes:
        retry_after: Seconds the provider asked to wait (its ``Retry-After``), if given.
    """

    code = "rate_limited"
    default_retryable = True

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        status_code: int | None = 429,
        retry_after: float | None = None,
        retryable: bool | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            message,
            provider=provider,
            status_code=status_code,
            retryable=retryable,
            details=details,
        )
        self.retry_after = retry_after
        if retry_after is not None:
            self.details.setdefault("retry_after", retry_after)


class ProviderTimeoutError(ProviderError):
    """A provider call passed its timeout, or the whole job passed its deadline."""

    code = "provider_timeout"
    default_retryable = True


class LibraryError(UpstreamError):
    """The online Chabad library failed or answered with an unexpected shape.

    Attributes:
        endpoint: The endpoint that failed (path and query, no secrets).
    """

    code = "library_error"

    def __init__(
        self,
        message: str,
        *,
        endpoint: str = "",
        status_code: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message, status_code=status_code, details=details)
        self.endpoint = endpoint
        if endpoint:
            self.details.setdefault("endpoint", endpoint)


class LibraryTimeoutError(LibraryError):
    """The online library did not answer in time, after retries."""

    code = "library_timeout"


class StoreError(LibtextError):
    """The database behind :class:`~libtext.TextStore` failed."""

    code = "store_error"


class QueueFullError(LibtextError):
    """The job queue holds as many jobs (or PDF bytes) as it may; nothing was queued.

    Attributes:
        retry_after: Seconds to wait before submitting again.
    """

    code = "queue_full"

    def __init__(
        self, message: str, *, retry_after: float = 30.0, details: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message, details=details)
        self.retry_after = retry_after
        self.details.setdefault("retry_after", retry_after)
