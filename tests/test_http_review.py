"""Reviewing a stored text over real HTTP: a uvicorn server on 127.0.0.1 in a thread.

GET (ETag) -> PATCH with If-Match -> 412 on the stale ETag -> GET revisions -> GET an
old revision, plus 428 without If-Match and 401 without the API key.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.served import free_port

pytest.importorskip("fastapi")
pytest.importorskip("sqlmodel")
uvicorn = pytest.importorskip("uvicorn")

from libtext.asgi import Settings, create_app  # noqa: E402
from libtext.models import ProcessedDocument, Section, SourceMetadata  # noqa: E402
from libtext.store import TextStore  # noqa: E402

KEY = "review-key"
AUTH = {"Authorization": f"Bearer {KEY}"}


def original() -> ProcessedDocument:
    return ProcessedDocument(
        source_metadata=SourceMetadata(publication_title="ספר", work_title="חלק א"),
        sections=[
            Section(sequence_id=1, chapter_title="פרק א", original_hebrew_block="שלום"),
            Section(sequence_id=2, chapter_title="פרק ב", original_hebrew_block="עולם"),
        ],
        page_count=1,
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A uvicorn server over a SQLite store holding one text: (base URL, slug)."""
    store = TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    slug = store.save(original()).slug
    app = create_app(store=store, settings=Settings(api_key=KEY))
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", slug
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        store.close()


def test_review_round_trip_over_http(served: tuple[str, str]) -> None:
    base, slug = served
    path = f"/api/texts/{slug}"
    with httpx.Client(base_url=base, timeout=30) as http:
        first = http.get(path)
        assert first.status_code == 200
        etag = first.headers["etag"]
        assert ProcessedDocument.model_validate_json(first.content) == original()
        again = http.get(path)  # a cache hit answers with the same ETag
        assert again.headers["etag"] == etag and again.content == first.content

        patch: dict[str, Any] = {"chapter_title": "פרק ראשון"}
        assert http.patch(f"{path}/sections/1", json=patch).status_code == 401
        missing = http.patch(f"{path}/sections/1", json=patch, headers=AUTH)
        assert missing.status_code == 428
        assert missing.json()["error"]["code"] == "precondition_required"

        edited = http.patch(
            f"{path}/sections/1",
            json=patch,
            headers={**AUTH, "If-Match": etag},
            params={"author": "reviewer"},
        )
        assert edited.status_code == 200, edited.text
        new_etag = edited.headers["etag"]
        assert new_etag != etag and edited.json()["etag"] == new_etag
        assert edited.json()["section"]["chapter_title"] == "פרק ראשון"
        assert edited.json()["revision"]["number"] == 2

        stale = http.patch(
            f"{path}/sections/2",
            json={"chapter_title": "lost?"},
            headers={**AUTH, "If-Match": etag},
        )
        assert stale.status_code == 412
        error = stale.json()["error"]
        assert error["code"] == "conflict"
        assert error["details"]["changed_by"] == "reviewer"
        assert error["details"]["current_revision"] == 2

        current = http.get(path)
        assert current.headers["etag"] == new_etag
        doc = ProcessedDocument.model_validate_json(current.content)
        assert [s.chapter_title for s in doc.sections] == ["פרק ראשון", "פרק ב"]

        history = http.get(f"{path}/revisions")
        assert history.status_code == 200
        body = history.json()
        assert body["revision"] == 2
        assert [
            (r["number"], r["change"], r["author"], r["sections"]) for r in body["revisions"]
        ] == [
            (1, "save", None, []),
            (2, "edit", "reviewer", [1]),
        ]

        old = http.get(path, params={"revision": 1})
        assert old.status_code == 200
        assert ProcessedDocument.model_validate_json(old.content) == original()
        assert old.headers["etag"] == etag
        assert http.get(path, params={"revision": 3}).status_code == 404
        assert http.get(path, params={"revision": 0}).status_code == 400


@pytest.mark.parametrize(
    ("patch", "status", "code"),
    [
        ({"sefaria_link": "x"}, 400, "invalid_request"),  # not an editable field
        ({"translation_data": [{"sefaria_link": "https://evil.example/"}]}, 400, "invalid_input"),
        ({"chapter_title": ["not", "text"]}, 400, "invalid_request"),
    ],
)
def test_bad_patches_are_refused_over_http(
    served: tuple[str, str], patch: dict[str, Any], status: int, code: str
) -> None:
    base, slug = served
    with httpx.Client(base_url=base, timeout=30) as http:
        etag = http.get(f"/api/texts/{slug}").headers["etag"]
        answer = http.patch(
            f"/api/texts/{slug}/sections/1", json=patch, headers={**AUTH, "If-Match": etag}
        )
        assert answer.status_code == status, answer.text
        assert answer.json()["error"]["code"] == code
        assert http.get(f"/api/texts/{slug}").headers["etag"] == etag  # nothing written
        unknown = http.patch(
            f"/api/texts/{slug}/sections/9",
            json={"chapter_title": "x"},
            headers={**AUTH, "If-Match": etag},
        )
        assert unknown.status_code == 404
