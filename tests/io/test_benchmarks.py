"""Benchmark task adapters: self-made files in each published format, and the real files' counts
(from ../shared/data/README.md) when that folder is present."""

from __future__ import annotations

import json
import shutil
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from claimforge import config
from claimforge.io.benchmarks import (
    DATA_ENV,
    ClaimsTask,
    RecordError,
    Task,
    default_data_dir,
    load_task,
    parse_label_map,
)
from claimforge.io.dataset import example_row
from claimforge.io.rows import InputError
from claimforge.records import Example, Label, Pair, Provenance, SourceRef
from claimforge.registry import RegistryError, registry

FIXTURES = Path(__file__).parent / "fixtures" / "benchmarks"
S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO


@pytest.fixture
def fixture_data(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The self-made files as the default data folder."""
    monkeypatch.setenv(DATA_ENV, str(FIXTURES))
    return FIXTURES


def copy_with(tmp_path: Path, rel: str, *extra_lines: str) -> Path:
    """A copy of a fixture file with lines appended (for malformed-record tests)."""
    dest = tmp_path / Path(rel).name
    shutil.copy(FIXTURES / rel, dest)
    with dest.open("a", encoding="utf-8") as f:
        for line in extra_lines:
            f.write(line + "\n")
    return dest


def label_counts(pairs: list[Pair]) -> dict[str, int]:
    return dict(Counter("|".join(lab.value for lab in p.labels) for p in pairs))


# --------------------------------------------------------------------------------------------------
# Registry and data folder


def test_registered_tasks() -> None:
    assert registry.names("task") == ["claimforge", "climate-fever", "covidfact", "healthver", "pairs", "scifact"]
    assert registry.entry("task", "scifact").help.startswith("SciFact (3-way)")
    with pytest.raises(RegistryError, match="unknown key 'no_such_key'"):
        load_task({"name": "scifact", "no_such_key": 1})


def test_default_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "anywhere"))
    assert default_data_dir() == tmp_path / "anywhere"
    monkeypatch.delenv(DATA_ENV)
    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")
    assert default_data_dir() == (tmp_path / "shared" / "data").resolve()
    (tmp_path / "elsewhere" / "deeper").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "elsewhere" / "deeper")  # no ../shared/data here; nor from an installed package
    monkeypatch.setattr(config, "_repo_root", lambda: None)
    assert default_data_dir() is None
    with pytest.raises(FileNotFoundError, match=rf"scifact/claims_train.jsonl.*'train'.*{DATA_ENV}"):
        load_task("scifact").load("train")


def test_repo_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    here = Path(config.__file__).resolve()
    if here.parents[0].name == "claimforge" and here.parents[1].name == "src":  # running from the checkout
        assert config._repo_root() == here.parents[2]
    installed = tmp_path / "venv" / "lib" / "python3.11" / "site-packages" / "claimforge" / "config.py"
    (tmp_path / "venv" / "pyproject.toml").parent.mkdir(parents=True)
    (tmp_path / "venv" / "pyproject.toml").write_text("[project]\nname = 'other'\n")
    monkeypatch.setattr(config, "__file__", str(installed))
    assert config._repo_root() is None


def test_missing_files_say_what_sets_them(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    with pytest.raises(
        FileNotFoundError, match=rf"covidfact/rte_dev.tsv: no such file; set config key 'dev'.*{DATA_ENV}"
    ):
        load_task("covidfact").load("dev")
    with pytest.raises(FileNotFoundError, match=r"nope.jsonl: no such file \(set by config key 'corpus'\)"):
        load_task(
            {"name": "scifact", "train": str(FIXTURES / "scifact/claims_train.jsonl"), "corpus": "nope.jsonl"}
        ).load("train")
    with pytest.raises(ValueError, match="no split 'test'"):
        load_task("covidfact").load("test")  # optional, and absent here


# --------------------------------------------------------------------------------------------------
# SciFact / HealthVer claim format


def test_scifact_pairs(fixture_data: Path) -> None:
    task = load_task("scifact")
    assert isinstance(task, Task) and (task.name, task.num_labels) == ("scifact", 3)
    assert task.splits() == ["train", "dev", "test"]  # test only because the file exists
    pairs = task.load("train")
    src = str(fixture_data / "scifact" / "claims_train.jsonl")
    assert [(p.id, p.labels, p.source) for p in pairs] == [
        ("scifact:train:1:11", (S,), f"{src}:1"),
        ("scifact:train:1:22", (N,), f"{src}:1"),  # cited, no evidence in it
        ("scifact:train:2:22", (R,), f"{src}:2"),  # CONTRADICT
        ("scifact:train:3:33", (R,), f"{src}:3"),  # REFUTE; doc 33 cited twice gives one pair
        ("scifact:train:4:33", (N,), f"{src}:5"),  # after a blank line
    ]
    assert pairs[0].claim == "Aspirin lowers fever in adults."
    assert pairs[0].evidence == (
        "Fever is common in adults.",  # stripped
        "We gave aspirin to 200 adults with fever.",
        "Aspirin lowered body temperature within two hours.",
    )
    assert task.rejects == []
    assert [p.id for p in task.load("dev")] == ["scifact:dev:10:11"]


def test_scifact_title_and_rationale(fixture_data: Path) -> None:
    task = load_task({"name": "scifact", "include_title": True, "rationale_only": True})
    by_id = {p.id: p for p in task.load("train")}
    assert by_id["scifact:train:1:11"].evidence == (
        "Aspirin and fever in adults",
        "We gave aspirin to 200 adults with fever.",  # rationale sentences 2 and 1, in abstract order
        "Aspirin lowered body temperature within two hours.",
    )
    # no rationale (NEI): the whole abstract
    assert by_id["scifact:train:1:22"].evidence == (
        "Vitamin C and the common cold",
        "BACKGROUND Colds are frequent.",
        "RESULTS Vitamin C did not shorten colds.",
    )


def test_scifact_unlabelled_test_file(fixture_data: Path) -> None:
    pairs = load_task("scifact").load("test")
    assert [(p.id, p.labels, len(p.evidence)) for p in pairs] == [
        ("scifact:test:20", (), 0),  # the open-retrieval test file cites nothing
        ("scifact:test:21:11", (), 3),
    ]


def claim_line(evidence: str = "{}", cited: str = "[11]", claim: str = '"x"', claim_id: int = 5) -> str:
    return f'{{"id": {claim_id}, "claim": {claim}, "evidence": {evidence}, "cited_doc_ids": {cited}}}'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (claim_line()[:-1], "invalid JSON"),
        (claim_line(cited="[99]"), "unknown doc id 99"),
        ('{"id": 5, "evidence": {}, "cited_doc_ids": [11]}', "missing field 'claim'"),
        ('{"id": 5, "claim": "x", "evidence": {}}', "missing field 'cited_doc_ids'"),
        (claim_line('{"11": [{"sentences": [0], "label": "SUPPORTS"}]}'), "unknown label 'SUPPORTS'"),
        (
            claim_line('{"11": [{"sentences": [7], "label": "SUPPORT"}]}'),
            "sentence index 7 out of range for 3 sentences",
        ),
        (
            claim_line('{"22": [{"sentences": [0], "label": "SUPPORT"}]}'),
            "evidence for doc 22, which the claim does not cite",
        ),
        (claim_line(claim_id=1), "duplicate pair id 'scifact:train:1:11'"),
        (claim_line(claim="null"), "field 'claim': expected text, got NoneType"),
    ],
)
def test_scifact_bad_records(tmp_path: Path, line: str, message: str) -> None:
    path = copy_with(tmp_path, "scifact/claims_train.jsonl", line)
    spec = {"name": "scifact", "train": str(path), "corpus": str(FIXTURES / "scifact/corpus.jsonl")}
    with pytest.raises(RecordError, match=rf"^{path}:6: .*{message}") as err:
        load_task(spec).load("train")
    assert isinstance(err.value, InputError) and err.value.source == f"{path}:6"
    task = load_task({**spec, "skip_bad": True})
    assert len(task.load("train")) == 5
    assert [s for s, _ in task.rejects] == [f"{path}:6"] and message.split("'")[0] in task.rejects[0][1]


def test_scifact_bad_corpus_line(tmp_path: Path) -> None:
    corpus = copy_with(tmp_path, "scifact/corpus.jsonl", '{"doc_id": 44, "abstract": "not a list"}')
    spec = {
        "name": "scifact",
        "corpus": str(corpus),
        "skip_bad": True,
        "dev": str(FIXTURES / "scifact/claims_dev.jsonl"),
    }
    with pytest.raises(RecordError, match=rf"^{corpus}:4: field 'abstract'"):
        load_task(spec).load("dev")  # the corpus is no split's record: it always raises


def test_healthver_claims(fixture_data: Path) -> None:
    task = load_task("healthver")
    assert task.splits() == ["train", "dev"]
    pairs = task.load("train")
    assert [(p.id, p.labels) for p in pairs] == [
        ("healthver:train:0:0", (S,)),
        ("healthver:train:0:1", (N,)),
        ("healthver:train:1:1", (R,)),
    ]
    assert pairs[0].claim == "A face covering can stop asymptomatic carriers from spreading the virus"
    assert task.rejects == [(f"{fixture_data}/healthver/claims_train.jsonl:3", "cites no documents")]
    assert [p.id for p in task.load("dev")] == ["healthver:dev:3:0"]


def test_healthver_pairs_csv(fixture_data: Path) -> None:
    task = load_task({"name": "healthver", "format": "pairs"})
    assert task.splits() == ["dev"]
    pairs = task.load("dev")
    src = f"{fixture_data}/healthver/healthver_dev_pairs.csv"
    assert [(p.id, p.labels, p.source) for p in pairs] == [
        ("healthver:dev:224", (N,), f"{src}:2"),
        ("healthver:dev:3354", (R,), f"{src}:3"),
        ("healthver:dev:3501", (S,), f"{src}:4"),
    ]
    assert pairs[0].evidence == ("Covid19 infection began in Wuhan (Hubei, China) in December, 2019.",)
    assert pairs[1].evidence == (
        "Low vitamin D levels are associated with pneumonia.",
        "Supplements would offer an easy option to decrease the impact of the pandemic.",
    )
    assert pairs[1].claim == "Vitamin D appears increase COVID-19 mortality rates"
    train = str(FIXTURES / "healthver/healthver_dev_pairs.csv")
    assert load_task({"name": "healthver", "format": "pairs", "train": train}).splits() == ["train", "dev"]
    with pytest.raises(RegistryError, match="corpus, rationale_only: only for format 'claims'"):
        load_task({"name": "healthver", "format": "pairs", "corpus": "c.jsonl", "rationale_only": True})


def test_healthver_pairs_unknown_label(tmp_path: Path) -> None:
    path = copy_with(tmp_path, "healthver/healthver_dev_pairs.csv", "9,Some evidence.,A claim,Supported,1,q")
    with pytest.raises(RecordError, match=rf"^{path}:5: unknown label 'Supported'"):
        load_task({"name": "healthver", "format": "pairs", "dev": str(path)}).load("dev")


# --------------------------------------------------------------------------------------------------
# COVID-Fact


def test_covidfact(fixture_data: Path) -> None:
    task = load_task("covidfact")
    assert (task.num_labels, task.splits()) == (2, ["train", "dev"])
    pairs = task.load("train")
    src = f"{fixture_data}/covidfact/rte_train.tsv"
    assert [(p.id, p.labels, p.source) for p in pairs] == [
        ("covidfact:train:0", (S,), f"{src}:2"),
        ("covidfact:train:1", (R,), f"{src}:3"),
        ("covidfact:train:2", (R,), f"{src}:4"),
    ]
    assert pairs[0].evidence == (
        "Anthony Fauci said 100,000 to 200,000 people may die from COVID-19 in the U.S. > He spoke on Sunday.",
    )
    assert pairs[2].claim == "northern italy to 'quarantine 16\" people '"  # csv-quoted, quotes doubled
    dev = task.load("dev")  # its header calls the label column "entailment"
    assert [(p.id, p.labels) for p in dev] == [("covidfact:dev:0", (S,)), ("covidfact:dev:1", (R,))]


def test_covidfact_bad_rows(tmp_path: Path) -> None:
    path = copy_with(tmp_path, "covidfact/rte_train.tsv", "3\tSome evidence.\tA claim", "4\tEvidence.\tClaim\tneutral")
    with pytest.raises(RecordError, match=rf"^{path}:5: expected 4 fields, got 3"):
        load_task({"name": "covidfact", "train": str(path)}).load("train")
    task = load_task({"name": "covidfact", "train": str(path), "skip_bad": True})
    assert len(task.load("train")) == 3
    assert task.rejects == [
        (f"{path}:5", "expected 4 fields, got 3"),
        (f"{path}:6", "unknown label 'neutral' (known: entailment, not entailment)"),
    ]
    headless = tmp_path / "rte_x.tsv"
    headless.write_text("index\tevidence\tclaim\tlabel\n0\te\tc\tentailment\n")
    with pytest.raises(InputError, match=r"columns \['Sentence2', 'sentence1'\] not in the header"):
        load_task({"name": "covidfact", "train": str(headless)}).load("train")


# --------------------------------------------------------------------------------------------------
# Climate-FEVER


def test_climate_fever_claims(fixture_data: Path) -> None:
    task = load_task("climate-fever")
    assert task.splits() == ["test"]
    pairs = task.load("test")
    src = f"{fixture_data}/climate-fever/climate-fever.jsonl"
    assert [(p.id, p.labels, p.source, len(p.evidence)) for p in pairs] == [
        ("climate-fever:test:0", (S,), f"{src}:1", 5),
        ("climate-fever:test:6", (R,), f"{src}:3", 5),
        ("climate-fever:test:9", (N,), f"{src}:4", 5),
    ]
    assert (
        pairs[0].evidence[0] == '"Recent Research Shows Human Activity Driving Earth Towards Global Extinction Event".'
    )
    assert task.rejects == [(f"{src}:2", "disputed")]  # 4 claims in = 3 pairs + 1 reject
    included = load_task({"name": "climate-fever", "include_disputed": True, "disputed_as": "NOT_ENOUGH_INFO"})
    assert [(p.id, p.labels) for p in included.load("test")][1] == ("climate-fever:test:5", (N,))
    assert included.rejects == []
    with pytest.raises(RegistryError, match="include_disputed needs disputed_as"):
        load_task({"name": "climate-fever", "include_disputed": True})
    with pytest.raises(RegistryError, match="disputed_as is set but include_disputed is not"):
        load_task({"name": "climate-fever", "disputed_as": "REFUTED"})


def test_climate_fever_evidence_unit(fixture_data: Path) -> None:
    task = load_task({"name": "climate-fever", "unit": "evidence"})
    pairs = task.load("test")
    assert len(pairs) == 15 and len(task.rejects) == 1
    assert [(p.id, p.labels) for p in pairs[:2]] == [("climate-fever:test:0:0", (N,)), ("climate-fever:test:0:1", (S,))]
    assert pairs[1].evidence == (
        "Environmental impacts include the extinction or relocation of many species as their ecosystems change, "
        "most immediately the environments of coral reefs, mountains, and the Arctic.",
    )
    assert label_counts(pairs) == {"NOT_ENOUGH_INFO": 11, "SUPPORTED": 2, "REFUTED": 2}
    everything = load_task({"name": "climate-fever", "unit": "evidence", "include_disputed": True})
    assert len(everything.load("test")) == 20


def test_climate_fever_bad_lines(tmp_path: Path) -> None:
    bad_label = {"claim_id": "12", "claim": "c", "claim_label": "SUPPORTED", "evidences": []}
    bad_evidence = {
        "claim_id": "13",
        "claim": "c",
        "claim_label": "SUPPORTS",
        "evidences": [{"evidence_id": "a:1", "evidence_label": "DISPUTED", "evidence": "e"}],
    }
    path = copy_with(tmp_path, "climate-fever/climate-fever.jsonl", json.dumps(bad_label), json.dumps(bad_evidence))
    with pytest.raises(RecordError, match=rf"^{path}:5: unknown claim_label 'SUPPORTED'"):
        load_task({"name": "climate-fever", "path": str(path)}).load("test")
    task = load_task({"name": "climate-fever", "path": str(path), "skip_bad": True})
    assert len(task.load("test")) == 3
    assert [r[0] for r in task.rejects] == [f"{path}:2", f"{path}:5", f"{path}:6"]
    assert (
        task.rejects[2][1]
        == "evidences[0]: unknown evidence_label 'DISPUTED' (expected SUPPORTS, REFUTES or NOT_ENOUGH_INFO)"
    )


# --------------------------------------------------------------------------------------------------
# Generic pairs


@pytest.mark.parametrize(
    ("name", "first_line"), [("sample.jsonl", 1), ("sample.json", 2), ("sample.csv", 2), ("sample.tsv", 2)]
)
def test_pairs_formats(name: str, first_line: int) -> None:
    path = FIXTURES / "pairs" / name
    task = load_task({"name": "pairs", "test": str(path), "id_field": "id", "dataset": "water"})
    assert (task.name, task.splits()) == ("water", ["test"])
    pairs = task.load("test")
    assert [(p.id, p.labels, p.source) for p in pairs] == [
        ("water:test:a1", (S,), f"{path}:{first_line}"),
        ("water:test:a2", (R,), f"{path}:{first_line + 1}"),
        ("water:test:a3", (N,), f"{path}:{first_line + 2}"),
        ("water:test:a4", (R, N), f"{path}:{first_line + 3}"),  # not_entailment in a 3-way space
    ]
    assert pairs[0].evidence == ("At sea level, water boils at 100 C.", "At altitude it boils at lower temperatures.")
    assert pairs[3].label is None


def test_pairs_options(tmp_path: Path) -> None:
    path = FIXTURES / "pairs" / "sample.jsonl"
    binary = load_task({"name": "pairs", "dev": str(path), "num_labels": 2})
    pairs = binary.load("dev")
    assert [p.id for p in pairs] == ["pairs:dev:1", "pairs:dev:2", "pairs:dev:3", "pairs:dev:4"]  # line numbers
    assert pairs[3].labels == (R,)
    mapped = load_task(
        {
            "name": "pairs",
            "train": str(path),
            "evidence_field": ["evidence", "claim"],
            "label_map": {"not_entailment": "NOT_ENOUGH_INFO", "SUPPORTS": "REFUTED|SUPPORTED"},
        }
    ).load("train")
    assert mapped[0].labels == (R, S) and mapped[3].labels == (N,)
    assert mapped[2].evidence == ("Water absorbs red light.", "Water is blue because of the sky.")
    other = tmp_path / "rows.txt"
    other.write_text("c\te\tl\nA claim.\tAn evidence.\tTRUE\n")
    fmt = load_task(
        {
            "name": "pairs",
            "test": str(other),
            "format": "tsv",
            "claim_field": "c",
            "evidence_field": "e",
            "label_field": "l",
        }
    )
    assert fmt.load("test")[0].labels == (S,)
    with pytest.raises(InputError, match="cannot tell the format from '.txt'"):
        load_task({"name": "pairs", "test": str(other)}).load("test")
    typed = tmp_path / "typed.jsonl"
    typed.write_text(
        '{"claim": "c", "evidence": ["s1", "s2"], "label": false}\n{"claim": "c", "evidence": "e", "label": 0}\n'
    )
    numbered = load_task({"name": "pairs", "test": str(typed), "label_map": {"0": "SUPPORTED"}}).load("test")
    assert [(p.evidence, p.labels) for p in numbered] == [(("s1", "s2"), (R,)), (("e",), (S,))]
    unlabelled = load_task({"name": "pairs", "test": str(path), "label_field": None}).load("test")
    assert all(p.labels == () for p in unlabelled)


def test_pairs_config_errors() -> None:
    with pytest.raises(RegistryError, match="at least one of 'train', 'dev', 'test'"):
        load_task("pairs")
    with pytest.raises(RegistryError, match="label map value 'WRONG'"):
        load_task({"name": "pairs", "dev": "x.jsonl", "label_map": {"x": "WRONG"}})
    assert parse_label_map({}, 2)["not entailment"] == (R,)
    assert parse_label_map({}, 3)["not entailment"] == (R, N)


def test_pairs_bad_records(tmp_path: Path) -> None:
    path = copy_with(
        tmp_path,
        "pairs/sample.jsonl",
        '{"id": "a5", "claim": "c", "evidence": "e", "label": "maybe"}',
        '{"id": "a6", "claim": "", "evidence": "e", "label": "true"}',
        '{"id": "a7", "claim": "c", "evidence": "", "label": "true"}',
        '{"id": "a1", "claim": "c", "evidence": "e", "label": "true"}',
        '["not", "an", "object"]',
    )
    spec = {"name": "pairs", "test": str(path), "id_field": "id"}
    with pytest.raises(RecordError, match=rf"^{path}:5: unknown label 'maybe' \(known: contradict, "):
        load_task(spec).load("test")
    task = load_task({**spec, "skip_bad": True})
    assert len(task.load("test")) == 4
    assert task.rejects[1:] == [
        (f"{path}:6", "field 'claim' is empty"),
        (f"{path}:7", "empty evidence"),
        (f"{path}:8", "duplicate pair id 'pairs:test:a1'"),
        (f"{path}:9", "expected a JSON object, got list"),
    ]


# --------------------------------------------------------------------------------------------------
# claimforge builds


def write_build(out: Path, n_items: int = 40) -> None:
    """examples.jsonl as ``claimforge build`` writes it: three examples per source question."""
    rows = []
    for i in range(n_items):
        for label in (S, R, N):
            ref = SourceRef(dataset="sciq", path="train.json", line=i + 1, item_id=f"sciq:train:{i}")
            rows.append(
                example_row(
                    Example(
                        id=f"sciq:train:{i}#{label.value[0]}",
                        claim=f"Claim {i} {label.value}.",
                        evidence=f"First sentence {i}. Second sentence {i}.",
                        evidence_id=f"e{i}",
                        label=label,
                        source_item_id=f"sciq:train:{i}",
                        method="m",
                        provenance=Provenance(method="m", method_version="0", source=ref),
                    )
                )
            )
    out.mkdir(parents=True, exist_ok=True)
    (out / "examples.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_claimforge_build_splits(tmp_path: Path) -> None:
    write_build(tmp_path / "build")
    task = load_task({"name": "claimforge", "path": str(tmp_path / "build"), "dev_fraction": 0.25})
    assert task.splits() == ["train", "dev", "all"]
    everything, train, dev = task.load("all"), task.load("train"), task.load("dev")
    assert len(everything) == 120 and len(train) + len(dev) == 120 and 0 < len(dev) < len(train)
    assert {p.id for p in train} | {p.id for p in dev} == {p.id for p in everything}
    groups: dict[str, set[str]] = defaultdict(set)
    for split, pairs in (("train", train), ("dev", dev)):
        for p in pairs:
            groups[p.id.split("#")[0]].add(split)
    assert all(len(sides) == 1 for sides in groups.values())  # one source question, one side
    first = everything[0]
    assert first.id == "claimforge:sciq:train:0#S" and first.labels == (S,)
    assert first.evidence == ("First sentence 0.", "Second sentence 0.")
    assert first.source == f"{tmp_path / 'build' / 'examples.jsonl'}:1"
    again = load_task({"name": "claimforge", "path": str(tmp_path / "build/examples.jsonl"), "dev_fraction": 0.25})
    assert again.load("dev") == dev  # deterministic, from the folder or its file
    reseeded = load_task({"name": "claimforge", "path": str(tmp_path / "build"), "dev_fraction": 0.25, "split_seed": 1})
    assert {p.id for p in reseeded.load("dev")} != {p.id for p in dev}
    assert load_task({"name": "claimforge", "path": str(tmp_path / "build"), "dev_fraction": 0.0}).load("dev") == []


def test_claimforge_bad_lines(tmp_path: Path) -> None:
    write_build(tmp_path, n_items=1)
    path = tmp_path / "examples.jsonl"
    with path.open("a") as f:
        f.write('{"id": "x", "claim": "c", "evidence": "e", "label": "MAYBE", "source_item_id": "s"}\n')
    with pytest.raises(RecordError, match=rf"^{path}:4: unknown label 'MAYBE'"):
        load_task({"name": "claimforge", "path": str(tmp_path)}).load("all")
    task = load_task({"name": "claimforge", "path": str(tmp_path), "skip_bad": True})
    assert len(task.load("all")) == 3 and len(task.rejects) == 1


# --------------------------------------------------------------------------------------------------
# The real files (counts from ../shared/data/README.md)


def claim_level(pairs: list[Pair]) -> Counter[str]:
    """SciFact's claim labels from the pairs: SUPPORT / CONTRADICT if some cited abstract says so, else NEI."""
    by_claim: dict[str, set[Label]] = defaultdict(set)
    for p in pairs:
        by_claim[p.id.rsplit(":", 1)[0]].update(p.labels)
    names = {S: "SUPPORT", R: "CONTRADICT"}
    return Counter("+".join(sorted(names[lab] for lab in labs if lab in names)) or "NEI" for labs in by_claim.values())


@pytest.fixture
def real_data(shared_data: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Path]:
    """``real_data("scifact")``: the shared data folder as the default (skip if that benchmark is absent)."""

    def use(folder: str) -> Path:
        root = Path(shared_data(folder)).parent
        monkeypatch.setenv(DATA_ENV, str(root))
        return root

    return use


def test_real_scifact(real_data: Callable[[str], Path]) -> None:
    real_data("scifact")
    task = load_task("scifact")
    train, dev = task.load("train"), task.load("dev")
    assert claim_level(train) == {"SUPPORT": 332, "CONTRADICT": 173, "NEI": 304}  # 809 claims
    assert claim_level(dev) == {"SUPPORT": 124, "CONTRADICT": 64, "NEI": 112}  # 300 claims
    # One pair per cited abstract: 919 = 370 SUPPORT + 194 CONTRADICT + 355 NEI (330 from NEI claims, 25
    # uncited-evidence abstracts of labelled claims); dev claim 1245 cites one abstract twice (one pair).
    assert label_counts(train) == {"SUPPORTED": 370, "REFUTED": 194, "NOT_ENOUGH_INFO": 355}
    assert label_counts(dev) == {"SUPPORTED": 138, "REFUTED": 71, "NOT_ENOUGH_INFO": 130}
    assert isinstance(task, ClaimsTask) and len(task.corpus()) == 5183 and task.rejects == []


def test_real_healthver(real_data: Callable[[str], Path]) -> None:
    root = real_data("healthver")
    task = load_task("healthver")
    train = task.load("train")
    train_rejects = task.rejects  # those of the last load
    dev = task.load("dev")
    # 1,393 train claims: 1,392 with pairs + claim 867, which cites no abstract
    assert len({p.id.rsplit(":", 1)[0] for p in train}) == 1392
    assert train_rejects == [(f"{root}/healthver/claims_train.jsonl:868", "cites no documents")]
    assert label_counts(train) == {"SUPPORTED": 2084, "REFUTED": 1256, "NOT_ENOUGH_INFO": 1952}
    assert len({p.id.rsplit(":", 1)[0] for p in dev}) == 230
    assert label_counts(dev) == {"SUPPORTED": 300, "REFUTED": 208, "NOT_ENOUGH_INFO": 432}
    csv_pairs = load_task({"name": "healthver", "format": "pairs"}).load("dev")
    assert len(csv_pairs) == 1917
    assert label_counts(csv_pairs) == {"SUPPORTED": 533, "REFUTED": 391, "NOT_ENOUGH_INFO": 993}


def test_real_covidfact(real_data: Callable[[str], Path]) -> None:
    real_data("covidfact")
    task = load_task("covidfact")
    train, dev = task.load("train"), task.load("dev")
    assert label_counts(train) == {"SUPPORTED": 1036, "REFUTED": 2227}  # 3,263
    assert label_counts(dev) == {"SUPPORTED": 130, "REFUTED": 289}  # 419
    assert len({p.id for p in train}) == 3263 and task.rejects == []
    quoted = next(p for p in train if p.id == "covidfact:train:441")  # the one csv-quoted field
    assert quoted.claim == "northern italy to 'quarantine 16\" people '"
