"""JobQueue: submit, follow, cancel and run processing jobs, in this process and in workers.

The database is a real SQLite file (and PostgreSQL when LIBTEXT_TEST_POSTGRES_URL is
set); the model is a fake OpenAI-compatible server on 127.0.0.1 (``tests.jobs_fake``)
that counts every call, whichever process makes it.
"""

from __future__ import annotations

import io
import itertools
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest
from tests.fake_llm import FakeLLMServer
from tests.jobs_fake import fake_model, kind_of
from tests.jobs_worker import http_provider

from libtext import errors
from libtext.jobs import Job, JobEvent, JobQueue, JobState
from libtext.store import TextStore

ROOT = Path(__file__).resolve().parents[1]
SLOW = 40.0
"""Seconds a slow fake call takes: longer than any test waits for it."""
SAMPLE = ROOT / "examples" / "sample.pdf"


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'texts.db'}"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private provider cache (used by a PostgreSQL store; SQLite's sits beside it)."""
    monkeypatch.setenv("LIBTEXT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


# --- the API, without workers -------------------------------------------------------


def test_submit_get_list_and_json_shape(db_url: str) -> None:
    with JobQueue(db_url) as queue:
        first = queue.submit(pdf=SAMPLE)
        second = queue.submit(pdf=SAMPLE.read_bytes(), filename="again.pdf", options={"seed": 1})
        third = queue.submit(io.BytesIO(SAMPLE.read_bytes()))
        assert first.state is JobState.QUEUED and first.kind == "pdf"
        assert first.filename == "sample.pdf" and second.filename == "again.pdf"
        assert third.filename is None
        assert len({first.id, second.id, third.id}) == 3
        assert queue.get(first.id) == first
        assert [j.id for j in queue.list()] == [third.id, second.id, first.id]
        assert [j.id for j in queue.list(limit=1, offset=1)] == [second.id]
        assert queue.list(state="running") == []
        assert len(queue.list(state=JobState.QUEUED)) == 3
        body = first.model_dump(mode="json")
        assert {"id", "state", "kind", "progress", "attempts", "createdAt", "startedAt"} <= set(
            body
        )
        assert body["createdAt"].endswith("Z") and body["state"] == "queued"
        text = first.model_dump_json()
        assert Job.model_validate_json(text).model_dump_json() == text  # round-trips
        events = list(itertools.islice(queue.events(first.id), 1))  # then it follows live
        assert [(e.id, e.type, e.state) for e in events] == [(1, "state", JobState.QUEUED)]


def test_bad_input_is_a_typed_error(db_url: str, tmp_path: Path) -> None:
    (tmp_path / "empty.pdf").write_bytes(b"")
    (tmp_path / "note.txt").write_text("not a pdf")
    with JobQueue(db_url) as queue:
        cases: list[tuple[Any, type[errors.LibtextError]]] = [
            (lambda: queue.submit(), errors.InvalidInputError),
            (lambda: queue.submit(pdf=SAMPLE, work_id="3400000032"), errors.InvalidInputError),
            (lambda: queue.submit(pdf=tmp_path / "empty.pdf"), errors.EmptyFileError),
            (lambda: queue.submit(pdf=tmp_path / "note.txt"), errors.InvalidPDFError),
            (lambda: queue.submit(pdf=12), errors.InvalidTypeError),
            (lambda: queue.submit(work_id="../etc/passwd"), errors.InvalidInputError),
            (lambda: queue.submit(pdf=SAMPLE, options={"x": object()}), errors.InvalidInputError),
            (lambda: queue.get("nope"), errors.NotFoundError),
            (lambda: queue.get("0" * 32), errors.NotFoundError),
            (lambda: queue.cancel("f" * 32), errors.NotFoundError),
            (lambda: list(queue.events("0" * 32)), errors.NotFoundError),
            (lambda: queue.list(state="sleeping"), errors.InvalidInputError),
            (lambda: queue.list(limit=0), errors.InvalidInputError),
        ]
        for call, expected in cases:
            with pytest.raises(expected):
                call()
        with pytest.raises(TypeError, match="did you mean 'work_id'"):
            queue.submit(workid="1")  # type: ignore[call-arg]
        assert queue.list() == []  # nothing half-queued
    with pytest.raises(errors.ConfigurationError):
        JobQueue(db_url, lease=0)
    closed = JobQueue(db_url)
    closed.close()
    with pytest.raises(errors.StoreError, match="closed"):
        closed.list()


def test_cancel_a_queued_job_at_once(db_url: str) -> None:
    with JobQueue(db_url) as queue:
        job = queue.submit(pdf=SAMPLE)
        cancelled = queue.cancel(job.id)
        assert cancelled.state is JobState.CANCELLED and cancelled.finished_at is not None
        assert queue.cancel(job.id) == cancelled  # a job that is over stays as it is
        states = [e.state for e in queue.events(job.id)]  # ends by itself: the job is over
        assert states == [JobState.QUEUED, JobState.CANCELLED]


# --- one worker in this process -------------------------------------------------------


def test_an_offline_job_runs_and_reports_every_step(db_url: str) -> None:
    with JobQueue(db_url) as queue:
        job = queue.submit(pdf=SAMPLE)
        seen: list[JobEvent] = []

        def follow() -> None:
            seen.extend(queue.events(job.id))

        reader = threading.Thread(target=follow)
        reader.start()
        queue.work(stop=lambda: queue.get(job.id).state.final)
        reader.join(timeout=10)
        done = queue.get(job.id)
        assert done.state is JobState.SUCCEEDED, done.error
        assert done.attempts == 1 and done.slug and done.finished_at and done.started_at
        assert done.progress.stage == "save" and done.progress.done == 1
        with TextStore(db_url) as store:
            assert store.list().pagination.total == 1
            assert store.get(done.slug).sections
        ids = [e.id for e in seen]
        assert ids == list(range(1, len(ids) + 1))
        states = [e.state for e in seen if e.type == "state"]
        assert states == [JobState.QUEUED, JobState.RUNNING, JobState.SUCCEEDED]
        stages = [e.progress.stage for e in seen if e.type == "progress"]
        assert stages[0] == "extract" and "translate" in stages and stages[-1] == "save"
        # A reader that reconnects after event n gets the rest, and nothing twice.
        rest = list(queue.events(job.id, after=3))
        assert [e.id for e in rest] == ids[3:]


async def test_an_idle_worker_starts_a_submitted_job_at_once(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A submit wakes the queue's idle workers: the job does not wait out their poll."""
    import libtext.jobs._embedded as embedded

    monkeypatch.setattr(embedded, "POLL_MIN", 30.0)  # an idle look only every 30 s
    monkeypatch.setattr(embedded, "POLL_MAX", 30.0)
    async with JobQueue(db_url) as queue:
        await queue.asubmit(pdf=SAMPLE)  # the tables made, and a first job to take
        stop = anyio.Event()
        async with anyio.create_task_group() as tg:
            tg.start_soon(queue.awork, 1, stop)
            with anyio.fail_after(20):  # the worker took its first job and went idle
                while (await queue.alist(state="succeeded")) == []:
                    await anyio.sleep(0.05)
            await anyio.sleep(0.5)  # the claim loop is asleep now, for 30 s
            submitted = time.perf_counter()
            job = await queue.asubmit(pdf=SAMPLE)
            with anyio.fail_after(20):
                while (await queue.aget(job.id)).state is JobState.QUEUED:
                    await anyio.sleep(0.01)
            started = time.perf_counter() - submitted
            stop.set()
    assert started < 5.0  # woken by the submit, not by the 30 s poll


def test_a_jobs_options_reach_a_provider_objects_outline_call(db_url: str, cache_dir: Path) -> None:
    """Given with a provider object (``work(providers=...)``), a job's model options go
    with its outline request too, as a named provider sends them; and two jobs with
    other options do not share an outline from the provider cache."""
    with FakeLLMServer(responder=fake_model()) as server, JobQueue(db_url) as queue:
        jobs = [queue.submit(pdf=SAMPLE, provider="fake", options={"seed": n}) for n in (1, 2)]
        queue.work(
            stop=lambda: all(queue.get(j.id).state.final for j in jobs),
            providers={"fake": http_provider(server.url)},
        )
        ended = [queue.get(j.id) for j in jobs]
        bodies = [r.body for r in server.requests]
    assert [j.state for j in ended] == [JobState.SUCCEEDED] * 2, ended
    outlines = sorted(b.get("seed", -1) for b in bodies if kind_of(b) == "outline")
    assert outlines == [1, 2]
    assert {b.get("seed") for b in bodies if kind_of(b) == "translate"} == {1, 2}


def test_progress_counts_provider_calls(db_url: str, cache_dir: Path) -> None:
    """In the translate stage ``done/total`` moves with each provider call; before, a
    section's many calls showed as ``translate 0/1`` until the section was done."""
    with FakeLLMServer(responder=fake_model()) as server, JobQueue(db_url) as queue:
        job = queue.submit(pdf=SAMPLE, provider="fake")
        seen: list[JobEvent] = []
        reader = threading.Thread(target=lambda: seen.extend(queue.events(job.id)))
        reader.start()
        queue.work(
            stop=lambda: queue.get(job.id).state.final,
            providers={"fake": http_provider(server.url)},
        )
        reader.join(timeout=10)
        calls = sum(kind_of(r.body) == "translate" for r in server.requests)
        with TextStore(db_url) as store:
            sections = len(store.get(queue.get(job.id).slug).sections)
    steps = [e.progress for e in seen if e.type == "progress" and e.progress.stage == "translate"]
    assert calls >= sections
    assert steps[-1].done == steps[-1].total == calls
    assert all(a.done <= b.done for a, b in itertools.pairwise(steps))
    assert all(step.done <= step.total for step in steps)


async def test_progress_moves_with_each_call_of_one_section() -> None:
    """One section, 13 provider calls (the case found): 13 steps, not ``0/1`` throughout."""
    from libtext.jobs._run import _Checked, _Steps
    from libtext.providers.base import ProviderRequest, ProviderResponse

    class Echo:
        name = "echo"

        async def complete(self, request: ProviderRequest) -> ProviderResponse:
            return ProviderResponse(content="{}")

    async def allowed() -> None:
        return None

    steps = _Steps()
    provider = _Checked(Echo(), allowed, counted=steps.call)  # type: ignore[arg-type]
    steps.note("outline", 1, 1)
    await provider.complete(
        ProviderRequest(task="outline", messages=[], response_model=JobEvent)
    )  # not counted
    steps.note("translate", 0, 1)
    seen = [(steps.last.done, steps.last.total)]
    for _ in range(13):
        await provider.complete(
            ProviderRequest(task="translate", messages=[], response_model=JobEvent)
        )
        seen.append((steps.last.done, steps.last.total))
    steps.note("translate", 1, 1)
    seen.append((steps.last.done, steps.last.total))
    assert seen[0] == (0, 1)
    assert [done for done, _ in seen[1:]] == [*range(1, 14), 13]
    assert seen[-1] == (13, 13)
    assert all(done <= total for done, total in seen)


def test_a_failing_job_ends_failed_with_an_error_body(db_url: str) -> None:
    broken = b"%PDF-1.4\n" + b"x" * 200  # a PDF header and nothing readable after it
    with JobQueue(db_url) as queue:
        job = queue.submit(pdf=broken)
        queue.work(stop=lambda: queue.get(job.id).state.final)
        failed = queue.get(job.id)
        assert failed.state is JobState.FAILED and failed.slug is None
        assert failed.error is not None and failed.error.error.code == "invalid_pdf"
        assert failed.attempts == 1  # a bad PDF does not get better by trying again


async def test_cancelling_a_running_job_stops_its_calls_and_stores_nothing(
    db_url: str, cache_dir: Path
) -> None:
    slow = lambda body: kind_of(body) == "translate"  # noqa: E731
    with FakeLLMServer(responder=fake_model(delay=0.01, slow=slow, slow_delay=SLOW)) as server:
        async with JobQueue(db_url) as queue:
            job = await queue.asubmit(pdf=SAMPLE, provider="fake")
            stop = anyio.Event()
            one_at_a_time = http_provider(server.url)
            one_at_a_time.max_concurrency = 1  # type: ignore[attr-defined]  # sections queue up
            fake = {"fake": one_at_a_time}
            async with anyio.create_task_group() as tg:
                tg.start_soon(partial(queue.awork, 1, stop, providers=fake))
                with anyio.fail_after(30):
                    while sum(kind_of(r.body) == "translate" for r in server.requests) < 1:
                        await anyio.sleep(0.02)
                calls = server.count
                asked = time.perf_counter()
                await queue.acancel(job.id)
                with anyio.fail_after(10):
                    while not (await queue.aget(job.id)).state.final:
                        await anyio.sleep(0.02)
                took = time.perf_counter() - asked
                await anyio.sleep(0.3)  # time for any call that was not stopped
                stop.set()
            ended = await queue.aget(job.id)
    assert ended.state is JobState.CANCELLED and ended.slug is None
    assert server.count <= calls + 1  # at most the one call that was passing its check
    assert took < SLOW / 2  # the calls in flight were abandoned, not awaited
    with TextStore(db_url) as store:
        assert store.list().pagination.total == 0


# --- worker processes ---------------------------------------------------------------

PG_ENV = "LIBTEXT_TEST_POSTGRES_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A database several processes share: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'texts.db'}"
        return
    from tests.jobs_pg import fresh_schema

    with fresh_schema(PG_ENV) as url:
        yield url


def start_worker(
    url: str, llm: str, log: Path, lease: float, env: dict[str, str] | None = None
) -> Any:
    """A worker process (``tests.jobs_worker``: ``libtext worker`` with the fake provider)."""
    import os
    import subprocess
    import sys

    args = [sys.executable, "-m", "tests.jobs_worker", url, str(lease), llm]
    with log.open("ab") as out:
        return subprocess.Popen(
            args, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=out, stderr=subprocess.STDOUT
        )


def stop_workers(workers: list[Any]) -> None:
    """SIGTERM to every worker still running, then wait for all (a test's cleanup)."""
    import signal

    for w in workers:
        if w.poll() is None:
            w.send_signal(signal.SIGTERM)
    for w in workers:
        w.wait(timeout=30)


def owner_pid(url: str, job_id: str) -> int | None:
    import sqlalchemy as sa

    from libtext.jobs._tables import JOBS

    with TextStore(url) as store, store.engine.connect() as conn:
        owner = conn.execute(sa.select(JOBS.c.owner).where(JOBS.c.id == job_id)).scalar()
    return int(owner.split(":")[1]) if owner else None


def test_three_worker_processes_take_thirty_jobs_and_survive_a_kill(
    shared_url: str, cache_dir: Path, tmp_path: Path
) -> None:
    """30 jobs, 3 workers; the worker running job 0 is SIGKILLed once some of its sections
    are done. Every job succeeds, once; job 0's finished calls are not made again."""
    import os
    import signal

    def slow(body: dict[str, Any]) -> bool:
        # Job 0's translations of chapters 2 and 3 take long: the kill finds it mid-job.
        return body.get("seed") == 0 and kind_of(body) == "translate" and "פרק א" not in str(body)

    lease = 5.0  # this machine's load can starve a process for seconds
    workers: list[Any] = []
    responder = fake_model(delay=0.02, slow=slow, slow_delay=SLOW)
    with FakeLLMServer(responder=responder) as server, JobQueue(shared_url) as queue:
        jobs = [queue.submit(pdf=SAMPLE, provider="fake", options={"seed": n}) for n in range(30)]
        workers = [
            start_worker(shared_url, server.url, tmp_path / f"w{k}.log", lease) for k in range(3)
        ]
        try:
            victim = jobs[0].id

            def some_sections_done() -> bool:
                job = queue.get(victim)
                return job.progress.stage == "translate" and job.progress.done >= 1

            wait_for(some_sections_done, 90, "job 0 to finish a section")
            time.sleep(0.3)
            pid = owner_pid(shared_url, victim)
            assert pid in {w.pid for w in workers}
            killed_at = time.perf_counter()
            os.kill(pid, signal.SIGKILL)
            server.responder = fake_model(delay=0.02)  # the rerun's calls are quick

            def all_over() -> bool:
                return all(queue.get(j.id).state.final for j in jobs)

            wait_for(all_over, 180, "every job to end")
            ended = [queue.get(j.id) for j in jobs]
        finally:
            stop_workers(workers)
    logs = "\n".join(p.read_text(errors="replace")[-2000:] for p in tmp_path.glob("w*.log"))
    assert [j.state for j in ended] == [JobState.SUCCEEDED] * 30, logs
    assert ended[0].attempts == 2 and all(j.attempts == 1 for j in ended[1:])
    slugs = [j.slug for j in ended]
    with TextStore(shared_url) as store:
        assert store.list(page_size=100).pagination.total == 30  # each stored once
        assert {t.slug for t in store.list(page_size=100).texts} == set(slugs)

    # Job 0's calls that were unanswered when its worker died went out again, and no
    # other call: its outline and its finished section came from the provider cache.
    sent: dict[tuple[Any, str], list[Any]] = {}
    for request in server.requests:
        if kind_of(request.body) == "translate":
            key = (request.body.get("seed"), str(request.body.get("messages")))
            sent.setdefault(key, []).append(request)
    repeated = [calls for calls in sent.values() if len(calls) > 1]
    assert repeated
    for calls in repeated:
        assert calls[0].body.get("seed") == 0 and len(calls) == 2
        assert calls[0].time < killed_at < calls[0].time + SLOW  # unanswered at the kill
        assert calls[1].time > killed_at
    finished = [c for (seed, text), c in sent.items() if seed == 0 and "פרק א" in text]
    assert len(finished) == 1 and len(finished[0]) == 1 and finished[0][0].time < killed_at
    outlines = [r for r in server.requests if kind_of(r.body) == "outline"]
    assert len(outlines) == 30  # one per job: each job's options go with its outline call
    assert not [r for r in outlines if r.body.get("seed") == 0 and r.time > killed_at]


def test_a_job_resumed_on_another_machine_repeats_no_answered_call(tmp_path: Path) -> None:
    """PostgreSQL workers on two "machines" (each its own provider cache folder): the
    job's worker is SIGKILLed with a section done; the other worker resumes it without
    asking again the outline or that section (their answers were kept with the job)."""
    import os
    import signal

    from tests.jobs_pg import fresh_schema

    def slow(body: dict[str, Any]) -> bool:  # chapters 2 and 3 wait: the kill finds them
        return kind_of(body) == "translate" and "פרק א" not in str(body)

    lease = 5.0
    with (
        fresh_schema(PG_ENV) as url,
        FakeLLMServer(responder=fake_model(delay=0.02, slow=slow, slow_delay=SLOW)) as server,
        JobQueue(url) as queue,
    ):
        job = queue.submit(pdf=SAMPLE, provider="fake", options={"seed": 5})
        workers = [
            start_worker(
                url,
                server.url,
                tmp_path / f"m{k}.log",
                lease,
                {"LIBTEXT_CACHE_DIR": str(tmp_path / f"machine{k}")},
            )
            for k in range(2)
        ]
        try:
            wait_for(
                lambda: (
                    queue.get(job.id).progress.stage == "translate"
                    and queue.get(job.id).progress.done >= 1
                ),
                90,
                "a section to be done",
            )
            time.sleep(0.3)
            pid = owner_pid(url, job.id)
            assert pid in {w.pid for w in workers}
            killed_at = time.perf_counter()
            os.kill(pid, signal.SIGKILL)
            server.responder = fake_model(delay=0.02)
            wait_for(lambda: queue.get(job.id).state.final, 120, "the job to end")
            ended = queue.get(job.id)
        finally:
            stop_workers(workers)
    logs = "\n".join(p.read_text(errors="replace")[-2000:] for p in tmp_path.glob("m*.log"))
    assert ended.state is JobState.SUCCEEDED and ended.attempts == 2, logs
    after = [r for r in server.requests if r.time > killed_at]
    assert after  # the unanswered sections were asked again
    assert not [r for r in after if kind_of(r.body) == "outline"]
    assert not [r for r in after if "פרק א" in str(r.body.get("messages"))]


def test_libtext_worker_runs_a_job_and_stops_on_sigterm(db_url: str, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("libtext")
    if not exe.exists():
        pytest.skip(f"the libtext script is not installed next to {sys.executable}")
    with JobQueue(db_url) as queue:
        job = queue.submit(pdf=SAMPLE)
        log = (tmp_path / "worker.log").open("wb")
        worker = subprocess.Popen(
            [str(exe), "worker", "--store", db_url, "--concurrency", "2"],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "LIBTEXT_CACHE_DIR": str(tmp_path / "cache")},
        )
        try:
            wait_for(lambda: queue.get(job.id).state.final, 120, "the worker to run the job")
        finally:
            worker.send_signal(signal.SIGTERM)
            code = worker.wait(timeout=30)
        assert queue.get(job.id).state is JobState.SUCCEEDED
    assert code == 0, (tmp_path / "worker.log").read_text(errors="replace")


def test_a_worker_process_reads_pdfs_under_the_servers_limits(db_url: str, tmp_path: Path) -> None:
    """``libtext worker`` takes the PDF limits ``libtext serve`` reads from the environment."""
    import signal

    with JobQueue(db_url) as queue:
        job = queue.submit(pdf=SAMPLE)  # 4 pages
        worker = start_worker(
            db_url, "http://127.0.0.1:9", tmp_path / "w.log", 5.0, {"LIBTEXT_MAX_PDF_PAGES": "2"}
        )
        try:
            wait_for(lambda: queue.get(job.id).state.final, 120, "the worker to run the job")
        finally:
            worker.send_signal(signal.SIGTERM)
            worker.wait(timeout=30)
        ended = queue.get(job.id)
    assert ended.state is JobState.FAILED, (tmp_path / "w.log").read_text(errors="replace")
    assert ended.error is not None and ended.error.error.code == "too_many_pages"


def test_the_scale_out_queue_is_postgresql_only(db_url: str) -> None:
    with pytest.raises(errors.ConfigurationError, match="PostgreSQL"):
        JobQueue(db_url, queue_url="redis://127.0.0.1:6379/0")


def test_the_queue_url_is_queue_url_and_url_names_the_new_one(db_url: str) -> None:
    """``url=`` is the store's URL everywhere else; on JobQueue it meant the queue's."""
    with pytest.raises(TypeError, match="queue_url="):
        JobQueue(db_url, url="postgresql://127.0.0.1/queue")
