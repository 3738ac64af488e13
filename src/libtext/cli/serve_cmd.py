"""``libtext serve``: run the HTTP adapter with uvicorn."""

from __future__ import annotations

import os
from typing import Any

import click

from libtext.cli._options import store_url_option

__all__ = ["serve"]

DEFAULT_LIMIT_CONCURRENCY = 512
DEFAULT_KEEP_ALIVE = 5
DEFAULT_HEADER_BYTES = 16 * 1024
DEFAULT_BACKLOG = 1024


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@store_url_option("Database URL of the text store (sets LIBTEXT_DATABASE_URL for the workers).")
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes; each builds its own app from the environment.",
)
@click.option(
    "--jobs-workers",
    type=click.IntRange(0, 64),
    default=None,
    help="Jobs each worker process runs at once from the store's job queue (sets "
    "LIBTEXT_JOBS_WORKERS; default 1; 0: none, libtext worker processes run them).",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
@click.option(
    "--access-log/--no-access-log", default=True, show_default=True, help="Log every request."
)
@click.option(
    "--limit-concurrency",
    default=DEFAULT_LIMIT_CONCURRENCY,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Connections and requests in progress per worker; beyond it uvicorn answers 503.",
)
@click.option(
    "--timeout-keep-alive",
    default=DEFAULT_KEEP_ALIVE,
    show_default=True,
    type=click.IntRange(1, 3600),
    help="Seconds an idle keep-alive connection stays open.",
)
@click.option(
    "--max-header-bytes",
    default=DEFAULT_HEADER_BYTES,
    show_default=True,
    type=click.IntRange(1024, 1_048_576),
    help="Largest request line plus headers; more closes the connection with 400.",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(0.1, 3600),
    help="Seconds a connection has to send a request's headers; then it is closed.",
)
@click.option(
    "--backlog",
    default=DEFAULT_BACKLOG,
    show_default=True,
    type=click.IntRange(1, 65_535),
    help="Connections the kernel queues before uvicorn accepts them.",
)
def serve(
    host: str,
    port: int,
    store_url: str | None,
    workers: int,
    jobs_workers: int | None,
    log_level: str,
    access_log: bool,
    limit_concurrency: int,
    timeout_keep_alive: int,
    max_header_bytes: int,
    header_timeout: float,
    backlog: int,
) -> None:
    """Serve the libtext HTTP API (docs at /docs, schema at /openapi.json).

    Limits, the API key and CORS come from LIBTEXT_* environment variables
    (see libtext.asgi.Settings). Malformed HTTP (a bad Content-Length or chunk
    size, oversized headers) is refused by uvicorn itself with a plain-text 400,
    not the JSON error body; over --limit-concurrency it answers a plain 503.
    A connection that does not send a request's headers within --header-timeout
    seconds is closed; a body that stalls gets 408 (LIBTEXT_BODY_TIMEOUT).
    """
    try:
        import uvicorn

        import libtext.asgi  # noqa: F401  - fail here, with the install hint
    except ImportError as exc:
        from libtext.cli._extras import missing_extra

        raise missing_extra("server", exc) from None
    from libtext.asgi._http import HeaderTimeoutH11Protocol
    from libtext.cli._preflight import preflight

    preflight(store_url)  # a bad store or a provider without its key: one line, no server
    if store_url:
        # Workers are separate processes: the environment is how they get it.
        os.environ["LIBTEXT_DATABASE_URL"] = store_url
    if jobs_workers is not None:
        os.environ["LIBTEXT_JOBS_WORKERS"] = str(jobs_workers)
    os.environ["LIBTEXT_HEADER_TIMEOUT"] = str(header_timeout)
    uvicorn.run(
        "libtext.asgi:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        access_log=access_log,
        log_config=_log_config(log_level),
        proxy_headers=False,
        http=HeaderTimeoutH11Protocol,
        limit_concurrency=limit_concurrency,
        timeout_keep_alive=timeout_keep_alive,
        h11_max_incomplete_event_size=max_header_bytes,
        backlog=backlog,
    )


def _log_config(level: str) -> dict[str, object]:
    """uvicorn's logging, with libtext's own lines (the store and queue at start, one
    line per job state change) through the same handler."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"]["libtext"] = {
        "handlers": ["default"],
        "level": level.upper(),
        "propagate": False,
    }
    return config
