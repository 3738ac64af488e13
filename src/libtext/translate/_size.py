"""How much Hebrew one translation request may carry, from the model's context window.

Pure arithmetic on the pessimistic estimate of :mod:`libtext._tokens`. A request holds
the prompt (rules, glossary, the answer's JSON schema, the title: measured on the real
prompt, :func:`prompt_tokens`) and the chunk's Hebrew; its answer, on a server where the
context counts both (llama.cpp's ``n_ctx``, vLLM's ``max_model_len``), echoes every phrase
twice (as given and expanded), adds its English and the JSON around each phrase:

* the Hebrew sent: 1.25 tokens a character (:data:`HEBREW_TOKENS_PER_CHAR`);
* the answer: :data:`ANSWER_TOKENS_PER_CHAR` tokens per character of Hebrew, 2 x 1.25 for
  the echoes, 0.75 for the English (about 1.5 characters of English per character of
  Hebrew, at 0.5 tokens each) and 0.75 for the JSON keys and quotes of a phrase of
  about 40 characters.

When ``max_tokens`` is set, the server cuts the answer there: the window need only
hold the request and ``max_tokens``. The result is capped at ``DEFAULT_MAX_CHARS`` (a
large context does not make a model's answer longer) and refused below
:data:`MIN_CHUNK_CHARS` (a window that small cannot hold a useful request).
"""

from __future__ import annotations

import math

from libtext._tokens import HEBREW_TOKENS_PER_CHAR, estimate_tokens
from libtext.errors import ConfigurationError

__all__ = [
    "ANSWER_TOKENS_PER_CHAR",
    "MIN_CHUNK_CHARS",
    "REQUEST_MARGIN_TOKENS",
    "chunk_chars",
    "request_tokens",
]

ANSWER_TOKENS_PER_CHAR = 2 * HEBREW_TOKENS_PER_CHAR + 0.75 + 0.75
"""Tokens of answer counted for each character of Hebrew sent (see the module's notes)."""
MIN_CHUNK_CHARS = 60
"""Fewer characters of Hebrew per request than this: the window is too small to use."""
REQUEST_MARGIN_TOKENS = 64
"""Room for the chat template's own tokens (roles, separators)."""


def request_tokens(messages: list[dict[str, str]]) -> int:
    """The estimated tokens of a request's messages, with the chat template's margin."""
    return estimate_tokens("".join(m["content"] for m in messages)) + REQUEST_MARGIN_TOKENS


def chunk_chars(
    *,
    context_tokens: int,
    prompt_tokens: int,
    max_tokens: int | None,
    cap: int,
) -> int:
    """Characters of Hebrew (block and footnotes) one request may carry.

    Args:
        context_tokens: The model's context window.
        prompt_tokens: The request without its Hebrew (:func:`request_tokens` of an
            empty request).
        max_tokens: The answer's limit, when the caller's options set one.
        cap: The most characters whatever the window (``DEFAULT_MAX_CHARS``).

    Raises:
        ConfigurationError: The window leaves room for fewer than
            :data:`MIN_CHUNK_CHARS` characters.
    """
    room = context_tokens - prompt_tokens
    if max_tokens is not None:
        chars = (room - max_tokens) / HEBREW_TOKENS_PER_CHAR
    else:
        chars = room / (HEBREW_TOKENS_PER_CHAR + ANSWER_TOKENS_PER_CHAR)
    size = min(cap, math.floor(chars))
    if size < MIN_CHUNK_CHARS:
        output = f" and max_tokens={max_tokens}" if max_tokens is not None else ""
        raise ConfigurationError(
            f"The model's context window of {context_tokens:,} tokens{output} leaves no "
            f"room for Hebrew to translate after the prompt (about {prompt_tokens:,} "
            "tokens): use a model with a larger context, lower max_tokens, or give the "
            "window with context_tokens=... if it is larger than reported.",
            details={
                "context_tokens": context_tokens,
                "prompt_tokens": prompt_tokens,
                "max_tokens": max_tokens,
            },
        )
    return size
