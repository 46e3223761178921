"""ClaimGen (Wright et al. 2022): claims from scientific sentences, negations, NOT_ENOUGH_INFO pairing.

Supported-claim generators (component kind ``generator``):

- ``entity`` (CLAIMGEN-ENTITY): one atomic, de-contextualised claim per entity of the sentence, entailed by it.
  Default path: cleanup and parse-based simplification (:mod:`claimforge.generate.simplify`): the clause that
  holds the entity, its coordination list reduced to the entity. With ``qg`` configured (an HF seq2seq
  question-generation model or the LLM backend), the paper's path instead: a question about the entity,
  then QA2D (question + entity -> declarative claim) through any ``qa2d`` component.
- ``seq2seq`` (CLAIMGEN-BART): context + citance -> claims with an HF seq2seq model fine-tuned on SciFact's
  citance rewrites (``claimforge train-claimgen``), k samples with k = the number of noun phrases.
- ``llm``: the same task as a few-shot prompt to an OpenAI-compatible server.

The ``claimgen`` pipeline pairs each claim with the cited abstract (SUPPORTED), a negation from a
``negator`` (KBIN by default, :mod:`claimforge.generate.kbin`) with the same abstract (REFUTED), and the
claim or its negation with an abstract that lacks the claim's key entity (NOT_ENOUGH_INFO): the citing
paper's own abstract when the input has it, else the most similar other abstract of the input that does
not mention the entity.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator

from claimforge.generate.simplify import can_be_finite, claim_from_clause, clauses, clean_sentence, verb_like
from claimforge.io.splits import text_key
from claimforge.nlp.coverage import Coverage, coverages
from claimforge.nlp.normalize import contains_content, content_lemmas, finish_sentence, word_count
from claimforge.nlp.wellformed import COMMON_ABBREVIATIONS, abbreviation_definitions, expand_abbreviations
from claimforge.pipeline import (
    MAP_STEP,
    BuildState,
    Chunk,
    LabelCheckConfig,
    Pipeline,
    Stage,
    example_id,
    example_reject,
)
from claimforge.progress import phase
from claimforge.records import Document, Example, Label, Reject, SentenceItem
from claimforge.registry import ComponentConfig, registry
from claimforge.types import QA2DRequest
from claimforge.verify.label_check import evidence_sentences, judge, verdict

METHOD = "claimgen"


@dataclass(frozen=True)
class GeneratedClaim:
    """A claim made from an item's sentence; ``entity`` is its key entity (for NEI pairing and KBIN)."""

    item_id: str
    text: str
    entity: str | None
    generator: str
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Generated:
    claims: list[GeneratedClaim]
    rejects: list[Reject]


def _source_details(item: SentenceItem, cleaned: str) -> dict[str, Any]:
    return {
        "source_sentence": item.sentence,
        "cleaned_sentence": cleaned,
        "context": " ".join((*item.context_before, *item.context_after)),
    }


# ---------------------------------------------------------------------------------------------------
# CLAIMGEN-ENTITY


class EntityGeneratorConfig(ComponentConfig):
    ner: dict[str, Any] = {"name": "spacy"}
    nlp: dict[str, Any] = {"name": "spacy"}
    # Paper's path: question generation about the entity, then QA2D. A spec {"name": "hf", "model": ...} of
    # kind seq2seq, or {"name": "openai-compatible", ...} of kind llm; None: parse-based simplification.
    qg: dict[str, Any] | None = None
    qg_kind: Literal["seq2seq", "llm"] = "seq2seq"
    qg_template: str = "answer: {answer} context: {context}"
    qa2d: dict[str, Any] = {"name": "rules"}
    # Mentions used: "ner" (the NER model's entities only, as in the paper) or "ner+np" (plus noun phrases).
    mentions: Literal["ner", "ner+np"] = "ner+np"
    min_words: int = 4
    max_words: int = 40
    max_claims_per_sentence: int | None = Field(None, ge=1)
    # When no clause of the parse makes a claim: use the whole cleaned sentence (if short enough and it has a
    # finite verb), or reject the sentence.
    fallback: Literal["cleaned_sentence", "none"] = "cleaned_sentence"


def plausible_mentions(mentions: Sequence[Any]) -> list[Any]:
    """NER mentions, and noun phrases split at words that can only be verbs: a general-domain parser reads
    "Activation of PPM1D suppresses p53 function" as one noun phrase; its parts are the phrases."""
    out = []
    for m in mentions:
        words = list(re.finditer(r"[A-Za-z]+", m.text))
        cuts = [w for w in words if verb_like(w.group(0))] if m.source == "noun_chunk" else []
        if not cuts:
            out.append(m)
            continue
        start = 0
        for w in [*cuts, None]:
            end = w.start() if w is not None else len(m.text)
            piece = m.text[start:end]
            lead = len(piece) - len(piece.lstrip(" ,;"))
            text = piece.strip(" ,;")
            if re.search(r"[A-Za-z]{2}", text):
                a = m.start + start + lead
                out.append(replace(m, text=text, start=a, end=a + len(text)))
            if w is not None:
                start = w.end()
    return out


@registry.register("generator", "entity", EntityGeneratorConfig)
class EntityGenerator:
    """One claim per entity of the sentence (CLAIMGEN-ENTITY)."""

    name = "entity"

    def __init__(self, config: EntityGeneratorConfig) -> None:
        self.config = config
        self.ner = registry.build("ner", {**config.ner, "noun_chunks": config.mentions == "ner+np"})
        self.nlp = registry.build("nlp", config.nlp)
        self._qg: Any = None
        self._qa2d: Any = None

    @property
    def model_id(self) -> str:
        parts = [f"ner={self.ner.model_id}", f"parser={self.nlp.model_id}"]
        if self.config.qg is not None:
            parts += [f"qg={self.qg.model_id}", f"qa2d={self.qa2d.model_id}"]
        return "entity(" + ",".join(parts) + ")"

    @property
    def qg(self) -> Any:
        if self._qg is None and self.config.qg is not None:
            self._qg = registry.build(self.config.qg_kind, self.config.qg)
        return self._qg

    @property
    def qa2d(self) -> Any:
        if self._qa2d is None:
            self._qa2d = registry.build("qa2d", self.config.qa2d)
        return self._qa2d

    def generate(self, items: Sequence[SentenceItem], tick: Any = None) -> Generated:
        """``tick(done, total)``: how far it is (the tagger's share, the parser's, the claims')."""
        cleaned = [clean_sentence(it.sentence) for it in items]
        texts = [c.text for c in cleaned]
        mentions = [plausible_mentions(ms) for ms in self.ner.mentions(texts, phase(tick, 0.0, 0.45))]
        if self.config.qg is not None:
            return self._generate_qg(items, cleaned, mentions)
        docs = self.nlp.parse(texts, phase(tick, 0.45, 0.9))
        claims: list[GeneratedClaim] = []
        rejects: list[Reject] = []
        in_loop = phase(tick, 0.9, 1.0)
        for n, (it, cl, doc, ms) in enumerate(zip(items, cleaned, docs, mentions, strict=True)):
            if in_loop is not None and n % 200 == 0:
                in_loop(n, len(items))
            found: dict[str, GeneratedClaim] = {}
            problems: list[str] = []
            cls = clauses(doc)
            for m in ms:
                span = {t.i for t in doc if t.idx < m.end and t.idx + len(t.text) > m.start}
                if not span:
                    continue
                holder = max(cls, key=lambda c: len(span & c.tokens), default=None)
                if holder is None or not span & holder.tokens:
                    problems.append("entity_outside_clauses")
                    continue
                cc = claim_from_clause(doc, holder, span)
                problem = cc.problem or self._length_problem(cc.text)
                if problem is None and m.text.lower() not in (cc.text or "").lower():
                    problem = "entity_lost"
                if problem:
                    problems.append(problem)
                    continue
                text = cc.text or ""
                if text in found:
                    found[text].details["entities"].append(m.text)
                    continue
                found[text] = GeneratedClaim(
                    it.id,
                    text,
                    m.text,
                    self.name,
                    {
                        **_source_details(it, cl.text),
                        "entity": m.text,
                        "entity_label": m.label,
                        "entity_source": m.source,
                        "entities": [m.text],
                        "cleanup": cl.edits,
                        "path": "parse",
                    },
                )
            if not found and ms and self.config.fallback == "cleaned_sentence":
                fallback = self._fallback(cl.text)
                if fallback is None:
                    found[cl.text] = GeneratedClaim(
                        it.id,
                        cl.text,
                        ms[0].text,
                        self.name,
                        {
                            **_source_details(it, cl.text),
                            "entity": ms[0].text,
                            "entity_label": ms[0].label,
                            "entity_source": ms[0].source,
                            "entities": [m.text for m in ms],
                            "cleanup": cl.edits,
                            "path": "cleaned_sentence",
                            "clause_problems": sorted(set(problems)),
                        },
                    )
                else:
                    problems.append(fallback)
            made = list(found.values())[: self.config.max_claims_per_sentence]
            if not made:
                why = "no_entities" if not ms else "no_usable_clause"
                detail = ",".join(sorted(set(problems)))
                rejects.append(Reject(item_id=it.id, stage="generate", reason=why, detail=detail, ref=it.ref))
            claims.extend(made)
        return Generated(claims, rejects)

    def _fallback(self, text: str) -> str | None:
        """Why the cleaned sentence cannot stand as the claim (None: it can): used when no clause parses into
        a claim, which with a general-domain parser happens on many biomedical sentences."""
        problem = self._length_problem(text)
        if problem:
            return f"fallback_{problem}"
        words = re.findall(r"[A-Za-z]+", text)
        if not any(can_be_finite(w.lower()) for w in words):
            return "fallback_no_finite_verb"
        if words and words[0].lower() in (
            "it",
            "they",
            "this",
            "these",
            "those",
            "such",
            "he",
            "she",
            "we",
            "our",
            "their",
            "its",
        ):
            return "fallback_pronoun_subject"
        return None

    def _length_problem(self, text: str | None) -> str | None:
        n = word_count(text or "")
        if n < self.config.min_words:
            return "too_short"
        if n > self.config.max_words:
            return "too_long"
        return None

    def _generate_qg(self, items: Sequence[SentenceItem], cleaned: Sequence[Any], mentions: Sequence[Any]) -> Generated:
        """The paper's path: question about each entity (seq2seq or LLM), then QA2D."""
        jobs: list[tuple[int, Any]] = [(n, m) for n, ms in enumerate(mentions) for m in ms]
        prompts = [self.config.qg_template.format(answer=m.text, context=cleaned[n].text) for n, m in jobs]
        if self.config.qg_kind == "llm":
            convs = [
                [{"role": "user", "content": "Write one question whose answer is the given answer.\n" + p}]
                for p in prompts
            ]
            questions = self.qg.complete(convs)
        else:
            questions = self.qg.generate(prompts)
        reqs = [QA2DRequest(question=q.strip(), answer=m.text) for q, (_, m) in zip(questions, jobs, strict=True)]
        results = self.qa2d.convert(reqs)
        by_item: dict[int, dict[str, GeneratedClaim]] = {}
        problems: dict[int, set[str]] = {}
        for (n, m), q, r in zip(jobs, questions, results, strict=True):
            it = items[n]
            text = finish_sentence(r.text) if r.text else None
            problem = (r.reason or "qa2d_failed") if not text else self._length_problem(text)
            if getattr(q, "error", ""):  # the question request was refused (backends.llm.FailedReply)
                problem = "llm_request_failed"
            if problem:
                problems.setdefault(n, set()).add(problem)
                continue
            assert text is not None
            by_item.setdefault(n, {}).setdefault(
                text,
                GeneratedClaim(
                    it.id,
                    text,
                    m.text,
                    self.name,
                    {**_source_details(it, cleaned[n].text), "entity": m.text, "question": q, "path": "qg+qa2d"},
                ),
            )
        claims: list[GeneratedClaim] = []
        rejects: list[Reject] = []
        for n, it in enumerate(items):
            made = list(by_item.get(n, {}).values())[: self.config.max_claims_per_sentence]
            if not made:
                why = "no_entities" if not mentions[n] else "no_usable_claim"
                detail = ",".join(sorted(problems.get(n, ())))
                rejects.append(Reject(item_id=it.id, stage="generate", reason=why, detail=detail, ref=it.ref))
            claims.extend(made)
        return Generated(claims, rejects)


# ---------------------------------------------------------------------------------------------------
# CLAIMGEN-BART (any seq2seq) and the LLM few-shot generator


def seq2seq_input(item: SentenceItem) -> str:
    """The model input of the paper and of SciFact's rewrite pairs: ``"{before} {after} || {citance} ||"``."""
    context = " ".join((*item.context_before, *item.context_after)).strip()
    return f"{context} || {item.sentence} ||"


class Seq2SeqGeneratorConfig(ComponentConfig):
    model: dict[str, Any]  # a seq2seq spec: {"name": "hf", "model": <HF name or path>}
    nlp: dict[str, Any] = {"name": "spacy"}
    ner: dict[str, Any] = {"name": "spacy"}
    top_k: int = 50
    max_samples: int = Field(8, ge=1)  # k = number of noun phrases of the citance, at most this
    seed: int = 13


@registry.register("generator", "seq2seq", Seq2SeqGeneratorConfig)
class Seq2SeqGenerator:
    """Context + citance -> claims, sampled k times with top-k sampling (CLAIMGEN-BART)."""

    name = "seq2seq"

    def __init__(self, config: Seq2SeqGeneratorConfig) -> None:
        self.config = config
        self.model = registry.build("seq2seq", config.model)
        self.ner = registry.build("ner", {**config.ner, "noun_chunks": True})

    @property
    def model_id(self) -> str:
        return f"seq2seq({self.model.model_id})"

    def generate(self, items: Sequence[SentenceItem], tick: Any = None) -> Generated:
        cleaned = [clean_sentence(it.sentence) for it in items]
        mentions = self.ner.mentions([c.text for c in cleaned])
        ks = [min(self.config.max_samples, max(1, len(ms))) for ms in mentions]
        outputs = self.model.sample(
            [seq2seq_input(it) for it in items], ks, top_k=self.config.top_k, seed=self.config.seed
        )
        return _collect(self.name, items, cleaned, mentions, outputs, {"k": ks})


class LLMGeneratorConfig(ComponentConfig):
    llm: dict[str, Any]  # an llm spec: {"name": "openai-compatible", "base_url": ..., "model": ...}
    examples: str | None = None  # JSONL in SciFact's citance format (citance, claims) for few-shot examples
    n_examples: int = 6
    max_claims: int = 4
    ner: dict[str, Any] = {"name": "spacy"}
    seed: int = 13


FEW_SHOT_SYSTEM = (
    "You rewrite a sentence from a biomedical paper as atomic scientific claims. Each claim is one short "
    "declarative sentence about a single finding, understandable without the paper (no pronouns, citations, "
    "undefined abbreviations or hedges), and entailed by the sentence. Output one claim per line and nothing else."
)
BUILTIN_FEW_SHOT: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Metformin reduces hepatic glucose production by inhibiting gluconeogenesis [12].",
        ("Metformin reduces hepatic glucose production.", "Metformin inhibits gluconeogenesis."),
    ),
    (
        "We show that loss of p53 in mouse embryonic fibroblasts accelerates proliferation and impairs senescence.",
        ("Loss of p53 accelerates proliferation of mouse embryonic fibroblasts.", "Loss of p53 impairs senescence."),
    ),
)


@registry.register("generator", "llm", LLMGeneratorConfig)
class LLMGenerator:
    """Few-shot claim generation through an OpenAI-compatible chat server."""

    name = "llm"

    def __init__(self, config: LLMGeneratorConfig) -> None:
        self.config = config
        self.llm = registry.build("llm", config.llm)
        self.ner = registry.build("ner", {**config.ner, "noun_chunks": True})
        self.shots = self._load_shots()

    @property
    def model_id(self) -> str:
        return f"llm({self.llm.model_id})"

    def _load_shots(self) -> list[tuple[str, tuple[str, ...]]]:
        if not self.config.examples:
            return list(BUILTIN_FEW_SHOT)
        registry_reader = registry.build("reader", {"name": "scifact-citances", "path": self.config.examples})
        pool = [
            (it.sentence, it.references)
            for it in registry_reader.read(skip_bad=True)
            if isinstance(it, SentenceItem) and it.references
        ]
        rng = random.Random(self.config.seed)
        return rng.sample(pool, min(self.config.n_examples, len(pool)))

    def messages(self, item: SentenceItem, k: int) -> list[dict[str, str]]:
        msgs = [{"role": "system", "content": FEW_SHOT_SYSTEM}]
        for sentence, claims in self.shots:
            msgs.append({"role": "user", "content": f"Sentence: {sentence}"})
            msgs.append({"role": "assistant", "content": "\n".join(claims)})
        context = " ".join((*item.context_before, *item.context_after)).strip()
        user = (f"Context: {context}\n" if context else "") + f"Sentence: {item.sentence}\nAt most {k} claims."
        msgs.append({"role": "user", "content": user})
        return msgs

    def generate(self, items: Sequence[SentenceItem], tick: Any = None) -> Generated:
        cleaned = [clean_sentence(it.sentence) for it in items]
        mentions = self.ner.mentions([c.text for c in cleaned])
        ks = [min(self.config.max_claims, max(1, len(ms))) for ms in mentions]
        replies = self.llm.complete([self.messages(it, k) for it, k in zip(items, ks, strict=True)])
        outputs = [claim_lines(r)[:k] for r, k in zip(replies, ks, strict=True)]
        # a request the server refused for this item alone comes back empty with ``.error`` (backends.llm)
        errors = [getattr(r, "error", "") for r in replies]
        return _collect(self.name, items, cleaned, mentions, outputs, {"k": ks}, errors)


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)]|claim\s*\d*\s*:)\s*", re.I)


def claim_lines(reply: str) -> list[str]:
    out = []
    for line in re.sub(r"<think>.*?</think>", "", reply, flags=re.S | re.I).splitlines():
        line = _BULLET.sub("", line).strip().strip('"').strip()
        if line and not line.endswith(":"):
            out.append(line)
    return out


def _collect(
    name: str,
    items: Sequence[SentenceItem],
    cleaned: Sequence[Any],
    mentions: Sequence[Sequence[Any]],
    outputs: Sequence[Sequence[str]],
    extra: dict[str, list[Any]],
    errors: Sequence[str] | None = None,
) -> Generated:
    """Deduplicated, tidied claims per item; the key entity is the first mention the claim contains."""
    claims: list[GeneratedClaim] = []
    rejects: list[Reject] = []
    for n, (it, outs) in enumerate(zip(items, outputs, strict=True)):
        seen: set[str] = set()
        for raw in outs:
            text = finish_sentence(raw)
            if not text or text.lower() in seen or word_count(text) < 3:
                continue
            seen.add(text.lower())
            entity = next((m.text for m in mentions[n] if m.text.lower() in text.lower()), None)
            details = {**_source_details(it, cleaned[n].text), "entity": entity, **{k: v[n] for k, v in extra.items()}}
            claims.append(GeneratedClaim(it.id, text, entity, name, details))
        if not seen:
            error = errors[n] if errors else ""
            reason = "llm_request_failed" if error else "no_claims_generated"
            rejects.append(Reject(item_id=it.id, stage="generate", reason=reason, detail=error, ref=it.ref))
    return Generated(claims, rejects)


# ---------------------------------------------------------------------------------------------------
# The pipeline


def _support(p: _Paired) -> tuple[str, ...]:
    """The sentences that support a claim: its entailing passage when the evidence stage found one, else
    the whole evidence document."""
    passage = p.claim.details.get("evidence_passage")
    if passage:
        return tuple(p.doc.sentences[i] for i in passage["sentences"])
    return p.doc.sentences


def _passages(doc: Document) -> list[tuple[tuple[int, int], str]]:
    """Every passage of one sentence or two consecutive ones: ((start, end), text)."""
    sents = list(doc.sentences)
    out = [((i, i + 1), s) for i, s in enumerate(sents)]
    out += [((i, i + 2), f"{sents[i]} {sents[i + 1]}") for i in range(len(sents) - 1)]
    return out


class ClaimGenConfig(LabelCheckConfig):
    reader: dict[str, Any] | None = None
    generator: dict[str, Any] = {"name": "entity"}
    # The emit-time check of every generated claim (generate/claim_check.py): well-formed, self-contained and
    # atomic, or a ``not_wellformed`` reject with its reasons; None turns it off.
    claim_check: dict[str, Any] | None = {"name": "wellformed", "self_contained": True, "atomic": True}
    negator: dict[str, Any] | None = {"name": "minimal-edit"}  # or kbin (the paper's), docs/claimgen.md
    embedder: dict[str, Any] = {"name": "sentence-transformers"}
    # NOT_ENOUGH_INFO: which claim is paired (the supported claim, its negation, or either at random, as in the
    # paper) and how far down the similarity ranking to look for an abstract without the claim's key entity. The
    # default is the claim: a blind reading found negations paired with a related abstract refuted by it 5 times
    # in 6 (the abstract restates the finding the negation denies), the claims 0 times in 12 (docs/claimgen.md).
    nei_claim: Literal["claim", "negation", "either"] = "claim"
    nei_top_k: int = Field(20, ge=1)
    # How many candidate abstracts (the citing one, then the most similar without the entity) the judge may try:
    # the first it calls NOT_ENOUGH_INFO is paired. 1: the first candidate, unjudged until the label check. Two
    # blind readings (docs/claimgen.md) read the pairs from the 1st to 3rd candidate NOT_ENOUGH_INFO 27 times of 31,
    # from the 4th to 8th 4 of 7 (the judge's false neutrals): hence 3.
    nei_judged: int = Field(3, ge=1)
    # A candidate abstract with a sentence this close to the claim (cosine, the embedder's) is not tried: it mostly
    # states the claim in other words. Three blind readings' NOT_ENOUGH_INFO pairs (docs/claimgen.md): the ten
    # the reader found SUPPORTED all had a sentence at ≥ 0.648, of the 30 read right 21 were below 0.64. The
    # value is for the default embedder (all-MiniLM-L6-v2); another embedder's cosines need their own. None: off.
    nei_max_similarity: float | None = Field(0.64, gt=0, le=1)
    nei_use_citing: bool = True
    # The evidence of a claim: "entailed" (default) — the cited abstract (or the citing paper's own) with a
    # passage of one or two sentences the judge says entails the claim (P(entailment) ≥
    # ``evidence_min_entailment``); claims no passage entails are rejected. "cited": the cited abstract, unchecked (the
    # paper's way). ``evidence_top_k``: passages judged per claim, the most similar by embedding.
    evidence: Literal["entailed", "cited"] = "entailed"
    evidence_top_k: int = Field(4, ge=1)
    evidence_min_entailment: float = Field(0.70, ge=0, le=1)  # the judge's SUPPORTED gate (docs/label_check.md)
    # With "entailed" evidence, the over-claim check (nlp/coverage.py): the evidence document must also hold the
    # claim's content words — no number, strengthener ("directly"), quantifier ("several") or superlative it
    # lacks, and at most this many other nouns, names and adjectives it lacks (a synonym counts as lacking);
    # claims that fail are ``evidence_lacks_claim_content`` rejects. None: the judge alone decides. A blind reading
    # of 72 judge-confirmed citance claims by how many words their evidence lacks (docs/claimgen.md) found them
    # supported 11/12 with none lacking, 9/12 with one, 7/12 with two, 2/12 with a risky word: hence 0.
    evidence_max_uncovered: int | None = Field(0, ge=0)
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})  # the parser of the over-claim check
    # A claim whose text (normalised) an earlier citance already gave is dropped with its negation and NEI
    # pair: the same claim twice with different evidence is a leak between splits and counts one fact twice.
    unique_claims: bool = True

    @model_validator(mode="after")
    def _judge_for_evidence(self) -> ClaimGenConfig:
        if self.judge is None and self.evidence == "entailed":
            raise ValueError("evidence=entailed needs a judge: set judge, or evidence=cited")
        return self

    balance: bool = True
    seed: int = 13
    labels: tuple[Label, ...] = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)


@dataclass
class _Paired:
    claim: GeneratedClaim
    doc: Document
    number: int  # the claim's position among its sentence's claims (1-based): the "<k>" of its example ids
    negation: Any = None  # a Negation from the negator, or None
    duplicate_of: str | None = None  # "<item id>#<k>" of an earlier claim with the same text (unique_claims)


class ClaimGenPrefilter:
    """Duplicate ids, empty sentences and sentences without an evidence document (in input order)."""

    def __init__(self) -> None:
        self._seen: set[str] = set()

    def check(self, item: SentenceItem) -> tuple[int, str, str] | None:
        if item.id in self._seen:
            return 0, "duplicate_item_id", ""
        self._seen.add(item.id)
        if not item.sentence.strip():
            return 0, "empty_sentence", ""
        if not (item.cited or item.citing):
            return 0, "no_evidence_document", ""
        return None


def _claim_reject(claim: GeneratedClaim, stage: str, reason: str, detail: str, ref: Any) -> Reject:
    """A reject of one generated claim (scope ``example``)."""
    return Reject(item_id=claim.item_id, scope="example", stage=stage, reason=reason, detail=detail, ref=ref)


def _defined_abbreviations(item: SentenceItem) -> dict[str, str]:
    """The short forms an item's sentence, context and citing and cited documents define ("autism spectrum
    disorder (ASD)")."""
    docs = (*item.cited, *((item.citing,) if item.citing else ()))
    return abbreviation_definitions(
        " ".join((*item.context_before, item.sentence, *item.context_after, *(d.text for d in docs)))
    )


def with_abbreviations_defined(claim: GeneratedClaim, definitions: dict[str, str]) -> GeneratedClaim:
    """The claim with the short forms its source defines written out at first use ("ASD" -> "autism spectrum
    disorder (ASD)"), so it stands on its own."""
    if not definitions:
        return claim
    text, done = expand_abbreviations(claim.text, definitions, _KNOWN_ABBREVIATIONS)
    if not done:
        return claim
    return replace(claim, text=text, details={**claim.details, "abbreviations_defined": done})


_KNOWN_ABBREVIATIONS = frozenset(COMMON_ABBREVIATIONS)


class ClaimGen(Pipeline):
    """Sentences (citances) -> SUPPORTED / REFUTED / NOT_ENOUGH_INFO examples (Wright et al. 2022): claims;
    the evidence abstract of each; negations (REFUTED); NOT_ENOUGH_INFO pairing (global); label selection."""

    method = METHOD
    item_type = SentenceItem
    component_kinds = {
        "generator": "generator",
        "claim_check": "claim_check",
        "embedder": "embedder",
        "negator": "negator",
        "judge": "nli",
        "nlp": "nlp",
    }
    config: ClaimGenConfig

    @property
    def generator(self) -> Any:
        return self.component("generator")

    @property
    def negator(self) -> Any:
        return self.component("negator")

    @property
    def embedder(self) -> Any:
        return self.component("embedder")

    def prefilter(self) -> ClaimGenPrefilter:
        return ClaimGenPrefilter()

    def stages(self) -> list[Stage]:
        return [
            Stage(
                "generate claims",
                "map",
                self._generate,
                ("item",),
                ("claims",),
                ("generator", "claim_check"),
                version="51",  # issue 12: the emit-time claim check; 3: title-cased abbreviation long forms kept;
                # 4: "likely" is no longer dropped as a hedge; the claim check wellformed-v3; 5: misparsed coordination
                # and subordinate roots rejected, appositions without a comma kept, figure pointers removed, "As
                # mentioned," openers; abbreviations written out without a doubled word; the claim check wellformed-v4;
                # 6: "As expected" openers without a comma; 7: QA2D rules-v5 (entity claims); 8: the rest of rules-v5;
                # 9: QA2D rules-v7 (a passive inside the subject is not the question's verb; wh-words in place at the
                # end), the claim check wellformed-v5; 10: rules-v8 (articles before answers tagged alone as
                # adjectives); 11: rules-v9; 12: rules-v10 (names cased in the whole claim); 13: rules-v11;
                # 14: rules-v12; 15: rules-v13; 16: rules-v14; 17: rules-v15; 18: rules-v16, a capital after an inner
                # full stop before a comma (". However,"); 19: rules-v17; 20: rules-v18; 21: rules-v19; 22: rules-v20;
                # 23: rules-v21; 24: rules-v22; 25: rules-v23; 26: rules-v25; 27: bare reference numbers removed
                # (", 65, all the ..."), the claim check wellformed-v6 (references to the sentence before);
                # 28: rules-v26; 29: rules-v27; 30: rules-v28; 31: rules-v29; 32: rules-v30; 33: rules-v31;
                # 34: rules-v32; 35: rules-v33; 36: rules-v34; 37: rules-v35;
                # 38: rules-v36; 39: rules-v37; 40: rules-v38, the claim check wellformed-v7; 41: rules-v39;
                # 42: rules-v40; 43: rules-v41; 44: "such as" kept whole when a list is reduced ("such as
                # physical activity", was "such physical activity"), verbs sharing an object stay together ("can
                # synthesize and secrete X", was "can synthesize."), no reduction of a list hung on the predicate,
                # reflexive subjects rejected, the claim check wellformed-v8; 45: nor of "the association of A and
                # B" (relational nouns) or of a quantity coordinated with a noun ("15% and its 12 months prevalence");
                # 46: nor of a coordination the parse makes doubtful (simplify._not_reducible: an unlabelled
                # attachment, an odd left part, a list that goes on, "risk of A and B", the verb's number, "than"),
                # nor one dropping what precedes "as well as"; "due to" kept whole; the claim check wellformed-v9;
                # 47: wellformed-v10 (a "Not" left before its verb); 48: wellformed-v11 (a verb the tagger calls a
                # plural noun); 49: wellformed-v12 (no unknown-word penalty in the LM score, "foramen is"); 50:
                # wellformed-v13 (a participle's object or an age is no plural subject); 51: wellformed-v14 (a "what"
                # ending the claim)
            ),
            Stage(
                "choose evidence",
                "map",
                self._evidence,
                ("item", "claims"),
                ("paired",),
                (
                    "embedder",
                    "evidence",
                    "evidence_top_k",
                    "evidence_min_entailment",
                    "judge",
                    "evidence_max_uncovered",
                    "nlp",
                ),
                version="4",  # issue 11: evidence the judge says entails the claim; 3: the over-claim check;
                # 4: numbers matched whole, a written-out abbreviation covered by either form, "one of", "at least"
                # and "first-line" not over-claims, stems matched on 75% of the shorter word (the review's findings)
            ),
            # version 2: negations judged against the evidence, rare-word floor (issue 11)
            # 4: KBIN matches a short substitute ("No") in the evidence in its own case; 5: minimal-edit negation
            # without "a" before a plural, "also" and "can not" handled; 6: minimal-edit removes a negation only from
            # the main clause; 7: a capital after an inner full stop before a comma (". However,"); 8: minimal-edit
            # adds no negation beside a clause of reason ("…, as mitochondria are both …")
            Stage("negate", "map", self._negate, ("item", "paired"), ("paired",), ("negator",), version="8"),
            Stage("unique claims", "global", self._unique, ("item", "paired"), config=("unique_claims",)),
            Stage(
                "pair NEI evidence",
                "global",
                self._nei,
                ("item", "paired"),
                config=(
                    "nei_claim",
                    "nei_top_k",
                    "nei_use_citing",
                    "nei_judged",
                    "nei_max_similarity",
                    "embedder",
                    "judge",
                    "label_check",
                    "label_thresholds",
                    "seed",
                ),
                version="2",  # 2: candidates with a sentence as close to the claim as nei_max_similarity not tried
            ),
            self.label_check_stage(self.config.labels),
            self.select_stage(self.config.labels),
        ]

    def _generate(self, chunk: Chunk) -> None:
        units = chunk.live()
        gen = self.generator.generate([u.item for u in units], chunk.progress)
        for r in gen.rejects:
            chunk.add_reject(r)
        refs = {u.item.id: u.item.ref for u in units}
        definitions = {u.item.id: _defined_abbreviations(u.item) for u in units}
        claims = [with_abbreviations_defined(c, definitions.get(c.item_id, {})) for c in gen.claims]
        by_id: dict[str, list[GeneratedClaim]] = {}
        for c, why in zip(claims, self.claim_check_reasons([c.text for c in claims]), strict=True):
            if why:
                detail = f"{'; '.join(why)} :: {c.text[:200]}"
                chunk.add_reject(_claim_reject(c, "generate claims", "not_wellformed", detail, refs.get(c.item_id)))
                continue
            by_id.setdefault(c.item_id, []).append(c)
        for u in units:
            u.data["claims"] = by_id.get(u.item.id, [])

    def uses(self, name: str) -> bool:
        checks_words = self.config.evidence == "entailed" and self.config.evidence_max_uncovered is not None
        if name == "nlp":
            return checks_words
        return super().uses(name) or (name == "judge" and self.config.evidence == "entailed")

    def _evidence(self, chunk: Chunk) -> None:
        if self.config.evidence == "entailed":
            self._entailed_evidence(chunk)
        else:
            self._cited_evidence(chunk)

    def _entailed_evidence(self, chunk: Chunk) -> None:
        """The document that states each claim: of the passages (one or two consecutive sentences) of the
        cited abstracts and the citing paper's own, the ``evidence_top_k`` most similar to the claim (by
        embedding) are judged; a passage whose P(entailment) reaches the SUPPORTED gate entails the claim, and the
        most entailing one whose document also holds the claim's content words (the over-claim check,
        ``evidence_max_uncovered``) is kept. No entailing passage: ``no_entailing_evidence``; none in a document
        that holds the claim's words: ``evidence_lacks_claim_content``, naming the words the best one lacks."""
        cfg = self.config
        units = chunk.live()
        todo = [(u, (k, c)) for u in units for k, c in enumerate(u.data["claims"], 1)]
        docs: dict[str, Document] = {}
        for u, _ in todo:
            for d in (*u.item.cited, *((u.item.citing,) if u.item.citing else ())):
                docs.setdefault(d.id, d)
        passages = {d.id: _passages(d) for d in docs.values()}
        flat = [(doc_id, span, text) for doc_id, ps in passages.items() for span, text in ps]
        where = {(doc_id, span): i for i, (doc_id, span, _) in enumerate(flat)}
        texts = [c.text for _, (_, c) in todo] + [t for _, _, t in flat]
        vecs = self.embedder.embed(texts, phase(chunk.progress, 0.0, 0.3)) if todo else None
        queries: list[tuple[int, str, tuple[int, int]]] = []  # (claim number, doc id, span)
        for n, (u, _c) in enumerate(todo):
            assert vecs is not None
            own = [d.id for d in (*u.item.cited, *((u.item.citing,) if u.item.citing else ()))]
            cands = [(doc_id, span) for doc_id in own for span, _ in passages[doc_id]]
            rows = np.array([len(todo) + where[k] for k in cands], dtype=np.int64)
            sims = vecs[rows] @ vecs[n] if len(rows) else np.zeros(0)
            for j in np.argsort(-sims, kind="stable")[: cfg.evidence_top_k]:
                queries.append((n, *cands[int(j)]))
        probs = judge(
            self.component("judge"),
            [todo[n][1][1].text for n, _, _ in queries],
            [(flat[where[(doc_id, span)]][2],) for _, doc_id, span in queries],
            phase(chunk.progress, 0.3, 1.0),
        )
        # every passage the judge says entails its claim, the most entailing first
        entailing: dict[int, list[tuple[float, str, tuple[int, int]]]] = {}
        best: dict[int, float] = {}
        gate = cfg.evidence_min_entailment
        for (n, doc_id, span), p in zip(queries, probs, strict=True):
            best[n] = max(best.get(n, 0.0), float(p[0]))
            if float(p[0]) >= gate:
                entailing.setdefault(n, []).append((float(p[0]), doc_id, span))
        claim_of = {n: c.text for n, (_u, (_k, c)) in enumerate(todo)}
        covers = self._coverage(
            {(n, doc_id): (claim_of[n], docs[doc_id].text) for n, found in entailing.items() for _, doc_id, _ in found}
        )
        for u in units:
            u.data["paired"] = []
        for n, (u, (k, c)) in enumerate(todo):
            options = sorted(entailing.get(n, []), key=lambda x: -x[0])
            if not options:
                detail = f"claim {k}: best P(entailment)={best.get(n, 0.0):.3f} < {gate}: {c.text[:160]}"
                chunk.add_reject(_claim_reject(c, "choose evidence", "no_entailing_evidence", detail, u.item.ref))
                continue
            # the most entailing passage whose document also holds the claim's content words
            chosen = next((x for x in options if self._passes(covers.get((n, x[1])))), None)
            if chosen is None:
                detail = f"claim {k}: {covers[(n, options[0][1])].describe()} :: {c.text[:160]}"
                chunk.add_reject(
                    _claim_reject(c, "choose evidence", "evidence_lacks_claim_content", detail, u.item.ref)
                )
                continue
            score, doc_id, span = chosen
            doc = docs[doc_id]
            source = "cited" if any(d.id == doc_id for d in u.item.cited) else "citing"
            passage: dict[str, Any] = {
                "document": source,
                "sentences": list(range(*span)),
                "entailment": round(score, 4),
            }
            kept = covers.get((n, doc_id))
            if kept is not None and kept.uncovered:
                passage["uncovered"] = list(kept.uncovered)
            u.data["paired"].append(_Paired(replace(c, details={**c.details, "evidence_passage": passage}), doc, k))

    def _coverage(self, pairs: dict[tuple[int, str], tuple[str, str]]) -> dict[tuple[int, str], Coverage]:
        """The over-claim check of each (claim, evidence document) pair (nothing when it is off)."""
        nlp = self.component("nlp")
        if nlp is None or not pairs:
            return {}
        return dict(zip(pairs, coverages(nlp, list(pairs.values())), strict=True))

    def _passes(self, cover: Coverage | None) -> bool:
        limit = self.config.evidence_max_uncovered
        return cover is None or limit is None or cover.passes(limit)

    def _cited_evidence(self, chunk: Chunk) -> None:
        """The evidence abstract of each claim: the cited document (the most similar one, by embedding,
        when the sentence cites several); a plain sentence's own document when nothing is cited."""
        units = chunk.live()
        multi = [(u, c) for u in units for c in u.data["claims"] if len(u.item.cited) > 1]
        best: dict[int, Document] = {}
        if multi:
            docs = list({d.id: d for u, _ in multi for d in u.item.cited}.values())
            vecs = self.embedder.embed([c.text for _, c in multi] + [d.text for d in docs])
            cv, dv = vecs[: len(multi)], vecs[len(multi) :]
            index = {d.id: i for i, d in enumerate(docs)}
            for (u, c), v in zip(multi, cv, strict=True):
                sims = [float(dv[index[d.id]] @ v) for d in u.item.cited]
                best[id(c)] = u.item.cited[int(np.argmax(sims))]
        for u in units:
            paired = []
            for k, c in enumerate(u.data["claims"], 1):
                doc = best.get(id(c)) or (u.item.cited[0] if u.item.cited else u.item.citing)
                assert doc is not None
                paired.append(_Paired(c, doc, k))
            u.data["paired"] = paired

    def _negate(self, chunk: Chunk) -> None:
        """REFUTED claims by the negator (when there is one), and the SUPPORTED and REFUTED examples."""
        units = chunk.live()
        if self.negator is not None:
            todo = [(u, p) for u in units for p in u.data["paired"]]
            negs = self.negator.negate(
                [p.claim.text for _, p in todo], chunk.progress, evidence=[_support(p) for _, p in todo]
            )
            for (u, p), neg in zip(todo, negs, strict=True):
                if neg.text is None:
                    chunk.add_reject(
                        Reject(
                            item_id=p.claim.item_id,
                            scope="example",
                            stage="negate",
                            reason=neg.reason or "no_negation",
                            detail=p.claim.text[:200],
                            ref=u.item.ref,
                        )
                    )
                else:
                    p.negation = neg
        for u in units:
            for p in u.data["paired"]:
                k = p.number
                chunk.examples.append(self._example(u.item, k, Label.SUPPORTED, p.claim.text, p.doc, p.claim, {}))
                if p.negation is not None:
                    details = {"negation": p.negation.details}
                    chunk.examples.append(
                        self._example(u.item, k, Label.REFUTED, p.negation.text, p.doc, p.claim, details)
                    )

    def _unique(self, state: BuildState) -> None:
        """Mark every claim whose normalised text an earlier one (input order) has, and drop its examples.
        (Before the label check: the first copy is kept whatever the judge says of it later.)"""
        if not self.config.unique_claims:
            return
        first: dict[str, str] = {}
        dupes: dict[str, str] = {}  # example id -> the earlier claim ("<item id>#<k>")
        for u in state.units:
            if u.rejected is not None:
                continue
            for p in u.data.get("paired", ()):
                key, here = text_key(p.claim.text), f"{u.item.id}#{p.number}"
                if key in first:
                    p.duplicate_of = first[key]
                    dupes.update({example_id(u.item.id, lab, str(p.number)): first[key] for lab in Label})
                else:
                    first[key] = here
        kept = []
        for e in state.examples:
            earlier = dupes.get(e.id)
            if earlier is None:
                kept.append(e)
                continue
            state.rejects.append(
                example_reject(
                    self.item_of(e), e, "unique claims", "duplicate_claim", f"{e.id}: same claim as {earlier}"
                )
            )
        state.examples = kept

    def _nei(self, state: BuildState) -> None:
        cfg = self.config
        rng = random.Random(cfg.seed)
        # every record the pre-filter kept (step >= MAP_STEP: rejected later, its documents still count)
        items = [u.item for u in state.units if u.item is not None and (u.rejected is None or u.rejected >= MAP_STEP)]
        paired = [(u.item, p) for u in state.units if u.rejected is None for p in u.data.get("paired", ())]
        pool = list({d.id: d for it in items for d in (*it.cited, *((it.citing,) if it.citing else ()))}.values())
        if not paired:
            return
        hay = [content_lemmas(d.title + " " + d.text) for d in pool]
        texts = [p.claim.text for _, p in paired]
        vecs = self.embedder.embed(texts + [d.text for d in pool], state.progress)  # texts embedded of all
        cv, dv = vecs[: len(texts)], vecs[len(texts) :]
        index = {d.id: i for i, d in enumerate(pool)}
        k = min(cfg.nei_top_k, len(pool))
        found: dict[int, list[tuple[Document, str, dict[str, Any]]]] = {}  # candidates per paired claim, in order
        texts_of: dict[int, str] = {}
        negated: set[int] = set()  # the claims whose negation is paired
        for n, (it, p) in enumerate(paired):
            if p.duplicate_of is not None:
                continue
            use_negation = p.negation is not None and (
                cfg.nei_claim == "negation" or (cfg.nei_claim == "either" and rng.random() < 0.5)
            )
            texts_of[n] = p.negation.text if use_negation else p.claim.text
            if use_negation:
                negated.add(n)
            needle = content_lemmas(p.claim.entity or "") or content_lemmas(p.claim.text)
            own = {d.id for d in it.cited} | {p.doc.id}
            cands = found.setdefault(n, [])
            citing = it.citing if cfg.nei_use_citing and it.citing is not None and it.citing.id not in own else None
            if citing is not None and not contains_content(hay[index[citing.id]], needle):
                cands.append((citing, "citing_abstract", {}))
            sims = dv @ cv[n]
            rank = 0
            for i in np.argsort(-sims, kind="stable"):
                d = pool[int(i)]
                if d.id in own or (it.citing is not None and d.id == it.citing.id):
                    continue
                if rank >= k or (cfg.nei_max_similarity is None and len(cands) >= cfg.nei_judged):
                    break  # without the similarity rule the first nei_judged candidates are all that is tried
                if not contains_content(hay[int(i)], needle):
                    extra = {"evidence_rank": rank, "evidence_cosine": round(float(sims[i]), 6)}
                    cands.append((d, "related_abstract", extra))
                rank += 1
        restating = self._drop_restating(found, {n: cv[n] for n in found}, state)
        picked = self._pick_nei_candidates(texts_of, found)
        for n, (it, p) in enumerate(paired):
            if n not in found:
                continue  # a duplicate claim
            if not found[n]:
                reason, detail = "no_abstract_without_entity_in_top_k", f"k={k} entity={p.claim.entity!r}"
                if n in restating:
                    reason = "every_candidate_restates_claim"
                    detail = f"{detail}; each has a sentence at cosine >= {cfg.nei_max_similarity}"
                state.rejects.append(
                    Reject(item_id=it.id, scope="example", stage="nei", reason=reason, detail=detail, ref=it.ref)
                )
                continue
            # the first candidate the judge calls NOT_ENOUGH_INFO (else the first: the label check decides)
            pick = picked.get(n, 0)
            doc, how, extra = found[n][pick]
            details = {"nei_evidence": how, "nei_claim": "negation" if n in negated else "claim", **extra}
            if n in picked:
                details["nei_candidate"] = pick + 1
            if n in negated:
                details["negation"] = p.negation.details
            state.examples.append(
                self._example(it, p.number, Label.NOT_ENOUGH_INFO, texts_of[n], doc, p.claim, details)
            )

    def _drop_restating(
        self,
        found: dict[int, list[tuple[Document, str, dict[str, Any]]]],
        claim_vectors: dict[int, np.ndarray],
        state: BuildState,
    ) -> set[int]:
        """Keep each claim's first ``nei_judged`` candidates none of whose sentences is as close to the claim as
        ``nei_max_similarity`` (cosine of the embedder's vectors): an abstract with such a sentence mostly states
        the claim in other words, which the judge calls neutral (docs/claimgen.md). Candidates are tried in rounds
        (each claim's next ones, as many as it still lacks), so only the abstracts needed are split and embedded;
        each kept one records its closest sentence's cosine.
        Returns the claims that had candidates and lost them all."""
        limit, judged = self.config.nei_max_similarity, self.config.nei_judged
        if limit is None:
            return set()  # the ranking in _nei stopped at nei_judged candidates already
        kept: dict[int, list[tuple[Document, str, dict[str, Any]]]] = {n: [] for n in found}
        tried = dict.fromkeys(found, 0)  # candidates looked at per claim
        vectors: dict[str, np.ndarray] = {}  # document id -> its sentences' vectors
        while True:
            # each round: as many next candidates per claim as it still lacks (most claims keep their first ones)
            batch = [
                (n, found[n][m])
                for n in found
                for m in range(tried[n], min(len(found[n]), tried[n] + judged - len(kept[n])))
            ]
            if not batch:
                break
            new = list({d.id: d for _, (d, _, _) in batch if d.id not in vectors}.values())
            sentences = [list(evidence_sentences(d.text)) for d in new]
            flat = self.embedder.embed([s for ss in sentences for s in ss], state.progress)
            start = 0
            for d, ss in zip(new, sentences, strict=True):
                vectors[d.id] = flat[start : start + len(ss)]
                start += len(ss)
            for n, (doc, how, extra) in batch:
                tried[n] += 1
                closest = float(np.max(vectors[doc.id] @ claim_vectors[n]))
                if closest < limit:
                    kept[n].append((doc, how, {**extra, "nei_closest_sentence": round(closest, 6)}))
        lost = {n for n, cands in kept.items() if found[n] and not cands}
        for n, cands in kept.items():
            found[n][:] = cands
        return lost

    def _pick_nei_candidates(
        self, texts: dict[int, str], found: dict[int, list[tuple[Document, str, dict[str, Any]]]]
    ) -> dict[int, int]:
        """The candidate each claim pairs with: the first the judge calls NOT_ENOUGH_INFO (the label check's gates),
        judged in rounds (every claim's first candidate, then the next one only where that failed); nothing for a
        claim with one candidate or when there is no check (the first is then paired unjudged)."""
        if self.config.label_check == "off":
            return {}
        th = self.config.label_thresholds
        todo = [n for n, cands in found.items() if len(cands) > 1]
        chosen: dict[int, int] = {}
        for m in range(max((len(found[n]) for n in todo), default=0)):
            keys = [n for n in todo if n not in chosen and m < len(found[n])]
            if not keys:
                break
            probs = judge(
                self.component("judge"),
                [texts[n] for n in keys],
                [evidence_sentences(found[n][m][0].text) for n in keys],
            )
            for n, p in zip(keys, probs, strict=True):
                if verdict(Label.NOT_ENOUGH_INFO, p, th).passed:
                    chosen[n] = m
        return {n: chosen.get(n, 0) for n in todo}

    def _example(
        self,
        item: SentenceItem,
        k: int,
        label: Label,
        claim: str,
        doc: Document,
        source: GeneratedClaim,
        details: dict[str, Any],
    ) -> Example:
        return self.make_example(
            item,
            label,
            claim,
            doc.text,
            doc.id,
            {**source.details, "supported_claim": source.text, **details},
            key=str(k),
            method=f"{METHOD}-{source.generator}",
        )


@registry.register("pipeline", METHOD, ClaimGenConfig)
def build_claimgen(config: ClaimGenConfig) -> ClaimGen:
    """Scientific sentences/citances -> three-label dataset (ClaimGen-Entity/-BART + KBIN, Wright et al.)."""
    return ClaimGen(config)
