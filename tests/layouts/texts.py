"""The Hebrew texts the generated test PDFs are typeset from, shared by
``make_layouts.py`` (fpdf2) and ``tests/pages/make_pages.py`` (real producers), so
the second needs no fpdf2 to use them."""

from __future__ import annotations

import json
import re
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures"

GENESIS = [
    "בְּרֵאשִׁית בָּרָא אֱלֹהִים אֵת הַשָּׁמַיִם וְאֵת הָאָרֶץ.",
    "וְהָאָרֶץ הָיְתָה תֹהוּ וָבֹהוּ וְחֹשֶׁךְ עַל פְּנֵי תְהוֹם וְרוּחַ אֱלֹהִים מְרַחֶפֶת עַל פְּנֵי הַמָּיִם.",
    "וַיֹּאמֶר אֱלֹהִים יְהִי אוֹר וַיְהִי אוֹר.",
    "וַיַּרְא אֱלֹהִים אֶת הָאוֹר כִּי טוֹב וַיַּבְדֵּל אֱלֹהִים בֵּין הָאוֹר וּבֵין הַחֹשֶׁךְ.",
    "וַיִּקְרָא אֱלֹהִים לָאוֹר יוֹם וְלַחֹשֶׁךְ קָרָא לָיְלָה וַיְהִי עֶרֶב וַיְהִי בֹקֶר יוֹם אֶחָד.",
    "וַיֹּאמֶר אֱלֹהִים יְהִי רָקִיעַ בְּתוֹךְ הַמָּיִם וִיהִי מַבְדִּיל בֵּין מַיִם לָמָיִם.",
    "וַיַּעַשׂ אֱלֹהִים אֶת הָרָקִיעַ וַיַּבְדֵּל בֵּין הַמַּיִם אֲשֶׁר מִתַּחַת לָרָקִיעַ וּבֵין הַמַּיִם אֲשֶׁר מֵעַל לָרָקִיעַ וַיְהִי כֵן.",
    "וַיִּקְרָא אֱלֹהִים לָרָקִיעַ שָׁמָיִם וַיְהִי עֶרֶב וַיְהִי בֹקֶר יוֹם שֵׁנִי.",
]

AVOT = [
    "משה קבל תורה מסיני, ומסרה ליהושע, ויהושע לזקנים, וזקנים לנביאים, ונביאים "
    "מסרוה לאנשי כנסת הגדולה. הם אמרו שלשה דברים: הוו מתונים בדין, והעמידו "
    "תלמידים הרבה, ועשו סיג לתורה.",
    "שמעון הצדיק היה משירי כנסת הגדולה. הוא היה אומר: על שלשה דברים העולם "
    "עומד, על התורה ועל העבודה ועל גמילות חסדים.",
    "אנטיגנוס איש סוכו קבל משמעון הצדיק. הוא היה אומר: אל תהיו כעבדים "
    "המשמשין את הרב על מנת לקבל פרס, אלא הוו כעבדים המשמשין את הרב שלא על "
    "מנת לקבל פרס, ויהי מורא שמים עליכם.",
    "הלל אומר: אל תפרוש מן הצבור, ואל תאמין בעצמך עד יום מותך, ואל תדין "
    "את חברך עד שתגיע למקומו (אבות ב, ד).",
    "הוא היה אומר: לא עליך המלאכה לגמור, ולא אתה בן חורין להבטל ממנה.",
]


def tanya_paragraphs() -> list[str]:
    """Paragraphs of Tanya from the shared fixture's truth lines (cut to ~40-70 words)."""
    data = json.loads((SHARED / "big.lines.json").read_text("utf-8"))
    paras: list[str] = []
    cur: list[str] = []
    for page in data["pages"]:
        for ln in page["lines"]:
            if ln["kind"] != "body":
                continue
            if ln.get("indent", 0) > 0 and cur:
                paras.append(" ".join(cur))
                cur = []
            cur.append(ln["text"])
    paras.append(" ".join(cur))
    out = []
    for p in paras:
        words = p.split()
        if len(words) < 30:
            continue
        # Drop the source's own note markers; the layouts add theirs.
        words = [w for w in words if not re.fullmatch(r"[(\[]?\*?[א-ת\d]?[)\]]?\*?", w)]
        out.append(" ".join(words[: 40 + (len(out) * 7) % 30]))
    return out
