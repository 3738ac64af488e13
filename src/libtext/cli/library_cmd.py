"""``libtext library``: search, browse and fetch works of the online Chabad library."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from libtext.cli._jobs import open_queue, store_option
from libtext.cli._options import output_option, provider_option, store_url_option
from libtext.library import LibraryClient, LibrarySection

__all__ = ["library"]


def _client(ctx: click.Context) -> LibraryClient:
    options: dict[str, Any] = ctx.obj
    return LibraryClient(**options)


def _resume(value: str | None) -> str | list[str] | None:
    """``ID`` (a page id) or ``ID/ID/...`` (its path, a resume that skips unread fetches)."""
    if not value:
        return None
    return value.split("/") if "/" in value else value


@click.group()
@click.option(
    "--base-url",
    envvar="LIBTEXT_LIBRARY_URL",
    default=None,
    metavar="URL",
    help="The library's books URL [env LIBTEXT_LIBRARY_URL; default chabadlibrary.org/books].",
)
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True)
@click.option(
    "--rate-limit",
    type=click.FloatRange(min=0),
    default=3.0,
    show_default=True,
    help="Requests per second (0: no limit; please stay polite).",
)
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="LIBTEXT_LIBRARY_CACHE",
    default=None,
    help="Keep page answers here, so pages read twice are fetched once "
    "[env LIBTEXT_LIBRARY_CACHE].",
)
@click.pass_context
def library(
    ctx: click.Context,
    base_url: str | None,
    timeout: float,
    rate_limit: float,
    cache_dir: Path | None,
) -> None:
    """Search, browse and fetch works of the online Chabad library (chabadlibrary.org)."""
    ctx.obj = {
        "base_url": base_url,
        "timeout": timeout,
        "rate_limit": rate_limit or None,
        "cache_dir": cache_dir,
    }


@library.command()
@click.argument("query")
@click.option("--page", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--section", "section_id", metavar="ID", help="Search only under this section.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_context
def search(
    ctx: click.Context, query: str, page: int, section_id: str | None, as_json: bool
) -> None:
    """Full-text search, e.g. libtext library search "ביטול היש"."""
    with _client(ctx) as client:
        found = client.search(query, section_id, page)
    if as_json:
        click.echo(found.model_dump_json(indent=2))
        return
    for hit in found.results:
        click.echo(f"{hit.id}  {hit.heading}")
        if hit.snippet:
            click.echo(f"    {hit.snippet}")
    p = found.pagination
    click.echo(f"page {p.page} of {p.total_pages}, {p.total} hits", err=True)


@library.command()
@click.argument("query")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_context
def counts(ctx: click.Context, query: str, as_json: bool) -> None:
    """Hits of a phrase per section, e.g. libtext library counts "ביטול היש".

    Shows where a phrase occurs before paging through its hits
    (libtext library search PHRASE --section ID).
    """
    with _client(ctx) as client:
        found = client.search_counts(query)
    if as_json:
        click.echo(found.model_dump_json(indent=2))
        return
    for entry in found.counts:
        click.echo("  ".join(p for p in (entry.section_id, entry.title, str(entry.count)) if p))
    click.echo(f"{found.total} hits of {found.query}", err=True)


@library.command()
@click.argument("query")
@click.option("--root", "roots", multiple=True, metavar="ID", help="Start from this id.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.pass_context
def find(ctx: click.Context, query: str, roots: tuple[str, ...], as_json: bool) -> None:
    """Find works and sections by title, e.g. libtext library find "תניא פרק לב"."""
    with _client(ctx) as client:
        found = client.nav_search(query, roots=list(roots) or None)
    if as_json:
        click.echo(found.model_dump_json(indent=2))
        return
    for hit in found.results:
        click.echo(f"{hit.id}  {' / '.join(hit.path)}")
    if not found.results:
        click.echo("no title matched (try fewer words, or 'libtext library search')", err=True)


@library.command()
@click.argument("node_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the node as JSON.")
@click.pass_context
def show(ctx: click.Context, node_id: str, as_json: bool) -> None:
    """Show a section's contents or a page's text and notes."""
    with _client(ctx) as client:
        node = client.get_node(node_id)
    if as_json:
        click.echo(node.model_dump_json(indent=2))
        return
    if isinstance(node, LibrarySection):
        click.echo(f"{node.id}  {node.title}".rstrip())
        for child in node.children:
            click.echo(f"  {child.id}  {child.heading}")
        return
    if node.heading_path:
        click.echo(" / ".join(node.heading_path))
        click.echo("")
    click.echo(node.text)
    if node.footnotes:
        click.echo("")
        for note in node.footnotes:
            click.echo(f"[{note.marker}] {note.content}")


@library.command()
@click.argument("work_id", metavar="ID")
@click.option("--max-pages", type=click.IntRange(min=1), default=None, help="Stop after N pages.")
@click.option(
    "--resume-after",
    metavar="ID[/ID...]",
    default=None,
    help="Continue after this page (its id, or the id path printed by a stopped fetch).",
)
@store_url_option("Save the document in this TextStore database (e.g. sqlite:///texts.db).")
@output_option(
    "Write the document's JSON here (default: stdout, unless --store).",
    type=click.Path(dir_okay=False, path_type=Path),
)
@click.pass_context
def fetch(
    ctx: click.Context,
    work_id: str,
    max_pages: int | None,
    resume_after: str | None,
    store_url: str | None,
    output: Path | None,
) -> None:
    """Read a work and turn it into a ProcessedDocument (JSON, or saved with --store)."""
    from libtext.cli.process_cmd import open_store

    # Where the result goes is checked first: a long, polite fetch is not thrown away.
    if output is not None and not output.resolve().parent.is_dir():
        raise click.ClickException(
            f"cannot write {output}: the folder {output.parent} does not exist; create it "
            "or pick another -o path."
        )
    store = open_store(store_url) if store_url else None
    try:
        with _client(ctx) as client:
            work = client.get_work(work_id, max_pages=max_pages, resume_after=_resume(resume_after))
            document = client.to_document(work)
        if store is not None:
            item = store.save(document)
            click.echo(f"saved {item.slug} ({work.page_count} pages)")
    finally:
        if store is not None:
            store.close()
    if output is not None:
        output.write_text(document.model_dump_json(indent=2), encoding="utf-8")
        click.echo(f"wrote {output} ({work.page_count} pages)", err=True)
    elif not store_url:
        click.echo(document.model_dump_json(indent=2))
    if work.truncated and work.pages:
        resume = "/".join(work.pages[-1].path_ids) or work.pages[-1].id
        click.echo(
            f"stopped after {work.page_count} pages; continue with: "
            f"libtext library fetch {work.work_id} --resume-after {resume}",
            err=True,
        )


@library.command("process")
@click.argument("root_id", metavar="ROOT_ID")
@click.option("--redo", is_flag=True, help="Process works already stored again.")
@provider_option(
    "Outline and translate with 'offline' or a litellm model such as 'openai/gpt-4o-mini'."
)
@click.option(
    "--concurrency",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help="Jobs this command runs at once while it follows them (0: run none here; "
    "libtext worker or libtext serve runs them).",
)
@click.option(
    "--max-pages", type=click.IntRange(min=1), default=None, help="Pages read per work at most."
)
@click.option("--detach", is_flag=True, help="Only enqueue the jobs, then return.")
@click.option("--no-progress", is_flag=True, help="No progress bar; one line per finished work.")
@store_option
@click.pass_context
def process(
    ctx: click.Context,
    root_id: str,
    redo: bool,
    provider: str,
    concurrency: int,
    max_pages: int | None,
    detach: bool,
    no_progress: bool,
    store_url: str | None,
) -> None:
    """Process every work under the library node ROOT_ID as jobs, one per work.

    Works already stored are skipped (unless --redo), and so are works whose job is
    already queued or running: stop with Ctrl-C and run the same command again to go
    on where it stopped. Follows the jobs with one progress bar over all of them and a
    line per job, running --concurrency of them here.
    """
    from libtext.cli._follow import follow_tree

    with open_queue(store_url) as queue, _client(ctx) as client:
        follow_tree(
            queue,
            client,
            root_id,
            redo=redo,
            provider=provider,
            max_pages=max_pages,
            concurrency=0 if detach else concurrency,
            follow=not detach,
            progress=not no_progress,
        )
