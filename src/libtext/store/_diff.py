"""Two revisions of a text compared section by section, then phrase by phrase.

Phrases are matched by their Hebrew (``difflib`` on the list of ``hebrew_phrase``),
so an edit of the English shows as one ``changed`` phrase, and a new phrase split of
the same Hebrew as the phrases ``removed`` and ``added``.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from libtext.models import (
    PhraseChange,
    ProcessedDocument,
    Section,
    SectionDiff,
    TextDiff,
    TranslationData,
)

__all__ = ["text_diff"]


def _phrases(old: list[TranslationData], new: list[TranslationData]) -> list[PhraseChange]:
    matcher = SequenceMatcher(
        None, [p.hebrew_phrase for p in old], [p.hebrew_phrase for p in new], autojunk=False
    )
    out: list[PhraseChange] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend(
                PhraseChange(change="changed", index=j, before=old[i], after=new[j])
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
                if old[i] != new[j]
            )
            continue
        out.extend(PhraseChange(change="removed", index=i, before=old[i]) for i in range(i1, i2))
        out.extend(PhraseChange(change="added", index=j, after=new[j]) for j in range(j1, j2))
    return out


def _section(old: Section | None, new: Section | None, key: int) -> SectionDiff | None:
    if old is None:
        return SectionDiff(sequence_id=key, change="added")
    if new is None:
        return SectionDiff(sequence_id=key, change="removed")
    if old == new:
        return None
    fields = [name for name in Section.model_fields if getattr(old, name) != getattr(new, name)]
    phrases = _phrases(old.translation_data, new.translation_data)
    return SectionDiff(sequence_id=key, change="changed", fields=fields, phrases=phrases)


def text_diff(
    slug: str, old: ProcessedDocument, new: ProcessedDocument, from_revision: int, to_revision: int
) -> TextDiff:
    """What differs from ``old`` (revision ``from_revision``) to ``new``."""
    before = {s.sequence_id: s for s in old.sections}
    after = {s.sequence_id: s for s in new.sections}
    sections = [
        found
        for key in sorted(before.keys() | after.keys())
        if (found := _section(before.get(key), after.get(key), key)) is not None
    ]
    return TextDiff(
        slug=slug,
        from_revision=from_revision,
        to_revision=to_revision,
        metadata_changed=old.source_metadata != new.source_metadata,
        sections=sections,
    )
