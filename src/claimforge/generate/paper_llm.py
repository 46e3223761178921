"""SciClaimHunt's LLM paths (§III-A, §III-B (i)) through any OpenAI-compatible chat server:

- generator ``paper-llm``: k source paragraph → claim examples, then the new paragraph (the paper: k = 12,
  Llama-2-13B); one claim per paragraph. The shipped examples (``data/sciclaimhunt_claim_shots.jsonl``) were
  written for this project from results and discussion paragraphs of the shared PLOS articles.
- negator ``llm``: the paper's negation instruction with 8 claim → negation examples
  (``data/sciclaimhunt_negation_shots.jsonl``); each negation is kept only if the judge says the evidence (or,
  without evidence, the claim) contradicts it (P(contradiction) ≥ ``min_contradiction``), as the other negators.

Replies are cached by the LLM backend; a request the server refuses for one item is a reject of that item.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import Field

from claimforge.generate.claimgen import Generated, GeneratedClaim, claim_lines
from claimforge.generate.kbin import Negation
from claimforge.nlp.normalize import finish_sentence, word_count
from claimforge.records import Reject, SentenceItem
from claimforge.registry import ComponentConfig, registry
from claimforge.verify.label_check import judge

CLAIM_INSTRUCTION = (
    "You extract a scientific claim from a paragraph of a research paper. The claim is one declarative sentence "
    "that the paragraph supports: fluent, atomic (one finding), understandable without the paper (no 'we', "
    "'this study' or undefined abbreviations) and faithful (nothing the paragraph does not say). Answer with the "
    "claim only."
)
# the paper's instruction P_r (§III-B (i)), verbatim
NEGATION_INSTRUCTION = (
    "I want you to negate claims extracted from a given scientific paragraph. The negations must be strong "
    "negations that are surely false. Examples may be changing results and methodology mentioned in the claims."
)


def _shots(path: str | None, default: str, fields: tuple[str, str]) -> list[tuple[str, str]]:
    """(input, output) pairs from a JSONL file (the packaged default when ``path`` is None)."""
    if path is None:
        text = resources.files("claimforge").joinpath("data", default).read_text(encoding="utf-8")
        where = f"claimforge/data/{default}"
    else:
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"{p}: no such examples file")
        text, where = p.read_text(encoding="utf-8"), str(p)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            out.append((str(rec[fields[0]]), str(rec[fields[1]])))
        except (json.JSONDecodeError, KeyError, TypeError) as e:
            raise ValueError(
                f"{where}:{n}: expected a JSON object with {fields[0]!r} and {fields[1]!r} ({e})"
            ) from None
    if not out:
        raise ValueError(f"{where}: no examples")
    return out


class PaperLLMGeneratorConfig(ComponentConfig):
    llm: dict[str, Any]  # {"name": "openai-compatible", "base_url": ..., "model": ...}
    examples: str | None = None  # JSONL of {"paragraph", "claim"}; default: the shipped 12
    k: int = Field(12, ge=0)  # examples in the prompt (the paper: 12)


@registry.register("generator", "paper-llm", PaperLLMGeneratorConfig)
class PaperLLMGenerator:
    """One claim per source paragraph, by a k-shot prompt (SciClaimHunt's Promp_Claim_Generator)."""

    name = "paper-llm"

    def __init__(self, config: PaperLLMGeneratorConfig) -> None:
        self.config = config
        self.shots = _shots(config.examples, "sciclaimhunt_claim_shots.jsonl", ("paragraph", "claim"))[: config.k]
        self.llm = registry.build("llm", config.llm)

    @property
    def model_id(self) -> str:
        return f"paper-llm({self.llm.model_id};k={len(self.shots)})"

    def messages(self, paragraph: str) -> list[dict[str, str]]:
        msgs = [{"role": "system", "content": CLAIM_INSTRUCTION}]
        for para, claim in self.shots:
            msgs += [{"role": "user", "content": f"Paragraph: {para}"}, {"role": "assistant", "content": claim}]
        msgs.append({"role": "user", "content": f"Paragraph: {paragraph}"})
        return msgs

    def generate(self, items: Sequence[SentenceItem], tick: Any = None) -> Generated:
        paragraphs = [" ".join((*it.context_before, it.sentence, *it.context_after)) for it in items]
        replies = self.llm.complete([self.messages(p) for p in paragraphs])
        claims: list[GeneratedClaim] = []
        rejects: list[Reject] = []
        for it, para, reply in zip(items, paragraphs, replies, strict=True):
            lines = claim_lines(reply)
            text = (finish_sentence(lines[0]) or "") if lines else ""
            if not text or word_count(text) < 3:
                error = getattr(reply, "error", "")
                reason = "llm_request_failed" if error else "no_claims_generated"
                rejects.append(Reject(item_id=it.id, stage="generate", reason=reason, detail=error, ref=it.ref))
                continue
            details = {"source_sentence": it.sentence, "paragraph": para, "k": len(self.shots)}
            claims.append(GeneratedClaim(it.id, text, None, self.name, details))
        if tick is not None:
            tick(len(items), len(items))
        return Generated(claims, rejects)


class LLMNegatorConfig(ComponentConfig):
    llm: dict[str, Any]
    examples: str | None = None  # JSONL of {"claim", "negation"}; default: the shipped 8
    k: int = Field(8, ge=0)  # the paper: 8
    nli: dict[str, Any] | None = {"name": "embedded", "runtime": "onnx"}  # None: no gate
    min_contradiction: float = Field(0.65, ge=0, le=1)


@registry.register("negator", "llm", LLMNegatorConfig)
class LLMNegator:
    """Negations by the paper's negation prompt, gated by the judge."""

    name = "llm"

    def __init__(self, config: LLMNegatorConfig) -> None:
        self.config = config
        self.shots = _shots(config.examples, "sciclaimhunt_negation_shots.jsonl", ("claim", "negation"))[: config.k]
        self.llm = registry.build("llm", config.llm)
        self.nli = registry.build("nli", config.nli) if config.nli is not None else None

    @property
    def model_id(self) -> str:
        gate = f";nli={self.nli.model_id}" if self.nli is not None else ""
        return f"llm-negation({self.llm.model_id};k={len(self.shots)}{gate})"

    def messages(self, claim: str) -> list[dict[str, str]]:
        msgs = [{"role": "system", "content": NEGATION_INSTRUCTION}]
        for c, neg in self.shots:
            msgs += [{"role": "user", "content": f"Claim: {c}"}, {"role": "assistant", "content": neg}]
        msgs.append({"role": "user", "content": f"Claim: {claim}"})
        return msgs

    def negate(
        self, claims: Sequence[str], progress: Any = None, evidence: Sequence[tuple[str, ...]] | None = None
    ) -> list[Negation]:
        replies = self.llm.complete([self.messages(c) for c in claims])
        texts: list[str] = []
        for reply in replies:
            lines = claim_lines(reply)
            texts.append((finish_sentence(lines[0]) or "") if lines else "")
        premises = list(evidence) if evidence is not None else [(c,) for c in claims]
        made = [i for i, t in enumerate(texts) if t]
        scores: dict[int, float] = {}
        if self.nli is not None and made:
            probs = judge(self.nli, [texts[i] for i in made], [premises[i] for i in made])
            scores = {i: float(p[1]) for i, p in zip(made, probs, strict=True)}
        out = []
        for i, (claim, text) in enumerate(zip(claims, texts, strict=True)):
            details: dict[str, Any] = {"method": "llm", "original_claim": claim}
            if not text:
                error = getattr(replies[i], "error", "")
                out.append(
                    Negation(None, "llm_request_failed" if error else "no_negation", {**details, "error": error})
                )
                continue
            if i in scores:
                details["contradiction"] = round(scores[i], 4)
                details["judged_against"] = "evidence" if evidence is not None else "claim"
                if scores[i] < self.config.min_contradiction:
                    out.append(Negation(None, "contradiction_below_threshold", {**details, "candidate": text}))
                    continue
            out.append(Negation(text, None, details))
        if progress is not None:
            progress(len(claims), len(claims))
        return out
