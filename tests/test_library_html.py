"""The library's page HTML and notes -> clean text, headings and footnotes (pure, no I/O)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from libtext._library_html import parse_notes, parse_page, plain


def test_headings_stay_on_their_own_lines_and_are_listed() -> None:
    page = parse_page("<h2>פרק א</h2>טקסט <b>מודגש</b> כאן<h3>סעיף ב</h3><p>עוד</p>")
    assert page.text.split("\n") == ["פרק א", "טקסט מודגש כאן", "סעיף ב", "עוד"]
    assert page.headings == ["פרק א", "סעיף ב"]


def test_blocks_breaks_entities_and_scripts() -> None:
    page = parse_page(
        "<div>שורה&nbsp;ראשונה<br>שורה&nbsp;שנייה</div><script>var x = '[cup]';</script>"
        "<style>p{}</style><p>א &amp; ב &quot;ג&quot;</p>"
    )
    assert page.text.split("\n") == ["שורה ראשונה", "שורה שנייה", 'א & ב "ג"']


def test_library_marks_are_dropped_and_hebrew_brackets_kept() -> None:
    # [sic] was kept as text before; the site's unknown ASCII tokens are markup, counted.
    page = parse_page(
        "<p>[cup]והנה[/cup] [dibur_maschil]ד״ה[/dibur_maschil] [mudgash]חשוב[/mudgash]"
        " [אות ב] [oldpage_יב]עמוד [mafteach_gopage 12]מפתח [sic] [small_begin]קטן[small_end]</p>"
    )
    assert page.text == "והנה ד״ה חשוב [אות ב] עמוד מפתח קטן"
    assert page.unknown_tokens == {"[sic]": 1}
    assert [(m.label, page.text[m.offset :].split()[0]) for m in page.printed_pages] == [
        ("יב", "עמוד")
    ]


def test_footnote_markers_become_numbers_and_notes_are_parsed() -> None:
    page = parse_page(
        "<p>אחד[ftnref_1_1] שניים[ftnref_1_2] שלושה[ftnref_1_3]</p>",
        "[ftn_1_1]) [dibur_maschil]אחד[/dibur_maschil] – ראה שם.\r\n\r\n"
        "[ftn_1_2] <b>שניים</b>: עיין\r\nבפנים.\r\n\r\n"
        "[ftn_1_3]) [ספר] פרק [ב].",
    )
    assert page.text == "אחד[1] שניים[2] שלושה[3]"
    assert [(f.marker, f.content) for f in page.footnotes] == [
        ("1", "אחד – ראה שם."),
        ("2", "שניים: עיין בפנים."),
        ("3", "[ספר] פרק [ב]."),
    ]


def test_same_number_in_two_note_groups_is_told_apart() -> None:
    page = parse_page(
        "<p>א[ftnref_1_1] ב[ftnref_2_1] ג[ftnref_1_2]</p>",
        "[ftn_1_1]) ראשונה\n\n[ftn_1_2]) שניה\n\n[ftn_2_1]) ציון",
    )
    assert page.text == "א[1.1] ב[2.1] ג[2]"
    assert [(f.marker, f.content) for f in page.footnotes] == [
        ("1.1", "ראשונה"),
        ("2", "שניה"),
        ("2.1", "ציון"),
    ]


def test_notes_at_the_end_of_the_text_are_notes() -> None:
    page = parse_page("<p>גוף[ftnref_1_1]</p><p>[ftn_1_1]) הערה בסוף.</p>")
    assert page.text == "גוף[1]"
    assert [(f.marker, f.content) for f in page.footnotes] == [("1", "הערה בסוף.")]


def test_notes_without_library_marks_split_on_blank_lines() -> None:
    notes = parse_notes("1) ראשונה.\n\n(2) שניה\nהמשך.\n\nבלי מספר.")
    assert [(f.marker, f.content) for f in notes] == [
        ("1", "ראשונה."),
        ("2", "שניה המשך."),
        ("3", "בלי מספר."),
    ]


def test_a_marker_without_a_note_is_kept_and_empty_input_is_empty() -> None:
    page = parse_page("<p>מילה[ftnref_1_4]</p>", "")
    assert page.text == "מילה[4]" and page.footnotes == []
    assert parse_page("").text == "" and parse_notes("  \n ") == []


def test_plain_is_one_line_without_markup() -> None:
    assert plain("<b>פרק</b>\n<i>א</i>[ftnref_1_1] [cup]ב[/cup]") == "פרק א ב"


def test_broken_html_does_not_break_parsing() -> None:
    page = parse_page("<p>פתוח <b>בלי סגירה <h2>כותרת</p> <div")
    assert "פתוח בלי סגירה" in page.text and "כותרת" in page.headings


@given(st.text(alphabet=st.sampled_from(list("<>/[]_ftnrefhp12אבג )\n&;")), max_size=80))
def test_any_input_gives_text_without_note_marks(html: str) -> None:
    page = parse_page(html, html)
    assert "[ftnref_" not in page.text
    assert all("\n" not in f.content for f in page.footnotes)
