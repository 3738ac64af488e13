"""Build ``src/libtext/data/bavli_chapters.json``: the chapters of each Bavli tractate.

Input: ``sefaria_structure.json`` from the shared data (``bavli_chapters``: Sefaria's chapter
names from ``data/perek_names.csv`` and daf/amud bounds from ``data/Mishnah Map.csv`` and
``data/sugyot/`` of Sefaria/Sefaria-Project; its ``_meta.sources`` names the commit). Only
the Hebrew name and the first and last amud of each chapter are kept: the segment numbers
are not reliable at chapter ends, the daf/amud bounds are.

Usage::

    python scripts/build_bavli_chapters.py ../shared/data/sefaria_structure.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "libtext" / "data" / "bavli_chapters.json"


def main(src: str) -> None:
    data = json.loads(Path(src).read_text("utf-8"))
    commits = sorted({s["commit"] for s in data["_meta"]["sources"]})
    out: dict[str, object] = {
        "_meta": {
            "source": "Sefaria/Sefaria-Project data/perek_names.csv, data/Mishnah Map.csv, "
            "data/sugyot/ (commit " + ", ".join(commits) + ")",
            "fields": "tractate -> [[hebrew chapter name, first amud, last amud], ...] in order",
        }
    }
    for tractate, chapters in sorted(data["bavli_chapters"].items()):
        ordered = sorted(chapters, key=lambda c: c["n"])
        out[tractate] = [[c["he"], c["start"], c["end"]] for c in ordered]
    lines = [
        f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
        for k, v in out.items()
    ]
    OUT.write_text("{\n" + ",\n".join(lines) + "\n}\n", "utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
