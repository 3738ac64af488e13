"""``libtext process`` and ``libtext translate``: a whole document, or one passage.

``process`` shows a rich progress bar on stderr (stdout stays clean for JSON) and, when
the job is interrupted, saves nothing. ``translate`` prints the phrases of one passage.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from libtext.cli import _extras
from libtext.cli._options import format_option, provider_option, store_url_option
from libtext.cli.outline_cmd import _password_hint, password_option
from libtext.models import ProcessedDocument

if TYPE_CHECKING:
    from libtext.models import TranslatedSegment
    from libtext.store import TextStore

__all__ = ["process", "translate"]

_STAGES = {
    "extract": "Reading the PDF",
    "outline": "Outlining",
    "section": "Cutting sections",
    "translate": "Translating sections",
    "save": "Saving",
}


def _dump(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    console = Console(stderr=stderr)
    if not console.is_terminal and not stderr:
        console = Console(width=160)
    return console


def _glossary(path: str | None) -> dict[str, str]:
    if path is None:
        return {}
    from libtext.errors import InvalidInputError

    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as exc:
        raise InvalidInputError(
            f"Cannot read the glossary {path}: {exc}. Give a JSON object of "
            '{"hebrew term": "English"}.'
        ) from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise InvalidInputError(
            f'The glossary {path} must be a JSON object of {{"hebrew term": "English"}}.'
        )
    return data


def open_store(url: str | None) -> TextStore:
    """The store at ``url``, opened (tables made) now, so a bad URL fails before the work."""
    return _extras.open_store(url)


def _summary(doc: ProcessedDocument, slug: str | None) -> None:
    from rich.table import Table

    meta = doc.source_metadata
    title = " — ".join(v for v in (meta.work_title, meta.author_name) if v) or "document"
    table = Table(title=title, caption=f"slug: {slug}" if slug else None)
    table.add_column("seq", justify="right")
    table.add_column("page", justify="right")
    table.add_column("title", justify="right")
    table.add_column("chars", justify="right")
    table.add_column("phrases", justify="right")
    table.add_column("translated", justify="right")
    table.add_column("notes", justify="right")
    errors = any(s.error for s in doc.sections)
    if errors:  # no column that would stay empty
        table.add_column("error")
    for s in doc.sections:
        english = sum(1 for d in s.translation_data if d.english_translation)
        table.add_row(
            str(s.sequence_id),
            s.page_ref,
            s.segment_title or s.chapter_title,
            str(len(s.original_hebrew_block)),
            str(len(s.translation_data)),
            f"{english}/{len(s.translation_data)}",
            str(len(s.footnotes)),
            *([s.error or ""] if errors else []),
        )
    _console().print(table)


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@provider_option(
    "Outline and translate with 'offline' or a litellm model such as 'openai/gpt-4o-mini'."
)
@store_url_option(
    "Save to this database URL (e.g. sqlite:///texts.db); default LIBTEXT_DATABASE_URL."
)
@click.option("--no-store", is_flag=True, help="Do not save, even when a store is configured.")
@click.option(
    "--save-partial",
    is_flag=True,
    help="Save the text even when some sections could not be translated (they keep their "
    "Hebrew, phrase split and links).",
)
@format_option(
    "json",
    "summary",
    default="summary",
    help="The whole document as JSON, or a table of its sections.",
)
@click.option("--concurrency", type=click.IntRange(1, 64), default=4, show_default=True)
@click.option("--glossary", type=click.Path(exists=True, dir_okay=False), help="JSON glossary.")
@click.option("--no-cache", is_flag=True, help="Do not read or write cached provider answers.")
@click.option("--no-progress", is_flag=True, help="No progress bar on stderr.")
@click.option(
    "--queue",
    "queue_it",
    is_flag=True,
    help="Queue it as a job in the store's database and return at once; libtext worker "
    "or libtext serve runs it (see libtext jobs).",
)
@password_option
def process(
    file: str,
    provider: str,
    store_url: str | None,
    no_store: bool,
    save_partial: bool,
    fmt: str,
    concurrency: int,
    glossary: str | None,
    no_cache: bool,
    no_progress: bool,
    queue_it: bool,
    password: str | None,
) -> None:
    """Outline, translate and save a PDF (to --store, else LIBTEXT_DATABASE_URL when set)."""
    if queue_it:
        _enqueue(
            file,
            provider,
            store_url,
            no_store=no_store,
            glossary=glossary,
            password=password,
            save_partial=save_partial,
        )
        return
    import anyio
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from libtext.outline import Outliner
    from libtext.pdf import aextract_pdf
    from libtext.process import aprocess_document, check_failures
    from libtext.translate import Translator

    outliner = Outliner(providers=[provider])
    translator = Translator(provider=provider, glossary=_glossary(glossary))
    # A wrong URL or an unwritable folder fails now, not after the whole job.
    save = not no_store and _extras.store_configured(store_url)
    store = open_store(store_url) if save else None
    console = _console(stderr=True)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        # Not on a pipe or a log file: there a bar is noise (and leaves a blank line).
        disable=no_progress or not console.is_terminal,
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def report(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = progress.add_task(_STAGES.get(stage, stage), total=max(total, 1))
        progress.update(tasks[stage], completed=done, total=max(total, 1))

    async def run() -> ProcessedDocument:
        report("extract", 0, 1)
        with _password_hint(file, password):
            source = await aextract_pdf(file, password=password)
        return await aprocess_document(
            source,
            outliner=outliner,
            translator=translator,
            cache=False if no_cache else None,
            concurrency=concurrency,
            progress=report,
        )

    slug = None
    try:
        try:
            with progress:
                # The CLI owns its event loop: Ctrl-C cancels every task; nothing is saved.
                doc = anyio.run(run)
        except KeyboardInterrupt:
            click.echo("interrupted: nothing was saved", err=True)
            sys.exit(130)
        if store is not None:
            check_failures(doc, saving=True, save_partial=save_partial, provider=provider)
            slug = store.save(doc).slug
    finally:
        if store is not None:
            store.close()
    failed = [s.sequence_id for s in doc.sections if s.error]
    if fmt == "json":
        _dump(doc.model_dump(mode="json"))
    else:
        _summary(doc, slug)
    if store is not None:
        click.echo(f"saved as {slug} in {store.url}", err=True)
    elif not no_store:
        from libtext._wording import install_hint

        extra = "" if _extras.has_store_extra() else f"{install_hint('store')}, then "
        click.echo(
            f"not saved: to keep it, {extra}give --store URL or set LIBTEXT_DATABASE_URL.",
            err=True,
        )
    if provider.strip().lower() == "offline" and fmt == "summary":
        # Why "translated 0/17": offline English covers only what the linker knows.
        click.echo(
            "note: the offline provider translates only citations it recognises; for "
            "English of every phrase use --provider with a model, e.g. "
            "--provider openai/gpt-4o-mini (and OPENAI_API_KEY).",
            err=True,
        )
    if failed:
        click.echo(
            f"warning: {len(failed)} section(s) not translated ({failed}); their Hebrew is kept.",
            err=True,
        )


def _enqueue(
    file: str,
    provider: str,
    store_url: str | None,
    *,
    no_store: bool,
    glossary: str | None,
    password: str | None,
    save_partial: bool = False,
) -> None:
    """``process --queue``: the PDF as a job; a worker outlines, translates and saves it."""
    from libtext.cli._jobs import open_queue

    unsupported = [
        flag
        for flag, given in (
            ("--no-store", no_store),
            ("--glossary", glossary),
            ("--password", password),
        )
        if given
    ]
    if unsupported:
        raise click.UsageError(
            f"{', '.join(unsupported)} cannot be used with --queue: a queued job is saved "
            "to the store, and workers read it as it is; run without --queue instead."
        )
    with open_queue(store_url) as queue:
        job = queue.submit(file, provider=provider, save_partial=save_partial)
    click.echo(job.id)
    click.echo(
        f"queued {job.filename or file} as job {job.id}; follow it with: libtext jobs show "
        f"{job.id} --follow (libtext worker or libtext serve runs it)",
        err=True,
    )


def _phrase_table(seg: TranslatedSegment) -> None:
    from rich.table import Table

    table = Table(caption=f"provider: {seg.provider}" + ("" if seg.complete else " (incomplete)"))
    table.add_column("Hebrew", justify="right", overflow="fold")
    table.add_column("English", overflow="fold")
    table.add_column("Sefaria", overflow="fold")
    for d in seg.translation_data:
        table.add_row(d.hebrew_phrase, d.english_translation, d.sefaria_link)
    console = _console()
    console.print(table)
    for note in seg.notes:
        console.print(f"note: {note}")


@click.command()
@click.argument("text")
@provider_option("'offline' or a litellm model such as 'openai/gpt-4o-mini'.")
@format_option("json", "table", default="table")
@click.option("--glossary", type=click.Path(exists=True, dir_okay=False), help="JSON glossary.")
def translate(text: str, provider: str, fmt: str, glossary: str | None) -> None:
    """Translate one Hebrew passage phrase by phrase ('-' reads it from stdin)."""
    from libtext.translate import Translator

    if text == "-":
        text = sys.stdin.read().strip()
    if not text.strip():
        raise click.UsageError(
            "TEXT is empty: give a Hebrew passage, or '-' to read it from stdin."
        )
    result = Translator(provider=provider, glossary=_glossary(glossary)).translate(text)
    if fmt == "json":
        _dump(result.model_dump(mode="json"))
    else:
        _phrase_table(result)
