"""FACTIFY-5WQA: the paraphrase filters (word edit distance, inverse BLEU, entailment both ways), the embedded
paraphraser's rules on real parses, the LLM reply parser, and the factify pipeline end to end (accounting, the
originals kept first, paraphrase ids and provenance, rejects with reasons, 5W QA pairs in examples.jsonl)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from claimforge.backends.qa import NO_ANSWER, Answer, locate
from claimforge.cache import fingerprint
from claimforge.generate import paraphrase as para
from claimforge.generate.factify import FactifyConfig, FactifyPipeline
from claimforge.io.sentences import ClaimforgeExamplesConfig, ClaimforgeExamplesReader
from claimforge.records import Example, Label, Pair, Provenance, SourceRef
from claimforge.registry import registry


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("Aspirin lowers the risk.", "Aspirin lowers the risk.", 0),
        ("Aspirin lowers the risk.", "aspirin LOWERS the risk.", 0),
        ("Aspirin lowers the risk.", "Aspirin reduces the risk.", 1),
        ("Aspirin lowers the risk.", "The risk is lowered by aspirin.", 6),
        ("", "two words", 2),
    ],
)
def test_edit_distance_counts_words(a: str, b: str, d: int) -> None:
    assert para.edit_distance(a, b) == d


def test_bleu_and_inverse_bleu() -> None:
    same = "the cat sat on the mat today"
    assert para.bleu(same, same) == pytest.approx(1.0)
    assert para.bleu("dogs bark loudly", same) == 0.0
    assert 0.0 < para.bleu("the cat sat on the mat", same) < 1.0
    close = para.inverse_bleu("the cat sat on the mat", [same])
    far = para.inverse_bleu("a feline rested upon a rug", [same])
    assert far > close >= 1.0  # more diverse, higher; 1 / BLEU is at least 1
    assert far == pytest.approx(100.0)  # no shared n-gram: 1 / the floor
    assert para.inverse_bleu("x y z", []) == 0.0


def test_llm_replies_are_parsed_leniently() -> None:
    assert para.parse_list('["One claim here.", "Another claim here."]') == ["One claim here.", "Another claim here."]
    assert para.parse_list("<think>ok</think>Sure:\n['A b c.', 'D e f.']") == ["A b c.", "D e f."]
    assert para.parse_list('1. "First one is here."\n2) Second one is here.\n- Third one is here.') == [
        "First one is here.",
        "Second one is here.",
        "Third one is here.",
    ]


@pytest.fixture(scope="module")
def nlp() -> Any:
    return registry.build("nlp", {"name": "spacy"})


@pytest.mark.parametrize(
    ("fn", "claim", "expected"),
    [
        (para.to_passive, "Aspirin reduced the risk of stroke.", "The risk of stroke was reduced by aspirin."),
        (para.to_passive, "Smoking causes lung cancer.", "Lung cancer is caused by smoking."),
        (para.to_passive, "The crocodile has three chambers.", None),  # stative "have"
        (para.to_active, "The risk of stroke was reduced by aspirin.", "Aspirin reduced the risk of stroke."),
        (para.to_active, "Fever was reduced by 30%.", None),  # a quantity, not an agent
        (
            para.reorder,
            "In mice, vitamin D deficiency increases inflammation.",
            "Vitamin D deficiency increases inflammation in mice.",
        ),
        (
            para.invert_copula,
            "The most common form of dwarfism is achondroplasia.",
            "Achondroplasia is the most common form of dwarfism.",
        ),
        (para.invert_copula, "Aspirin is a drug.", None),  # classifies, does not identify
    ],
)
def test_structural_rules(nlp: Any, fn: Any, claim: str, expected: str | None) -> None:
    (doc,) = nlp.parse([claim])
    assert fn(doc) == expected


def test_phrase_rewrites_go_both_ways_unless_one_way() -> None:
    out = dict((op, text) for op, text in para.rephrase("The body is made up of cells."))
    assert out["phrase:is made up of>consists of"] == "The body consists of cells."
    assert para.rephrase("Cells can divide.") == []  # "can" -> "is able to" would need the subject's number
    assert dict(para.rephrase("Most of the cells divide.")) == {
        "phrase:most of>the majority of": "The majority of the cells divide."
    }


class JudgeByRule:
    """Entailment unless one side has a word from ``bad``; contradiction for "raised" against "reduced"."""

    model_id = "judge"

    def __init__(self, bad: Sequence[str] = ()) -> None:
        self.bad = bad
        self.calls: list[Pair] = []

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        self.calls.extend(pairs)
        rows = []
        for p in pairs:
            text = (p.claim + " " + " ".join(p.evidence)).lower()
            wrong = any(w in text for w in self.bad)
            clash = "raised" in p.claim and "reduced" in " ".join(p.evidence)
            rows.append([0.05, 0.05, 0.9] if wrong else [0.05, 0.9, 0.05] if clash else [0.9, 0.05, 0.05])
        return np.array(rows)


class FixedParaphraser:
    model_id = "fixed"

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table

    def paraphrase(self, claims: Sequence[str], progress: Any = None) -> list[list[para.Paraphrase]]:
        return [[para.Paraphrase(t, ("test",)) for t in self.table.get(c, [])] for c in claims]


class EchoQA:
    model_id = "echo"

    def answer(self, items: Sequence[tuple[str, str]], progress: Any = None) -> list[Answer]:
        out = []
        for _, context in items:
            a = locate("aspirin", context)
            out.append(Answer(a.text, a.start, a.end, 0.9) if a.found else NO_ANSWER)
        return out


def _example(i: int, claim: str, label: Label) -> Example:
    ref = SourceRef(dataset="toy", path="toy.json", line=i + 1, item_id=f"toy:{i}")
    return Example(
        id=f"toy:{i}#{label.value[0]}",
        claim=claim,
        evidence="Aspirin reduced the risk of stroke in a large trial. It was given daily.",
        evidence_id=f"doc{i}",
        label=label,
        source_item_id=f"toy:{i}",
        method="toy",
        provenance=Provenance(method="toy", method_version="0", source=ref),
    )


def _dataset(tmp_path: Path) -> Path:
    rows = [
        _example(0, "Aspirin reduced the risk of stroke.", Label.SUPPORTED),
        _example(1, "Aspirin raised the risk of stroke.", Label.REFUTED),
        _example(2, "Aspirin cured cancer.", Label.NOT_ENOUGH_INFO),
    ]
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "examples.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in rows), encoding="utf-8")
    return folder


TABLE = {
    "Aspirin reduced the risk of stroke.": [
        "The risk of stroke was reduced by aspirin.",  # kept
        "Aspirin lowered the risk of stroke.",  # 1 word edit: edit_distance
        "The hazard of stroke was reduced by acetylsalicylic acid.",  # "hazard": not entailed
        "The risk of a stroke was lowered by taking aspirin.",  # kept, but max_per_claim=1 keeps the more diverse
    ],
    "Aspirin raised the risk of stroke.": ["The risk of stroke was raised by aspirin."],
}


def _records(folder: Path) -> list[Any]:
    return list(ClaimforgeExamplesReader(ClaimforgeExamplesConfig(path=str(folder))).read())


def test_the_pipeline_adds_filtered_paraphrases_after_their_originals(tmp_path: Path) -> None:
    judge = JudgeByRule(bad=["hazard"])
    config = FactifyConfig(label_check="reject", max_per_claim=1, qa_pairs=True)
    p = FactifyPipeline(config, paraphraser=FixedParaphraser(TABLE), judge=judge, qa=EchoQA())
    result = p.build(_records(_dataset(tmp_path)))
    ids = [e.id for e in result.examples]
    assert [i.split("#p")[0] + ("#p" if "#p" in i else "") for i in ids] == [
        "toy:0#S",
        "toy:0#S#p",
        "toy:1#R",
        "toy:1#R#p",
        "toy:2#N",
    ]
    # the key is the text's hash: a second run over a dataset that has paraphrases makes no duplicate ids
    assert ids[1] == f"toy:0#S#p{fingerprint(result.examples[1].claim)[:8]}S"
    assert len(result.used_item_ids) == result.n_input == 3  # every record accounted for
    para0 = result.examples[1]
    assert para0.label == Label.SUPPORTED and para0.evidence == result.examples[0].evidence
    assert para0.source_item_id == "toy:0"  # the original's source: splits keep them together
    d = para0.provenance.details
    assert d["paraphrase_of"] == "toy:0#S" and d["paraphrased_claim"] == "Aspirin reduced the risk of stroke."
    assert d["edit_distance"] > 2 and d["entailment"] == [0.9, 0.9] and d["inverse_bleu"] > 1
    assert d["label_check"]["passed"]
    # the more diverse of the two survivors is kept (inverse BLEU against the claim and each other)
    kept = para0.claim
    other = next(
        t
        for t in TABLE["Aspirin reduced the risk of stroke."]
        if t != kept and "hazard" not in t and "lowered the risk" not in t
    )
    others = ["Aspirin reduced the risk of stroke."]
    assert para.inverse_bleu(kept, [*others, other]) >= para.inverse_bleu(other, [*others, kept])
    reasons = sorted((r.item_id, r.stage, r.reason) for r in result.rejects)
    assert reasons == [
        ("toy:0#S", "filter", "edit_distance"),
        ("toy:0#S", "filter", "max_per_claim"),
        ("toy:0#S", "filter", "not_entailed_both_ways"),
    ]
    assert all(r.scope == "example" for r in result.rejects)
    # the judge read each survivor both ways
    assert (
        Pair(
            id="b",
            claim="Aspirin reduced the risk of stroke.",
            evidence=("The risk of stroke was reduced by aspirin.",),
        )
        in judge.calls
    )
    # 5W QA pairs on every example with aspects, the originals too ("Aspirin cured cancer." gets no parse roles)
    assert all(e.qa_pairs for e in result.examples[:4]) and not result.examples[4].qa_pairs
    who = result.examples[0].qa_pairs[0]
    assert who.claim_span == "Aspirin" and who.answer == "Aspirin" and who.verdict == "supported"


def test_qa_pairs_are_written_only_when_present(tmp_path: Path) -> None:
    from claimforge.io.dataset import example_row, read_examples, write_examples

    config = FactifyConfig(label_check="off", qa_pairs=False)
    p = FactifyPipeline(config, paraphraser=FixedParaphraser(TABLE), judge=JudgeByRule())
    result = p.build(_records(_dataset(tmp_path)))
    assert all(not e.qa_pairs for e in result.examples)
    assert "qa_pairs" not in example_row(result.examples[0])  # datasets without them look as before
    config = FactifyConfig(label_check="off", qa_pairs=True)
    p = FactifyPipeline(config, paraphraser=FixedParaphraser(TABLE), judge=JudgeByRule(), qa=EchoQA())
    result = p.build(_records(tmp_path / "in"))
    out = tmp_path / "out"
    out.mkdir()
    write_examples(out, result.examples)
    row = json.loads((out / "examples.jsonl").read_text().splitlines()[0])
    assert row["qa_pairs"][0]["question"] and row["qa_pairs"][0]["kind"] in ("who", "what", "when", "where", "why")
    assert read_examples(out / "examples.jsonl") == result.examples  # round trip
    import pyarrow.parquet as pq

    table = pq.read_table(out / "examples.parquet")
    assert json.loads(table.column("qa_pairs")[0].as_py())[0]["claim_span"] == row["qa_pairs"][0]["claim_span"]


def test_registered_with_its_recipe() -> None:
    from claimforge.config import load_recipe

    assert "factify" in registry.names("pipeline") and "claimforge-examples" in registry.names("reader")
    assert {"embedded", "hf", "llm"} <= set(registry.names("paraphraser"))
    recipe = load_recipe("factify")
    FactifyConfig(**{k: v for k, v in recipe.items() if k != "pipeline"})
