"""``libtext outline`` and ``libtext extract`` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from libtext.cli import cli

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BAD_INPUTS = ["not_a_pdf.pdf", "truncated.pdf", "encrypted.pdf", "empty_text.pdf", "zero_bytes.pdf"]


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def truth(fixtures_dir: Path, name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((fixtures_dir / f"{name}.truth.json").read_text("utf-8"))
    return data


def assert_one_line_error(result: Result) -> None:
    assert result.exit_code != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in result.stderr
    assert not isinstance(result.exception, AssertionError | TypeError | KeyError)


def test_outline_json(fixtures_dir: Path) -> None:
    result = run("outline", str(fixtures_dir / "small.pdf"))
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    expected = truth(fixtures_dir, "small")
    segments = data["outline_segments"]
    assert [s["chapter_title"] for s in segments] == [c["heading"] for c in expected["chapters"]]
    assert [s["page_ref"] for s in segments] == [str(c["page"]) for c in expected["chapters"]]
    assert data["source_metadata"]["work_title"] == expected["title"]
    assert "פרק א" in result.stdout  # Hebrew as is, not \u05e4 escapes


def test_outline_table() -> None:
    result = run("outline", str(EXAMPLES / "sample.pdf"), "--format", "table")
    assert result.exit_code == 0, result.stderr
    for heading in ("פרק א", "פרק ב", "פרק ג"):
        assert heading in result.stdout
    assert "start phrase" in result.stdout
    assert "פרקי אבות" in result.stdout


def test_outline_max_pages(fixtures_dir: Path) -> None:
    result = run("outline", str(fixtures_dir / "small.pdf"), "--max-pages", "3")
    assert result.exit_code == 0, result.stderr
    titles = [s["chapter_title"] for s in json.loads(result.stdout)["outline_segments"]]
    assert titles == ["פרק א", "פרק ב"]


def test_several_providers_print_the_comparison(fixtures_dir: Path) -> None:
    pdf = str(fixtures_dir / "small.pdf")
    result = run("outline", pdf, "-p", "offline", "-p", "offline")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [r["provider"] for r in data["results"]] == ["offline", "offline#2"]
    assert data["agreement"][0]["score"] == 1.0
    table = run("outline", pdf, "-p", "offline", "-p", "offline", "--format", "table")
    assert table.exit_code == 0, table.stderr
    assert "offline#2" in table.stdout and "100%" in table.stdout


def test_extract_text_and_json(fixtures_dir: Path) -> None:
    text = run("extract", str(fixtures_dir / "small.pdf"))
    assert text.exit_code == 0, text.stderr
    assert text.stdout.count("=== page ") == truth(fixtures_dir, "small")["page_count"]
    assert "אשרי תמימי דרך" in text.stdout
    data = json.loads(run("extract", str(fixtures_dir / "small.pdf"), "--format", "json").stdout)
    assert len(data["pages"]) == 5
    kinds = {(ln["kind"], ln["text"]) for ln in data["pages"][1]["lines"]}
    assert ("heading", "פרק א") in kinds


@pytest.mark.parametrize("name", BAD_INPUTS)
@pytest.mark.parametrize("command", ["outline", "extract"])
def test_bad_input_is_one_error_line(fixtures_dir: Path, name: str, command: str) -> None:
    assert_one_line_error(run(command, str(fixtures_dir / name)))


def test_missing_file_unknown_provider_and_missing_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_one_line_error(run("outline", str(tmp_path / "nope.pdf")))
    sample = str(EXAMPLES / "sample.pdf")
    assert_one_line_error(run("outline", sample, "-p", "not-a-provider"))
    monkeypatch.setenv("OPENAI_API_KEY", "")
    result = run("outline", sample, "-p", "openai/gpt-4o-mini")
    assert_one_line_error(result)
    assert "OPENAI_API_KEY" in result.stderr


# --- found by walking the public paths as a user ------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["outline", str(EXAMPLES / "sample.pdf"), "--max-pages", "0"],
        ["outline"],
        ["extract", str(EXAMPLES / "sample.pdf"), "--format", "xml"],
        ["no-such-command"],
        ["texts", "list", "--page-size", "many"],
    ],
)
def test_usage_errors_are_one_line_that_points_to_help(args: list[str]) -> None:
    result = run(*args)
    assert_one_line_error(result)
    assert result.exit_code == 2
    assert result.stderr.rstrip().endswith("--help')")
    assert "Usage:" not in result.stderr


def test_a_bare_group_still_prints_its_help() -> None:
    result = run("texts")
    assert "texts [OPTIONS] COMMAND" in result.output and "error:" not in result.output
    assert run("--help").exit_code == 0 and run("outline", "--help").exit_code == 0


def test_encrypted_pdf_says_how_to_give_the_password_and_takes_it(fixtures_dir: Path) -> None:
    pdf = str(fixtures_dir / "encrypted.pdf")
    for command in ("outline", "extract"):
        locked = run(command, pdf)
        assert_one_line_error(locked)
        assert "--password" in locked.stderr and "extract_pdf()" not in locked.stderr
        wrong = run(command, pdf, "--password", "not-it")
        assert_one_line_error(wrong)
        assert "wrong" in wrong.stderr
    opened = run("outline", pdf, "--password", "secret")
    assert opened.exit_code == 0, opened.stderr
    from libtext import Outliner, extract_pdf

    same = Outliner().outline(extract_pdf(pdf, password="secret"))  # the API's answer
    assert json.loads(opened.stdout) == same.model_dump(mode="json")
    assert len(same.outline_segments) >= 1
    text = run("extract", pdf, "--password", "secret", "--max-pages", "1")
    assert text.exit_code == 0 and text.stdout.count("=== page ") == 1


def test_file_system_errors_are_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """An OSError (disk full, no permission) is a one-line error, not a traceback."""
    import libtext.pdf

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", "/srv/locked.pdf")

    monkeypatch.setattr(libtext.pdf, "extract_pdf", refuse)
    result = run("extract", "/srv/locked.pdf")
    assert_one_line_error(result)
    assert "/srv/locked.pdf" in result.stderr and "Permission denied" in result.stderr
