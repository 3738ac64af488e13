"""The library's page HTML and notes -> clean text, headings and footnotes (pure, no I/O)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from libtext.library._html import parse_notes, parse_page, plain


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


# --- every token the site sends (README of the recorded pages) ---------------------------


def test_hagoho_and_kitzur_are_paragraphs_of_their_own() -> None:
    page = parse_page(
        "לפני [hagoho]<b>הגהה</b>[/hagoho][hagoho] (ומ״ש בזוהר)[/hagoho] אחרי"
        " [kitzur]קיצור הענין[/kitzur]סוף [kitzur_begin]עוד קיצור[kitzur_end]ושוב"
        "[new_section]פרק חדש"
    )
    assert page.text.split("\n") == [
        "לפני",
        "הגהה",
        "(ומ״ש בזוהר)",
        "אחרי",
        "קיצור הענין",
        "סוף",
        "עוד קיצור",
        "ושוב",
        "פרק חדש",
    ]
    assert page.unknown_tokens == {}


def test_quotation_becomes_quotation_marks_and_inline_headings_stay_inline() -> None:
    page = parse_page(
        "[headingintext_begin]חג השבועות[headingintext_end] כמו שכתוב [quotation]ויהי אור[/quotation]"
        " [zman_begin]תשמ״ה[zman_end] סוף"
    )
    assert page.text == 'חג השבועות כמו שכתוב "ויהי אור" תשמ״ה סוף'


def test_index_references_keep_their_words_and_page_numbers() -> None:
    page = parse_page(
        'ראה [mafteach_gopage file="ls30" gopage="240"] וע"ע '
        '[mafteach_goterm file="ls30" goterm="כיבוד אב ואם"]. [mrzlg_ברכות]'
    )
    assert page.text == "ראה עמ' 240 וע\"ע כיבוד אב ואם. ברכות"


def test_printed_pages_are_markers_not_text() -> None:
    page = parse_page("<h2>פרק ב</h2>\r\nסוף[oldpage_לח] התחלה\r\nשורה [oldpage_לט]אחרת")
    assert page.text == "פרק ב\nסוף התחלה\nשורה אחרת"
    assert [(m.label, m.offset) for m in page.printed_pages] == [
        ("לח", page.text.index(" התחלה")),
        ("לט", page.text.index("אחרת")),
    ]


def test_endnotes_are_notes_with_their_printed_labels() -> None:
    page = parse_page(
        "אחד[ftnref_7_1] שניים[ednref_3_א] שלושה[ednrefm_4_ב]",
        "[ftn_7_1] הערה.\r\n\r\n[edn_3_א]. ציון ראשון.\r\n\r\n[edn_4_ב]) ציון שני.",
    )
    assert page.text == "אחד[1] שניים[א] שלושה[ב]"
    assert [(f.marker, f.content) for f in page.footnotes] == [
        ("1", "הערה."),
        ("א", "ציון ראשון."),
        ("ב", "ציון שני."),
    ]


def test_unknown_tokens_are_dropped_counted_and_their_hebrew_kept() -> None:
    page = parse_page(
        "[newmark]מילים[/newmark] [other_12] [note_begin]עוד[note_end] "
        '[term word="ספר הערכים"] [label_חסידות]',
        "[ftn_1_1] [weird]הערה[/weird]",
    )
    assert page.text == "מילים עוד ספר הערכים חסידות"
    assert page.footnotes[0].content == "הערה"
    assert page.unknown_tokens == {
        "[newmark]": 1,
        "[/newmark]": 1,
        "[other_N]": 1,
        "[note_begin]": 1,
        "[note_end]": 1,
        "[term]": 1,
        "[label_…]": 1,
        "[weird]": 1,
        "[/weird]": 1,
    }


def test_hebrew_in_brackets_is_text() -> None:
    page = parse_page('[cup]תניא[/cup] [בספ"ג דנדה] משביעים [אבות פ"ב]')
    assert page.text == 'תניא [בספ"ג דנדה] משביעים [אבות פ"ב]'
