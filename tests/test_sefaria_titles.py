"""Every ref the linker emits uses Sefaria's primary title (issue #26).

A title variant (``Bereishit Rabbah``) resolves on Sefaria's site but is not its normal
ref: a stored or exported link must use the primary title. The primary titles are the
package data's (``libtext/data/sefaria_titles.json``: Sefaria's index titles, and
``works`` for the commentaries and other works, each the ``title`` of its
Sefaria-Export schema); the variants are those the shared planning data records.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from libtext.sefaria import find_citations
from libtext.sefaria._data import TORAH_NODES, catalog, key

_SECTIONS = re.compile(r"^(?P<index>.*?)(?: (?P<sections>\d[\dab:\-]*))?$")


def _package_titles() -> dict[str, object]:
    text = resources.files("libtext").joinpath("data", "sefaria_titles.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def primary_titles() -> set[str]:
    data = _package_titles()
    families = ("tanakh", "mishnah", "bavli", "mishneh_torah", "shulchan_arukh", "midrash")
    out = {r["en"] for f in families for r in data[f]}  # type: ignore[index, union-attr]
    return out | set(data["works"])  # type: ignore[arg-type]


def index_of(ref: str) -> str:
    """``"Zohar, Lech Lecha"`` -> ``"Zohar"``, ``"Genesis 1:1"`` -> ``"Genesis"``; a node of
    an index arranged by portions (``Rabbeinu Bahya, Vayikra``) counts as its index."""
    m = _SECTIONS.match(ref)
    assert m is not None
    index = m["index"]
    if index.startswith("Zohar, "):
        nodes = {z[0] for z in catalog().zohar}
        assert index.removeprefix("Zohar, ") in nodes, ref
        return "Zohar"
    head, _, node = index.partition(", ")
    if node in TORAH_NODES.values():
        return head
    return index


def sample_citations() -> list[str]:
    """One citation per title the linker knows, in each way it can be cited."""
    out: list[str] = []
    for he, roles in catalog().roles.items():
        if "tanakh" in roles:
            out += [f"{he} א, א", f"({he} ב)"]
        if "tractate" in roles and not he.startswith("ד"):
            out += [f"{he} ב, א", f'{he} פ"א מ"א', f'פ"ב ב{he}', f'ירושלמי {he} פ"א ה"א']
            out += [f'רש"י {he} ב, א', f"תוס' {he} ב, א", f'{he} ב, א תד"ה אמר']
        if "midrash" in roles:
            out += [f'{he} פ"א, א', f"{he} א, א"]
        if "sa_part" in roles:
            out += [f'שו"ע {he} סי\' א ס"א']
        if "tanya_part" in roles or "tanya" in roles:
            out += [f'{he} פ"א']
        if "commentator" in roles:
            out += [f"{he} בראשית א, א", f"{he} ישעיה א, א", f"{he} ברכות ב, א"]
        if "seif_katan" in roles:
            out += [f"{he} סי' א סק\"א"]
    for section in list(catalog().hilchot)[:40]:
        out.append(f'רמב"ם הל\' {section} פ"א ה"א')
    out += [f'זח"{v} דף {d}' for v in "אבג" for d in ("ה.", "כ:", "ק.", "קנ:", "רמ.")]
    return out


def test_every_emitted_title_is_sefarias_primary_title(data_dir: Path) -> None:
    primary = primary_titles()
    texts = sample_citations()
    dev = data_dir / "citations_dev.jsonl"
    if dev.exists():
        texts += [json.loads(ln)["text"] for ln in dev.read_text("utf-8").splitlines() if ln]
    emitted: set[str] = set()
    for text in texts:
        emitted |= {index_of(c.ref) for c in find_citations(text)}
    assert len(emitted) > 150  # the samples reach every family
    assert sorted(emitted - primary) == []


def test_no_emitted_title_is_a_variant(data_dir: Path) -> None:
    """The shared data's variants of each title (Sefaria's titleVariants, and the variant
    the dev set once expected) never reach a ref."""
    path = data_dir / "sefaria_titles.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    shared = json.loads(path.read_text("utf-8"))
    variants: set[str] = set()
    for family in ("tanakh", "mishnah", "bavli"):
        for rec in shared[family]:
            variants |= set(rec.get("sefaria_titleVariants", [])) - {rec["en"]}
    variants |= {r["en"] for r in shared["other"] if r["en"] not in primary_titles()}
    assert "Bereishit Rabbah" in variants  # the shared data still names the variant
    emitted = {index_of(c.ref) for t in sample_citations() for c in find_citations(t)}
    assert emitted & variants == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('ב"ר פי"ט, ז', "Bereshit Rabbah 19:7"),
        ("בראשית רבה א, א", "Bereshit Rabbah 1:1"),
        ("מדרש רבה בראשית ח, א", "Bereshit Rabbah 8:1"),
    ],
)
def test_midrash_rabbah_on_genesis_is_bereshit_rabbah(text: str, expected: str) -> None:
    assert [c.ref for c in find_citations(text)] == [expected]


def test_a_commentary_sefaria_does_not_have_is_not_linked() -> None:
    """Sefaria has no Rashi or Tosafot on Tamid (no such schema): no link, not the daf."""
    assert "Tosafot on Tamid" not in primary_titles()
    assert [c.ref for c in find_citations("תוס' תמיד כו, א")] == []
    assert [c.ref for c in find_citations('תמיד כו, א תד"ה אמר')] == []


def test_keys_are_normalised() -> None:
    assert key("ב״ר") == 'ב"ר'
