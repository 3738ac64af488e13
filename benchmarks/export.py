"""Export time and peak memory for a 1,000-section document, per format.

Each format runs in a child process of its own, so its peak RSS is its own: the child
builds the document (``--sections`` sections of ``--phrases`` phrases with Sefaria links
and two footnotes each, about 1 MB of Hebrew), records its RSS, exports to a file, and
reports CPU seconds and the peak RSS (``ru_maxrss``). "Growth" is peak minus the RSS
with the document built and a one-section export done (modules and the linker's tables
loaded): what the export of this book itself held. Flat memory: growth that does not
grow with the sections (run with ``--sections 100`` to compare). The text formats are written a
section at a time; EPUB a chapter at a time into its zip; DOCX (python-docx) holds its
whole XML tree until saved.

Usage: python benchmarks/export.py [--sections 1000] [--phrases 10] [--formats md,tei,...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this folder comes first on sys.path, and its http.py would shadow the
# standard library's http module.
sys.path = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]

FORMATS = ("md", "tei", "html", "epub", "docx")


def build(sections: int, phrases: int) -> object:
    from libtext.models import Footnote, ProcessedDocument, Section, TranslationData

    verse = "וַיִּטַּע אֶשֶׁל בִּבְאֵר שָׁבַע וַיִּקְרָא־שָׁם בְּשֵׁם יְהוָה אֵל עוֹלָם"
    return ProcessedDocument(
        source_metadata={"publication_title": "ספר", "work_title": "חיבור", "author_name": "מחבר"},
        sections=[
            Section(
                sequence_id=i,
                chapter_number=str(i),
                chapter_title=f"פרק {i}",
                page_ref=str(i),
                original_hebrew_block=" ".join([verse] * phrases),
                translation_data=[
                    TranslationData(
                        hebrew_phrase=f"{verse} (בראשית כא, לג) [{j}]",
                        english_translation=f"And he planted a tamarisk, phrase {i}.{j}",
                        sefaria_link="https://www.sefaria.org/Genesis.21.33" if j % 3 == 0 else "",
                    )
                    for j in range(1, phrases + 1)
                ],
                footnotes=[
                    Footnote(marker=str(j), content=f"הערה {j} על {verse}", translation=f"note {j}")
                    for j in (1, 2)
                ],
            )
            for i in range(1, sections + 1)
        ],
        page_count=sections,
    )


def _rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def child(fmt: str, sections: int, phrases: int) -> None:
    from libtext.export import export

    document = build(sections, phrases)
    with tempfile.TemporaryDirectory() as tmp:
        # A one-section export first: modules and the linker's tables are loaded once per
        # process, not per book, and are not what the export of this book holds.
        export(build(1, 3), fmt, Path(tmp) / "warm")  # type: ignore[arg-type]
        base = _rss_kb()
        out = Path(tmp) / f"book.{fmt}"
        start = time.process_time()
        export(document, fmt, out)  # type: ignore[arg-type]
        cpu = time.process_time() - start
        size = out.stat().st_size
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps({"format": fmt, "cpu_s": cpu, "base_kb": base, "peak_kb": peak, "bytes": size})
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=1000)
    parser.add_argument("--phrases", type=int, default=10)
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.sections, args.phrases)
        return
    print(f"{args.sections} sections x {args.phrases} phrases; CPU seconds, peak RSS (MB)")
    print(f"{'format':8} {'cpu s':>7} {'file MB':>8} {'doc RSS':>8} {'peak RSS':>9} {'growth':>7}")
    for fmt in args.formats.split(","):
        done = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                fmt,
                "--sections",
                str(args.sections),
                "--phrases",
                str(args.phrases),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ},
        )
        r = json.loads(done.stdout.strip().splitlines()[-1])
        base, peak = r["base_kb"] / 1024, r["peak_kb"] / 1024
        print(
            f"{fmt:8} {r['cpu_s']:7.2f} {r['bytes'] / 1e6:8.1f} {base:8.0f} {peak:9.0f} "
            f"{peak - base:7.0f}"
        )


if __name__ == "__main__":
    main()
