"""The public surface: everything in __all__ imports, and importing libtext is light."""

from __future__ import annotations

import subprocess
import sys

import libtext


def test_all_is_sorted_and_unique() -> None:
    assert libtext.__all__ == sorted(set(libtext.__all__))


def test_import_does_not_load_heavy_modules() -> None:
    code = (
        "import sys, libtext\n"
        "heavy = [m for m in ('litellm', 'sqlmodel', 'fastapi', 'pdfplumber', 'pypdfium2')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


EXPECTED = [
    "Citation",
    "Clock",
    "ConfigurationError",
    "DocumentOutline",
    "EmptyDocumentError",
    "EmptyFileError",
    "EncryptedPDFError",
    "EnrichedSegment",
    "ErrorResponse",
    "ExtractedDocument",
    "ExtractedLine",
    "ExtractedPage",
    "ExtractionTimeoutError",
    "Footnote",
    "FunctionProvider",
    "HealthResponse",
    "InputTooLargeError",
    "InvalidInputError",
    "InvalidPDFError",
    "InvalidSlugError",
    "InvalidTypeError",
    "LibraryClient",
    "LibraryError",
    "LibraryPage",
    "LibrarySection",
    "LibraryStatus",
    "LibraryTimeoutError",
    "LibtextError",
    "LiteLLMProvider",
    "MissingAPIKeyError",
    "NavSearchResultsResponse",
    "NoTextLayerError",
    "NotFoundError",
    "OfflineProvider",
    "OutlineComparison",
    "OutlineSegment",
    "Outliner",
    "PaginatedTextsResponse",
    "PaginationInfo",
    "ProcessedDocument",
    "Provider",
    "ProviderAuthError",
    "ProviderCache",
    "ProviderError",
    "ProviderOutputError",
    "ProviderTimeoutError",
    "RateLimitError",
    "RetryPolicy",
    "SearchResultsResponse",
    "Section",
    "Sleep",
    "SourceMetadata",
    "StoreError",
    "TextListItem",
    "TextStore",
    "TooManyPagesError",
    "TranslatedSegment",
    "TranslationData",
    "Translator",
    "UnsupportedMediaError",
    "UpstreamError",
    "WorkByIdResponse",
    "__version__",
    "aextract_pdf",
    "aprocess_document",
    "extract_pdf",
    "find_citations",
    "offline_outline",
    "process_document",
    "ref_url",
    "translate_citation",
]


def test_all_is_pinned() -> None:
    """Adding or removing a public name is a deliberate change: update this list with it."""
    assert libtext.__all__ == EXPECTED


def test_every_public_name_resolves() -> None:
    for name in libtext.__all__:
        assert getattr(libtext, name) is not None, name
