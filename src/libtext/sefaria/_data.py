"""Title tables for :mod:`libtext.sefaria`: Hebrew names and abbreviations -> Sefaria indexes.

The Sefaria titles and the Tanakh verse counts come from package data (see
``libtext/data/README.md``); the Chabad abbreviations, Mishnah chapter counts, last daf of
each tractate and Shulchan Arukh siman counts below are written out here from the standard
printed editions (Vilna Shas, Mishnah, Shulchan Arukh), the numbers Sefaria's texts follow.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from libtext.hebrew import format_numeral, normalize_quotes, strip_nikud

TANAKH_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "Genesis": ("בראשית", "בר'", "ברא'"),
    "Exodus": ("שמות", "שמ'"),
    "Leviticus": ("ויקרא", "ויק'"),
    "Numbers": ("במדבר", "במד'"),
    "Deuteronomy": ("דברים", "דב'"),
    "Joshua": ("יהושע", "יהוש'"),
    "Judges": ("שופטים", "שופ'"),
    "I Samuel": ('ש"א', 'שמ"א', 'שמו"א', "שמואל א", "שמואל א'"),
    "II Samuel": ('ש"ב', 'שמ"ב', 'שמו"ב', "שמואל ב", "שמואל ב'"),
    "I Kings": ('מ"א', 'מל"א', "מלכים א", "מלכים א'"),
    "II Kings": ('מ"ב', 'מל"ב', "מלכים ב", "מלכים ב'"),
    "Isaiah": ("ישעיהו", "ישעיה", "ישעי'", "ישע'"),
    "Jeremiah": ("ירמיהו", "ירמיה", "ירמי'", "ירמ'"),
    "Ezekiel": ("יחזקאל", "יחזק'", "יחז'"),
    "Obadiah": ("עובדיה", "עובדי'", "עבדיה"),
    "Zephaniah": ("צפניה", "צפני'"),
    "Zechariah": ("זכריה", "זכרי'"),
    "Psalms": ("תהלים", "תהילים", "תהל'", "תה'", "תילים"),
    "Song of Songs": ("שיר השירים", 'שה"ש', 'שיה"ש'),
    "Ecclesiastes": ("קהלת", "קה'"),
    "Lamentations": ("איכה",),
    "Nehemiah": ("נחמיה", "נחמי'"),
    "I Chronicles": ("דברי הימים א", 'דה"א', 'דהי"א', 'דה"י א', 'דבה"י א', "דברי הימים א'"),
    "II Chronicles": ("דברי הימים ב", 'דה"ב', 'דהי"ב', 'דה"י ב', 'דבה"י ב', "דברי הימים ב'"),
}

PARASHOT_HE: dict[str, tuple[str, ...]] = {
    "Bereshit": ("בראשית",), "Noach": ("נח",), "Lech-Lecha": ("לך לך", "לך"), "Vayera": ("וירא",),
    "Chayei Sara": ("חיי שרה",), "Toldot": ("תולדות",), "Vayetzei": ("ויצא",),
    "Vayishlach": ("וישלח",), "Vayeshev": ("וישב",), "Miketz": ("מקץ",), "Vayigash": ("ויגש",),
    "Vayechi": ("ויחי",), "Shemot": ("שמות",), "Vaera": ("וארא",), "Bo": ("בא",),
    "Beshalach": ("בשלח",), "Yitro": ("יתרו",), "Mishpatim": ("משפטים",),
    "Terumah": ("תרומה",), "Tetzaveh": ("תצוה", "תצווה"), "Ki Tisa": ("תשא", "כי תשא"),
    "Vayakhel": ("ויקהל",), "Pekudei": ("פקודי",), "Vayikra": ("ויקרא",), "Tzav": ("צו",),
    "Shmini": ("שמיני",), "Tazria": ("תזריע",), "Metzora": ("מצורע",),
    "Achrei Mot": ("אחרי", "אחרי מות"), "Kedoshim": ("קדושים",), "Emor": ("אמור",),
    "Behar": ("בהר",), "Bechukotai": ("בחוקותי", "בחקותי", "בחקתי"), "Bamidbar": ("במדבר",),
    "Nasso": ("נשא",), "Beha'alotcha": ("בהעלותך",), "Sh'lach": ("שלח", "שלח לך"),
    "Korach": ("קרח", "קורח"), "Chukat": ("חקת", "חוקת"), "Balak": ("בלק",),
    "Pinchas": ("פנחס", "פינחס"), "Matot": ("מטות",), "Masei": ("מסעי",),
    "Devarim": ("דברים",), "Vaetchanan": ("ואתחנן",), "Eikev": ("עקב",), "Re'eh": ("ראה",),
    "Shoftim": ("שופטים",), "Ki Teitzei": ("תצא", "כי תצא"), "Ki Tavo": ("תבוא", "כי תבוא"),
    "Nitzavim": ("נצבים",), "Vayeilech": ("וילך",), "Ha'azinu": ("האזינו",),
    "Vezot Haberakhah": ("וזאת הברכה",),
}  # fmt: skip

# Chapters per tractate of the Mishnah (Sefaria's Pirkei Avot has 6, with Kinyan Torah).
MISHNAH_CHAPTERS: dict[str, int] = {
    "Berakhot": 9, "Peah": 8, "Demai": 7, "Kilayim": 9, "Sheviit": 10, "Terumot": 11,
    "Maasrot": 5, "Maaser Sheni": 5, "Challah": 4, "Orlah": 3, "Bikkurim": 4, "Shabbat": 24,
    "Eruvin": 10, "Pesachim": 10, "Shekalim": 8, "Yoma": 8, "Sukkah": 5, "Beitzah": 5,
    "Rosh Hashanah": 4, "Ta'anit": 4, "Megillah": 4, "Moed Katan": 3, "Chagigah": 3,
    "Yevamot": 16, "Ketubot": 13, "Nedarim": 11, "Nazir": 9, "Sotah": 9, "Gittin": 9,
    "Kiddushin": 4, "Bava Kamma": 10, "Bava Metzia": 10, "Bava Batra": 10, "Sanhedrin": 11,
    "Makkot": 3, "Shevuot": 8, "Eduyot": 8, "Avodah Zarah": 5, "Avot": 6, "Horayot": 3,
    "Zevachim": 14, "Menachot": 13, "Chullin": 12, "Bekhorot": 9, "Arakhin": 9, "Temurah": 7,
    "Keritot": 6, "Meilah": 6, "Tamid": 7, "Middot": 5, "Kinnim": 3, "Kelim": 30,
    "Oholot": 18, "Negaim": 14, "Parah": 12, "Tahorot": 10, "Mikvaot": 10, "Niddah": 10,
    "Makhshirin": 6, "Zavim": 5, "Tevul Yom": 4, "Yadayim": 4, "Oktzin": 3,
}  # fmt: skip

# (first daf, last daf) of each Bavli tractate in the Vilna edition.
BAVLI_DAFS: dict[str, tuple[int, int]] = {
    "Berakhot": (2, 64), "Shabbat": (2, 157), "Eruvin": (2, 105), "Pesachim": (2, 121),
    "Rosh Hashanah": (2, 35), "Yoma": (2, 88), "Sukkah": (2, 56), "Beitzah": (2, 40),
    "Taanit": (2, 31), "Megillah": (2, 32), "Moed Katan": (2, 29), "Chagigah": (2, 27),
    "Yevamot": (2, 122), "Ketubot": (2, 112), "Nedarim": (2, 91), "Nazir": (2, 66),
    "Sotah": (2, 49), "Gittin": (2, 90), "Kiddushin": (2, 82), "Bava Kamma": (2, 119),
    "Bava Metzia": (2, 119), "Bava Batra": (2, 176), "Sanhedrin": (2, 113), "Makkot": (2, 24),
    "Shevuot": (2, 49), "Avodah Zarah": (2, 76), "Horayot": (2, 14), "Zevachim": (2, 120),
    "Menachot": (2, 110), "Chullin": (2, 142), "Bekhorot": (2, 61), "Arakhin": (2, 34),
    "Temurah": (2, 34), "Keritot": (2, 28), "Meilah": (2, 22), "Tamid": (25, 33),
    "Niddah": (2, 73),
}  # fmt: skip

TRACTATE_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "Rosh Hashanah": ("ר\"ה",), "Moed Katan": ("מו\"ק",), "Bava Kamma": ("ב\"ק",),
    "Bava Metzia": ("ב\"מ",), "Bava Batra": ("ב\"ב",), "Avodah Zarah": ("ע\"ז",),
    "Sanhedrin": ("סנה'",), "Kiddushin": ("קדושין",), "Eruvin": ("ערובין",),
    "Gittin": ("גטין",), "Niddah": ("נידה",), "Megillah": ("מגלה",), "Chullin": ("חולין",),
    "Avot": ("פרקי אבות",), "Middot": ("מידות",), "Beitzah": ("ביצה",),
    # full (plene) and defective spellings of the same names
    "Eduyot": ("עדויות",), "Oholot": ("אוהלות",), "Mikvaot": ("מקוואות",),
    "Yadayim": ("ידיים",), "Oktzin": ("עוקצין",), "Bikkurim": ("בכורים",),
    "Kilayim": ("כלאיים",), "Orlah": ("עורלה",), "Sukkah": ("סכה",), "Kinnim": ("קנים",),
}  # fmt: skip

MISHNEH_TORAH_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "Foundations of the Torah": ('יסוה"ת', "יסודי התורה"),
    "Torah Study": ('ת"ת',),
    "Reading the Shema": ('ק"ש',),
    "Prayer and the Priestly Blessing": ("תפלה", "תפילה", "נשיאת כפים"),
    "Tefillin, Mezuzah and the Torah Scroll": ('ס"ת', 'תפילין ומזוזה וס"ת', "מזוזה"),
    "Foreign Worship and Customs of the Nations": ('ע"ז', 'עכו"ם'),
    "The Chosen Temple": ('ביהב"ח', "בית הבחירה"),
    "Rest on a Holiday": ('יו"ט', 'שביתת יו"ט'),
    "Rest on the Tenth of Tishrei": ("שביתת עשור",),
    "Service on the Day of Atonement": ('עבודת יוה"כ',),
    "Sanctification of the New Month": ('קדה"ח', "קידוש החדש"),
    "Forbidden Intercourse": ('איסו"ב',),
    "Forbidden Foods": ('מאכ"א', 'מא"א'),
    "Sacrificial Procedure": ('מעה"ק',),
    "Scroll of Esther and Hanukkah": ("חנוכה",),
    "Shofar, Sukkah and Lulav": ("לולב", "סוכה"),
    "Creditor and Debtor": ("מלוה ולוה",),
    "Daily Offerings and Additional Offerings": ("תמידין ומוספין",),
}

SHULCHAN_ARUKH: dict[str, tuple[int, tuple[str, ...]]] = {
    "Shulchan Arukh, Orach Chayim": (697, ('או"ח', 'א"ח', "אורח חיים")),
    "Shulchan Arukh, Yoreh De'ah": (403, ('יו"ד', "יורה דעה")),
    "Shulchan Arukh, Even HaEzer": (178, ('אה"ע', 'אבהע"ז', 'אהע"ז', "אבן העזר")),
    "Shulchan Arukh, Choshen Mishpat": (427, ('חו"מ', 'ח"מ', 'חוה"מ', "חושן משפט")),
}
SHULCHAN_ARUKH_LEADS = ('שו"ע', 'טושו"ע', 'טוש"ע', "שולחן ערוך", "שלחן ערוך", 'ש"ע')

TANYA_PARTS: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("Tanya, Part I; Likkutei Amarim", 53, ('לקו"א', 'לק"א', "לקוטי אמרים", "ליקוטי אמרים")),
    ("Tanya, Part II; Shaar HaYichud VehaEmunah", 12, ('שעהיוה"א', "שער היחוד והאמונה")),
    ("Tanya, Part III; Iggeret HaTeshuvah", 12, ('אגה"ת', "אגרת התשובה", "איגרת התשובה")),
    ("Tanya, Part IV; Iggeret HaKodesh", 32, ('אגה"ק', "אגרת הקודש", "איגרת הקודש")),
    ("Tanya, Part V; Kuntres Acharon", 9, ('קו"א', "קונטרס אחרון")),
)
TANYA_LEADS = ("תניא", "ספר התניא")

# Midrash Rabbah on the Torah: chapters (parashiyot) per book. "מדרש רבה בראשית" names the
# midrash too (the book's name after it is not the Tanakh book).
MIDRASH_RABBAH: dict[str, tuple[int, tuple[str, ...]]] = {
    "Bereshit Rabbah": (100, ('ב"ר', "בראשית רבה", 'בר"ר', "מדרש רבה בראשית")),
    "Shemot Rabbah": (52, ('שמו"ר', "שמות רבה", "מדרש רבה שמות")),
    "Vayikra Rabbah": (37, ('ויק"ר', "ויקרא רבה", "מדרש רבה ויקרא")),
    "Bamidbar Rabbah": (23, ('במדב"ר', 'במד"ר', "במדבר רבה", "מדרש רבה במדבר")),
    "Devarim Rabbah": (11, ('דב"ר', "דברים רבה", "מדרש רבה דברים")),
}

# Commentaries whose Sefaria index is "<Name> on <Book or Tractate>": (name, which Tanakh
# books it covers on Sefaria: "all", "torah" or "" for none, and whether it covers the Bavli).
COMMENTATORS: dict[str, tuple[str, str, bool]] = {
    'רש"י': ("Rashi", "all", True),
    'פרש"י': ("Rashi", "all", True),
    'פירש"י': ("Rashi", "all", True),
    'פירוש רש"י': ("Rashi", "all", True),
    'רמב"ן': ("Ramban", "torah", False),
    "אבן עזרא": ("Ibn Ezra", "torah", False),
    'ראב"ע': ("Ibn Ezra", "torah", False),
    "ספורנו": ("Sforno", "torah", False),
    'אוה"ח': ("Or HaChaim", "torah", False),
    "אור החיים": ("Or HaChaim", "torah", False),
    "תוס'": ("Tosafot", "", True),
    "תוספות": ("Tosafot", "", True),
    'תד"ה': ("Tosafot", "", True),
    'תוד"ה': ("Tosafot", "", True),
    'אב"ע': ("Ibn Ezra", "torah", False),
    # Sefaria's Rabbeinu Bahya is one index with a node per Torah book
    # (``Rabbeinu Bahya, Vayikra 1:1``, Sefaria-Export schemas/Rabbeinu_Bahya.json)
    "בחיי": ("Rabbeinu Bahya, {}", "torah", False),
    "רבינו בחיי": ("Rabbeinu Bahya, {}", "torah", False),
    "רבנו בחיי": ("Rabbeinu Bahya, {}", "torah", False),
    'רבינו בחיי ז"ל': ("Rabbeinu Bahya, {}", "torah", False),
}  # fmt: skip
# The node of an index arranged by Torah book (``Rabbeinu Bahya, Vayikra``).
TORAH_NODES = {
    "Genesis": "Bereshit", "Exodus": "Shemot", "Leviticus": "Vayikra", "Numbers": "Bamidbar",
    "Deuteronomy": "Devarim",
}  # fmt: skip

# Midrashim numbered by chapter (parashah, mizmor or perek) and an optional section.
MIDRASH_OTHER: dict[str, tuple[int, tuple[str, ...]]] = {
    "Midrash Tehillim": (150, ("מדרש תהלים", "מדרש תהילים", "מדרש שוחר טוב")),
    "Pirkei DeRabbi Eliezer": (54, ('פדר"א', 'פרקי דר"א', "פרקי דרבי אליעזר", 'פרדר"א')),
}

# Commentaries on the Shulchan Arukh numbered by its siman and their own small se'if
# (Sefaria: "Mishnah Berurah <siman>:<seif katan>").
SEIF_KATAN_WORKS: dict[str, tuple[int, tuple[str, ...]]] = {
    "Mishnah Berurah": (697, ('משנ"ב', "משנה ברורה")),
}

# Works cited by printed page, or sources we cannot number offline: a citation that directly
# follows one of these (``לקו"ת (במדבר יג, א)``) belongs to that work and is not linked.
BLOCKERS = (
    "לקו\"ת", "לקוטי תורה", "ליקוטי תורה", "תו\"א", "תורה אור", "זח\"א", "זח\"ב", "זח\"ג",
    "זהר", "זוהר", "זוה\"ק", "זה\"ק", "תקו\"ז", "תקוני זהר", "תיקוני זהר", "משנת חסידים",
    "שהש\"ר", "שיר השירים רבה", "איכ\"ר", "קה\"ר", "רו\"ר", "אסת\"ר", "תנחומא", "תנחומה",
    "יל\"ש", "ילקוט שמעוני", "מצודות", "מצו\"ד", "רד\"ק", "מלבי\"ם",
    "תרגום", "ת\"א", "ת\"י", "אונקלוס", "אדה\"ז", "אדמו\"ר הזקן",
    "מכילתא", "ספרי", "ספרא",
    "מהרש\"א", "ר\"ן", "רשב\"ם", "מ\"מ", "כ\"מ", "פיהמ\"ש",
    "פירוש המשניות", "סהמ\"צ", "ספר המצוות", "בעל הטורים", "בעה\"ט", "אלשיך", "של\"ה",
    "ספר הערכים", "עץ חיים", "ע\"ח", "פע\"ח", "סה\"מ", "ד\"ה", "אוה\"ת", "אור התורה",
    "מאמרי אדמו\"ר", "לקו\"ש", "לקוטי שיחות", "אגרות קודש", "אג\"ק", "תו\"מ",
    "אבות דר\"נ", "אדר\"נ", "טור", "הטור", "ב\"י", "בית יוסף", "שו\"ע הרב",
    "שולחן ערוך הרב", "מג\"א", "ט\"ז", "ש\"ך", "פמ\"ג", "לבוש",
    "תו\"ח", "תורה חיים", "פיה\"מ", "באבער", "ד\"ח", "דרך חיים", "להאריז\"ל", "שער הכוונות",
    # commentaries cited at their base text's address (Sefaria: "Rashba on Berakhot 2a",
    # "Kessef Mishneh on ..."): the address after them is the commentary's, not the text's
    "רשב\"א", "ריטב\"א", "רא\"ש", "רי\"ף", "מאירי", "ראב\"ד", "כס\"מ", "כסף משנה",
    "מגיד משנה", "לחם משנה", "ברטנורא", "ברטנורה", "תוי\"ט", "תוספות יום טוב",
    "מצודת דוד", "מצודת ציון", "כלי יקר", "שפתי חכמים", "גור אריה", "ערוך השלחן",
    "ערוה\"ש", "פני יהושע", "פנ\"י", "מהרש\"ל", "נמוקי יוסף", "נמו\"י", "שיטה מקובצת",
    "תרגום יונתן", "תרגום אונקלוס", "תרגום ירושלמי",
    # the Zohar's companions and commentaries, cited by their own pages or sections
    "ביאוה\"ז", "ביאורי הזהר", "ביאורי הזוהר", "ז\"ח", "זהר חדש", "זוהר חדש", "זוה\"ח",
    "עט\"ר", "עטרת ראש", "רע\"מ", "ר\"מ", "אד\"ז", "אד\"ר", "אדרא", "רמ\"ז", "מק\"מ",
    "מקדש מלך", "הקדמת הזהר",
    # midrashim and commentaries cited at a verse, which Sefaria has under other structures
    # (or not at all): the verse after them is theirs, not the Tanakh's
    "תו\"כ", "ת\"כ", "תורת כהנים", "רקאנטי", "ריקאנטי", "לקח טוב", "שכל טוב", "אברבנאל",
    "אברבנל", "ילקוט ראובני", "תורה שלמה", "פי' המפרש", "המפרש", "מדרש", "מדרשי",
    "מדרש אגדה", "מדרש הגדול", "אגדת בראשית", "פסיקתא", "פס\"ר", "פסדר\"כ", "פדר\"כ",
    "מכילתא דרשב\"י", "ספרי זוטא", "יל\"ר", "מו\"נ", "מורה נבוכים", "כוזרי", "עקדה",
    "עקידת יצחק", "אדה\"א", "אדמו\"ר האמצעי", "מאמרי אדה\"ז", "מאמרי אדה\"א",
    "מאמרי אדה\"ז", "אוה\"ח הק'", "שערי אורה", "דרמ\"צ", "דרך מצותיך", "פלח הרמון",
    "יהל אור", "רמ\"ע", "שעה\"י", "שער היחודים", "ס' הליקוטים", "ספר הליקוטים",
    "סידור", "סדור", "הגהות", "מנחת שי",
    # responsa and commentaries arranged by the Shulchan Arukh's or the Rambam's sections: a
    # part and siman after them is theirs (חזון איש או"ח סי' קטז is not the Shulchan Arukh)
    "תשובות", "שו\"ת", "תשו'", "חזון איש", "חזו\"א", "כתב סופר", "חת\"ס", "חתם סופר",
    "כף החיים", "שיירי כנסת הגדולה", "כנה\"ג", "אור לציון", "או\"ל", "סמ\"ע", "באר היטב",
    "שערי תשובה", "קצוה\"ח", "קצות החושן", "נתיבות המשפט", "נתה\"מ", "בית שמואל", "ב\"ש",
    "חלקת מחוקק", "בדק הבית", "דרכי משה", "פרי מגדים", "אבן האזל", "אור שמח", "נודע ביהודה",
    "נו\"ב", "אגרות משה", "אג\"מ", "ביאור הגר\"א", "ביאור הלכה", "שער הציון", "כסף משנה",
    "ב\"ח", "פרישה", "דרישה", "לחם משנה", "משנה למלך", "מל\"מ", "מנחת חינוך",
    "מגן אברהם", "בעל המאור", "קהלות יעקב", "מרדכי", "נשמת אדם", "חיי אדם",
)  # fmt: skip

# The Zohar named alone (its volume follows, or a parasha) and by volume (``זח"א``): a
# page of the Vilna edition links coarsely to Sefaria's parasha of the Zohar that holds it.
ZOHAR_TITLES: dict[str, int | None] = {
    "זהר": None, "זוהר": None, "זוה\"ק": None, "זה\"ק": None, "זהר הקדוש": None,
    "זח\"א": 1, "זח\"ב": 2, "זח\"ג": 3,
}  # fmt: skip

# Words that mark a dibbur hamatchil after a daf, sending the reference into a commentary.
COMMENTARY_AFTER_DAF = re.compile(
    r"\s*+[,(]?\s*+(?:(?P<rashi>ב?(?:פ?רש[\"״']{1,2}י|פירש[\"״]י))"
    r"|(?P<tosafot>ב?תוס['׳]|ב?תוספות|ב?תו?ד[\"״]ה)|ב?ר[\"״]ן|ב?רשב[\"״]ם"
    r"|ב?מהרש[\"״]א|ד[\"״]ה)"
)

# Words that name a kind of work before its title, for a work cited without numbers
# (``בספר בראשית``, ``במסכת תמיד``, ``בפרשת בהעלותך``): the role the next title must have.
WORK_LEADS: dict[str, str] = {
    "ספר": "tanakh", "מסכת": "tractate", "מס'": "tractate", "מסכתא": "tractate",
    "פרשת": "parsha",
}  # fmt: skip

# Chapter words: ordinals and the Aramaic first/last chapter (``פרק קמא``, ``פרק בתרא``).
ORDINALS: dict[str, int] = {
    "קמא": 1, "ראשון": 1, "שני": 2, "שלישי": 3, "רביעי": 4, "חמישי": 5, "שישי": 6,
    "ששי": 6, "שביעי": 7, "שמיני": 8, "תשיעי": 9, "עשירי": 10, "בתרא": -1,
}  # fmt: skip


def chapter_leads() -> dict[str, tuple[str, int | None]]:
    """Chapter markers that may open a tractate citation: ``פ"ג``, ``רפ"ג``, ``ספ"ג``, ``פ"ק``
    (glued, value = the chapter) and ``פרק``, ``ר"פ``, ``ס"פ``, ``פ'`` (a chapter word follows)."""
    out: dict[str, tuple[str, int | None]] = {}
    for n in range(1, 31):
        digits = format_numeral(n, marks=False)
        glued = f'פ"{digits}' if len(digits) == 1 else f'פ{digits[:-1]}"{digits[-1]}'
        for mark in ("", "ר", "ס"):
            out[mark + glued] = (mark, n)
    for mark in ("", "ר", "ס"):
        out[f'{mark}פ"ק'] = (mark, 1)
    for word, mark in (("פרק", ""), ('ר"פ', "ר"), ('ס"פ', "ס"), ("ריש פרק", "ר"),
                       ("סוף פרק", "ס"), ("פ'", "")):  # fmt: skip
        out[word] = (mark, None)
    return out


_QUOTE_FIX = re.compile(r"''")
_SPACES = re.compile(r"[\s\u00a0\-\u05be]+")
_LOOSE_DROP = re.compile(r"[\"'וי\s]")


@lru_cache(maxsize=8192)
def key(text: str) -> str:
    """Canonical lookup form of a title: no nikud, ASCII quotes, single spaces."""
    text = _QUOTE_FIX.sub('"', normalize_quotes(strip_nikud(text)).replace("\u2019", "'"))
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=8192)
def loose(text: str) -> str:
    """Spelling-insensitive form (plene/defective: drops ו/י, quotes, spaces)."""
    return _LOOSE_DROP.sub("", key(text))


def amud_index(amud: str) -> int:
    """``"15a"`` -> 29, ``"15b"`` -> 30: amudim in order, to compare pages."""
    return 2 * int(amud[:-1]) - (amud[-1] == "a")


@dataclass(frozen=True, slots=True)
class Parsha:
    """A Torah portion and its verse range."""

    book: str
    start: tuple[int, int]
    end: tuple[int, int]


@dataclass(slots=True)
class Catalog:
    """Every table the linker needs, loaded once."""

    roles: dict[str, dict[str, Any]] = field(default_factory=dict)
    verses: dict[str, list[int]] = field(default_factory=dict)
    hilchot: dict[str, str] = field(default_factory=dict)
    hilchot_max_words: int = 1
    hilchot_prefixes: set[str] = field(default_factory=set)  # every prefix of a hilchot key
    tanya_parts: dict[str, tuple[str, int]] = field(default_factory=dict)
    sa_parts: dict[str, tuple[str, int]] = field(default_factory=dict)
    # Bavli tractate -> its chapters in order: (loose Hebrew name, first amud, last amud)
    bavli_chapters: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    glued_of: set[str] = field(default_factory=set)  # "דשבועות": titles with ד glued on
    # Sefaria's Zohar parashot: (title, Vilna volume, first amud, last amud), amudim as
    # amud_index() numbers; and the node of each Torah portion
    zohar: list[tuple[str, int, int, int]] = field(default_factory=list)
    zohar_of_parsha: dict[Parsha, int] = field(default_factory=dict)
    # every Sefaria index title the linker may emit (the package data's primary titles)
    indexes: frozenset[str] = frozenset()

    def add(self, title: str, role: str, value: Any) -> None:
        self.roles.setdefault(key(title), {}).setdefault(role, value)


def _load(name: str) -> Any:
    return json.loads(resources.files("libtext").joinpath("data", name).read_text("utf-8"))


@cache
def catalog() -> Catalog:
    """Build the title tables from package data (cached; about 2 ms)."""
    titles, tanakh = _load("sefaria_titles.json"), _load("tanakh.json")
    cat = Catalog(verses={k: list(v) for k, v in tanakh["verses"].items()})
    cat.indexes = frozenset(
        [r["en"] for family in ("tanakh", "mishnah", "bavli", "mishneh_torah", "shulchan_arukh",
                                "midrash") for r in titles[family]]
        + titles["works"]
    )  # fmt: skip
    for rec in titles["tanakh"]:
        for he in (*rec["he"], *TANAKH_ABBREVIATIONS.get(rec["en"], ())):
            cat.add(he, "tanakh", rec["en"])
    for rec in tanakh["parashot"]:
        parsha = Parsha(rec["book"], tuple(rec["start"]), tuple(rec["end"]))
        for he in PARASHOT_HE[rec["name"]]:
            cat.add(he, "parsha", parsha)
    mishnah = {
        r["en"].removeprefix("Mishnah ").replace("Pirkei ", ""): r for r in titles["mishnah"]
    }
    bavli = {r["en"]: r for r in titles["bavli"]}
    bavli_by_mishnah = {"Ta'anit": "Taanit"}
    for name, rec in mishnah.items():
        en = rec["en"]
        bname = bavli_by_mishnah.get(name, name)
        spellings = [*rec["he"], *TRACTATE_ABBREVIATIONS.get(name, ())]
        spellings += bavli.get(bname, {}).get("he", [])
        for he in spellings:
            if bname in bavli:  # "דשבועות דט"ז": "of" glued to a tractate, before its daf
                tr: dict[str, Any] = {
                    "mishnah": (en, MISHNAH_CHAPTERS[name]),
                    "bavli": (bname, *BAVLI_DAFS[bname]),
                }
                cat.add("ד" + he, "tractate", tr)
                cat.glued_of.add(key("ד" + he))
            cat.add(
                he,
                "tractate",
                {
                    "mishnah": (en, MISHNAH_CHAPTERS[name]),
                    "bavli": (bname, *BAVLI_DAFS[bname]) if bname in bavli else None,
                },
            )
    for he, he_roles in list(cat.roles.items()):
        found = he_roles.get("tractate")
        if found is None or found["bavli"] is None or he in cat.glued_of or len(he) < 5:
            continue
        if " " in he or '"' in he or "'" in he:
            continue
        # "דשבועו'", "סנהדרי'": a one-word tractate name cut short by its last letter, as
        # footnotes write it; only where no other title is spelled that way.
        short = key(he[:-1] + "'")
        if short not in cat.roles:
            cat.add(short, "tractate", found)
            cat.add("ד" + short, "tractate", found)
            cat.glued_of.add("ד" + short)
    for en, (count, forms) in MIDRASH_RABBAH.items():
        for he in forms:
            cat.add(he, "midrash", (en, count))
    for rec in titles["mishneh_torah"]:
        short = rec["en"].removeprefix("Mishneh Torah, ")
        names = [*rec["he"], *MISHNEH_TORAH_ABBREVIATIONS.get(short, ())]
        full = rec["he"][0]
        if " ו" in full:  # "רוצח ושמירת נפש" is cited as "רוצח"
            names.append(full.split(" ו", 1)[0])
        for name in names:
            cat.hilchot.setdefault(loose(name), rec["en"])
            cat.hilchot_prefixes.update(loose(name)[:n] for n in range(1, len(loose(name)) + 1))
            cat.hilchot_max_words = max(cat.hilchot_max_words, len(key(name).split()))
    for lead in ('רמב"ם', "רמב״ם"):
        cat.add(lead, "rambam", True)
    for lead in ("הל'", "הלכות"):
        cat.add(lead, "hilchot", True)
    for en, (count, forms) in SHULCHAN_ARUKH.items():
        for he in forms:
            cat.add(he, "sa_part", (en, count))
            cat.sa_parts[key(he)] = (en, count)
    for lead in SHULCHAN_ARUKH_LEADS:
        cat.add(lead, "sa_lead", True)
    for en, count, forms in TANYA_PARTS:
        for he in forms:
            cat.tanya_parts[key(he)] = (en, count)
            if en.endswith("Acharon"):
                continue  # "קו"א" alone is any work's kuntres acharon
            cat.add(he, "tanya_part", (en, count))
    for lead in TANYA_LEADS:
        cat.add(lead, "tanya", True)
    for he, value in COMMENTATORS.items():
        cat.add(he, "commentator", value)
    for en, (count, forms) in MIDRASH_OTHER.items():
        for he in forms:
            cat.add(he, "midrash", (en, count))
    for en, (count, forms) in SEIF_KATAN_WORKS.items():
        for he in forms:
            cat.add(he, "seif_katan", (en, count))
    for lead in ("ירושלמי", "ירוש'", "ירו'", "בירושלמי", "תלמוד ירושלמי"):
        cat.add(lead, "yerushalmi", True)
    for lead in ("תוספתא", "תוספתא מסכת"):
        cat.add(lead, "tosefta", True)
    for lead in ("בבלי", "גמרא", "גמ'"):  # not "דף": too frequent in prose to look behind
        cat.add(lead, "daf_lead", True)
    for lead, what in WORK_LEADS.items():
        cat.add(lead, "work_lead", what)
    for lead, chapter in chapter_leads().items():
        cat.add(lead, "chapter_lead", chapter)
    cat.bavli_chapters = {
        k: [(loose(he), a, b) for he, a, b in v]
        for k, v in _load("bavli_chapters.json").items()
        if not k.startswith("_")
    }
    for he in (*BLOCKERS, *ZOHAR_TITLES):
        cat.add(he, "block", True)
    zohar = _load("zohar_parashot.json")["parashot"]
    cat.zohar = [(title, volume, amud_index(first), amud_index(last))
                 for title, _, volume, first, last in zohar]  # fmt: skip
    by_name = {loose(he): i for i, (_, he, *_rest) in enumerate(zohar)}
    for he_forms in PARASHOT_HE.values():
        for he in he_forms:
            portion = cat.roles.get(key(he), {}).get("parsha")
            found = next((by_name[loose(f)] for f in he_forms if loose(f) in by_name), None)
            if portion is not None and found is not None:
                cat.zohar_of_parsha[portion] = found
    cat.add("שם", "ibid", True)
    for word, kind in (("דף", "bavli"), ("סימן", "sa"), ("סי'", "sa")):
        cat.add(word, "context_ibid", kind)  # "דף כ", "סימן תצ"ג" after a citation of that work
    cat.add("משנה", "mishnah_lead", True)
    return cat
