"""The CLI and the store: one database variable, saving by default, saying which database.

Also ``libtext serve``'s checks before it binds: a bad store or a provider without its
key ends the command with one line, and no server starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("libtext.store")
from libtext.cli import cli
from libtext.models import ProcessedDocument, Section, SourceMetadata
from libtext.store import TextStore

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample.pdf"


def run(*args: str, env: dict[str, str] | None = None) -> object:
    return CliRunner().invoke(cli, list(args), env=env)


def test_process_saves_to_the_database_variable_and_texts_list_names_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    env = {"LIBTEXT_DATABASE_URL": url}
    done = run("process", str(SAMPLE), "--no-progress", env=env)
    assert done.exit_code == 0, done.output
    assert f"in {url}" in done.stderr
    assert "note: the offline provider translates only citations" in done.stderr
    with TextStore(url) as store:
        listed = store.list()
    assert listed.pagination.total == 1
    slug = listed.texts[0].slug
    assert f"saved as {slug}" in done.stderr

    shown = run("texts", "list", env=env)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.startswith(slug + "\t")
    assert shown.stderr.strip() == f"page 1 of 1, 1 text in {url}"


def test_no_store_skips_saving(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    done = run(
        "process", str(SAMPLE), "--no-progress", "--no-store", env={"LIBTEXT_DATABASE_URL": url}
    )
    assert done.exit_code == 0, done.output
    assert "saved" not in done.stderr
    assert not (tmp_path / "env.db").exists()


def test_without_a_store_process_says_how_to_keep_the_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LIBTEXT_DATABASE_URL", raising=False)
    done = run("process", str(SAMPLE), "--no-progress", "--format", "json")
    assert done.exit_code == 0, done.output
    assert "not saved: to keep it, give --store URL or set LIBTEXT_DATABASE_URL" in done.stderr


def test_an_empty_store_lists_page_1_of_1_and_masks_the_password(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    shown = run("texts", "list", "--store", url)
    assert shown.exit_code == 0, shown.output
    assert shown.stderr.strip() == f"page 1 of 1, 0 texts in {url}"
    # A URL with a password is named with the password masked (the store is refused
    # before any connection: no such driver).
    bad = run("texts", "list", "--store", "nosuchdb://user:s3cret@host/db")
    assert "s3cret" not in bad.output


def test_texts_list_has_no_empty_title_column(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    untitled = ProcessedDocument(
        sections=[Section(sequence_id=1, original_hebrew_block="א")], page_count=1
    )
    titled = ProcessedDocument(
        source_metadata=SourceMetadata(work_title="תניא"),
        sections=[Section(sequence_id=1, original_hebrew_block="א")],
        page_count=2,
    )
    with TextStore(url) as store:
        store.save(untitled)
        store.save(titled)
    lines = run("texts", "list", "--store", url).stdout.splitlines()
    assert lines[0].split("\t")[2:] == ["תניא", "2 pages"]
    assert lines[1].split("\t")[2:] == ["1 page"]


# --- libtext serve checks before it binds ----------------------------------------------


def serve(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LIBTEXT_", "OPENAI_"))}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from libtext.cli import main; main()",
            "serve",
            "--port",
            "9",
            *args,
        ],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_serve_refuses_a_store_it_cannot_open(tmp_path: Path) -> None:
    line = one_line(serve("--store", "not a url"))
    assert "--store" in line
    missing = tmp_path / "no" / "such" / "folder" / "t.db"
    line = one_line(serve("--store", f"sqlite:///{missing}"))
    assert "--store" in line


def test_serve_refuses_a_provider_without_its_key(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 't.db'}"
    line = one_line(serve("--store", store, LIBTEXT_PROVIDERS="offline,openai/gpt-4o-mini"))
    assert "OPENAI_API_KEY" in line and "LIBTEXT_PROVIDERS" in line
    line = one_line(serve(LIBTEXT_PROVIDERS="offline", LIBTEXT_DATABASE_URL="not a url"))
    assert "LIBTEXT_DATABASE_URL" in line
