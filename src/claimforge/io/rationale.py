"""Rationales: which sentences of an example's evidence decide its label. Exports need them as sentence
indices (SciFact and FEVER score a prediction against at most 3 sentences), so a generated example points at
the sentences that state its key terms (the keyed answer or option of a Multi2Claim example, the entity or the
replaced span of a ClaimGen / KBIN one) and cover most of the claim's content words, not the whole passage.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from claimforge.nlp.normalize import contains_content, content_lemmas

MAX_RATIONALE = 3  # SciFact reads at most 3 predicted sentences per abstract
_KEY_FIELDS = ("answer", "option", "entity", "replaced", "replacement")


def key_terms(details: dict[str, Any]) -> list[str]:
    """The provenance fields that name what the claim is about (answer, option, entity, replaced span)."""
    out = []
    for field in _KEY_FIELDS:
        value = details.get(field)
        if isinstance(value, str) and value.strip() and value not in out:
            out.append(value)
    return out


def rationale(claim: str, sentences: Sequence[str], keys: Sequence[str] = (), limit: int = MAX_RATIONALE) -> list[int]:
    """Indices (ascending) of at most ``limit`` sentences: first those stating a key term, ranked by how many
    of the claim's content words they hold, then more sentences while they add claim words. At least one
    sentence when any shares a content word with the claim (or states a key term)."""
    want = set(content_lemmas(claim))
    sent_lemmas = [content_lemmas(s) for s in sentences]
    key_lemmas = [content_lemmas(k) for k in keys]
    has_key = [any(contains_content(lem, k) for k in key_lemmas) for lem in sent_lemmas]

    def gain(i: int, covered: set[str]) -> int:
        return len((set(sent_lemmas[i]) & want) - covered)

    chosen: list[int] = []
    covered: set[str] = set()
    order = sorted(range(len(sentences)), key=lambda i: (not has_key[i], -gain(i, set()), i))
    for i in order:
        if len(chosen) >= limit:
            break
        g = gain(i, covered)
        if (has_key[i] and not chosen) or g > 0:
            chosen.append(i)
            covered |= set(sent_lemmas[i]) & want
        if want and covered >= want:
            break
    return sorted(chosen)
