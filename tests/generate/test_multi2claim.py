"""The Multi2Claim pipeline on self-made items: labels, pairing rules, filters, accounting, balance."""

from __future__ import annotations

from typing import Any

import pytest

from claimforge.generate.multi2claim import Multi2Claim, Multi2ClaimConfig
from claimforge.records import Label, MCQItem, Reject, SourceRef

FILLER = " ".join(["Cells are the basic units of living things and carry out many processes."] * 5)


def item(i: int, question: str, answer: str, distractors: list[str], explanation: str | None, **meta: Any) -> MCQItem:
    ref = SourceRef(dataset="t", path="t.jsonl", line=i + 1, item_id=f"t:{i}")
    return MCQItem(
        id=f"t:{i}",
        question=question,
        options=(answer, *distractors),
        answer_index=0,
        explanation=explanation,
        ref=ref,
        meta=meta,
    )


class FakeQA2D:
    model_id = "fake-qa2d"

    def convert(self, requests):  # type: ignore[no-untyped-def]
        from claimforge.types import QA2DResult

        out = []
        for r in requests:
            if "UNCONVERTIBLE" in r.question:
                out.append(QA2DResult(text=None, reason="no_question_form"))
            elif "EXCEPT" in r.question:
                out.append(QA2DResult(text=f"{r.answer} is listed.", polarity="inverted"))
            else:
                out.append(QA2DResult(text=f"The answer is {r.answer}."))
        return out


def make(qa2d: Any = None, **cfg: Any) -> Multi2Claim:
    """The pipeline with fakes; the label check and the synonym check are off unless asked for
    (tests/verify/test_label_check.py)."""
    cfg = {"embedder": {"name": "hashing"}, "label_check": "off", "synonym_cosine": 1.0, **cfg}
    return Multi2Claim(Multi2ClaimConfig(**cfg), qa2d=qa2d or FakeQA2D())


def corpus() -> list[MCQItem]:
    return [
        item(
            0, "What stores DNA?", "nucleus", ["ribosome", "nucleolus", "vacuole"], "The nucleus stores DNA. " + FILLER
        ),
        item(
            1,
            "What makes energy?",
            "mitochondria",
            ["chloroplast", "ribosome", "mitochondrion"],
            "Mitochondria make energy. " + FILLER,
        ),
        item(2, "What makes proteins?", "ribosome", ["nucleus", "lysosome"], "Ribosomes make proteins. " + FILLER),
        item(3, "What digests waste?", "lysosome", ["golgi"], "Lysosomes digest waste. " + FILLER),
    ]


def test_three_labels_with_the_papers_pairing() -> None:
    res = make(balance=False).build(corpus())
    by = {(e.source_item_id, e.label): e for e in res.examples}
    s, r = by[("t:0", Label.SUPPORTED)], by[("t:0", Label.REFUTED)]
    assert s.claim == "The answer is nucleus." and s.evidence.startswith("The nucleus stores DNA")
    # REFUTED uses the distractor closest to the answer ("nucleolus" shares most n-grams with "nucleus")
    assert r.claim == "The answer is nucleolus." and r.evidence == s.evidence
    n = by[("t:0", Label.NOT_ENOUGH_INFO)]
    assert n.claim == s.claim and n.evidence_id != s.evidence_id
    assert "nucle" not in n.evidence.lower()  # the NEI evidence does not mention the answer
    # item 1: "mitochondrion" is a duplicate-in-lemma distractor but still a distinct string; the NEI evidence
    # for "mitochondria" must not be item 1's own explanation
    assert by[("t:1", Label.NOT_ENOUGH_INFO)].evidence_id != "t:1:explanation"
    assert s.provenance.source.line == 1 and s.provenance.components["qa2d"] == "fake-qa2d"


def test_nei_skips_explanations_that_mention_the_answer_by_lemma() -> None:
    items = [
        item(0, "What stores DNA?", "nuclei", ["ribosome"], "Nuclei store DNA. " + FILLER),
        item(1, "Q1?", "golgi", ["x"], "The nucleus is large. Golgi. " + FILLER),  # mentions "nucleus"
        item(2, "Q2?", "vacuole", ["y"], "Vacuoles hold water. " + FILLER),
    ]
    res = make(balance=False, nei_top_k=2).build(items)
    nei = {e.source_item_id: e for e in res.examples if e.label == Label.NOT_ENOUGH_INFO}
    assert nei["t:0"].evidence_id == "t:2:explanation"


def test_filters_and_accounting() -> None:
    items = [
        *corpus(),
        item(10, "", "a", ["b"], FILLER),
        item(11, "What?", "a", [], FILLER),
        item(12, "What is short?", "a", ["b"], "Too short."),
        item(13, "What has none?", "a", ["b"], None),
        item(14, "What is duplicated?", "a", ["b"], corpus()[0].explanation),
        item(15, "Multi?", "a", ["b"], FILLER + " extra", choice_type="multi"),
        item(16, "UNCONVERTIBLE stem", "a", ["b"], FILLER + " other"),
    ]
    bad = Reject(item_id="t:bad", stage="read", reason="malformed_record", ref=None)
    res = make().build([*items, bad])
    reasons = {r.item_id: r.reason for r in res.rejects if r.scope == "item"}
    assert reasons == {
        "t:10": "empty_question",
        "t:11": "no_distractors",
        "t:12": "short_evidence",
        "t:13": "no_explanation",
        "t:14": "duplicate_evidence",
        "t:15": "multiple_correct_options",
        "t:16": "no_question_form",
        "t:bad": "malformed_record",
    }
    assert res.n_input == len(items) + 1
    assert len(res.used_item_ids) + res.n_rejected_items == res.n_input
    counts = {lab: sum(e.label == lab for e in res.examples) for lab in Label}
    assert len(set(counts.values())) == 1  # balanced


def test_min_evidence_words_is_configurable() -> None:
    items = [item(20, "What?", "a", ["b"], "Only five words here now."), *corpus()]
    res = make(min_evidence_words=3, balance=False).build(items)
    assert "t:20" in res.used_item_ids
    assert "t:20" not in make(balance=False).build(items).used_item_ids


def test_duplicate_ids_are_rejected_not_double_counted() -> None:
    items = [*corpus(), corpus()[1]]
    res = make(balance=False).build(items)
    assert [r.reason for r in res.rejects if r.scope == "item"] == ["duplicate_item_id"]
    assert len(res.used_item_ids) + res.n_rejected_items == len(items)


def test_inverted_stems_swap_roles() -> None:
    items = [
        item(
            0,
            "All of the following are organelles EXCEPT",
            "nucleus",
            ["ribosome", "nucleolus"],
            "Organelles include ribosomes. " + FILLER,
        ),
        *corpus()[1:],
    ]
    res = make(balance=False).build(items)
    by = {(e.source_item_id, e.label): e for e in res.examples}
    assert by[("t:0", Label.REFUTED)].claim == "nucleus is listed."
    assert by[("t:0", Label.SUPPORTED)].claim == "nucleolus is listed."


def test_balance_is_seeded_and_exact() -> None:
    a = make(seed=1).build(corpus())
    b = make(seed=1).build(corpus())
    assert [e.id for e in a.examples] == [e.id for e in b.examples]
    counts = {lab: sum(e.label == lab for e in a.examples) for lab in Label}
    assert len(set(counts.values())) == 1
    dropped = [r for r in a.rejects if r.stage == "balance"]
    assert len(dropped) + len(a.examples) == len(make(balance=False).build(corpus()).examples)


@pytest.mark.parametrize("bad", ["yes", 0])
def test_config_rejects_unknown_or_bad_values(bad: Any) -> None:
    with pytest.raises(ValueError, match="nei_top_k"):
        Multi2ClaimConfig(nei_top_k="many")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"(?s)unknown_key.*Extra inputs are not permitted"):
        Multi2ClaimConfig(unknown_key=bad)  # type: ignore[call-arg]


def test_answers_that_point_at_options_are_rejected() -> None:
    items = [
        *corpus(),
        item(30, "Which are true?", "None of the above", ["x", "y"], FILLER + " more"),
        item(31, "Which apply?", "Both a and c", ["x", "y"], FILLER + " again"),
        item(33, "Which are true?", "All of the above", ["Both of the above", "None"], FILLER + " once more"),
    ]
    res = make(balance=False).build(items)
    reasons = {r.item_id: r.reason for r in res.rejects if r.scope == "item"}
    assert reasons == {f"t:{i}": "answer_refers_to_options" for i in (30, 31, 33)}
    it = item(32, "Q?", "alpha", ["None of the above", "beta"], FILLER)
    from claimforge.generate.multi2claim import _distractors

    assert _distractors(it) == ["beta"]


def test_a_keyed_all_of_the_above_states_a_true_option_and_no_false_one() -> None:
    from claimforge.generate.multi2claim import _distractors, keyed_option, true_options

    explanation = "Depression of the mandible is achieved by the lateral pterygoid and the digastric. " + FILLER
    it = item(40, "Depression of mandible is achieved by:", "All of the above", ["Mylohyoid", "Digastric"], explanation)
    # every option but the key is true; the SUPPORTED claim states the one the explanation covers best
    assert true_options(it) == ["Mylohyoid", "Digastric"]
    assert keyed_option(it) == "Digastric"
    assert _distractors(it) == []  # no option is false: nothing to make a REFUTED claim of
    assert (
        keyed_option(item(41, "Q?", "All of the following.", ["a b", "c d"], "nothing here")) == "a b"
    )  # first on a tie
    assert true_options(item(42, "Q?", "alpha", ["beta"], None)) == ["alpha"]
    assert true_options(item(43, "Q?", "None of the above", ["beta"], None)) == []
    assert true_options(item(46, "Q?", "None of the following", ["beta"], None)) == []
    # "ALL" is acute lymphoblastic leukaemia, an answer like any other; "1 and 2", "A only" point at options
    leukaemia = item(47, "L-asparaginase is used in the treatment of:", "ALL", ["AML", "CML"], None)
    assert true_options(leukaemia) == ["ALL"] and keyed_option(leukaemia) == "ALL"
    assert _distractors(leukaemia) == ["AML", "CML"]
    refs = item(48, "Q?", "All of the above", ["alpha", "1 and 2", "i and ii", "A only", "beta"], None)
    assert true_options(refs) == ["alpha", "beta"]
    res = make(balance=False).build([*corpus(), it])
    claims = {(e.label, e.claim) for e in res.examples if e.source_item_id == "t:40"}
    assert (Label.SUPPORTED, "The answer is Digastric.") in claims
    assert not any(label == Label.REFUTED for label, _ in claims)
    sup = next(e for e in res.examples if e.source_item_id == "t:40" and e.label == Label.SUPPORTED)
    assert sup.provenance.details["answer"] == "All of the above" and sup.provenance.details["option"] == "Digastric"
    why = {r.reason: r.detail for r in res.rejects if r.item_id == "t:40"}
    assert why == {"all_options_true": "the keyed answer is 'All of the above'"}
    # MedMCQA marks such items "multi" (several options are correct): they pass the one-answer filter, others do not
    multi = [
        item(
            44,
            "Depression of mandible is achieved by:",
            "All of the above",
            ["Mylohyoid", "Digastric"],
            explanation,
            choice_type="multi",
        ),
        item(45, "Which stores DNA?", "nucleus", ["vacuole"], "The nucleus stores DNA. " + FILLER, choice_type="multi"),
    ]
    res = make(balance=False).build([*corpus(), *multi])
    item_rejects = {r.item_id: r.reason for r in res.rejects if r.scope == "item"}
    assert "t:44" not in item_rejects and item_rejects["t:45"] == "multiple_correct_options"


def test_nei_head_word_match_is_stricter_than_phrase() -> None:
    items = [
        item(0, "What is the outer layer?", "adrenal cortex", ["medulla"], "The adrenal cortex is outer. " + FILLER),
        item(1, "Q1?", "golgi", ["x"], "The outer part, called the cortex, secretes hormones. " + FILLER),
        item(2, "Q2?", "vacuole", ["y"], "Vacuoles hold water. " + FILLER),
    ]
    head = make(balance=False, nei_top_k=2).build(items)
    nei = {e.source_item_id: e.evidence_id for e in head.examples if e.label == Label.NOT_ENOUGH_INFO}
    assert nei["t:0"] == "t:2:explanation"  # t:1 mentions "cortex"
    phrase = make(balance=False, nei_top_k=2, nei_answer_match="phrase").build(items)
    nei = {e.source_item_id: e.evidence_id for e in phrase.examples if e.label == Label.NOT_ENOUGH_INFO}
    # phrase matching lets t:1 through (it says "cortex", not "adrenal cortex"), and it is the closer explanation
    assert nei["t:0"] == "t:1:explanation"


def test_inverted_stem_nei_avoids_the_option_the_claim_states() -> None:
    items = [
        item(
            0,
            "All of the following are mammals EXCEPT",
            "snake",
            ["whale", "lizard"],
            "Snakes are reptiles and whales are mammals. " + FILLER,
        ),
        item(1, "Q1?", "golgi", ["x"], "The whale is a mammal that lives in the sea. " + FILLER),
        item(2, "Q2?", "vacuole", ["y"], "Vacuoles hold water in plant cells. " + FILLER),
    ]
    res = make(balance=False, nei_top_k=2).build(items)
    by = {(e.source_item_id, e.label): e for e in res.examples}
    sup = by[("t:0", Label.SUPPORTED)]
    assert sup.provenance.details["option_role"] == "distractor"
    nei = by[("t:0", Label.NOT_ENOUGH_INFO)]
    assert nei.claim == sup.claim and "whale" not in nei.evidence.lower()
    assert by[("t:0", Label.REFUTED)].provenance.details["option_role"] == "answer"


def test_unrequested_labels_are_recorded_as_rejects() -> None:
    res = make(balance=False, labels=(Label.SUPPORTED, Label.REFUTED)).build(corpus())
    assert {e.label for e in res.examples} == {Label.SUPPORTED, Label.REFUTED}
    dropped = [r for r in res.rejects if r.stage == "labels"]
    assert len(dropped) == len(make(balance=False).build(corpus()).examples) - len(res.examples)


def test_oversized_questions_evidence_and_claims_are_rejects_that_say_so() -> None:
    huge_question = "What " + "very " * 5000 + "big thing stores DNA?"
    items = [
        *corpus(),
        item(10, huge_question, "nucleus", ["ribosome"], "The nucleus stores DNA. " + FILLER),
        item(11, "What stores RNA?", "nucleus", ["ribosome"], "RNA is here. " + FILLER * 60),
        item(12, "LONGCLAIM What is it?", "nucleus", ["ribosome"], "The nucleus is it. " + FILLER),
    ]

    class LongClaims(FakeQA2D):
        def convert(self, requests):  # type: ignore[no-untyped-def]
            from claimforge.types import QA2DResult

            return [
                QA2DResult(text="The answer is " + "long " * 400 + ".") if "LONGCLAIM" in r.question else res
                for r, res in zip(requests, super().convert(requests), strict=True)
            ]

    res = make(LongClaims(), balance=False).build(items)
    why = {r.item_id: (r.reason, r.detail) for r in res.rejects if r.scope == "item"}
    assert why["t:10"][0] == "question_too_long" and "max_question_words=400" in why["t:10"][1]
    assert why["t:11"][0] == "evidence_too_long" and "max_evidence_words=1500" in why["t:11"][1]
    assert why["t:12"][0] == "claim_too_long" and "max_claim_words=300" in why["t:12"][1]
    assert not any(e.source_item_id in ("t:10", "t:11", "t:12") for e in res.examples)
    assert res.n_input == len(items)


def test_distractors_after_the_first_good_claim_are_never_converted() -> None:
    class Recording(FakeQA2D):
        def __init__(self) -> None:
            self.asked: list[str] = []

        def convert(self, requests):  # type: ignore[no-untyped-def]
            from claimforge.types import QA2DResult

            self.asked.extend(r.answer for r in requests)
            return [
                QA2DResult(text=None, reason="no_question_form") if r.answer.startswith("bad") else res
                for r, res in zip(requests, super().convert(requests), strict=True)
            ]

    qa2d = Recording()
    items = [
        item(
            0, "What stores DNA?", "nucleus", ["nucleolus", "ribosome", "vacuole"], "The nucleus stores DNA. " + FILLER
        ),
        item(1, "What makes energy?", "mitochondria", ["bad one", "bad two", "chloroplast"], "Mitochondria. " + FILLER),
        item(2, "What makes proteins?", "bad answer", ["golgi", "lysosome"], "Ribosomes make proteins. " + FILLER),
    ]
    res = make(qa2d=qa2d, balance=False).build(items)
    # answers first, then each item's next distractor, closest first, until one makes a claim
    assert sorted(qa2d.asked) == sorted(
        ["nucleus", "mitochondria", "bad answer", "nucleolus", "bad one", "bad two", "chloroplast"]
    )
    refuted = {e.source_item_id: e.claim for e in res.examples if e.label == Label.REFUTED}
    assert refuted == {"t:0": "The answer is nucleolus.", "t:1": "The answer is chloroplast."}
