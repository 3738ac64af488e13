"""Options several commands declare alike, written once: ``--format``, ``--store``,
``--provider``, ``--revision``, ``-o``/``--output``.

Each factory takes only what differs from one command to another (the choices, the default,
the help text), so every command keeps its own wording while the option's name, parameter
and metavar stay the same everywhere (one vocabulary).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

__all__ = [
    "format_option",
    "output_option",
    "provider_option",
    "revision_option",
    "store_url_option",
]

_F = TypeVar("_F", bound=Callable[..., Any])


def format_option(
    *choices: str, default: str | None = None, help: str | None = None
) -> Callable[[_F], _F]:
    """``--format`` (parameter ``fmt``): one of ``choices``, by default the first."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=choices[0] if default is None else default,
        show_default=True,
        help=help,
    )


def store_url_option(help: str) -> Callable[[_F], _F]:
    """``--store URL`` (parameter ``store_url``): the database URL of a TextStore."""
    return click.option("--store", "store_url", metavar="URL", default=None, help=help)


def provider_option(help: str) -> Callable[[_F], _F]:
    """``--provider``/``-p``: ``offline`` (the default) or a litellm model."""
    return click.option("--provider", "-p", default="offline", show_default=True, help=help)


def revision_option(verb: str) -> Callable[[_F], _F]:
    """``--revision N``: the stored revision a command reads (``Show``, ``Export``)."""
    return click.option(
        "--revision",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help=f"{verb} revision N (see 'libtext texts history'); default the current one.",
    )


def output_option(help: str, *, type: click.Path) -> Callable[[_F], _F]:
    """``-o``/``--output``: the file a command writes (``None``: standard output)."""
    return click.option("-o", "--output", type=type, default=None, help=help)
