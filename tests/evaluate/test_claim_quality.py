"""Claim quality (claimforge.evaluate.claim_quality): rule-based checks, faithfulness mapping, fluency from the LM,
the scorer, and the ``quality`` CLI sub-app (score, ROUGE, sheets). Fake LM/NLI; the shipped parser. ROUGE,
agreement and the sheets themselves are tested in test_rouge.py, test_agreement.py and test_sheets.py."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from claimforge.backends import lm as lm_mod
from claimforge.evaluate import claim_quality as cq
from claimforge.evaluate.claim_quality import ClaimScorer, ClaimScorerConfig, faithfulness_score, summarise
from claimforge.evaluate.sheets import read_items
from claimforge.nlp import wellformed

from .test_sheets import _fill, _read_csv

# --------------------------------------------------------------------------------------------------------------
# Rule-based checks (the shipped parser)


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    from claimforge.registry import registry

    return registry.build("nlp", {"name": "spacy", "use_cache": False})


KNOWN = frozenset(cq.COMMON_ABBREVIATIONS)

DECON = [
    ("It inhibits tumour growth in mice.", "pronoun_start"),
    ("These cells express high levels of CD44.", "pronoun_start"),
    ("Such treatment reduces mortality in adults.", "pronoun_start"),
    ("They reduce inflammation in the lung.", "pronoun_start"),
    ("Microglia from these mice show increased phagocytosis.", "demonstrative"),
    ("The former inhibits the latter.", "anaphor"),
    ("We show that aspirin reduces pain.", "deictic"),
    ("In this study, aspirin reduced pain.", "deictic"),
    ("Here, aspirin reduced pain in mice.", "deictic"),
    ("As shown in Figure 2, aspirin reduces pain.", "deictic"),
    ("Aspirin reduces pain in adults [12].", "citation_marker"),
    ("Aspirin reduces pain in adults (Smith et al., 2010).", "citation_marker"),
    ("Aspirin reduces pain in adults, as shown by Smith et al.", "citation_marker"),
    ("OA is associated with joint pathology and pain behaviour.", "undefined_abbreviation: 'OA'"),
    ("Intra-articular injection of MIA causes joint pain in rats.", "undefined_abbreviation: 'MIA'"),
    ("Osteoarthritis (OA) is associated with joint pathology.", None),
    ("DNA damage activates p53 in human cells.", None),
    ("HIV infection depletes CD4+ T cells.", None),
    ("It is well established that smoking causes lung cancer.", None),
    ("The herbicide inhibits EPSPS in the shikimate pathway.", None),
    ("Aspirin reduces the risk of colorectal cancer in the US.", None),
]


@pytest.mark.parametrize(("text", "expected"), DECON)
def test_decontextualization_rules(nlp, text: str, expected: str | None) -> None:  # type: ignore[no-untyped-def]
    reasons = cq.decontextualization_reasons(text, nlp.parse([text])[0], KNOWN)
    if expected is None:
        assert reasons == []
    else:
        assert any(r.startswith(expected) for r in reasons), reasons


def test_abbreviation_list_is_configurable() -> None:
    text = "MIA causes joint pain in rats."
    assert wellformed.undefined_abbreviations(text, KNOWN) == ["MIA"]
    assert wellformed.undefined_abbreviations(text, KNOWN | {"MIA"}) == []
    assert wellformed.undefined_abbreviations("RCTs and mTOR and PrP and KRAS and type II diabetes", frozenset()) == [
        "RCT",
        "mTOR",
    ]
    assert wellformed.undefined_abbreviations("KRAS mutations", frozenset(), max_caps=None) == ["KRAS"]
    assert wellformed.undefined_abbreviations("BRCA1 and IL-6", frozenset(), digit_symbols_ok=False) == ["IL"]
    assert wellformed.undefined_abbreviations("BRCA1 and IL-6", frozenset(), digit_symbols_ok=False, max_caps=None) == [
        "BRCA",
        "IL",
    ]


ATOMIC = [
    ("Aspirin reduces pain and lowers fever.", "multiple_predicates"),
    ("Aspirin reduces pain, and ibuprofen lowers fever.", "coordinated_clauses"),
    ("Statins lower cholesterol whereas fibrates lower triglycerides.", "coordinated_clauses"),
    ("Metformin reduces blood glucose; insulin increases it.", "multiple_predicates"),
    ("Aspirin, ibuprofen and naproxen reduce pain.", "list"),
    ("Aspirin and ibuprofen reduce pain and fever, respectively.", "respectively"),
    ("Aspirin reduces the risk of colorectal cancer.", None),
    ("The island of Sardinia is characterized by a remarkable richness of endemic species.", None),
    ("Ectopic expression of Sall4 and Nanog generates induced pluripotent stem cells.", None),
]


@pytest.mark.parametrize(("text", "expected"), ATOMIC)
def test_atomicity_rules(nlp, text: str, expected: str | None) -> None:  # type: ignore[no-untyped-def]
    reasons = cq.atomicity_reasons(text, nlp.parse([text])[0])
    if expected is None:
        assert reasons == []
    else:
        assert any(r.startswith(expected) for r in reasons), reasons


FLUENCY = [
    ("Aspirin reduces the risk of.", "dangling_end"),
    ("Aspirin reduces pain and.", "dangling_end"),
    ("Improvements in pain were associated with a decrease in.", "dangling_end"),  # its object lost
    ("The effect of aspirin on pain.", "no_finite_verb"),
    ("Aspirin reduces reduces pain.", "repeated_word"),
    ("Aspirin (a salicylate reduces pain.", "unbalanced_brackets"),
    ("The herbicide inhibits EPSPS in the shikimate pathway.", None),  # "inhibits" is tagged NNS by the parser
    ("Bariatric surgery reduces postmenopausal breast cancer.", None),
    ("The -diversity was higher than expected by chance.", "lost_symbol"),  # the source lost a β
    ("Demonstrates that the incidence of stroke was higher.", "no_subject"),
    ("The change in blood pressure was -5 mmHg.", None),
    ("Reduced expression of p53 promotes tumour growth.", None),
    ("Increases in blood pressure were observed in treated rats.", None),  # a plural noun tagged VBZ
    ("Anti-CD3 and -CD28 antibodies activated the T cells.", None),  # a shared prefix
    ("Thiol (-SH) groups were oxidised in the treated cells.", None),  # a chemical group
    ("Late ejection systolic click is seen in severe AS.", None),  # an acronym (aortic stenosis), not "as"
    ("The lesion is seen in THE", "dangling_end"),  # a word in capitals, not an acronym
    ("Since claudin-low tumors do not possess features of stem cells.", "subordinate_clause_only"),
    ("Since 2010, the incidence of measles has risen.", None),
]


@pytest.mark.parametrize(("text", "expected"), FLUENCY)
def test_fluency_checks(nlp, text: str, expected: str | None) -> None:  # type: ignore[no-untyped-def]
    reasons = wellformed.fluency_checks(text, nlp.parse([text])[0])
    if expected is None:
        assert reasons == []
    else:
        assert any(r.startswith(expected) for r in reasons), reasons


AGREEMENT = [
    ("The results is clear.", "agreement"),
    ("Maximum chances of injury in a child patient occurs during 12-15 months.", "agreement"),
    ("Pulp proper resembles loose connective tissue.", None),  # "pulp" tagged NNS: lemminflect's lemma is the word
    ("Bacteria causes disease.", "agreement"),  # an irregular plural
    ("People has many rights.", "agreement"),  # a plural that is its own lemma
]


@pytest.mark.parametrize(("text", "expected"), AGREEMENT)
def test_agreement_errors(nlp, text: str, expected: str | None) -> None:  # type: ignore[no-untyped-def]
    reasons = wellformed.agreement_errors(nlp.parse([text])[0])
    if expected is None:
        assert reasons == []
    else:
        assert any(r.startswith(expected) for r in reasons), reasons


# --------------------------------------------------------------------------------------------------------------
# Automatic scores with a fake LM and a fake NLI


class FakeLM:
    """Perplexity from a table (the claims); any other text (the scorer's shuffled word orders) gets ``other``."""

    model_id = "fake-lm"

    def __init__(self, ppl: dict[str, float], other: float = 400.0) -> None:
        self.ppl, self.other, self.calls = ppl, other, 0

    def log_prob(self, texts):  # type: ignore[no-untyped-def]
        return [(-math.log(self.ppl.get(t, self.other)) * 5, 5) for t in texts]

    def perplexity(self, texts, progress=None):  # type: ignore[no-untyped-def]
        self.calls += 1
        return np.array([self.ppl.get(t, self.other) for t in texts])


class FakeNLI:
    model_id = "fake-nli"

    def __init__(self, probs: dict[str, tuple[float, float, float]]) -> None:
        self.probs, self.calls, self.pairs = probs, 0, []

    def predict_proba(self, pairs, progress=None):  # type: ignore[no-untyped-def]
        self.calls += 1
        self.pairs = list(pairs)
        return np.array([self.probs.get(p.claim, (0.9, 0.05, 0.05)) for p in pairs], dtype=np.float32)


CFG = ClaimScorerConfig(
    ratio_good=0.5,
    ratio_bad=1.0,
    ppl_good=500,
    ppl_bad=2000,
    entail_high=0.8,
    entail_low=0.5,
    contradiction=0.5,
    unrelated_overlap=0.3,
)
PPL_CFG = CFG.model_copy(update={"fluency_measure": "perplexity"})


@pytest.mark.parametrize(
    ("probs", "overlap", "expected", "code"),
    [
        ((0.95, 0.03, 0.02), 1.0, 5, "entailed"),
        ((0.80, 0.10, 0.10), 0.0, 5, "entailed"),
        ((0.60, 0.30, 0.10), 1.0, 4, "probably_entailed"),
        ((0.50, 0.10, 0.40), 1.0, 4, "probably_entailed"),
        ((0.45, 0.50, 0.05), 1.0, 2, "contradicted"),
        ((0.50, 0.50, 0.00), 1.0, 2, "contradicted"),  # contradiction is checked before "probably entailed"
        ((0.05, 0.90, 0.05), 0.5, 2, "contradicted"),
        ((0.05, 0.90, 0.05), 0.0, 1, "unrelated"),  # nothing in common: a contradiction is meaningless
        ((0.10, 0.10, 0.80), 0.6, 3, "related_not_stated"),
        ((0.30, 0.30, 0.40), 0.3, 3, "related_not_stated"),
        ((0.10, 0.10, 0.80), 0.1, 1, "unrelated"),
        ((0.40, 0.45, 0.15), 0.1, 1, "unrelated"),  # contradiction below its threshold, nothing shared
    ],
)
def test_faithfulness_mapping(probs: tuple[float, float, float], overlap: float, expected: int, code: str) -> None:
    score, reason = faithfulness_score(probs, overlap, CFG)
    assert score == expected and reason.startswith(code)


def test_fluency_levels_from_the_lm() -> None:
    assert cq.fluency_score(100.0, [], PPL_CFG) == (3, [])
    assert cq.fluency_score(900.0, [], PPL_CFG)[0] == 2
    assert cq.fluency_score(5000.0, [], PPL_CFG)[0] == 1
    assert cq.fluency_score(float("nan"), [], PPL_CFG)[0] == 1
    assert cq.fluency_score(100.0, ["no_finite_verb"], PPL_CFG)[0] == 2
    assert cq.fluency_score(900.0, ["no_finite_verb", "dangling_end: 'of'"], PPL_CFG)[0] == 1
    assert cq.fluency_score(None, [], PPL_CFG)[0] == 3
    # the ratio measure alone ignores the absolute perplexity; "both" takes the lower level
    ratio_cfg = CFG.model_copy(update={"fluency_measure": "ratio"})
    assert cq.fluency_score(5000.0, [], ratio_cfg, ratio=0.3) == (3, [])
    assert cq.fluency_score(100.0, [], ratio_cfg, ratio=0.7) == (2, ["perplexity_ratio_high: 0.7 > 0.5"])
    assert cq.fluency_score(100.0, [], ratio_cfg, ratio=1.2)[0] == 1
    assert CFG.fluency_measure == "both"
    assert cq.fluency_score(100.0, [], CFG, ratio=0.3) == (3, [])
    assert cq.fluency_score(900.0, [], CFG, ratio=0.3) == (2, ["perplexity_high: 900 > 500"])
    assert cq.fluency_score(900.0, [], CFG, ratio=1.5) == (
        1,
        ["perplexity_high: 900 > 500", "perplexity_ratio_very_high: 1.5 > 1"],
    )


def test_shuffled_orders_and_ratio() -> None:
    a = lm_mod.shuffled_orders("Aspirin reduces the risk of cancer.", 4)
    assert a == lm_mod.shuffled_orders("Aspirin reduces the risk of cancer.", 4)  # seeded by the text
    assert all(
        v.endswith(".") and sorted(v[:-1].split()) == sorted(["Aspirin", "reduces", "the", "risk", "of", "cancer"])
        for v in a
    )
    fluent, salad = "Aspirin reduces the risk of colorectal cancer.", "Cancer the aspirin colorectal of risk reduces."
    assert fluent not in lm_mod.shuffled_orders(fluent, 3) and salad not in lm_mod.shuffled_orders(salad, 3)
    lm = FakeLM({fluent: 50.0, salad: 800.0}, other=200.0)
    ppl, ratio = lm_mod.lm_fluency_stats(lm, [fluent, salad], 3)
    assert lm.calls == 1 and list(ppl) == [50.0, 800.0]
    assert ratio[0] == pytest.approx(50 / 200) and ratio[1] == pytest.approx(800 / 200)


def test_claim_scorer_batches_and_scores(nlp) -> None:  # type: ignore[no-untyped-def]
    src = (
        "Experimental models of OA, such as the intra-articular injection of monosodium acetate (MIA), are "
        "associated with joint pathology [4]."
    )
    triples = [
        ("Experimental models of osteoarthritis are associated with joint pathology.", src, "Before. After."),
        ("OA is associated with joint pathology.", src, None),
        ("Joint pathology of of the.", src, ""),
        ("Bananas are rich in potassium.", src, ["Before.", "After."]),
        ("Experimental models of osteoarthritis protect against joint pathology.", src, ""),
    ]
    lm = FakeLM({**{t[0]: 100.0 for t in triples}, triples[2][0]: 3000.0})
    nli = FakeNLI({triples[3][0]: (0.05, 0.05, 0.9), triples[4][0]: (0.05, 0.9, 0.05)})
    scorer = ClaimScorer(CFG, nlp=nlp, lm=lm, nli=nli)
    scores = scorer.score(triples)
    assert lm.calls == 1 and nli.calls == 1 and len(nli.pairs) == 5
    assert nli.pairs[0].evidence == (src, "Before. After.") and nli.pairs[1].evidence == (src,)
    assert nli.pairs[3].evidence == (src, "Before. After.")
    good, abbr, garbled, unrelated, contra = scores
    assert (good.fluency, good.decontextualized, good.atomicity, good.faithfulness, good.acceptable) == (
        3,
        1,
        1,
        5,
        True,
    )
    assert abbr.decontextualized == 0 and abbr.reasons["decontextualized"] == ["undefined_abbreviation: 'OA'"]
    assert not abbr.acceptable
    assert garbled.fluency == 1 and any(r.startswith("perplexity_ratio_very_high") for r in garbled.reasons["fluency"])
    assert good.perplexity == 100.0 and good.perplexity_ratio == pytest.approx(0.25)
    assert unrelated.faithfulness == 1 and unrelated.overlap < 0.3
    assert contra.faithfulness == 2 and not contra.acceptable
    assert good.nli == {
        "SUPPORTED": pytest.approx(0.9),
        "REFUTED": pytest.approx(0.05),
        "NOT_ENOUGH_INFO": pytest.approx(0.05),
    }
    assert scorer.score([]) == []

    s = summarise(scores)
    # fluency > 1: all but the garbled claim; decontextualized among them: 3 of 4
    assert s["n_generated"] == 5 and s["n_accepted"] == 1 and s["precision_pct"] == 20.0
    assert s["fluency"] == pytest.approx((3 + 3 + 1 + 3 + 3) / 5)
    assert s["decontextualized_pct"] == 75.0 and s["n_rated"]["faithfulness"] == 3
    assert s["faithfulness"] == pytest.approx((5 + 1 + 2) / 3, abs=1e-4)
    assert s["reasons"]["decontextualized"]["undefined_abbreviation"] == 1


def test_scorer_abbreviation_switches(nlp) -> None:  # type: ignore[no-untyped-def]
    triple = [("MIA causes joint pain in rats.", "MIA causes joint pain in rats.", None)]
    cfgs = {
        "default": ClaimScorerConfig(lm=None),
        "off": ClaimScorerConfig(lm=None, check_abbreviations=False),
        "extra": ClaimScorerConfig(lm=None, extra_abbreviations=("MIA",)),
    }
    got = {k: ClaimScorer(c, nlp=nlp, nli=FakeNLI({})).score(triple)[0].decontextualized for k, c in cfgs.items()}
    assert got == {"default": 0, "off": 1, "extra": 1}


def test_scorer_without_lm_uses_parse_checks_only(nlp) -> None:  # type: ignore[no-untyped-def]
    scorer = ClaimScorer(ClaimScorerConfig(lm=None), nlp=nlp, nli=FakeNLI({}))
    (s,) = scorer.score([("Aspirin reduces the risk of.", "Aspirin reduces the risk of cancer.", None)])
    assert s.fluency == 2 and s.perplexity is None and s.reasons["fluency"] == ["dangling_end: 'of'"]


# --------------------------------------------------------------------------------------------------------------
# CLI sub-app


def _example(i: int, claim: str, label: str, method: str, details: dict[str, object]) -> dict[str, object]:
    return {
        "id": f"{method}:{i}#{label[0]}",
        "claim": claim,
        "evidence": "An abstract sentence.",
        "evidence_id": f"doc{i}",
        "label": label,
        "source_item_id": f"cit{i}",
        "method": method,
        "provenance": {
            "method": method,
            "method_version": "1",
            "source": {"dataset": "toy", "path": "toy.jsonl", "line": i + 1, "item_id": f"cit{i}"},
            "details": details,
        },
    }


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    rows = []
    for i in range(4):
        src = f"Drug {i} (D{i}) lowers blood pressure in adults [12]."
        claim = f"Drug {i} lowers blood pressure in adults."
        details = {"source_sentence": src, "context": ["Hypertension is common.", "Trials were small."]}
        method = "claimgen-bart" if i % 2 else "claimgen-entity"
        rows.append(_example(i, claim, "SUPPORTED", method, details))
        rows.append({**_example(i, claim, "SUPPORTED", method, details), "id": f"{method}:{i}#S2", "evidence_id": "x"})
        rows.append(_example(i, claim, "NOT_ENOUGH_INFO", method, details))
        neg = f"Drug {i} raises blood pressure in adults."
        if i % 2:  # as ClaimGen records it: the source, the supported claim, the negation's details
            negation = {"method": "kbin", "original_claim": claim, "replaced": "lowers"}
            details = {**details, "supported_claim": claim, "negation": negation}
            rows.append(_example(i, neg, "REFUTED", method, details))
            rows.append(_example(i, neg, "NOT_ENOUGH_INFO", method, {**details, "nei_claim": "negation"}))
        else:  # a flat original_claim
            rows.append(_example(i, neg, "REFUTED", "not-insertion", {"original_claim": claim}))
    rows.append(_example(9, "A claim without a source.", "SUPPORTED", "other", {}))
    folder = tmp_path / "ds"
    folder.mkdir()
    (folder / "examples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


def test_cli_score(dataset: Path, tmp_path: Path, nlp, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    from claimforge.cli_quality import quality_app

    real_build = cq.registry.build
    claims = {f"Drug {i} lowers blood pressure in adults.": 80.0 for i in range(4)}
    fakes = {"lm": FakeLM(claims), "nli": FakeNLI({"Drug 3 lowers blood pressure in adults.": (0.1, 0.8, 0.1)})}
    monkeypatch.setattr(cq.registry, "build", lambda kind, spec: fakes.get(kind) or real_build(kind, spec))
    out = tmp_path / "q" / "scores.jsonl"
    # thresholds given explicitly: the fake NLI's probabilities are fixed, the calibrated defaults follow the judge
    sets = ["--set", "ppl_good=500", "--set", "entail_high=0.68", "--set", "contradiction=0.46"]
    res = CliRunner().invoke(quality_app, ["score", str(dataset), "--out", str(out), *sets])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 4  # distinct SUPPORTED claims with a source sentence (duplicates merged, one has none)
    assert rows[0]["example_ids"] == ["claimgen-entity:0#S", "claimgen-entity:0#S2"]
    assert rows[0]["context"] == "Hypertension is common. Trials were small."
    assert all(r["decontextualized"] == 1 and r["fluency"] == 3 for r in rows)
    assert [r["faithfulness"] for r in rows] == [5, 5, 5, 2]
    summary = json.loads((tmp_path / "q" / "scores.summary.json").read_text(encoding="utf-8"))
    assert summary["n_claims"] == 4 and summary["n_without_source_sentence"] == 1
    assert summary["overall"]["n_accepted"] == 3 and summary["config"]["ppl_good"] == 500
    assert set(summary["by_method"]) == {"claimgen-bart", "claimgen-entity"}
    md = (tmp_path / "q" / "scores.summary.md").read_text(encoding="utf-8")
    assert "| claimgen-bart |" in md and "# Gen" in md

    res = CliRunner().invoke(quality_app, ["score", str(tmp_path), "--out", str(out)])
    assert res.exit_code == 2 and "no examples.jsonl" in res.output


def test_cli_rouge(dataset: Path, tmp_path: Path) -> None:
    from claimforge.cli_quality import quality_app

    refs = tmp_path / "refs.jsonl"
    refs.write_text(
        json.dumps({"id": "cit0", "claims": ["Drug 0 lowers blood pressure in adults."]})
        + "\n"
        + json.dumps(
            {
                "id": "cit1",
                "claims": [
                    {"text": "Drug 1 lowers blood pressure.", "is_negation": False},
                    {"text": "Drug 1 raises blood pressure.", "is_negation": True},
                ],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "rouge.json"
    res = CliRunner().invoke(
        quality_app, ["rouge", "--generated", str(dataset), "--references", str(refs), "--out", str(out)]
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["n_claims"] == 2 and doc["claims_per_source"] == {"cit0": 1, "cit1": 1}
    assert doc["sources_without_references"] == ["cit2", "cit3", "cit9"]
    # cit0 identical (100); cit1: 5 of 7 generated unigrams in the 5-word reference -> F = 2*5/(7+5)
    assert doc["rouge1"] == pytest.approx(100 * (1 + 10 / 12) / 2, abs=1e-3)
    gen = tmp_path / "gen.json"
    gen.write_text(json.dumps({"cit1": ["Drug 1 raises blood pressure."]}), encoding="utf-8")
    res = CliRunner().invoke(
        quality_app, ["rouge", "--generated", str(gen), "--references", str(refs), "--include-negations"]
    )
    assert res.exit_code == 0 and json.loads(res.output)["rouge1"] == 100.0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"claims": []}\n', encoding="utf-8")
    res = CliRunner().invoke(quality_app, ["rouge", "--generated", str(gen), "--references", str(bad)])
    assert res.exit_code == 2 and "need 'id'" in res.output


def test_cli_sheet_export_and_agreement(dataset: Path, tmp_path: Path) -> None:
    from claimforge.cli_quality import quality_app

    runner = CliRunner()
    sheet = tmp_path / "sheets" / "claims.csv"
    res = runner.invoke(quality_app, ["sheet", "export", str(dataset), "--out", str(sheet), "--n", "3", "--seed", "7"])
    assert res.exit_code == 0, res.output
    rows = _read_csv(sheet)
    assert len(rows) == 4 and all("[12]" in r[1] for r in rows[1:])
    ids = [r[0] for r in rows[1:]]
    a = _fill(
        sheet,
        tmp_path / "a.csv",
        dict(zip(ids, [["3", "1", "1", "5"], ["2", "1", "1", "4"], ["3", "0", "", ""]], strict=True)),
    )
    b = _fill(
        sheet,
        tmp_path / "b.csv",
        dict(zip(ids, [["3", "1", "1", "5"], ["3", "1", "1", "4"], ["3", "1", "0", "3"]], strict=True)),
    )
    out = tmp_path / "agreement.json"
    items = Path(f"{sheet}.items.jsonl")
    res = runner.invoke(quality_app, ["sheet", "agreement", str(a), str(b), "--items", str(items), "--out", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["n_shared_units"] == 3 and doc["summary"]["n_accepted"] == 2
    assert doc["fluency_agreement"] == pytest.approx(2 / 3, abs=1e-4)
    assert set(doc["by_group"]) <= {"claimgen-bart", "claimgen-entity"}
    assert "Krippendorff" in res.output and out.with_suffix(".md").is_file()

    neg = tmp_path / "neg.csv"
    res = runner.invoke(quality_app, ["sheet", "export", str(dataset), "--out", str(neg), "--kind", "negations"])
    assert res.exit_code == 0, res.output
    assert len(_read_csv(neg)) == 5 and _read_csv(neg)[1][1].startswith("Drug ")
    assert {(r["original_claim"][:6], r["method"]) for r in read_items(f"{neg}.items.jsonl").values()} == {
        ("Drug 0", "not-insertion"),
        ("Drug 1", "kbin"),
        ("Drug 2", "not-insertion"),
        ("Drug 3", "kbin"),
    }

    bad = _fill(
        sheet,
        tmp_path / "bad.csv",
        dict(zip(ids, [["3", "1", "1", "5"], ["7", "", "", ""], ["1", "", "", ""]], strict=True)),
    )
    res = runner.invoke(quality_app, ["sheet", "agreement", str(bad)])
    assert res.exit_code == 2
    flat = " ".join(res.output.split())
    assert "bad.csv: row 3, column 'fluency (1-3)': '7' is not one of 1/2/3" in flat
