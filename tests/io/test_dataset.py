import json
from pathlib import Path

import pytest

from claimforge.io.dataset import read_examples, write_examples
from claimforge.io.exports import write_fever, write_nli, write_scifact
from claimforge.records import Example, Label, Provenance, SourceRef


def ex(i: int, label: Label, evidence_id: str) -> Example:
    ref = SourceRef(dataset="d", path="p", line=i, item_id=f"d:{i}")
    return Example(
        id=f"d:{i}#{label.value[0]}",
        claim=f"Claim {i}.",
        evidence="First one. Second two.",
        evidence_id=evidence_id,
        label=label,
        source_item_id=f"d:{i}",
        method="m",
        provenance=Provenance(method="m", method_version="0", source=ref),
    )


def test_roundtrip_and_exports(tmp_path: Path) -> None:
    exs = [ex(1, Label.SUPPORTED, "e1"), ex(1, Label.REFUTED, "e1"), ex(2, Label.NOT_ENOUGH_INFO, "e3")]
    write_examples(tmp_path, exs)
    assert read_examples(tmp_path / "examples.jsonl") == exs
    write_scifact(tmp_path, exs)
    corpus = [json.loads(x) for x in (tmp_path / "scifact/corpus.jsonl").read_text().splitlines()]
    claims = [json.loads(x) for x in (tmp_path / "scifact/claims.jsonl").read_text().splitlines()]
    assert [d["doc_id"] for d in corpus] == [0, 1] and corpus[0]["abstract"] == ["First one.", "Second two."]
    # "Claim 1." shares no word with the evidence: the rationale falls back to the first sentence
    assert claims[0]["evidence"] == {"0": [{"sentences": [0], "label": "SUPPORT"}]}
    assert claims[1]["evidence"]["0"][0]["label"] == "CONTRADICT"
    assert claims[2]["evidence"] == {} and claims[2]["cited_doc_ids"] == [1]
    write_fever(tmp_path, exs)
    fever = [json.loads(x)["label"] for x in (tmp_path / "fever/claims.jsonl").read_text().splitlines()]
    assert fever == ["SUPPORTS", "REFUTES", "NOT ENOUGH INFO"]
    write_nli(tmp_path, exs)
    nli = [json.loads(x)["label"] for x in (tmp_path / "nli/pairs.jsonl").read_text().splitlines()]
    assert nli == [0, 2, 1]  # entailment, contradiction, neutral (labels.json)
    import pyarrow.parquet as pq

    assert pq.read_table(tmp_path / "examples.parquet").num_rows == 3


def test_bad_example_line_names_file_and_line(tmp_path: Path) -> None:
    p = tmp_path / "examples.jsonl"
    p.write_text('{"id": 1}\n')
    with pytest.raises(ValueError, match="examples.jsonl:1: not a claimforge example"):
        read_examples(p)


def test_parquet_is_written_one_row_group_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pyarrow.parquet as pq

    from claimforge.io import dataset

    exs = [ex(i, Label.SUPPORTED, f"e{i}") for i in range(7)]
    dataset.write_parquet(tmp_path / "one.parquet", exs)  # fewer rows than a group: the bytes of one write_table
    monkeypatch.setattr(dataset, "PARQUET_ROWS", 3)
    dataset.write_parquet(tmp_path / "three.parquet", exs)
    one, three = pq.ParquetFile(tmp_path / "one.parquet"), pq.ParquetFile(tmp_path / "three.parquet")
    assert (one.num_row_groups, three.num_row_groups) == (1, 3)
    assert three.read().equals(one.read()) and three.read().column("id").to_pylist() == [e.id for e in exs]
    dataset.write_parquet(tmp_path / "empty.parquet", [])  # an empty build still writes a readable file
    assert pq.read_table(tmp_path / "empty.parquet").num_rows == 0
