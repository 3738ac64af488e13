"""A pessimistic token estimate for Hebrew text, shared by the Outliner and the Translator.

Measured on the first pages of five real Hebrew PDFs: OpenAI's o200k tokenizer takes
0.4-0.6 tokens per character, cl100k 0.9-1.0, and SmolLM2's (a small open model's, 49k
words) 1.13-1.2 on plain Hebrew, 0.79 on pointed text (``benchmarks/real_model.py
--tokens`` measures a model's own); so a Hebrew letter or mark counts as 1.25 tokens and
any other character as 0.5, and a request sized by the estimate does not overflow.
"""

from __future__ import annotations

import math
import re

__all__ = [
    "CHARS_PER_TOKEN",
    "HEBREW_TOKENS_PER_CHAR",
    "OTHER_TOKENS_PER_CHAR",
    "estimate_tokens",
]

HEBREW_TOKENS_PER_CHAR = 1.25
"""Tokens counted for each Hebrew letter or mark (the most measured, 1.2, and a margin)."""
OTHER_TOKENS_PER_CHAR = 0.5
"""Tokens counted for each other character (English, digits, JSON: measured 0.25-0.5)."""
CHARS_PER_TOKEN = 1 / HEBREW_TOKENS_PER_CHAR
"""Characters of Hebrew text per token, as estimated (for sizing in characters)."""
_HEBREW = re.compile(
    r"[\u0590-\u05ff\ufb1d-\ufb4f]+(?:[\s\"'\-.,:;()]+[\u0590-\u05ff\ufb1d-\ufb4f]+)*"
)
"""A run of Hebrew words and what joins them (spaces, quotes, punctuation)."""


def estimate_tokens(text: str) -> int:
    """A pessimistic token count: Hebrew (letters, marks and the spaces and punctuation
    between Hebrew words) 1.25 tokens a character, other characters 0.5."""
    hebrew = len(text) - len(_HEBREW.sub("", text))
    return math.ceil(hebrew * HEBREW_TOKENS_PER_CHAR + (len(text) - hebrew) * OTHER_TOKENS_PER_CHAR)
