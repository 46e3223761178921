"""The SciClaimHunt pipeline (generate/sciclaimhunt.py) on self-made papers, with fake components where a model
would decide (claim generator, judge, negators), and its LLM paths (generate/paper_llm.py) against a local chat
server."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pytest

from claimforge.generate.claimgen import Generated, GeneratedClaim
from claimforge.generate.kbin import Negation
from claimforge.generate.paper_llm import LLMNegator, LLMNegatorConfig, PaperLLMGenerator, PaperLLMGeneratorConfig
from claimforge.generate.sciclaimhunt import (
    SciClaimHunt,
    SciClaimHuntConfig,
    _tfidf_top,
    result_cues,
    states_aim,
    unstated_significance,
)
from claimforge.records import Label, Paper, Section, SentenceItem, SourceRef


def _paper(pid: str, topic: str, effect: str, other: str) -> Paper:
    finding = f"Treatment with {topic} significantly increased {effect} in adult mice."
    return Paper(
        id=pid,
        title=f"{topic.capitalize()} and {effect}",
        abstract=((f"We studied {topic} in mice.", finding),),
        sections=(
            Section(heading="Introduction", type="introduction", paragraphs=((f"{other.capitalize()} is common.",),)),
            Section(
                heading="Methods",
                type="methods",
                paragraphs=((f"Mice received {topic} for 12 weeks and were compared with controls.",),),
            ),
            Section(
                heading="Results",
                type="results",
                paragraphs=((finding, f"The {other} of the mice was measured in every group of the study."),),
            ),
            Section(heading="Discussion", type="discussion", paragraphs=((f"Future studies may explain {other}.",),)),
        ),
        format="jats",
        ref=SourceRef(dataset="jats", path=f"{pid}.xml", item_id=pid),
    )


PAPERS = [
    _paper("p1", "metformin", "insulin sensitivity", "obesity"),
    _paper("p2", "exercise", "bone density", "osteoporosis"),
    _paper("p3", "caffeine", "heart rate", "arrhythmia"),
]
NO_RESULTS = Paper(
    id="p4",
    title="A review",
    sections=(Section(heading="Introduction", type="introduction", paragraphs=(("Reviews are useful.",),)),),
    ref=SourceRef(dataset="jats", path="p4.xml", item_id="p4"),
)

_WORD = re.compile(r"[a-z]{4,}")


class FakeGenerator:
    """The sentence itself as the claim."""

    model_id = "fake-generator"

    def __init__(self) -> None:
        self.items: list[SentenceItem] = []

    def generate(self, items: list[SentenceItem], tick: Any = None) -> Generated:
        self.items += items
        return Generated([GeneratedClaim(it.id, it.sentence, None, "fake") for it in items], [])


class FakeNLI:
    """Entailment when every long word of the claim is in the evidence; contradiction when the claim says
    'decreased' where the evidence says 'increased' or has a number the evidence lacks; else neutral."""

    model_id = "fake-nli"

    def __init__(self) -> None:
        self.seen: list[tuple[str, tuple[str, ...]]] = []

    def predict_proba(self, pairs: Any, progress: Any = None) -> np.ndarray:
        out = []
        for p in pairs:
            self.seen.append((p.claim, tuple(p.evidence)))
            ev = " ".join(p.evidence).lower()
            claim = p.claim.lower()
            numbers = set(re.findall(r"\d+", claim)) - set(re.findall(r"\d+", ev))
            if ("decreased" in claim and "increased" in ev) or numbers:
                out.append([0.02, 0.95, 0.03])
            elif all(w in ev for w in _WORD.findall(claim)):
                out.append([0.95, 0.02, 0.03])
            else:
                out.append([0.02, 0.02, 0.96])
        return np.array(out, dtype=np.float32)


class FakeNegator:
    """increased -> decreased (kind 'negation'), or the first number changed (kind 'numeric')."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.model_id = f"fake-{kind}"
        self.evidence: list[tuple[str, ...]] = []

    def negate(self, claims: list[str], progress: Any = None, evidence: Any = None) -> list[Negation]:
        self.evidence += list(evidence or [])
        out = []
        for c in claims:
            if self.kind == "negation" and "increased" in c:
                out.append(Negation(c.replace("increased", "decreased"), None, {"method": "fake"}))
            elif self.kind == "numeric" and re.search(r"\d+", c):
                out.append(Negation(re.sub(r"\d+", "31", c, count=1), None, {"method": "fake"}))
            else:
                out.append(Negation(None, "nothing_to_change", {}))
        return out


def _pipeline(**overrides: Any) -> tuple[SciClaimHunt, dict[str, Any]]:
    cfg = SciClaimHuntConfig(
        **{
            "claim_check": None,
            "entity": None,
            "min_restated": 0.1,
            "min_cue_score": 1.0,
            "balance": False,
            **overrides,
        }
    )
    parts = {
        "generator": FakeGenerator(),
        "judge": FakeNLI(),
        "negation": FakeNegator("negation"),
        "numeric": FakeNegator("numeric"),
    }
    return SciClaimHunt(cfg, **parts), parts


def _details(e: Any) -> dict[str, Any]:
    return e.provenance.details  # type: ignore[no-any-return]


def test_claims_come_from_the_finding_sentences_of_the_claim_sections() -> None:
    pipe, parts = _pipeline()
    res = pipe.build(PAPERS)
    supported = [e for e in res.examples if e.label == Label.SUPPORTED]
    assert len(supported) == 3
    for e in supported:
        assert e.claim.startswith("Treatment with") and _details(e)["section_type"] == "results"
        assert "significance" in _details(e)["cues"] and "direction" in _details(e)["cues"]
    # the generator saw each sentence with its paragraph as context
    item = parts["generator"].items[0]
    assert item.context_after and item.context_after[0].startswith("The ")


def test_evidence_is_the_paper_without_the_claims_section() -> None:
    pipe, _ = _pipeline()
    res = pipe.build(PAPERS)
    for e in res.examples:
        if e.label == Label.NOT_ENOUGH_INFO:
            continue
        assert "was measured in every group" not in e.evidence  # the rest of the results section is out
        assert "Mice received" in e.evidence and "We studied" in e.evidence  # methods and abstract stay
        assert e.evidence_id.endswith("-s2") and _details(e)["evidence_excludes"] == "Results"
        assert set(_details(e)["judge_evidence"]) <= set(re.split(r"(?<=\.) ", e.evidence))
    pipe, _ = _pipeline(evidence_exclude="none")
    res = pipe.build(PAPERS)
    e = next(e for e in res.examples if e.label == Label.SUPPORTED)
    assert e.claim in e.evidence and _details(e)["evidence_excludes"] is None


def test_the_judge_reads_the_most_similar_sentences_within_a_word_budget() -> None:
    sentences = [
        "Patients were recruited in three hospitals between 2015 and 2018 and followed for two years.",  # 16 words
        "Metformin reduced HbA1c by 1.2% compared with placebo.",  # 8
        "Adverse events were rare and mostly mild in both groups of the trial.",  # 13
        "HbA1c fell in the metformin group and rose slightly in the placebo group.",  # 13
    ]
    claim = "Metformin reduced HbA1c compared with placebo."
    assert _tfidf_top(claim, sentences, 2) == [1, 3]  # the two most similar, in document order
    assert _tfidf_top(claim, sentences, 5, max_words=22) == [1, 3]  # 8 + 13 words; no third fits
    assert _tfidf_top(claim, sentences, 5, max_words=3) == [1]  # the best one always stays
    pipe, _ = _pipeline(judge_words=12)
    for e in pipe.build(PAPERS).examples:
        judged = _details(e)["judge_evidence"]
        assert len(judged) == 1 or sum(len(x.split()) for x in judged) <= 12


def test_the_judge_reads_findings_not_aims_background_or_procedures() -> None:
    aims = [
        "To evaluate the efficiency of the Frog appliance alone or with headgear for distalizing the molars.",
        "To examine whether workplace social capital improved after the intervention.",
        "The aim of the present clinical study was to assess the longer-term efficacy of progesterone.",
        "The objectives of this trial were to compare amikacin and placebo.",
        "This study was designed to test whether exercise improves bone density.",
        "We hypothesized that metformin increases insulin sensitivity.",
        "In this study, we describe the efficiency of the Frog appliance.",
        "To examine whether exposure to smoke led to increased risk of asthma.",  # a result verb in the question
        "We hypothesized that statin use resulted in lower mortality.",
        "This study aimed to assess whether delirium was observed in the ward.",
        "OBJECTIVE: To evaluate the efficacy of amikacin.",
    ]
    findings = [
        "We aimed to test metformin and found that insulin sensitivity increased.",  # an aim with its finding
        "Treatment led to an increase in the aim scores of patients.",
        "To date only two studies examined helminth egg distribution along the stool.",
        "Peak power did not change significantly between tests.",
        "In this study, we compared A with B; drug A reduced mortality by 20%.",
        "In this study, we examined 200 patients and mortality was 12%.",
        "To determine whether X matters, we measured Y in 40 mice and found that Y rose.",
    ]
    assert [states_aim(s) for s in aims] == [True] * len(aims)
    assert [states_aim(s) for s in findings] == [False] * len(findings)
    # the finding is restated only in the methods section and an aim of the abstract: the judge may read
    # neither, so the claim is not tried; reading them (the old behaviour) confirms it
    restated_in_methods = Paper(
        id="m1",
        title="Metformin",
        abstract=(("To examine whether treatment with metformin increased insulin sensitivity in adult mice.",),),
        sections=(
            Section(
                heading="Methods",
                type="methods",
                paragraphs=(("Treatment with metformin increased insulin sensitivity in adult mice was recorded.",),),
            ),
            Section(
                heading="Results",
                type="results",
                paragraphs=(("Treatment with metformin increased insulin sensitivity in adult mice.",),),
            ),
        ),
        format="jats",
        ref=SourceRef(dataset="jats", path="m1.xml", item_id="m1"),
    )
    pipe, _ = _pipeline(mismatch=None, labels=[Label.SUPPORTED, Label.REFUTED])
    res = pipe.build([restated_in_methods])
    assert not res.examples and res.rejects[0].reason == "no_restated_findings"
    pipe, _ = _pipeline(
        mismatch=None, labels=[Label.SUPPORTED, Label.REFUTED], judge_skip_sections=[], judge_skip_aims=False
    )
    res = pipe.build([restated_in_methods])
    supported = [e for e in res.examples if e.label == Label.SUPPORTED]
    assert len(supported) == 1 and len(_details(supported[0])["judge_evidence"]) == 2
    # the example's evidence is still the paper without the claim's section, methods and aims included
    pipe, _ = _pipeline()
    for e in pipe.build(PAPERS).examples:
        if e.label != Label.NOT_ENOUGH_INFO:
            assert "Mice received" in e.evidence
            assert not any("Mice received" in x for x in _details(e)["judge_evidence"])


def test_a_claims_significance_must_be_in_its_evidence() -> None:
    claim = "Non-responding patients were significantly younger than responders."
    assert unstated_significance(claim, ["The comparison suggested that non-responders were younger."])
    for stated in (
        "Non-responders were younger (p < 0.05).",
        "Non-responders were statistically younger.",
        "Age differed significantly between responders and non-responders.",
        "Non-responders were 4.1 years younger (95% CI 1.2 to 7.0).",
    ):
        assert not unstated_significance(claim, ["Responders were older.", stated])
    assert not unstated_significance("Non-responders were younger.", ["The comparison suggested it."])
    assert unstated_significance(claim, ["95% of non-responders were under 40."])  # a share, not an interval
    assert not unstated_significance("No clinically significant events occurred.", ["None occurred."])
    # in a build: the abstract restates the finding without its test, so the claim is dropped with a reason
    paper = PAPERS[0].model_copy(
        update={
            "abstract": (
                (
                    "We studied metformin in mice.",
                    "Treatment with metformin increased insulin sensitivity in adult mice.",
                ),
            )
        }
    )
    pipe, _ = _pipeline(mismatch=None, labels=[Label.SUPPORTED, Label.REFUTED])
    res = pipe.build([paper])
    assert not res.examples
    assert {r.reason for r in res.rejects} >= {"significance_not_in_evidence", "no_claim_its_evidence_states"}
    # without the rule, the judge decides (here it finds no "significantly" in the evidence either)
    pipe, _ = _pipeline(
        mismatch=None,
        labels=[Label.SUPPORTED, Label.REFUTED],
        require_stated_significance=False,
        evidence_max_uncovered=None,  # which would reject "significantly" too (below)
    )
    assert {r.reason for r in pipe.build([paper]).rejects} == {"claim_not_confirmed", "no_confirmed_claims"}


def test_negatives_each_a_method_and_mismatches_from_other_papers() -> None:
    papers = [
        p.model_copy(
            update={
                "sections": (*p.sections[:2], _with_number(p.sections[2]), *p.sections[3:]),
                "abstract": tuple(tuple(t.replace("adult mice", "12 adult mice") for t in a) for a in p.abstract),
            }
        )
        for p in PAPERS
    ]
    pipe, parts = _pipeline()
    res = pipe.build(papers)
    methods = Counter(e.method for e in res.examples)
    assert methods["sciclaimhunt-negation"] == 3 and methods["sciclaimhunt-numeric"] == 3
    assert methods["sciclaimhunt-mismatch"] == 3
    for e in res.examples:
        d = _details(e)
        if e.method == "sciclaimhunt-mismatch":
            assert e.label == Label.NOT_ENOUGH_INFO
            assert d["negative"]["other_paper"] != e.source_item_id
            assert e.evidence_id == d["negative"]["other_paper"]
        elif e.label == Label.REFUTED:
            assert d["negative"]["kind"] in ("negation", "numeric") and d["supported_claim"] != e.claim
            assert d["num_subset"] is True
    # the negators judged against the passages the label check reads
    assert parts["negation"].evidence and all(len(ev) <= 5 for ev in parts["negation"].evidence)
    ids = [e.id for e in res.examples]
    assert len(ids) == len(set(ids))


def _with_number(sec: Section) -> Section:
    first, *rest = sec.paragraphs[0]
    return sec.model_copy(update={"paragraphs": ((first.replace("adult mice", "12 adult mice"), *rest),)})


def test_a_mismatch_tries_the_next_paper_when_the_most_similar_one_entails_the_claim() -> None:
    twin = PAPERS[0].model_copy(update={"id": "p1-twin", "ref": PAPERS[0].ref})  # states the same finding
    pipe, _ = _pipeline()
    res = pipe.build([PAPERS[0], twin, PAPERS[1]])
    nei = {e.source_item_id: _details(e)["negative"] for e in res.examples if e.label == Label.NOT_ENOUGH_INFO}
    assert nei["p1"]["other_paper"] == "p2" and nei["p1"]["tried"] == 2
    assert nei["p2"]["tried"] == 1
    pipe, _ = _pipeline(mismatch_tries=1)  # the twin only: the label check rejects the pair
    res = pipe.build([PAPERS[0], twin, PAPERS[1]])
    assert not any(e.label == Label.NOT_ENOUGH_INFO and e.source_item_id in ("p1", "p1-twin") for e in res.examples)
    assert any(r.reason == "label_not_confirmed" and r.detail.startswith("NOT_ENOUGH_INFO") for r in res.rejects)
    # the paper's binary scheme: the mismatch is labelled REFUTED but must still be neutral to the judge
    pipe, _ = _pipeline(mismatch_label=Label.REFUTED, labels=[Label.SUPPORTED, Label.REFUTED])
    res = pipe.build([PAPERS[0], twin, PAPERS[1]])
    mism = {e.source_item_id: _details(e)["negative"] for e in res.examples if e.method == "sciclaimhunt-mismatch"}
    assert mism["p1"]["other_paper"] == "p2" and mism["p1"]["neutral"] is True
    # with the label check flagging, no paper is judged here: the most similar one, as before
    pipe, _ = _pipeline(label_check="flag")
    res = pipe.build([PAPERS[0], twin, PAPERS[1]])
    mism = {e.source_item_id: _details(e)["negative"] for e in res.examples if e.method == "sciclaimhunt-mismatch"}
    assert mism["p1"]["other_paper"] == "p1-twin" and "tried" not in mism["p1"]


def test_binary_scheme_and_config_errors() -> None:
    with pytest.raises(ValueError, match="labels=\\[SUPPORTED,REFUTED\\]"):
        SciClaimHuntConfig(mismatch_label=Label.REFUTED)
    with pytest.raises(ValueError, match="nothing makes them"):
        SciClaimHuntConfig(mismatch=None)  # NOT_ENOUGH_INFO requested, nothing makes it: an empty balanced build
    with pytest.raises(ValueError, match="nothing makes them"):
        SciClaimHuntConfig(negation=None, numeric=None, entity=None)
    SciClaimHuntConfig(mismatch=None, labels=(Label.SUPPORTED, Label.REFUTED))  # the SciClaimHunt_Num recipe's way
    pipe, _ = _pipeline(mismatch_label=Label.REFUTED, labels=(Label.SUPPORTED, Label.REFUTED), mismatch="random")
    res = pipe.build(PAPERS)
    mism = [e for e in res.examples if e.method == "sciclaimhunt-mismatch"]
    assert mism and all(e.label == Label.REFUTED for e in mism)


def test_every_paper_accounted_for_and_unconfirmed_claims_lose_their_negatives() -> None:
    vague = PAPERS[2].model_copy(update={"id": "p5", "abstract": (), "ref": PAPERS[2].ref})
    pipe, _ = _pipeline(min_restated=0.0, require_stated_significance=False, evidence_max_uncovered=None)
    res = pipe.build([*PAPERS, NO_RESULTS, vague])
    item_rejects = {r.item_id: r.reason for r in res.rejects if r.scope == "item"}
    assert item_rejects["p4"] == "no_claim_sections"
    assert len(res.used_item_ids) + len(item_rejects) == 5
    # p5's claim is not restated outside its section: the judge does not confirm it, and no negatives are made
    p5 = [r for r in res.rejects if r.item_id == "p5"]
    assert {r.reason for r in p5} == {"claim_not_confirmed", "no_confirmed_claims"}
    assert item_rejects["p5"] == "no_confirmed_claims"
    assert not [e for e in res.examples if e.source_item_id == "p5"]


def test_result_cues() -> None:
    score, cues = result_cues("Mortality was significantly lower in the treated group (p < 0.01).")
    assert {"significance", "direction", "p_value"} <= set(cues) and score >= 5
    assert result_cues("Mice were housed in standard cages.")[0] == 0


def test_llm_generator_and_negator_against_a_chat_server(chat_server: Any) -> None:
    def respond(body: dict[str, Any]) -> str:
        last = body["messages"][-1]["content"]
        if last.startswith("Paragraph:"):
            return "Claim: Metformin improves insulin sensitivity in mice."
        return "Metformin impairs insulin sensitivity in mice."

    server = chat_server(respond)
    llm = {
        "name": "openai-compatible",
        "base_url": server.base_url,
        "model": "tiny",
        "api_key_env": "CLAIMFORGE_TEST_CHAT_KEY",
    }
    gen = PaperLLMGenerator(PaperLLMGeneratorConfig(llm=llm, k=3))
    item = SentenceItem(
        id="p1#p0",
        sentence="Metformin improved insulin sensitivity.",
        context_before=("Mice were treated.",),
        ref=SourceRef(dataset="x", path="x", item_id="p1#p0"),
    )
    out = gen.generate([item])
    assert [c.text for c in out.claims] == ["Metformin improves insulin sensitivity in mice."]
    msgs = server.requests[0]["messages"]
    assert (
        len(msgs) == 1 + 2 * 3 + 1
        and msgs[-1]["content"] == "Paragraph: Mice were treated. Metformin improved insulin sensitivity."
    )
    neg = LLMNegator(LLMNegatorConfig(llm=llm, nli=None))
    [n] = neg.negate(["Metformin improves insulin sensitivity in mice."])
    assert n.text == "Metformin impairs insulin sensitivity in mice." and n.details["method"] == "llm"
    assert "surely false" in server.requests[-1]["messages"][0]["content"]
    assert len(server.requests[-1]["messages"]) == 1 + 2 * 8 + 1


def test_a_claim_with_a_number_its_evidence_lacks_is_an_over_claim() -> None:
    paper = _paper("p9", "metformin", "insulin sensitivity", "obesity")
    results = paper.sections[2]
    finding = "Treatment with metformin significantly increased insulin sensitivity by 35% in adult mice."
    paper = paper.model_copy(
        update={
            "sections": (
                *paper.sections[:2],
                results.model_copy(update={"paragraphs": ((finding, *results.paragraphs[0][1:]),)}),
                paper.sections[3],
            )
        }
    )
    labels = [Label.SUPPORTED, Label.REFUTED]
    pipe, _ = _pipeline(mismatch=None, labels=labels)
    res = pipe.build([paper])
    lost = [r for r in res.rejects if r.reason == "evidence_lacks_claim_content"]
    assert lost and lost[0].detail.startswith("over-claiming: 35")
    assert {r.reason for r in res.rejects if r.scope == "item"} == {"no_claim_its_evidence_states"}
    assert not res.examples
    # off: the judge alone decides, and no parser is loaded
    pipe, _ = _pipeline(mismatch=None, labels=labels, evidence_max_uncovered=None)
    assert "evidence_lacks_claim_content" not in {r.reason for r in pipe.build([paper]).rejects}
    assert "nlp" not in pipe.components
