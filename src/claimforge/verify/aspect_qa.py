"""QA validation of a claim's 5W aspects (FACTIFY-5WQA §6), and the ``aspect-5w`` verifier built on it.

Each aspect of the claim (``nlp/aspects.py``: its span and a wh-question whose answer is that span) is asked of
the evidence with an extractive reader (the ``qa`` registry). The evidence's answer is then compared with the
claim's:

- the reader's probability is under ``min_answer_score``: the evidence does not answer the question → *not enough
  info*;
- the answers agree (equal after SQuAD's normalisation, or one holds the other's words plus only words that cannot
  change the referent: no number, no negation or comparison word) → *supported*;
- they differ: the judge (the ``nli`` registry) reads the *aspect statement*, the claim with its aspect replaced by
  the evidence's answer, as premise and the claim as hypothesis. Entailment (a compatible answer, "older adults"
  for "the elderly") → *supported*; contradiction ("2020" for "2019") → *refuted*; neutral → *not enough info*.
  The predicate itself ("reduced") is not a span a reader can be asked for: its answer's sentence is judged
  against the claim's core (the claim without its when, where and why aspects) instead.

The ``aspect-5w`` verifier turns the aspect verdicts into label probabilities: a claim is as refuted as its most
refuted aspect and as supported as its least supported one (every aspect must hold); a claim without aspects (no
parse) gets the judge on the whole claim.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import Field

from claimforge.backends.qa import NO_ANSWER, Answer, normalize_answer, token_f1
from claimforge.records import Label, Pair
from claimforge.registry import registry
from claimforge.verify.base import VerifierConfig, label_space, two_way

# Set a priori (not tuned on a benchmark): a reader's span below this probability is a guess.
MIN_ANSWER_SCORE = 0.1
SUP, REF, NEI = 0, 1, 2  # the judge's columns (Label order of a 3-way verifier)
STATUSES = ("supported", "refuted", "not enough info")


@dataclass(frozen=True)
class AspectAnswer:
    """What the evidence says to one aspect's question, and whether that agrees with the claim."""

    question: str  # the question asked (the aspect's template question, or a question generator's)
    answer: str  # the evidence's answer ("" when the evidence gives none)
    answer_score: float  # the reader's probability
    sentence: str  # the evidence sentence that holds the answer
    match: float  # SQuAD token F1 of the evidence's answer against the claim's span (reported; agreement is stricter)
    statement: str  # the claim with the aspect replaced by the evidence's answer ("" when not compared)
    probabilities: tuple[float, float, float]  # (supported, refuted, not enough info) for this aspect
    status: str  # supported / refuted / not enough info


# words whose presence on one side only can turn an answer into its opposite ("non-smokers" / "smokers",
# "increased risk" / "risk")
_POLARITY = frozenset(
    "no not non never without un less more higher lower increased decreased reduced elevated fewer greater "  # noqa: SIM905
    "smaller larger only".split()
)


def _agree(answer: str, claim_span: str) -> bool:
    """The two answers say the same: equal after SQuAD's normalisation, or one holds the other's words with
    nothing added but words that cannot change what it refers to ("the FDA" / "FDA"; not "type 1 diabetes" /
    "type 2 diabetes", not "smokers" / "non-smokers", not "30 mg" / "60 mg"). Anything else goes to the judge."""
    a, b = normalize_answer(answer).split(), normalize_answer(claim_span).split()
    if not a or not b:
        return False
    if a == b:
        return True
    sa, sb = set(a), set(b)
    if not (sa <= sb or sb <= sa):
        return False
    extra = sa ^ sb
    return not any(any(c.isdigit() for c in w) or w in _POLARITY for w in extra)


def claim_core(claim: str, aspects: Sequence[Any]) -> str:
    """The claim without its when, where and why aspects: what its predicate says of its arguments (so that the
    predicate is judged on its own, not on a wrong date elsewhere in the claim)."""
    from claimforge.nlp.aspects import without_all

    return without_all(claim, [a for a in aspects if a.kind in ("when", "where", "why")])


def _context(evidence: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """The evidence sentences joined into one context, and each sentence's character span in it."""
    spans, parts, pos = [], [], 0
    for s in evidence:
        spans.append((pos, pos + len(s)))
        parts.append(s)
        pos += len(s) + 1
    return " ".join(parts), spans


def _sentence_of(answer: Answer, evidence: Sequence[str], spans: list[tuple[int, int]]) -> str:
    for s, (a, b) in zip(evidence, spans, strict=True):
        if a <= answer.start < b + 1:
            return s
    return evidence[0] if evidence else ""


def validate_aspects(
    claims: Sequence[str],
    aspects: Sequence[Sequence[Any]],
    evidence: Sequence[Sequence[str]],
    qa: Any,
    nli: Any,
    min_answer_score: float = MIN_ANSWER_SCORE,
    questioner: Any = None,
) -> list[list[AspectAnswer]]:
    """For each claim, one ``AspectAnswer`` per aspect (``nlp.aspects.Aspect``), in order. ``qa``: a
    ``QuestionAnswerer``; ``nli``: an NLI model or 3-way verifier (``predict_proba`` on pairs); ``questioner``: a
    question generator (the ``questioner`` registry; None: the aspects' template questions)."""
    flat = [(i, j, a) for i, found in enumerate(aspects) for j, a in enumerate(found)]
    asked = [a.question for _, _, a in flat]
    if questioner is not None and flat:
        asked = questioner.ask([(claims[i], a.text, a.question) for i, _, a in flat])
    question_of = {(i, j): q for (i, j, _), q in zip(flat, asked, strict=True)}
    questions: list[tuple[str, str]] = []
    where: list[tuple[int, int]] = []
    contexts = [_context(ev) for ev in evidence]
    for i, j, _ in flat:
        if evidence[i]:
            questions.append((question_of[(i, j)], contexts[i][0]))
            where.append((i, j))
    answers = qa.answer(questions) if questions else []
    got: dict[tuple[int, int], Answer] = dict(zip(where, answers, strict=True))
    # the answers the reader is sure enough of, with the evidence sentence each comes from
    sentence_of = {
        key: _sentence_of(ans, evidence[key[0]], contexts[key[0]][1])
        for key, ans in got.items()
        if ans.found and ans.score >= min_answer_score
    }
    # what the judge reads: a predicate's answer sentence against the claim; another aspect's statement against it
    judge: list[tuple[tuple[int, int], str, Pair]] = []
    for (i, j), sentence in sentence_of.items():
        a, ans = aspects[i][j], got[(i, j)]
        if a.role in ("predicate", "attribute"):
            core = claim_core(claims[i], aspects[i])
            judge.append(((i, j), "", Pair(id=f"{i}-{j}", claim=core, evidence=(sentence,))))
        elif not _agree(ans.text, a.text):
            statement = claims[i][: a.start] + ans.text + claims[i][a.end :]
            judge.append(((i, j), statement, Pair(id=f"{i}-{j}", claim=claims[i], evidence=(statement,))))
    probs = nli.predict_proba([p for _, _, p in judge]) if judge else np.zeros((0, 3))
    if probs.shape[1] != 3:
        raise ValueError(
            f"QA validation needs a 3-way judge (SUPPORTED, REFUTED, NOT_ENOUGH_INFO), not {probs.shape[1]}"
        )
    judged = {key: (statement, row) for (key, statement, _), row in zip(judge, probs, strict=True)}
    out: list[list[AspectAnswer]] = []
    for i, found in enumerate(aspects):
        row_out = []
        for j, a in enumerate(found):
            ans = got.get((i, j), NO_ANSWER)
            if (i, j) not in sentence_of:  # no answer, or one the reader is unsure of
                p = (0.0, 0.0, 1.0)
                row_out.append(AspectAnswer(question_of[(i, j)], ans.text, ans.score, "", 0.0, "", p, STATUSES[NEI]))
                continue
            sentence = sentence_of[(i, j)]
            match = round(token_f1(ans.text, a.text), 4)
            if (i, j) in judged:
                statement, r = judged[(i, j)]
                p = (float(r[SUP]), float(r[REF]), float(r[NEI]))
                status = STATUSES[int(np.argmax(r))]
            else:  # the answers agree: supported, the more surely the more the reader is sure of its answer
                sup = 0.5 + 0.5 * ans.score
                statement, p, status = "", (sup, 0.0, 1.0 - sup), STATUSES[SUP]
            p = tuple(round(x, 4) for x in p)  # type: ignore[assignment]
            row_out.append(
                AspectAnswer(question_of[(i, j)], ans.text, ans.score, sentence, match, statement, p, status)
            )
        out.append(row_out)
    return out


class AspectQAConfig(VerifierConfig):
    nlp: dict[str, Any] | str = {"name": "spacy"}  # the parser that finds the aspects
    qa: dict[str, Any] | str = {"name": "embedded"}  # the extractive reader
    questioner: dict[str, Any] | str = {"name": "template"}  # the questions (template, hf, llm)
    nli: dict[str, Any] | str = {"name": "embedded"}  # the judge of differing answers
    min_answer_score: float = Field(default=MIN_ANSWER_SCORE, ge=0.0, le=1.0)


class AspectQAVerifier:
    """A verdict from the claim's 5W aspects, each validated by question answering on the evidence."""

    def __init__(self, config: AspectQAConfig) -> None:
        self.config = config
        self.nlp = registry.build("nlp", config.nlp)
        self.qa = registry.build("qa", config.qa)
        self.nli = registry.build("nli", config.nli)
        self.questioner = registry.build("questioner", config.questioner)
        self.model_id = (
            f"aspect-5w:{self.qa.model_id}|{self.nli.model_id}|{self.questioner.model_id}|{self.nlp.model_id}"
            f"|{config.min_answer_score:g}"
        )

    @property
    def labels(self) -> tuple[Label, ...]:
        return label_space(self.config.num_labels)

    def validate(self, pairs: Sequence[Pair]) -> tuple[list[list[Any]], list[list[AspectAnswer]]]:
        """Each pair's aspects and their QA validation."""
        from claimforge.nlp.aspects import aspects as claim_aspects

        docs = self.nlp.parse([p.claim for p in pairs])
        found = [claim_aspects(d) for d in docs]
        checked = validate_aspects(
            [p.claim for p in pairs],
            found,
            [p.evidence for p in pairs],
            self.qa,
            self.nli,
            self.config.min_answer_score,
            self.questioner,
        )
        return found, checked

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        _, checked = self.validate(pairs)
        out = np.zeros((len(pairs), 3))
        fallback = [i for i, c in enumerate(checked) if not c]
        if fallback:
            out[fallback] = self.nli.predict_proba([pairs[i] for i in fallback])
        for i, c in enumerate(checked):
            if c:
                sup = min(a.probabilities[SUP] for a in c)
                ref = max(a.probabilities[REF] for a in c)
                out[i] = (sup, ref, max(0.0, 1.0 - sup - ref))
        out = out / np.clip(out.sum(axis=1, keepdims=True), 1e-9, None)
        if progress is not None:
            progress(len(pairs), len(pairs))
        return out if self.config.num_labels == 3 else two_way(out)


@registry.register("verifier", "aspect-5w", AspectQAConfig)
def build_aspect_qa(config: AspectQAConfig) -> AspectQAVerifier:
    """FACTIFY-5WQA: the claim's 5W aspects, each asked of the evidence and checked (QA + the judge)."""
    return AspectQAVerifier(config)
