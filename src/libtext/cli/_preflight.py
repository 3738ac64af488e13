"""``libtext serve``'s checks before it binds: the store opens, every provider has its key.

Without them a bad ``--store`` or a provider without its key starts a server that
answers every request with 503 while ``/api/health`` says ok; with them the command
exits with one line that names the flag or variable to fix.
"""

from __future__ import annotations

import click

from libtext._wording import for_cli
from libtext.cli._extras import STORE_ENV, missing_extra

__all__ = ["preflight"]


def preflight(store_url: str | None) -> None:
    """Raise ``click.ClickException`` (one line) when the server could not do its work.

    Args:
        store_url: ``--store``; ``None`` uses ``LIBTEXT_DATABASE_URL``, else the default.
    """
    from libtext.asgi import Settings
    from libtext.errors import LibtextError, MissingAPIKeyError
    from libtext.providers.registry import resolve_provider

    try:
        settings = Settings.from_env()
    except LibtextError as exc:
        raise click.ClickException(f"bad LIBTEXT_* setting: {for_cli(exc.message)}") from None
    url = store_url or settings.store_url
    try:
        from libtext.store import TextStore
    except ImportError as exc:
        raise missing_extra("store", exc) from None
    where = "--store" if store_url else STORE_ENV if url else "the default store"
    try:
        with TextStore(url) as store:
            store.prepare()
            store.ping()
    except LibtextError as exc:
        raise click.ClickException(f"{where}: {for_cli(exc.message)}") from None
    for spec in settings.providers:
        if not isinstance(spec, str) or spec.strip().lower() == "offline":
            continue
        try:
            resolve_provider(spec)
        except MissingAPIKeyError as exc:
            raise click.ClickException(
                f"provider {exc.provider!r} (LIBTEXT_PROVIDERS) needs an API key: "
                f"set {exc.env_var} before 'libtext serve'."
            ) from None
        except LibtextError as exc:
            raise click.ClickException(f"LIBTEXT_PROVIDERS: {for_cli(exc.message)}") from None
