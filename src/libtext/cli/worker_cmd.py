"""``libtext worker``: take processing jobs from the queue until stopped."""

from __future__ import annotations

import logging
import signal
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import click

from libtext.cli._options import store_url_option

if TYPE_CHECKING:  # pragma: no cover
    from libtext.jobs import JobQueue
    from libtext.providers.base import Provider

__all__ = ["run_until_signalled", "server_pdf_options", "worker"]


@click.command()
@click.option(
    "--concurrency",
    default=1,
    show_default=True,
    type=click.IntRange(1, 256),
    help="Jobs run at once by this worker.",
)
@store_url_option(
    "Database URL of the text store and its jobs (default: LIBTEXT_DATABASE_URL, "
    "else the user's texts.db)."
)
@click.option(
    "--lease",
    default=None,
    type=click.FloatRange(0.5, 3600),
    help="Seconds a job is held without a heartbeat; a job whose worker died runs "
    "again after about this long (default 15).",
)
def worker(concurrency: int, store_url: str | None, lease: float | None) -> None:
    """Run queued processing jobs until stopped (Ctrl-C or SIGTERM).

    A job this worker was running when stopped goes back to the queue, and the next
    worker resumes it from the provider cache. Start as many workers as you like, on
    this machine or (with a PostgreSQL store) on others. PDFs are read under the
    limits `libtext serve` takes from the environment (LIBTEXT_MAX_PDF_PAGES,
    LIBTEXT_MAX_UPLOAD_BYTES, LIBTEXT_PDF_TIMEOUT, LIBTEXT_PDF_MEMORY_MB...).
    """
    from libtext.jobs import DEFAULT_LEASE, JobQueue

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    with JobQueue(store_url, lease=lease or DEFAULT_LEASE) as queue:
        click.echo(f"libtext worker: {concurrency} at once, jobs of {queue.store.url}", err=True)
        run_until_signalled(queue, concurrency)


def server_pdf_options() -> dict[str, Any]:
    """The PDF limits ``libtext serve`` reads from the environment (``LIBTEXT_MAX_PDF_PAGES``,
    ``LIBTEXT_PDF_TIMEOUT``...), so a job's PDF is read here as the server reads an
    upload; the library's defaults without the server extra."""
    try:
        from libtext.asgi._settings import Settings
    except ImportError:  # no server extra: extract_pdf's defaults
        return {}
    return Settings.from_env().job_pdf_options()


def run_until_signalled(
    queue: JobQueue, concurrency: int, providers: Mapping[str, str | Provider] | None = None
) -> None:
    """``queue.awork`` on a new event loop until SIGINT or SIGTERM, under the server's
    PDF limits (:func:`server_pdf_options`)."""
    pdf_options = server_pdf_options()
    import anyio

    async def main() -> None:
        stop = anyio.Event()

        async def on_signal() -> None:
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for _ in signals:
                    stop.set()
                    return

        async with anyio.create_task_group() as tg:
            tg.start_soon(on_signal)
            await queue.awork(concurrency, stop, providers=providers, **pdf_options)
            tg.cancel_scope.cancel()

    anyio.run(main)
