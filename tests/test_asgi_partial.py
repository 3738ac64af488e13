"""``POST /api/process`` never stores a partly translated text unless asked (issue 25).

A provider that fails on one section, over HTTP (the ASGI app in-process, a real SQLite
store, the library over ``httpx.MockTransport``): without ``save_partial`` the answer is
a 409 ``partial_translation`` naming the failed sections and nothing is stored; with it
the text is stored and ``failed_sections`` names them. The same through a queued job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("libtext.asgi")
pytest.importorskip("libtext.store")

from libtext import FunctionProvider, Outliner, RetryPolicy, Translator, errors
from libtext.asgi import Settings, create_app
from libtext.library import LibraryClient
from libtext.providers.base import ProviderRequest
from libtext.store import TextStore

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample.pdf"
LIBRARY_URL = "https://library.test/books"
FAIL_ON = "פרק ב"  # the second chapter's heading: its section's call fails
TREE: dict[str, Any] = {
    "100": {
        "content": {
            "type": "children",
            "data": [{"id": 101, "heading": "פרק א"}, {"id": 102, "heading": "פרק ב"}],
        }
    },
    "101": {
        "content": {
            "type": "page",
            "data": {"text": "<h2>פרק א</h2><p>ויאמר אלהים יהי אור ויהי אור.</p>"},
        }
    },
    "102": {
        "content": {
            "type": "page",
            "data": {"text": "<h2>פרק ב</h2><p>ויקרא אלהים לאור יום ולחשך קרא לילה.</p>"},
        }
    },
}
FAST = RetryPolicy(max_attempts=1, base_delay=0.0, call_timeout=30.0, deadline=60.0)


def _library_answer(request: httpx.Request) -> httpx.Response:
    node = request.url.params.get("path", "").removeprefix("/")
    if node in TREE:
        return httpx.Response(200, json=TREE[node])
    return httpx.Response(200, json={"content": None})


def failing_provider(calls: list[str]) -> FunctionProvider:
    """Translates like the offline provider (with English), but refuses ``FAIL_ON``."""

    async def fn(req: ProviderRequest) -> Any:
        calls.append(req.payload.hebrew)
        if FAIL_ON in req.payload.hebrew:
            raise errors.ProviderError(
                "The model server at http://127.0.0.1:9/v1 went away.",
                provider="fake/partial",
                retryable=False,
            )
        from libtext.translate._offline import answer

        out = answer(req.payload)
        for p in out.phrases:
            p.english_translation = p.english_translation or "English."
        return out

    return FunctionProvider(fn, name="fake/partial")


@pytest.fixture
def store(tmp_path: Path) -> Any:
    st = TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    yield st
    st.close()


def app_for(store: TextStore, calls: list[str], **settings: Any) -> Any:
    provider = failing_provider(calls)
    settings.setdefault("jobs_workers", 0)
    library = LibraryClient(
        base_url=LIBRARY_URL,
        rate_limit=None,
        retry=RetryPolicy(max_attempts=1),
        transport=httpx.MockTransport(_library_answer),
    )
    return create_app(
        store=store,
        library=library,
        outliner=Outliner(),  # offline: only the translation fails
        translator=Translator(provider=provider, retry=FAST),
        settings=Settings(providers=(provider,), retry=FAST, **settings),
    )


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def refused(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 409, r.text
    body = r.json()
    assert set(body) == {"error"}
    error: dict[str, Any] = body["error"]
    assert error["code"] == "partial_translation"
    assert error["details"]["saved"] is False
    # Said in an HTTP client's words: the body field, not a Python argument.
    assert '"save_partial": true' in error["message"]
    assert "save_partial=True" not in error["message"]
    return error


async def test_a_partial_work_is_refused_then_stored_when_asked(store: TextStore) -> None:
    calls: list[str] = []
    app = app_for(store, calls)
    async with client_for(app) as c:
        error = refused(await c.post("/api/process", json={"work_id": "100"}))
        assert store.list().pagination.total == 0
        assert (await c.get("/api/texts")).json()["pagination"]["total"] == 0
        failed = error["details"]["failed_sections"]
        assert len(failed) == 1 and error["details"]["sections"] == 2

        r = await c.post("/api/process", json={"work_id": "100", "save_partial": True})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["failed_sections"] == failed
        sections = {s["sequence_id"]: s for s in body["document"]["sections"]}
        assert sections[failed[0]]["error"] and not sections[failed[0]]["complete"]
        assert sections[failed[0]]["translation_data"]  # the offline part is kept
        fetched = await c.get(f"/api/texts/{body['slug']}")
        assert fetched.status_code == 200
    assert store.list().pagination.total == 1
    assert any(FAIL_ON in h for h in calls)


async def test_save_partial_false_is_the_default_and_can_be_said(store: TextStore) -> None:
    app = app_for(store, [])
    async with client_for(app) as c:
        refused(await c.post("/api/process", json={"work_id": "100", "save_partial": False}))
        r = await c.post("/api/process", json={"work_id": "100", "save_partial": "maybe"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_input"
    assert store.list().pagination.total == 0


async def test_a_pdf_upload_takes_save_partial_as_a_query_parameter(store: TextStore) -> None:
    upload = {"file": ("sample.pdf", SAMPLE.read_bytes(), "application/pdf")}
    app = app_for(store, [])
    async with client_for(app) as c:
        refused(await c.post("/api/process", files=upload))
        assert store.list().pagination.total == 0
        r = await c.post("/api/process?save_partial=true", files=upload)
    assert r.status_code == 200, r.text
    failed = r.json()["failed_sections"]
    sections = r.json()["document"]["sections"]
    assert failed and len(failed) < len([s for s in sections if s["translation_data"]])
    assert all(s["error"] for s in sections if s["sequence_id"] in failed)
    assert store.list().pagination.total == 1


async def test_a_fully_translated_run_names_no_failed_section(tmp_path: Path) -> None:
    st = TextStore(f"sqlite:///{tmp_path / 'ok.db'}")
    try:
        app = create_app(
            store=st,
            settings=Settings(jobs_workers=0),
            library=LibraryClient(
                base_url=LIBRARY_URL,
                rate_limit=None,
                transport=httpx.MockTransport(_library_answer),
            ),
        )
        async with client_for(app) as c:
            r = await c.post("/api/process", json={"work_id": "100"})
        assert r.status_code == 200, r.text
        assert r.json()["failed_sections"] == []
    finally:
        st.close()


async def _final(c: httpx.AsyncClient, job_id: str) -> dict[str, Any]:
    import anyio

    with anyio.fail_after(60):
        while True:
            job: dict[str, Any] = (await c.get(f"/api/jobs/{job_id}")).json()
            if job["state"] in ("succeeded", "failed", "cancelled"):
                return job
            await anyio.sleep(0.05)


async def test_a_queued_job_keeps_save_partial(store: TextStore) -> None:
    app = app_for(store, [], jobs_workers=1)
    async with app.router.lifespan_context(app), client_for(app) as c:
        plain = await c.post("/api/process?wait=false", json={"work_id": "100"})
        assert plain.status_code == 202, plain.text
        failed = await _final(c, plain.json()["id"])
        assert failed["state"] == "failed", failed
        assert failed["error"]["error"]["code"] == "partial_translation"
        assert store.list().pagination.total == 0

        kept = await c.post(
            "/api/process?wait=false", json={"work_id": "100", "save_partial": True}
        )
        done = await _final(c, kept.json()["id"])
        assert done["state"] == "succeeded", done
        text = (await c.get(f"/api/texts/{done['slug']}")).json()
        assert [s["sequence_id"] for s in text["sections"] if s["error"]]
    assert store.list().pagination.total == 1


def test_the_job_queue_keeps_save_partial_out_of_the_model_options(tmp_path: Path) -> None:
    from libtext.jobs import JobQueue, _db

    st = TextStore(f"sqlite:///{tmp_path / 'q.db'}")
    try:
        queue = JobQueue(st)
        queue.submit(
            work_id="100", provider="offline", options={"temperature": 0}, save_partial=True
        )
        queue.submit(work_id="101", provider="offline")
        first = queue._run("claim", _db.claim, "test:1:a", 30.0, write=True)
        second = queue._run("claim", _db.claim, "test:1:a", 30.0, write=True)
    finally:
        st.close()
    assert first is not None and second is not None
    assert first[1]["save_partial"] is True and first[1]["options"] == {"temperature": 0}
    assert second[1]["save_partial"] is False and second[1]["options"] == {}
