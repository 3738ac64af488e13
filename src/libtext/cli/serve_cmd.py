"""``libtext serve``: run the HTTP adapter with uvicorn."""

from __future__ import annotations

import os

import click

__all__ = ["serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--store",
    "store_url",
    metavar="URL",
    default=None,
    help="Database URL of the text store (sets LIBTEXT_DATABASE_URL for the workers).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes; each builds its own app from the environment.",
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
def serve(
    host: str, port: int, store_url: str | None, workers: int, log_level: str, access_log: bool
) -> None:
    """Serve the libtext HTTP API (docs at /docs, schema at /openapi.json).

    Limits, the API key and CORS come from LIBTEXT_* environment variables
    (see libtext.asgi.Settings).
    """
    try:
        import uvicorn

        import libtext.asgi  # noqa: F401  - fail here, with the install hint
    except ImportError as exc:
        from libtext.cli._extras import missing_extra

        raise missing_extra("server", exc) from None
    from libtext.cli._preflight import preflight

    preflight(store_url)  # a bad store or a provider without its key: one line, no server
    if store_url:
        # Workers are separate processes: the environment is how they get it.
        os.environ["LIBTEXT_DATABASE_URL"] = store_url
    uvicorn.run(
        "libtext.asgi:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        access_log=access_log,
        proxy_headers=False,
    )
