"""Property-based fuzzing of the HTTP adapter's OpenAPI schema with schemathesis.

Every operation gets a few hundred generated requests, valid and invalid, sent
in-process to an app over the real modules (SQLite store file, offline outliner
and translator). Checks: no 5xx, every status documented, every body valid for
the declared schema and content type, invalid input refused with 4xx. The whole
file stays well under a minute. The online library is a small stand-in here (no
network; the real client's parsing is tested in test_library.py): it finds
nothing and knows no work, so those routes answer 200 or 404.

"Schema-valid requests must be accepted" (positive_data_acceptance) is left out on
purpose: a schema cannot say "these bytes are a readable PDF" or "this slug is
stored", so random valid-looking input is rightly refused with 4xx.
"""

from __future__ import annotations

import importlib.util
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from libtext.asgi import Settings, create_app  # noqa: E402
from libtext.errors import NotFoundError  # noqa: E402
from libtext.models import PaginationInfo, SearchResultsResponse  # noqa: E402

EXAMPLES = 250

# The library modules each route needs; a route whose module is absent is skipped.
NEEDS: dict[str, tuple[str, ...]] = {
    "/api/health": ("libtext.store",),
    "/api/search": (),
    "/api/library/test": (),
    "/api/texts": ("libtext.store",),
    "/api/texts/{slug}": ("libtext.store",),
    "/api/extract": ("libtext.pdf",),
    "/api/outline": ("libtext.pdf", "libtext.outline"),
    "/api/process": ("libtext.store", "libtext.pdf", "libtext.outline", "libtext.process"),
    "/api/translate": ("libtext.translate",),
}


class StandInLibrary:
    """The LibraryClient calls the routes make: empty search, reachable, no works."""

    async def asearch(self, query: str, *, page: int = 1) -> SearchResultsResponse:
        pagination = PaginationInfo.of(page=page, page_size=20, total=0)
        return SearchResultsResponse(query=query, results=[], pagination=pagination)

    async def atest(self) -> dict[str, Any]:
        return {
            "reachable": True,
            "status_code": 200,
            "latency_ms": 1.0,
            "base_url": "https://library.invalid",
            "error": None,
        }

    async def aget_work(self, work_id: str, *, max_pages: int | None = None) -> Any:
        raise NotFoundError(f"No work {work_id!r} in the library.")


def _missing(path: str) -> list[str]:
    return [m for m in NEEDS[path] if importlib.util.find_spec(m) is None]


def _build_app() -> Any:
    kwargs: dict[str, Any] = {"library": StandInLibrary()}
    if importlib.util.find_spec("libtext.store") is not None:
        from libtext.store import TextStore

        kwargs["store"] = TextStore(f"sqlite:///{Path(_TMP.name) / 'texts.db'}")
    return create_app(settings=Settings(request_timeout=5, processing_timeout=20), **kwargs)


# Loaded at import, as schemathesis parametrizes at collection time.
_TMP = tempfile.TemporaryDirectory(prefix="libtext-fuzz-")
_APP = _build_app()
SKIPPED = sorted(path for path in NEEDS if _missing(path))
schema = schemathesis.openapi.from_asgi("/openapi.json", _APP)
if SKIPPED:
    schema = schema.exclude(path=SKIPPED)


@pytest.fixture(scope="module", autouse=True)
def _cleanup() -> Iterator[None]:
    yield
    store = _APP.state.backend._store
    if store is not None:
        store.close()
    _TMP.cleanup()


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_openapi_conformance(case: Any) -> None:
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_every_route_is_fuzzed() -> None:
    """Fails loudly (as a skip with reasons) while a module behind a route is missing."""
    assert set(NEEDS) == set(_APP.openapi()["paths"])
    if SKIPPED:
        pytest.skip(f"not fuzzed yet, module missing: {SKIPPED}")
