"""Exports of a built dataset that the field's own tools load unchanged (schemas: ``docs/formats.md``).

- ``scifact/``: ``corpus.jsonl`` + ``claims.jsonl`` exactly as allenai/scifact's ``GoldDataset`` reads them
  (``Claim(**entry)``: the keys ``id, claim, evidence, cited_doc_ids`` and nothing else; int ids).
- ``multivers/``: MultiVerS' training folder (``corpus.jsonl``, ``claims_{train,dev,test}.jsonl`` in the SciFact
  schema, split by source item) and ``claims_predict.jsonl`` for its ``predict.py`` (``id, claim, doc_ids``).
- ``fever/``: FEVER rows (int ids, ``verifiable``, evidence groups ``[annotation_id, evidence_id, page, line]``)
  and ``wiki-pages/wiki-001.jsonl`` (page → numbered sentence lines), so the FEVER scorer runs on them.
- ``nli/``: ``pairs.jsonl`` with exactly ``premise, hypothesis, label`` (int; names in ``labels.json``), what a
  sentence-transformers ``CrossEncoder`` trains on without glue.

Everything claimforge knows beyond a format's schema (the example id, evidence id, method, rationale mode) goes
to ``claimforge_meta.jsonl`` beside it, keyed by the format's id, never into the record a loader instantiates.
Rationales are sentence indices (``claimforge.io.rationale``): at most 3 sentences that state the claim's key
terms, unless ``rationale="passage"`` asks for the whole evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from claimforge.io.benchmarks import in_dev
from claimforge.io.dataset import jsonl_file, write_json
from claimforge.io.rationale import MAX_RATIONALE, key_terms, rationale
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Example, Label

RationaleMode = Literal["lexical", "passage"]
FEVER_LABELS = {Label.SUPPORTED: "SUPPORTS", Label.REFUTED: "REFUTES", Label.NOT_ENOUGH_INFO: "NOT ENOUGH INFO"}
NLI_NAMES = ("entailment", "neutral", "contradiction")  # MNLI's label ids
NLI_IDS = {Label.SUPPORTED: 0, Label.NOT_ENOUGH_INFO: 1, Label.REFUTED: 2}
SCIFACT_LABELS = {Label.SUPPORTED: "SUPPORT", Label.REFUTED: "CONTRADICT"}
META = "claimforge_meta.jsonl"
_TITLE_WORDS = 12
_PAGE_UNSAFE = re.compile(r"[^\w\-]+")


@dataclass
class Corpus:
    """The distinct evidence passages of a dataset as numbered documents with sentences and readable titles."""

    ids: dict[str, int] = field(default_factory=dict)
    docs: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, examples: Sequence[Example]) -> Corpus:
        questions = {e.source_item_id: e.provenance.details.get("question") for e in examples}
        corpus = cls()
        for e in examples:
            if e.evidence_id in corpus.ids:
                continue
            sentences = [s.replace("\t", " ").replace("\n", " ") for s in split_sentences(e.evidence)] or [e.evidence]
            corpus.ids[e.evidence_id] = len(corpus.docs)
            corpus.docs.append(
                {
                    "doc_id": len(corpus.docs),
                    "title": _title(e.evidence_id, sentences, questions),
                    "abstract": sentences,
                    "structured": False,
                    "evidence_id": e.evidence_id,
                }
            )
        return corpus

    def doc(self, e: Example) -> dict[str, Any]:
        return self.docs[self.ids[e.evidence_id]]

    def rows(self) -> Iterator[dict[str, Any]]:
        """SciFact / MultiVerS corpus rows (without claimforge's evidence id), one at a time."""
        return ({k: v for k, v in d.items() if k != "evidence_id"} for d in self.docs)


def _title(evidence_id: str, sentences: Sequence[str], questions: dict[str, Any]) -> str:
    """The question of the item the passage explains when known, else the passage's first words."""
    item = evidence_id.rsplit(":", 1)[0] if evidence_id.endswith(":explanation") else None
    question = questions.get(item) if item else None
    if isinstance(question, str) and question.strip():
        return question.strip()
    words = " ".join(sentences).split()
    return " ".join(words[:_TITLE_WORDS]) + (" …" if len(words) > _TITLE_WORDS else "")


def example_rationale(e: Example, sentences: Sequence[str], mode: RationaleMode = "lexical") -> list[int]:
    """Sentence indices of a SUPPORTED / REFUTED example's rationale (never empty: a loader needs one)."""
    if mode == "passage":
        return list(range(len(sentences)))
    details = e.provenance.details
    claim = str(details.get("original_claim") or e.claim)  # a negation's evidence states the original
    return rationale(claim, sentences, key_terms(details), MAX_RATIONALE) or [0]


def split_of(e: Example, seed: int = 2026) -> str:
    """train / dev / test (80/10/10) by source item, so one item's examples stay together."""
    if in_dev(e.source_item_id, 0.2, seed):
        return "test" if in_dev(e.source_item_id, 0.5, seed + 1) else "dev"
    return "train"


def _duplicate_nei(examples: Sequence[Example]) -> set[int]:
    """Positions of NOT_ENOUGH_INFO examples whose claim text is also a labelled claim (Multi2Claim's NEI
    claims repeat a SUPPORTED claim): in a SciFact corpus, open retrieval would count them as false positives."""
    labelled = {e.claim for e in examples if e.label != Label.NOT_ENOUGH_INFO}
    return {i for i, e in enumerate(examples) if e.label == Label.NOT_ENOUGH_INFO and e.claim in labelled}


def write_scifact(
    out: Path,
    examples: Sequence[Example],
    rationale_mode: RationaleMode = "lexical",
    nei_duplicates: Literal["drop", "keep"] = "drop",
    corpus: Corpus | None = None,
) -> dict[str, int]:
    """``out/scifact/``: corpus, claims and the claimforge side file; returns counts. Rows are written as they
    are made (``corpus``: the dataset's :class:`Corpus`, when the caller has it already)."""
    corpus = corpus if corpus is not None else Corpus.of(examples)
    skip = _duplicate_nei(examples) if nei_duplicates == "drop" else set()
    kept = [n for n in range(len(examples)) if n not in skip]
    jsonl_file(out / "scifact" / "corpus.jsonl", corpus.rows())
    n_claims = jsonl_file(
        out / "scifact" / "claims.jsonl", (_scifact_claim(n, examples[n], corpus, rationale_mode) for n in kept)
    )
    jsonl_file(out / "scifact" / META, (_meta(n, examples[n], corpus, rationale_mode) for n in kept))
    return {"claims": n_claims, "documents": len(corpus.docs), "nei_duplicates_dropped": len(skip)}


def _scifact_claim(n: int, e: Example, corpus: Corpus, mode: RationaleMode) -> dict[str, Any]:
    doc = corpus.doc(e)
    evidence: dict[str, Any] = {}
    if e.label in SCIFACT_LABELS:
        sents = example_rationale(e, doc["abstract"], mode)
        evidence = {str(doc["doc_id"]): [{"sentences": sents, "label": SCIFACT_LABELS[e.label]}]}
    return {"id": n, "claim": e.claim, "evidence": evidence, "cited_doc_ids": [doc["doc_id"]]}


def _meta(n: int, e: Example, corpus: Corpus, mode: RationaleMode) -> dict[str, Any]:
    return {
        "id": n,
        "claimforge_id": e.id,
        "label": e.label.value,
        "evidence_id": e.evidence_id,
        "doc_id": corpus.doc(e)["doc_id"],
        "source_item_id": e.source_item_id,
        "method": e.method,
        "rationale": mode,
    }


def write_multivers(
    out: Path, examples: Sequence[Example], rationale_mode: RationaleMode = "lexical", corpus: Corpus | None = None
) -> dict[str, int]:
    """``out/multivers/``: the training folder (corpus + claims per split, no extra keys) and the inference
    claims (``doc_ids``). NEI claims that repeat a labelled claim are left out, as in the SciFact export."""
    corpus = corpus if corpus is not None else Corpus.of(examples)
    skip = _duplicate_nei(examples)
    kept = [n for n in range(len(examples)) if n not in skip]
    split = {n: split_of(examples[n]) for n in kept}
    jsonl_file(
        out / "multivers" / "corpus.jsonl", ({k: d[k] for k in ("doc_id", "title", "abstract")} for d in corpus.rows())
    )
    counts = {}
    for name in ("train", "dev", "test"):
        counts[name] = jsonl_file(
            out / "multivers" / f"claims_{name}.jsonl",
            (_scifact_claim(n, examples[n], corpus, rationale_mode) for n in kept if split[n] == name),
        )
    jsonl_file(
        out / "multivers" / "claims_predict.jsonl",
        ({"id": n, "claim": examples[n].claim, "doc_ids": [corpus.doc(examples[n])["doc_id"]]} for n in kept),
    )
    jsonl_file(
        out / "multivers" / META,
        ({**_meta(n, examples[n], corpus, rationale_mode), "split": split[n]} for n in kept),
    )
    return counts


def page_id(evidence_id: str) -> str:
    """A FEVER page title for a passage: the evidence id with anything but word characters and "-" as "_"."""
    return _PAGE_UNSAFE.sub("_", evidence_id).strip("_")


def write_fever(
    out: Path, examples: Sequence[Example], rationale_mode: RationaleMode = "lexical", corpus: Corpus | None = None
) -> dict[str, int]:
    """``out/fever/``: ``claims.jsonl`` (FEVER's dataset rows), ``wiki-pages/wiki-001.jsonl`` and the side file."""
    corpus = corpus if corpus is not None else Corpus.of(examples)

    def rows() -> Iterator[dict[str, Any]]:
        evidence_no = 0
        for n, e in enumerate(examples):
            if e.label == Label.NOT_ENOUGH_INFO:
                groups: list[list[list[Any]]] = [[[n, None, None, None]]]
            else:
                page = page_id(e.evidence_id)
                group = []
                for line in example_rationale(e, corpus.doc(e)["abstract"], rationale_mode):
                    group.append([n, evidence_no, page, line])
                    evidence_no += 1
                groups = [group]
            yield {
                "id": n,
                "verifiable": "NOT VERIFIABLE" if e.label == Label.NOT_ENOUGH_INFO else "VERIFIABLE",
                "label": FEVER_LABELS[e.label],
                "claim": e.claim,
                "evidence": groups,
            }

    pages = (
        {
            "id": page_id(d["evidence_id"]),
            "text": " ".join(d["abstract"]),
            "lines": "\n".join(f"{i}\t{s}" for i, s in enumerate(d["abstract"])),
        }
        for d in corpus.docs
    )
    n_claims = jsonl_file(out / "fever" / "claims.jsonl", rows())
    n_pages = jsonl_file(out / "fever" / "wiki-pages" / "wiki-001.jsonl", pages)
    jsonl_file(
        out / "fever" / META,
        ({**_meta(n, e, corpus, rationale_mode), "page": page_id(e.evidence_id)} for n, e in enumerate(examples)),
    )
    return {"claims": n_claims, "pages": n_pages}


def write_nli(out: Path, examples: Sequence[Example]) -> dict[str, int]:
    """``out/nli/pairs.jsonl``: ``premise, hypothesis, label`` (int, MNLI order: ``labels.json``) and nothing
    else, so that sentence-transformers reads every other column as text; ids are in the side file, by line."""
    jsonl_file(
        out / "nli" / "pairs.jsonl",
        ({"premise": e.evidence, "hypothesis": e.claim, "label": NLI_IDS[e.label]} for e in examples),
    )
    write_json(out / "nli" / "labels.json", list(NLI_NAMES))
    jsonl_file(
        out / "nli" / META,
        ({"line": n + 1, "claimforge_id": e.id, "label": e.label.value} for n, e in enumerate(examples)),
    )
    return {"pairs": len(examples)}


def write_exports(out: Path, examples: Sequence[Example]) -> dict[str, dict[str, int]]:
    """Every default export of a build (lexical rationales, duplicate NEI claims dropped from SciFact). The
    evidence is split into sentences once for all of them; every file is written row by row as it is made."""
    corpus = Corpus.of(examples)
    return {
        "scifact": write_scifact(out, examples, corpus=corpus),
        "multivers": write_multivers(out, examples, corpus=corpus),
        "fever": write_fever(out, examples, corpus=corpus),
        "nli": write_nli(out, examples),
    }


# -- Hugging Face datasets ---------------------------------------------------------------------------------------

HF_LABELS = [lab.value for lab in Label]  # ClassLabel names, in the project's label order
# Licences of the sources the built-in readers know (docs: ../shared/data/README.md); anything else inherits the
# licence of the user's own data.
SOURCE_LICENCES = {
    "sciq": "cc-by-nc-3.0",
    "medmcqa": "mit",
    "citation-integrity": "unknown",
    "scifact": "cc-by-4.0",
    "medbullets": "unknown",
}
_PAPERS = {
    "multi2claim": "Multi2Claim (multiple-choice questions → claims)",
    "claimgen": "ClaimGen / KBIN (Wright et al., 2022)",
    "kbin": "KBIN negations (Wright et al., 2022)",
}


def export_hf(out: Path, examples: Sequence[Example], manifest: dict[str, Any]) -> dict[str, int]:
    """A ``datasets.DatasetDict`` (train / validation / test by source item) with ``label`` as a ``ClassLabel`` and
    ``provenance`` as one JSON string per row, saved with ``save_to_disk``, plus a dataset card ``README.md``."""
    import json

    from datasets import ClassLabel, Dataset, DatasetDict, Features, Value

    features = Features(
        {
            "id": Value("string"),
            "claim": Value("string"),
            "evidence": Value("string"),
            "evidence_id": Value("string"),
            "label": ClassLabel(names=HF_LABELS),
            "source_item_id": Value("string"),
            "method": Value("string"),
            "provenance": Value("string"),
        }
    )
    names = {"train": "train", "dev": "validation", "test": "test"}
    rows: dict[str, dict[str, list[Any]]] = {s: {k: [] for k in features} for s in names.values()}
    for e in examples:
        cols = rows[names[split_of(e)]]
        for k in ("id", "claim", "evidence", "evidence_id", "source_item_id", "method"):
            cols[k].append(getattr(e, k))
        cols["label"].append(e.label.value)
        cols["provenance"].append(json.dumps(e.provenance.model_dump(mode="json"), ensure_ascii=False, sort_keys=True))
    # an empty split is left out: `datasets` saves one with no shards and then cannot load it back
    data = DatasetDict({s: Dataset.from_dict(cols, features=features) for s, cols in rows.items() if cols["id"]})
    out.mkdir(parents=True, exist_ok=True)
    data.save_to_disk(str(out))
    counts = {s: len(cols["id"]) for s, cols in rows.items()}
    (out / "README.md").write_text(dataset_card(examples, manifest, counts), encoding="utf-8")
    return counts


def _size_category(n: int) -> str:
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "n>1M"


def dataset_card(examples: Sequence[Example], manifest: dict[str, Any], counts: dict[str, int]) -> str:
    """A dataset card with the Hugging Face template's sections, filled from the build's manifest."""
    pipeline = str(manifest.get("pipeline", examples[0].method if examples else "claimforge"))
    reader = (manifest.get("input") or {}).get("reader") or {}
    source = str(reader.get("name", "unknown"))
    licence = SOURCE_LICENCES.get(source, "other")
    by_label = {lab.value: sum(e.label == lab for e in examples) for lab in Label}
    rejected = (manifest.get("counts") or {}).get("items_rejected", "?")
    label_rows = "\n".join(f"| {name} | {n} |" for name, n in by_label.items())
    split_rows = "\n".join(f"| {name} | {n} |" for name, n in counts.items())
    return f"""---
license: {licence}
language:
- en
task_categories:
- text-classification
task_ids:
- fact-checking
- natural-language-inference
size_categories:
- {_size_category(len(examples))}
pretty_name: claimforge {pipeline} dataset from {source}
annotations_creators:
- machine-generated
language_creators:
- machine-generated
source_datasets:
- {source}
tags:
- scientific-fact-checking
- claimforge
---

# Dataset Card for the claimforge {pipeline} dataset built from {source}

## Dataset Details

### Dataset Description

Claims paired with evidence and a label (SUPPORTED, REFUTED, NOT_ENOUGH_INFO), generated automatically by
claimforge's {_PAPERS.get(pipeline, pipeline)} pipeline from `{reader.get("path", "?")}`. No person labelled them.

### Dataset Sources

- Built with: `{manifest.get("command", "")}` (claimforge {(manifest.get("versions") or {}).get("claimforge", "?")},
  started {manifest.get("started", "?")})
- Source data: `{source}` reader; {rejected} source items were rejected (reasons in the build's `rejects.jsonl`).

## Uses

### Direct Use

Training and evaluating claim verifiers (fact-checking, NLI-style cross-encoders) where labelled data is scarce.

### Out-of-Scope Use

Not a gold standard: labels come from the generation method, not from experts. Do not report a verifier's
accuracy on it as accuracy on real claims.

## Dataset Structure

Fields: `id`, `claim`, `evidence`, `evidence_id`, `label` (ClassLabel: {", ".join(HF_LABELS)}), `source_item_id`,
`method`, `provenance` (a JSON string: method, source file and line, component ids, parameters, details of the
generating step). Splits are by source item, so one item's examples never straddle splits.

| split | examples |
|---|---:|
{split_rows}

| label | examples |
|---|---:|
{label_rows}

## Dataset Creation

### Curation Rationale

Scientific fact-checking data needs experts to label; claimforge generates it from material that already exists.

### Source Data

#### Data Collection and Processing

See the pipeline's documentation in claimforge (`docs/`) and each row's `provenance`.

#### Who are the source data producers?

The authors of the source dataset `{source}`.

### Annotations

#### Annotation process

Automatic: the label follows from how the claim was made (e.g. the keyed answer vs a distractor, a knowledge-base
substitution, a passage without the claim's key entity).

#### Who are the annotators?

None (machine-generated).

#### Personal and Sensitive Information

Inherited from the source data; claimforge adds none.

## Bias, Risks, and Limitations

Generated labels contain errors; blind readings of samples are reported in claimforge's `docs/`. REFUTED claims
may be only unsupported rather than false, and NOT_ENOUGH_INFO evidence may occasionally support the claim.

### Recommendations

Read a sample before training on it (`claimforge quality sheet export`), and evaluate on a human-labelled benchmark.

## Citation

Cite the source dataset and the paper of the generation method.

## More Information

Licence: inherited from the source data ({licence}).
"""
