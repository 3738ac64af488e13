"""libtext.sefaria on real citation notation: each case is written from what the notation
means (gematria, daf/amud, rashei teivot), not from the linker's output."""

from __future__ import annotations

import pytest

from libtext.sefaria import find_citations


def found(text: str) -> list[tuple[str, str]]:
    return [(c.text, c.ref) for c in find_citations(text)]


def refs(text: str) -> list[str]:
    return [c.ref for c in find_citations(text)]


# ---------------------------------------------------------------- bugs


@pytest.mark.parametrize(
    "text",
    [
        'ברכות ד"ה',  # ד"ה = dibbur ha-maschil (the opening words), not "daf 5"
        'ברכות ד"ה אמר רבא',
        "ברכות ד״ה",
    ],
)
def test_dibbur_hamaschil_is_not_a_daf(text: str) -> None:
    assert refs(text) == []


def test_tosafot_dibbur_hamaschil_points_into_tosafot_not_the_daf() -> None:
    # תוד"ה = תוספות ד"ה: the words after it open a Tosafot comment on Menachot 78a
    assert refs('תוד"ה אחת מנחות עח, א') == ["Tosafot on Menachot 78a"]
    assert refs("תוס' ד\"ה אחת מנחות עח, א") == ["Tosafot on Menachot 78a"]
    assert "Menachot 78a" not in refs('ראה תוד"ה אחת מנחות עח, א')


def test_a_dash_that_is_not_a_range_keeps_the_citation() -> None:
    assert found("בראשית א, א - ועוד דבר") == [("בראשית א, א", "Genesis 1:1")]


def test_a_dash_between_two_books_gives_two_citations() -> None:
    assert refs("בראשית א, א - שמות ב, ג") == ["Genesis 1:1", "Exodus 2:3"]


def test_a_range_with_the_title_repeated_is_one_range() -> None:
    text = "דברי הימים א ט״ו:ט״ו - דברי הימים א ט״ז:י״ז"
    assert found(text) == [(text, "I Chronicles 15:15-16:17")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('רש"י על ברכות ב:', ["Rashi on Berakhot 2b"]),  # ":" = amud b
        ('רש"י על בראשית א, א', ["Rashi on Genesis 1:1"]),
        ("מדרש תהלים פרק כג", ["Midrash Tehillim 23"]),  # the midrash, not Psalms 23
        ('רמב"ן על ברכות ב:', []),  # Ramban on the Talmud is another work: no link
    ],
)
def test_commentary_written_with_al_links_the_commentary(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize("text", ["מכות דף ב עמוד ג", "מכות דף ב עמוד ד'", "שבת דף ה עמוד ה"])
def test_an_impossible_amud_is_no_link(text: str) -> None:
    # a daf has two sides, א and ב
    assert refs(text) == []


def test_pointed_text_links_and_keeps_offsets() -> None:
    text = '(יְשַׁעְיָה ל"ח)'
    (c,) = find_citations(text)
    assert c.ref == "Isaiah 38"
    assert text[c.start : c.end] == c.text == 'יְשַׁעְיָה ל"ח'
    pointed = "כְּמוֹ שֶׁכָּתוּב (בְּרֵאשִׁית א, א) וְכוּ'"
    (c,) = find_citations(pointed)
    assert (c.ref, c.text) == ("Genesis 1:1", "בְּרֵאשִׁית א, א")


# ---------------------------------------------------------------- missed notations


@pytest.mark.parametrize(
    ("text", "ref", "confidence"),
    [
        # bare letters outside parentheses: the numbers fit the book and end the clause
        ("ירמיה י", "Jeremiah 10", 0.7),
        ("דברי הימים ב לב יט", "II Chronicles 32:19", 0.7),
        ("טהרות ג ב", "Mishnah Tahorot 3:2", 0.7),
        ("שמות י יב.", "Exodus 10:12", 0.7),
        ("שבת צה", "Shabbat 95a-95b", 0.7),  # a daf without amud is both sides
        # marked numbers: full confidence
        ("ירמיה ט'", "Jeremiah 9", 1.0),
    ],
)
def test_bare_numbers_outside_parentheses(text: str, ref: str, confidence: float) -> None:
    (c,) = find_citations(text)
    assert (c.ref, c.confidence) == (ref, confidence)


@pytest.mark.parametrize(
    "text",
    [
        "ירמיה י אמר",  # a word follows: prose as likely as a citation
        "בשבת לא.",  # "לא" (not) ends a sentence more often than it is daf 31
        "שמות לו.",  # "names to him"
        "ירמיה נג",  # Jeremiah has 52 chapters
        "טהרות יא ב",  # Tahorot has 10 chapters
    ],
)
def test_bare_numbers_that_are_not_citations(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("בספר בראשית", "Genesis"),
        ("בהלכות אישות", "Mishneh Torah, Marriage"),
        ("במסכת תמיד", "Tamid"),
        ("במסכת אבות", "Pirkei Avot"),  # no Bavli: the Mishnah tractate
        ("בפרשת בהעלותך", "Numbers 8:1-12:16"),  # Numbers 8:1 to the end of chapter 12
        ("לפרשת וילך", "Deuteronomy 31:1-30"),  # the whole of chapter 31
    ],
)
def test_a_work_named_without_numbers(text: str, ref: str) -> None:
    (c,) = find_citations(text)
    assert (c.text, c.ref, c.kind) == (text, ref, "book")
    assert c.confidence < 0.6  # below a full citation: the Translator does not link these


@pytest.mark.parametrize(
    "text",
    [
        'בר"מ פרשת פנחס',  # Ra'aya Meheimna's section on Pinchas, not the Torah portion
        'המ"א הלכות תענית',  # Magen Avraham's laws of fasts, not the Rambam's
        "בספר בראשית נא, א",  # numbers that do not fit: no link at any depth
        "בספר הזה",
    ],
)
def test_a_named_work_that_belongs_to_something_else(text: str) -> None:
    assert refs(text) == []


def test_a_work_named_with_numbers_is_a_full_citation() -> None:
    (c,) = find_citations("בספר בראשית א, א")
    assert (c.ref, c.kind, c.text) == ("Genesis 1:1", "full", "בספר בראשית א, א")


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # פ"ק = פרק קמא (chapter 1); Pesachim chapter 1 runs 2a-21a in the Vilna Shas
        ('פ"ק בפסחים', "Pesachim 2a:1-21a:7"),
        ('פ"ה בפסחים', "Pesachim 58a:1-65b:9"),
        ('רפ"ג דכלאים', "Mishnah Kilayim 3"),  # Kilayim has no Bavli: its Mishnah chapter
        ('ר"פ בתרא דמשנה ברכות', "Mishnah Berakhot 9"),  # בתרא = the last chapter, of 9
        ("משנה ברכות פרק קמא", "Mishnah Berakhot 1"),
        ("משנה ברכות פרק בתרא", "Mishnah Berakhot 9"),
        ("פרק אלו דברים בפסחים", "Pesachim 65b:10-73b:16"),  # chapter 6 by its opening words
        ('בספ"ג דנדה', "Niddah 21a:4-31b:17"),
        ('ב"ב פ"א', "Bava Batra 2a:1-17a:7"),  # פ"א after a tractate is chapter 1, not daf 81
        ('ר"פ ט"ז דשבת', "Shabbat 115a:3-122b:3"),
    ],
)
def test_tractate_chapters(text: str, ref: str) -> None:
    (c,) = find_citations(text)
    assert (c.text, c.ref, c.kind) == (text, ref, "chapter")


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ('יבמות סא ע"א-ע"ב', "Yevamot 61a-61b"),
        ("ברכות י\"א עמוד א–עמוד ב'", "Berakhot 11a-11b"),
        ("ספר בראשית פרק יג פסוק א עד פרק יד פסוק ד", "Genesis 13:1-14:4"),
        ("דברים פרק יד פסוקים כ-כב", "Deuteronomy 14:20-22"),
        ("בבלי דף ב עמוד א במכות", "Makkot 2a"),
        ("עירובין פב-פג", "Eruvin 82a-83b"),
        ('דשבועות דט"ז', "Shevuot 16a-16b"),
        ("שמות ד׳", "Exodus 4"),
        ("שמות ד׳-ה׳", "Exodus 4-5"),
        ("ברכות ב׳-ג׳", "Berakhot 2a-3b"),
        ("שבת ג׳ ב:כ״ג", "Shabbat 3b:23"),
        ("במסכת מכות (יד, ב)", "Makkot 14b"),
        ("בזבחים (קא, ב)", "Zevachim 101b"),
        ("שמות (לב א)", "Exodus 32:1"),
        ("השו\"ע או\"ח (סי' קיג סעי' טז)", "Shulchan Arukh, Orach Chayim 113:16"),
        ('שו"ע יו"ד קיג:ד', "Shulchan Arukh, Yoreh De'ah 113:4"),
        ("ברכות ח.", "Berakhot 8a"),  # the period is amud a
        ('ירושלמי יומא פ"א ה"א', "Jerusalem Talmud Yoma 1:1"),
        ('ב"ר פ"ח', "Bereshit Rabbah 8"),
        ('שמו"ר פט"ו', "Shemot Rabbah 15"),
        ('רש"י בראשית א, א', "Rashi on Genesis 1:1"),
        ('פדר"א פ"ג', "Pirkei DeRabbi Eliezer 3"),
    ],
)
def test_notations(text: str, ref: str) -> None:
    assert found(text) == [(text, ref)]


def test_a_daf_alone_in_brackets() -> None:
    assert found('(יבמות ס"ה)') == [('יבמות ס"ה', "Yevamot 65a-65b")]


def test_amud_by_period_is_told_from_what_follows() -> None:
    assert found("יומא עה. ועוד") == [("יומא עה.", "Yoma 75a")]
    assert refs("יומא עה. והנה הוא") == []  # the period may end the sentence


def test_numbers_that_overrun_the_chapter_are_no_link() -> None:
    assert refs("דברים פרק יד פסוקים מ-מה") == []  # Deuteronomy 14 has 29 verses


@pytest.mark.parametrize(
    "text",
    [
        'ירושלמי כלים פ"א ה"א',  # the Yerushalmi has no Kelim
        'ירושלמי יומא פ"ט ה"א',  # Yoma has 8 chapters
        'תקו"ז תי"ח',  # Tikkunei Zohar by tikkun number: Sefaria numbers it by daf
    ],
)
def test_left_unlinked(text: str) -> None:
    assert refs(text) == []


def test_kinds() -> None:
    kinds = [c.kind for c in find_citations('ראה בראשית א, א. ושם ב, ג. ותהלים קי"ט')]
    assert kinds == ["full", "ibid", "chapter"]


# ---------------------------------------------------------------- the Translator's threshold


def test_translator_links_only_citations_above_its_threshold() -> None:
    from libtext.models import EnrichedSegment
    from libtext.translate import LINK_CONFIDENCE, Translator

    block = "כמו שכתוב בספר בראשית ובפרט (בראשית א, ג) ויאמר"
    seg = EnrichedSegment(
        sequence_id=1,
        chapter_title="א",
        segment_title="א",
        original_hebrew_block=block,
        footnotes=[],
    )
    book, verse = find_citations(block)
    assert book.confidence < LINK_CONFIDENCE <= verse.confidence
    data = Translator(provider="offline").translate(seg).translation_data
    assert {d.sefaria_link for d in data if d.sefaria_link} == {
        "https://www.sefaria.org/Genesis.1.3"
    }


def test_translate_citation_does_not_reduce_a_named_work_to_its_title() -> None:
    from libtext.sefaria import translate_citation

    assert translate_citation("בספר בראשית") is None
    assert translate_citation("ראה שבת צה") == "See Shabbat 95a-95b"


@pytest.mark.parametrize(
    "text",
    [
        'תו"ח בראשית כא, ג',  # Torah Chaim (Mitteler Rebbe) by printed page and column
        'תו"ח בראשית לג, סע"ד',  # סע"ד: the end of column ד
        "תנחומא באבער בראשית טז",  # Tanchuma (Buber), section 16 of Bereishit
        'לקו"ת להאריז"ל נח (ו, יג)',  # the Arizal's Likkutei Torah, not Genesis 6:13
        'שערי אורה ש"א (יד, ב)',  # ש"א = שער א (gate 1), page 14b
        'פיה"מ סנהדרין פ"י',  # the Rambam's Mishnah commentary, not the Bavli chapter
        'ראה גם ד"ח שם ו, סע"ג',  # שם is Derech Chaim, named just before
    ],
)
def test_works_cited_by_page_are_not_linked_to_tanakh_or_talmud(text: str) -> None:
    assert refs(text) == []


def test_amud_written_as_beginning_or_end() -> None:
    assert refs('שבת ג, ריש ע"ב') == ["Shabbat 3b"]  # the beginning of amud b is amud b


# ---------------------------------------------------------------- context ibid


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ברכות ב, א. דף כ שם", ["Berakhot 2a", "Berakhot 20a-20b"]),
        ("שבת לא, א. ועיין דף לב, ב", ["Shabbat 31a", "Shabbat 32b"]),
        (
            'שו"ע או"ח סימן א. סימן תצ"ג',
            ["Shulchan Arukh, Orach Chayim 1", "Shulchan Arukh, Orach Chayim 493"],
        ),
        # another work named in between: its page, not the tractate's
        ('ברכות ב, א. וראה זח"א דף כ', ["Berakhot 2a", "Zohar, Bereshit"]),  # (a Zohar page)
        ("ברכות ב, א.\nדף כ", ["Berakhot 2a"]),  # a new line starts a new context
        ("דף כ", []),  # no citation before it
    ],
)
def test_context_ibid(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


# ---------------------------------------------------------------- a lone number after שם


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # after a verse, a lone number is another verse of that chapter, as "שם פסוק ז"
        ("בראשית א, א. שם ז", ["Genesis 1:1", "Genesis 1:7"]),
        ("ישעי' נז, טו. ושם, כ.", ["Isaiah 57:15", "Isaiah 57:20"]),
        ("ישעיה א, א (שם ז)", ["Isaiah 1:1", "Isaiah 1:7"]),
        # after a chapter, another chapter, alone in brackets
        ('(תהלים קי"ט) ועוד (שם ז)', ["Psalms 119", "Psalms 7"]),
        # two numbers are still chapter and verse
        ("בראשית א, א. שם ז, ג", ["Genesis 1:1", "Genesis 7:3"]),
    ],
)
def test_ibid_with_a_lone_number(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "בראשית א, א. שם ז אמר",  # a word follows: "שם" may be a noun ("the name")
        "בראשית א, א. שם ה'.",  # the divine name
        "בראשית א, א. שם לא.",  # "לא" (not) ends sentences
        "תהלים כג, א. שם ז.",  # Psalm 23 has 6 verses
        '(תהלים קי"ט) (שם לא)',
    ],
)
def test_a_lone_number_after_ibid_that_is_no_citation(text: str) -> None:
    assert len(refs(text)) == 1


def test_a_lone_ibid_verse_is_bare_letters() -> None:
    ibid = find_citations("בראשית א, א. שם ז")[1]
    assert (ibid.kind, ibid.confidence) == ("ibid", 0.6)  # bare letters: 0.9 -> 0.6


# ---------------------------------------------------------------- a daf after a chapter


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # Shevuot chapter 2 (ידיעות הטומאה) runs 14a-19b: daf 16 is in it
        ('בפ"ב דשבועות דט"ז', "Shevuot 16a-16b"),
        ('בפ"ב דשבועות דט"ז ע"ב', "Shevuot 16b"),
        ('פ"ק בפסחים דף ה, א', "Pesachim 5a"),  # chapter 1 runs 2a-21a
    ],
)
def test_a_daf_after_a_chapter_is_the_passage(text: str, ref: str) -> None:
    (c,) = find_citations(text)
    assert (c.text, c.ref, c.kind, c.confidence) == (text, ref, "full", 1.0)


@pytest.mark.parametrize(
    ("text", "cited", "ref"),
    [
        # chapter 1 of Shevuot ends on 14a: daf 16 does not belong to it, the chapter stays
        ('בפ"ק דשבועות דט"ז', 'בפ"ק דשבועות', "Shevuot 2a:1-14a:11"),
        ('פ"ק דפסחים דף כא:', 'פ"ק דפסחים', "Pesachim 2a:1-21a:7"),  # 21b is chapter 2
    ],
)
def test_a_daf_outside_the_chapter_is_not_read(text: str, cited: str, ref: str) -> None:
    (c,) = find_citations(text)
    assert (c.text, c.ref, c.kind) == (cited, ref, "chapter")


# ---------------------------------------------------------------- Sefaria's Hebrew forms
# Text copied from Sefaria's Hebrew interface writes every work as "title chapter:section"
# with geresh/gershayim numerals: the colon says the letters are numbers.


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("משנה תורה, הלכות תשובה ג׳:ד׳", ["Mishneh Torah, Repentance 3:4"]),
        ("הלכות תשובה ג׳", ["Mishneh Torah, Repentance 3"]),  # a chapter alone, marked
        ('רמב"ם הלכות תשובה ג:ד', ["Mishneh Torah, Repentance 3:4"]),
        ("הלכות תשובה ג׳:ד׳-ו׳", ["Mishneh Torah, Repentance 3:4-6"]),
        ("תלמוד ירושלמי ברכות א׳:א׳", ["Jerusalem Talmud Berakhot 1:1"]),
        ("ירושלמי שבת ז:ב", ["Jerusalem Talmud Shabbat 7:2"]),
        ("ירושלמי ברכות א׳:א׳:ב׳", ["Jerusalem Talmud Berakhot 1:1:2"]),  # with its segment
        ("משנה ברכות א׳", ["Mishnah Berakhot 1"]),
        ("שולחן ערוך אורח חיים רנ״ה", ["Shulchan Arukh, Orach Chayim 255"]),
        ("רש״י על בראשית א׳:א׳:ב׳", ["Rashi on Genesis 1:1:2"]),  # the second comment there
        ("מדרש תהלים כ״ג", ["Midrash Tehillim 23"]),
        ("מדרש תהלים כ״ג:א׳", ["Midrash Tehillim 23:1"]),  # colon: Sefaria's own section
        ("פרקי דרבי אליעזר ג׳", ["Pirkei DeRabbi Eliezer 3"]),
        ("תניא, ליקוטי אמרים ב׳", ["Tanya, Part I; Likkutei Amarim 2"]),
    ],
)
def test_sefaria_hebrew_interface_forms(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "ולמד הלכות תשובה ג׳ פעמים ביום",  # a marked numeral that goes on into prose
        "ירושלמי ברכות ב, א",  # a comma: a printed page of the Yerushalmi, not chapter:halakhah
        "שולחן ערוך אורח חיים ה'",  # ה' alone is the divine name
        "ירושלמי ברכות יא:א",  # Berakhot has 9 chapters
        "הלכות תשובה לא:א",  # no chapter 31
    ],
)
def test_sefaria_forms_that_are_not_citations(text: str) -> None:
    assert [c.ref for c in find_citations(text) if c.kind != "book"] == []


# ---------------------------------------------------------------- footnote abbreviations


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # ח"מ / א"ח: חושן משפט / אורח חיים; ססי' = סוף סימן (the end of the siman)
        ('ובח"מ ססי\' ל"ד', ["Shulchan Arukh, Choshen Mishpat 34"]),
        ('בא"ח סימן שמ"ג', ["Shulchan Arukh, Orach Chayim 343"]),
        ('שו"ע א"ח סי\' רנ"ה ס"ב', ["Shulchan Arukh, Orach Chayim 255:2"]),
        # Mishnah Berurah: siman and its small se'if (ס"ק, glued סק"ד)
        ('משנ"ב סי\' רנ"ה סק"ד', ["Mishnah Berurah 255:4"]),
        ('משנה ברורה סימן רנה ס"ק יד', ["Mishnah Berurah 255:14"]),
        ('משנ"ב סי\' רנ"ה סק"ד. ושם סק"ה', ["Mishnah Berurah 255:4", "Mishnah Berurah 255:5"]),
        # Likkutei Amarim in two parts: its second part (ח"ב) is Shaar HaYichud VehaEmunah
        ('בלק"א ח"ב פי"א', ["Tanya, Part II; Shaar HaYichud VehaEmunah 11"]),
        ('וכמ"ש בלק"א בח"א פל"ד', ["Tanya, Part I; Likkutei Amarim 34"]),
        # a tractate's name cut short by a geresh
        ("בפ\"ו דשבועו'", ["Shevuot 38b:8-44b:7"]),
        ("סנהדרי' לז, א", ["Sanhedrin 37a"]),
    ],
)
def test_footnote_abbreviations(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'משנ"ב סי\' רנ"ה',  # Mishnah Berurah needs its small se'if: the siman is the SA's
        'ח"מ ל"ד.',  # an abbreviation and a numeral, with no siman word: not enough
        "ברכו' את ה'",  # a cut-short name with no numbers
        "ושם סנהדרי'",
    ],
)
def test_footnote_abbreviations_that_are_not_citations(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("משנה, ברכות א:א", ["Mishnah Berakhot 1:1"]),  # Sefaria's "Mishnah, Tractate"
        ("רמב\"ם הל' תפילה ד, א", ["Mishneh Torah, Prayer and the Priestly Blessing 4:1"]),
        ('שו"ע או"ח רנה, ב', ["Shulchan Arukh, Orach Chayim 255:2"]),  # siman, se'if
        ("עדויות ה:ז", ["Mishnah Eduyot 5:7"]),  # plene spelling of עדיות
        ("מקוואות א, א", ["Mishnah Mikvaot 1:1"]),
        ("שמות רבה א", ["Shemot Rabbah 1"]),  # a bare chapter that ends the text
        ("תהלים כג א-ב", ["Psalms 23:1-2"]),  # bare numbers with a range, at a clause end
    ],
)
def test_more_spellings_and_separators(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'שו"ע או"ח רנה, והנה',  # a comma, then prose: no se'if
        "שמות רבה לא",  # לא ends clauses as a word ("not")
        "תהלים כג א-ב ועוד דברים",  # bare numbers that run on into prose
    ],
)
def test_more_separators_that_are_not_citations(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a list of references: a bare pair after a citation, with only "." or ";" between
        ("יחזקאל א, טז. י, י.", ["Ezekiel 1:16", "Ezekiel 10:10"]),
        ("תהלים יח, ב; כב, ד", ["Psalms 18:2", "Psalms 22:4"]),
        ("ברכות ה, א. ו, ב.", ["Berakhot 5a", "Berakhot 6b"]),
        # not a continuation: words between, brackets (a page of the edition), prose after,
        # or numbers the book does not have
        ("ישעי' ז, יד. ראה לעיל ו, ב.", ["Isaiah 7:14"]),
        ('אגה"ק סכ"ט (קמט, ב).', ["Tanya, Part IV; Iggeret HaKodesh 29"]),
        ("ברכות ה, א. ו, ב ועוד דברים", ["Berakhot 5a"]),
        ("בראשית א, א. נא, א.", ["Genesis 1:1"]),
    ],
)
def test_a_pair_continuing_a_list_of_references(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("שבת דף טו ע' א", "Shabbat 15a"),  # ע' = עמוד
        ("שו״ע אורח חיים סי׳ א׳ סע׳ א׳", "Shulchan Arukh, Orach Chayim 1:1"),  # סע' = סעיף
        ("שבת טו. – טז:", "Shabbat 15a-16b"),  # en dash
        ("שבת טו, א — טז, ב", "Shabbat 15a-16b"),  # em dash
        ("(בְּרֵאשִׁית א, א)", "Genesis 1:1"),  # pointed
        ('ירושלמי ברכות רפ"ד', "Jerusalem Talmud Berakhot 4"),
    ],
)
def test_amud_words_dashes_and_points(text: str, ref: str) -> None:
    assert refs(text) == [ref]


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # הל' before a number abbreviates הלכה: "halacha 2", not ה glued to ל' (30 is ה"ל)
        ("רמב\"ם הל' תשובה פ\"א הל' ב", "Mishneh Torah, Repentance 1:2"),
        ("(הל' שבת פ\"ד הל' ו)", "Mishneh Torah, Sabbath 4:6"),
        ("ירושלמי יומא פ\"א הל' ג", "Jerusalem Talmud Yoma 1:3"),
        ('רמב"ם הל\' תשובה פ"א ה"ל', "Mishneh Torah, Repentance 1:30"),
    ],
)
def test_hal_abbreviates_halacha(text: str, ref: str) -> None:
    assert refs(text) == [ref]


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # ירו' abbreviates ירושלמי: the Jerusalem Talmud's chapter and halacha, not the Bavli
        ('ירו\' ברכות פ"א ה"א', "Jerusalem Talmud Berakhot 1:1"),
        ('ירו׳ שבת פ"ז ה"ב', "Jerusalem Talmud Shabbat 7:2"),
        ("ירו' פאה פ\"ב", "Jerusalem Talmud Peah 2"),
    ],
)
def test_yerushalmi_abbreviated(text: str, ref: str) -> None:
    assert refs(text) == [ref]


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # the Vilna Midrash Rabbah numbers paragraphs within a parasha: ס"א, סי' ב, אות א
        ('(ב"ר פ"ח ס"א)', "Bereshit Rabbah 8:1"),
        ('שמו"ר פט"ו סי\' ו', "Shemot Rabbah 15:6"),
        ("(ויקרא רבה פרשה ד אות ח)", "Vayikra Rabbah 4:8"),
        ('ב"ר פ"ח ספ"ט', "Bereshit Rabbah 8"),  # ספ"ט: the end of chapter 9, no paragraph
    ],
)
def test_midrash_rabbah_paragraph_named(text: str, ref: str) -> None:
    assert refs(text) == [ref]


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # ר"ס / ס"ס before a siman: its beginning / end, the siman itself
        ('(שו"ע או"ח ר"ס א)', "Shulchan Arukh, Orach Chayim 1"),
        ('טוש"ע או"ח ר"ס רלא', "Shulchan Arukh, Orach Chayim 231"),
        ('שו"ע יו"ד ס"ס קטז', "Shulchan Arukh, Yoreh De'ah 116"),
        # the word for tractate between ירושלמי and its name
        ('ירושלמי מס\' ברכות פ"א ה"ב', "Jerusalem Talmud Berakhot 1:2"),
        ('ירושלמי מסכת שבת פ"ז ה"ב', "Jerusalem Talmud Shabbat 7:2"),
    ],
)
def test_siman_edges_and_yerushalmi_masechet(text: str, ref: str) -> None:
    assert refs(text) == [ref]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a range of the last number, glued to its letter again or as a marked numeral
        ('רמב"ם הל\' תשובה פ"ג ה"ד-ה"ה', ["Mishneh Torah, Repentance 3:4-5"]),
        ('שו"ע או"ח סי\' א ס"א-ס"ב', ["Shulchan Arukh, Orach Chayim 1:1-2"]),
        ('אבות פ"א מ"א-ג\'', ["Pirkei Avot 1:1-3"]),
        # not a range: backwards, the divine name, or a new siman after the dash
        ('רמב"ם הל\' תשובה פ"ג ה"ד-ה"ג', ["Mishneh Torah, Repentance 3:4"]),
        ('רמב"ם הל\' תשובה פ"ג ה"ד - ה\' אלקים', ["Mishneh Torah, Repentance 3:4"]),
        (
            'שו"ע או"ח סי\' א ס"א - סי\' ב',
            ["Shulchan Arukh, Orach Chayim 1:1", "Shulchan Arukh, Orach Chayim 2"],
        ),
    ],
)
def test_range_of_the_last_number(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # "מדרש רבה" before a book of the Torah names that book's Rabbah, not the book
        ("(מדרש רבה בראשית ח, א)", "Bereshit Rabbah 8:1"),
        ('במדרש רבה שמות פט"ו', "Shemot Rabbah 15"),
        # ranges of the last number in the Jerusalem Talmud and the Midrash
        ('(ירושלמי ברכות פ"ד ה"א-ה"ב)', "Jerusalem Talmud Berakhot 4:1-2"),
        ('(ב"ר פ"ח ס"א-ס"ב)', "Bereshit Rabbah 8:1-2"),
        # more abbreviations of book names
        ("(תה' קד, כד)", "Psalms 104:24"),
        ('(דבה"י א כט, יא)', "I Chronicles 29:11"),
    ],
)
def test_midrash_rabbah_by_book_ranges_and_abbreviations(text: str, ref: str) -> None:
    assert refs(text) == [ref]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # after a siman, "שם" with one se'if is that siman's se'if; a new siman is "סי'"
        (
            'שו"ע או"ח סי\' א ס"א. ושם ס"ב',
            ["Shulchan Arukh, Orach Chayim 1:1", "Shulchan Arukh, Orach Chayim 1:2"],
        ),
        (
            'שו"ע או"ח סי\' א ס"א. שם סעיף ג',
            ["Shulchan Arukh, Orach Chayim 1:1", "Shulchan Arukh, Orach Chayim 1:3"],
        ),
        (
            'שו"ע או"ח סי\' א ס"א. ושם סי\' ב',
            ["Shulchan Arukh, Orach Chayim 1:1", "Shulchan Arukh, Orach Chayim 2"],
        ),
        (
            'שו"ע או"ח סי\' א ס"א. ושם ס"ב ס"ג',
            ["Shulchan Arukh, Orach Chayim 1:1", "Shulchan Arukh, Orach Chayim 2:3"],
        ),
    ],
)
def test_ibid_seif_of_the_same_siman(text: str, expected: list[str]) -> None:
    assert refs(text) == expected


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # the last number of a range as bare letters, where the clause ends
        ('(רמב"ם הל\' תשובה פ"ג ה"ד-ו)', "Mishneh Torah, Repentance 3:4-6"),
        ('(שו"ע או"ח סי\' רנה ס"א-ג)', "Shulchan Arukh, Orach Chayim 255:1-3"),
        # bare letters that go on into prose are not a range
        ('רמב"ם הל\' תשובה פ"ג ה"ד-ו ועוד', "Mishneh Torah, Repentance 3:4"),
    ],
)
def test_range_ending_in_bare_letters(text: str, ref: str) -> None:
    assert refs(text) == [ref]


@pytest.mark.parametrize(
    "text",
    # a page of Likkutei Torah on a portion that shares a book's name
    ["ראה לקו\"ת פ' ויקרא ב, א", 'לקו"ת פרשת ויקרא ב, א'],
)
def test_a_blocking_work_keeps_its_portion_and_page(text: str) -> None:
    assert refs(text) == []


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        # Sefaria's colon form: a range of mishnayot, and the Mishnah Berurah's siman:se'if katan
        ("משנה ברכות א׳:א׳-ב׳", "Mishnah Berakhot 1:1-2"),
        ("(משנה ברכות א:א-ג)", "Mishnah Berakhot 1:1-3"),
        ("משנה ברורה רנ״ה:ד׳", "Mishnah Berurah 255:4"),
    ],
)
def test_colon_forms_of_mishnah_ranges_and_mishnah_berurah(text: str, ref: str) -> None:
    assert refs(text) == [ref]


def test_mishnah_berurah_without_its_small_seif_is_no_link() -> None:
    assert refs("משנה ברורה א, א") == []


@pytest.mark.parametrize(
    "text",
    [
        # a commentary or code cited at its base text's address: the address is the
        # commentary's (Sefaria numbers it under the commentary), never the base text's
        'רשב"א ברכות ב, א',
        'ריטב"א שבת קיט, ב',
        'רא"ש ברכות פ"א סי\' א',
        'כסף משנה הל\' תשובה פ"ג ה"ד',
        'ראב"ד הל\' תשובה פ"ג ה"ז',
        'ר"ע מברטנורא ברכות פ"א מ"א',
        "מצודת דוד תהלים א, א",
        "תרגום יונתן בראשית א, א",
        "ערוך השלחן או\"ח סי' א",
    ],
)
def test_a_commentary_at_its_base_text_address_is_not_the_base_text(text: str) -> None:
    assert refs(text) == []


def test_the_base_text_before_its_commentary_is_still_linked() -> None:
    assert refs('ראה ברכות ב, א ורשב"א שם') == ["Berakhot 2a"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a range of chapters as bare letters when the brackets close right after it
        ("(תהלים קד-קו)", ["Psalms 104-106"]),
        ("(תהלים קד-קו ועוד)", []),
        ("(בראשית נ-נא)", []),  # Genesis has 50 chapters
        # the name of a group of laws between the Shulchan Arukh's part and its siman
        ('(שו"ע או"ח הל\' שבת סי\' רנה ס"ב)', ["Shulchan Arukh, Orach Chayim 255:2"]),
        ('שו"ע או"ח הלכות ראש השנה סי\' תקפה', ["Shulchan Arukh, Orach Chayim 585"]),
        ('שו"ע או"ח הל\' שבת', []),
    ],
)
def test_bare_chapter_range_in_brackets_and_laws_named_before_the_siman(
    text: str, expected: list[str]
) -> None:
    assert refs(text) == expected
