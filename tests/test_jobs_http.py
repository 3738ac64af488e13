"""The jobs routes in-process: the 202 flow, list/get/cancel, auth, workers in the lifespan.

A real SQLite store (the queue lives in its database), the offline provider, the
library over ``httpx.MockTransport``. The events stream through a real server is in
``test_jobs_sse.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

pytest.importorskip("libtext.asgi")
pytest.importorskip("libtext.jobs")

from tests.test_store import store_url  # noqa: F401  (the SQLite/PostgreSQL fixture)

from libtext import RetryPolicy
from libtext.asgi import Settings, create_app
from libtext.asgi._sse import last_event_id, prefers_async
from libtext.errors import InvalidInputError

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample.pdf"
LIBRARY_URL = "https://library.test/books"
TREE: dict[str, Any] = {
    "100": {"content": {"type": "children", "data": [{"id": 101, "heading": "פרק א"}]}},
    "101": {
        "content": {
            "type": "page",
            "data": {"text": "<h2>פרק א</h2><p>ויאמר אלהים יהי אור ויהי אור.</p>"},
        }
    },
}


def _library_answer(request: httpx.Request) -> httpx.Response:
    node = request.url.params.get("path", "").removeprefix("/")
    if node in TREE:
        return httpx.Response(200, json=TREE[node])
    return httpx.Response(200, json={"content": None})


def library_client() -> Any:
    from libtext.library import LibraryClient

    return LibraryClient(
        base_url=LIBRARY_URL,
        rate_limit=None,
        retry=RetryPolicy(max_attempts=1),
        transport=httpx.MockTransport(_library_answer),
    )


def client_for(app: Any) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return httpx.AsyncClient(transport=transport, base_url="http://testserver")


def assert_error(response: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]  # type: ignore[no-any-return]


@pytest.fixture
def store(tmp_path: Path) -> Any:
    from libtext.store import TextStore

    st = TextStore(f"sqlite:///{tmp_path / 'texts.db'}")
    yield st
    st.close()


@pytest.fixture
def any_store(store_url: str) -> Any:  # noqa: F811 (the imported fixture)
    """A store on SQLite, and on PostgreSQL when LIBTEXT_TEST_POSTGRES_URL is set."""
    from libtext.store import TextStore

    st = TextStore(store_url)
    yield st
    st.close()


@pytest.fixture
async def library() -> AsyncIterator[Any]:
    client = library_client()
    yield client
    await client.aclose()


def app_for(store: Any, library: Any, **settings: Any) -> Any:
    settings.setdefault("jobs_workers", 0)  # no lifespan here: nothing runs the jobs
    return create_app(store=store, library=library, settings=Settings(**settings))


def pdf_upload() -> dict[str, Any]:
    return {"file": ("sample.pdf", SAMPLE.read_bytes(), "application/pdf")}


# --- Prefer and Last-Event-ID --------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["respond-async"], True),
        (["Respond-Async"], True),
        (["wait=10, respond-async"], True),
        (["respond-async; foo=bar"], True),
        (["handling=lenient", "respond-async"], True),
        (["return=minimal"], False),
        (["respond-asyncx"], False),
        ([""], False),
        ([], False),
    ],
)
def test_prefer_header(values: list[str], expected: bool) -> None:
    assert prefers_async(values) is expected


def test_last_event_id() -> None:
    assert last_event_id(None) == 0
    assert last_event_id(" ") == 0
    assert last_event_id("17") == 17
    for bad in ("-1", "1.5", "abc", "9" * 20, "١٢"):
        with pytest.raises(InvalidInputError):
            last_event_id(bad)


# --- 202 -----------------------------------------------------------------------------


async def test_prefer_respond_async_queues_a_pdf(store: Any, library: Any) -> None:
    async with client_for(app_for(store, library)) as c:
        r = await c.post(
            "/api/process", files=pdf_upload(), headers={"Prefer": "respond-async, wait=5"}
        )
        assert r.status_code == 202, r.text
        job = r.json()
        assert job["state"] == "queued"
        assert job["kind"] == "pdf"
        assert job["provider"] == "offline"
        assert {"id", "progress", "attempts", "createdAt"} <= set(job)
        assert r.headers["location"] == f"/api/jobs/{job['id']}"
        assert r.headers["preference-applied"] == "respond-async"
        got = await c.get(r.headers["location"])
        assert got.status_code == 200
        assert got.json() == job
    assert store.list().pagination.total == 0  # queued, not processed


async def test_prefer_may_repeat(store: Any, library: Any) -> None:
    """RFC 7240: preferences may come in several Prefer fields; respond-async in any counts."""
    async with client_for(app_for(store, library)) as c:
        r = await c.post(
            "/api/process",
            json={"work_id": "100"},
            headers=[("Prefer", "handling=lenient"), ("Prefer", "respond-async")],
        )
        assert r.status_code == 202, r.text
        assert r.headers["preference-applied"] == "respond-async"


async def test_wait_false_queues_a_work(store: Any, library: Any) -> None:
    async with client_for(app_for(store, library)) as c:
        r = await c.post("/api/process?wait=false", json={"work_id": "100", "max_pages": 5})
        assert r.status_code == 202, r.text
        assert r.json()["kind"] == "work"
        assert r.json()["workId"] == "100"


async def test_wait_true_wins_over_prefer(store: Any, library: Any) -> None:
    async with client_for(app_for(store, library)) as c:
        r = await c.post(
            "/api/process?wait=true", json={"work_id": "100"}, headers={"Prefer": "respond-async"}
        )
        assert r.status_code == 200, r.text
        assert r.json()["slug"]
        assert "preference-applied" not in r.headers
        listed = (await c.get("/api/jobs")).json()
        assert listed["pagination"]["total"] == 0


async def test_async_request_is_checked_before_it_is_queued(store: Any, library: Any) -> None:
    async with client_for(app_for(store, library)) as c:
        r = await c.post("/api/process?wait=false&providers=gpt", json={"work_id": "100"})
        assert_error(r, 400, "invalid_input")
        r = await c.post("/api/process?wait=false", json={"work_id": "../etc"})
        assert_error(r, 400, "invalid_input")
        r = await c.post(
            "/api/process?wait=false",
            files={"file": ("x.pdf", b"hello", "application/pdf")},
        )
        assert_error(r, 415, "unsupported_media")
        r = await c.post("/api/process?wait=maybe", json={"work_id": "100"})
        assert_error(r, 400, "invalid_request")
        assert (await c.get("/api/jobs")).json()["pagination"]["total"] == 0


async def test_mounted_app_locates_jobs_under_its_prefix(store: Any, library: Any) -> None:
    from fastapi import FastAPI

    outer = FastAPI()
    outer.mount("/texts", app_for(store, library))
    async with client_for(outer) as c:
        r = await c.post("/texts/api/process?wait=false", json={"work_id": "100"})
        assert r.status_code == 202, r.text
        assert r.headers["location"] == f"/texts/api/jobs/{r.json()['id']}"
        assert (await c.get(r.headers["location"])).status_code == 200


# --- list, get, cancel --------------------------------------------------------------


async def test_list_is_paged_newest_first(any_store: Any, library: Any) -> None:
    async with client_for(app_for(any_store, library)) as c:
        ids = []
        for _ in range(3):
            r = await c.post("/api/process?wait=false", json={"work_id": "100"})
            ids.append(r.json()["id"])
        first = (await c.get("/api/jobs?page=1&pageSize=2")).json()
        assert [j["id"] for j in first["jobs"]] == ids[::-1][:2]
        assert first["pagination"] == {"page": 1, "pageSize": 2, "total": 3, "totalPages": 2}
        second = (await c.get("/api/jobs", params={"page": 2, "pageSize": 2})).json()
        assert [j["id"] for j in second["jobs"]] == ids[:1]
        beyond = (await c.get("/api/jobs?page=9")).json()
        assert beyond["jobs"] == []
        assert beyond["pagination"]["total"] == 3

        await c.delete(f"/api/jobs/{ids[1]}")
        queued = (await c.get("/api/jobs?state=queued")).json()
        assert {j["id"] for j in queued["jobs"]} == {ids[0], ids[2]}
        assert queued["pagination"]["total"] == 2
        cancelled = (await c.get("/api/jobs?state=cancelled")).json()
        assert [j["id"] for j in cancelled["jobs"]] == [ids[1]]

        assert_error(await c.get("/api/jobs?state=done"), 400, "invalid_request")
        assert_error(await c.get("/api/jobs?pageSize=0"), 400, "invalid_request")
        assert_error(await c.get("/api/jobs?pageSize=101"), 400, "invalid_request")
        assert_error(await c.get("/api/jobs?page=x"), 400, "invalid_request")


async def test_get_and_cancel(any_store: Any, library: Any) -> None:
    async with client_for(app_for(any_store, library)) as c:
        job = (await c.post("/api/process?wait=false", json={"work_id": "100"})).json()
        r = await c.delete(f"/api/jobs/{job['id']}")
        assert r.status_code == 200, r.text
        assert r.json()["state"] == "cancelled"
        assert r.json()["finishedAt"]
        again = await c.delete(f"/api/jobs/{job['id']}")  # over already: answered as it is
        assert again.status_code == 200
        assert again.json() == r.json()
        assert (await c.get(f"/api/jobs/{job['id']}")).json() == r.json()


@pytest.mark.parametrize("job_id", ["0" * 32, "nope", "x" * 101, "%00", "..%2f..%2fetc"])
async def test_unknown_jobs_are_404(store: Any, library: Any, job_id: str) -> None:
    async with client_for(app_for(store, library)) as c:
        for method in ("GET", "DELETE"):
            r = await c.request(method, f"/api/jobs/{job_id}")
            assert r.status_code in (400, 404), r.text
            assert_error(r, r.status_code)
        r = await c.get(f"/api/jobs/{job_id}/events")
        assert r.status_code in (400, 404), r.text
        assert_error(r, r.status_code)
    async with client_for(app_for(store, library)) as c:
        assert_error(await c.get(f"/api/jobs/{'0' * 32}"), 404, "not_found")


async def test_events_of_a_finished_job_replay_then_end(store: Any, library: Any) -> None:
    async with client_for(app_for(store, library)) as c:
        job = (await c.post("/api/process?wait=false", json={"work_id": "100"})).json()
        await c.delete(f"/api/jobs/{job['id']}")
        r = await c.get(f"/api/jobs/{job['id']}/events")
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert "content-length" not in r.headers  # a stream: its end is the connection's
        events = parse_sse(r.text)
        assert [e["event"] for e in events] == ["state", "state"]
        assert [e["data"]["state"] for e in events] == ["queued", "cancelled"]
        assert [int(e["id"]) for e in events] == [1, 2]
        assert all(e["data"]["jobId"] == job["id"] for e in events)
        # After the last one seen: only what follows (here nothing; the stream ends).
        later = await c.get(f"/api/jobs/{job['id']}/events", headers={"Last-Event-ID": "1"})
        assert [int(e["id"]) for e in parse_sse(later.text)] == [2]
        assert parse_sse((await c.get(f"/api/jobs/{job['id']}/events?after=2")).text) == []
        bad = await c.get(f"/api/jobs/{job['id']}/events", headers={"Last-Event-ID": "x"})
        assert_error(bad, 400, "invalid_input")


def parse_sse(text: str) -> list[dict[str, Any]]:
    """The events of an SSE body (comments and ``retry:`` skipped)."""
    import json

    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            events.append(fields)
    return events


# --- auth ----------------------------------------------------------------------------


async def test_jobs_need_the_key_when_one_is_set(store: Any, library: Any) -> None:
    key = {"Authorization": "Bearer s3cret-key"}
    async with client_for(app_for(store, library, api_key="s3cret-key")) as c:
        assert_error(
            await c.post("/api/process?wait=false", json={"work_id": "100"}), 401, "unauthorized"
        )
        r = await c.post("/api/process?wait=false", json={"work_id": "100"}, headers=key)
        assert r.status_code == 202
        job_id = r.json()["id"]
        # GETs of jobs need it too, although GET /api/texts does not (protect_get off).
        assert (await c.get("/api/texts")).status_code == 200
        for method, path in (
            ("GET", "/api/jobs"),
            ("GET", f"/api/jobs/{job_id}"),
            ("GET", f"/api/jobs/{job_id}/events"),
            ("DELETE", f"/api/jobs/{job_id}"),
        ):
            denied = await c.request(method, path)
            error = assert_error(denied, 401, "unauthorized")
            assert "s3cret" not in denied.text and "s3cret" not in str(error)
            wrong = await c.request(method, path, headers={"Authorization": "Bearer nope"})
            assert wrong.status_code == 401
        assert (await c.get(f"/api/jobs/{job_id}", headers=key)).json()["state"] == "queued"
        assert (await c.get("/api/jobs", headers=key)).json()["pagination"]["total"] == 1


# --- workers in the app's lifespan ----------------------------------------------------


async def wait_final(c: httpx.AsyncClient, job_id: str, seconds: float = 60) -> dict[str, Any]:
    with anyio.fail_after(seconds):
        while True:
            job: dict[str, Any] = (await c.get(f"/api/jobs/{job_id}")).json()
            if job["state"] in ("succeeded", "failed", "cancelled"):
                return job
            await anyio.sleep(0.05)


async def test_lifespan_workers_run_queued_jobs(any_store: Any, library: Any) -> None:
    app = app_for(any_store, library, jobs_workers=2)
    async with app.router.lifespan_context(app), client_for(app) as c:
        work = (await c.post("/api/process?wait=false", json={"work_id": "100"})).json()
        pdf = (await c.post("/api/process?wait=false", files=pdf_upload())).json()
        done = [await wait_final(c, work["id"]), await wait_final(c, pdf["id"])]
        assert [j["state"] for j in done] == ["succeeded", "succeeded"], done
        for job in done:
            assert job["attempts"] == 1
            text = await c.get(f"/api/texts/{job['slug']}")
            assert text.status_code == 200
            assert text.json()["sections"]
        events = parse_sse((await c.get(f"/api/jobs/{pdf['id']}/events")).text)
        states = [e["data"]["state"] for e in events if e["event"] == "state"]
        assert states == ["queued", "running", "succeeded"]
        assert any(e["event"] == "progress" for e in events)
        ids = [int(e["id"]) for e in events]
        assert ids == list(range(1, len(ids) + 1))
    assert any_store.list().pagination.total == 2


async def test_no_workers_when_set_to_zero(store: Any, library: Any) -> None:
    app = app_for(store, library, jobs_workers=0)
    async with app.router.lifespan_context(app), client_for(app) as c:
        job = (await c.post("/api/process?wait=false", json={"work_id": "100"})).json()
        await anyio.sleep(0.5)
        assert (await c.get(f"/api/jobs/{job['id']}")).json()["state"] == "queued"


def test_jobs_workers_setting() -> None:
    from libtext.errors import ConfigurationError

    assert Settings().jobs_workers == 1
    assert Settings.from_env({"LIBTEXT_JOBS_WORKERS": "3"}).jobs_workers == 3
    assert Settings.from_env({"LIBTEXT_JOBS_WORKERS": "0"}).jobs_workers == 0
    for bad in ("-1", "65"):
        with pytest.raises(ConfigurationError, match="jobs_workers"):
            Settings.from_env({"LIBTEXT_JOBS_WORKERS": bad})
    with pytest.raises(ConfigurationError, match="LIBTEXT_JOBS_WORKERS"):
        Settings.from_env({"LIBTEXT_JOBS_WORKERS": "two"})


async def test_cancel_a_running_job_stores_nothing(store: Any) -> None:
    """DELETE while the job waits for the library: it ends cancelled, nothing stored."""
    from libtext.library import LibraryClient

    release = anyio.Event()
    pages_asked = 0

    async def answer(request: httpx.Request) -> httpx.Response:
        nonlocal pages_asked
        node = request.url.params.get("path", "").removeprefix("/")
        if node == "101":
            pages_asked += 1
            await release.wait()
        return _library_answer(request)

    library = LibraryClient(
        base_url=LIBRARY_URL,
        rate_limit=None,
        retry=RetryPolicy(max_attempts=1),
        transport=httpx.MockTransport(answer),
    )
    app = app_for(store, library, jobs_workers=1)
    async with app.router.lifespan_context(app), client_for(app) as c:
        job = (await c.post("/api/process?wait=false", json={"work_id": "100"})).json()
        with anyio.fail_after(30):
            while not pages_asked:
                await anyio.sleep(0.02)
        running = (await c.get(f"/api/jobs/{job['id']}")).json()
        assert running["state"] == "running"
        r = await c.delete(f"/api/jobs/{job['id']}")
        assert r.status_code == 200
        assert r.json()["cancelRequested"] is True
        release.set()
        final = await wait_final(c, job["id"])
        assert final["state"] == "cancelled", final
        assert final["slug"] is None
    await library.aclose()
    assert store.list().pagination.total == 0


async def test_other_methods_are_405_naming_both(store: Any, library: Any) -> None:
    async with client_for(app_for(store, library)) as c:
        for method in ("POST", "PUT", "PATCH", "OPTIONS"):
            r = await c.request(method, f"/api/jobs/{'0' * 32}")
            assert_error(r, 405, "method_not_allowed")
            assert r.headers["allow"] == "GET, DELETE"


async def test_a_quiet_stream_gets_comments(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a job waits, the stream sends comment lines (proxies keep it open)."""
    import libtext.asgi._jobs as jobs_routes
    from libtext.library import LibraryClient

    monkeypatch.setattr(jobs_routes, "HEARTBEAT", 0.1)
    release = anyio.Event()

    async def answer(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("path") == "/101":
            await release.wait()
        return _library_answer(request)

    library = LibraryClient(
        base_url=LIBRARY_URL, rate_limit=None, transport=httpx.MockTransport(answer)
    )
    app = app_for(store, library, jobs_workers=1)
    body = ""
    async with app.router.lifespan_context(app), client_for(app) as c:
        job = (await c.post("/api/process?wait=false", json={"work_id": "100"})).json()

        async def read() -> None:
            nonlocal body
            body = (await c.get(f"/api/jobs/{job['id']}/events")).text

        async with anyio.create_task_group() as tg:
            tg.start_soon(read)
            await anyio.sleep(1.0)
            release.set()
    await library.aclose()
    assert body.count(": waiting\n\n") >= 3
    assert [e["data"]["state"] for e in parse_sse(body) if e["event"] == "state"] == [
        "queued",
        "running",
        "succeeded",
    ]


async def test_a_stuck_queue_is_504_not_a_hang(store: Any, library: Any) -> None:
    class StuckQueue:
        async def aget(self, job_id: str) -> Any:
            await anyio.sleep(30)

    app = create_app(
        store=store,
        library=library,
        jobs=StuckQueue(),  # type: ignore[arg-type]
        settings=Settings(request_timeout=0.2, jobs_workers=0),
    )
    async with client_for(app) as c:
        with anyio.fail_after(10):
            r = await c.get(f"/api/jobs/{'0' * 32}")
    assert_error(r, 504, "timeout")


async def test_a_queued_pdf_is_read_under_the_servers_pdf_limits(store: Any, library: Any) -> None:
    """The in-process workers read a job's PDF as the synchronous route reads an upload."""
    app = app_for(store, library, jobs_workers=1, max_pdf_pages=2)  # sample.pdf has 4 pages
    async with app.router.lifespan_context(app), client_for(app) as c:
        sync = await c.post("/api/process", files=pdf_upload())
        assert_error(sync, 413, "too_many_pages")
        job = (await c.post("/api/process?wait=false", files=pdf_upload())).json()
        final = await wait_final(c, job["id"])
    assert final["state"] == "failed", final
    assert final["error"]["error"]["code"] == "too_many_pages"
    assert store.list().pagination.total == 0


async def test_the_uploads_filename_reaches_the_job(store: Any, library: Any) -> None:
    """Listed with the job, and the name its PDF is read under (as a file opened by path)."""
    from libtext.jobs import _run

    seen: list[str] = []
    real = _run.Runner._extract

    async def spy(self: Any, data: bytes, filename: str | None) -> Any:
        doc = await real(self, data, filename)
        seen.append(doc.source_name)
        return doc

    app = app_for(store, library, jobs_workers=1)
    upload = {"file": ("dir/Pirkei Avot.pdf", SAMPLE.read_bytes(), "application/pdf")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_run.Runner, "_extract", spy)
        async with app.router.lifespan_context(app), client_for(app) as c:
            job = (await c.post("/api/process?wait=false", files=upload)).json()
            assert job["filename"] == "Pirkei Avot.pdf"
            final = await wait_final(c, job["id"])
            listed = (await c.get("/api/jobs")).json()["jobs"]
    assert final["state"] == "succeeded", final
    assert [j["filename"] for j in listed] == ["Pirkei Avot.pdf"]
    assert seen == ["Pirkei Avot.pdf"]
