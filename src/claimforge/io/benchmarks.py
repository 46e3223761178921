"""Claim-verification benchmarks as tasks: named adapters (kind ``"task"``) that read a benchmark's published
files into :class:`Pair` records; ``load_task("scifact").load("dev")``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import Field, field_validator, model_validator

from claimforge.config import DATA_ENV, default_data_dir
from claimforge.io.rows import InputError, iter_csv_records, iter_json_records, normalize_text
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Label, Pair
from claimforge.registry import ComponentConfig, registry

__all__ = [
    "DATA_ENV",
    "ClaimforgeConfig",
    "ClaimforgeTask",
    "ClaimsConfig",
    "ClaimsTask",
    "ClimateFeverConfig",
    "ClimateFeverTask",
    "CovidFactConfig",
    "HealthVerConfig",
    "PairsConfig",
    "PairsTask",
    "RecordError",
    "Task",
    "default_data_dir",
    "in_dev",
    "load_task",
    "parse_label_map",
]

# --------------------------------------------------------------------------------------------------
# Where the files are (the data folder is found by claimforge.config.default_data_dir)


@dataclass(frozen=True)
class _File:
    """One input file: the path set by config ``key``, else ``default`` under the data folder.

    ``optional`` files (a test split the release may lack) are listed as splits only when present."""

    key: str
    configured: str | None
    default: str | None = None
    optional: bool = False

    def listed(self) -> bool:
        if self.configured is not None:
            return True
        if self.default is None:
            return False
        if not self.optional:
            return True
        base = default_data_dir()
        return base is not None and (base / self.default).is_file()

    def path(self) -> Path:
        if self.configured is not None:
            path = Path(self.configured)
            if not path.exists():
                raise FileNotFoundError(f"{path}: no such file (set by config key {self.key!r})")
            return path
        if self.default is None:
            raise FileNotFoundError(f"no file configured: set config key {self.key!r}")
        base = default_data_dir()
        if base is None:
            raise FileNotFoundError(
                f"{self.default}: no data folder to find it in; set config key {self.key!r}, or env {DATA_ENV} "
                "to the folder holding it (../shared/data was not found)"
            )
        path = base / self.default
        if not path.exists():
            raise FileNotFoundError(
                f"{path}: no such file; set config key {self.key!r}, or env {DATA_ENV} to a folder "
                f"holding {self.default}"
            )
        return path


# --------------------------------------------------------------------------------------------------
# Records and errors


class RecordError(InputError):
    """A malformed input record; the message starts with ``path:line``, the ``source`` a good record's
    Pair would have had."""

    def __init__(self, path: str | Path, line: int | None, detail: str) -> None:
        super().__init__(path, f"line {line}" if line is not None else None, detail)
        self.line = line
        self.source = _source(path, line)
        self.args = (f"{self.source}: {detail}",)


class _Bad(Exception):
    """A record that cannot become pairs: an error, or (with ``skip_bad``) a reject."""


class _Excluded(Exception):
    """A well-formed record the task leaves out by design (Climate-FEVER's DISPUTED, a claim citing no
    abstract): a reject whether or not ``skip_bad`` is set."""


class _RawRecord(Protocol):
    """What the readers in :mod:`claimforge.io.mcq` yield per record."""

    line: int | None
    data: dict[str, Any] | None
    error: str | None


def _source(path: str | Path, line: int | None) -> str:
    return f"{path}:{line}" if line is not None else str(path)


def _field(data: Mapping[str, Any], name: str) -> Any:
    if name not in data:
        raise _Bad(f"missing field {name!r}")
    return data[name]


def _text(data: Mapping[str, Any], name: str) -> str:
    """A non-empty text field, whitespace collapsed (numbers are read as text: CSV cells, numeric ids)."""
    value = _field(data, name)
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise _Bad(f"field {name!r}: expected text, got {type(value).__name__}")
    text = normalize_text(str(value))
    if not text:
        raise _Bad(f"field {name!r} is empty")
    return text


def _key(value: Any, what: str) -> str:
    """An id as text: ints and non-empty strings (a float or a list id would not be stable)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise _Bad(f"{what}: expected an integer or a non-empty string, got {value!r}")


def _sentences(value: Any, what: str) -> list[str]:
    """Evidence as sentences: a passage is split (the project's splitter), a list is kept."""
    if isinstance(value, str):
        return split_sentences(value)
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return [normalize_text(s) for s in value]
    raise _Bad(f"field {what!r}: expected text or a list of sentences, got {type(value).__name__}")


# --------------------------------------------------------------------------------------------------
# Tasks


class Task:
    """A benchmark: its splits, each loaded as a list of pairs in file order.

    ``rejects`` holds ``(source, reason)`` for the records the last :meth:`load` left out: malformed ones
    when ``skip_bad`` is set (otherwise they raise :class:`RecordError`), and those excluded by design.
    Each input record gives its pairs or one reject, so records in = records with pairs + rejects.
    """

    name: str = ""
    num_labels: int = 3

    def __init__(self) -> None:
        self.rejects: list[tuple[str, str]] = []

    def splits(self) -> list[str]:
        raise NotImplementedError

    def load(self, split: str) -> list[Pair]:
        raise NotImplementedError

    def _check_split(self, split: str) -> None:
        if split not in self.splits():
            raise ValueError(f"task {self.name!r} has no split {split!r} (splits: {', '.join(self.splits())})")

    def _collect(
        self,
        path: Path,
        records: Iterable[_RawRecord],
        convert: Callable[[dict[str, Any], str, int | None], list[Pair]],
        skip_bad: bool,
    ) -> list[Pair]:
        """Convert each record (``convert(data, source, line)``) into pairs; bad ones raise or become rejects."""
        pairs: list[Pair] = []
        rejects: list[tuple[str, str]] = []
        seen: set[str] = set()
        for rec in records:
            source = _source(path, rec.line)
            try:
                if rec.data is None:
                    raise _Bad(rec.error or "no data")
                new = convert(rec.data, source, rec.line)
                ids = [p.id for p in new]
                dupes = sorted({i for i in ids if i in seen or ids.count(i) > 1})
                if dupes:  # two records claiming one id would make scores and joins ambiguous
                    raise _Bad(f"duplicate pair id {dupes[0]!r}")
            except _Excluded as e:
                rejects.append((source, str(e)))
                continue
            except _Bad as e:
                if not skip_bad:
                    raise RecordError(path, rec.line, str(e)) from None
                rejects.append((source, str(e)))
                continue
            seen.update(ids)
            pairs.extend(new)
        self.rejects = rejects
        return pairs

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, splits={self.splits()})"


def load_task(spec: str | Mapping[str, Any]) -> Task:
    """A task from a registry spec: ``"scifact"`` or ``{"name": "covidfact", "dev": "path/to/rte_dev.tsv"}``."""
    task: Task = registry.build("task", spec)
    return task


# --------------------------------------------------------------------------------------------------
# SciFact / MultiVerS claim format (SciFact, HealthVer, Citation-Integrity, claimforge's scifact export)


SCIFACT_LABELS = {"SUPPORT": Label.SUPPORTED, "CONTRADICT": Label.REFUTED, "REFUTE": Label.REFUTED}


class ClaimsConfig(ComponentConfig):
    train: str | None = None  # claims files; None: the release's file under the data folder
    dev: str | None = None
    test: str | None = None
    corpus: str | None = None
    include_title: bool = False  # evidence starts with the abstract's title
    rationale_only: bool = False  # evidence = the rationale sentences, when the pair has any
    skip_bad: bool = False


@dataclass(frozen=True)
class _Doc:
    title: str
    sentences: tuple[str, ...]


class ClaimsTask(Task):
    """Claims in the SciFact / MultiVerS format, each paired with each abstract it cites (oracle abstracts).

    A claim line ``{id, claim, evidence: {doc_id: [{sentences, label}]}, cited_doc_ids}`` (MultiVerS:
    ``doc_ids``) gives one pair per cited document, id ``{task}:{split}:{claim id}:{doc id}``, labelled
    with that document's evidence label (SUPPORT; CONTRADICT or REFUTE) or NOT_ENOUGH_INFO when the claim
    has no evidence in it. A labelled claim citing no document (HealthVer train claim 867) is a reject,
    "cites no documents". A claim without ``evidence`` (a test file) gives unlabelled pairs, or, when it
    cites nothing either (SciFact's open-retrieval test file), one pair ``{task}:{split}:{claim id}`` with
    no evidence. A malformed corpus line always raises: it is not a record of any split.
    """

    num_labels = 3

    def __init__(self, name: str, config: ClaimsConfig, folder: str) -> None:
        super().__init__()
        self.name = name
        self.config = config
        self.files = {
            "train": _File("train", config.train, f"{folder}/claims_train.jsonl"),
            "dev": _File("dev", config.dev, f"{folder}/claims_dev.jsonl"),
            "test": _File("test", config.test, f"{folder}/claims_test.jsonl", optional=True),
        }
        self.corpus_file = _File("corpus", config.corpus, f"{folder}/corpus.jsonl")
        self._corpus: dict[str, _Doc] | None = None

    def splits(self) -> list[str]:
        return [s for s, f in self.files.items() if f.listed()]

    def load(self, split: str) -> list[Pair]:
        self._check_split(split)
        path = self.files[split].path()
        corpus = self.corpus()
        return self._collect(
            path,
            iter_json_records(path),
            lambda data, source, _line: self._pairs(data, split, source, corpus),
            self.config.skip_bad,
        )

    def corpus(self) -> dict[str, _Doc]:
        """Abstracts by doc id (as text: claim files key evidence by string ids), read once per task."""
        if self._corpus is None:
            path = self.corpus_file.path()
            docs: dict[str, _Doc] = {}
            for rec in iter_json_records(path):
                try:
                    if rec.data is None:
                        raise _Bad(rec.error or "no data")
                    doc_id, doc = _doc(rec.data)
                    if doc_id in docs:
                        raise _Bad(f"duplicate doc_id {doc_id}")
                except _Bad as e:
                    raise RecordError(path, rec.line, str(e)) from None
                docs[doc_id] = doc
            self._corpus = docs
        return self._corpus

    def _pairs(self, data: dict[str, Any], split: str, source: str, corpus: dict[str, _Doc]) -> list[Pair]:
        claim_id = _key(_field(data, "id"), "field 'id'")
        claim = _text(data, "claim")
        labelled = "evidence" in data
        evidence = data.get("evidence", {})
        if not isinstance(evidence, dict):
            raise _Bad(f"field 'evidence': expected an object {{doc_id: [...]}}, got {type(evidence).__name__}")
        cited = _cited(data, labelled)
        if not cited:
            if labelled:  # nothing to check it against; MultiVerS makes no instance of it either
                raise _Excluded("cites no documents")
            return [Pair(id=f"{self.name}:{split}:{claim_id}", claim=claim, evidence=(), source=source)]
        uncited = sorted(set(evidence) - set(cited))
        if uncited:  # its label would otherwise be lost without a trace
            raise _Bad(f"evidence for doc {uncited[0]}, which the claim does not cite")
        pairs = []
        for doc_id in cited:
            doc = corpus.get(doc_id)
            if doc is None:
                raise _Bad(f"unknown doc id {doc_id} (not in {self.corpus_file.path()})")
            label, rationale = _doc_label(evidence.get(doc_id), len(doc.sentences), doc_id)
            sentences = doc.sentences
            if self.config.rationale_only and rationale:
                sentences = tuple(doc.sentences[i] for i in rationale)
            if self.config.include_title and doc.title:
                sentences = (doc.title, *sentences)
            pairs.append(
                Pair(
                    id=f"{self.name}:{split}:{claim_id}:{doc_id}",
                    claim=claim,
                    evidence=sentences,
                    labels=(label,) if labelled else (),
                    source=source,
                )
            )
        return pairs


def _doc(data: dict[str, Any]) -> tuple[str, _Doc]:
    doc_id = _key(_field(data, "doc_id"), "field 'doc_id'")
    abstract = _field(data, "abstract")
    if not isinstance(abstract, list) or not all(isinstance(s, str) for s in abstract):
        raise _Bad("field 'abstract': expected a list of sentences")
    title = data.get("title") or ""
    if not isinstance(title, str):
        raise _Bad(f"field 'title': expected text, got {type(title).__name__}")
    # Sentences are kept even if empty: rationale indices point into this list.
    return doc_id, _Doc(normalize_text(title), tuple(normalize_text(s) for s in abstract))


def _cited(data: dict[str, Any], labelled: bool) -> list[str]:
    """The cited doc ids in order, each once (SciFact dev claim 1245 cites one document twice)."""
    field = "cited_doc_ids" if "cited_doc_ids" in data else "doc_ids"
    if field not in data:
        if labelled:
            raise _Bad("missing field 'cited_doc_ids' (or MultiVerS 'doc_ids')")
        return []
    ids = data[field]
    if not isinstance(ids, list):
        raise _Bad(f"field {field!r}: expected a list of doc ids, got {type(ids).__name__}")
    return list(dict.fromkeys(_key(d, f"field {field!r}") for d in ids))


def _doc_label(sets: Any, n_sentences: int, doc_id: str) -> tuple[Label, list[int]]:
    """The label of one cited document and its rationale sentences (sorted), from its evidence sets."""
    if not sets:
        return Label.NOT_ENOUGH_INFO, []
    if not isinstance(sets, list) or not all(isinstance(s, dict) for s in sets):
        raise _Bad(f"evidence for doc {doc_id}: expected a list of {{sentences, label}} objects")
    labels: set[Label] = set()
    rationale: set[int] = set()
    for ev in sets:
        raw = ev.get("label")
        if raw not in SCIFACT_LABELS:
            raise _Bad(f"evidence for doc {doc_id}: unknown label {raw!r} (expected SUPPORT, CONTRADICT or REFUTE)")
        labels.add(SCIFACT_LABELS[raw])
        sentences = ev.get("sentences")
        if not isinstance(sentences, list):
            raise _Bad(f"evidence for doc {doc_id}: 'sentences' must be a list of sentence indices")
        for i in sentences:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < n_sentences:
                raise _Bad(f"evidence for doc {doc_id}: sentence index {i!r} out of range for {n_sentences} sentences")
            rationale.add(i)
    if len(labels) > 1:
        raise _Bad(f"evidence for doc {doc_id}: conflicting labels {sorted(lab.value for lab in labels)}")
    return labels.pop(), sorted(rationale)


@registry.register("task", "scifact", ClaimsConfig)
def scifact_task(config: ClaimsConfig) -> ClaimsTask:
    """SciFact (3-way): each claim with each cited abstract; also any file in the SciFact claim format."""
    return ClaimsTask("scifact", config, "scifact")


# --------------------------------------------------------------------------------------------------
# Claim/evidence/label tables (COVID-Fact RTE, HealthVer pairs, the generic ``pairs``)


_DEFAULT_LABELS = {
    "SUPPORTED": ("SUPPORTS", "SUPPORT", "SUPPORTED", "entailment", "entails", "true"),
    "REFUTED": ("REFUTES", "REFUTE", "REFUTED", "CONTRADICT", "contradiction", "contradicts", "false"),
    "NOT_ENOUGH_INFO": ("NOT ENOUGH INFO", "NOT_ENOUGH_INFO", "NEI", "neutral"),
}


def label_key(raw: str) -> str:
    """Spellings that differ only in case, ``_``/``-``/space are one label (NOT_ENOUGH_INFO, not enough info)."""
    return " ".join(raw.replace("_", " ").replace("-", " ").casefold().split())


def _labels_value(value: str) -> tuple[Label, ...]:
    """``"REFUTED"`` or a set ``"REFUTED|NOT_ENOUGH_INFO"`` (a binary source's "not entailment")."""
    try:
        return tuple(dict.fromkeys(Label(v.strip()) for v in value.split("|")))
    except ValueError:
        names = ", ".join(lab.value for lab in Label)
        raise ValueError(f"label map value {value!r}: expected {names}, or several joined by '|'") from None


def parse_label_map(label_map: Mapping[str, str], num_labels: int = 3) -> dict[str, tuple[Label, ...]]:
    """The default spellings (``not_entailment`` by ``num_labels``) overridden by ``label_map``, keyed by
    :func:`label_key`."""
    merged = {raw: label for label, raws in _DEFAULT_LABELS.items() for raw in raws}
    merged["not_entailment"] = "REFUTED" if num_labels == 2 else "REFUTED|NOT_ENOUGH_INFO"
    merged.update(label_map)
    return {label_key(raw): _labels_value(value) for raw, value in merged.items()}


@dataclass(frozen=True)
class _Table:
    """How to read one claim/evidence/label table."""

    claim: str
    evidence: tuple[str, ...]
    label: str | None  # None: unlabelled pairs
    id: str | None  # None: the record's line number
    labels: dict[str, tuple[Label, ...]]  # by label_key
    format: Literal["auto", "jsonl", "json", "csv", "tsv"] = "auto"
    quoted: bool | None = None  # whether '"' quotes CSV/TSV fields (None: in CSV only)
    aliases: tuple[tuple[str, str], ...] = ()  # (name in some file, column): read as that column


class PairsTask(Task):
    """One claim/evidence/label record per line (JSONL, JSON array, CSV, TSV), ids ``{task}:{split}:{id}``."""

    def __init__(
        self, name: str, num_labels: int, files: dict[str, _File], table: _Table, skip_bad: bool = False
    ) -> None:
        super().__init__()
        self.name = name
        self.num_labels = num_labels
        self.files = files
        self.table = table
        self.skip_bad = skip_bad

    def splits(self) -> list[str]:
        return [s for s, f in self.files.items() if f.listed()]

    def load(self, split: str) -> list[Pair]:
        self._check_split(split)
        path = self.files[split].path()

        def convert(data: dict[str, Any], source: str, line: int | None) -> list[Pair]:
            return [self._pair(data, split, source, line)]

        return self._collect(path, self._records(path), convert, self.skip_bad)

    def _records(self, path: Path) -> Iterable[_RawRecord]:
        fmt = self.table.format
        if fmt == "auto":
            fmt = _format_of(path)
        if fmt in ("jsonl", "json"):
            return _renamed(iter_json_records(path), self.table.aliases)
        delimiter = "\t" if fmt == "tsv" else ","
        rows = _renamed(iter_csv_records(path, delimiter, self.table.quoted), self.table.aliases)
        return _check_columns(path, rows, self._columns())

    def _columns(self) -> list[str]:
        named = [self.table.claim, *self.table.evidence, self.table.label, self.table.id]
        return [c for c in named if c is not None]

    def _pair(self, data: dict[str, Any], split: str, source: str, line: int | None) -> Pair:
        key = _key(_field(data, self.table.id), f"field {self.table.id!r}") if self.table.id else str(line)
        evidence: list[str] = []
        for name in self.table.evidence:
            evidence.extend(_sentences(_field(data, name), name))
        if not any(evidence):
            raise _Bad("empty evidence")
        return Pair(
            id=f"{self.name}:{split}:{key}",
            claim=_text(data, self.table.claim),
            evidence=tuple(evidence),
            labels=self._label(data),
            source=source,
        )

    def _label(self, data: dict[str, Any]) -> tuple[Label, ...]:
        if self.table.label is None:
            return ()
        value = _field(data, self.table.label)
        # JSON true/false are labels in some sources (true = supported); numbers are read as text ("0").
        raw = str(value).lower() if isinstance(value, bool) else _text(data, self.table.label)
        labels = self.table.labels.get(label_key(raw))
        if labels is None:
            raise _Bad(f"unknown label {raw!r} (known: {', '.join(sorted(self.table.labels))})")
        return labels


def _format_of(path: Path) -> Literal["jsonl", "json", "csv", "tsv"]:
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix == ".json":
        return "json"
    if suffix in (".tsv", ".tab"):
        return "tsv"
    if suffix == ".csv":
        return "csv"
    raise InputError(path, None, f"cannot tell the format from {suffix!r}; set 'format' (jsonl, json, csv, tsv)")


def _renamed(records: Iterable[_RawRecord], aliases: tuple[tuple[str, str], ...]) -> Iterable[_RawRecord]:
    """Records with aliased fields under their column's name (where the record lacks that column)."""
    for rec in records:
        if aliases and rec.data is not None:
            for alias, column in aliases:
                if alias in rec.data and column not in rec.data:
                    rec.data[column] = rec.data.pop(alias)
        yield rec


def _check_columns(path: Path, records: Iterable[_RawRecord], columns: list[str]) -> Iterable[_RawRecord]:
    """Rows of a table, after checking on the first well-formed row (all share the header) that the
    mapped columns exist: a wrong mapping is one error about the file, not one per row."""
    checked = False
    for rec in records:
        if not checked and rec.data is not None:
            missing = [c for c in columns if c not in rec.data]
            if missing:
                raise InputError(path, None, f"columns {missing} not in the header {list(rec.data)}")
            checked = True
        yield rec


class PairsConfig(ComponentConfig):
    train: str | None = None  # at least one split's file
    dev: str | None = None
    test: str | None = None
    dataset: str = "pairs"  # the task's name and id prefix
    format: Literal["auto", "jsonl", "json", "csv", "tsv"] = "auto"  # auto: by extension
    quoted: bool | None = None  # '"' quotes CSV/TSV fields; default: in CSV, not in TSV
    claim_field: str = "claim"
    evidence_field: str | list[str] = "evidence"  # several fields are concatenated, in order
    label_field: str | None = "label"  # None: unlabelled
    id_field: str | None = None  # None: the line number
    label_map: dict[str, str] = {}  # raw label -> SUPPORTED / REFUTED / NOT_ENOUGH_INFO or "A|B"; over the defaults
    num_labels: Literal[2, 3] = 3
    skip_bad: bool = False

    @field_validator("label_map")
    @classmethod
    def _valid_labels(cls, value: dict[str, str]) -> dict[str, str]:
        for target in value.values():
            _labels_value(target)
        return value

    @model_validator(mode="after")
    def _some_split(self) -> PairsConfig:
        if not (self.train or self.dev or self.test):
            raise ValueError("pairs needs at least one of 'train', 'dev', 'test'")
        return self


@registry.register("task", "pairs", PairsConfig)
def pairs_task(config: PairsConfig) -> PairsTask:
    """Generic claim/evidence/label files (JSONL, JSON, CSV, TSV) with a field mapping and a label map."""
    evidence = (config.evidence_field,) if isinstance(config.evidence_field, str) else tuple(config.evidence_field)
    table = _Table(
        claim=config.claim_field,
        evidence=evidence,
        label=config.label_field,
        id=config.id_field,
        labels=parse_label_map(config.label_map, config.num_labels),
        format=config.format,
        quoted=config.quoted,
    )
    files = {s: _File(s, getattr(config, s)) for s in ("train", "dev", "test")}
    return PairsTask(config.dataset, config.num_labels, files, table, config.skip_bad)


class CovidFactConfig(ComponentConfig):
    train: str | None = None  # None: covidfact/rte_train.tsv under the data folder
    dev: str | None = None
    test: str | None = None  # not in the shared data; the same RTE TSV layout
    skip_bad: bool = False


@registry.register("task", "covidfact", CovidFactConfig)
def covidfact_task(config: CovidFactConfig) -> PairsTask:
    """COVID-Fact (2-way): the authors' RTE TSVs, entailment -> SUPPORTED, not_entailment -> REFUTED."""
    # pandas wrote these TSVs with csv quoting: a field holding '"' is quoted and its quotes doubled.
    # rte_dev.tsv's header names the label column "entailment" (rte_train.tsv: "label").
    table = _Table(
        claim="Sentence2",
        evidence=("sentence1",),
        label="label",
        id="index",
        labels={label_key("entailment"): (Label.SUPPORTED,), label_key("not_entailment"): (Label.REFUTED,)},
        format="tsv",
        quoted=True,
        aliases=(("entailment", "label"),),
    )
    files = {
        "train": _File("train", config.train, "covidfact/rte_train.tsv"),
        "dev": _File("dev", config.dev, "covidfact/rte_dev.tsv"),
        "test": _File("test", config.test, "covidfact/rte_test.tsv", optional=True),
    }
    return PairsTask("covidfact", 2, files, table, config.skip_bad)


# --------------------------------------------------------------------------------------------------
# HealthVer: the MultiVerS claim files (as SciFact) or the original pairs CSV


class HealthVerConfig(ClaimsConfig):
    format: Literal["claims", "pairs"] = "claims"  # pairs: train/dev/test are CSVs, dev defaults to the dev CSV

    @model_validator(mode="after")
    def _claims_only(self) -> HealthVerConfig:
        if self.format == "pairs":
            used = [k for k in ("corpus", "include_title", "rationale_only") if getattr(self, k)]
            if used:
                raise ValueError(f"{', '.join(used)}: only for format 'claims' (the pairs CSV has its evidence)")
        return self


HEALTHVER_PAIR_LABELS: dict[str, tuple[Label, ...]] = {
    label_key("Supports"): (Label.SUPPORTED,),
    label_key("Refutes"): (Label.REFUTED,),
    label_key("Neutral"): (Label.NOT_ENOUGH_INFO,),
}


@registry.register("task", "healthver", HealthVerConfig)
def healthver_task(config: HealthVerConfig) -> Task:
    """HealthVer (3-way): MultiVerS claim files with the abstracts they cite, or the original pairs CSV."""
    if config.format == "claims":
        return ClaimsTask("healthver", config, "healthver")
    table = _Table(
        claim="claim", evidence=("evidence",), label="label", id="id", labels=HEALTHVER_PAIR_LABELS, format="csv"
    )
    files = {
        "train": _File("train", config.train),
        "dev": _File("dev", config.dev, "healthver/healthver_dev_pairs.csv"),
        "test": _File("test", config.test),
    }
    return PairsTask("healthver", 3, files, table, config.skip_bad)


# --------------------------------------------------------------------------------------------------
# Climate-FEVER


CLIMATE_FEVER_LABELS = {
    "SUPPORTS": Label.SUPPORTED,
    "REFUTES": Label.REFUTED,
    "NOT_ENOUGH_INFO": Label.NOT_ENOUGH_INFO,
}


class ClimateFeverConfig(ComponentConfig):
    path: str | None = None  # None: climate-fever/climate-fever.jsonl under the data folder
    unit: Literal["claim", "evidence"] = "claim"  # evidence: one pair per evidence sentence, its own label
    include_disputed: bool = False
    disputed_as: Label | None = None  # the label DISPUTED claims get when included
    skip_bad: bool = False

    @model_validator(mode="after")
    def _disputed(self) -> ClimateFeverConfig:
        if self.disputed_as is not None and not self.include_disputed:
            raise ValueError("disputed_as is set but include_disputed is not")
        # DISPUTED claims have no label of ours; the evidence unit uses the sentences' own labels.
        if self.include_disputed and self.unit == "claim" and self.disputed_as is None:
            raise ValueError("include_disputed needs disputed_as (SUPPORTED, REFUTED or NOT_ENOUGH_INFO)")
        return self


class ClimateFeverTask(Task):
    """Climate-FEVER: one claim per line with its 5 evidence sentences; one split, "test".

    ``unit="claim"``: pair ``climate-fever:test:{claim_id}`` = the claim, all its sentences, claim_label.
    ``unit="evidence"``: pair ``climate-fever:test:{claim_id}:{i}`` per sentence, with evidence_label.
    DISPUTED claims are left out (a reject with reason "disputed") unless ``include_disputed``.
    """

    name = "climate-fever"
    num_labels = 3

    def __init__(self, config: ClimateFeverConfig) -> None:
        super().__init__()
        self.config = config
        self.file = _File("path", config.path, "climate-fever/climate-fever.jsonl")

    def splits(self) -> list[str]:
        return ["test"]

    def load(self, split: str) -> list[Pair]:
        self._check_split(split)
        path = self.file.path()
        return self._collect(
            path, iter_json_records(path), lambda d, src, _line: self._pairs(d, src), self.config.skip_bad
        )

    def _pairs(self, data: dict[str, Any], source: str) -> list[Pair]:
        claim_id = _key(_field(data, "claim_id"), "field 'claim_id'")
        claim = _text(data, "claim")
        raw = _field(data, "claim_label")
        if raw != "DISPUTED" and raw not in CLIMATE_FEVER_LABELS:
            raise _Bad(f"unknown claim_label {raw!r} (expected SUPPORTS, REFUTES, NOT_ENOUGH_INFO or DISPUTED)")
        evidences = _field(data, "evidences")
        if not isinstance(evidences, list) or not all(isinstance(e, dict) for e in evidences):
            raise _Bad("field 'evidences': expected a list of objects")
        sentences = [_text(e, "evidence") for e in evidences]
        labels = [_climate_label(_field(e, "evidence_label"), i) for i, e in enumerate(evidences)]
        if raw == "DISPUTED" and not self.config.include_disputed:
            raise _Excluded("disputed")
        prefix = f"{self.name}:test:{claim_id}"
        if self.config.unit == "evidence":
            return [
                Pair(id=f"{prefix}:{i}", claim=claim, evidence=(s,), labels=(lab,), source=source)
                for i, (s, lab) in enumerate(zip(sentences, labels, strict=True))
            ]
        label = self.config.disputed_as if raw == "DISPUTED" else CLIMATE_FEVER_LABELS[raw]
        assert label is not None  # the config requires disputed_as when DISPUTED claims are included
        return [Pair(id=prefix, claim=claim, evidence=tuple(sentences), labels=(label,), source=source)]


def _climate_label(raw: Any, i: int) -> Label:
    if raw not in CLIMATE_FEVER_LABELS:
        raise _Bad(f"evidences[{i}]: unknown evidence_label {raw!r} (expected SUPPORTS, REFUTES or NOT_ENOUGH_INFO)")
    return CLIMATE_FEVER_LABELS[raw]


@registry.register("task", "climate-fever", ClimateFeverConfig)
def climate_fever_task(config: ClimateFeverConfig) -> ClimateFeverTask:
    """Climate-FEVER (3-way): claims with 5 Wikipedia sentences; DISPUTED left out unless asked for."""
    return ClimateFeverTask(config)


# --------------------------------------------------------------------------------------------------
# A dataset built by claimforge


class ClaimforgeConfig(ComponentConfig):
    path: str  # the build's output folder (or its examples.jsonl)
    dev_fraction: float = Field(0.1, ge=0.0, le=1.0)
    split_seed: int = 0
    num_labels: Literal[2, 3] = 3
    skip_bad: bool = False


class ClaimforgeTask(Task):
    """The examples of a ``claimforge build`` as pairs ``claimforge:{example id}`` (the same in every split).

    "train"/"dev" split by a hash of ``source_item_id``, so all claims made from one source question land on
    the same side; "all" is every example. Bad records are rejects of every split (they have no side).
    """

    name = "claimforge"

    def __init__(self, config: ClaimforgeConfig) -> None:
        super().__init__()
        self.config = config
        self.num_labels = config.num_labels
        folder = Path(config.path)
        self.file = _File("path", str(folder / "examples.jsonl" if folder.is_dir() else folder))

    def splits(self) -> list[str]:
        return ["train", "dev", "all"]

    def load(self, split: str) -> list[Pair]:
        self._check_split(split)
        path = self.file.path()

        def convert(data: dict[str, Any], source: str, _line: int | None) -> list[Pair]:
            return self._pairs(data, split, source)

        return self._collect(path, iter_json_records(path), convert, self.config.skip_bad)

    def _pairs(self, data: dict[str, Any], split: str, source: str) -> list[Pair]:
        example_id = _key(_field(data, "id"), "field 'id'")
        group = _key(_field(data, "source_item_id"), "field 'source_item_id'")
        raw = _field(data, "label")
        try:
            label = Label(raw)
        except ValueError:
            raise _Bad(f"unknown label {raw!r} (expected {', '.join(lab.value for lab in Label)})") from None
        pair = Pair(
            id=f"{self.name}:{example_id}",
            claim=_text(data, "claim"),
            evidence=tuple(_sentences(_field(data, "evidence"), "evidence")),
            labels=(label,),
            source=source,
        )
        if split != "all" and (split == "dev") != in_dev(group, self.config.dev_fraction, self.config.split_seed):
            return []
        return [pair]


def in_dev(group: str, fraction: float, seed: int = 0) -> bool:
    """Whether a source item's examples go to dev: a hash, so the split is stable across runs and machines."""
    digest = hashlib.sha256(f"{seed}\0{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") < fraction * 2**64


@registry.register("task", "claimforge", ClaimforgeConfig)
def claimforge_task(config: ClaimforgeConfig) -> ClaimforgeTask:
    """A dataset written by ``claimforge build``, split into train/dev by source item."""
    return ClaimforgeTask(config)
