"""Readers of scientific sentences: marker stripping, citance splitting, context, references, rejects and
errors (file and line), on self-made fixtures in each real format (tests/io/fixtures/sentences/), then the
real files (counts from ../shared/data/README.md; skipped when that folder is absent)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from claimforge.io.rows import InputError, reader_from_spec
from claimforge.io.sentences import (
    load_corpus,
    strip_heading,
)
from claimforge.records import Document, Reject, SentenceItem, SourceRef
from claimforge.registry import registry

FIX = Path(__file__).parent / "fixtures" / "sentences"
CI = FIX / "citation_integrity"


def build(name: str, path: Path | str, **params: Any) -> Any:
    return registry.build("reader", {"name": name, "path": str(path), **params})


def split(out: list[Any]) -> tuple[list[SentenceItem], list[Reject]]:
    items = [x for x in out if isinstance(x, SentenceItem)]
    rejects = [x for x in out if isinstance(x, Reject)]
    assert len(items) + len(rejects) == len(out)
    return items, rejects


def records_in(path: Path) -> int:
    """Non-blank lines of a JSONL file: the records a reader must account for."""
    return sum(1 for line in path.read_text().splitlines() if line.strip())


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


# --------------------------------------------------------------------------------------------------
# Registry


def test_readers_are_registered() -> None:
    names = registry.names("reader")
    for name in ("citation-integrity", "scifact-corpus", "scifact-citances", "sentences"):
        assert name in names


def test_reader_from_spec_with_a_dashed_name() -> None:
    reader = reader_from_spec(f"citation-integrity:{CI / 'claims_train.jsonl'}")
    assert reader.dataset == "citation-integrity"
    assert reader.corpus_path == CI / "corpus.jsonl"


# --------------------------------------------------------------------------------------------------
# Marker stripping (variants seen in the real Citation-Integrity data)


@pytest.mark.parametrize(
    ("sentence", "rest", "heading"),
    [
        ("BACKGROUND Microarrays offer potential.", "Microarrays offer potential.", "BACKGROUND"),
        ("METHODS AND RESULTS In 30 subjects we did it.", "In 30 subjects we did it.", "METHODS AND RESULTS"),
        ("METHODS A total of 30 were seen.", "A total of 30 were seen.", "METHODS"),
        ("DESIGN, SETTING, AND PARTICIPANTS A cohort.", "A cohort.", "DESIGN, SETTING, AND PARTICIPANTS"),
        ("BACKGROUND & AIMS Liver disease.", "Liver disease.", "BACKGROUND & AIMS"),
        ("METHODOLOGY/PRINCIPAL FINDINGS We found.", "We found.", "METHODOLOGY/PRINCIPAL FINDINGS"),
        ("DNA methylation changes with age.", "DNA methylation changes with age.", None),
        ("HIV RNA levels fell.", "HIV RNA levels fell.", None),
        ("RESULTS", "RESULTS", None),
        ("Plain sentence.", "Plain sentence.", None),
    ],
)
def test_strip_heading(sentence: str, rest: str, heading: str | None) -> None:
    assert strip_heading(sentence) == (rest, heading)


# --------------------------------------------------------------------------------------------------
# citation-integrity


def test_citation_integrity_fixture() -> None:
    path = CI / "claims_train.jsonl"
    out = list(build("citation-integrity", path).read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == records_in(path) == 9  # one per record, the blank line is not one
    by_id = {i.id: i for i in items}
    assert list(by_id) == [f"citation-integrity:claims_train:{n}" for n in (0, 1, 2, 3, 6)]

    first = by_id["citation-integrity:claims_train:0"]
    assert first.sentence == "Several studies have shown the association of non-coding RNAs with apoptosis."
    assert first.meta["raw"].endswith("apoptosis [<|multi_cit|>].")
    assert first.meta["integrity_labels"] == {"101": "SUPPORT"}
    assert first.meta["integrity_rationales"] == {"101": [0]}
    assert first.citing is None and [d.id for d in first.cited] == ["101"]
    assert first.cited[0].sentences[0] == "Non-coding RNAs regulate apoptosis in colorectal cancer cells."
    assert first.ref.line == 1 and first.ref.item_id == first.id and first.ref.dataset == "citation-integrity"

    assert by_id["citation-integrity:claims_train:1"].meta["integrity_labels"] == {"102": "REFUTE"}
    multi = by_id["citation-integrity:claims_train:2"]
    assert multi.sentence == "Lnc RNA loc285194 may act through targeting miR-211."
    assert multi.context_after == ("Liu et al. show that it inhibits colon cancer cell growth.",)
    assert multi.meta["integrity_labels"] == {"102": "NEI"}
    assert multi.cited[0] is by_id["citation-integrity:claims_train:1"].cited[0]  # shared, not copied
    assert by_id["citation-integrity:claims_train:3"].ref.line == 5  # after the blank line
    mid = by_id["citation-integrity:claims_train:6"]
    assert mid.context_before == ("Tumour cells have functional mitochondria.",)
    assert mid.sentence == "Metformin inhibits complex I in cancer cells, as does rotenone."
    assert mid.context_after == ("Phenformin is stronger.",)
    assert mid.meta["markers"] == {"other_cit": 3, "cit": 1}

    reasons = {r.item_id: (r.reason, r.ref.line if r.ref else None) for r in rejects}
    assert reasons == {
        "citation-integrity:claims_train:4": ("cited_document_missing", 6),
        "citation-integrity:claims_train:5": ("malformed_record", 7),
        "citation-integrity:claims_train:7": ("empty_sentence", 9),
        "citation-integrity:claims_train:8": ("malformed_record", 10),
    }
    missing = next(r for r in rejects if r.reason == "cited_document_missing")
    assert "999" in missing.detail and "corpus.jsonl" in missing.detail
    for item in items:
        assert "<|" not in item.sentence and all("<|" not in s for s in item.context_before + item.context_after)


def test_citation_integrity_rejects_are_not_errors_but_malformed_lines_are() -> None:
    path = CI / "claims_train.jsonl"
    reader = build("citation-integrity", path)
    with pytest.raises(InputError) as err:
        list(reader.read())
    assert str(path) in str(err.value) and "line 7" in str(err.value)
    assert err.value.where == "line 7"


def test_citation_integrity_corpus_errors(tmp_path: Path) -> None:
    reader = build("citation-integrity", CI / "claims_train.jsonl", corpus=str(CI / "corpus_bad.jsonl"))
    with pytest.raises(InputError) as err:
        list(reader.read(skip_bad=True))  # a broken corpus is not a record: it always raises
    assert "corpus_bad.jsonl" in str(err.value) and "line 2" in str(err.value)
    with pytest.raises(InputError, match="no such file"):
        list(build("citation-integrity", tmp_path / "claims_dev.jsonl", corpus=str(CI / "corpus.jsonl")).read())
    claims = write_jsonl(tmp_path / "claims.jsonl", [{"id": 1, "claim": "x [<|cit|>].", "cited_doc_ids": [1]}])
    with pytest.raises(InputError, match="no such file"):  # default corpus: corpus.jsonl beside the claims
        list(build("citation-integrity", claims).read())


def test_citation_integrity_malformed_variants(tmp_path: Path) -> None:
    rows = [
        {"claim": "no id"},
        {"id": 1, "claim": 5, "cited_doc_ids": [101]},
        {"id": 2, "claim": "x", "cited_doc_ids": [101], "evidence": {"102": []}},
        {"id": 3, "claim": "x", "cited_doc_ids": [101], "evidence": {"101": [{"sentences": "0", "label": "S"}]}},
        {"id": 4, "claim": "x", "cited_doc_ids": [101], "evidence": []},
        {"id": 4, "claim": "repeated id", "cited_doc_ids": [101]},
        [1, 2],
    ]
    path = write_jsonl(tmp_path / "claims.jsonl", rows)
    reader = build("citation-integrity", path, corpus=str(CI / "corpus.jsonl"))
    out = list(reader.read(skip_bad=True))
    assert [r.reason for r in out if isinstance(r, Reject)] == ["malformed_record"] * 7
    assert [x.ref.line for x in out] == list(range(1, 8))
    details = [x.detail for x in out if isinstance(x, Reject)]
    assert "missing field 'id'" in details[0]
    assert "expected text" in details[1]
    assert "does not cite" in details[2]
    assert "'sentences' must be a list" in details[3]
    assert "expected an object" in details[4]
    assert "duplicate id" in details[5]
    assert "expected a JSON object" in details[6]


# --------------------------------------------------------------------------------------------------
# scifact-corpus


def test_scifact_corpus_fixture() -> None:
    path = FIX / "scifact_corpus.jsonl"
    out = list(build("scifact-corpus", path).read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == 4 + 4 + 1 + 2  # sentences of the good docs + one malformed line
    ids = [x.id if isinstance(x, SentenceItem) else x.item_id for x in out]
    assert ids[:4] == [f"scifact-corpus:4983:{i}" for i in range(4)]
    first, second = items[0], items[1]
    assert first.citing is first.cited[0] is second.citing  # one shared Document per abstract
    assert isinstance(first.citing, Document) and first.citing.id == "4983"
    assert first.citing.title.startswith("Microstructural development")
    assert second.context_before == (first.sentence,)
    assert second.context_after == ()  # the next sentence is ".", not context
    assert {i.ref.line for i in items if i.meta["doc_id"] == "4983"} == {1}
    structured = [i for i in items if i.meta["doc_id"] == "5836"]
    assert structured[0].sentence == "Microarrays offer great potential for molecular diagnostics."
    assert [i.meta["section"] for i in structured] == ["BACKGROUND", "METHODS AND RESULTS", "CONCLUSIONS"]
    assert structured[0].citing is not None and structured[0].citing.sentences[0].startswith("BACKGROUND ")
    assert structured[1].context_after == ("Microvascular function differs between fat depots.",)
    assert next(i for i in items if i.meta["doc_id"] == "8000").sentence.startswith("DNA methylation")
    reasons = Counter(r.reason for r in rejects)
    assert reasons == {"short_sentence": 2, "malformed_record": 1, "empty_sentence": 1}
    bad = next(r for r in rejects if r.reason == "malformed_record")
    assert bad.ref is not None and bad.ref.line == 3


def test_scifact_corpus_options() -> None:
    path = FIX / "scifact_corpus.jsonl"
    out = list(build("scifact-corpus", path, min_words=0, context=2, strip_headings=False).read(skip_bad=True))
    items, rejects = split(out)
    assert Counter(r.reason for r in rejects) == {"malformed_record": 1, "empty_sentence": 1}
    assert any(i.sentence.startswith("BACKGROUND ") for i in items)
    last = next(i for i in items if i.id == "scifact-corpus:4983:3")
    assert last.context_before == ("Diffusion tensor imaging was applied to preterm and full-term infants.",)
    one_doc, _ = split(list(build("scifact-corpus", path, context=0, limit_docs=1).read()))
    assert {i.meta["doc_id"] for i in one_doc} == {"4983"} and len(one_doc) == 3
    assert all(not i.context_before and not i.context_after for i in one_doc)
    with pytest.raises(InputError) as err:
        list(build("scifact-corpus", path).read())
    assert "scifact_corpus.jsonl" in str(err.value) and "line 3" in str(err.value)


def test_scifact_corpus_doc_ids(tmp_path: Path) -> None:
    path = FIX / "scifact_corpus.jsonl"
    from_file = list(build("scifact-corpus", path, doc_ids=str(FIX / "scifact_doc_ids.txt")).read(skip_bad=True))
    docs = Counter(x.meta["doc_id"] for x in from_file if isinstance(x, SentenceItem))
    assert set(docs) == {"4983", "5836"}
    missing = [x for x in from_file if isinstance(x, Reject) and x.reason == "document_missing"]
    assert [m.item_id for m in missing] == ["scifact-corpus:1234"]  # asked for, not in the corpus
    from_list = list(build("scifact-corpus", path, doc_ids=[8000]).read(skip_bad=True))
    assert {x.meta["doc_id"] for x in from_list if isinstance(x, SentenceItem)} == {"8000"}
    claims = write_jsonl(tmp_path / "claims.jsonl", [{"id": 1, "cited_doc_ids": [5836, 77]}, {"doc_id": 8000}])
    from_claims = list(build("scifact-corpus", path, doc_ids=str(claims)).read(skip_bad=True))
    assert {x.meta["doc_id"] for x in from_claims if isinstance(x, SentenceItem)} == {"5836", "8000"}
    assert [x.item_id for x in from_claims if isinstance(x, Reject) and x.reason == "document_missing"] == [
        "scifact-corpus:77"
    ]
    with pytest.raises(InputError, match="line 7"):  # a broken ids file names its line
        build("scifact-corpus", path, doc_ids=str(CI / "claims_train.jsonl"))


# --------------------------------------------------------------------------------------------------
# scifact-citances


def test_scifact_citances_fixture() -> None:
    path = FIX / "scifact_citances.jsonl"
    out = list(build("scifact-citances", path).read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == records_in(path) == 7
    first, second, lost = items
    assert first.id == "scifact-citances:scifact_citances:0" and first.ref.line == 1
    assert (
        first.sentence
        == "Biodegradable 0DBMs deliver biomolecules into cells [99] , and some show inductive properties."
    )
    assert first.context_before == ("Biological cues tend to be digested by cellular enzymes [49] .",)
    assert first.context_after == ("The influences of 0DBMs depend on uptake (Smith et al. 2013) .",)
    assert first.references == ("0-dimensional biomaterials show inductive properties.",)
    assert first.meta["negated_references"] == ["0-dimensional biomaterials lack inductive properties."]
    assert first.cited == () and first.citing is not None and first.citing.id == "s2orc:111"
    assert first.citing.sentences == ("&NA; Cells interact with biomaterials.", "Physical properties govern this.",
                                      "We review 0D to 3D materials.")  # fmt: skip
    assert second.citing is first.citing  # same paper: one Document
    assert second.context_after == ("Another sentence.",)
    assert lost.meta["context_found"] is False and lost.context_before == lost.context_after == ()
    assert lost.citing is not None and lost.citing.title == "" and lost.citing.sentences == ()
    assert [(r.reason, r.ref.line if r.ref else None) for r in rejects] == [
        ("malformed_record", 4),
        ("duplicate_citance", 5),
        ("empty_sentence", 6),
        ("malformed_record", 7),
    ]
    assert "scifact-citances:scifact_citances:0" in rejects[1].detail


def test_scifact_citances_context_size_and_errors() -> None:
    path = FIX / "scifact_citances.jsonl"
    wide = [x for x in build("scifact-citances", path, context=2).read(skip_bad=True) if isinstance(x, SentenceItem)]
    assert wide[1].context_before == (
        "Biological cues tend to be digested by cellular enzymes [49] .",
        "Biodegradable 0DBMs deliver biomolecules into cells [99] , and some show inductive properties.",
    )
    with pytest.raises(InputError) as err:
        list(build("scifact-citances", path).read())
    assert "scifact_citances.jsonl" in str(err.value) and "line 4" in str(err.value)


# --------------------------------------------------------------------------------------------------
# sentences (generic)


def test_generic_jsonl() -> None:
    path = FIX / "sentences.jsonl"
    corpus = str(FIX / "sentences_corpus.jsonl")
    out = list(build("sentences", path, corpus=corpus, meta=["topic"]).read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == records_in(path) == 8
    s1, s2 = items
    assert s1.id == "sentences:s1" and s1.sentence == "Aspirin reduces fever [3]."
    assert s1.context_before == ("It is widely used.", "Many take it.") and s1.context_after == ("It is cheap.",)
    assert [d.id for d in s1.cited] == ["d1", "d2"] and s1.citing is not None and s1.citing.id == "p1"
    assert s1.cited[0].sentences == ("First sentence of doc one.", "Second sentence (Fig. 2) here.")
    assert s1.cited[1].sentences == ("Doc two sentence one.", "Doc two sentence two.") and s1.cited[1].title == ""
    assert s1.references == ("Aspirin reduces fever.",) and s1.meta == {"topic": "drugs"}
    assert s2.id == "sentences:sentences:1" and s2.references == ("Claim one", "Claim two") and s2.cited == ()
    assert [(r.item_id, r.reason, r.ref.line if r.ref else None) for r in rejects] == [
        ("sentences:s3", "cited_document_missing", 3),
        ("sentences:s4", "empty_sentence", 4),
        ("sentences:sentences:4", "malformed_record", 5),
        ("sentences:sentences:5", "malformed_record", 6),
        ("sentences:sentences:6", "malformed_record", 7),
        ("sentences:s8", "citing_document_missing", 8),
    ]
    assert "zz" in rejects[0].detail and "d1" not in rejects[0].detail.split("not in")[0]


def test_generic_csv_and_tsv() -> None:
    corpus = str(FIX / "sentences_corpus.jsonl")
    out = list(build("sentences", FIX / "sentences.csv", corpus=corpus).read(skip_bad=True))
    items, rejects = split(out)
    assert [i.id for i in items] == ["sentences:s1", "sentences:sentences:1"]
    assert items[0].sentence == "Aspirin reduces fever, often [3]." and [d.id for d in items[0].cited] == ["d1", "d2"]
    assert items[0].references == ("Aspirin reduces fever.", "Aspirin is a drug.")
    assert items[1].sentence == "A sentence, spanning two lines." and items[1].ref.line == 3
    assert [(r.reason, r.ref.line if r.ref else None) for r in rejects] == [
        ("malformed_record", 5),
        ("cited_document_missing", 6),
    ]
    with pytest.raises(InputError) as err:
        list(build("sentences", FIX / "sentences.csv", corpus=corpus).read())
    assert "sentences.csv" in str(err.value) and "line 5" in str(err.value)
    tsv = build("sentences", FIX / "sentences.tsv", corpus=corpus, id="key", sentence="text", cited="docs")
    tab = list(tsv.read())
    assert [(i.id, i.sentence, [d.id for d in i.cited]) for i in tab] == [
        ("sentences:a", "First tab sentence.", ["d1"]),
        ("sentences:b", "Second tab sentence.", []),
    ]


def test_generic_configuration_errors(tmp_path: Path) -> None:
    corpus = str(FIX / "sentences_corpus.jsonl")
    with pytest.raises(InputError, match="not in the header"):  # an explicitly mapped column must exist
        list(build("sentences", FIX / "sentences.tsv", corpus=corpus, sentence="text", cited="nope").read())
    with pytest.raises(InputError, match="no 'corpus'") as err:
        list(build("sentences", FIX / "sentences.jsonl").read(skip_bad=True))
    assert "line 1" in str(err.value)
    with pytest.raises(InputError, match="not '.txt'"):
        list(build("sentences", tmp_path / "x.txt").read())
    bad_corpus = write_jsonl(tmp_path / "corpus.jsonl", [{"doc_id": "a", "text": "x"}, {"title": "no id"}])
    with pytest.raises(InputError) as err:
        list(build("sentences", FIX / "sentences.jsonl", corpus=str(bad_corpus)).read())
    assert "corpus.jsonl" in str(err.value) and "line 2" in str(err.value)


def test_load_corpus(tmp_path: Path) -> None:
    docs = load_corpus(CI / "corpus.jsonl")
    assert list(docs) == ["101", "102", "103"] and docs["102"].sentences[1] == "It represses miR-211."
    dup = write_jsonl(tmp_path / "dup.jsonl", [{"doc_id": 1, "abstract": []}, {"doc_id": 1, "abstract": []}])
    with pytest.raises(InputError, match="duplicate doc id 1"):
        load_corpus(dup)
    text = write_jsonl(tmp_path / "text.jsonl", [{"doc_id": 1, "abstract": "Not a list. In SciFact format."}])
    with pytest.raises(InputError, match="list of sentences"):
        load_corpus(text)
    assert load_corpus(text, generic=True)["1"].sentences == ("Not a list.", "In SciFact format.")


# --------------------------------------------------------------------------------------------------
# Real data (skips when ../shared/data is absent)


def _no_markers(items: list[SentenceItem]) -> None:
    for item in items:
        for text in (item.sentence, *item.context_before, *item.context_after):
            assert "<|" not in text and "|>" not in text, item.id
            assert not any("\ue000" <= c <= "\ue0ff" for c in text), item.id


@pytest.mark.slow
@pytest.mark.parametrize(("split_name", "count"), [("train", 2138), ("dev", 316), ("test", 606)])
def test_real_citation_integrity(shared_data: Any, split_name: str, count: int) -> None:
    path = shared_data("citation_integrity", f"claims_{split_name}.jsonl")
    out = list(build("citation-integrity", path).read())
    items, rejects = split(out)
    assert len(items) == count and rejects == []
    assert len({i.id for i in items}) == count
    assert all(i.sentence and len(i.cited) == 1 for i in items)
    assert all(set(i.meta["integrity_labels"].values()) <= {"SUPPORT", "REFUTE", "NEI"} for i in items)
    _no_markers(items)
    assert sum(bool(i.context_before or i.context_after) for i in items) > 0  # multi-sentence citances
    docs = {id(d) for i in items for d in i.cited}
    assert len(docs) == len({d.id for i in items for d in i.cited})  # one object per document


@pytest.mark.slow
def test_real_citation_integrity_corpus(shared_data: Any) -> None:
    assert len(load_corpus(shared_data("citation_integrity", "corpus.jsonl"))) == 3063


@pytest.mark.slow
def test_real_scifact_citances(shared_data: Any) -> None:
    path = shared_data("claimgen", "scifact_citances_train.jsonl")
    items, rejects = split(list(build("scifact-citances", path).read()))
    assert len(items) == 443 and rejects == []
    assert all(i.meta["context_found"] for i in items)
    assert sum(len(i.references) for i in items) == 554
    assert sum(len(i.meta["negated_references"]) for i in items) == 259
    assert sum(1 for i in items if not i.context_before) == 16
    assert len({id(i.citing) for i in items}) == 442  # one paper has two citances


@pytest.mark.slow
def test_real_scifact_corpus(shared_data: Any) -> None:
    path = shared_data("scifact", "corpus.jsonl")
    out = list(build("scifact-corpus", path, limit_docs=300).read())
    items, rejects = split(out)
    raw = [json.loads(line) for line in path.read_text().splitlines()[:300]]
    assert len(out) == sum(len(d["abstract"]) for d in raw)
    assert {r.reason for r in rejects} <= {"short_sentence", "empty_sentence"}
    assert all(not i.sentence.startswith(("BACKGROUND ", "RESULTS ", "METHODS ")) for i in items)
    cited = shared_data("scifact", "claims_dev.jsonl")
    subset = list(build("scifact-corpus", path, doc_ids=str(cited)).read())
    wanted = {str(d) for line in cited.read_text().splitlines() for d in json.loads(line)["cited_doc_ids"]}
    assert {x.meta["doc_id"] for x in subset if isinstance(x, SentenceItem)} == wanted


def test_claimforge_dataset_reader_reads_supported_claims(tmp_path: Path) -> None:
    from claimforge.records import Example, Label, Provenance

    rows = []
    for n, label in enumerate([Label.SUPPORTED, Label.REFUTED, Label.SUPPORTED]):
        src = SourceRef(dataset="d", path="d.jsonl", line=n + 1, item_id=f"d:{n}")
        rows.append(
            Example(
                id=f"d:{n}#S",
                claim=f"Claim {n} is here.",
                evidence="First sentence. Second sentence.",
                evidence_id="doc1",
                label=label,
                source_item_id=f"d:{n}",
                method="m",
                provenance=Provenance(method="m", method_version="0", source=src),
            ).model_dump_json()
        )
    (tmp_path / "examples.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = list(registry.build("reader", {"name": "claimforge-dataset", "path": str(tmp_path)}).read())
    items = [x for x in out if isinstance(x, SentenceItem)]
    assert [i.sentence for i in items] == ["Claim 0 is here.", "Claim 2 is here."]
    assert items[0].cited[0].sentences == ("First sentence.", "Second sentence.")
    assert [r.reason for r in out if isinstance(r, Reject)] == ["label_not_requested"]


def test_folder_inputs_take_their_file() -> None:
    """Readers whose data is a folder accept the folder (issue 16): Citation-Integrity's split file, SciFact's
    corpus; a folder without it is an error naming what is missing."""
    dev = reader_from_spec(f"citation-integrity:{CI}")
    assert dev.path == CI / "claims_train.jsonl" and dev.corpus_path == CI / "corpus.jsonl"
    one = reader_from_spec(f"citation-integrity:{CI / 'claims_train.jsonl'}")
    assert list(dev.read(skip_bad=True)) == list(one.read(skip_bad=True))
    with pytest.raises(InputError, match="a folder without claims_train.jsonl"):
        reader_from_spec(f"citation-integrity:{FIX}")
    corpus_dir = FIX.parent / "benchmarks" / "scifact"
    assert reader_from_spec(f"scifact-corpus:{corpus_dir}").path == corpus_dir / "corpus.jsonl"
