"""What ``claimforge review`` reads and writes, without the web: the built datasets it serves (read only), the grades
and fix actions people make (append-only files in ``DIR/review/`` next to each dataset, one fsync'd line per
action, so a closed tab or a killed server loses nothing), label accuracy and agreement, the human-evaluation sheet
format in both directions, and ``apply-review`` (the corrected dataset). docs/review.md.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import re
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from claimforge.evaluate.agreement import alpha_entry
from claimforge.evaluate.sheets import (
    ALPHA_LEVELS,
    CLAIM_CRITERIA,
    CLAIM_HEADERS,
    NEGATION_HEADERS,
    SCALES,
    annotated_criteria,
    context_text,
    items_path,
    negation_details,
    read_items,
    read_sheet,
)
from claimforge.io.dataset import read_examples, read_rejects
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Example, Label, Reject

LABELS = tuple(lab.value for lab in Label)
# What a grade holds: the grader's own label, then the papers' criteria (Wright et al. 2022, Table 2 and §5.3;
# ``entailment`` is the negation scale 3 definitely false / 2 might be true / 1 definitely true / SKIP).
CRITERIA: dict[str, tuple[Any, ...]] = {"label": LABELS, **SCALES}
CRITERION_LEVELS = {"label": "nominal", **ALPHA_LEVELS}
REVIEW_DIR = "review"
GRADES_FILE = "grades.jsonl"
PATCH_FILE = "patch.jsonl"
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_ .@-]{0,39}$")  # ASCII: it goes into a cookie and file names


class ReviewError(ValueError):
    """Bad input to the review (a dataset folder, a grade, a sheet, a patch): the message names what and where."""


class NotFound(ReviewError):
    """A dataset or example the review does not have."""


def check_annotator(name: str) -> str:
    name = (name or "").strip()
    if not _NAME.match(name):
        raise ReviewError(
            f"annotator name {name!r}: use 1-40 ASCII letters, digits, spaces, '.', '@', '-' or '_' (starting with "
            "a letter, digit or '_')"
        )
    return name


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _flatten(d: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"negation": {"method": "kbin"}}`` -> ``{"negation.method": "kbin"}`` (one mapping level deep, lists kept)."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping) and not prefix:
            out.update(_flatten(v, f"{key}."))
        else:
            out[key] = v
    return out


@dataclass
class Dataset:
    """One built dataset (a ``claimforge build`` output folder), read once when the review starts."""

    name: str
    path: Path
    examples: list[Example]
    rejects: list[Reject]
    manifest: dict[str, Any]
    by_id: dict[str, Example] = field(default_factory=dict)
    facets: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    # per example id, made once at load (every filter request reads them): the flattened provenance details, and
    # the lower-cased text a search looks in
    flat: dict[str, dict[str, Any]] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)

    @property
    def review_dir(self) -> Path:
        return self.path / REVIEW_DIR

    @property
    def pipeline(self) -> str:
        return str(self.manifest.get("pipeline") or "")


def _facets(flat: Sequence[Mapping[str, Any]]) -> dict[str, list[tuple[str, int]]]:
    """The provenance fields worth filtering by: scalar values of ``provenance.details`` (one level of nesting
    flattened) with 2-30 distinct values (and at most a third as many as there are examples), present in at least
    a tenth of the examples."""
    values: dict[str, Counter[str]] = defaultdict(Counter)
    for details in flat:
        for k, v in details.items():
            if isinstance(v, (str, bool, int)) and len(str(v)) <= 60:
                values[k][str(v)] += 1
    n = max(len(flat), 1)
    out = {
        k: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
        for k, c in sorted(values.items())
        if 2 <= len(c) <= min(30, max(2, n // 3)) and sum(c.values()) >= n / 10
    }
    return out


def load_dataset(path: str | Path, name: str | None = None) -> Dataset:
    """A build folder: ``examples.jsonl`` (required), ``rejects.jsonl`` and ``manifest.json`` (when there)."""
    p = Path(path)
    if not p.is_dir():
        raise ReviewError(f"{path}: not a folder (give the --out folder of claimforge build)")
    ex_path = p / "examples.jsonl"
    if not ex_path.is_file():
        raise ReviewError(f"{path}: no examples.jsonl here; is this the output folder of claimforge build?")
    try:
        examples = read_examples(ex_path)
    except ValueError as err:
        raise ReviewError(str(err)) from None
    manifest: dict[str, Any] = {}
    if (p / "manifest.json").is_file():
        try:
            manifest = json.loads((p / "manifest.json").read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise ReviewError(f"{p / 'manifest.json'}: not JSON ({err.msg}, line {err.lineno})") from None
    try:
        rejects = read_rejects(p / "rejects.jsonl") if (p / "rejects.jsonl").is_file() else []
    except ValueError as err:
        raise ReviewError(str(err)) from None
    ds = Dataset(name or p.resolve().name, p, examples, rejects, manifest)
    for i, e in enumerate(examples, 1):
        if e.id in ds.by_id:
            raise ReviewError(f"{ex_path}:{i}: example id {e.id!r} appears twice")
        ds.by_id[e.id] = e
        ds.flat[e.id] = _flatten(e.provenance.details)
        ds.text[e.id] = " ".join([e.id, e.claim, e.evidence, str(e.provenance.details.get("source_sentence") or "")])
        ds.text[e.id] = ds.text[e.id].lower()
    ds.facets = _facets(list(ds.flat.values()))
    return ds


def load_datasets(paths: Sequence[str | Path]) -> dict[str, Dataset]:
    """Datasets by name (the folder name; made unique with the parent folder's when two share one)."""
    if not paths:
        raise ReviewError("give at least one dataset folder")
    resolved = [Path(p).resolve() for p in paths]
    if len(set(resolved)) < len(resolved):
        raise ReviewError("the same dataset folder is given twice")
    names = [r.name for r in resolved]
    out: dict[str, Dataset] = {}
    for p, r in zip(paths, resolved, strict=True):
        name = r.name if names.count(r.name) == 1 else f"{r.parent.name}-{r.name}"
        if name in out:
            raise ReviewError(f"{p} and {out[name].path} would both be called {name!r}; rename one folder")
        out[name] = load_dataset(p, name)
    return out


# ----------------------------------------------------------------------------------------------------------------
# What a person sees of an example


def is_negation(e: Example) -> bool:
    original, _ = negation_details(e.model_dump(mode="json"))
    return e.label == Label.REFUTED and bool(original)


def applicable_criteria(e: Example) -> tuple[str, ...]:
    """The criteria a grade of this example can hold: the label, fluency, de-contextualised and atomic for every
    claim; faithfulness when it has a source sentence to be faithful to; the negation scale for negations."""
    out: tuple[str, ...] = ("label", "fluency", "decontextualized", "atomicity")
    if e.provenance.details.get("source_sentence"):
        out += ("faithfulness",)
    if is_negation(e):
        out += ("entailment",)
    return out


def source_view(e: Example) -> dict[str, Any]:
    """The source item and the generating step, the fields the papers' readers look at, where the pipeline
    recorded them (missing ones are left out)."""
    d = e.provenance.details
    neg = d.get("negation") if isinstance(d.get("negation"), Mapping) else {}
    original, neg_method = negation_details(e.model_dump(mode="json"))
    view: dict[str, Any] = {
        "source": e.provenance.source.where(),
        "source sentence": d.get("source_sentence"),
        "context": context_text(d.get("context")) or None,
        "question": d.get("question"),
        "answer": d.get("answer") or d.get("correct_answer"),
        "original claim": original if original != e.claim else None,
        "negation method": neg_method if neg else None,
        "replaced span": (neg.get("original") or neg.get("replaced")) if neg else None,
        "replacement": (neg.get("replacement") or neg.get("sibling")) if neg else None,
        "entity": d.get("entity"),
    }
    check = d.get("label_check")
    if isinstance(check, Mapping):
        scores = {k: v for k, v in check.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        if scores:
            view["judge (label check)"] = ", ".join(f"{k} {v:.2f}" for k, v in scores.items())
    return {k: v for k, v in view.items() if v not in (None, "", [], {})}


def evidence_view(
    e: Example, scores: Sequence[Mapping[str, Any]] | None = None, mark_key: bool = True
) -> list[dict[str, Any]]:
    """The evidence as sentences, each marked ``key`` (with ``mark_key``; never in a blind round) when the data
    says it decided the label (a 5W answer's sentence) and, with ``scores`` (the judge's per-sentence
    probabilities), with those scores."""
    sentences = split_sentences(e.evidence) or [e.evidence]
    key = {q.evidence_sentence for q in e.qa_pairs if q.evidence_sentence} if mark_key else set()
    out = []
    for i, s in enumerate(sentences):
        row: dict[str, Any] = {"text": s, "key": s in key}
        if scores is not None and i < len(scores):
            row["scores"] = dict(scores[i])
        out.append(row)
    return out


def filtered(
    ds: Dataset, label: str = "", method: str = "", query: str = "", facets: Mapping[str, str] | None = None
) -> list[Example]:
    """The examples of ``ds`` with this label and method, these provenance values, and every word of ``query`` in
    their id, claim, evidence or source sentence (empty: any)."""
    words = query.lower().split()
    out = []
    for e in ds.examples:
        if (label and e.label.value != label) or (method and e.method != method):
            continue
        if facets and any(str(ds.flat[e.id].get(k)) != v for k, v in facets.items()):
            continue
        if all(w in ds.text[e.id] for w in words):
            out.append(e)
    return out


# ----------------------------------------------------------------------------------------------------------------
# Grades and fix actions: append-only JSON lines, the last record of an (annotator, example, mode) wins


def _append(path: Path, row: Mapping[str, Any]) -> int:
    """Append one record (fsync'd); returns the bytes written. A last line cut short by a crash (no newline; it
    was reported and skipped when read) is cut off first, so the new record starts a line of its own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(row, ensure_ascii=False) + "\n").encode("utf-8")
    with open(path, "a+b") as f:
        size = f.seek(0, os.SEEK_END)
        if size:
            f.seek(max(0, size - 65536))
            tail = f.read()
            if not tail.endswith(b"\n"):
                cut = tail.rfind(b"\n")
                f.truncate(size - len(tail) + cut + 1 if cut >= 0 else (0 if size <= 65536 else size))
        f.seek(0, os.SEEK_END)
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return len(data)


def _read_lines(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of an append-only file, and warnings: a last line cut short by a crash is reported and skipped
    (it is the only line that can be); any other bad line is an error naming the file and line."""
    rows: list[dict[str, Any]] = []
    warnings: list[str] = []
    if not path.is_file():
        return rows, warnings
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict):
                raise ValueError("not a JSON object")
        except ValueError as e:
            if i == len(lines):  # the last line, with no newline after it: a write cut short
                warnings.append(f"{path}:{i}: an unfinished last line (an interrupted write) was skipped")
                continue
            raise ReviewError(f"{path}:{i}: not a review record ({e})") from None
        rows.append(row)
    return rows, warnings


def validate_grade(e: Example, values: Mapping[str, Any]) -> dict[str, Any]:
    """A grade's values, checked against the scales (strings from a form become numbers); criteria that do not
    apply to this example are an error; empty values are left out."""
    allowed = applicable_criteria(e)
    out: dict[str, Any] = {}
    for k, raw in values.items():
        if raw is None or raw == "":
            continue
        if k not in CRITERIA:
            raise ReviewError(f"unknown criterion {k!r} (known: {', '.join(CRITERIA)})")
        if k not in allowed:
            raise ReviewError(f"{e.id}: {k!r} does not apply to this example (it takes {', '.join(allowed)})")
        scale = CRITERIA[k]
        v: Any = raw
        if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
            v = int(raw)
        if v not in scale:
            raise ReviewError(f"{e.id}: {k} = {raw!r} is not one of {', '.join(map(str, scale))}")
        out[k] = v
    return out


@dataclass
class Grade:
    dataset: str
    example_id: str
    annotator: str
    blind: bool
    values: dict[str, Any]
    comment: str = ""
    time: str = ""
    source: str = "page"

    def row(self) -> dict[str, Any]:
        return {
            "example_id": self.example_id,
            "annotator": self.annotator,
            "blind": self.blind,
            **self.values,
            "comment": self.comment,
            "time": self.time,
            "source": self.source,
        }


FIX_ACTIONS = ("relabel", "reject", "keep")


@dataclass
class Fix:
    """A correction of one example: ``relabel`` (to ``label``), ``reject`` (with ``reason``) or ``keep`` (undo)."""

    dataset: str
    example_id: str
    action: str
    annotator: str
    label: str | None = None
    reason: str = ""
    time: str = ""

    def row(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k != "dataset"}


GradeKey = tuple[str, str, str, bool]  # (dataset, example id, annotator, blind)
FileState = tuple[int, int, int]  # (size, mtime ns, inode)


def _put(grades: dict[GradeKey, Grade], g: Grade) -> None:
    """``g`` replaces the annotator's earlier grade of the example in the same mode; an empty one removes it."""
    key = (g.dataset, g.example_id, g.annotator, g.blind)
    if g.values or g.comment:
        grades[key] = g
    else:
        grades.pop(key, None)


def _state(path: Path) -> FileState:
    try:
        st = path.stat()
    except FileNotFoundError:
        return (0, 0, 0)
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _build_stamp(ds: Dataset) -> str | None:
    """What a grade row records of the build it was made on (a rebuild into the same folder changes it)."""
    return ds.manifest.get("started")


class ReviewStore:
    """The datasets of one review and everything graded or fixed in them, thread-safe.

    - Every grade and fix is on disk (fsync'd) before the call returns.
    - ``grades`` holds the last grade of each (dataset, example, annotator, blind): a blind grade and an open
      one of the same example are kept apart.
    - ``grades`` and ``fixes`` are replaced, never changed in place (copy on write), so a reader can iterate them
      while another thread saves.
    """

    def __init__(self, datasets: Mapping[str, Dataset]) -> None:
        self.datasets = dict(datasets)
        self._lock = threading.Lock()
        self.grades: dict[GradeKey, Grade] = {}
        self.fixes: dict[tuple[str, str], Fix] = {}  # (dataset, example id) -> the last action
        self._warnings: dict[str, list[str]] = {}
        self._seen: dict[str, tuple[FileState, FileState]] = {}  # what was read of each dataset's two files
        self._samples: dict[tuple[str, int, int], tuple[str, ...]] = {}
        for ds in self.datasets.values():
            self._reload(ds)

    @property
    def warnings(self) -> list[str]:
        return [w for ws in self._warnings.values() for w in ws]

    def _files(self, ds: Dataset) -> tuple[FileState, FileState]:
        return (_state(ds.review_dir / GRADES_FILE), _state(ds.review_dir / PATCH_FILE))

    def refresh(self) -> None:
        """Read a dataset's review files again when something else changed them (a second server on the same
        folder, an import from the command line): two stat calls per dataset. A file another tool broke is a
        warning on the page; what was read before stays."""
        with self._lock:
            for ds in self.datasets.values():
                if self._files(ds) != self._seen.get(ds.name):
                    try:
                        self._reload(ds)
                    except ReviewError as e:
                        self._seen[ds.name] = self._files(ds)
                        self._warnings[ds.name] = [*self._warnings.get(ds.name, []), f"not re-read: {e}"]

    def _reload(self, ds: Dataset) -> None:
        """Read ``ds``'s grades and fixes from disk and publish them (new dicts)."""
        seen = self._files(ds)
        grades, fixes, warnings = self._read(ds)
        self.grades = {**{k: g for k, g in self.grades.items() if k[0] != ds.name}, **grades}
        self.fixes = {**{k: f for k, f in self.fixes.items() if k[0] != ds.name}, **fixes}
        self._warnings[ds.name] = warnings
        self._seen[ds.name] = seen

    def _read(self, ds: Dataset) -> tuple[dict[GradeKey, Grade], dict[tuple[str, str], Fix], list[str]]:
        grades: dict[GradeKey, Grade] = {}
        fixes: dict[tuple[str, str], Fix] = {}
        path = ds.review_dir / GRADES_FILE
        rows, warnings = _read_lines(path)
        gone = invalid = earlier = 0
        for i, r in enumerate(rows, 1):
            e = ds.by_id.get(str(r.get("example_id")))
            if e is None or not isinstance(r.get("annotator"), str):
                gone += 1
                continue
            if r.get("build") not in (None, _build_stamp(ds)):
                earlier += 1
            try:
                values = validate_grade(e, {k: r.get(k) for k in CRITERIA if k in r})
            except ReviewError as err:
                invalid += 1
                if invalid == 1:
                    warnings.append(f"{path}:{i}: {err}")
                continue
            g = Grade(
                ds.name, e.id, r["annotator"], bool(r.get("blind")), values, str(r.get("comment") or ""),
                str(r.get("time") or ""), str(r.get("source") or "page"),
            )  # fmt: skip
            _put(grades, g)
        if gone:
            warnings.append(f"{path}: {gone} grades of examples not in {ds.path} (or without an annotator) ignored")
        if invalid:
            warnings.append(f"{path}: {invalid} grades that do not fit their example now ignored (first above)")
        if earlier:
            warnings.append(f"{path}: {earlier} grades were made on an earlier build in this folder; ids may now "
                            "name other examples")  # fmt: skip
        path = ds.review_dir / PATCH_FILE
        rows, more = _read_lines(path)
        warnings += more
        gone = earlier = 0
        for i, r in enumerate(rows, 1):
            if r.get("action") not in FIX_ACTIONS or not isinstance(r.get("example_id"), str):
                raise ReviewError(f"{path}:{i}: not a fix record (needs example_id and action: {FIX_ACTIONS})")
            if r["example_id"] not in ds.by_id:
                gone += 1
                continue
            if r.get("build") not in (None, _build_stamp(ds)):
                earlier += 1
            f = Fix(ds.name, r["example_id"], r["action"], str(r.get("annotator") or ""), r.get("label"),
                    str(r.get("reason") or ""), str(r.get("time") or ""))  # fmt: skip
            if f.action == "keep":
                fixes.pop((ds.name, f.example_id), None)
            else:
                fixes[(ds.name, f.example_id)] = f
        if gone:
            warnings.append(f"{path}: {gone} fixes of examples not in {ds.path} ignored")
        if earlier:
            warnings.append(f"{path}: {earlier} fixes were made on an earlier build in this folder; apply-review "
                            "would apply them to whatever the ids name now")  # fmt: skip
        return grades, fixes, warnings

    def _append(self, ds: Dataset, name: str, row: Mapping[str, Any]) -> None:
        """Append under the lock; when another writer changed the files since they were read (or between the
        look and the write), read them again, so their records are not missed."""
        if self._files(ds) != self._seen.get(ds.name):
            self._reload(ds)
        before = self._files(ds)
        written = _append(ds.review_dir / name, row)
        after = self._files(ds)
        index = 0 if name == GRADES_FILE else 1
        if before[index][0] + written != after[index][0] or before[1 - index] != after[1 - index]:
            self._reload(ds)  # someone else wrote meanwhile (our own record is read back with theirs)
        else:
            self._seen[ds.name] = after

    def dataset(self, name: str) -> Dataset:
        try:
            return self.datasets[name]
        except KeyError:
            raise NotFound(f"no dataset {name!r} in this review (there are: {', '.join(self.datasets)})") from None

    def example(self, dataset: str, example_id: str) -> Example:
        ds = self.dataset(dataset)
        try:
            return ds.by_id[example_id]
        except KeyError:
            raise NotFound(f"no example {example_id!r} in {dataset}") from None

    def grade(
        self,
        dataset: str,
        example_id: str,
        annotator: str,
        values: Mapping[str, Any],
        blind: bool = False,
        comment: str = "",
        source: str = "page",
    ) -> Grade:
        """Save (or replace, or with no values and no comment remove) ``annotator``'s grade of an example."""
        annotator = check_annotator(annotator)
        e = self.example(dataset, example_id)
        ds = self.dataset(dataset)
        g = Grade(dataset, e.id, annotator, blind, validate_grade(e, values), comment.strip()[:2000], _now(), source)
        with self._lock:
            self._append(ds, GRADES_FILE, {**g.row(), "build": _build_stamp(ds)})
            grades = dict(self.grades)
            _put(grades, g)
            self.grades = grades
        return g

    def fix(
        self, dataset: str, example_id: str, action: str, annotator: str, label: str | None = None, reason: str = ""
    ) -> Fix:
        annotator = check_annotator(annotator)
        e = self.example(dataset, example_id)
        if action not in FIX_ACTIONS:
            raise ReviewError(f"fix action {action!r}: use one of {', '.join(FIX_ACTIONS)}")
        if action == "relabel" and (label not in LABELS or label == e.label.value):
            raise ReviewError(f"{e.id}: relabel needs a label other than {e.label.value} (one of {', '.join(LABELS)})")
        reason = re.sub(r"\s+", " ", reason or "").strip()[:300]
        if action == "reject" and not reason:
            raise ReviewError(f"{e.id}: a reject needs a reason")
        f = Fix(dataset, e.id, action, annotator, label if action == "relabel" else None, reason, _now())
        with self._lock:
            ds = self.dataset(dataset)
            self._append(ds, PATCH_FILE, {**f.row(), "build": _build_stamp(ds)})
            fixes = dict(self.fixes)
            if action == "keep":
                fixes.pop((dataset, e.id), None)
            else:
                fixes[(dataset, e.id)] = f
            self.fixes = fixes
        return f

    def grades_of(
        self,
        dataset: str,
        example_id: str | None = None,
        annotator: str | None = None,
        blind: bool | None = None,
    ) -> list[Grade]:
        """The grades of a dataset (of one example, one annotator, one mode), in a stable order."""
        return [
            g
            for (d, x, a, b), g in sorted(self.grades.items())
            if d == dataset
            and (example_id is None or x == example_id)
            and (annotator is None or a == annotator)
            and (blind is None or b == blind)
        ]

    def annotators(self, dataset: str | None = None) -> list[str]:
        return sorted({a for (d, _, a, _) in self.grades if dataset is None or d == dataset})

    # -- the blind queue -----------------------------------------------------------------------------------------

    def sample(self, dataset: str, n: int, seed: int) -> tuple[str, ...]:
        """The example ids of a blind grading round: a seeded random sample, the same for every annotator (so
        their grades overlap and agreement can be measured)."""
        key = (dataset, n, seed)
        if key not in self._samples:  # the datasets never change while served
            ids = sorted(self.dataset(dataset).by_id)
            self._samples[key] = tuple(random.Random(seed).sample(ids, min(n, len(ids))))
        return self._samples[key]

    def next_blind(self, dataset: str, annotator: str, n: int, seed: int) -> tuple[str | None, int, int]:
        """(the next example id to grade or None when done, how many of the round are graded, the round's size)."""
        ids = self.sample(dataset, n, seed)
        done = {g.example_id for g in self.grades_of(dataset, annotator=annotator, blind=True) if "label" in g.values}
        left = [x for x in ids if x not in done]
        return (left[0] if left else None), len(ids) - len(left), len(ids)

    # -- summaries -----------------------------------------------------------------------------------------------

    def summary(self, dataset: str, ids: Iterable[str] | None = None) -> dict[str, Any]:
        """Label accuracy (blind grades apart from open ones), per annotator; the confusion of the dataset's labels
        with the graders'; the majority label of each example against the dataset's; Krippendorff's α per
        criterion over the examples graded by two or more annotators; the criteria's means."""
        ds = self.dataset(dataset)
        keep = None if ids is None else set(ids)
        grades = [g for g in self.grades_of(dataset) if keep is None or g.example_id in keep]
        out: dict[str, Any] = {"dataset": dataset, "n_grades": len(grades), "annotators": {}}
        labelled = [g for g in grades if "label" in g.values]
        for mode, sel in (("blind", [g for g in labelled if g.blind]), ("open", [g for g in labelled if not g.blind])):
            out[mode] = _accuracy(sel, ds)
        for a in sorted({g.annotator for g in grades}):
            mine = [g for g in labelled if g.annotator == a]
            out["annotators"][a] = {
                "grades": sum(1 for g in grades if g.annotator == a),
                "blind": _accuracy([g for g in mine if g.blind], ds),
                "open": _accuracy([g for g in mine if not g.blind], ds),
            }
        confusion: dict[str, Counter[str]] = {lab: Counter() for lab in LABELS}
        for g in labelled:
            confusion[ds.by_id[g.example_id].label.value][g.values["label"]] += 1
        out["confusion"] = {k: dict(v) for k, v in confusion.items()}
        by_example: dict[str, list[Grade]] = defaultdict(list)  # one grade per annotator: the blind one if any
        for g in sorted(grades, key=lambda g: g.blind):
            by_example[g.example_id] = [h for h in by_example[g.example_id] if h.annotator != g.annotator] + [g]
        majority = []
        for x, gs in by_example.items():
            votes = Counter(g.values["label"] for g in gs if "label" in g.values)
            if votes:
                top = votes.most_common()
                if len(top) == 1 or top[0][1] > top[1][1]:
                    majority.append(top[0][0] == ds.by_id[x].label.value)
        out["majority"] = {"examples": len(majority), "correct": sum(majority)}
        annotators = sorted({g.annotator for g in grades})
        shared = [x for x, gs in sorted(by_example.items()) if len(gs) >= 2]
        alpha: dict[str, Any] = {}
        for c, level in CRITERION_LEVELS.items():
            if c == "negation_fluency":
                continue
            rows = []
            for x in shared:
                vals = {g.annotator: g.values.get(c) for g in by_example[x]}
                row = [vals.get(a) for a in annotators]
                if c == "entailment":
                    row = [None if v == "SKIP" else v for v in row]
                rows.append(row)
            alpha[c] = alpha_entry(rows, level, digits=3)  # type: ignore[arg-type]
        out["alpha"] = alpha
        means: dict[str, Any] = {}
        for c in ("fluency", "decontextualized", "atomicity", "faithfulness"):
            rated = [float(g.values[c]) for g in grades if c in g.values]
            means[c] = {"n": len(rated), "mean": round(sum(rated) / len(rated), 3) if rated else None}
        ent = Counter(str(g.values["entailment"]) for g in grades if "entailment" in g.values)
        means["entailment"] = {"n": sum(ent.values()), "counts": {k: ent.get(k, 0) for k in ("3", "2", "1", "SKIP")}}
        out["criteria"] = means
        out["fixes"] = Counter(f.action for (d, _), f in self.fixes.items() if d == dataset)
        return out


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95% by default; k may be fractional)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def _accuracy(grades: Sequence[Grade], ds: Dataset) -> dict[str, Any]:
    """The share of grades whose label is the dataset's. The 95% interval counts examples, not grades: several
    annotators' grades of one example are not independent (each example adds its share of right grades)."""
    n = len(grades)
    k = sum(1 for g in grades if g.values["label"] == ds.by_id[g.example_id].label.value)
    per_example: dict[str, list[bool]] = defaultdict(list)
    for g in grades:
        per_example[g.example_id].append(g.values["label"] == ds.by_id[g.example_id].label.value)
    right = sum(sum(v) / len(v) for v in per_example.values())
    lo, hi = wilson(right, len(per_example))
    return {
        "n": n,
        "correct": k,
        "examples": len(per_example),
        "accuracy": round(k / n, 4) if n else None,
        "ci95": [round(lo, 3), round(hi, 3)],
    }


# ----------------------------------------------------------------------------------------------------------------
# The human-evaluation sheet format (claimforge quality sheet), both ways


def sheet_csv(store: ReviewStore, dataset: str, kind: str, annotator: str) -> tuple[str, int, int]:
    """``annotator``'s grades as a filled sheet of ``kind`` (claims or negations) in the format of
    ``claimforge quality sheet`` (item ids are the example ids, so no key file is needed): (CSV text, rows
    written, grades left out because the sheet's annotation rule needs a criterion they lack)."""
    if kind not in ("claims", "negations"):
        raise ReviewError(f"sheet kind {kind!r}: claims or negations")
    headers = CLAIM_HEADERS if kind == "claims" else NEGATION_HEADERS
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(list(headers.values()))
    written = skipped = 0
    for g in store.grades_of(dataset, annotator=annotator):
        e = store.example(dataset, g.example_id)
        d = e.provenance.details
        if kind == "claims":
            if "fluency" not in g.values or not d.get("source_sentence"):
                continue
            expected = annotated_criteria(g.values.get("fluency"), g.values.get("decontextualized"))
            if any(c not in g.values for c in expected if c in CLAIM_CRITERIA):
                skipped += 1
                continue
            cells = {
                "item_id": e.id,
                "source_sentence": d.get("source_sentence"),
                "context": context_text(d.get("context")),
                "claim": e.claim,
                **{c: g.values[c] for c in expected},
                "comment": g.comment,
            }
        else:
            if "entailment" not in g.values:
                continue
            original, _ = negation_details(e.model_dump(mode="json"))
            cells = {
                "item_id": e.id,
                "original_claim": original,
                "negation": e.claim,
                "entailment": g.values["entailment"],
                "comment": g.comment,
            }
        w.writerow([cells.get(k, "") for k in headers])
        written += 1
    return buf.getvalue(), written, skipped


def import_sheet(store: ReviewStore, dataset: str, path: str | Path, annotator: str | None = None) -> int:
    """Grades from a filled sheet (``claimforge quality sheet export`` with its ``.items.jsonl`` key beside it, or
    one exported by the review page): item ids map to example ids; the annotator is ``annotator``, else the name
    in a page export's file name (``NAME.DATASET.claims.csv``), else the file's stem. The sheet's criteria are
    added to the annotator's open grade (its label stays). Every row is checked before any is written (errors
    name the file and row). Returns how many."""
    p = Path(path)
    try:
        sheet = read_sheet(p, allow_incomplete=True)
    except ValueError as e:
        raise ReviewError(str(e)) from None
    key = read_items(items_path(p)) if items_path(p).is_file() else {}
    ds = store.dataset(dataset)
    exported = re.match(rf"^(.+)\.{re.escape(dataset)}\.(claims|negations)$", p.stem)  # the page's export name
    name = check_annotator(annotator or (exported.group(1) if exported else sheet.annotator))
    rows: list[tuple[Example, dict[str, Any], str]] = []
    for n, (item, ratings) in enumerate(sheet.ratings.items(), 1):
        example_id = str((key.get(item) or {}).get("example_id") or item)
        ex = ds.by_id.get(example_id)
        if ex is None:
            raise ReviewError(f"{p}: item {item!r} (rated row {n}): no example {example_id!r} in {ds.path}")
        values = {c: v for c, v in ratings.items() if v is not None}
        try:
            validate_grade(ex, values)
        except ReviewError as err:
            raise ReviewError(f"{p}: item {item!r} (rated row {n}): {err}") from None
        rows.append((ex, values, sheet.comments.get(item, "")))
    for ex, values, comment in rows:  # every row checked before any is written
        before = next(iter(store.grades_of(dataset, ex.id, name, blind=False)), None)  # the sheet adds to it
        merged = {**(before.values if before else {}), **values}
        note = comment or (before.comment if before else "")
        store.grade(dataset, ex.id, name, merged, blind=False, comment=note, source=f"sheet:{p.name}")
    return len(rows)


# ----------------------------------------------------------------------------------------------------------------
# apply-review


def reviewed_examples(store: ReviewStore, dataset: str) -> tuple[list[Example], list[Reject], dict[str, int]]:
    """The dataset with its fix actions applied: relabelled examples carry ``provenance.details.review`` (the
    label before, who, when); rejected ones become ``review`` rejects with the reason. Counts add up:
    examples in = examples out + rejected."""
    ds = store.dataset(dataset)
    out: list[Example] = []
    rejects: list[Reject] = []
    counts = Counter[str]()
    for e in ds.examples:
        f = store.fixes.get((dataset, e.id))
        if f is None:
            out.append(e)
            counts["kept"] += 1
        elif f.action == "relabel":
            assert f.label is not None
            note = {"action": "relabel", "label_before": e.label.value, "annotator": f.annotator, "time": f.time}
            if f.reason:
                note["reason"] = f.reason
            prov = e.provenance.model_copy(update={"details": {**e.provenance.details, "review": note}})
            out.append(e.model_copy(update={"label": Label(f.label), "provenance": prov}))
            counts["relabelled"] += 1
        else:
            rejects.append(
                Reject(
                    item_id=e.id,
                    scope="example",
                    stage="review",
                    reason="rejected_in_review",
                    detail=f"{f.reason} (by {f.annotator}, {f.time}; label was {e.label.value})",
                    ref=e.provenance.source,
                )
            )
            counts["rejected"] += 1
    assert counts["kept"] + counts["relabelled"] + counts["rejected"] == len(ds.examples)
    return out, rejects, dict(counts)
