"""Review on every surface: show a revision, history, diff, edit and revert from Python,
the CLI and HTTP. Before, the CLI could not edit, HTTP could not revert and nothing diffed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("sqlmodel")

from click.testing import CliRunner

from libtext import errors
from libtext.cli import cli
from libtext.models import (
    ProcessedDocument,
    Section,
    TextDiff,
    TextRevision,
    TranslationData,
)
from libtext.store import TextStore

WORDS = ["בראשית", "ברא", "אלהים"]


def three_phrases() -> ProcessedDocument:
    return ProcessedDocument(
        sections=[
            Section(
                sequence_id=1,
                chapter_title="פרק א",
                original_hebrew_block=" ".join(WORDS),
                translation_data=[TranslationData(hebrew_phrase=w) for w in WORDS],
            ),
            Section(sequence_id=2, original_hebrew_block="שלום"),
        ]
    )


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'texts.db'}"


@pytest.fixture
def slug(url: str) -> str:
    with TextStore(url) as store:
        return store.save(three_phrases()).slug


def test_python_diff_section_by_section_phrase_by_phrase(url: str, slug: str) -> None:
    with TextStore(url) as store:
        english = [{"english_translation": "In the beginning"}, {}, {}]
        store.edit_section(slug, 1, translation_data=english, chapter_title="פרק ראשון")
        resplit = [
            {"hebrew_phrase": "בראשית ברא", "english_translation": "In the beginning created"},
            {"hebrew_phrase": "אלהים", "english_translation": "God"},
        ]
        store.edit_section(slug, 1, translation_data=resplit)
        first = store.diff(slug, from_revision=1, to_revision=2)
        second = store.diff(slug, from_revision=2)  # to the current one
        same = store.diff(slug, from_revision=3, to_revision=3)
        with pytest.raises(errors.NotFoundError):
            store.diff(slug, from_revision=9)
    assert isinstance(first, TextDiff) and (first.from_revision, first.to_revision) == (1, 2)
    [section] = first.sections
    assert section.sequence_id == 1 and "chapter_title" in section.fields
    assert [(p.change, p.index) for p in section.phrases] == [("changed", 0)]
    assert section.phrases[0].after is not None
    assert section.phrases[0].after.english_translation == "In the beginning"
    changes = [(p.change, p.index) for p in second.sections[0].phrases]
    assert ("removed", 0) in changes and ("removed", 1) in changes and ("added", 0) in changes
    assert ("changed", 1) in changes  # אלהים kept its place in the Hebrew, got English
    assert second.to_revision == 3 and same.sections == []


def test_cli_edit_diff_and_if_revision(url: str, slug: str, tmp_path: Path) -> None:
    runner = CliRunner()
    phrases = tmp_path / "phrases.json"
    phrases.write_text(
        json.dumps([{"english_translation": w} for w in ("In the beginning", "created", "God")]),
        encoding="utf-8",
    )
    base = ["--store", url]
    edited = runner.invoke(
        cli,
        [
            *("texts", "edit", slug, "1", "--title", "פרק ראשון"),
            *("--translation-file", str(phrases), "--if-revision", "1", "--author", "me", *base),
        ],
    )
    assert edited.exit_code == 0, edited.output
    assert "revision 2 edits section 1 (complete)" in edited.stdout
    stale = runner.invoke(
        cli, ["texts", "edit", slug, "1", "--title", "x", "--if-revision", "1", *base]
    )
    assert stale.exit_code != 0 and "Traceback" not in stale.output
    assert "revision" in stale.stderr
    short = tmp_path / "short.json"
    short.write_text(json.dumps([{"hebrew_phrase": "בראשית"}]), encoding="utf-8")
    dropped = runner.invoke(cli, ["texts", "edit", slug, "1", "--translation-file", str(short)])
    assert dropped.exit_code != 0 and "Traceback" not in dropped.output
    nothing = runner.invoke(cli, ["texts", "edit", slug, "1", *base])
    assert nothing.exit_code == 2 and "Nothing to edit" in nothing.output

    shown = runner.invoke(cli, ["texts", "diff", slug, "1", *base])
    assert shown.exit_code == 0, shown.output
    assert "revision 1 -> 2" in shown.stdout
    assert "section 1 changed: chapter_title" in shown.stdout
    assert "+ [2] אלהים = God" in shown.stdout and "- [2] אלהים = (no English)" in shown.stdout
    as_json = runner.invoke(cli, ["texts", "diff", slug, "1", "2", "--format", "json", *base])
    assert TextDiff.model_validate_json(as_json.stdout).sections[0].sequence_id == 1
    with TextStore(url) as store:
        assert store.revisions(slug).revisions[-1].author == "me"


async def test_http_diff_and_revert_with_if_match(url: str, slug: str) -> None:
    from libtext.asgi import Settings, create_app

    store = TextStore(url)
    app = create_app(store=store, settings=Settings(jobs_workers=0))
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            etag = (await c.get(f"/api/texts/{slug}")).headers["etag"]
            patched = await c.patch(
                f"/api/texts/{slug}/sections/2",
                json={"chapter_title": "פרק ב"},
                headers={"If-Match": etag},
            )
            assert patched.status_code == 200, patched.text
            diff = await c.get(f"/api/texts/{slug}/diff", params={"from": 1})
            assert diff.status_code == 200, diff.text
            body: dict[str, Any] = diff.json()
            assert body["to_revision"] == 2
            assert body["sections"][0]["sequence_id"] == 2
            assert body["sections"][0]["fields"][0] == "chapter_title"

            no_header = await c.post(f"/api/texts/{slug}/revert", params={"revision": 1})
            assert no_header.status_code == 428, no_header.text
            stale = await c.post(
                f"/api/texts/{slug}/revert", params={"revision": 1}, headers={"If-Match": etag}
            )
            assert stale.status_code == 412, stale.text
            current = patched.headers["etag"]
            reverted = await c.post(
                f"/api/texts/{slug}/revert",
                params={"revision": 1, "author": "me"},
                headers={"If-Match": current},
            )
            assert reverted.status_code == 200, reverted.text
            made = TextRevision.model_validate(reverted.json())
            assert made.number == 3 and made.reverted_to == 1 and made.author == "me"
            after = await c.get(f"/api/texts/{slug}")
            assert after.headers["etag"] == reverted.headers["etag"]
            assert after.json()["sections"][1]["chapter_title"] == ""
            missing = await c.post(
                f"/api/texts/{slug}/revert",
                params={"revision": 9},
                headers={"If-Match": reverted.headers["etag"]},
            )
            assert missing.status_code == 404
    finally:
        store.close()
