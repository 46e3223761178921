"""Knowledge-base substitutes behind the fill-mask interface (``fillmask`` kind, name ``kb``): the span is linked
to a knowledge-base concept as KBIN links entities (WordNet, GO, HPO, ...); its antonyms (verbs, adjectives) and
its siblings closest by sentence embedding (nouns) are the candidates, put in the span's form, and ranked by the
n-gram LM's perplexity of the whole sentence. The KBIN machinery of :mod:`claimforge.generate.kbin`, offered to
pipelines that ask a fill-mask model for substitutes (COVID-Fact's counter-claims).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field

from claimforge.backends.fillmask import Infill
from claimforge.generate.kbin import KBIN, KBINConfig, _Target
from claimforge.registry import ComponentConfig, registry


class KBFillConfig(ComponentConfig):
    kbs: list[dict[str, Any]] = [{"name": "wordnet"}, {"name": "go"}, {"name": "hpo"}]
    nlp: dict[str, Any] = {"name": "spacy"}
    embedder: dict[str, Any] = {"name": "sentence-transformers"}
    lm: dict[str, Any] = {"name": "ngram"}
    top_n: int = Field(default=20, ge=1)  # closest siblings per concept
    min_word_frequency: float = Field(default=1e-6, ge=0, le=1)
    missing_kb: Literal["error", "skip"] = "skip"


_POS = {"VERB": "v", "AUX": "v", "ADJ": "a", "NOUN": "n", "PROPN": "n"}


@registry.register("fillmask", "kb", KBFillConfig)
class KBFill:
    """Antonyms and embedding-closest siblings from knowledge bases, ranked by the n-gram LM."""

    def __init__(self, config: KBFillConfig) -> None:
        self.config = config
        self.kbin = KBIN(
            KBINConfig.model_validate(
                {
                    "kbs": config.kbs,
                    "nlp": config.nlp,
                    "embedder": config.embedder,
                    "lm": config.lm,
                    "top_n": config.top_n,
                    "min_word_frequency": config.min_word_frequency,
                    "missing_kb": config.missing_kb,
                    "verb_siblings": False,
                }
            )
        )
        self.model_id = f"kb-fill({'+'.join(kb.model_id for kb in self.kbin.kbs)},lm={self.kbin.lm.model_id})"

    def _target(self, doc: Any, text: str, start: int, end: int) -> _Target | None:
        toks = [t for t in doc if t.idx < end and t.idx + len(t.text) > start]
        if not toks:
            return None
        head = toks[-1]
        pos = _POS.get(head.pos_)
        if pos is None:
            return None
        lemma = head.lemma_ if len(toks) == 1 and pos != "n" else ""
        label = "VERB" if pos == "v" else "ADJ" if pos == "a" else "NP"
        return _Target(text[start:end], start, end, pos, head.tag_, label, lemma)  # type: ignore[arg-type]

    def fill(self, requests: Sequence[tuple[str, int, int]], k: int, progress: Any = None) -> list[list[Infill]]:
        docs = self.kbin.nlp.parse([t for t, _, _ in requests]) if requests else []
        per: list[list[tuple[str, tuple[str, str]]]] = []  # (substitute for the span, (sentence, relation))
        for (text, start, end), doc in zip(requests, docs, strict=True):
            target = self._target(doc, text, start, end)
            subs: dict[str, tuple[str, str]] = {}
            if target is not None:
                cands, _ = self.kbin.candidates(text, [target])
                for c in cands:
                    t = c.target
                    new = c.text[t.start : len(c.text) - (len(text) - t.end)]
                    span = text[start : t.start] + new + text[t.end : end]
                    if span.lower() != text[start:end].lower():
                        subs.setdefault(span, (c.text, c.relation))
            per.append(list(subs.items()))
        flat = [sentence for pairs in per for _, (sentence, _) in pairs]
        ppl = self.kbin.lm.perplexity(flat) if flat else []
        out: list[list[Infill]] = []
        i = 0
        for pairs in per:
            scored = []
            for span, (_, relation) in pairs:
                p = float(ppl[i])
                i += 1
                scored.append(Infill(span, -math.log(p) if p > 0 and math.isfinite(p) else -1e9, relation))
            out.append(sorted(scored, key=lambda f: -f.score)[:k])
        return out


class UnionFillConfig(ComponentConfig):
    members: list[dict[str, Any]] = Field(default_factory=lambda: [{"name": "kb"}, {"name": "embedded"}])


@registry.register("fillmask", "union", UnionFillConfig)
class UnionFill:
    """The candidates of several fill-mask components in turn, without repeats (default: kb, then embedded).

    The first member's best, the second's best, ...: knowledge-base antonyms and siblings next to a masked LM's
    contextual guesses."""

    def __init__(self, config: UnionFillConfig) -> None:
        if not config.members:
            raise ValueError("fillmask 'union' needs at least one member")
        self.members = [registry.build("fillmask", m) for m in config.members]
        self.model_id = "union(" + ",".join(m.model_id for m in self.members) + ")"

    def fill(self, requests: Sequence[tuple[str, int, int]], k: int, progress: Any = None) -> list[list[Infill]]:
        lists = [m.fill(requests, k) for m in self.members]
        out = []
        for per in zip(*lists, strict=True):
            seen: set[str] = set()
            merged: list[Infill] = []
            for rank in range(k):
                for cands in per:
                    if rank < len(cands) and cands[rank].text.lower() not in seen:
                        seen.add(cands[rank].text.lower())
                        merged.append(cands[rank])
            out.append(merged)
        return out
