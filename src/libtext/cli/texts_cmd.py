"""``libtext texts``: list, show, delete, and review the history of stored texts."""

from __future__ import annotations

import click

from libtext.models import ProcessedDocument, format_utc
from libtext.store import DEFAULT_PAGE_SIZE, ENV_VAR, TextStore

__all__ = ["texts"]

_store_option = click.option(
    "--store",
    "store_url",
    metavar="URL",
    default=None,
    help=f"Database URL of the store (default: {ENV_VAR}, else texts.db in the user data "
    "directory).",
)


@click.group()
def texts() -> None:
    """The stored texts: list them, show one, delete one, see and revert its history."""


@texts.command("list")
@click.option("--page", default=1, show_default=True, type=int, help="1-based page number.")
@click.option(
    "--page-size", default=DEFAULT_PAGE_SIZE, show_default=True, type=int, help="1 to 100."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@_store_option
def list_texts(page: int, page_size: int, fmt: str, store_url: str | None) -> None:
    """List the stored texts, newest first."""
    with TextStore(store_url) as store:
        result = store.list(page=page, page_size=page_size)
    if fmt == "json":
        click.echo(result.model_dump_json(indent=2))
        return
    for item in result.texts:
        titles = " / ".join(t for t in (item.publication_title, item.work_title) if t)
        click.echo(
            f"{item.slug}\t{format_utc(item.created_at)}\t{titles}\t({item.page_count} pages)"
        )
    info = result.pagination
    click.echo(f"page {info.page} of {info.total_pages}, {info.total} texts", err=True)


@texts.command("show")
@click.argument("slug")
@click.option(
    "--format", "fmt", type=click.Choice(["json", "text"]), default="json", show_default=True
)
@click.option(
    "--include-source-ids",
    is_flag=True,
    help="Keep the online library's work and page ids (hidden by default, as over HTTP).",
)
@click.option(
    "--revision",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Show revision N (see 'libtext texts history'); default the current one.",
)
@_store_option
def show(
    slug: str, fmt: str, include_source_ids: bool, revision: int | None, store_url: str | None
) -> None:
    """Print the stored text SLUG: the whole document as JSON, or readable text."""
    with TextStore(store_url) as store:
        document = store.get(slug, include_source_ids=include_source_ids, revision=revision)
    click.echo(document.model_dump_json(indent=2) if fmt == "json" else _as_text(document))


@texts.command("delete")
@click.argument("slug")
@_store_option
def delete(slug: str, store_url: str | None) -> None:
    """Delete the stored text SLUG."""
    with TextStore(store_url) as store:
        store.delete(slug)
    click.echo(f"deleted {slug}")


@texts.command("history")
@click.argument("slug")
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@_store_option
def history(slug: str, fmt: str, store_url: str | None) -> None:
    """List the revisions of the stored text SLUG, oldest first."""
    with TextStore(store_url) as store:
        result = store.revisions(slug)
    if fmt == "json":
        click.echo(result.model_dump_json(indent=2))
        return
    for rev in result.revisions:
        what = rev.change + (f" to {rev.reverted_to}" if rev.reverted_to else "")
        if rev.sections:
            what += " (sections " + ", ".join(str(s) for s in rev.sections) + ")"
        mark = " *" if rev.number == result.revision else ""
        by = rev.author or "-"
        click.echo(f"{rev.number}{mark}\t{format_utc(rev.created_at)}\t{by}\t{what}")


@texts.command("revert")
@click.argument("slug")
@click.argument("revision", type=click.IntRange(min=1))
@click.option("--author", default=None, help="Who reverts, kept in the history.")
@_store_option
def revert(slug: str, revision: int, author: str | None, store_url: str | None) -> None:
    """Make REVISION of the stored text SLUG current again, as a new revision."""
    with TextStore(store_url) as store:
        made = store.revert(slug, revision, author=author)
    click.echo(f"{slug}: revision {made.number} restores revision {revision}")


def _as_text(document: ProcessedDocument) -> str:
    meta = document.source_metadata
    lines = [" / ".join(t for t in (meta.publication_title, meta.work_title) if t)]
    if meta.author_name:
        lines.append(meta.author_name)
    lines.append(f"{document.page_count} pages, {len(document.sections)} sections")
    for section in document.sections:
        parts = (section.chapter_number, section.chapter_title, section.segment_title)
        # "1 - פרק א", not "1 - פרק א - פרק א" when the segment is the whole chapter.
        heading = " - ".join(t for i, t in enumerate(parts) if t and t not in parts[:i])
        page = f" (p. {section.page_ref})" if section.page_ref else ""
        title = f"## {section.sequence_id}. {heading}{page}".rstrip(" .")
        lines += ["", title, section.original_hebrew_block]
        for phrase in section.translation_data:
            link = f" <{phrase.sefaria_link}>" if phrase.sefaria_link else ""
            lines.append(f"  - {phrase.hebrew_phrase_expanded}: {phrase.english_translation}{link}")
        for note in section.footnotes:
            lines.append(f"  [{note.marker}] {note.content}")
            if note.translation:
                lines.append(f"      {note.translation}")
        if section.error:
            lines.append(f"  (translation failed: {section.error})")
    return "\n".join(lines)
