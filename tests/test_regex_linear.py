"""Every regular expression in ``src/libtext`` runs in time linear in its input.

A text rule that backtracks (a lazy group before an optional one, two runs of spaces
that can split a long gap every way) turns one long line into minutes of CPU held
under the GIL: a 949-byte PDF with a 60,000-character line froze the server. The
patterns are collected by ``tests/regex_probe.py`` (module-level patterns, literal
patterns inside functions, the Sefaria title tries built at run time) and run on
inputs built from each pattern's own alphabet: runs of one character, two characters
alternating, and near-misses of the pattern.

Two checks: four times the length costs at most ten times the CPU (linear is four,
quadratic sixteen), and on 131,072 characters the costliest inputs stay within
:data:`RATIO` times a ``str.split`` of as many characters of words (the machine's
unit, measured here: about 50 ms per 100,000 characters on the reference machine).
"""

from __future__ import annotations

import re

import pytest
from tests import regex_probe

LONG = 131_072
RATIO = 100
"""CPU of one pattern on ``LONG`` characters, in ``str.split`` units (the worst today: ~40)."""

PROBES, UNLISTED = regex_probe.collect()


def test_every_pattern_is_collected() -> None:
    assert not UNLISTED, f"re.compile of built text in {sorted(UNLISTED)}: add to BUILDERS"
    where = {p.where for p in PROBES}
    assert len(PROBES) > 150
    # One of each kind: module level, a literal inside a function, a built trie, bytes.
    assert "libtext.headings._toc._WORD_NUMBERED" in where
    assert any(w.startswith("libtext.headings._title_page:credits_author") for w in where)
    assert "libtext.sefaria._titles:scanner()" in where
    assert any(isinstance(p.pattern.pattern, bytes) for p in PROBES)


@pytest.mark.parametrize("probe", PROBES, ids=[p.where for p in PROBES])
def test_linear_growth(probe: regex_probe.Probe) -> None:
    failure = regex_probe.growth_failure(probe)
    assert failure is None, failure


@pytest.fixture(scope="module")
def unit() -> float:
    return regex_probe.reference_unit(LONG)


@pytest.mark.parametrize("probe", PROBES, ids=[p.where for p in PROBES])
def test_long_input_within_budget(probe: regex_probe.Probe, unit: float) -> None:
    for spent, text in regex_probe.slowest(probe, LONG, keep=2):
        assert spent <= RATIO * unit, (
            f"{probe.where} ({probe.mode}) took {spent * 1e3:.0f} ms on {len(text):,} "
            f"characters of {text[:24]!r}..., over {RATIO} x str.split ({RATIO * unit * 1e3:.0f} ms)"
        )


def test_the_probe_finds_a_backtracking_pattern() -> None:
    """The check can fail: the contents-entry pattern of before issue 27 is caught."""
    old = re.compile(
        r"^(?P<title>.*?[^\W\d_].*?)\s*(?P<leaders>\.{2,}|…+|(?:\s?\.){3,})?\s*(?P<page>\d{1,4})$"
    )
    assert regex_probe.growth_failure(regex_probe.Probe("old _ENTRY", old, "match")) is not None
    spaces = re.compile(r"\s*,?\s*x")  # two runs that split a gap every way
    assert regex_probe.growth_failure(regex_probe.Probe("gap", spaces, "match")) is not None
