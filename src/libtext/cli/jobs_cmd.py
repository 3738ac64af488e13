"""``libtext jobs``: the processing jobs in the queue: list them, show one, cancel one."""

from __future__ import annotations

import click

from libtext.cli._jobs import job_line, open_queue, store_option
from libtext.cli._options import format_option

__all__ = ["jobs"]

_STATES = ["queued", "running", "succeeded", "failed", "cancelled"]
_PAGE_SIZE = 20


@click.group()
def jobs() -> None:
    """Processing jobs (libtext process --queue, libtext library process, POST /api/process
    ?wait=false): list them, show one, cancel one. libtext worker or libtext serve run them."""


@jobs.command("list")
@click.option("--state", type=click.Choice(_STATES), default=None, help="Only jobs in this state.")
@click.option("--page", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--page-size", default=_PAGE_SIZE, show_default=True, type=click.IntRange(1, 500))
@format_option("text", "json")
@store_option
def list_jobs(
    state: str | None, page: int, page_size: int, fmt: str, store_url: str | None
) -> None:
    """List jobs, newest first: id, state, what, progress, created, slug or error."""
    import json

    from libtext.jobs import JobState

    with open_queue(store_url) as queue:
        chosen = JobState(state) if state else None
        found = queue.list(state=chosen, limit=page_size, offset=(page - 1) * page_size)
    if fmt == "json":
        click.echo(json.dumps([j.model_dump(mode="json", by_alias=True) for j in found], indent=2))
        return
    for job in found:
        click.echo(job_line(job))
    if not found:
        click.echo("no jobs" + (f" in state {state}" if state else ""), err=True)


@jobs.command("show")
@click.argument("job_id")
@format_option("json", "text")
@click.option(
    "--follow", is_flag=True, help="Print each event as it happens, until the job is over."
)
@store_option
def show(job_id: str, fmt: str, follow: bool, store_url: str | None) -> None:
    """Show the job JOB_ID; with --follow, its events until it is over."""
    with open_queue(store_url) as queue:
        job = queue.get(job_id)
        if follow:
            for event in queue.events(job_id):
                if fmt == "json":
                    click.echo(event.model_dump_json(by_alias=True))
                else:
                    p = event.progress
                    where = f"\t{p.stage} {p.done}/{p.total}" if p.stage else ""
                    click.echo(f"{event.id}\t{event.type}\t{event.state.value}{where}")
            job = queue.get(job_id)
    if fmt == "json":
        click.echo(job.model_dump_json(by_alias=True, indent=2))
    else:
        click.echo(job_line(job))
        if job.error is not None:
            click.echo(f"error: {job.error.error.message}")


@jobs.command("cancel")
@click.argument("job_id")
@store_option
def cancel(job_id: str, store_url: str | None) -> None:
    """Cancel the job JOB_ID: a queued one at once, a running one before its next call."""
    with open_queue(store_url) as queue:
        job = queue.cancel(job_id)
    click.echo(job_line(job))
