"""The notebook views as a browser draws them, under JupyterLab's own table styles.

JupyterLab's ``.jp-RenderedHTMLCommon td {text-align:right}`` outranks a view's class
rules; the views set direction and alignment on each element, which it cannot. This
renders views in headless Chromium (Debian's ``chromium``), inside a page carrying
JupyterLab's rules, and reads the screenshot: English starts at the left of its cell,
Hebrew ends at the right of its cell, a Hebrew title ends at the right.
Skipped where /usr/bin/chromium is absent.
"""

from __future__ import annotations

import json
import re
import subprocess
from html import unescape
from pathlib import Path

import pytest

from libtext.models import TranslatedSegment, TranslationData

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="headless Chromium not installed (apt-get install chromium)"
)

# JupyterLab's rendermime rules for tables and headings (packages/rendermime/style/base.css).
JUPYTERLAB_CSS = """
.jp-RenderedHTMLCommon { font-family: sans-serif; font-size: 14px; line-height: 1.3 }
.jp-RenderedHTMLCommon table { border-collapse: collapse; border-spacing: 0; border: none;
  font-size: 12px; table-layout: fixed; margin-left: auto; margin-right: auto }
.jp-RenderedHTMLCommon thead { border-bottom: 1px solid black; vertical-align: bottom }
.jp-RenderedHTMLCommon td, .jp-RenderedHTMLCommon th, .jp-RenderedHTMLCommon tr {
  text-align: right; vertical-align: middle; padding: 0.5em; line-height: normal;
  white-space: normal; max-width: none; border: none }
.jp-RenderedHTMLCommon th { font-weight: bold }
.jp-RenderedHTMLCommon h1, .jp-RenderedHTMLCommon h2, .jp-RenderedHTMLCommon h3 {
  line-height: 1.2; margin-top: 1em; margin-bottom: .5em }
"""

# Writes the boxes of the cells to measure into the title (no effect on layout).
MEASURE = """
<script>
window.addEventListener("load", () => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom]; };
  document.title = JSON.stringify({
    en: box(document.querySelector("td[dir=ltr]")),
    he: box(document.querySelector("td[dir=rtl]")),
    title: box(document.querySelector("h3")),
  });
});
</script>
"""

WIDTH, HEIGHT = 1000, 500


def page(view: str) -> str:
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><title>-</title>'
        f"<style>body{{margin:0;background:#fff}}{JUPYTERLAB_CSS}</style>{MEASURE}</head>"
        f'<body><div class="jp-RenderedHTMLCommon" style="width:900px;padding:10px">'
        f"{view}</div></body></html>"
    )


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--window-size={WIDTH},{HEIGHT}",
            f"--user-data-dir={tmp_path / 'profile'}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


def ink_columns(png: Path, box: list[float]) -> tuple[int, int]:
    """The leftmost and rightmost x of dark pixels inside ``box`` of the screenshot."""
    from PIL import Image

    image = Image.open(png).convert("L")
    left, top, right, bottom = (round(v) for v in box)
    xs = [
        x
        for x in range(left + 1, right - 1)
        for y in range(top + 1, bottom - 1)
        if image.getpixel((x, y)) < 128
    ]
    assert xs, f"nothing drawn in {box}"
    return min(xs), max(xs)


def test_views_keep_their_alignment_under_jupyterlab_styles(tmp_path: Path) -> None:
    segment = TranslatedSegment(
        sequence_id=1,
        segment_title="פרק ראשון",
        original_hebrew_block="בראשית ברא",
        translation_data=[
            TranslationData(hebrew_phrase="בראשית ברא", english_translation="In the beginning")
        ],
        provider="offline",
    )
    html = tmp_path / "view.html"
    html.write_text(page(segment._repr_html_()), encoding="utf-8")
    dom = chromium(tmp_path, "--virtual-time-budget=3000", "--dump-dom", html.as_uri())
    title = re.search(r"<title>(.*?)</title>", dom.stdout, flags=re.S)
    assert title is not None, dom.stderr[-2000:]
    boxes = json.loads(unescape(title.group(1)))
    png = tmp_path / "view.png"
    shot = chromium(tmp_path, f"--screenshot={png}", html.as_uri())
    assert png.is_file(), shot.stderr[-2000:]

    en_left, en_right = ink_columns(png, boxes["en"])
    en_cell = boxes["en"]
    # English starts at the left of its cell (JupyterLab alone would push it right).
    assert en_left - en_cell[0] < 20 and en_cell[2] - en_right > 100

    he_left, he_right = ink_columns(png, boxes["he"])
    he_cell = boxes["he"]
    assert he_cell[2] - he_right < 20 and he_left - he_cell[0] > 100  # Hebrew at the right

    title_left, title_right = ink_columns(png, boxes["title"])
    title_box = boxes["title"]
    assert title_box[2] - title_right < 20 and title_left - title_box[0] > 200
