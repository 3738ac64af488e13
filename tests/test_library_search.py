"""The library's search as its own front end does it: phrase, snippets, breadcrumbs, counts."""

from __future__ import annotations

from typing import Any

import pytest

from libtext.errors import LibraryError
from libtext.library._api import read_search
from libtext.library._search import breadcrumb, normalize_phrase, read_counts, snippet


@pytest.mark.parametrize(
    ("query", "sent"),
    [
        ("  ביטול   היש ", "ביטול היש"),
        ("בְּרֵאשִׁית בָּרָא", "בראשית ברא"),  # nikud dropped inside words
        ("רז״ל ה׳", "רז\"ל ה'"),  # gershayim and geresh as ASCII
        ("“ויהי אור”", '"ויהי אור"'),
        ("שמע־ישראל, tanya 32!", "שמע ישראל"),  # maqaf, Latin and digits: word breaks
        ("שׁ", "ש"),  # a presentation form decomposes to its letter
        ("tanya", ""),
    ],
)
def test_phrase_is_reduced_like_the_sites_search_box(query: str, sent: str) -> None:
    assert normalize_phrase(query) == sent


def test_breadcrumb_reads_the_tree_html_or_a_list() -> None:
    tree = '<a href="/books/3400000000">תניא</a> &gt; <a href="/books/1"><b>פרק</b> א</a>'
    assert breadcrumb(tree) == "תניא / פרק א"
    assert breadcrumb("תניא - פרק א") == "תניא - פרק א"
    assert breadcrumb([{"heading": "תניא"}, "פרק א"]) == "תניא / פרק א"
    assert breadcrumb(None) == ""


def test_snippet_is_a_window_around_the_phrase() -> None:
    words = [f"מילה{chr(0x05D0 + k % 22)}" for k in range(80)]
    html = (
        "<h2>כותרת</h2>\r\n[cup]"
        + " ".join(words[:40])
        + "[/cup] ביטול היש "
        + " ".join(words[40:])
    )
    cut = snippet(html, "ביטול היש")
    assert "ביטול היש" in cut and cut.startswith("…") and cut.endswith("…")
    assert 60 <= len(cut) <= 104
    inner = cut.strip("…")
    assert inner in " ".join(["כותרת", *words[:40], "ביטול", "היש", *words[40:]])
    assert snippet("<p>קצר</p>", "אחר") == "קצר"
    start = snippet(html, "לא נמצא")  # not on the page: its start
    assert start.startswith("כותרת") and start.endswith("…")


def test_hits_in_the_sites_shape_are_read() -> None:
    body: dict[str, Any] = {
        "count": 77,
        "results": [
            {"mafteach_id": 3401310006, "tree": "<a>תניא</a><a>פרק א</a>", "text": "<p>א</p>"},
            {"tree": "no id"},
        ],
    }
    found = read_search(body, endpoint="/api/search")
    assert [(h.id, h.heading, h.html) for h in found.results] == [
        ("3401310006", "תניא / פרק א", "<p>א</p>")
    ]
    assert found.count == 77


def test_statistics_are_read_and_bad_shapes_named() -> None:
    counts = read_counts(
        [{"section_id": 3400000000, "count": 12}, {"section_id": 1, "count": "3"}, {"x": 1}],
        endpoint="/api/statistics",
    )
    assert [(c.section_id, c.count) for c in counts] == [("3400000000", 12), ("1", 3)]
    assert (
        read_counts([], endpoint="e") == [] and read_counts({"results": None}, endpoint="e") == []
    )
    for bad in ({"results": 5}, [{"section_id": 1}], "x"):
        with pytest.raises(LibraryError, match="statistics"):
            read_counts(bad, endpoint="/api/statistics")
