"""Versioned prompt files, loaded by name.

Prompts live here as text, not in f-strings, so a change to one is a reviewable
diff with a new version. A prompt file (``<name>.md``) looks like::

    version: outline-1
    ===== system =====
    You are ...
    ===== user =====
    Text of $title: $text

The ``version`` goes into results' metadata (``ProviderOutcome.prompt_version``).
The user part is a :class:`string.Template` (``$name`` / ``${name}``; ``$$`` for a
literal dollar): Hebrew text and JSON examples are full of braces, which
``str.format`` would trip on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from string import Template

from libtext.errors import ConfigurationError

__all__ = ["Prompt", "load_prompt"]

_SECTION = re.compile(r"^===== *(system|user) *=====[ \t]*$", re.MULTILINE)
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Prompt:
    """A prompt: its system message and a user-message template.

    Attributes:
        name: The file's name without its extension (``"outline"``).
        version: The file's ``version:`` line; bump it whenever the text changes.
        system: The system message, used as is.
        user: The user message, a :class:`string.Template`.
    """

    name: str
    version: str
    system: str
    user: str

    def render(self, **values: object) -> str:
        """The user message with ``$placeholders`` filled; a missing one is an error."""
        try:
            return Template(self.user).substitute({k: str(v) for k, v in values.items()})
        except KeyError as exc:
            raise ConfigurationError(
                f"Prompt {self.name!r} needs a value for ${exc.args[0]}.",
                details={"prompt": self.name},
            ) from None

    def messages(self, **values: object) -> list[dict[str, str]]:
        """Chat messages: the system message, then the rendered user message."""
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": self.render(**values)},
        ]


@cache
def load_prompt(name: str) -> Prompt:
    """Load ``libtext/prompts/<name>.md``.

    Raises:
        ConfigurationError: No such prompt, or the file is malformed.
    """
    if not _NAME.match(name):
        raise ConfigurationError(f"Invalid prompt name {name!r}: use lowercase letters.")
    try:
        raw = resources.files(__name__).joinpath(f"{name}.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigurationError(
            f"No prompt named {name!r} in libtext/prompts; reinstall libtext.",
            details={"prompt": name},
        ) from None
    return parse_prompt(name, raw)


def parse_prompt(name: str, raw: str) -> Prompt:
    """Parse a prompt file's text (see the module docstring for its shape)."""
    head, *rest = _SECTION.split(raw)
    version = ""
    for line in head.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "version":
            version = value.strip()
    parts = dict(zip(rest[0::2], (body.strip("\n") for body in rest[1::2]), strict=True))
    if not version or "system" not in parts or "user" not in parts:
        raise ConfigurationError(
            f"Prompt {name!r} is malformed: it needs a 'version:' line and "
            "'===== system =====' and '===== user =====' sections.",
            details={"prompt": name},
        )
    return Prompt(name=name, version=version, system=parts["system"], user=parts["user"])
