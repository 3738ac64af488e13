"""libtext: Hebrew religious texts, from a library work or a PDF to a linked, stored document.

Everything public is importable from here::

    from libtext import Outliner, Translator, LibraryClient, TextStore

Names are loaded on first use, so ``import libtext`` stays fast and does not pull in
litellm, SQLModel or FastAPI.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from libtext._version import __version__

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # models
    "DocumentOutline": "libtext.models",
    "EnrichedSegment": "libtext.models",
    "ErrorResponse": "libtext.models",
    "ExtractedDocument": "libtext.models",
    "ExtractedLine": "libtext.models",
    "ExtractedPage": "libtext.models",
    "Footnote": "libtext.models",
    "HealthResponse": "libtext.models",
    "LibraryPage": "libtext.models",
    "LibraryStatus": "libtext.models",
    "NavSearchResultsResponse": "libtext.models",
    "OutlineComparison": "libtext.models",
    "OutlineSegment": "libtext.models",
    "PaginatedTextsResponse": "libtext.models",
    "PaginationInfo": "libtext.models",
    "ProcessedDocument": "libtext.models",
    "SearchResultsResponse": "libtext.models",
    "Section": "libtext.models",
    "PhraseChange": "libtext.models",
    "SectionDiff": "libtext.models",
    "SectionEdit": "libtext.models",
    "SectionEditResult": "libtext.models",
    "SourceMetadata": "libtext.models",
    "TextDiff": "libtext.models",
    "TextListItem": "libtext.models",
    "TextRevision": "libtext.models",
    "TextRevisionsResponse": "libtext.models",
    "TranslatedSegment": "libtext.models",
    "TranslationData": "libtext.models",
    "WorkByIdResponse": "libtext.models",
    # errors
    "ConfigurationError": "libtext.errors",
    "ConflictError": "libtext.errors",
    "EmptyDocumentError": "libtext.errors",
    "EmptyFileError": "libtext.errors",
    "EncryptedPDFError": "libtext.errors",
    "ExtractionTimeoutError": "libtext.errors",
    "InputTooLargeError": "libtext.errors",
    "InvalidInputError": "libtext.errors",
    "InvalidPDFError": "libtext.errors",
    "InvalidSlugError": "libtext.errors",
    "InvalidTypeError": "libtext.errors",
    "LibraryError": "libtext.errors",
    "LibraryTimeoutError": "libtext.errors",
    "LibtextError": "libtext.errors",
    "MissingAPIKeyError": "libtext.errors",
    "NoTextLayerError": "libtext.errors",
    "NotFoundError": "libtext.errors",
    "ProviderAuthError": "libtext.errors",
    "ProviderError": "libtext.errors",
    "ProviderOutputError": "libtext.errors",
    "ProviderTimeoutError": "libtext.errors",
    "RateLimitError": "libtext.errors",
    "StoreError": "libtext.errors",
    "TooManyPagesError": "libtext.errors",
    "UnsupportedMediaError": "libtext.errors",
    "UpstreamError": "libtext.errors",
    # capabilities
    "aextract_pdf": "libtext.pdf",
    "extract_pdf": "libtext.pdf",
    "PdfGuard": "libtext.pdf",
    "PdfLimits": "libtext.pdf",
    "offline_outline": "libtext.headings",
    "Outliner": "libtext.outline",
    "FunctionProvider": "libtext.providers.function",
    "LiteLLMProvider": "libtext.providers.llm",
    "OfflineProvider": "libtext.providers.offline",
    "Provider": "libtext.providers.base",
    "RetryPolicy": "libtext._policy",
    "Translator": "libtext.translate",
    "Citation": "libtext.sefaria",
    "find_citations": "libtext.sefaria",
    "ref_url": "libtext.sefaria",
    "Ref": "libtext.sefaria",
    "translate_citation": "libtext.sefaria",
    "LibraryClient": "libtext.library",
    "LibrarySection": "libtext.library",
    "Clock": "libtext.library",
    "Sleep": "libtext.library",
    "ProviderCache": "libtext.providers._cache",
    "TextStore": "libtext.store",
    "process_document": "libtext.process",
    "aprocess_document": "libtext.process",
}

__all__ = sorted([*_EXPORTS, "__version__"])

if TYPE_CHECKING:  # pragma: no cover
    from libtext._policy import RetryPolicy
    from libtext.errors import (
        ConfigurationError,
        ConflictError,
        EmptyDocumentError,
        EmptyFileError,
        EncryptedPDFError,
        ExtractionTimeoutError,
        InputTooLargeError,
        InvalidInputError,
        InvalidPDFError,
        InvalidSlugError,
        InvalidTypeError,
        LibraryError,
        LibraryTimeoutError,
        LibtextError,
        MissingAPIKeyError,
        NoTextLayerError,
        NotFoundError,
        ProviderAuthError,
        ProviderError,
        ProviderOutputError,
        ProviderTimeoutError,
        RateLimitError,
        StoreError,
        TooManyPagesError,
        UnsupportedMediaError,
        UpstreamError,
    )
    from libtext.headings import offline_outline
    from libtext.library import Clock, LibraryClient, LibrarySection, Sleep
    from libtext.models import (
        DocumentOutline,
        EnrichedSegment,
        ErrorResponse,
        ExtractedDocument,
        ExtractedLine,
        ExtractedPage,
        Footnote,
        HealthResponse,
        LibraryPage,
        LibraryStatus,
        NavSearchResultsResponse,
        OutlineComparison,
        OutlineSegment,
        PaginatedTextsResponse,
        PaginationInfo,
        PhraseChange,
        ProcessedDocument,
        SearchResultsResponse,
        Section,
        SectionDiff,
        SectionEdit,
        SectionEditResult,
        SourceMetadata,
        TextDiff,
        TextListItem,
        TextRevision,
        TextRevisionsResponse,
        TranslatedSegment,
        TranslationData,
        WorkByIdResponse,
    )
    from libtext.outline import Outliner
    from libtext.pdf import PdfGuard, PdfLimits, aextract_pdf, extract_pdf
    from libtext.process import aprocess_document, process_document
    from libtext.providers._cache import ProviderCache
    from libtext.providers.base import Provider
    from libtext.providers.function import FunctionProvider
    from libtext.providers.llm import LiteLLMProvider
    from libtext.providers.offline import OfflineProvider
    from libtext.sefaria import Citation, Ref, find_citations, ref_url, translate_citation
    from libtext.store import TextStore
    from libtext.translate import Translator


def _missing_module(exc: ImportError) -> str:
    """The third-party module whose absence caused ``exc`` ("" when it is libtext's own)."""
    cause = exc.__cause__ if isinstance(exc.__cause__, ImportError) else exc
    name = (cause.name or exc.name or "").split(".")[0]
    return "" if name in ("", "libtext") else name


def _needs_extra(name: str, exc: ImportError) -> type:
    """A stand-in for ``name`` on an install without its extra.

    ``help(libtext)``, ``from libtext import *`` and ``dir()`` keep working on the core
    install; using the stand-in raises the ``ImportError`` that says which
    ``pip install`` brings the real one.
    """
    message = str(exc)

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        raise ImportError(message, name=_missing_module(exc))

    return type(
        name,
        (),
        {"__doc__": f"Not available on this install. {message}", "__init__": __init__},
    )


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'libtext' has no attribute {name!r}")
    try:
        value = getattr(importlib.import_module(module), name)
    except ImportError as exc:
        if not _missing_module(exc):
            raise
        return _needs_extra(name, exc)  # not cached: installing the extra then works
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
