"""Whole shelves as jobs: finding the works under a node, skipping done work, the CLI.

The library is a small tree served over ``httpx.MockTransport`` (Python API) or a
threaded server on 127.0.0.1 (the CLI, which builds its own client); the store and
the queue are a real SQLite file; the provider is the offline one.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

pytest.importorskip("libtext.jobs")

from tests.library_server import serve_library
from tests.test_store import store_url  # noqa: F401  (the SQLite/PostgreSQL fixture)

from libtext import RetryPolicy
from libtext.cli import cli
from libtext.jobs import JobQueue, JobState
from libtext.jobs._tree import afind_works, asubmit_tree
from libtext.library import LibraryClient
from libtext.models import ProcessedDocument, Section, SourceMetadata

ROOT = Path(__file__).resolve().parents[1]


def section(*children: tuple[str, str]) -> dict[str, Any]:
    data = [{"id": i, "heading": h} for i, h in children]
    return {"content": {"type": "children", "data": data}}


def page(text: str) -> dict[str, Any]:
    return {"content": {"type": "page", "data": {"text": f"<p>{text}</p>"}}}


# A shelf: a book of pages (one work), a book of two parts (a work each), a book whose
# first child is a part but which has a page of its own (one work: the book), and a
# repeated entry.
TREE: dict[str, Any] = {
    "1000": section(("1100", "ספר א"), ("1200", "ספר ב"), ("1300", "ספר ג"), ("1100", "ספר א")),
    "1100": section(("1101", "פרק א"), ("1102", "פרק ב"), ("1103", "פרק ג")),
    "1101": page("בראשית ברא אלהים את השמים ואת הארץ."),
    "1102": page("והארץ היתה תהו ובהו."),
    "1103": page("ויאמר אלהים יהי אור."),
    "1200": section(("1210", "חלק א"), ("1220", "חלק ב")),
    "1210": section(("1211", "פרק א")),
    "1211": page("וירא אלהים את האור כי טוב."),
    "1220": section(("1221", "פרק א")),
    "1221": page("ויקרא אלהים לאור יום."),
    "1300": section(("1310", "חלק א"), ("1302", "הקדמה")),
    "1310": section(("1311", "פרק א")),
    "1311": page("ויהי ערב ויהי בקר יום אחד."),
    "1302": page("הקדמה קצרה."),
}
WORKS = ["1100", "1210", "1220", "1300"]


class Library:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def answer(self, node: str) -> dict[str, Any]:
        self.asked.append(node)
        return TREE.get(node, {"content": None})

    def handle(self, request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=self.answer(request.url.params["path"].lstrip("/")))

    def client(self) -> LibraryClient:
        return LibraryClient(
            base_url="https://library.test/books",
            rate_limit=None,
            retry=RetryPolicy(max_attempts=1),
            transport=httpx.MockTransport(self.handle),
        )


@contextlib.contextmanager
def served_library(library: Library) -> Iterator[str]:
    with serve_library(library.answer) as url:
        yield url


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'texts.db'}"


@pytest.fixture
def queue(store_url: str) -> Iterator[JobQueue]:  # noqa: F811 (the imported fixture)
    """On SQLite, and on PostgreSQL when LIBTEXT_TEST_POSTGRES_URL is set."""
    with JobQueue(store_url) as q:
        yield q


def stored_doc(work_id: str) -> ProcessedDocument:
    return ProcessedDocument(
        source_metadata=SourceMetadata(publication_title="ספר", work_title=work_id),
        sections=[Section(sequence_id=1, original_hebrew_block="שלום")],
        work_id=work_id,
        page_count=1,
    )


# --- finding works ------------------------------------------------------------------


async def test_works_under_a_shelf() -> None:
    library = Library()
    async with library.client() as client:
        works = await afind_works(client, "1000")
    assert [w.id for w in works] == WORKS
    assert [w.heading_path for w in works] == [
        ["ספר א"],
        ["ספר ב", "חלק א"],
        ["ספר ב", "חלק ב"],
        ["ספר ג"],
    ]
    # A work is known by its first page: the other pages are left to the job.
    assert "1102" not in library.asked and "1103" not in library.asked
    assert library.asked.count("1100") == 1  # the repeated entry is read once


async def test_a_work_or_a_page_is_its_own_only_work() -> None:
    library = Library()
    async with library.client() as client:
        assert [w.id for w in await afind_works(client, "1100")] == ["1100"]
        assert [w.id for w in await afind_works(client, "1101")] == ["1101"]
        assert [w.id for w in await afind_works(client, "1300")] == ["1300"]


async def test_unknown_root_is_not_found() -> None:
    from libtext.errors import NotFoundError

    async with Library().client() as client:
        with pytest.raises(NotFoundError):
            await afind_works(client, "9999")


# --- submitting, skipping ------------------------------------------------------------


async def test_submit_tree_skips_stored_and_queued_works(queue: JobQueue) -> None:
    library = Library()
    async with library.client() as client:
        first = await asubmit_tree(queue, "1000", library=client, max_pages=5)
        assert [i.status for i in first.items] == ["submitted"] * 4
        assert [j.work_id for j in first.jobs] == WORKS
        by_work = {j.work_id: j for j in first.jobs}

        # 1210 got stored (its job cancelled), 1220's job was cancelled: one new job.
        queue.store.save(stored_doc("1210"))
        await queue.acancel(by_work["1210"].id)
        await queue.acancel(by_work["1220"].id)
        again = await asubmit_tree(queue, "1000", library=client)
        assert {i.work.id: i.status for i in again.items} == {
            "1100": "active",
            "1210": "stored",
            "1220": "submitted",
            "1300": "active",
        }
        assert again.items[0].job is not None and again.items[0].job.id == by_work["1100"].id
        assert len(await queue.alist(limit=100)) == 5

        redo = await asubmit_tree(queue, "1000", library=client, redo=True)
        assert {i.work.id: i.status for i in redo.items} == {
            "1100": "active",
            "1210": "submitted",
            "1220": "active",
            "1300": "active",
        }
    assert len(await queue.alist(limit=100)) == 6


def test_the_sync_twin_reports_works_as_found(queue: JobQueue) -> None:
    """``submit_tree`` takes ``on_found`` as ``asubmit_tree`` does (it had lost it)."""
    found: list[str] = []
    with Library().client() as client:
        done = queue.submit_tree("1000", library=client, on_found=lambda w: found.append(w.id))
    assert found == WORKS == [j.work_id for j in done.jobs]


# --- the command line ----------------------------------------------------------------


def run(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result


def test_library_process_runs_every_work_then_skips_them(db_url: str) -> None:
    library = Library()
    with served_library(library) as url:
        base = ["library", "--base-url", url, "--rate-limit", "0", "process", "1000"]
        detached = run(*base, "--store", db_url, "--detach")
        assert detached.exit_code == 0, detached.output
        assert "4 queued now" in detached.output
        with JobQueue(db_url) as queue:
            assert [j.state for j in queue.list()] == [JobState.QUEUED] * 4

        # Started again: nothing new is queued; the 4 queued jobs run here, to the end.
        done = run(*base, "--store", db_url, "--no-progress", "--concurrency", "2")
        assert done.exit_code == 0, done.output
        assert "0 queued now, 4 already queued or running" in done.output
        assert "4 of 4 works processed" in done.output
        with JobQueue(db_url) as queue:
            jobs = queue.list()
            assert [j.state for j in jobs] == [JobState.SUCCEEDED] * 4
            stored = queue.store.list().texts
        assert len(stored) == 4

        again = run(*base, "--store", db_url, "--no-progress")
        assert again.exit_code == 0, again.output
        assert "0 queued now, 0 already queued or running, 4 stored already" in again.output
        with JobQueue(db_url) as queue:
            assert len(queue.list()) == 4


def test_jobs_list_show_cancel(db_url: str) -> None:
    with JobQueue(db_url) as queue:
        first = queue.submit(work_id="1100")
        second = queue.submit(ROOT / "examples" / "sample.pdf")
    listed = run("jobs", "list", "--store", db_url)
    assert listed.exit_code == 0, listed.output
    lines = listed.output.splitlines()
    assert lines[0].startswith(f"{second.id}\tqueued\tpdf sample.pdf")
    assert lines[1].startswith(f"{first.id}\tqueued\twork 1100")

    shown = run("jobs", "show", first.id, "--store", db_url)
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["workId"] == "1100"

    cancelled = run("jobs", "cancel", first.id, "--store", db_url)
    assert cancelled.exit_code == 0, cancelled.output
    assert "\tcancelled\t" in cancelled.output
    only = run("jobs", "list", "--state", "cancelled", "--format", "json", "--store", db_url)
    assert [j["id"] for j in json.loads(only.output)] == [first.id]

    followed = run("jobs", "show", first.id, "--follow", "--format", "text", "--store", db_url)
    assert followed.exit_code == 0, followed.output
    assert followed.output.splitlines()[:2] == ["1\tstate\tqueued", "2\tstate\tcancelled"]

    missing = run("jobs", "show", "0" * 32, "--store", db_url)
    assert missing.exit_code == 2
    assert "error: No job has the id" in missing.output


def test_process_queue_only_enqueues(db_url: str) -> None:
    sample = str(ROOT / "examples" / "sample.pdf")
    result = run("process", sample, "--queue", "--store", db_url)
    assert result.exit_code == 0, result.output
    job_id = result.output.splitlines()[0]
    with JobQueue(db_url) as queue:
        job = queue.get(job_id)
        assert job.state is JobState.QUEUED
        assert job.filename == "sample.pdf"
        assert queue.store.list().pagination.total == 0
    refused = run("process", sample, "--queue", "--no-store", "--store", db_url)
    assert refused.exit_code == 2
    assert "--no-store cannot be used with --queue" in refused.output


def test_process_queue_keeps_save_partial(db_url: str) -> None:
    from libtext.jobs import _db

    sample = str(ROOT / "examples" / "sample.pdf")
    kept = run("process", sample, "--queue", "--save-partial", "--store", db_url)
    assert kept.exit_code == 0, kept.output
    with JobQueue(db_url) as queue:
        claimed = queue._run("claim", _db.claim, "test:1:a", 30.0, write=True)
    assert claimed is not None and claimed[1]["save_partial"] is True
    assert claimed[1]["options"] == {}
