"""The word list that ships with claimforge (the vocabulary of the embedded n-gram LM) and a repair it makes
possible: MedMCQA's text has lost every "rt" (two letters of a ligature in its PDF sources): "hypeension",
"Fuher examination", "inferior thyroid aery", "at bih". In its validation split the repair changes 449 words in 313 of
the 4,183 items (question, options or explanation). Words the loss turned into other known words ("hea" for "heart",
"sta" for "start") cannot be told apart and stay."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from importlib import resources

EMBEDDED_LM = "lm-ngram"  # the folder of the embedded n-gram LM under claimforge/models; its header holds the words


@functools.lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """The 65,536 lower-cased words of the embedded n-gram LM (scientific abstracts, SciQ, PLOS, EBM-NLP)."""
    header = resources.files("claimforge") / "models" / EMBEDDED_LM / "header.json"
    return frozenset(json.loads(header.read_text(encoding="utf-8"))["vocab"])


_WORD = re.compile(r"[A-Za-z]{3,}")


def restore_lost_rt(text: str, known: Callable[[str], bool] | None = None) -> tuple[str, list[str]]:
    """``text`` with each unknown word of three or more letters that becomes a known word in exactly one way by
    putting "rt" back ("Fuher" -> "Further", "hypeension" -> "hypertension", "bih" -> "birth"), and the
    repairs as "old->new". Acronyms of up to five capitals are left alone. On SciQ's 1.2 million words of
    undamaged text this changes one word ("Tule"), so it is meant for sources known to have lost the letters."""
    is_known = known or known_words().__contains__
    fixed: list[str] = []

    def repair(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower()
        if is_known(low) or (word.isupper() and len(word) <= 5):
            return word
        found = [c for c in (low[:i] + "rt" + low[i:] for i in range(1, len(low) + 1)) if is_known(c)]
        if len(found) != 1:
            return word
        new = found[0].upper() if word.isupper() else found[0].capitalize() if word[0].isupper() else found[0]
        fixed.append(f"{word}->{new}")
        return new

    return _WORD.sub(repair, text), fixed
