"""Each error speaks the language of where it surfaces.

The same failures are caused through Python, the CLI and HTTP: Python messages name
arguments (never flags), CLI messages name flags and variables (never ``name=...``
arguments or Python calls), HTTP messages name neither (the client cannot pass
either; the server's settings are named instead).
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from libtext import RetryPolicy
from libtext._wording import PHRASES, for_cli, for_http
from libtext.cli import cli
from libtext.errors import LibtextError

PYTHON_WORDS = re.compile(
    r"\b[a-z_]+=\.\.\.|\b[a-z_]+='\.\.\.'|\b[a-z_]+= |\b[a-z_]+=True\b|TextStore[(.]"
)
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")
SHELL_EXAMPLE = re.compile(r"`[^`]*`")  # a quoted command line (`qpdf --decrypt ...`)


def words(message: str) -> str:
    """The message without its quoted example commands, whose words are a shell's."""
    return SHELL_EXAMPLE.sub("", message)


def refused_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/books"  # nothing listens there once closed


def python_message(fn: object) -> str:
    with pytest.raises(LibtextError) as info:
        fn()  # type: ignore[operator]
    return info.value.message


def test_the_table_swaps_every_python_phrase() -> None:
    for phrase in PHRASES:
        assert PYTHON_WORDS.search(phrase.python) or "base_url" in phrase.python
        assert not PYTHON_WORDS.search(phrase.cli), phrase
        assert not PYTHON_WORDS.search(phrase.http) and not FLAG.search(
            phrase.http.replace("libtext serve --store", "")
        ), phrase
        assert for_cli(f"x {phrase.python} y") == f"x {phrase.cli} y"
        assert for_http(f"x {phrase.python} y") == f"x {phrase.http} y"


def test_python_messages_name_arguments_not_flags(fixtures_dir: Path) -> None:
    pytest.importorskip("libtext.store")
    from libtext import LibraryClient, TextStore, extract_pdf
    from libtext.providers.llm import LiteLLMProvider

    messages = [
        python_message(lambda: TextStore("not a url")),
        python_message(lambda: extract_pdf(fixtures_dir / "encrypted.pdf")),
        python_message(lambda: LiteLLMProvider("openai/gpt-4o-mini", api_key=None)),
        python_message(lambda: LibraryClient(base_url="ftp://x")),
        python_message(
            lambda: LibraryClient(base_url=refused_url(), retry=RetryPolicy(max_attempts=1)).search(
                "x"
            )
        ),
    ]
    for message in messages:
        assert not FLAG.search(words(message)), message
    assert any("password='...'" in m for m in messages)


def test_cli_messages_name_flags_not_arguments(
    fixtures_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("libtext.store")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    runner = CliRunner()
    results = [
        runner.invoke(cli, ["texts", "list", "--store", "not a url"]),
        runner.invoke(
            cli, ["outline", str(fixtures_dir / "small.pdf"), "-p", "openai/gpt-4o-mini"]
        ),
        runner.invoke(cli, ["library", "search", "x", "--base-url", refused_url()]),
        runner.invoke(
            cli, ["texts", "show", "nosuch", "--store", f"sqlite:///{tmp_path / 't.db'}"]
        ),
    ]
    for result in results:
        assert result.exit_code != 0
        line = result.stderr.strip()
        assert line.startswith("error: ") and "\n" not in line, result.output
        assert not PYTHON_WORDS.search(words(line)), line
    assert "--store" in results[0].stderr
    assert "OPENAI_API_KEY" in results[1].stderr
    assert "libtext texts list" in results[3].stderr


async def test_http_messages_name_the_servers_settings(fixtures_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from libtext import LibraryClient
    from libtext.asgi import Settings, create_app

    library = LibraryClient(base_url=refused_url(), retry=RetryPolicy(max_attempts=1))
    app = create_app(settings=Settings(store_url="not a url"), library=library)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        answers = [
            await client.get("/api/texts"),
            await client.get("/api/search", params={"q": "x"}),
            await client.post(
                "/api/extract",
                files={
                    "file": (
                        "e.pdf",
                        (fixtures_dir / "encrypted.pdf").read_bytes(),
                        "application/pdf",
                    )
                },
            ),
        ]
    await library.aclose()
    for answer in answers:
        assert answer.status_code >= 400
        message = answer.json()["error"]["message"]
        assert not PYTHON_WORDS.search(words(message)), message
        assert not FLAG.search(words(message).replace("libtext serve --store", "")), message
