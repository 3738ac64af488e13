"""Build the chapter tables of libtext.sefaria from the shared data.

* ``src/libtext/data/bavli_chapters.json``: the chapters of each Bavli tractate, in order,
  with Sefaria's Hebrew chapter name and the chapter's first and last segment
  (``"2a:1"``, ``"21a:7"``: Sefaria's chapter refs start and end inside an amud).
  Input: ``bavli_chapter_segments.json`` (Sefaria/Sefaria-Export ``schemas/<Tractate>.json``,
  ``alts.Chapters.nodes[*]``; its ``tractates[*].commit`` names the commit).
* ``src/libtext/data/zohar_parashot.json``: Sefaria's Zohar ``Parasha`` nodes with the
  Vilna volume and first/last amud each covers. Input: ``zohar_parashot.json``
  (Sefaria/Sefaria-Export ``schemas/Zohar.json``, ``alts.Parasha.nodes[*]``).

Usage::

    python scripts/build_bavli_chapters.py ../shared/data
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "libtext" / "data"


def _write(name: str, out: dict[str, object]) -> None:
    lines = [
        f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
        for k, v in out.items()
    ]
    (OUT / name).write_text("{\n" + ",\n".join(lines) + "\n}\n", "utf-8")


def bavli(src: Path) -> None:
    data = json.loads((src / "bavli_chapter_segments.json").read_text("utf-8"))
    commits = sorted({t["commit"] for t in data["tractates"].values()})
    out: dict[str, object] = {
        "_meta": {
            "source": "Sefaria/Sefaria-Export schemas/<Tractate>.json alts.Chapters.nodes "
            "(wholeRef, heTitle), commit " + ", ".join(commits),
            "fields": "tractate -> [[hebrew chapter name, first segment, last segment], ...]",
        }
    }
    for tractate, rec in sorted(data["tractates"].items()):
        ordered = sorted(rec["chapters"], key=lambda c: c["number"])
        out[tractate] = [[c["he"], c["start"], c["end"]] for c in ordered]
    _write("bavli_chapters.json", out)


def zohar(src: Path) -> None:
    data = json.loads((src / "zohar_parashot.json").read_text("utf-8"))
    source = data["source"]
    out: dict[str, object] = {
        "_meta": {
            "source": f"{source['repo']} {source['path']} {source['field']}, "
            f"commit {source['commit']}",
            "fields": "[[title, hebrew name, volume, first amud, last amud], ...] in order",
        },
        "parashot": [
            [p["title"], p["he"], p["volume"], p["start_daf"], p["end_daf"]]
            for p in data["parashot"]
        ],
    }
    _write("zohar_parashot.json", out)


if __name__ == "__main__":
    bavli(Path(sys.argv[1]))
    zohar(Path(sys.argv[1]))
