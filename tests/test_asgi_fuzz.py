"""Property-based fuzzing of the HTTP adapter's OpenAPI schema with schemathesis.

Every operation gets a few hundred generated requests, valid and invalid, sent
in-process to an app over the real modules: a SQLite store file holding one text,
the offline outliner and translator, and the real ``LibraryClient`` over an
``httpx.MockTransport`` stand-in of the online library (no network). Checks: no
5xx, every status documented, every body valid for the declared schema and
content type, invalid input refused with 4xx. :func:`cases_per_operation` makes
sure no operation is skipped or starved of examples.

"Schema-valid requests must be accepted" (positive_data_acceptance) is left out on
purpose: a schema cannot say "these bytes are a readable PDF" or "this slug is
stored", so random valid-looking input is rightly refused with 4xx.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from libtext import RetryPolicy  # noqa: E402
from libtext.asgi import Settings, create_app  # noqa: E402
from libtext.library import LibraryClient  # noqa: E402
from libtext.models import ProcessedDocument, Section, SourceMetadata  # noqa: E402
from libtext.store import TextStore  # noqa: E402

EXAMPLES = 250
"""Generated cases per operation (the coverage phase adds its boundary cases)."""

ROUTES = {
    ("GET", "/api/health"),
    ("GET", "/api/search"),
    ("GET", "/api/library/test"),
    ("GET", "/api/texts"),
    ("GET", "/api/texts/{slug}"),
    ("GET", "/api/texts/{slug}/revisions"),
    ("GET", "/api/texts/{slug}/diff"),
    ("POST", "/api/texts/{slug}/revert"),
    ("PATCH", "/api/texts/{slug}/sections/{sequence_id}"),
    ("POST", "/api/extract"),
    ("POST", "/api/outline"),
    ("POST", "/api/process"),
    ("POST", "/api/translate"),
    ("GET", "/api/jobs"),
    ("GET", "/api/jobs/{job_id}"),
    ("DELETE", "/api/jobs/{job_id}"),
    ("GET", "/api/jobs/{job_id}/events"),
}

LIBRARY_URL = "https://library.test/books"
TREE: dict[str, Any] = {
    "100": {"content": {"type": "children", "data": [{"id": 101, "heading": "פרק א"}]}},
    "101": {"content": {"type": "page", "data": {"text": "<p>והנה מודעת זאת.</p>"}}},
}


def library_api(request: httpx.Request) -> httpx.Response:
    """The online library's API: any search finds one hit; works 100 and 101 exist."""
    if request.url.path.endswith("/api/search"):
        hit = {"id": 101, "heading": "פרק א", "snippet": request.url.params.get("phrase", "")}
        return httpx.Response(200, json={"results": [hit], "count": 1})
    node = request.url.params.get("path", "")
    if node in TREE:
        return httpx.Response(200, json=TREE[node])
    return httpx.Response(404, json={"error": "not found"})


def _build_app() -> Any:
    store = TextStore(f"sqlite:///{Path(_TMP.name) / 'texts.db'}")
    store.save(
        ProcessedDocument(
            source_metadata=SourceMetadata(publication_title="ספר", work_title="חלק א"),
            sections=[Section(sequence_id=1, original_hebrew_block="שלום")],
        )
    )
    library = LibraryClient(
        base_url=LIBRARY_URL,
        rate_limit=None,
        retry=RetryPolicy(max_attempts=1),
        transport=httpx.MockTransport(library_api),
    )
    app = create_app(
        store=store,
        library=library,
        # No lifespan runs here: jobs_workers=0 says the jobs run elsewhere, so
        # ?wait=false queues (202) instead of answering 503 no_workers.
        settings=Settings(request_timeout=5, processing_timeout=20, jobs_workers=0),
    )
    return app, store, library


# Loaded at import, as schemathesis parametrizes at collection time.
_TMP = tempfile.TemporaryDirectory(prefix="libtext-fuzz-")
_APP, _STORE, _LIBRARY = _build_app()
schema = schemathesis.openapi.from_asgi("/openapi.json", _APP)


@pytest.fixture(scope="module", autouse=True)
def _cleanup() -> Iterator[None]:
    yield
    _LIBRARY.close()
    _STORE.close()
    _TMP.cleanup()


@pytest.fixture
def cases_per_operation() -> Iterator[list[Any]]:
    """The cases of one operation (one test item); fails it if there were too few."""
    cases: list[Any] = []
    yield cases
    labels = {case.operation.label for case in cases}
    assert len(labels) == 1, labels
    operation = cases[0].operation
    has_input = bool(list(operation.iter_parameters())) or bool(operation.body)
    wanted = EXAMPLES if has_input else 1
    assert len(cases) >= wanted, f"{operation.label}: only {len(cases)} cases"


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_openapi_conformance(case: Any, cases_per_operation: list[Any]) -> None:
    cases_per_operation.append(case)
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_every_route_is_in_the_fuzzed_schema() -> None:
    """The schema fuzzed above has every route of the issue, and nothing is excluded."""
    paths = _APP.openapi()["paths"]
    assert {(m.upper(), p) for p, item in paths.items() for m in item} == ROUTES
    assert {(op.method.upper(), op.path) for op in _operations()} == ROUTES


def _operations() -> list[Any]:
    return [result.ok() for result in schema.get_all_operations()]
