"""``claimforge check``: the three input modes (claim + evidence, claim + corpus, a batch file), the verdict equal
to what ``evaluate`` predicts, the explanation (each sentence scored alone, the verdict's first), and bad input
(empty claim, empty evidence, a missing corpus, a bad batch line: clear errors, exit code 2)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from claimforge.check import Checker, CheckItem, claim_item, evidence_from_argument, read_items
from claimforge.cli import app
from claimforge.evaluate.experiments import score
from claimforge.records import Label, Pair

runner = CliRunner()
S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO


class WordVerifier:
    """SUPPORTED when the evidence holds "yes", REFUTED on "no", else NOT_ENOUGH_INFO."""

    labels = (S, R, N)
    model_id = "words"

    def __init__(self) -> None:
        self.calls: list[list[Pair]] = []

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        self.calls.append(list(pairs))
        out = []
        for p in pairs:
            words = " ".join(p.evidence).lower().split()
            yes, no = words.count("yes"), words.count("no")
            out.append([0.1 + yes, 0.1 + no, 0.5])
        a = np.array(out)
        return a / a.sum(axis=1, keepdims=True)


class ListRetriever:
    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    def search(self, queries: Sequence[str], k: int, unit: str = "sentence", progress: Any = None) -> list[list[Any]]:
        from claimforge.backends.retrieval import Hit

        return [[Hit("d1", unit, i, i + 1, t, 1.0 / (i + 1), i) for i, t in enumerate(self.texts[:k])] for _ in queries]


def test_the_verdict_reads_all_evidence_and_the_deciding_sentences_come_first() -> None:
    v = WordVerifier()
    (r,) = Checker(v).check([claim_item("The claim.", ["maybe so.", "yes yes indeed.", "no."])])
    assert r.label == "SUPPORTED" and r.evidence[0].text == "yes yes indeed." and r.evidence[0].supports_verdict
    assert [e.supports_verdict for e in r.evidence] == [True, False, False]
    assert abs(sum(r.probabilities.values()) - 1) < 1e-3 and not r.retrieved
    assert json.loads(json.dumps(r.to_json()))["evidence"][0]["probabilities"]["SUPPORTED"] > 0.5


def test_check_predicts_what_evaluate_predicts() -> None:
    pairs = [
        Pair(id=str(i), claim=f"claim {i}", evidence=tuple(ev), labels=(lab,))
        for i, (ev, lab) in enumerate([(["yes."], S), (["no.", "hm."], R), (["hm."], N), (["yes.", "no no."], R)])
    ]
    _, pred, _ = score(WordVerifier(), pairs)
    checked = Checker(WordVerifier()).check([CheckItem(p.id, p.claim, p.evidence) for p in pairs])
    assert [r.label for r in checked] == [p.value for p in pred]


def test_a_corpus_gives_the_evidence_with_its_source() -> None:
    checker = Checker(WordVerifier(), ListRetriever(["no way.", "unrelated.", "third."]), k=2)
    (r,) = checker.check([claim_item("The claim.")])
    assert r.retrieved and r.label == "REFUTED"
    assert [e.text for e in r.evidence] == ["no way.", "unrelated."] and r.evidence[0].doc_id == "d1"
    with pytest.raises(ValueError, match="no evidence given and no --corpus"):
        Checker(WordVerifier()).check([claim_item("The claim.")])


def test_evidence_argument_is_a_file_or_the_text(tmp_path: Path) -> None:
    f = tmp_path / "abstract.txt"
    f.write_text("Aspirin lowered stroke risk. It was safe.\n")
    assert evidence_from_argument(str(f)) == ("Aspirin lowered stroke risk.", "It was safe.")
    assert evidence_from_argument("One sentence. Two sentences.") == ("One sentence.", "Two sentences.")
    with pytest.raises(ValueError, match="empty"):
        evidence_from_argument("   ")
    (tmp_path / "empty.txt").write_text("\n")
    with pytest.raises(ValueError, match="empty.txt.*empty"):
        evidence_from_argument(str(tmp_path / "empty.txt"))
    # a mistyped file name is an error, not the evidence text "abstrct.txt"
    with pytest.raises(ValueError, match="abstrct.txt: no such file"):
        evidence_from_argument(str(tmp_path / "abstrct.txt"))


def test_batch_files_and_their_errors(tmp_path: Path) -> None:
    f = tmp_path / "claims.jsonl"
    f.write_text(json.dumps({"id": "a", "claim": "X  holds.", "evidence": "Yes. It does."}) + "\n\n")
    (item,) = read_items(f)
    assert (item.id, item.claim, item.evidence, item.where) == ("a", "X holds.", ("Yes.", "It does."), f"{f}, line 1")
    f.write_text(json.dumps({"claim": "ok"}) + "\n" + json.dumps({"claim": " "}) + "\n")
    with pytest.raises(ValueError, match=r"claims.jsonl, line 2: the claim is empty"):
        list(read_items(f))
    f.write_text(json.dumps({"id": 1, "claim": "A."}) + "\n" + json.dumps({"id": 1, "claim": "B."}) + "\n")
    with pytest.raises(ValueError, match=r"line 2: id '1' was given to an earlier claim too"):
        list(read_items(f))
    f.write_text(json.dumps({"claim": "A.", "evidence": ["", " "]}) + "\n")
    with pytest.raises(ValueError, match="only empty sentences"):
        list(read_items(f))
    f.write_text(json.dumps({"claim": "A.", "evidence": {}}) + "\n")
    with pytest.raises(ValueError, match="must be a text or a list"):
        list(read_items(f))
    j = tmp_path / "claims.json"
    j.write_text(json.dumps([{"claim": "A."}, {"claim": ""}]))
    with pytest.raises(ValueError, match=r"claims.json, record 2: the claim is empty"):
        list(read_items(j))
    f.write_text("{broken\n")
    with pytest.raises(ValueError, match=r"claims.jsonl, line 1: not valid JSON"):
        list(read_items(f))
    t = tmp_path / "claims.txt"
    t.write_text("First claim.\n\nSecond claim.\n")
    assert [(i.id, i.claim) for i in read_items(t)] == [("1", "First claim."), ("3", "Second claim.")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["   ", "--evidence", "Some text."], "the claim is empty"),
        (["A claim.", "--evidence", "  "], "the evidence is empty"),
        (["A claim.", "--corpus", "no/such/corpus"], "no/such/corpus: no such file or folder"),
        (["A claim."], "no evidence; give --evidence or --corpus"),
        ([], "give a claim, or --input"),
        (["A claim.", "--evidence", "x.", "--model", "no-such-model"], "neither a saved model folder nor a verifier"),
        (["A claim.", "--evidence", "x.", "--k", "0"], "--k must be at least 1"),
    ],
)
def test_bad_input_fails_clearly_before_any_model_loads(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["check", *args])
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split())


def test_check_with_the_embedded_judge_all_three_modes(tmp_path: Path) -> None:
    evidence = "Vitamin D supplements did not reduce the rate of fractures in older adults. The trial ran 5 years."
    res = runner.invoke(app, ["check", "Vitamin D supplements reduce fractures.", "--evidence", evidence, "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output[res.output.index("{") :])
    assert doc["label"] in ("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO") and len(doc["evidence"]) == 2
    assert doc["model"].startswith("zero-shot-nli:nli-minilm")
    # QA validation: each aspect's question answered from the evidence by the embedded reader
    assert doc["aspects"] and all(a["qa_status"] in ("supported", "refuted", "not enough info") for a in doc["aspects"])
    who = next(a for a in doc["aspects"] if a["text"] == "Vitamin D supplements")
    assert "Vitamin D supplements" in who["answer"] and who["answer_sentence"] == evidence.split(". ")[0] + "."
    res = runner.invoke(
        app, ["check", "Vitamin D reduces fractures.", "--evidence", evidence, "--json", "--qa", "none"]
    )
    assert res.exit_code == 0 and all(a["qa_status"] == "" for a in json.loads(res.output)["aspects"])

    corpus = tmp_path / "corpus.jsonl"
    rows = [
        {"doc_id": 1, "title": "Vitamin D", "abstract": [evidence]},
        {"doc_id": 2, "title": "Other", "abstract": ["Cats sleep most of the day.", "Dogs bark at night."]},
    ]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    claims = tmp_path / "claims.jsonl"
    claims.write_text(
        json.dumps({"id": "c1", "claim": "Vitamin D supplements reduce fractures."})
        + "\n"
        + json.dumps({"id": "c2", "claim": "Cats sleep a lot.", "evidence": ["Cats sleep most of the day."]})
        + "\n"
    )
    out = tmp_path / "results.jsonl"
    res = runner.invoke(app, ["check", "--input", str(claims), "--corpus", str(corpus), "--k", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    got = [json.loads(x) for x in out.read_text().splitlines()]
    assert [g["id"] for g in got] == ["c1", "c2"]
    assert got[0]["retrieved"] and got[0]["evidence"][0]["doc_id"] == "1"
    assert not got[1]["retrieved"] and got[1]["label"] == "SUPPORTED"

    res = runner.invoke(app, ["check", "Cats sleep a lot.", "--evidence", "Cats sleep most of the day."])
    assert res.exit_code == 0 and "verdict: SUPPORTED" in res.output
    # brackets in scientific text are text, not terminal markup
    res = runner.invoke(
        app, ["check", "Intracellular [Ca] rose in [/i] cells.", "--evidence", "[Ca] rose [b]fast[/b]."]
    )
    assert res.exit_code == 0, res.output
    assert "[Ca] rose in [/i] cells." in " ".join(res.output.split()) and "[b]fast[/b]" in res.output
