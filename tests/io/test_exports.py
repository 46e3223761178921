"""Exports read the way the field's own loaders read them: each test encodes the loader's rules (allenai/scifact
``GoldDataset``, MultiVerS' training and inference readers, the FEVER scorer, Hugging Face ``datasets``,
sentence-transformers' ``CrossEncoderTrainer``) and round-trips a real build of the demo sample."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from claimforge.build import run_build
from claimforge.cli import DEMO_SAMPLE
from claimforge.io.dataset import read_examples
from claimforge.io.exports import (
    HF_LABELS,
    NLI_NAMES,
    export_hf,
    write_fever,
    write_multivers,
    write_nli,
    write_scifact,
)
from claimforge.records import Example, Label


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Example]]:
    out = tmp_path_factory.mktemp("exports") / "demo"
    recipe = {"pipeline": "multi2claim", "reader": {"name": "sciq", "path": str(DEMO_SAMPLE)}}
    recipe["embedder"] = {"name": "hashing"}
    recipe["label_check"] = "off"  # every demo question, so each split of the exports has rows
    run_build(recipe, out)
    return out, read_examples(out / "examples.jsonl")


# -- SciFact: GoldDataset._read_claims does Claim(**entry) with the fields below --------------------------------


@dataclass
class GoldClaim:  # allenai/scifact verisci/evaluate/lib/data.py: Claim(id, claim, evidence, cited_docs, release)
    id: int
    claim: str
    evidence: dict
    cited_docs: list
    release: Any


def read_scifact(folder: Path) -> tuple[dict[int, dict[str, Any]], list[GoldClaim]]:
    corpus = {d["doc_id"]: d for d in lines(folder / "corpus.jsonl")}
    assert all(
        isinstance(k, int) and set(d) == {"doc_id", "title", "abstract", "structured"} for k, d in corpus.items()
    )
    claims = []
    for entry in lines(folder / "claims.jsonl"):
        entry["release"] = None
        entry["cited_docs"] = [corpus[doc] for doc in entry.pop("cited_doc_ids")]
        claims.append(GoldClaim(**entry))  # an extra key is a TypeError, as in the loader
    return corpus, claims


def test_scifact_loads_as_the_reference_loader_reads_it(build: tuple[Path, list[Example]], tmp_path: Path) -> None:
    _, examples = build
    counts = write_scifact(tmp_path, examples)
    corpus, claims = read_scifact(tmp_path / "scifact")
    assert counts["claims"] == len(claims) and counts["documents"] == len(corpus)
    by_text = {}
    for c in claims:
        assert isinstance(c.id, int) and len(c.cited_docs) == 1
        for doc_id, rationales in c.evidence.items():
            doc = corpus[int(doc_id)]
            assert len({r["label"] for r in rationales}) == 1 and rationales[0]["label"] in ("SUPPORT", "CONTRADICT")
            for r in rationales:
                assert 1 <= len(r["sentences"]) <= 3  # SciFact reads at most 3 sentences
                assert all(0 <= i < len(doc["abstract"]) for i in r["sentences"])
        by_text.setdefault(c.claim, []).append(c)
    # no NOT_ENOUGH_INFO claim repeats the text of a labelled one
    for same in by_text.values():
        assert not (any(not c.evidence for c in same) and any(c.evidence for c in same))
    # titles are readable (the question or the first words), not internal ids; ids are in the side file
    assert not any(":explanation" in d["title"] for d in corpus.values())
    meta = lines(tmp_path / "scifact" / "claimforge_meta.jsonl")
    assert [m["id"] for m in meta] == [c.id for c in claims]
    # round trip: the same claims and labels as the build (NEI: cited, no evidence)
    by_id = {e.id: e for e in examples}
    spelled = {"SUPPORT": "SUPPORTED", "CONTRADICT": "REFUTED"}
    for m, c in zip(meta, claims, strict=True):
        e = by_id[m["claimforge_id"]]
        assert c.claim == e.claim and c.cited_docs[0]["doc_id"] == m["doc_id"]
        got = spelled[next(iter(c.evidence.values()))[0]["label"]] if c.evidence else "NOT_ENOUGH_INFO"
        assert got == e.label.value
        assert " ".join(c.cited_docs[0]["abstract"]).split() == e.evidence.split()


def test_scifact_gold_as_prediction_scores_one_on_the_label_metrics(
    build: tuple[Path, list[Example]], tmp_path: Path
) -> None:
    """The SciFact evaluator's abstract-level scoring (label only and rationalized, at most 3 sentences):
    the gold evidence given back as the prediction must score 1.0."""
    _, examples = build
    write_scifact(tmp_path, examples)
    _, claims = read_scifact(tmp_path / "scifact")
    tp = n_pred = n_gold = rationalized = 0
    for c in claims:
        pred = {d: {"label": rs[0]["label"], "sentences": rs[0]["sentences"][:3]} for d, rs in c.evidence.items()}
        n_gold += len(c.evidence)
        for doc, p in pred.items():
            n_pred += 1
            gold = c.evidence.get(doc)
            if gold and gold[0]["label"] == p["label"]:
                tp += 1
                rationalized += any(set(r["sentences"]) <= set(p["sentences"]) for r in gold)
    assert n_gold and tp == n_pred == n_gold == rationalized


def test_scifact_can_keep_duplicate_nei_claims_and_whole_passages(
    build: tuple[Path, list[Example]], tmp_path: Path
) -> None:
    _, examples = build
    kept = write_scifact(tmp_path, examples, rationale_mode="passage", nei_duplicates="keep")
    assert kept["claims"] == len(examples) and kept["nei_duplicates_dropped"] == 0
    corpus, claims = read_scifact(tmp_path / "scifact")
    for c in claims:
        for doc_id, rs in c.evidence.items():
            assert rs[0]["sentences"] == list(range(len(corpus[int(doc_id)]["abstract"])))


# -- MultiVerS ------------------------------------------------------------------------------------------------


def test_multivers_training_folder_and_inference_file(build: tuple[Path, list[Example]], tmp_path: Path) -> None:
    _, examples = build
    counts = write_multivers(tmp_path, examples)
    folder = tmp_path / "multivers"
    corpus = {d["doc_id"]: d for d in lines(folder / "corpus.jsonl")}
    assert all(set(d) == {"doc_id", "title", "abstract"} for d in corpus.values())
    ids: list[int] = []
    for split in ("train", "dev", "test"):
        rows = lines(folder / f"claims_{split}.jsonl")
        assert len(rows) == counts[split]
        for row in rows:
            assert set(row) == {"id", "claim", "evidence", "cited_doc_ids"}  # data_train.py: Claim(**entry)
            assert all(d in corpus for d in row["cited_doc_ids"])
            for doc_id, rs in row["evidence"].items():
                assert int(doc_id) in row["cited_doc_ids"] and rs[0]["sentences"]  # an empty list breaks it
                assert rs[0]["label"] in ("SUPPORT", "CONTRADICT")
        ids += [r["id"] for r in rows]
    assert len(ids) == len(set(ids)) and sum(counts.values()) == len(ids)
    predict = lines(folder / "claims_predict.jsonl")
    assert sorted(r["id"] for r in predict) == sorted(ids)
    assert all(set(r) == {"id", "claim", "doc_ids"} and all(d in corpus for d in r["doc_ids"]) for r in predict)


# -- FEVER ----------------------------------------------------------------------------------------------------


def fever_strict(predictions: list[dict[str, Any]], max_evidence: int = 5) -> float:
    """The FEVER scorer's strict score: right label and, unless NEI, a whole gold group among the first
    ``max_evidence`` predicted [page, line] pairs."""
    hits = 0
    for inst in predictions:
        if inst["predicted_label"].upper() != inst["label"].upper():
            continue
        if inst["label"].upper() == "NOT ENOUGH INFO":
            hits += 1
            continue
        predicted = inst["predicted_evidence"][:max_evidence]
        hits += any(all([e[2], e[3]] in predicted for e in group) for group in inst["evidence"])
    return hits / len(predictions)


def test_fever_rows_pages_and_strict_score(build: tuple[Path, list[Example]], tmp_path: Path) -> None:
    _, examples = build
    write_fever(tmp_path, examples)
    rows = lines(tmp_path / "fever" / "claims.jsonl")
    pages = {p["id"]: p["lines"].split("\n") for p in lines(tmp_path / "fever" / "wiki-pages" / "wiki-001.jsonl")}
    assert len(rows) == len(examples) and [r["id"] for r in rows] == list(range(len(rows)))
    for r in rows:
        assert set(r) == {"id", "verifiable", "label", "claim", "evidence"}
        assert r["label"] in ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
        if r["label"] == "NOT ENOUGH INFO":
            assert r["verifiable"] == "NOT VERIFIABLE" and r["evidence"] == [[[r["id"], None, None, None]]]
            continue
        assert r["verifiable"] == "VERIFIABLE"
        (group,) = r["evidence"]
        assert 1 <= len(group) <= 3
        for ann, ev, page, line in group:
            assert isinstance(ann, int) and isinstance(ev, int) and isinstance(line, int)
            # the page file's line i is "i<TAB>sentence"
            assert pages[page][line].split("\t")[0] == str(line) and pages[page][line].split("\t")[1]
    for page_lines in pages.values():
        assert [x.split("\t")[0] for x in page_lines] == [str(i) for i in range(len(page_lines))]
    meta = lines(tmp_path / "fever" / "claimforge_meta.jsonl")
    fever_names = {"SUPPORTS": "SUPPORTED", "REFUTES": "REFUTED", "NOT ENOUGH INFO": "NOT_ENOUGH_INFO"}
    assert [fever_names[r["label"]] for r in rows] == [e.label.value for e in examples]
    assert [m["claimforge_id"] for m in meta] == [e.id for e in examples]
    gold_as_pred = [
        {**r, "predicted_label": r["label"], "predicted_evidence": [[e[2], e[3]] for g in r["evidence"] for e in g]}
        for r in rows
    ]
    assert fever_strict(gold_as_pred) == 1.0
    wrong = [{**p, "predicted_evidence": []} for p in gold_as_pred]
    assert fever_strict(wrong) == sum(r["label"] == "NOT ENOUGH INFO" for r in rows) / len(rows)


# -- NLI pairs and sentence-transformers ----------------------------------------------------------------------


def test_nli_pairs_have_only_the_columns_a_cross_encoder_reads(
    build: tuple[Path, list[Example]], tmp_path: Path
) -> None:
    _, examples = build
    write_nli(tmp_path, examples)
    rows = lines(tmp_path / "nli" / "pairs.jsonl")
    assert all(set(r) == {"premise", "hypothesis", "label"} for r in rows)
    names = json.loads((tmp_path / "nli" / "labels.json").read_text())
    assert names == list(NLI_NAMES) == ["entailment", "neutral", "contradiction"]
    expected = {Label.SUPPORTED: "entailment", Label.REFUTED: "contradiction", Label.NOT_ENOUGH_INFO: "neutral"}
    assert [names[r["label"]] for r in rows] == [expected[e.label] for e in examples]
    meta = lines(tmp_path / "nli" / "claimforge_meta.jsonl")
    assert [m["claimforge_id"] for m in meta] == [e.id for e in examples]


def test_the_documented_cross_encoder_recipe_trains_on_nli_pairs(
    build: tuple[Path, list[Example]], tmp_path: Path, tiny_bert: Path
) -> None:
    pytest.importorskip("accelerate", reason="the sentence-transformers trainer needs the 'st' extra (accelerate)")
    from datasets import load_dataset
    from sentence_transformers.cross_encoder import CrossEncoder, CrossEncoderTrainer, CrossEncoderTrainingArguments
    from sentence_transformers.cross_encoder.losses import CrossEntropyLoss

    _, examples = build
    write_nli(tmp_path, examples)
    # the three lines of docs/formats.md
    train = load_dataset("json", data_files=str(tmp_path / "nli" / "pairs.jsonl"), split="train")
    model = CrossEncoder(str(tiny_bert), num_labels=3)
    args = CrossEncoderTrainingArguments(
        output_dir=str(tmp_path / "ce"),
        max_steps=3,
        per_device_train_batch_size=8,
        report_to="none",
        save_strategy="no",
        use_cpu=True,
    )
    CrossEncoderTrainer(model=model, args=args, train_dataset=train, loss=CrossEntropyLoss(model)).train()
    scores = model.predict([(examples[0].evidence, examples[0].claim)])
    assert scores.shape == (1, 3)


# -- Hugging Face datasets ------------------------------------------------------------------------------------


def test_hf_export_has_a_class_label_one_provenance_type_and_a_card(
    build: tuple[Path, list[Example]], tmp_path: Path
) -> None:
    from datasets import ClassLabel, load_from_disk

    folder, examples = build
    manifest = json.loads((folder / "manifest.json").read_text())
    counts = export_hf(tmp_path / "hf", examples, manifest)
    data = load_from_disk(str(tmp_path / "hf"))
    assert set(data) == {"train", "validation", "test"} and sum(counts.values()) == len(examples)
    by_id = {e.id: e for e in examples}
    for split in data.values():
        feature = split.features["label"]
        assert isinstance(feature, ClassLabel) and feature.names == HF_LABELS
        assert split.features["provenance"].dtype == "string"
        for row in split:
            e = by_id[row["id"]]
            assert feature.int2str(row["label"]) == e.label.value
            assert json.loads(row["provenance"]) == e.provenance.model_dump(mode="json")
    card = (tmp_path / "hf" / "README.md").read_text()
    assert card.startswith("---\nlicense: cc-by-nc-3.0\n")  # SciQ's licence, inherited
    for section in (
        "## Dataset Details",
        "## Uses",
        "## Dataset Structure",
        "## Dataset Creation",
        "## Bias, Risks, and Limitations",
        "## Citation",
    ):
        assert section in card
    assert f"| SUPPORTED | {sum(e.label == Label.SUPPORTED for e in examples)} |" in card


def test_export_command_writes_the_format(build: tuple[Path, list[Example]], tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from claimforge.cli import app

    folder, _ = build
    res = CliRunner().invoke(app, ["export", "fever", str(folder), "--out", str(tmp_path / "x")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "x" / "fever" / "claims.jsonl").is_file()
    res = CliRunner().invoke(app, ["export", "scifact", str(tmp_path / "nowhere"), "--out", str(tmp_path / "y")])
    assert res.exit_code == 2 and "not a claimforge build" in " ".join(res.output.split())  # the console wraps


def test_hf_export_of_a_tiny_build_loads_back(build: tuple[Path, list[Example]], tmp_path: Path) -> None:
    """A build too small to fill every split: the empty splits are left out (``datasets`` cannot load a split
    saved with no rows), and what is written loads back."""
    from datasets import load_from_disk

    folder, examples = build
    manifest = json.loads((folder / "manifest.json").read_text())
    counts = export_hf(tmp_path / "hf", examples[:1], manifest)
    data = load_from_disk(str(tmp_path / "hf"))
    assert sum(counts.values()) == 1 and len(data) == 1
    assert [row["id"] for split in data.values() for row in split] == [examples[0].id]
