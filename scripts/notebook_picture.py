"""Render the notebook view of a translated passage to docs/img/notebook.png.

The docs' home page shows what a result looks like in Jupyter. This script translates
a passage with citations offline (the offline provider gives English for the
citations only, and says so in the notes), writes its ``_repr_html_`` into a page and
screenshots it with headless Chromium. Without a
``chromium`` on the PATH it says so and exits 0 (the picture in the repository stays).

    python scripts/notebook_picture.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img" / "notebook.png"
PASSAGE = (
    'וזהו שכתוב (בראשית א, א) בראשית ברא אלקים את השמים ואת הארץ, וכמו שאמרו רז"ל '
    "(ברכות ה, א) לעולם ירגיז אדם יצר טוב על יצר הרע, וכמבואר בתניא (פרק ב) שהנשמה "
    "חלק אלוה ממעל ממש."
)


def main() -> int:
    names = ("chromium", "chromium-browser", "google-chrome")
    browser = next((b for b in names if shutil.which(b)), None)
    if browser is None:
        print("no chromium on the PATH: the picture is left as it is")
        return 0
    from libtext import Translator

    document = Translator().translate(PASSAGE)
    page = (
        "<!doctype html><meta charset='utf-8'>"
        "<body style='font-family: sans-serif; margin: 16px; background: #fff'>"
        f"{document._repr_html_()}</body>"
    )
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "view.html"
        html.write_text(page, encoding="utf-8")
        OUT.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={folder}/profile",
                "--window-size=1000,350",
                f"--screenshot={OUT}",
                html.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
