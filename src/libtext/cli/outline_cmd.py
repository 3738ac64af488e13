"""``libtext outline`` and ``libtext extract``: a PDF's outline or its pages.

Hebrew in tables is printed in logical order (what a terminal with bidi support,
and any copy-paste, expects) and right-justified, as Hebrew is read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from libtext.cli._options import format_option

if TYPE_CHECKING:
    from rich.table import Table

    from libtext.models import DocumentOutline, ExtractedDocument, OutlineComparison

__all__ = ["extract", "outline", "password_option", "read_pdf"]

_PHRASE_CHARS = 60

password_option = click.option(
    "--password",
    metavar="TEXT",
    default=None,
    help="The password of an encrypted PDF.",
)


@contextmanager
def _password_hint(file: str, password: str | None) -> Iterator[None]:
    """Say how to give the password from the shell (the library's message names the API)."""
    from libtext.errors import EncryptedPDFError

    try:
        yield
    except EncryptedPDFError as exc:
        if password is not None:
            raise
        raise EncryptedPDFError(
            f"{Path(file).name or file} is encrypted and needs a password: "
            "give it with --password.",
            details=exc.details,
        ) from None


def read_pdf(file: str, password: str | None, max_pages: int | None = None) -> ExtractedDocument:
    """The PDF's :class:`ExtractedDocument`, with its password and a shell-worded hint."""
    from libtext.pdf import extract_pdf

    with _password_hint(file, password):
        return extract_pdf(file, password=password, pages=range(max_pages) if max_pages else None)


def _dump(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _print_table(table: Table) -> None:
    from rich.console import Console

    # Wide enough for Hebrew phrases even when stdout is not a terminal.
    console = Console(width=None)
    if not console.is_terminal:
        console = Console(width=160)
    console.print(table)


def _short(text: str, limit: int = _PHRASE_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _outline_table(result: DocumentOutline, name: str) -> Table:
    from rich.table import Table

    meta = result.source_metadata
    title = " — ".join(v for v in (meta.work_title, meta.author_name, meta.publication_title) if v)
    table = Table(title=title or name, caption=f"provider: {name}", show_lines=False)
    table.add_column("seq", justify="right")
    table.add_column("page", justify="right")
    table.add_column("chapter", justify="right", overflow="fold")
    titles = [
        s.segment_title if s.segment_title != s.chapter_title else ""
        for s in result.outline_segments
    ]
    if any(titles):  # no column that would stay empty
        table.add_column("title", justify="right", overflow="fold")
    table.add_column("start phrase", justify="right", overflow="fold")
    table.add_column("end phrase", justify="right", overflow="fold")
    for seg, segment_title in zip(result.outline_segments, titles, strict=True):
        table.add_row(
            str(seg.sequence_id),
            seg.page_ref,
            seg.chapter_title,
            *([segment_title] if any(titles) else []),
            _short(seg.start_phrase_hebrew),
            _short(seg.end_phrase_hebrew),
        )
    return table


def _comparison_table(result: OutlineComparison) -> Table:
    from rich.table import Table

    scores: dict[str, list[str]] = {}
    for pair in result.agreement:
        scores.setdefault(pair.a, []).append(f"{pair.b}: {pair.score:.0%}")
        scores.setdefault(pair.b, []).append(f"{pair.a}: {pair.score:.0%}")
    table = Table(title=result.source_metadata.work_title or "comparison")
    table.add_column("provider")
    table.add_column("latency", justify="right")
    table.add_column("segments", justify="right")
    table.add_column("tokens in/out", justify="right")
    table.add_column("grounding", justify="right")
    table.add_column("agreement (start pages ±1)")
    for outcome in result.results:
        if outcome.outline is None:
            error = outcome.error.message if outcome.error else "failed"
            table.add_row(outcome.provider, f"{outcome.latency_s:.2f}s", "-", "-", "-", error)
            continue
        tokens = (
            f"{outcome.tokens_in}/{outcome.tokens_out}"
            if outcome.tokens_in is not None or outcome.tokens_out is not None
            else "-"
        )
        g = outcome.grounding
        grounding = f"{g.exact} exact, {g.repaired} fixed, {g.dropped} dropped" if g else "-"
        table.add_row(
            outcome.provider,
            f"{outcome.latency_s:.2f}s",
            str(len(outcome.outline.outline_segments)),
            tokens,
            grounding,
            ", ".join(scores.get(outcome.provider, [])) or "-",
        )
    return table


@click.command()
@click.argument("file", type=str)
@click.option(
    "--provider",
    "-p",
    "providers",
    multiple=True,
    help="'offline' (default) or a litellm model such as 'openai/gpt-4o-mini'. "
    "Repeat to compare providers.",
)
@format_option("json", "table", help="JSON, or a table for reading.")
@click.option("--max-pages", type=click.IntRange(min=1), help="Outline only the first N pages.")
@password_option
def outline(
    file: str,
    providers: tuple[str, ...],
    fmt: str,
    max_pages: int | None,
    password: str | None,
) -> None:
    """Outline FILE (a PDF): its chapters, pages and start/end phrases.

    With several --provider options, prints their comparison instead.
    """
    from libtext.outline import Outliner

    outliner = Outliner(providers=providers or ("offline",), max_pages=max_pages)
    source = read_pdf(file, password, max_pages)
    if len(outliner.providers) > 1:
        comparison = outliner.compare(source)
        if fmt == "table":
            _print_table(_comparison_table(comparison))
        else:
            _dump(comparison.model_dump(mode="json"))
        return
    result = outliner.outline(source)
    if fmt == "table":
        _print_table(_outline_table(result, outliner.provider_names[0]))
    else:
        _dump(result.model_dump(mode="json"))


def _page_text(doc: ExtractedDocument) -> str:
    parts = []
    for page in doc.pages:
        block = f"=== page {page.number} ===\n{page.text}"
        if page.footnote_text:
            block += f"\n---\n{page.footnote_text}"
        parts.append(block)
    return "\n\n".join(parts)


@click.command()
@click.argument("file", type=str)
@format_option(
    "json",
    "text",
    default="text",
    help="Plain text per page, or JSON with every line's layout role.",
)
@click.option("--max-pages", type=click.IntRange(min=1), help="Read only the first N pages.")
@password_option
def extract(file: str, fmt: str, max_pages: int | None, password: str | None) -> None:
    """Extract FILE's (a PDF's) pages as logical-order Hebrew text."""
    doc = read_pdf(file, password, max_pages)
    if fmt == "json":
        _dump(doc.model_dump(mode="json"))
    else:
        click.echo(_page_text(doc))
