"""Readers of multiple-choice questions: SciQ, MedMCQA, Medbullets, generic tables and Hugging Face files.

Every reader is a registered component of kind ``"reader"`` (``registry.build("reader", {"name": "sciq",
"path": ...})``, or :func:`reader_from_spec` for the CLI form ``NAME:PATH``). A reader has a ``dataset``
name and ``read(skip_bad=False)``, which yields exactly one :class:`MCQItem` or one :class:`Reject` per
record in the file, in file order; nothing is dropped silently.

Provenance
    ``SourceRef.line`` is the 1-based line where the record starts: the physical line for JSONL and
    CSV/TSV (CSV fields may span lines), the line of the object's opening ``{`` for a JSON array. For
    pandas-column JSON (``{column: {row_index: value}}``, as written by ``DataFrame.to_json()``) it is the
    row's index label (an int, usually 0-based), and for the ``hf`` reader it is None (the dataset row is
    the ``n`` of the item id). Blank lines are not records. Item ids are ``{dataset}:{file stem}:{n}``
    with ``n`` the 0-based record index (for Medbullets: the row index), or ``{dataset}:{source id}`` when
    the source has an id column (a repeated source id is a malformed record).

Errors
    A malformed record (invalid JSON, a value of the wrong type, a CSV row with the wrong number of fields,
    an answer index out of range, an unknown answer letter, ...) raises :class:`InputError`, whose message
    names the file, the line (or row) and what was wrong; with ``skip_bad=True`` it becomes a
    ``Reject(stage="read", reason="malformed_record")`` instead. Problems with the file as a whole (missing
    file, broken JSON array syntax, a mapped column absent from the CSV header) always raise.
    Well-formed records with missing or empty fields are *not* read errors: the item keeps what is there
    (empty question, ``""`` for a missing option, ``answer_index=None``, ``explanation=None``) and the
    pipeline later rejects it with a reason. An answer of ``-1`` means "no gold answer" (MedMCQA's
    convention) and also gives ``answer_index=None``.

Text
    Questions and options are stripped and every run of whitespace becomes one space; explanations keep
    line/paragraph breaks as a single ``"\\n"`` and collapse spaces/tabs within lines.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol

from claimforge.io.rows import (
    CSV_EXTENSIONS,
    HF_BUILDERS,
    JSON_EXTENSIONS,
    InputError,
    RawRecord,
    check_file,
    csv_header,
    iter_csv_records,
    iter_json_records,
    normalize_explanation,
    normalize_text,
)
from claimforge.nlp.words import restore_lost_rt
from claimforge.records import MCQItem, Record, Reject, SourceRef
from claimforge.registry import ComponentConfig, registry

__all__ = [
    "ColumnMapping",
    "HFReader",
    "MCQReader",
    "MedbulletsReader",
    "MedMCQAReader",
    "SciQReader",
    "TableReader",
    "map_record",
    "resolve_answer",
]


class MCQReader(Protocol):
    dataset: str

    def read(self, skip_bad: bool = False) -> Iterator[MCQItem | Reject]: ...


class _Malformed(Exception):
    """Raised inside a record conversion; becomes an InputError or a Reject."""


def _is_missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _to_text(value: Any, what: str) -> str:
    """A field's raw value as text: None/NaN -> "", numbers -> str, anything else but str -> malformed."""
    if _is_missing(value):
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise _Malformed(f"{what}: expected text, got a boolean ({value})")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    raise _Malformed(f"{what}: expected text, got {type(value).__name__}")


def _text(value: Any, what: str) -> str:
    return normalize_text(_to_text(value, what))


def _explanation(value: Any, what: str) -> str | None:
    return normalize_explanation(_to_text(value, what)) or None


# --------------------------------------------------------------------------------------------------
# Answers


_LETTER = re.compile(r"^\(?([A-Za-z])[.):]?$")
_INT = re.compile(r"^[+-]?\d+$")
AnswerFormat = Literal["auto", "index0", "index1", "letter", "text"]


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
        return _as_int(value.item())
    return None


def _index(i: int, base: int, options: Sequence[str], raw: Any) -> int | None:
    if i == -1:  # MedMCQA's "no gold answer"
        return None
    idx = i - base
    if not 0 <= idx < len(options):
        raise _Malformed(f"answer index {raw!r} out of range for {len(options)} options (index base {base})")
    return idx


def _letter(letter: str, options: Sequence[str], raw: Any) -> int:
    idx = ord(letter.upper()) - ord("A")
    if idx >= len(options):
        raise _Malformed(f"answer letter {raw!r} out of range for {len(options)} options")
    return idx


def _match_text(text: str, options: Sequence[str], raw: Any) -> int:
    for i, opt in enumerate(options):
        if opt == text:
            return i
    folded = text.casefold()
    for i, opt in enumerate(options):
        if opt.casefold() == folded:
            return i
    raise _Malformed(f"answer text {raw!r} matches none of the options")


def resolve_answer(
    value: Any,
    options: Sequence[str],
    fmt: AnswerFormat = "auto",
    index_base: int = 0,
    typed: bool = True,
) -> int | None:
    """The 0-based index of the gold option given a raw answer value, or None when there is none.

    ``fmt``: ``index0``/``index1`` (an int, or an int-like string), ``letter`` (``A``, ``b``, ``(C)``,
    ``D.``), ``text`` (matched against the normalised options, exactly, then case-insensitively) or
    ``auto``: a single letter A-Z is a letter (or, if beyond the options, an option's text), an int an
    index (``index_base``), anything else text.
    For untyped sources (``typed=False``: CSV/TSV, where every cell is a string) an int-like string counts
    as an int in ``auto``; in typed sources (JSON, parquet) only real numbers do. Missing, NaN, empty and
    ``-1`` answers give None. Raises ``_Malformed`` for a wrong type, an out-of-range index or letter, or
    text matching no option.
    """
    if _is_missing(value) or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise _Malformed(f"answer must be an index, letter or text, got a boolean ({value})")
    as_str = normalize_text(value) if isinstance(value, str) else None
    if fmt in ("index0", "index1"):
        i = _as_int(value)
        if i is None and as_str is not None and _INT.match(as_str):
            i = int(as_str)
        if i is None:
            raise _Malformed(f"answer {value!r} is not an integer index")
        return _index(i, 0 if fmt == "index0" else 1, options, value)
    if fmt == "letter":
        m = _LETTER.match(as_str) if as_str is not None else None
        if not m:
            raise _Malformed(f"unknown answer letter {value!r}")
        return _letter(m.group(1), options, value)
    if fmt == "text":
        return _match_text(_text(value, "answer"), options, value)
    if fmt != "auto":  # pragma: no cover - guarded by the config's Literal
        raise ValueError(f"unknown answer_format {fmt!r}")
    i = _as_int(value)
    if i is not None:
        return _index(i, index_base, options, value)
    if as_str is None:
        raise _Malformed(f"answer must be an index, letter or text, got {type(value).__name__}")
    if len(as_str) == 1 and "A" <= as_str.upper() <= "Z":
        try:
            return _letter(as_str, options, value)
        except _Malformed as e:  # e.g. options "x", "y", "z" and the answer "z"
            try:
                return _match_text(as_str, options, value)
            except _Malformed:
                raise _Malformed(f"{e} and matches none of the options") from None
    if not typed and _INT.match(as_str):
        return _index(int(as_str), index_base, options, value)
    return _match_text(as_str, options, value)


# --------------------------------------------------------------------------------------------------
# Items


@dataclass
class _Fields:
    question: str
    options: tuple[str, ...]
    answer_index: int | None
    explanation: str | None = None
    source_id: str | None = None  # the source's own id, if it has one
    item_key: str | None = None  # replaces n in "{dataset}:{stem}:{n}" (e.g. a row index label)
    meta: dict[str, Any] = field(default_factory=dict)


class _BaseReader:
    """Turns raw records into items or rejects; subclasses provide ``_convert`` and, unless the file is
    JSON (array, lines or pandas columns), ``_records``."""

    item_type: ClassVar[type[Record]] = MCQItem  # what read() yields besides Rejects (a pipeline's item_type)
    # changes when the reader's code changes what it reads from the same file (stored chunks are not reused)
    version: ClassVar[str] = "1"

    def __init__(self, config: Any) -> None:
        self.config = config
        self.path = Path(config.path)
        self.source = str(config.path)
        self.dataset = config.dataset

    def _records(self) -> Iterator[RawRecord]:
        return iter_json_records(self.path)

    def _convert(self, rec: RawRecord, data: dict[str, Any]) -> _Fields:
        raise NotImplementedError

    def read(self, skip_bad: bool = False) -> Iterator[MCQItem | Reject]:
        """Yield one MCQItem or (with ``skip_bad``) one Reject per record, in file order."""
        stem = self.path.stem
        seen: set[str] = set()
        for rec in self._records():
            fallback = f"{self.dataset}:{stem}:{rec.n}"
            try:
                if rec.error is not None or rec.data is None:
                    raise _Malformed(rec.error or "no data")
                fields = self._convert(rec, rec.data)
                if fields.source_id:
                    item_id = f"{self.dataset}:{fields.source_id}"
                elif fields.item_key is not None:
                    item_id = f"{self.dataset}:{stem}:{fields.item_key}"
                else:
                    item_id = fallback
                if item_id in seen:
                    raise _Malformed(f"duplicate id {item_id!r}")
                seen.add(item_id)
            except _Malformed as e:
                if not skip_bad:
                    raise InputError(self.source, rec.where, str(e)) from None
                ref = SourceRef(dataset=self.dataset, path=self.source, line=rec.line, item_id=fallback)
                yield Reject(item_id=fallback, stage="read", reason="malformed_record", detail=str(e), ref=ref)
                continue
            ref = SourceRef(dataset=self.dataset, path=self.source, line=rec.line, item_id=item_id)
            yield MCQItem(
                id=item_id,
                question=fields.question,
                options=fields.options,
                answer_index=fields.answer_index,
                explanation=fields.explanation,
                ref=ref,
                meta=fields.meta,
            )

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.source!r}, dataset={self.dataset!r})"


# --------------------------------------------------------------------------------------------------
# Column mapping (shared by ``table`` and ``hf``)


class ColumnMapping(ComponentConfig):
    """Which columns hold the question, options, answer, explanation, id and extra metadata."""

    question: str = "question"
    options: list[str] | str  # option columns in order, or one column holding a list
    answer: str | None = "answer"
    answer_format: AnswerFormat = "auto"
    index_base: int = 0  # for integer answers in ``auto``
    explanation: str | None = None
    id: str | None = None
    meta: list[str] = []  # columns copied into MCQItem.meta


def _options_from(row: Mapping[str, Any], options: list[str] | str) -> tuple[str, ...]:
    if isinstance(options, list):
        return tuple(_text(row.get(col), f"option {col!r}") for col in options)
    value: Any = row.get(options)
    if _is_missing(value):
        return ()
    if isinstance(value, str):  # a list serialised in a CSV cell
        stripped = value.strip()
        if not stripped:
            return ()
        try:
            value = json.loads(stripped)
        except json.JSONDecodeError:
            raise _Malformed(f"options column {options!r} does not hold a JSON list") from None
    if hasattr(value, "tolist"):  # numpy / pyarrow arrays
        value = value.tolist()
    if not isinstance(value, (list, tuple)):
        raise _Malformed(f"options column {options!r}: expected a list, got {type(value).__name__}")
    return tuple(_text(v, f"{options}[{i}]") for i, v in enumerate(value))


def _meta_value(value: Any) -> Any:
    if _is_missing(value):
        return None
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def map_record(row: Mapping[str, Any], mapping: ColumnMapping, typed: bool = True) -> _Fields:
    """Map one row (a dict of column values) to item fields; raises ``_Malformed`` for bad values.

    ``typed=False`` for CSV/TSV rows, whose cells are all strings (see :func:`resolve_answer`).
    """
    options = _options_from(row, mapping.options)
    answer_index = None
    if mapping.answer is not None:
        answer_index = resolve_answer(
            row.get(mapping.answer), options, mapping.answer_format, mapping.index_base, typed
        )
    explanation = None
    if mapping.explanation is not None:
        explanation = _explanation(row.get(mapping.explanation), f"explanation {mapping.explanation!r}")
    source_id = _text(row.get(mapping.id), f"id {mapping.id!r}") if mapping.id is not None else None
    return _Fields(
        question=_text(row.get(mapping.question), f"question {mapping.question!r}"),
        options=options,
        answer_index=answer_index,
        explanation=explanation,
        source_id=source_id or None,
        meta={col: _meta_value(row.get(col)) for col in mapping.meta},
    )


def _mapped_columns(mapping: ColumnMapping) -> list[str]:
    cols = [mapping.question, mapping.answer, mapping.explanation, mapping.id, *mapping.meta]
    cols += mapping.options if isinstance(mapping.options, list) else [mapping.options]
    return [c for c in cols if c is not None]


# --------------------------------------------------------------------------------------------------
# SciQ


class SciQConfig(ComponentConfig):
    path: str
    dataset: str = "sciq"


SCIQ_SLOTS = ("correct_answer", "distractor1", "distractor2", "distractor3")


def sciq_option_order(question: str) -> list[str]:
    """The fixed order of SciQ's four option fields for a (normalised) question.

    The fields are sorted by ``sha256(question + "\\x1f" + field name)``: stable across runs, machines and
    Python versions, and the correct answer lands in each position about a quarter of the time.
    """
    return sorted(SCIQ_SLOTS, key=lambda s: hashlib.sha256(f"{question}\x1f{s}".encode()).hexdigest())


@registry.register("reader", "sciq", SciQConfig)
class SciQReader(_BaseReader):
    """SciQ JSON (array or lines): question, distractor1-3, correct_answer, support -> explanation."""

    def _convert(self, rec: RawRecord, data: dict[str, Any]) -> _Fields:
        question = _text(data.get("question"), "question")
        values = {slot: _text(data.get(slot), slot) for slot in SCIQ_SLOTS}
        order = sciq_option_order(question)
        answer_index = order.index("correct_answer") if values["correct_answer"] else None
        return _Fields(
            question=question,
            options=tuple(values[slot] for slot in order),
            answer_index=answer_index,
            explanation=_explanation(data.get("support"), "support"),
        )


# --------------------------------------------------------------------------------------------------
# MedMCQA


class MedMCQAConfig(ComponentConfig):
    path: str
    dataset: str = "medmcqa"
    cop_base: int = 1  # official JSON release: 1 -> opa; Hugging Face ``medmcqa``: 0 -> opa
    # MedMCQA lost every "rt" ("hypeension", "Fuher", "aery"): put it back where exactly one known word results
    # (nlp/words.py); the repairs are listed in the item's meta ``restored_rt``
    restore_lost_rt: bool = True


_CHOICE_PREFIX = re.compile(r"^\(?([A-Z])[.):](?:\s+|$)")
_OFFICIAL_KEYS = ("opa", "opb", "opc", "opd", "cop", "exp", "choice_type")


def strip_choice_prefixes(choices: Sequence[str]) -> tuple[str, ...]:
    """Remove "A. " / "B) " / "(C) " prefixes, only when every choice has its own position's letter."""
    matches = [_CHOICE_PREFIX.match(c) for c in choices]
    if choices and all(m and m.group(1) == chr(ord("A") + i) for i, m in enumerate(matches)):
        return tuple(c[m.end() :].strip() for c, m in zip(choices, matches, strict=True) if m)
    return tuple(choices)


@registry.register("reader", "medmcqa", MedMCQAConfig)
class MedMCQAReader(_BaseReader):
    """MedMCQA JSON/JSONL, layout detected per record: {question, choices, answer} or the official one.

    (a) ``{question, choices: ["A. ..", ...], answer}``: 0-based answer, -1 = unknown; letter prefixes
    are stripped. (b) official ``{id, question, opa..opd, cop, choice_type, exp, subject_name,
    topic_name}``: ``cop`` is 1-based in the official release and 0-based in the Hugging Face dataset
    (``cop_base``); a missing cop or -1 means unknown; ``exp`` is the explanation, ``id`` the item id,
    and ``choice_type``, ``subject_name``, ``topic_name`` go into meta. With ``restore_lost_rt`` (default) the
    letters "rt" MedMCQA lost are put back (:func:`claimforge.nlp.words.restore_lost_rt`).
    """

    # 2: the lost "rt" restored (it depends on the embedded LM's words: a new LM is a new version)
    version: ClassVar[str] = "2"

    def _convert(self, rec: RawRecord, data: dict[str, Any]) -> _Fields:
        fields = self._fields(data)
        if not self.config.restore_lost_rt:
            return fields
        restored: list[str] = []

        def repaired(text: str) -> str:
            new, fixed = restore_lost_rt(text)
            restored.extend(fixed)
            return new

        fields.question = repaired(fields.question)
        fields.options = tuple(repaired(o) for o in fields.options)
        if fields.explanation:
            fields.explanation = repaired(fields.explanation)
        if restored:
            fields.meta = {**fields.meta, "restored_rt": restored}
        return fields

    def _fields(self, data: dict[str, Any]) -> _Fields:
        if any(k in data for k in _OFFICIAL_KEYS):
            return self._official(data)
        choices = data.get("choices")
        if _is_missing(choices):
            choices = []
        if not isinstance(choices, list):
            raise _Malformed(f"choices: expected a list, got {type(choices).__name__}")
        options = strip_choice_prefixes([_text(c, f"choices[{i}]") for i, c in enumerate(choices)])
        answer = data.get("answer")
        if not _is_missing(answer) and _as_int(answer) is None:
            raise _Malformed(f"answer: expected an integer index, got {answer!r}")
        return _Fields(
            question=_text(data.get("question"), "question"),
            options=options,
            answer_index=resolve_answer(answer, options, "index0"),
            explanation=_explanation(data.get("exp"), "exp"),
        )

    def _official(self, data: dict[str, Any]) -> _Fields:
        options = tuple(_text(data.get(k), k) for k in ("opa", "opb", "opc", "opd"))
        cop = data.get("cop")
        if not _is_missing(cop) and _as_int(cop) is None:
            raise _Malformed(f"cop: expected an integer, got {cop!r}")
        answer_index = None
        if not _is_missing(cop):
            answer_index = _index(_as_int(cop), self.config.cop_base, options, cop)  # type: ignore[arg-type]
        meta = {k: _meta_value(data.get(k)) for k in ("choice_type", "subject_name", "topic_name")}
        return _Fields(
            question=_text(data.get("question"), "question"),
            options=options,
            answer_index=answer_index,
            explanation=_explanation(data.get("exp"), "exp"),
            source_id=_text(data.get("id"), "id") or None,
            meta=meta,
        )


# --------------------------------------------------------------------------------------------------
# Medbullets


class MedbulletsConfig(ComponentConfig):
    path: str
    dataset: str = "medbullets"


MEDBULLETS_OPTIONS = ("opa", "opb", "opc", "opd", "ope")


@registry.register("reader", "medbullets", MedbulletsConfig)
class MedbulletsReader(_BaseReader):
    """Medbullets CSV or pandas-column JSON: question, opa..opd(/ope), answer_idx letter, answer, explanation.

    The option columns are those present in the file (``ope`` only in op5). ``answer`` must agree with the
    option at ``answer_idx`` (else the record is malformed). Ids use the row index; ``link`` goes to meta.
    """

    def __init__(self, config: MedbulletsConfig) -> None:
        super().__init__(config)
        self._mapping: ColumnMapping | None = None
        self._typed = False

    def _records(self) -> Iterator[RawRecord]:
        suffix = self.path.suffix.lower()
        if suffix in CSV_EXTENSIONS:
            check_file(self.path)
            columns = csv_header(self.path, None, None)
            self._typed = False
            records = iter_csv_records(self.path)
        elif suffix in JSON_EXTENSIONS:
            records = iter_json_records(self.path)
            first = next(records, None)
            if first is None:
                return
            columns = list(first.data or {})
            self._typed = True
            records = _chain(first, records)
        else:
            raise InputError(self.path, None, f"medbullets reads .csv or .json files, not {suffix!r}")
        options = [c for c in MEDBULLETS_OPTIONS if c in columns] or list(MEDBULLETS_OPTIONS[:4])
        meta = [c for c in ("link",) if c in columns]
        self._mapping = ColumnMapping(
            question="question",
            options=options,
            answer="answer_idx",
            answer_format="letter",
            explanation="explanation",
            meta=meta,
        )
        yield from records

    def _convert(self, rec: RawRecord, data: dict[str, Any]) -> _Fields:
        assert self._mapping is not None
        fields = map_record(data, self._mapping, typed=self._typed)
        answer = _text(data.get("answer"), "answer")
        if answer and fields.answer_index is not None:
            keyed = fields.options[fields.answer_index]
            if answer.casefold() != keyed.casefold():
                raise _Malformed(
                    f"answer {answer!r} disagrees with the option at answer_idx {data.get('answer_idx')!r} ({keyed!r})"
                )
        fields.item_key = str(rec.row_label) if rec.row_label is not None else str(rec.n)
        return fields


def _chain(first: RawRecord, rest: Iterator[RawRecord]) -> Iterator[RawRecord]:
    yield first
    yield from rest


# --------------------------------------------------------------------------------------------------
# Generic tables


class TableConfig(ColumnMapping):
    path: str
    dataset: str = "table"
    delimiter: str | None = None  # default: tab for .tsv/.tab, comma for .csv
    quoted: bool | None = None  # default: quotes in CSV, none in TSV


@registry.register("reader", "table", TableConfig)
class TableReader(_BaseReader):
    """CSV/TSV/JSONL/JSON with a column mapping (question, options, answer + answer_format, ...)."""

    def __init__(self, config: TableConfig) -> None:
        super().__init__(config)
        self._typed = True

    def _records(self) -> Iterator[RawRecord]:
        suffix = self.path.suffix.lower()
        if suffix in JSON_EXTENSIONS:
            self._typed = True
            yield from iter_json_records(self.path)
            return
        if suffix in CSV_EXTENSIONS or self.config.delimiter:
            check_file(self.path)
            header = csv_header(self.path, self.config.delimiter, self.config.quoted)
            missing = [c for c in _mapped_columns(self.config) if c not in header]
            if header and missing:
                raise InputError(self.path, None, f"columns {missing} not in the header {header}")
            self._typed = False
            yield from iter_csv_records(self.path, self.config.delimiter, self.config.quoted)
            return
        raise InputError(
            self.path,
            None,
            f"table reads {', '.join(JSON_EXTENSIONS + CSV_EXTENSIONS)} files, not "
            f"{suffix!r} (set 'delimiter' for other delimited text; use the 'hf' reader for parquet)",
        )

    def _convert(self, rec: RawRecord, data: dict[str, Any]) -> _Fields:
        return map_record(data, self.config, typed=self._typed)


# --------------------------------------------------------------------------------------------------
# Hugging Face datasets (local files only)


class HFConfig(ColumnMapping):
    path: str  # a .json/.jsonl/.csv/.tsv/.parquet/.arrow file, or a save_to_disk directory
    dataset: str = "hf"
    split: str = "train"
    cache_dir: str | None = None  # default: <claimforge cache>/hf_datasets


@registry.register("reader", "hf", HFConfig)
class HFReader(_BaseReader):
    """Local files through Hugging Face ``datasets`` (json/csv/parquet/arrow, or load_from_disk), offline.

    ``SourceRef.line`` is None: rows of a ``datasets.Dataset`` do not know their line; the 0-based row is
    the ``n`` in the item id and appears as "row n" in error messages.
    """

    def _load(self) -> Any:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
        try:
            import datasets
        except ImportError as e:  # pragma: no cover - optional dependency
            raise RuntimeError("the 'hf' reader needs the 'datasets' package (pip install datasets)") from e
        path = self.path
        if not path.exists():
            raise InputError(path, None, "no such file or directory")
        try:
            if path.is_dir():
                loaded = datasets.load_from_disk(str(path))
                if isinstance(loaded, datasets.DatasetDict):
                    if self.config.split not in loaded:
                        raise InputError(path, None, f"no split {self.config.split!r} (has {sorted(loaded)})")
                    loaded = loaded[self.config.split]
                return loaded
            suffix = path.suffix.lower()
            builder = HF_BUILDERS.get(suffix)
            if builder is None:
                raise InputError(
                    path,
                    None,
                    f"hf reads {', '.join(sorted(HF_BUILDERS))} files or a dataset directory, not {suffix!r}",
                )
            kwargs: dict[str, Any] = {}
            if suffix in (".tsv", ".tab"):
                kwargs["sep"] = "\t"
            from claimforge.cache import default_cache_dir

            cache_dir = self.config.cache_dir or str(default_cache_dir() / "hf_datasets")
            return datasets.load_dataset(
                builder,
                data_files={self.config.split: str(path)},
                split=self.config.split,
                cache_dir=cache_dir,
                download_config=datasets.DownloadConfig(local_files_only=True),
                **kwargs,
            )
        except InputError:
            raise
        except Exception as e:  # datasets wraps parser errors in many types
            raise InputError(path, None, f"datasets could not load it: {type(e).__name__}: {e}") from None

    def _records(self) -> Iterator[RawRecord]:
        ds = self._load()
        missing = [c for c in _mapped_columns(self.config) if c not in ds.column_names]
        if missing:
            raise InputError(self.path, None, f"columns {missing} not in {ds.column_names}")
        for n, row in enumerate(ds):
            yield RawRecord(n, None, f"row {n}", data=row)

    def _convert(self, rec: RawRecord, data: dict[str, Any]) -> _Fields:
        return map_record(data, self.config, typed=True)


# --------------------------------------------------------------------------------------------------
# CLI specs
