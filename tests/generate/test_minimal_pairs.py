"""The judge's scientific minimal pairs on self-made text: each label's rule, hard negatives that differ from
the source by one edit, no benchmark text, balanced labels."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from claimforge.generate.minimal_pairs import (
    MinimalPairsConfig,
    added_item,
    claim_from_sentence,
    direction_edit,
    edit_kind,
    entity_swap,
    hedge_removed,
    make_pairs,
    negation_edit,
    number_edit,
)
from claimforge.io.splits import text_key
from claimforge.records import Document, Label
from claimforge.registry import registry


@pytest.fixture(scope="module")
def parse():  # type: ignore[no-untyped-def]
    return registry.build("nlp", {"name": "spacy", "use_cache": False}).parse


@pytest.mark.parametrize(
    ("sentence", "claim"),
    [
        (
            "We found that metformin reduced HbA1c levels in adults (p < 0.01).",
            "Metformin reduced HbA1c levels in adults.",
        ),
        (
            "However, IL-6 expression was not associated with tumour size.",
            "IL-6 expression was not associated with tumour size.",
        ),
        (
            "These results suggest that statins lower LDL cholesterol in older adults.",
            "Statins lower LDL cholesterol in older adults.",
        ),
    ],
)
def test_claims_drop_report_frames_and_parentheses(sentence: str, claim: str) -> None:
    assert claim_from_sentence(sentence) == (claim, "")


@pytest.mark.parametrize(
    ("sentence", "reason"),
    [
        ("This effect was strong in all of the mice we tested.", "not_self_contained"),
        ("Our data show a clear benefit of early treatment for patients.", "not_self_contained"),
        ("Results are shown in Table 2 for all groups of patients.", "reference_or_fragment"),
        ("Does aspirin reduce the risk of stroke in older adults?", "not_a_statement"),
        ("Aspirin works.", "length"),
    ],
)
def test_sentences_that_cannot_be_claims(sentence: str, reason: str) -> None:
    assert claim_from_sentence(sentence) == (None, reason)


def test_direction_edit_swaps_one_direction_word() -> None:
    rng = random.Random(0)
    e = direction_edit("Metformin reduced HbA1c levels in adults.", rng)
    assert e is not None and e.claim == "Metformin elevated HbA1c levels in adults." and e.kind == "direction"
    # fixed phrases and hedged claims are left alone
    assert direction_edit("The lower limb muscles were weak in patients.", rng) is None
    assert direction_edit("Statins may lower LDL cholesterol in adults.", rng) is None
    # nor in a negated claim: "does not reduce" and "does not increase" can both be true
    assert direction_edit("Training does not reduce the need for epidural analgesia.", rng) is None
    assert direction_edit("There was no increase in adverse effects.", rng) is None
    # the article before the swapped word follows it
    e = direction_edit("The exercise group had an increased heart rate.", rng)
    assert e is not None and e.claim == "The exercise group had a decreased heart rate."


def test_number_edit_changes_a_quantity_not_a_name_year_or_p_value() -> None:
    rng = random.Random(0)
    claim = "In 2019, 45% of 120 patients with type 2 diabetes responded (p < 0.05)."
    seen = set()
    for seed in range(20):
        e = number_edit(claim, claim, random.Random(seed))
        assert e is not None and e.kind == "number"
        seen.add(e.old)
        assert e.new not in claim and e.claim != claim
    assert seen <= {"45%", "120"} and seen  # never 2019, 2 (type 2) or 0.05
    assert number_edit("Aspirin helps in type 2 diabetes.", "Aspirin helps in type 2 diabetes.", rng) is None


def test_negation_is_added_to_the_main_verb_or_removed(parse) -> None:  # type: ignore[no-untyped-def]
    def neg(claim: str) -> str | None:
        e = negation_edit(claim, parse([claim])[0])
        return e.claim if e else None

    assert (
        neg("IL-6 expression is associated with tumour size.") == "IL-6 expression is not associated with tumour size."
    )
    assert neg("Treatment with aspirin did not improve survival.") == "Treatment with aspirin improved survival."
    assert neg("There was no significant difference between the groups.") == (
        "There was a significant difference between the groups."
    )
    assert neg("Aspirin may not prevent stroke in adults.") is None  # hedged: its negation is no contradiction
    # a main-verb "be" is negated itself, never with do-support ("There did not be a reduction")
    assert neg("There was a 29% reduction in recurrences.") == "There was no 29% reduction in recurrences."
    assert neg("There was an interaction between hypoxia and nitrate.") == (
        "There was no interaction between hypoxia and nitrate."
    )
    assert neg("There were significant changes in both groups.") == "There were no significant changes in both groups."
    assert neg("The overall response rate was 45% in the treated group.") == (
        "The overall response rate was not 45% in the treated group."
    )
    # families of two blind readings (2026-11-27): a plural takes no article, "also" goes with the negation, "can"
    # becomes "cannot", and a dictionary lemma beats a rule lemma ("did not idealis")
    assert neg("There were no significant distribution differences for the 30% cut-off.") == (
        "There were significant distribution differences for the 30% cut-off."
    )
    assert neg("The placebo group showed no significant changes versus baseline.") == (
        "The placebo group showed significant changes versus baseline."
    )
    assert neg("The interaction of time and task was also significant.") == (
        "The interaction of time and task was not significant."
    )
    assert neg("Knowledge of cost drivers can enable providers to cut costs.") == (
        "Knowledge of cost drivers cannot enable providers to cut costs."
    )
    assert neg("Men in the experimental group idealised a wider range of body sizes.") == (
        "Men in the experimental group did not idealise a wider range of body sizes."
    )
    # a clause of reason would contradict the negated main clause (ClaimGen reading E, 2026-11-28)
    assert (
        neg(
            "Oxidative stress is inseparably linked to mitochondrial dysfunction, as mitochondria are both generators "
            "of and targets for reactive species."
        )
        is None
    )
    assert neg("Metformin reduces glucose output because it inhibits complex I.") is None
    assert neg("The drug failed because there was no effect.") is None
    assert neg("Mortality has declined since vaccination became widespread.") == (
        "Mortality has not declined since vaccination became widespread."
    )  # "since" of time: the negation is a contradiction
    # "also" goes, "still" becomes "no longer"; "only" negated, or adverbs coordinated, give no negation
    assert neg("Aspirin also reduces the risk of stroke.") == "Aspirin does not reduce the risk of stroke."
    assert neg("Aspirin still reduces the risk of stroke.") == "Aspirin no longer reduces the risk of stroke."
    assert neg("Aspirin only reduces the risk of cancer.") is None
    assert neg("Aspirin markedly and significantly reduces pain.") is None
    # only a negation of the main clause is removed: in a relative or adverbial clause it changes a side remark
    # (SciClaimHunt reading, 2026-11-27)
    assert neg("Calcium raised the yield, unlike water, where no significant effect was detected.") is None
    assert neg("Aspirin reduced pain, while there was no change in fever.") is None
    assert neg("Patients who did not smoke had lower blood pressure.") is None
    assert neg("The study suggests that exercise does not reduce mortality.") == (
        "The study suggests that exercise reduces mortality."
    )
    # the negation goes before the verb's adverbs; "still" becomes "no longer"
    assert neg("Instrumentation systems significantly influenced canal transportation.") == (
        "Instrumentation systems did not significantly influence canal transportation."
    )
    assert neg("The mean volume increase was still present at the last fraction.") == (
        "The mean volume increase was no longer present at the last fraction."
    )


@dataclass(frozen=True)
class M:
    text: str
    start: int
    end: int
    label: str
    source: str = "ner"


def test_entity_swap_takes_a_same_type_entity_the_evidence_never_mentions() -> None:
    claim = "Metformin reduced HbA1c in diabetes."
    mentions = [M("Metformin", 0, 9, "Chemical")]
    pool = {"Chemical": ["metformin", "insulin", "glucose"]}
    e = entity_swap(claim, mentions, pool, "Metformin reduced HbA1c. Glucose was measured.", random.Random(1))
    assert e is not None and e.claim == "Insulin reduced HbA1c in diabetes." and e.old == "Metformin"


def _closest(*names: str):  # type: ignore[no-untyped-def]
    """A neighbours function that offers ``names`` in this order for any mention."""
    return lambda label, mention: list(names)


def test_added_item_puts_an_unmentioned_entity_beside_an_object_not_a_subject(parse) -> None:  # type: ignore[no-untyped-def]
    claim = "Metformin reduced HbA1c in adults with diabetes."
    mentions = [M("Metformin", 0, 9, "Chemical"), M("HbA1c", 18, 23, "Chemical")]
    neighbours = _closest("glucose", "LDL cholesterol")
    evidence = "Metformin reduced HbA1c. Glucose was measured."
    doc = parse([claim])[0]
    for seed in range(10):
        e = added_item(claim, mentions, doc, neighbours, evidence, random.Random(seed))
        # never beside the subject ("Metformin and X reduced" changes the verb's number), never an entity the
        # evidence names (glucose)
        assert e is not None and e.kind == "added_item"
        assert e.claim == "Metformin reduced HbA1c and LDL cholesterol in adults with diabetes."
    listed = "Metformin reduced HbA1c and weight in adults."
    in_list = [M("HbA1c", 18, 23, "Chemical")]
    assert added_item(listed, in_list, parse([listed])[0], neighbours, evidence, random.Random(0)) is None  # a list
    assert added_item(claim, mentions, None, neighbours, evidence, random.Random(0)) is None  # needs the parse
    assert added_item(claim, mentions, doc, _closest(), evidence, random.Random(0)) is None  # nothing plausible
    three = _closest("renin", "ferritin", "albumin", "urea")
    drawn = {added_item(claim, mentions, doc, three, "", random.Random(s), choices=3).new for s in range(30)}  # type: ignore[union-attr]
    assert drawn == {"HbA1c and renin", "HbA1c and ferritin", "HbA1c and albumin"}  # seeded, among the closest
    assert added_item(claim, mentions, doc, three, "", random.Random(0), choices=1).new == "HbA1c and renin"  # type: ignore[union-attr]
    # an item the evidence names is passed over before the choice is cut to the closest
    named = "Renin was measured."
    assert added_item(claim, mentions, doc, three, named, random.Random(0), choices=1).new == "HbA1c and ferritin"  # type: ignore[union-attr]


def _embed_table(vectors: dict[str, tuple[float, ...]]):  # type: ignore[no-untyped-def]
    """An embed function over fixed unit vectors (the tests' stand-in for MiniLM)."""
    import numpy as np

    def embed(texts):  # type: ignore[no-untyped-def]
        rows = np.array([vectors[t] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)

    return embed


def test_item_neighbours_are_frequent_close_but_not_synonyms() -> None:
    from claimforge.generate.minimal_pairs import ItemNeighbours

    vectors = {
        "paracetamol": (1.0, 0.0, 0.0),
        "ibuprofen": (1.0, 1.0, 0.0),  # cosine 0.71 ... within (0.3, 0.8)
        "naproxen": (1.0, 2.0, 0.0),  # 0.45
        "acetaminophen": (1.0, 0.1, 0.0),  # 0.995: a synonym
        "cholesterol": (0.0, 0.0, 1.0),  # 0: unrelated
        "paracetamol sodium": (1.0, 1.2, 0.0),  # 0.64, but shares a word
        "Aspirin": (1.0, 1.1, 0.0),  # capital, then lower case: a sentence start or a name
        "hedonic": (1.0, 0.9, 0.0),  # seen once: an NER error
        "NSAID": (1.0, 0.8, 0.0),  # an abbreviation: its embedding says little
    }
    pool = {
        "Chemical": [
            "paracetamol",
            "ibuprofen",
            "Ibuprofen",
            "ibuprofen",
            "Naproxen",
            "Naproxen",
            "naproxen",
            "acetaminophen",
        ]
        + ["acetaminophen", "cholesterol", "cholesterol", "paracetamol sodium", "paracetamol sodium"]
        + ["Aspirin", "Aspirin", "hedonic", "NSAID", "NSAID"],
        "Disease": ["asthma"],
    }
    near = ItemNeighbours(pool, _embed_table(vectors), min_count=2, band=(0.3, 0.8))
    assert near("Chemical", "paracetamol") == ["ibuprofen", "naproxen"]  # closest first; in lower case, as mid-sentence
    assert near("Chemical", "paracetamol", limit=1) == ["ibuprofen"]
    assert near("Disease", "paracetamol") == []  # seen once
    assert near("Gene", "paracetamol") == []
    assert near("Chemical", "NSAID") == []


def test_hedge_removed_makes_a_definite_claim(parse) -> None:  # type: ignore[no-untyped-def]
    def firm(claim: str) -> str | None:
        e = hedge_removed(claim, parse([claim])[0])
        return e.claim if e else None

    assert firm("Metformin may reduce the risk of cancer.") == "Metformin reduces the risk of cancer."
    assert firm("Statins might lower LDL cholesterol in adults.") == "Statins lower LDL cholesterol in adults."
    assert firm("Obesity may be associated with asthma.") == "Obesity is associated with asthma."
    assert firm("Obesity may have been associated with asthma.") == "Obesity was associated with asthma."
    assert firm("Metformin may also reduce weight.") == "Metformin also reduces weight."
    assert firm("Exercise may have reduced the risk of falls.") == "Exercise reduced the risk of falls."
    assert firm("PINK1 possibly phosphorylates Parkin.") == "PINK1 phosphorylates Parkin."
    # left alone: negated, nothing to remove, hedged twice, coordinated, or inside a clause that hedges it anyway
    for claim in (
        "Aspirin may not prevent stroke.",
        "Metformin reduces the risk of cancer.",
        "Metformin may possibly reduce the risk of cancer.",
        "The incidence may decline and even disappear.",
        "These results suggest that metformin may reduce the risk of cancer.",
        "Patients who may benefit from surgery were enrolled.",
        "Patients could walk 100 m after surgery.",
        "May metformin reduce the risk of cancer?",
    ):
        assert firm(claim) is None, claim


def test_added_item_leaves_negated_claims_alone(parse) -> None:  # type: ignore[no-untyped-def]
    claim = "Metformin did not reduce HbA1c in adults."
    mentions = [M("HbA1c", 25, 30, "Chemical")]
    assert added_item(claim, mentions, parse([claim])[0], _closest("LDL cholesterol"), "", random.Random(0)) is None


def _docs() -> list[Document]:
    return [
        Document(
            id="a",
            sentences=(
                "Patients were enrolled between 2015 and 2018 in three hospitals.",
                "We found that metformin reduced HbA1c levels in 120 adults with obesity.",
                "IL-6 expression was not associated with tumour size in breast cancer.",
            ),
        ),
        Document(
            id="b",
            sentences=(
                "Aspirin increased the risk of gastrointestinal bleeding in older adults.",
                "Exercise improved insulin sensitivity in 45% of the sedentary participants.",
            ),
        ),
        Document(
            id="c",
            sentences=(
                "Statin therapy lowered LDL cholesterol levels in older adults with obesity.",
                "Vitamin D supplementation did not reduce fracture risk in healthy adults.",
            ),
        ),
    ]


def test_make_pairs_labels_and_hard_negatives(parse) -> None:  # type: ignore[no-untyped-def]
    pairs, report = make_pairs(_docs(), MinimalPairsConfig(balance=False, min_related_similarity=0.05), parse=parse)
    by_source: dict[str, dict[Label, object]] = {}
    for p in pairs:
        by_source.setdefault(p.id[:-1], {})[p.labels[0]] = p
    assert {len(p.labels) for p in pairs} == {1}
    for group in by_source.values():
        s = group.get(Label.SUPPORTED)
        assert s is not None and s.claim.rstrip(".").lower() in " ".join(s.evidence).lower()  # type: ignore[attr-defined]
        r = group.get(Label.REFUTED)
        if r is not None:
            # same evidence, the claim changed by one edit
            assert r.evidence == s.evidence and r.claim != s.claim  # type: ignore[attr-defined]
            diff = set(r.claim.split()) ^ set(s.claim.split())  # type: ignore[attr-defined]
            assert 1 <= len(diff) <= 5
    kinds = Counter(k.split(":")[1] for k in report["kinds_made"])
    assert kinds["direction"] + kinds["number"] + kinds["negation_removed"] + kinds["negation_added"] >= 4
    nei = [p for p in pairs if p.labels == (Label.NOT_ENOUGH_INFO,)]
    assert nei and all(p.source.split()[1] in ("related_passage", "entity_swap") for p in nei)
    related = [p for p in nei if p.source.split()[1] == "related_passage"]
    assert related
    for p in related:  # "sci:a#1 related_passage c:0 lacks 'word'": from another document, without that word
        own, other = p.id.split(":")[1], p.source.split()[2].split(":")[0]
        missing = p.source.split("lacks ")[1].strip("'")
        assert own != other and missing not in " ".join(p.evidence).lower() and missing in p.claim.lower()
    assert report["claims"] == 7 and report["sentences"] == 7


def test_benchmark_text_is_never_used_and_labels_are_balanced(parse) -> None:  # type: ignore[no-untyped-def]
    docs = _docs()
    banned = {text_key(docs[0].sentences[1])}
    pairs, report = make_pairs(docs, MinimalPairsConfig(balance=False), parse=parse, exclude=banned)
    assert report["sentences_not_used"]["benchmark_text"] == 1
    # neither as a claim nor inside another claim's evidence window
    assert pairs and all("metformin" not in (p.claim + " ".join(p.evidence)).lower() for p in pairs)
    balanced, report = make_pairs(docs, MinimalPairsConfig(min_related_similarity=0.05), parse=parse)
    counts = Counter(p.labels[0] for p in balanced)
    assert len(counts) == 3 and len(set(counts.values())) == 1
    assert report["kept"] == {lab: counts[Label(lab)] for lab in report["kept"]}


def test_related_passages_on_few_or_unrelated_claims() -> None:
    from claimforge.generate.minimal_pairs import candidates, related_passages

    cands, _ = candidates(_docs(), MinimalPairsConfig())
    assert related_passages(cands[:1], 0.05) == {}
    assert related_passages(cands[:3], 0.05) == {}  # three claims share no word across documents
    assert related_passages(cands, 0.05) == {1: (6, "levels"), 3: (6, "older"), 5: (3, "levels"), 6: (1, "risk")}


def test_make_pairs_with_overclaims_says_more_than_the_evidence(parse) -> None:  # type: ignore[no-untyped-def]
    docs = [
        Document(id="d1", sentences=("Metformin may reduce HbA1c levels in adults with obesity.",)),
        Document(id="d2", sentences=("Exercise lowered LDL cholesterol in older adults with diabetes.",)),
        Document(id="d3", sentences=("Insulin therapy improved glucose control in children with asthma.",)),
    ]
    names = ("HbA1c", "LDL cholesterol", "glucose", "Insulin", "Metformin")

    def mentions(texts: list[str]) -> list[list[M]]:
        return [[M(n, t.index(n), t.index(n) + len(n), "Chemical") for n in names if n in t] for t in texts]

    def embed(texts):  # type: ignore[no-untyped-def]
        import numpy as np  # every two names at cosine 0.5

        out = np.zeros((len(texts), 8), dtype=np.float32)
        out[:, 0] = 1.0
        for row, t in enumerate(texts):
            out[row, 1 + names.index(t)] = 1.0
        return out / np.sqrt(2.0)

    config = MinimalPairsConfig(
        seed=2019,
        balance=False,
        min_related_similarity=0.9,
        overclaims=("added_item", "hedge_removed"),
        item_min_count=1,
    )
    pairs, report = make_pairs(docs, config, parse=parse, mentions=mentions, embed=embed)
    by_kind = {edit_kind(p): p for p in pairs}
    assert {"added_item", "hedge_removed"} <= set(by_kind), report["kinds_made"]
    source = {p.evidence: p for p in pairs if edit_kind(p) == "source"}
    for kind in ("added_item", "hedge_removed"):
        for p in (q for q in pairs if edit_kind(q) == kind):
            assert p.labels == (Label.NOT_ENOUGH_INFO,) and p.evidence in source  # the source's own evidence
            assert p.claim != source[p.evidence].claim
    hedged = [p.claim for p in pairs if edit_kind(p) == "hedge_removed"]
    assert hedged == ["Metformin reduces HbA1c levels in adults with obesity."]
    added = [p.claim for p in pairs if edit_kind(p) == "added_item"]  # seed 2019 picks it over the entity swap
    assert added == ["Exercise lowered LDL cholesterol and glucose in older adults with diabetes."]
    plain, _ = make_pairs(docs, config.model_copy(update={"overclaims": ()}), parse=parse, mentions=mentions)
    assert not {"added_item", "hedge_removed"} & {edit_kind(p) for p in plain}
    with pytest.raises(ValueError, match="sentence embeddings"):  # added items are ranked, never drawn blind
        make_pairs(docs, config, parse=parse, mentions=mentions)
