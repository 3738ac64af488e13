"""``libtext library process``: enqueue a shelf's works, then follow (and run) the jobs.

One rich progress bar counts the finished works; below it a line per running job
shows its stage (``translate 12/40``), and each finished job prints one permanent
line (its slug, or its error). Running jobs are read each tick (``state=running``
is a short list); the other pending jobs are read a slice per tick, so a shelf of
thousands of works costs a few queries a second, not thousands.

Ctrl-C stops the workers of this command: the job they were running goes back to
the queue (or is picked again when its lease passes), and the same command started
again skips what is stored and follows what is left.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

import anyio
import click

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

    from libtext.jobs import Job, JobQueue
    from libtext.jobs._tree import LibraryWork, TreeItem, TreeSubmission
    from libtext.library import LibraryClient

__all__ = ["follow_tree"]

TICK = 0.5
"""Seconds between two looks at the jobs."""

SWEEP = 50
"""Pending jobs read per tick besides the running ones."""


def follow_tree(
    queue: JobQueue,
    library: LibraryClient,
    root_id: str,
    *,
    redo: bool,
    provider: str,
    max_pages: int | None,
    concurrency: int,
    follow: bool,
    progress: bool,
) -> None:
    """Enqueue the works under ``root_id``; with ``follow``, show (and run) them to the end."""
    from rich.console import Console

    console = Console(stderr=True)
    show = progress and console.is_terminal

    async def main() -> None:
        found = 0
        status = console.status(f"finding works under {root_id}…") if show else None

        def on_found(work: LibraryWork) -> None:
            nonlocal found
            found += 1
            if status is not None:
                status.update(f"finding works under {root_id}: {found} found ({work.id})")

        with status if status is not None else contextlib.nullcontext():
            submission = await queue.asubmit_tree(
                root_id,
                library=library,
                redo=redo,
                provider=provider,
                max_pages=max_pages,
                on_found=on_found,
            )
        _summary(console, submission)
        if not follow:
            for job in submission.jobs:
                click.echo(f"{job.id}\t{job.work_id}")
            return
        await _follow(
            queue, submission, console, library=library, concurrency=concurrency, show=show
        )

    try:
        anyio.run(main)
    except KeyboardInterrupt:
        click.echo(
            "stopped: finished works are stored; run the same command again to go on.", err=True
        )
        sys.exit(130)


def _summary(console: Console, submission: TreeSubmission) -> None:
    new, active, stored = (submission.count(s) for s in ("submitted", "active", "stored"))
    console.print(
        f"{len(submission.items)} works under {submission.root_id}: {new} queued now, "
        f"{active} already queued or running, {stored} stored already (skipped)",
        highlight=False,
    )


async def _follow(
    queue: JobQueue,
    submission: TreeSubmission,
    console: Console,
    *,
    library: LibraryClient,
    concurrency: int,
    show: bool,
) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from libtext.jobs import JobState

    titles = {item.job.id: _title(item) for item in submission.items if item.job is not None}
    pending = list(titles)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[stage]}"),
        console=console,
        disable=not show,
    )
    overall = bar.add_task("works", total=max(len(pending), 1), stage="")
    lines: dict[str, TaskID] = {}
    failed = 0
    stop = anyio.Event()

    def finish(job: Job) -> None:
        nonlocal failed
        pending.remove(job.id)
        if job.id in lines:
            bar.remove_task(lines.pop(job.id))
        bar.advance(overall)
        if job.state is JobState.SUCCEEDED:
            console.print(f"done {titles[job.id]} -> {job.slug}", highlight=False)
        else:
            failed += 1
            why = job.error.error.message if job.error else job.state.value
            console.print(f"{job.state.value} {titles[job.id]}: {why}", highlight=False)

    async with anyio.create_task_group() as tg:
        if concurrency:
            tg.start_soon(_work, queue, concurrency, stop, library)
        with bar:
            cursor = 0
            while pending:
                running = {j.id: j for j in await queue.alist(state=JobState.RUNNING, limit=200)}
                look = [i for i in pending if i in lines or i in running]
                sweep = [i for i in pending if i not in look]
                if sweep:
                    cursor %= len(sweep)
                    look += sweep[cursor : cursor + SWEEP]
                    cursor += SWEEP
                for job_id in look:
                    job = running.get(job_id) or await queue.aget(job_id)
                    if job.state.final:
                        finish(job)
                    elif job.state is JobState.RUNNING:
                        _line(bar, lines, job, titles[job_id])
                if pending:
                    await anyio.sleep(TICK)
        stop.set()
    done = len(titles) - failed
    console.print(f"{done} of {len(titles)} works processed, {failed} not", highlight=False)


async def _work(
    queue: JobQueue, concurrency: int, stop: anyio.Event, library: LibraryClient
) -> None:
    await queue.awork(concurrency, stop, library=library)


def _line(bar: Progress, lines: dict[str, TaskID], job: Job, title: str) -> None:
    p = job.progress
    if job.id not in lines:
        lines[job.id] = bar.add_task(f"  {title}", total=max(p.total, 1), stage=p.stage)
    bar.update(lines[job.id], completed=p.done, total=max(p.total, 1), stage=p.stage)


def _title(item: TreeItem) -> str:
    work = item.work
    return f"{work.title or work.id} ({work.id})" if work.title else work.id
