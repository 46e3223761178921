"""QA validation of 5W aspects and the aspect-5w verifier, with a scripted reader and judge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from claimforge.backends.qa import NO_ANSWER, Answer, locate
from claimforge.nlp.aspects import Aspect
from claimforge.records import Label, Pair
from claimforge.verify import aspect_qa

CLAIM = "Aspirin reduced the risk of stroke in 2019."
EVIDENCE = ("In 2020, a trial found that aspirin reduced the risk of stroke.", "It was run in older adults.")


def _aspect(kind: str, role: str, text: str, question: str) -> Aspect:
    i = CLAIM.index(text)
    cut = CLAIM.index(" in 2019") + 1 if kind == "when" else i  # a modifier goes with its preposition
    return Aspect(kind, role, text, i, i + len(text), "reduced", question, cut, i + len(text), "")


ASPECTS = [
    _aspect("who", "agent", "Aspirin", "What reduced the risk of stroke in 2019?"),
    _aspect("what", "predicate", "reduced", "What did aspirin do?"),
    _aspect("what", "patient", "the risk of stroke", "What did aspirin reduce in 2019?"),
    _aspect("when", "temporal", "2019", "When did aspirin reduce the risk of stroke?"),
]


class ScriptedQA:
    model_id = "scripted"

    def __init__(self, replies: dict[str, tuple[str, float]]) -> None:
        self.replies = replies
        self.asked: list[tuple[str, str]] = []

    def answer(self, items: Sequence[tuple[str, str]], progress: Any = None) -> list[Answer]:
        self.asked.extend(items)
        out = []
        for q, context in items:
            text, score = self.replies.get(q, ("", 0.0))
            a = locate(text, context) if text else NO_ANSWER
            out.append(Answer(a.text, a.start, a.end, score) if a.found else NO_ANSWER)
        return out


class ScriptedJudge:
    """Contradiction when premise and hypothesis name different years, entailment otherwise."""

    model_id = "judge"

    def __init__(self) -> None:
        self.pairs: list[Pair] = []

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        self.pairs.extend(pairs)
        rows = []
        for p in pairs:
            years = lambda t: {w.strip(".,") for w in t.split() if w.strip(".,").isdigit()}  # noqa: E731
            premise = " ".join(p.evidence)
            clash = years(p.claim) and years(premise) and years(p.claim) != years(premise)
            rows.append([0.05, 0.9, 0.05] if clash else [0.9, 0.05, 0.05])
        return np.array(rows)


def test_each_aspect_is_asked_and_compared_with_the_evidence_answer() -> None:
    reader = ScriptedQA(
        {
            ASPECTS[0].question: ("aspirin", 0.9),
            ASPECTS[1].question: ("reduced the risk of stroke", 0.6),
            ASPECTS[2].question: ("the risk of stroke", 0.8),
            ASPECTS[3].question: ("2020", 0.7),
        }
    )
    judge = ScriptedJudge()
    [out] = aspect_qa.validate_aspects([CLAIM], [ASPECTS], [EVIDENCE], reader, judge)
    assert [a.status for a in out] == ["supported", "supported", "supported", "refuted"]
    who, pred, what, when = out
    assert who.match == 1.0 and who.statement == "" and who.probabilities == (0.95, 0.0, 0.05)
    assert when.answer == "2020" and when.statement == "Aspirin reduced the risk of stroke in 2020."
    assert when.sentence == EVIDENCE[0] and when.match == 0.0
    # the predicate's answer sentence is judged against the claim without its when/where/why (the wrong year is
    # the when-aspect's fault, not the predicate's)
    assert pred.statement == "" and pred.sentence == EVIDENCE[0]
    assert {(p.claim, p.evidence) for p in judge.pairs} == {
        ("Aspirin reduced the risk of stroke.", (EVIDENCE[0],)),
        (CLAIM, (when.statement,)),  # the statement with the evidence's answer is the premise of the claim
    }
    assert all(q[1] == " ".join(EVIDENCE) for q in reader.asked)


def test_an_unsure_or_missing_answer_is_not_enough_info() -> None:
    reader = ScriptedQA({ASPECTS[3].question: ("2020", 0.05)})
    [out] = aspect_qa.validate_aspects([CLAIM], [ASPECTS], [EVIDENCE], reader, ScriptedJudge())
    assert all(a.status == "not enough info" and a.probabilities == (0.0, 0.0, 1.0) for a in out)
    assert out[3].answer == "2020" and out[3].answer_score == 0.05


def test_no_evidence_asks_nothing() -> None:
    reader = ScriptedQA({})
    [out] = aspect_qa.validate_aspects([CLAIM], [ASPECTS], [()], reader, ScriptedJudge())
    assert reader.asked == [] and all(a.status == "not enough info" for a in out)


@pytest.mark.parametrize(
    ("answer", "claim_span", "agree"),
    [
        ("the FDA", "FDA", True),
        ("The risk of stroke", "risk of stroke", True),
        ("mice", "rats", False),
        # one side's extra words can change what it refers to: the judge decides, not word overlap
        ("older adults aged 65", "older adults", False),
        ("type 1 diabetes", "type 2 diabetes", False),
        ("non-smokers", "smokers", False),
        ("increased risk", "risk", False),
        ("60 mg daily", "30 mg daily", False),
    ],
)
def test_answers_agree_only_when_they_name_the_same_thing(answer: str, claim_span: str, agree: bool) -> None:
    assert aspect_qa._agree(answer, claim_span) == agree


def test_the_verifier_is_as_refuted_as_its_most_refuted_aspect(monkeypatch: pytest.MonkeyPatch) -> None:
    judge = ScriptedJudge()
    verifier = object.__new__(aspect_qa.AspectQAVerifier)
    verifier.config = aspect_qa.AspectQAConfig()
    verifier.nli = judge
    refuted = [aspect_qa.AspectAnswer("q?", "x", 0.9, "s", 1.0, "", (0.9, 0.0, 0.1), "supported")] * 2 + [
        aspect_qa.AspectAnswer("q?", "2020", 0.9, "s", 0.0, "st", (0.05, 0.9, 0.05), "refuted")
    ]
    supported = [aspect_qa.AspectAnswer("q?", "x", 0.8, "s", 1.0, "", (0.8, 0.0, 0.2), "supported")]
    pairs = [Pair(id="a", claim=CLAIM, evidence=EVIDENCE)] * 3
    monkeypatch.setattr(verifier, "validate", lambda ps: ([], [refuted, supported, []]))
    probs = verifier.predict_proba(pairs)
    assert verifier.labels == (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)
    assert probs.shape == (3, 3) and np.allclose(probs.sum(axis=1), 1.0)
    assert probs[0].argmax() == 1 and probs[1].argmax() == 0
    assert len(judge.pairs) == 1  # the claim without aspects falls back to the judge on the whole claim


def test_aspect_5w_is_a_registered_verifier() -> None:
    from claimforge.registry import registry

    assert "aspect-5w" in registry.names("verifier")
    assert "embedded" in registry.names("qa") and "hf" in registry.names("qa") and "llm" in registry.names("qa")


class FakeSeq2Seq:
    model_id = "fake"

    def generate(self, texts: Sequence[str], progress: Any = None) -> list[str]:
        return [
            "In which year did aspirin reduce the risk of stroke? (generated)" if t.startswith("answer: 2019") else "no"
            for t in texts
        ]


def test_a_question_generator_replaces_the_template_questions() -> None:
    from claimforge.backends.questions import HFQuestioner, HFQuestionerConfig, TemplateQuestioner

    gen = object.__new__(HFQuestioner)
    gen.config = HFQuestionerConfig(seq2seq={"name": "hf", "model": "x"})
    gen.model = FakeSeq2Seq()
    reader = ScriptedQA({"In which year did aspirin reduce the risk of stroke?": ("2020", 0.7)})
    [out] = aspect_qa.validate_aspects([CLAIM], [ASPECTS], [EVIDENCE], reader, ScriptedJudge(), questioner=gen)
    # the span "2019" got the generated question (cut after its "?"); the others fall back to their template
    assert out[3].question == "In which year did aspirin reduce the risk of stroke?" and out[3].status == "refuted"
    assert [a.question for a in out[:3]] == [a.question for a in ASPECTS[:3]]
    assert TemplateQuestioner().ask([(CLAIM, "2019", "When?")]) == ["When?"]


def test_the_llm_questioner_keeps_questions_only() -> None:
    from claimforge.registry import registry

    q = registry.build("questioner", {"name": "llm", "model": "m", "use_cache": False})
    q.llm.complete = lambda convs: ["<think>x</think>When did aspirin reduce stroke risk?", "Sure, here it is."]
    assert q.ask([(CLAIM, "2019", "T1?"), (CLAIM, "Aspirin", "T2?")]) == ["When did aspirin reduce stroke risk?", "T2?"]
