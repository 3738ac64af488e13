"""The README's quick start stays true: CI runs its test command, and its sample exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bash_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", text, flags=re.S)]


def test_ci_runs_the_readme_test_command() -> None:
    blocks = _bash_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    test_command = next(b for b in blocks if "pytest" in b)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert [line for line in ci.splitlines() if line.strip()][-1] == test_command


def test_ci_builds_the_docs_strictly() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert any("mkdocs build --strict" in line for line in ci.splitlines())


def test_quick_start_outlines_a_shipped_sample() -> None:
    blocks = _bash_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    outline = next(b for b in blocks if "libtext outline" in b)
    pdf = re.search(r"libtext outline (\S+\.pdf)", outline)
    assert pdf is not None
    assert (ROOT / pdf.group(1)).is_file()
