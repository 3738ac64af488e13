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
    "ConflictError",
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
    "PdfGuard",
    "PdfLimits",
    "PhraseChange",
    "ProcessedDocument",
    "Provider",
    "ProviderAuthError",
    "ProviderCache",
    "ProviderError",
    "ProviderOutputError",
    "ProviderTimeoutError",
    "RateLimitError",
    "Ref",
    "RetryPolicy",
    "SearchResultsResponse",
    "Section",
    "SectionDiff",
    "SectionEdit",
    "SectionEditResult",
    "Sleep",
    "SourceMetadata",
    "StoreError",
    "TextDiff",
    "TextListItem",
    "TextRevision",
    "TextRevisionsResponse",
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


def test_no_private_type_in_a_public_signature() -> None:
    """A type a public call takes or returns is itself public: exported from libtext."""
    import inspect
    import re
    import typing

    exported = {
        getattr(libtext, n) for n in libtext.__all__ if inspect.isclass(getattr(libtext, n))
    }
    private = re.compile(r"libtext\.(?:[a-z]+\.)*_[a-z_]+\.(\w+)")
    found: set[str] = set()

    def check(owner: str, fn: typing.Any) -> None:
        names = {n: getattr(libtext, n) for n in libtext.__all__}
        hints = typing.get_type_hints(inspect.unwrap(fn), localns=names)
        for arg, hint in hints.items():
            for type_name in private.findall(repr(hint)):
                if not any(t.__name__ == type_name for t in exported):
                    found.add(f"{owner}({arg}): {type_name}")

    for name in libtext.__all__:
        obj = getattr(libtext, name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for attr, value in vars(obj).items():
                fn = getattr(value, "fget", value)
                if (attr == "__init__" or not attr.startswith("_")) and inspect.isfunction(fn):
                    check(f"{name}.{attr}", fn)
        elif inspect.isfunction(obj):
            check(name, obj)
    assert not found, sorted(found)
