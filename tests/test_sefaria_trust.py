"""Links a reader can trust in running text (issue #26): no link to the wrong work.

Each test is written from what the notation means, one group per cause of a wrong link
found in running text; the strings are the shapes met in real notes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from libtext.sefaria import find_citations


def links(text: str) -> list[tuple[str, bool]]:
    return [(c.ref, c.exact) for c in find_citations(text)]


def refs(text: str) -> list[str]:
    return [c.ref for c in find_citations(text)]


# ---------------------------------------------------------------- 1. a work's own parasha and folio
# A list names the Zohar once, then gives its pages by parasha: they are pages of the Zohar,
# linked coarsely to Sefaria's Zohar parasha that holds them, never Tanakh verses.


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ראה זהר ויגש רי, א. ויקרא כ, ב.", ["Zohar, Vayigash", "Zohar, Vayikra"]),
        ('זהר (רע"מ) ויקרא כ, א', ["Zohar, Vayikra"]),  # a bracketed part of the Zohar between
        ("ראה זהר בראשית לח, א-ב.", ["Zohar, Bereshit"]),
        ("זהר ויקרא ד, א. ז, ב.", ["Zohar, Vayikra", "Zohar, Vayikra"]),
        ('זח"א דף פג:', ["Zohar, Lech Lecha"]),  # a page of a volume
        ('זהר ח"ב קיד, א', ["Zohar, Mishpatim"]),
        ('זוה"ק ח"א לך לך סתרי תורה דף פ.', ["Zohar, Lech Lecha"]),
        ("ראה זהר בהקדמה יא, ב.", ["Zohar, Introduction to the Zohar"]),
    ],
)
def test_zohar_pages_are_the_zohars(text: str, expected: list[str]) -> None:
    found = find_citations(text)
    assert [c.ref for c in found] == expected
    assert not any(c.exact for c in found)  # a page is coarser than a parasha's paragraphs


@pytest.mark.parametrize(
    "text",
    [
        "זהר ויקרא קצט, א",  # Vayikra's pages end long before 199: no parasha holds it
        'זח"א דף עו:',  # 1:76b is shared by Noach and Lech Lecha: the amud cannot decide
    ],
)
def test_zohar_page_no_parasha_holds_is_unlinked(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    "text",
    [
        'ביאוה"ז בראשית ב, א ואילך. נח ה, ד.',  # Biurei HaZohar, its own pages
        'ז"ח בראשית ט, א',  # Zohar Chadash
        "זהר חדש בראשית ט, א",
        'עט"ר שמות ב, א',  # Ateret Rosh
        "עטרת ראש ויקרא ג, ב",
        "לקו\"ת פ' ויקרא ב, א. צו ז, ג.",
    ],
)
def test_companions_of_the_zohar_are_not_verses(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # another work's title ends the list: Isaiah is Isaiah again
        ("ראה זהר בראשית יח, א. ישעי' א, א.", ["Zohar, Bereshit", "Isaiah 1:1"]),
        ('וביח"ת: זהר בראשית יח, ב. פסחים נו, א.', ["Zohar, Bereshit", "Pesachim 56a"]),
        # the note ends: the next note's verse is a verse
        ("ראה זהר שלח קסח, א.\n\nויקרא כ, ב.", ["Zohar, Sh'lach", "Leviticus 20:2"]),
        # prose after the list ends it
        ("ראה זהר בראשית יח, א. ועל זה נאמר ויקרא כ, ב.", ["Zohar, Bereshit", "Leviticus 20:2"]),
        # a bracket that held the work's name closes the list
        ('(זהר ח"ג ז, ב) ויקרא כ, ב.', ["Zohar, Vayikra", "Leviticus 20:2"]),
    ],
)
def test_a_works_list_ends(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# ---------------------------------------------------------------- 2. a commentary at its verse


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('אב"ע ויקרא א, א', "Ibn Ezra on Leviticus 1:1"),
        ("בחיי ויקרא א, א", "Rabbeinu Bahya, Vayikra 1:1"),
        ("רבינו בחיי שמות ג, ב", "Rabbeinu Bahya, Shemot 3:2"),
    ],
)
def test_commentary_at_its_verse_is_the_commentary(text: str, expected: str) -> None:
    assert refs(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        'ראה תו"כ בחוקותי כו, לז.',
        'ת"כ ויקרא א, ב',
        "תורת כהנים ויקרא א, ב",
        "ראה רקאנטי בראשית א, ג",
        "לקח טוב בראשית ב, ד",
        'אברבנאל שמו"ב יג, טו',
        "ילקוט ראובני בראשית א, א",
        "תורה שלמה בראשית א, א",
        "פי' המפרש ויקרא א, א",
        "ראה רקאנטי בראשית א, ג. ושם א, ד.",  # שם after it is the commentary's too
    ],
)
def test_commentary_sefaria_cannot_number_is_never_the_verse(text: str) -> None:
    assert refs(text) == []


# ---------------------------------------------------------------- 3. another work's citation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('ירושלמי סוף פ"ט דברכות', [("Jerusalem Talmud Berakhot 9", False)]),
        ('ירושלמי ספ"ב דברכות', [("Jerusalem Talmud Berakhot 2", False)]),
        ('ירושלמי סוף מסכת ברכות פ"ט', [("Jerusalem Talmud Berakhot 9", False)]),
        ('ירושלמי (ע"ז פ"א ה"א)', [("Jerusalem Talmud Avodah Zarah 1:1", True)]),
        ('ירושלמי פ"ב דברכות ה"ג', [("Jerusalem Talmud Berakhot 2:3", True)]),
        ('בירושלמי פ"א דפאה סוף ה"א', [("Jerusalem Talmud Peah 1:1", False)]),
        (
            'ברכות ב, א. ירושלמי שם פ"א ה"א',
            [("Berakhot 2a", True), ("Jerusalem Talmud Berakhot 1:1", True)],
        ),
    ],
)
def test_yerushalmi_is_never_the_bavli(text: str, expected: list[tuple[str, bool]]) -> None:
    assert links(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('תוספתא ריש פ"ג דסנהדרין', [("Tosefta Sanhedrin 3", False)]),
        # the Tosefta's halachot differ between editions: the chapter, coarse
        ('תוספתא ברכות פ"א ה"א', [("Tosefta Berakhot 1", False)]),
        ('תוספתא תענית פ"ב', [("Tosefta Ta'anit 2", True)]),
        ('תוספתא כלים פ"א', []),  # Sefaria splits the Tosefta's Kelim in three
    ],
)
def test_tosefta_is_never_the_bavli(text: str, expected: list[tuple[str, bool]]) -> None:
    assert links(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('ברכות ב, א תוד"ה מאימתי', "Tosafot on Berakhot 2a"),
        ('מנחות מד ע"א תד"ה טלית', "Tosafot on Menachot 44a"),
        ('ביצה (דף טו ע"ב רש"י ד"ה שמא יפשע)', "Rashi on Beitzah 15b"),
        ("תוס' ד\"ה אחת מנחות עח, א", "Tosafot on Menachot 78a"),
    ],
)
def test_comment_by_opening_words_is_the_commentarys_amud(text: str, expected: str) -> None:
    assert links(text) == [(expected, False)]


@pytest.mark.parametrize(
    "text",
    [
        "ספרי פרשת שופטים",  # a halachic midrash's section named after a portion
        "ספרי שופטים טז, יח",
        "מדרש משלי פרק א",  # a midrash on a Tanakh book is not the book
        "מדרש שמואל פרק ג",
        "מדרש אגדה בראשית א, א",  # a midrash arranged by portions is not Genesis
        "מדרש הגדול בראשית א, א",
    ],
)
def test_a_midrash_is_not_the_book_it_expounds(text: str) -> None:
    assert refs(text) == []


# ---------------------------------------------------------------- 4. tables of contents


@pytest.mark.parametrize(
    "text",
    [
        "קבלת שבת\n12",
        "סעודה שלישית לשבת\n 34",
        "קבלת שבת ........ 12",
        "מנחה לשבת …… 40",
    ],
)
def test_a_page_number_on_another_line_is_no_daf(text: str) -> None:
    assert refs(text) == []


def test_a_daf_on_its_line_still_links() -> None:
    assert refs("ראה שבת 12.") == [] or refs("ראה שבת 12.")[0].startswith("Shabbat")
    assert refs("(שבת\nלא, א)") == ["Shabbat 31a"]


# ---------------------------------------------------------------- 5. liturgical text


@pytest.mark.parametrize(
    "text",
    [
        "(וְשַׁבָּת וּ)מוֹעֲדֵי",  # a pointed letter is a word, not a numeral
        "(ושבת ו)מועדי",  # a bracket that closes against a letter splits a word
        "ו(שבת ו)מועדי",
    ],
)
def test_a_bracket_inside_a_word_is_no_citation(text: str) -> None:
    assert refs(text) == []


def test_pointed_title_with_plain_numbers_still_links() -> None:
    assert refs('(יְשַׁעְיָה ל"ח)') == ["Isaiah 38"]


# ---------------------------------------------------------------- 6. a portion named like a book


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("פרשת שופטים טז, יח", ["Deuteronomy 16:18"]),  # Judges 16:18 exists too
        ("פ' שופטים טז, יח", ["Deuteronomy 16:18"]),
        ("ס' שופטים ה, ו", ["Judges 5:6"]),  # ספר: the book
    ],
)
def test_portion_after_parashat_is_the_portion(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# ---------------------------------------------------------------- 7. another code's section


@pytest.mark.parametrize(
    "text",
    [
        'שו"ע אדה"ז הל\' ת"ת פ"ד ס"ה',
        'הל\' ת"ת פ"ד ס"ה',  # a se'if: a code with se'ifim, the Rambam has halachot
        'וכתב הגר"ז ז"ל בשו"ע שלו בהלכות ת"ת פ"ב ה"ד',
        'בשו"ע שלו (פ"א מהלכות ת"ת ה"ד)',
        "טור או\"ח סי' רנה",
        "ראה טור ובית יוסף או\"ח סי' רנה",
    ],
)
def test_another_codes_section_is_not_the_rambams(text: str) -> None:
    assert refs(text) == []


# ---------------------------------------------------------------- 8. verse words


@pytest.mark.parametrize("text", ["ויקרא ה' ה'", "ויקרא ה' אל משה", "שמות ה' ה' אלקינו"])
def test_the_divine_name_is_no_chapter(text: str) -> None:
    assert refs(text) == []


# ---------------------------------------------------------------- 9. ranges


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("שבת ג׳ ב:כ״ג-כ״ה", "Shabbat 3b:23-25"),
        ("שבת ג׳ ב:כ״ג-ד׳ א:ה׳", "Shabbat 3b:23-4a:5"),
        ("רש״י על בראשית א׳:א׳:ב׳-ג׳", "Rashi on Genesis 1:1:2-3"),
        ("ירושלמי ברכות א׳:א׳:ב׳-ד׳", "Jerusalem Talmud Berakhot 1:1:2-4"),
        ("תלמוד ירושלמי ברכות א׳:א׳-ג׳", "Jerusalem Talmud Berakhot 1:1-3"),
        # a conjunction before the hyphen: "and", not a range
        ("שבת ג׳ ב:כ״ג ו-כ״ה", "Shabbat 3b:23"),
        ("(בראשית א, א ו-ג)", "Genesis 1:1"),
    ],
)
def test_ranges_are_not_cut(text: str, expected: str) -> None:
    assert refs(text) == [expected]


# ---------------------------------------------------------------- coarse links say so


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('ר"פ ט"ז דשבת', "Shabbat 115a:3-122b:3"),  # the beginning of chapter 16
        ('בספ"ג דנדה', "Niddah 21a:4-31b:17"),
        ('רפ"ג דכלאים', "Mishnah Kilayim 3"),
        ('שמו"ר רפל"ב', "Shemot Rabbah 32"),
        ('טוש"ע או"ח ר"ס רלא', "Shulchan Arukh, Orach Chayim 231"),
        ("מדרש תהלים קד, יח", "Midrash Tehillim 104"),  # the verse dropped
        ("בתחילת פרק שני דפסחים", "Pesachim 21a:8-42a:14"),  # the chapter's beginning
        ("על עזבם: ירמי' ט. יא. יב.", "Jeremiah 9"),  # its verses listed after it
    ],
)
def test_coarse_links_are_marked(text: str, expected: str) -> None:
    assert links(text) == [(expected, False)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('פ"ק בפסחים', "Pesachim 2a:1-21a:7"),  # a chapter cited as a chapter: exact
        ("פרק אלו דברים בפסחים", "Pesachim 65b:10-73b:16"),
        ("ברכות ב, א", "Berakhot 2a"),
        ('רש"י על ברכות ב:', "Rashi on Berakhot 2b"),
        ('ב"ר פי"ט, ז', "Bereshit Rabbah 19:7"),
        ('יבמות ס"ה', "Yevamot 65a-65b"),  # a whole daf
    ],
)
def test_exact_citations_get_their_own_ref(text: str, expected: str) -> None:
    assert links(text) == [(expected, True)]


def test_bavli_chapters_are_sefarias_segment_refs(data_dir: Path) -> None:
    """Every chapter of every tractate links to Sefaria's own chapter ref."""
    path = data_dir / "bavli_chapter_segments.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    tractates = json.loads(path.read_text("utf-8"))["tractates"]
    for name, rec in tractates.items():
        for ch in rec["chapters"]:
            text = f"פרק {ch['he']} ב{_hebrew_name(name)}"
            if _hebrew_name(name) is None:
                continue
            found = refs(text)
            assert found == [ch["wholeRef"]], text


def _hebrew_name(tractate: str) -> str | None:
    from libtext.sefaria._data import catalog

    for he, roles in catalog().roles.items():
        tr = roles.get("tractate")
        plain = " " not in he and '"' not in he and not he.startswith("ד")
        if tr and tr["bavli"] and tr["bavli"][0] == tractate and plain:
            return he
    return None


# ---------------------------------------------------------------- follow-on items and ibid


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('ב"ר פי"ז, ה. פמ"ד, יז.', ["Bereshit Rabbah 17:5", "Bereshit Rabbah 44:17"]),
        (
            'תניא פל"ב. פל"ג.',
            ["Tanya, Part I; Likkutei Amarim 32", "Tanya, Part I; Likkutei Amarim 33"],
        ),
        (
            'רמב"ם הל\' תשובה פ"ג ה"ד. פ"ה ה"ב.',
            ["Mishneh Torah, Repentance 3:4", "Mishneh Torah, Repentance 5:2"],
        ),
        ('ב"ר פ"ח. ועל זה', ["Bereshit Rabbah 8"]),
    ],
)
def test_next_items_are_the_same_work(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# ---------------------------------------------------------------- coarse links reach the reader


def test_coarse_link_is_kept_in_translation_data_and_shown() -> None:
    from libtext._html import translated_html
    from libtext.models import EnrichedSegment
    from libtext.translate import Translator

    block = "וכן הוא בזהר. ראה זהר ויגש רי, א. ושם נאמר (בראשית א, ג) יהי אור."
    seg = EnrichedSegment(sequence_id=1, original_hebrew_block=block)
    result = Translator(provider="offline").translate(seg)
    linked = [d for d in result.translation_data if d.sefaria_link]
    assert {(d.sefaria_link.rsplit("/", 1)[1], d.exact) for d in linked} == {
        ("Zohar,_Vayigash", False),
        ("Genesis.1.3", True),
    }
    page = translated_html(result)
    assert page.count("(coarse)") == 1


def test_the_phrase_splitter_never_cuts_a_citation() -> None:
    from libtext.translate._phrases import split_phrases

    block = 'והנה ידוע מה שכתוב בזה בספר התניא פרק ל"ב ובשאר מקומות רבים מאד מאד'
    cites = [(c.start, c.end) for c in find_citations(block)]
    assert cites
    for max_words in range(1, 8):
        spans = split_phrases(block, protected=cites, max_words=max_words)
        cuts = {s for s, _ in spans[1:]}
        assert not any(s < cut < e for s, e in cites for cut in cuts), max_words


def test_a_citation_cut_by_a_models_phrases_links_the_phrase_with_its_numbers() -> None:
    import json as _json

    from libtext.models import EnrichedSegment
    from libtext.providers.function import FunctionProvider
    from libtext.translate import Translator

    block = "כמו שכתוב (משלי ה, ו) ארח חיים"

    def model(req: object) -> str:  # the model cuts the citation after its title
        return _json.dumps(
            {
                "phrases": [
                    {"hebrew_phrase": "כמו שכתוב (משלי", "english_translation": "as written"},
                    {"hebrew_phrase": "ה, ו) ארח חיים", "english_translation": "path of life"},
                ],
                "footnotes": [],
            }
        )

    seg = EnrichedSegment(sequence_id=1, original_hebrew_block=block)
    data = Translator(provider=FunctionProvider(model)).translate(seg).translation_data
    linked = [d.hebrew_phrase for d in data if d.sefaria_link]
    assert linked == ["ה, ו) ארח חיים"]


# ---------------------------------------------------------------- found reviewing running text
# Works arranged by the code's own sections cite them by the code's address: the address
# after them is theirs, not the code's (the same cause as a commentary at its verse).


@pytest.mark.parametrize(
    "text",
    [
        'הגר"א (ביו"ד סימן ק"ב ס"ק ח)',  # a small se'if: a commentary's, not the code's
        'הסמ"ע (חו"מ סימן פ"ה ס"ק ב\')',
        "בכף החיים חלק או\"ח סי' תלד אות ו",  # a commentary's letter
        'החזון איש (או"ח סימן קט"ז, יג)',
        'בחת"ס (תשובות או"ח סימן ב)',  # responsa arranged by the code's parts
        'הכתב סופר (אה"ע סימן ל"ח)',
        'בית יוסף בדק הבית ביו"ד סימן רמ"ב',
        'הגר"ח על הרמב"ם הלכות חמץ ומצה פ"א ה"ג',  # a commentary on the Rambam
        "אבן האזל הלכות גזלה ואבדה פרק י הלכה ט",
        "עיין בתוס' ר\"י הזקן על קידושין ה' ע\"ב שכתב",  # a commentary on the tractate
        'כתב הבעל המאור (פסחים כו ע"ב בדפי הרי"ף)',  # a page of the Rif's edition
        'ועיין מגן אברהם שם ס"ק י"א',  # ס"ק: a small se'if, never siman 100
        "חקר בעל הקהלות יעקב (ברכות יז) אם",  # a work numbered by its own simanim
    ],
)
def test_a_work_on_the_code_is_not_the_code(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('שו"ע או"ח סי\' א ס"א', "Shulchan Arukh, Orach Chayim 1:1"),
        ('שפסק מרן בשו"ע או"ח (סי\' קע סעיף ג)', "Shulchan Arukh, Orach Chayim 170:3"),
        ('כדברי הרמב"ם ז"ל (בהל\' דעות פ"ד ה"א)', "Mishneh Torah, Human Dispositions 4:1"),
        ('משנ"ב סי\' רנ"ה סק"ד', "Mishnah Berurah 255:4"),
    ],
)
def test_the_code_itself_still_links(text: str, expected: str) -> None:
    assert refs(text) == [expected]
