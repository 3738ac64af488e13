"""Whole shelves as jobs: the works under a library node, one job each.

The library is a tree of sections whose leaves are pages. A *work* here is the
highest section that holds pages itself: ``LibraryClient.aget_work`` reads it (its
pages and those of its subsections) as one document. A section whose children are
all sections is a shelf: each child is looked at in turn. So a book whose chapters
are pages is one work, a book whose parts hold the pages gives one work per part,
and a node that is a page is a work of one page.

Finding works costs one library request per section down to the works, plus one
per work (its first page child; the walk stops there), at the client's polite rate.
Stopping and starting again is cheap where it matters: works already stored, or
already queued or running, are skipped without reading them (``redo=True`` enqueues
stored works again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

import anyio
from pydantic import BaseModel, Field

from libtext._sync import run_sync
from libtext.jobs._models import Job, JobState
from libtext.library import LibraryClient, LibrarySection
from libtext.models import LibraryPage

if TYPE_CHECKING:  # pragma: no cover
    from libtext.store import TextStore

__all__ = [
    "LibraryWork",
    "TreeItem",
    "TreeMethods",
    "TreeSubmission",
    "afind_works",
    "asubmit_tree",
    "stored_work_ids",
]

MAX_DEPTH = 16
"""Sections below the root looked into at most (the library's trees are shallower)."""

_PAGE = 500


class LibraryWork(BaseModel):
    """A work found under a library node: its id and the headings down to it."""

    id: str
    title: str = ""
    heading_path: list[str] = Field(default_factory=list)


async def afind_works(
    library: LibraryClient,
    root_id: str,
    *,
    on_found: Callable[[LibraryWork], Awaitable[None] | None] | None = None,
) -> list[LibraryWork]:
    """The works under ``root_id`` in reading order (see the module).

    Args:
        library: The client to read the tree with.
        root_id: A library node: a shelf, a work, or a page.
        on_found: Called with each work as soon as it is found (a long walk can
            show progress, or enqueue as it goes).

    Raises:
        NotFoundError: No such node.
        LibraryError: The library failed.
    """
    found: list[LibraryWork] = []
    seen: set[str] = set()

    async def emit(work: LibraryWork) -> None:
        found.append(work)
        if on_found is not None:
            result = on_found(work)
            if result is not None:
                await result

    async def visit(
        node_id: str, node: LibrarySection | LibraryPage, path: list[str], depth: int
    ) -> None:
        if not isinstance(node, LibrarySection):  # a page alone: a work of one page
            await emit(LibraryWork(id=node_id, title=path[-1] if path else "", heading_path=path))
            return
        title = node.title or (path[-1] if path else "")
        here = [*path[:-1], title] if path else ([title] if title else [])
        if depth >= MAX_DEPTH:
            await emit(LibraryWork(id=node_id, title=title, heading_path=here))
            return
        shelf: list[tuple[str, str, LibrarySection]] = []
        for child in node.children:
            if child.id in seen:
                continue  # a repeated entry or a cycle: each node once
            seen.add(child.id)
            sub = await library.aget_node(child.id)
            if not isinstance(sub, LibrarySection):
                # Pages of its own: this section is a work, whatever its other children.
                await emit(LibraryWork(id=node_id, title=title, heading_path=here))
                return
            shelf.append((child.id, child.heading or sub.title, sub))
        for child_id, heading, sub in shelf:
            await visit(child_id, sub, [*here, heading] if heading else here, depth + 1)

    root = await library.aget_node(root_id)
    seen.add(root.id)
    await visit(root.id, root, [], 0)
    return found


def stored_work_ids(store: TextStore, work_ids: Sequence[str]) -> set[str]:
    """Which of ``work_ids`` the store holds a text of (one query per 500 ids)."""
    from sqlmodel import col, select

    from libtext.store._tables import TextRow

    ids = list(dict.fromkeys(work_ids))
    held: set[str] = set()
    with store._errors("look up stored works"), store._connection() as conn:
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            query = select(TextRow.work_id).where(col(TextRow.work_id).in_(chunk))
            held.update(str(row[0]) for row in conn.execute(query))
    return held


class TreeItem(BaseModel):
    """A work found under the root, and what :func:`asubmit_tree` did with it.

    ``status``: ``submitted`` (a new job), ``active`` (a job for it was already
    queued or running: that one is ``job``), ``stored`` (a text of the work is in the
    store and ``redo`` was not asked: no job).
    """

    work: LibraryWork
    status: Literal["submitted", "active", "stored"]
    job: Job | None = None


class TreeSubmission(BaseModel):
    """What :meth:`JobQueue.submit_tree` enqueued for the works under ``root_id``."""

    root_id: str
    items: list[TreeItem] = Field(default_factory=list)

    @property
    def jobs(self) -> list[Job]:
        """The jobs to follow: the new ones and those already under way."""
        return [item.job for item in self.items if item.job is not None]

    def count(self, status: str) -> int:
        return sum(1 for item in self.items if item.status == status)


class _Queue(Protocol):
    """What the tree needs of :class:`~libtext.jobs.JobQueue` (a protocol: the queue's
    module imports this one, never the other way round)."""

    @property
    def store(self) -> TextStore: ...

    async def alist(
        self, state: JobState | str | None = None, limit: int = 50, offset: int = 0
    ) -> list[Job]: ...

    async def asubmit(
        self,
        pdf: Any = None,
        *,
        work_id: str | None = None,
        filename: str | None = None,
        provider: str = "offline",
        options: dict[str, Any] | None = None,
        max_pages: int | None = None,
    ) -> Job: ...


async def _active_jobs(queue: _Queue) -> dict[str, Job]:
    """Queued and running jobs of library works, by work id (oldest wins)."""
    active: dict[str, Job] = {}
    for state in (JobState.RUNNING, JobState.QUEUED):
        offset = 0
        while True:
            page = await queue.alist(state=state, limit=_PAGE, offset=offset)
            for job in page:
                if job.work_id:
                    active[job.work_id] = job
            if len(page) < _PAGE:
                break
            offset += _PAGE
    return active


async def asubmit_tree(
    queue: _Queue,
    root_id: str,
    *,
    library: LibraryClient | None = None,
    redo: bool = False,
    provider: str = "offline",
    options: dict[str, Any] | None = None,
    max_pages: int | None = None,
    on_found: Callable[[LibraryWork], Awaitable[None] | None] | None = None,
) -> TreeSubmission:
    """Enqueue one job per work under ``root_id`` (see the module), skipping done work.

    Args:
        queue: Where the jobs go; its store says which works are stored already.
        root_id: A library node (a shelf, a work or a page).
        library: The client to walk the tree with (default ``LibraryClient()``,
            closed at the end).
        redo: Enqueue works already stored too (a work with a job queued or running
            never gets a second one).
        provider: The jobs' provider (its name), as :meth:`JobQueue.submit` takes it.
        options: The jobs' model options.
        max_pages: Pages read from each work at most.
        on_found: Called with each work as the walk finds it (a long walk can show
            progress).
    """
    from libtext.library import LibraryClient as _Client

    client = library if library is not None else _Client()
    try:
        works = await afind_works(client, root_id, on_found=on_found)
    finally:
        if library is None:
            await client.aclose()
    store = queue.store
    stored = (
        set()
        if redo
        else await anyio.to_thread.run_sync(stored_work_ids, store, [w.id for w in works])
    )
    active = await _active_jobs(queue)
    submission = TreeSubmission(root_id=str(root_id))
    for work in works:
        if work.id in active:
            item = TreeItem(work=work, status="active", job=active[work.id])
        elif work.id in stored:
            item = TreeItem(work=work, status="stored")
        else:
            job = await queue.asubmit(
                work_id=work.id, provider=provider, options=options, max_pages=max_pages
            )
            active[work.id] = job
            item = TreeItem(work=work, status="submitted", job=job)
        submission.items.append(item)
    return submission


class TreeMethods:
    """``JobQueue.submit_tree`` and its async twin (a mixin, as the store's review methods)."""

    async def asubmit_tree(
        self,
        root_id: str,
        *,
        library: LibraryClient | None = None,
        redo: bool = False,
        provider: str = "offline",
        options: dict[str, Any] | None = None,
        max_pages: int | None = None,
        on_found: Callable[[LibraryWork], Awaitable[None] | None] | None = None,
    ) -> TreeSubmission:
        """Enqueue one job per work under the library node ``root_id``.

        A work is the highest section that holds pages itself (see
        ``libtext.jobs._tree``). Works already stored are skipped unless ``redo``, and a
        work whose job is queued or running never gets a second one, so calling this
        again after a stop enqueues only what is left.

        Args:
            root_id: A library node: a shelf, a work or a page.
            library: The client to walk the tree with (default ``LibraryClient()``).
            redo: Enqueue works already stored too.
            provider: The jobs' provider, as :meth:`submit` takes it.
            options: The jobs' model options.
            max_pages: Pages read from each work at most.
            on_found: Called with each work as the walk finds it (for progress).

        Raises:
            NotFoundError: No such library node.
            LibraryError: The library failed while the tree was walked.
        """
        return await asubmit_tree(
            cast("_Queue", self),
            root_id,
            library=library,
            redo=redo,
            provider=provider,
            options=options,
            max_pages=max_pages,
            on_found=on_found,
        )

    def submit_tree(
        self,
        root_id: str,
        *,
        library: LibraryClient | None = None,
        redo: bool = False,
        provider: str = "offline",
        options: dict[str, Any] | None = None,
        max_pages: int | None = None,
        on_found: Callable[[LibraryWork], Awaitable[None] | None] | None = None,
    ) -> TreeSubmission:
        """Sync twin of :meth:`asubmit_tree`."""
        return run_sync(
            self.asubmit_tree,
            root_id,
            library=library,
            redo=redo,
            provider=provider,
            options=options,
            max_pages=max_pages,
            on_found=on_found,
        )
