"""Help works on the core install; a command that needs an extra says which, once.

The optional modules are made unimportable with a ``sys.modules`` guard in a
subprocess, which is what the core install looks like to libtext: nothing new is
installed or removed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from libtext._wording import install_hint
from libtext.cli import _COMMANDS, cli

OPTIONAL = ("sqlmodel", "sqlalchemy", "psycopg", "fastapi", "starlette", "uvicorn", "litellm")
GUARD = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in OPTIONAL)


def core(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` as on an install without the extras."""
    return subprocess.run(
        [sys.executable, "-c", GUARD + code, *args], capture_output=True, text=True, timeout=120
    )


def command_paths() -> list[list[str]]:
    """Every command and subcommand of the CLI, as argument lists."""
    paths: list[list[str]] = [[]]

    def walk(prefix: list[str], command: click.Command) -> None:
        paths.append(prefix)
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk([*prefix, name], sub)

    ctx = click.Context(cli)
    for name in _COMMANDS:
        command = cli.get_command(ctx, name)
        assert command is not None
        walk([name], command)
    return paths


RUN_ALL = """
import contextlib, io, json
from libtext.cli import cli
results = []
for args in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.main([*args, "--help"], prog_name="libtext")
            code = 0
        except SystemExit as exc:
            code = exc.code
    results.append([args, code, out.getvalue(), err.getvalue()])
print(json.dumps(results))
"""


def test_help_of_every_command_works_without_the_extras() -> None:
    paths = command_paths()
    assert len(paths) > len(_COMMANDS)  # groups' subcommands are in too
    done = core(RUN_ALL, json.dumps(paths))
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert [r[0] for r in results] == paths
    for args, code, out, err in results:
        assert code == 0, (args, err)
        assert out.startswith("Usage: libtext"), (args, out, err)
        assert err == "", (args, err)


def test_bare_libtext_and_bare_group_print_their_help() -> None:
    for args in ([], ["texts"]):
        done = core("from libtext.cli import main; main()", *args)
        out = done.stdout + done.stderr
        assert "Usage: libtext" in out, out
        assert "pip install" not in out  # no install hint for merely looking
        assert done.returncode == 0, out
        assert done.stdout.startswith("Usage: libtext"), out
    done = core("from libtext.cli import main; main()")
    assert done.returncode == 0
    for name in _COMMANDS:
        assert name in done.stdout


def test_a_command_that_needs_an_extra_says_which_once() -> None:
    cases = {
        ("texts", "list"): install_hint("store"),
        ("texts", "edit", "x", "1", "--title", "t"): install_hint("store"),
        ("texts", "diff", "x", "1"): install_hint("store"),
        ("jobs", "list"): install_hint("store"),
        ("jobs", "show", "x"): install_hint("store"),
        ("worker",): install_hint("store"),
        ("serve",): install_hint("server"),
    }
    for args, hint in cases.items():
        done = core("from libtext.cli import main; main()", *args)
        assert done.returncode == 1, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
        assert done.stderr.count(hint) == 1, done.stderr
        assert done.stderr.count("extra") == 1, done.stderr
        assert "Traceback" not in done.stderr


def test_help_and_star_import_of_the_package_work_without_the_extras() -> None:
    code = (
        "import pydoc, libtext\n"
        "text = pydoc.render_doc(libtext)\n"
        "assert 'Outliner' in text and 'TextStore' in text, text\n"
        "ns = {}\n"
        "exec('from libtext import *', ns)\n"
        "missing = sorted(set(libtext.__all__) - set(ns))\n"
        "assert not missing, missing\n"
        "try:\n"
        "    ns['TextStore']('sqlite://')\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    done = core(code)
    assert done.returncode == 0, done.stderr
    assert install_hint("store") in done.stdout
    # The names that need no extra are the real ones.
    done = core(
        "from libtext import *\nprint(Outliner().outline_text('פרק א\\nשלום').source_metadata)"
    )
    assert done.returncode == 0, done.stderr


def test_outline_table_has_no_column_that_stays_empty() -> None:
    from pathlib import Path

    from click.testing import CliRunner

    sample = Path(__file__).resolve().parents[1] / "examples" / "sample.pdf"
    done = CliRunner().invoke(cli, ["outline", str(sample), "--format", "table"])
    assert done.exit_code == 0, done.output
    header = next(line for line in done.stdout.splitlines() if "seq" in line)
    # The sample's segments are whole chapters: no segment title besides the chapter's.
    assert "chapter" in header and "title" not in header


def test_process_on_core_says_which_extra_keeps_the_result() -> None:
    from pathlib import Path

    sample = Path(__file__).resolve().parents[1] / "examples" / "sample.pdf"
    done = core("from libtext.cli import main; main()", "process", str(sample), "--no-progress")
    assert done.returncode == 0, done.stderr
    saved = [line for line in done.stderr.splitlines() if line.startswith("not saved")]
    assert saved and install_hint("store") in saved[0], done.stderr


def test_import_of_the_jobs_package_on_core_names_the_extra() -> None:
    done = core("import libtext.jobs")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: libtext.jobs needs the store extra: "), done.stderr
    assert install_hint("store") in last
    assert "During handling" not in done.stderr  # one cause, not a chain


def test_install_hint_says_what_works_from_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a checkout ``pip install 'libtext[store]'`` does not resolve: ``-e`` with the
    tree does; an installed package (no tree around it) gets the index's name."""
    import libtext._wording as wording

    root = Path(wording.__file__).resolve().parents[2]
    monkeypatch.chdir(root)
    assert install_hint("store") == "pip install -e '.[store]'"
    monkeypatch.chdir(tmp_path)
    assert install_hint("store") == f"pip install -e '{root}[store]'"
    monkeypatch.setattr(wording, "_checkout", lambda: None)
    assert install_hint("store") == "pip install 'libtext[store]'"
