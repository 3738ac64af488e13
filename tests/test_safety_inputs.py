"""Small limits on what a caller may send (issue 27).

Names and titles without control characters or bidi overrides (an ESC sequence in a
log viewer, an author shown reversed), a section edit of bounded size, constructor
arguments checked even when deprecated.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlmodel")

from tests.test_http_review import original

from libtext.asgi import create_app
from libtext.asgi._backend import MAX_EDIT_CHARS
from libtext.errors import ConfigurationError
from libtext.store import TextStore


def test_negative_cache_bytes_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="cache_bytes"):
        TextStore(f"sqlite:///{tmp_path / 'a.db'}", cache_bytes=-1)


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, str, str]]:
    store = TextStore(f"sqlite:///{tmp_path / 't.db'}")
    slug = store.save(original()).slug
    app = create_app(store=store)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        etag = (await c.get(f"/api/texts/{slug}")).headers["etag"]
        yield c, slug, etag
    store.close()


@pytest.mark.parametrize(
    ("params", "patch"),
    [
        ({"author": "\x1b[31mroot"}, {"chapter_title": "x"}),
        ({"author": "ראובן\u202eןועמש"}, {"chapter_title": "x"}),
        ({"author": "a\nINFO forged line"}, {"chapter_title": "x"}),
        ({}, {"chapter_title": "פרק\u202e א"}),
        ({}, {"segment_title": "a\x00b"}),
    ],
)
async def test_control_and_bidi_characters_are_refused(
    client: tuple[httpx.AsyncClient, str, str], params: dict[str, str], patch: dict[str, Any]
) -> None:
    c, slug, etag = client
    r = await c.patch(
        f"/api/texts/{slug}/sections/1", json=patch, params=params, headers={"If-Match": etag}
    )
    assert r.status_code == 400, r.text
    assert set(r.json()) == {"error"}
    history = (await c.get(f"/api/texts/{slug}/revisions")).json()
    assert len(history["revisions"]) == 1  # nothing stored


async def test_plain_names_with_marks_still_pass(
    client: tuple[httpx.AsyncClient, str, str],
) -> None:
    c, slug, etag = client
    r = await c.patch(
        f"/api/texts/{slug}/sections/1",
        json={"chapter_title": "פרק\u200f א"},  # a right-to-left mark is ordinary Hebrew
        params={"author": "ראובן"},
        headers={"If-Match": etag},
    )
    assert r.status_code == 200, r.text


async def test_oversized_section_edit_is_413(client: tuple[httpx.AsyncClient, str, str]) -> None:
    c, slug, etag = client
    patch = {"chapter_title": "א" * (MAX_EDIT_CHARS + 1)}
    r = await c.patch(f"/api/texts/{slug}/sections/1", json=patch, headers={"If-Match": etag})
    assert r.status_code == 413, r.text[:300]
    assert r.json()["error"]["details"]["limit"] == "max_edit_chars"
