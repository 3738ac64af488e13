"""``libtext texts``: list, show, delete, and review the history of stored texts."""

from __future__ import annotations

import json
import sys
from typing import IO, TYPE_CHECKING, Any

import click

from libtext.cli._extras import STORE_ENV, open_store
from libtext.cli._options import format_option, output_option, revision_option, store_url_option

if TYPE_CHECKING:
    from libtext.models import ProcessedDocument, TranslationData

__all__ = ["texts"]

_PAGE_SIZE = 20  # TextStore's DEFAULT_PAGE_SIZE; not imported so --help needs no SQLModel

_store_option = store_url_option(
    f"Database URL of the store (default: {STORE_ENV}, else texts.db in the user data directory).",
)


@click.group()
def texts() -> None:
    """The stored texts: list them, show one, delete one; review one (history, diff, edit,
    revert)."""


@texts.command("list")
@click.option("--page", default=1, show_default=True, type=int, help="1-based page number.")
@click.option("--page-size", default=_PAGE_SIZE, show_default=True, type=int, help="1 to 100.")
@format_option("text", "json")
@_store_option
def list_texts(page: int, page_size: int, fmt: str, store_url: str | None) -> None:
    """List the stored texts, newest first."""
    from libtext.models import format_utc

    with open_store(store_url) as store:
        result = store.list(page=page, page_size=page_size)
        where = store.url  # password masked
    if fmt == "json":
        click.echo(result.model_dump_json(indent=2))
        return
    for item in result.texts:
        titles = " / ".join(t for t in (item.publication_title, item.work_title) if t)
        pages = _plural(item.page_count, "page")
        # No title column when the source had none: slug, date, pages.
        fields = [item.slug, format_utc(item.created_at), *([titles] if titles else []), pages]
        click.echo("\t".join(fields))
    info = result.pagination
    click.echo(
        f"page {info.page} of {max(info.total_pages, 1)}, {_plural(info.total, 'text')} in {where}",
        err=True,
    )


@texts.command("show")
@click.argument("slug")
@format_option("json", "text")
@click.option(
    "--include-source-ids",
    is_flag=True,
    help="Keep the online library's work and page ids (hidden by default, as over HTTP).",
)
@revision_option("Show")
@_store_option
def show(
    slug: str, fmt: str, include_source_ids: bool, revision: int | None, store_url: str | None
) -> None:
    """Print the stored text SLUG: the whole document as JSON, or readable text."""
    with open_store(store_url) as store:
        document = store.get(slug, include_source_ids=include_source_ids, revision=revision)
    click.echo(document.model_dump_json(indent=2) if fmt == "json" else _as_text(document))


@texts.command("export")
@click.argument("slug")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["docx", "epub", "md", "tei", "html"]),
    required=True,
    help="docx (Word), epub (e-book), md (Markdown), tei (TEI P5 XML) or html (reader page).",
)
@output_option(
    "File to write (default: standard output).",
    type=click.Path(dir_okay=False, writable=True),
)
@click.option(
    "--layout",
    type=click.Choice(["side-by-side", "interleaved"]),
    default="side-by-side",
    show_default=True,
    help="Hebrew and English in two columns, or each phrase then its English.",
)
@revision_option("Export")
@_store_option
def export_text(
    slug: str,
    fmt: str,
    output: str | None,
    layout: str,
    revision: int | None,
    store_url: str | None,
) -> None:
    """Write the stored text SLUG as a DOCX, EPUB, Markdown, TEI or HTML file."""
    with open_store(store_url) as store:
        if output is None:
            stdout = sys.stdout.buffer
            store.export(slug, fmt, stdout, revision=revision, layout=layout)
            stdout.flush()
            return
        store.export(slug, fmt, output, revision=revision, layout=layout)
    click.echo(f"wrote {output}", err=True)


@texts.command("delete")
@click.argument("slug")
@_store_option
def delete(slug: str, store_url: str | None) -> None:
    """Delete the stored text SLUG."""
    with open_store(store_url) as store:
        store.delete(slug)
    click.echo(f"deleted {slug}")


@texts.command("history")
@click.argument("slug")
@format_option("text", "json")
@_store_option
def history(slug: str, fmt: str, store_url: str | None) -> None:
    """List the revisions of the stored text SLUG, oldest first."""
    from libtext.models import format_utc

    with open_store(store_url) as store:
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
    with open_store(store_url) as store:
        made = store.revert(slug, revision, author=author)
    click.echo(f"{slug}: revision {made.number} restores revision {revision}")


@texts.command("diff")
@click.argument("slug")
@click.argument("from_revision", metavar="FROM", type=click.IntRange(min=1))
@click.argument("to_revision", metavar="[TO]", type=click.IntRange(min=1), required=False)
@format_option("text", "json")
@_store_option
def diff(
    slug: str, from_revision: int, to_revision: int | None, fmt: str, store_url: str | None
) -> None:
    """What differs from revision FROM to TO (default: the current one) of the text SLUG,
    section by section and phrase by phrase."""
    with open_store(store_url) as store:
        result = store.diff(slug, from_revision=from_revision, to_revision=to_revision)
    if fmt == "json":
        click.echo(result.model_dump_json(indent=2))
        return
    click.echo(f"{slug}: revision {result.from_revision} -> {result.to_revision}")
    if result.metadata_changed:
        click.echo("titles or author changed")
    if not result.sections and not result.metadata_changed:
        click.echo("no difference")
    for section in result.sections:
        fields = f": {', '.join(section.fields)}" if section.fields else ""
        click.echo(f"section {section.sequence_id} {section.change}{fields}")
        for phrase in section.phrases:
            if phrase.before is not None:
                click.echo(f"  - [{phrase.index}] {_phrase_line(phrase.before)}")
            if phrase.after is not None:
                click.echo(f"  + [{phrase.index}] {_phrase_line(phrase.after)}")


def _phrase_line(phrase: TranslationData) -> str:
    link = f" <{phrase.sefaria_link}>" if phrase.sefaria_link else ""
    return f"{phrase.hebrew_phrase} = {phrase.english_translation or '(no English)'}{link}"


@texts.command("edit")
@click.argument("slug")
@click.argument("sequence_id", metavar="N", type=int)
@click.option("--title", "chapter_title", default=None, help="The section's new chapter title.")
@click.option("--segment-title", default=None, help="The section's new segment title.")
@click.option(
    "--translation-file",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help="JSON list of the section's phrases ({hebrew_phrase, english_translation, "
    "sefaria_link}), covering its Hebrew in order; a phrase without hebrew_phrase keeps "
    "the Hebrew of the phrase at its place. '-' reads standard input.",
)
@click.option(
    "--footnotes-file",
    type=click.File("r", encoding="utf-8"),
    default=None,
    help="JSON list of the section's footnotes ({marker, content, translation}).",
)
@click.option(
    "--if-revision",
    type=click.IntRange(min=1),
    default=None,
    metavar="R",
    help="Refuse the edit unless the text is still at revision R (as 'history' showed it).",
)
@click.option("--author", default=None, help="Who edits, kept in the history.")
@format_option("text", "json")
@_store_option
def edit(
    slug: str,
    sequence_id: int,
    chapter_title: str | None,
    segment_title: str | None,
    translation_file: IO[str] | None,
    footnotes_file: IO[str] | None,
    if_revision: int | None,
    author: str | None,
    fmt: str,
    store_url: str | None,
) -> None:
    """Edit section N of the stored text SLUG, as its next revision."""
    translation = _json_list(translation_file, "--translation-file")
    footnotes = _json_list(footnotes_file, "--footnotes-file")
    if (
        chapter_title is None
        and segment_title is None
        and translation is None
        and (footnotes is None)
    ):
        raise click.UsageError(
            "Nothing to edit: give --title, --segment-title, --translation-file or "
            "--footnotes-file."
        )
    with open_store(store_url) as store:
        result = store.edit_section(
            slug,
            sequence_id,
            chapter_title=chapter_title,
            segment_title=segment_title,
            translation_data=translation,
            footnotes=footnotes,
            expected_revision=if_revision,
            author=author,
        )
    if fmt == "json":
        click.echo(result.model_dump_json(indent=2))
        return
    notes = " ".join(result.section.notes) or "complete"
    click.echo(f"{slug}: revision {result.revision.number} edits section {sequence_id} ({notes})")


def _json_list(file: IO[str] | None, option: str) -> list[Any] | None:
    if file is None:
        return None
    try:
        value = json.loads(file.read())
    except ValueError as exc:
        raise click.BadParameter(f"not JSON ({exc})", param_hint=option) from None
    if not isinstance(value, list):
        raise click.BadParameter("must be a JSON list", param_hint=option)
    return value


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def _as_text(document: ProcessedDocument) -> str:
    meta = document.source_metadata
    lines = [" / ".join(t for t in (meta.publication_title, meta.work_title) if t)]
    if meta.author_name:
        lines.append(meta.author_name)
    lines.append(
        f"{_plural(document.page_count, 'page')}, {_plural(len(document.sections), 'section')}"
    )
    for section in document.sections:
        # "## 1. פרק א (p. 1)": the chapter's number only when it has no title, and the
        # segment's title only when it is not the chapter's.
        chapter = section.chapter_title or (
            f"chapter {section.chapter_number}" if section.chapter_number else ""
        )
        parts = (chapter, section.segment_title)
        heading = " — ".join(t for i, t in enumerate(parts) if t and t not in parts[:i])
        page = f" (p. {section.page_ref})" if section.page_ref else ""
        title = f"## {section.sequence_id}. {heading}".rstrip(" .") + page
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
