"""Readers of scientific sentences: citation sentences (citances) with their context and the documents they
cite, and plain sentences of abstracts. Each yields :class:`~claimforge.records.SentenceItem` records.

The readers follow the conventions of :mod:`claimforge.io.mcq`: each is a registered component of kind
``"reader"`` with a ``dataset`` name and ``read(skip_bad=False)``, which yields exactly one item or one
:class:`~claimforge.records.Reject` per record, in file order (for ``scifact-corpus`` a record is one
abstract sentence). A malformed record raises :class:`~claimforge.io.mcq.InputError` naming the file and
line, or with ``skip_bad`` becomes ``Reject(stage="read", reason="malformed_record")``. Well-formed records
that cannot become an item are always Rejects (never errors, never dropped), with these reasons:

``cited_document_missing``
    a cited doc id is not in the corpus (the detail names the ids and the corpus file);
``citing_document_missing``
    (``sentences``) the citing doc id is not in the corpus;
``empty_sentence``
    nothing is left of the sentence (after removing the dataset's citation tokens);
``short_sentence``
    (``scifact-corpus``) fewer than ``min_words`` words;
``duplicate_citance``
    (``scifact-citances``) the same citance of the same paper again (none in the real file);
``document_missing``
    (``scifact-corpus``) a doc id asked for in ``doc_ids`` is not in the corpus (one reject per id, last).

``SourceRef.line`` is the 1-based line of the record. Item ids are ``{dataset}:{file stem}:{source id}``
for ``citation-integrity`` (its ids restart at 0 in each split file), ``{dataset}:{doc_id}:{sentence
index}`` for ``scifact-corpus``, ``{dataset}:{file stem}:{n}`` (``n`` the 0-based record index) for
``scifact-citances``, and ``{dataset}:{source id}`` or ``{dataset}:{file stem}:{n}`` for ``sentences``.

A corpus (``corpus.jsonl``) is read once per reader into a dict of shared :class:`Document` objects; a
malformed corpus line always raises an InputError naming the corpus file and line (it is not a record).

Sentences are split with the project's one splitter, :func:`claimforge.nlp.sentences.split_sentences`.

Readers and config keys
    ``citation-integrity``: ``path`` (claims file), ``corpus`` (default: ``corpus.jsonl`` beside it).
    ``scifact-corpus``: ``path`` (corpus.jsonl), ``context`` (1), ``min_words`` (4), ``doc_ids`` (a list, or
    a file: one id per line, or JSONL with ``doc_id``/``cited_doc_ids``), ``limit_docs``, ``strip_headings``.
    ``scifact-citances``: ``path``, ``context`` (1).
    ``sentences``: ``path``, ``corpus``, column names ``id``, ``sentence``, ``context_before``,
    ``context_after``, ``cited``, ``citing``, ``references``, ``meta``; ``delimiter``, ``quoted``.
    All take ``dataset`` (the name used in ids and SourceRefs).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

from claimforge.io.benchmarks import _Bad, _doc, _key
from claimforge.io.citations import marker_counts, split_citance
from claimforge.io.rows import (
    CSV_EXTENSIONS,
    JSON_EXTENSIONS,
    InputError,
    check_file,
    csv_header,
    iter_csv_records,
    iter_json_records,
    normalize_text,
)
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Document, Example, Record, Reject, SentenceItem, SourceRef
from claimforge.registry import ComponentConfig, registry

__all__ = [
    "CitationIntegrityReader",
    "SciFactCitancesReader",
    "SciFactCorpusReader",
    "SentenceTableReader",
    "SentenceReader",
    "load_corpus",
    "strip_heading",
]

# --------------------------------------------------------------------------------------------------
# Abstract headings


_HEADING_WORDS = frozenset(
    """ABSTRACT AIM AIMS ANALYSIS AND AUTHORS AUTHORS' AVAILABILITY BACKGROUND CLINICAL COLLECTION CONCLUSION
    CONCLUSIONS CONTEXT CRITERIA DATA DESIGN DISCUSSION EXPERIMENTAL EXPOSURE EXPOSURES EXTRACTION FINDINGS
    FUNDING IMPORTANCE INTERPRETATION INTERVENTION INTERVENTIONS INTRODUCTION KEY MAIN MATERIALS MEASURE
    MEASURES MEASUREMENTS METHOD METHODS METHODOLOGY MOTIVATION OBJECTIVE OBJECTIVES OF OUTCOME OUTCOMES
    PARTICIPANTS PATIENTS POINTS PRINCIPAL PURPOSE RATIONALE RECENT REGISTRATION RELEVANCE RESEARCH RESULTS
    REVIEW SEARCH SELECTION SETTING SETTINGS SIGNIFICANCE SOURCES STATEMENT STRATEGY STUDY SUBJECTS SUMMARY
    SYNTHESIS TRIAL UNLABELLED""".split()  # noqa: SIM905
)
_HEADING = re.compile(r"^((?:[A-Z][A-Z']*(?:\s*[,/&]\s*|\s+))+)(?=\S)")


def strip_heading(sentence: str) -> tuple[str, str | None]:
    """``(sentence, heading)``: a structured abstract's leading section label ("BACKGROUND", "METHODS AND
    RESULTS", "DESIGN, SETTING, AND PARTICIPANTS") split off when every word of it is a known heading
    word; ``heading`` is None when there is none. Acronyms ("DNA methylation ...") are not headings."""
    m = _HEADING.match(sentence)
    if not m:
        return sentence, None
    words = [w for w in re.split(r"[\s,/&]+", m.group(1)) if w]
    # the label ends before the sentence's first word ("METHODS A total of ..." keeps "A")
    while words and words[-1] not in _HEADING_WORDS:
        words.pop()
    if not words or any(w not in _HEADING_WORDS for w in words):
        return sentence, None
    # cut after the last heading word
    pos = 0
    for w in words:
        pos = sentence.index(w, pos) + len(w)
    rest = sentence[pos:].lstrip(" ,:")
    if rest == sentence:
        return sentence, None
    heading = sentence[:pos].strip()
    return rest, heading


_WORDLESS = re.compile(r"(?<!\S)[^\w\s]+(?!\S)")


def _words(text: str) -> int:
    """Whitespace-separated tokens holding a letter or digit."""
    return len(text.split()) - len(_WORDLESS.findall(text))


# --------------------------------------------------------------------------------------------------
# Corpora


def _doc_sentences(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(split_sentences(value))
    if isinstance(value, list) and all(isinstance(s, str) for s in value):
        return tuple(normalize_text(s) for s in value)
    raise _Bad(f"field {what!r}: expected text or a list of sentences, got {type(value).__name__}")


def _generic_doc(data: dict[str, Any]) -> Document:
    id_field = "doc_id" if "doc_id" in data else "id"
    if id_field not in data:
        raise _Bad("missing field 'doc_id' (or 'id')")
    doc_id = _key(data[id_field], f"field {id_field!r}")
    title = data.get("title") or ""
    if not isinstance(title, str):
        raise _Bad(f"field 'title': expected text, got {type(title).__name__}")
    for field in ("abstract", "text", "sentences"):
        if field in data and data[field] is not None:
            sentences = _doc_sentences(data[field], field)
            break
    else:
        sentences = ()
    return Document(id=doc_id, title=normalize_text(title), sentences=sentences)


def _scifact_doc(data: dict[str, Any]) -> Document:
    doc_id, doc = _doc(data)  # the SciFact corpus format, as the scifact benchmark reads it
    return Document(id=doc_id, title=doc.title, sentences=doc.sentences)


def _iter_docs(path: Path, generic: bool) -> Iterator[tuple[Any, Document | None, str | None]]:
    """``(raw record, document or None, error or None)`` per corpus line."""
    parse = _generic_doc if generic else _scifact_doc
    for rec in iter_json_records(path):
        if rec.data is None:
            yield rec, None, rec.error or "no data"
            continue
        try:
            yield rec, parse(rec.data), None
        except _Bad as e:
            yield rec, None, str(e)


def load_corpus(path: str | Path, generic: bool = False) -> dict[str, Document]:
    """Documents by id (as text) from a corpus file; a malformed line or a repeated id raises InputError.

    The SciFact format (``generic=False``: ``doc_id``, ``title``, ``abstract`` as a list of sentences, kept
    as they are, empty ones too, since rationale indices point into them) or (``generic=True``) ``doc_id``
    or ``id``, ``title`` (optional) and ``abstract``, ``text`` or ``sentences`` as a list or a passage
    (split with :func:`split_sentences`)."""
    path = Path(path)
    docs: dict[str, Document] = {}
    for rec, doc, error in _iter_docs(path, generic):
        if doc is None:
            raise InputError(path, rec.where, f"malformed corpus record: {error}")
        if doc.id in docs:
            raise InputError(path, rec.where, f"duplicate doc id {doc.id}")
        docs[doc.id] = doc
    return docs


# --------------------------------------------------------------------------------------------------
# The reading loop


class _Skip(Exception):
    """A well-formed record that cannot become an item: always a Reject with this reason."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


class SentenceReader:
    """Base of the readers here: turns raw records into SentenceItems or Rejects.

    Subclasses give ``_records`` (default: JSON records of ``path``) and ``_convert(rec, data, item_id)``,
    which returns the SentenceItem fields as a dict or raises ``_Bad`` (malformed) / ``_Skip`` (a reject)."""

    item_type: ClassVar[type[Record]] = SentenceItem  # what read() yields besides Rejects (a pipeline's item_type)
    # the file a reader takes when its ``path`` is a folder (None: a folder is an error of the reader's own)
    folder_file: str | None = None

    def __init__(self, config: Any) -> None:
        path = Path(config.path)
        if path.is_dir() and self.folder_file is not None:
            inside = path / self.folder_file.format(**config.model_dump())
            if not inside.is_file():
                raise InputError(str(path), None, f"a folder without {inside.name} (give the file itself)")
            config = config.model_copy(update={"path": str(inside)})
        self.config = config
        self.path = Path(config.path)
        self.source = str(config.path)
        self.dataset: str = config.dataset

    def _records(self) -> Iterator[Any]:
        return iter_json_records(self.path)

    def _item_id(self, rec: Any, data: dict[str, Any]) -> str | None:
        return None  # None: the fallback "{dataset}:{stem}:{n}"

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        raise NotImplementedError

    def _ref(self, line: int | None, item_id: str) -> SourceRef:
        return SourceRef(dataset=self.dataset, path=self.source, line=line, item_id=item_id)

    def _reject(self, rec: Any, item_id: str, reason: str, detail: str) -> Reject:
        return Reject(item_id=item_id, stage="read", reason=reason, detail=detail, ref=self._ref(rec.line, item_id))

    def read(self, skip_bad: bool = False) -> Iterator[SentenceItem | Reject]:
        """Yield one SentenceItem or one Reject per record, in file order."""
        stem = self.path.stem
        seen: set[str] = set()
        for rec in self._records():
            fallback = f"{self.dataset}:{stem}:{rec.n}"
            item_id = fallback
            try:
                if rec.error is not None or rec.data is None:
                    raise _Bad(rec.error or "no data")
                item_id = self._item_id(rec, rec.data) or fallback
                if item_id in seen:
                    raise _Bad(f"duplicate id {item_id!r}")
                seen.add(item_id)
                fields = self._convert(rec, rec.data, item_id)
            except _Bad as e:
                if not skip_bad:
                    raise InputError(self.source, rec.where, str(e)) from None
                yield self._reject(rec, fallback, "malformed_record", str(e))
                continue
            except _Skip as e:
                yield self._reject(rec, item_id, e.reason, e.detail)
                continue
            yield SentenceItem(id=item_id, ref=self._ref(rec.line, item_id), **fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.source!r}, dataset={self.dataset!r})"


def _str_field(data: dict[str, Any], name: str, required: bool = True) -> str:
    if name not in data or data[name] is None:
        if required:
            raise _Bad(f"missing field {name!r}")
        return ""
    value = data[name]
    if not isinstance(value, str):
        raise _Bad(f"field {name!r}: expected text, got {type(value).__name__}")
    return value


def _missing(ids: Sequence[str], corpus: dict[str, Document], corpus_path: Path, what: str = "cited") -> None:
    absent = [d for d in ids if d not in corpus]
    if absent:
        reason = "cited_document_missing" if what == "cited" else "citing_document_missing"
        raise _Skip(reason, f"{what} doc id {', '.join(absent)} not in the corpus {corpus_path}")


# --------------------------------------------------------------------------------------------------
# Citation-Integrity


class CitationIntegrityConfig(ComponentConfig):
    path: str  # claims_{train,dev,test}.jsonl, or the folder holding them (then ``split`` picks one)
    split: Literal["train", "dev", "test"] = "train"
    corpus: str | None = None  # default: corpus.jsonl in the same folder
    dataset: str = "citation-integrity"


@registry.register("reader", "citation-integrity", CitationIntegrityConfig)
class CitationIntegrityReader(SentenceReader):
    """Citation-Integrity citances (SciFact format) with the abstracts they cite, markers removed.

    A record ``{id, claim, evidence: {doc_id: [{sentences, label}]}, cited_doc_ids}``: ``claim`` is the
    citing text, with ``<|cit|>`` / ``<|multi_cit|>`` where the cited paper is cited (alone / with others)
    and ``<|other_cit|>`` for other citations. The item's ``sentence`` is the sentence holding the target
    token with every token and citation-only bracket group removed
    (:func:`claimforge.io.citations.strip_citation_markers`); the raw text is in ``meta["raw"]`` and the token
    counts in ``meta["markers"]``.

    What the real data holds (train/dev/test, 3,060 citances, each citing one document): 5,258 tokens,
    ``<|other_cit|>`` 2,199, ``<|multi_cit|>`` 1,601, ``<|cit|>`` 1,458; every citance has exactly one
    target token except dev id 98 (only ``<|other_cit|>``). About 2,000 tokens sit in square brackets
    ("[<|cit|>]", "[<|multi_cit|>,7]", "[8, <|multi_cit|>, 20]", "[<|multi_cit|>–11]", "[<|cit|>••]"),
    about 1,400 in parentheses ("(<|cit|>)", "(<|multi_cit|>; Baldridge et al., 2010)", "(Smith et al.,
    <|other_cit|>)", "(Fig. <|other_cit|>)", where the figure number became a token) and the rest are bare,
    often glued to the text ("growth<|cit|>.", "miR-211.<|cit|> Liu", "<|multi_cit|>,17").

    Multi-sentence citances: 315 texts are passages of 2 to 21 sentences, not one sentence (e.g. train id
    3 "...targeting miR-211.<|cit|> Liu et al. show ..."). A token right after end punctuation belongs
    to the sentence before it, and a token followed by a capitalised word ends a sentence that lost its
    full stop ("shown in <|multi_cit|> It must be noted", 7 times). The sentence is the one holding the
    target token (else the one with any token, else the whole text; if several sentences held a target
    token, the span from the first to the last: none in the data); the others become
    ``context_before`` (145 items) / ``context_after`` (262). 27 texts repeat the sentence with its
    reference number ("X.<|cit|> X.6"); the repeat is dropped from the context. ``meta["citance_split"]``
    records ``n_sentences``, ``anchor`` ("target", "other", "none"), ``span`` and ``repeats_dropped``.

    ``meta["integrity_labels"]`` maps each cited doc id to the dataset's label, SUPPORT / REFUTE / NEI
    (NEI: no evidence for that document), and ``meta["integrity_rationales"]`` to its evidence sentence
    indices. These say whether the *citation* is accurate. They are NOT labels of any claim made from
    the sentence and must never be used as claim labels (or to pick a claim's label).

    ``cited`` are the cited abstracts from the corpus (``citing`` is None: the data has no citing paper).
    A cited id missing from the corpus makes the record a Reject ``cited_document_missing`` (none in the
    real data: the 3,060 citances cite 3,060 different abstracts, all among the corpus's 3,063).
    """

    folder_file = "claims_{split}.jsonl"

    def __init__(self, config: CitationIntegrityConfig) -> None:
        super().__init__(config)
        self.corpus_path = Path(config.corpus) if config.corpus else self.path.parent / "corpus.jsonl"
        self._corpus: dict[str, Document] | None = None

    def corpus(self) -> dict[str, Document]:
        if self._corpus is None:
            self._corpus = load_corpus(self.corpus_path)
        return self._corpus

    def _records(self) -> Iterator[Any]:
        self.corpus()  # a broken corpus fails before the first record
        return iter_json_records(self.path)

    def _item_id(self, rec: Any, data: dict[str, Any]) -> str | None:
        if "id" not in data:
            raise _Bad("missing field 'id'")
        source_id = _key(data["id"], "field 'id'")
        return f"{self.dataset}:{self.path.stem}:{source_id}"

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        raw = _str_field(data, "claim")
        ids = data.get("cited_doc_ids")
        if not isinstance(ids, list):
            raise _Bad(f"field 'cited_doc_ids': expected a list of doc ids, got {type(ids).__name__}")
        cited_ids = list(dict.fromkeys(_key(d, "field 'cited_doc_ids'") for d in ids))
        evidence = data.get("evidence", {})
        if not isinstance(evidence, dict):
            raise _Bad(f"field 'evidence': expected an object {{doc_id: [...]}}, got {type(evidence).__name__}")
        uncited = sorted(set(evidence) - set(cited_ids))
        if uncited:
            raise _Bad(f"evidence for doc {uncited[0]}, which the record does not cite")
        labels: dict[str, str] = {}
        rationales: dict[str, list[int]] = {}
        for doc_id in cited_ids:
            labels[doc_id], rationales[doc_id] = _integrity_label(evidence.get(doc_id), doc_id)
        corpus = self.corpus()
        _missing(cited_ids, corpus, self.corpus_path)
        before, sentence, after, info = split_citance(raw)
        if not sentence:
            raise _Skip("empty_sentence", "nothing is left after removing the citation tokens")
        return {
            "sentence": sentence,
            "context_before": before,
            "context_after": after,
            "cited": tuple(corpus[d] for d in cited_ids),
            "meta": {
                "raw": raw,
                "source_id": _key(data["id"], "field 'id'"),
                "integrity_labels": labels,
                "integrity_rationales": rationales,
                "markers": marker_counts(raw),
                "citance_split": info,
            },
        }


def _integrity_label(sets: Any, doc_id: str) -> tuple[str, list[int]]:
    if not sets:
        return "NEI", []
    if not isinstance(sets, list) or not all(isinstance(s, dict) for s in sets):
        raise _Bad(f"evidence for doc {doc_id}: expected a list of {{sentences, label}} objects")
    found: set[str] = set()
    rationale: set[int] = set()
    for ev in sets:
        label = ev.get("label")
        if not isinstance(label, str) or not label:
            raise _Bad(f"evidence for doc {doc_id}: label {label!r} is not text")
        found.add(label)
        sentences = ev.get("sentences", [])
        if not isinstance(sentences, list) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in sentences
        ):
            raise _Bad(f"evidence for doc {doc_id}: 'sentences' must be a list of sentence indices")
        rationale.update(sentences)
    return "/".join(sorted(found)), sorted(rationale)


# --------------------------------------------------------------------------------------------------
# SciFact corpus sentences


class SciFactCorpusConfig(ComponentConfig):
    path: str  # corpus.jsonl, or the folder holding it
    dataset: str = "scifact-corpus"
    context: int = 1  # neighbouring sentences on each side
    min_words: int = 4  # shorter sentences are rejects ("short_sentence")
    doc_ids: list[str | int] | str | None = None  # restrict to these (a list, or a file of ids)
    limit_docs: int | None = None
    strip_headings: bool = True  # "BACKGROUND Microarrays offer ..." -> "Microarrays offer ..."


@registry.register("reader", "scifact-corpus", SciFactCorpusConfig)
class SciFactCorpusReader(SentenceReader):
    """Every sentence of the SciFact corpus abstracts, as plain scientific text.

    One item per abstract sentence, id ``{dataset}:{doc_id}:{i}`` (``i`` the 0-based sentence index, as in
    SciFact's rationales), ``SourceRef.line`` the abstract's line. ``citing`` is the abstract as a
    :class:`Document` and ``cited`` is the same document (the sentence's own abstract is its evidence);
    one shared object per abstract. ``context_before``/``context_after`` are up to ``context``
    neighbouring sentences (those without a word, such as ".", left out). With ``strip_headings`` a
    structured abstract's section label is removed from the sentence and its context
    (``meta["section"]`` is the section the sentence is in; the Document keeps the sentences as they
    are). A sentence with fewer than ``min_words`` words (tokens with a letter or digit) is a Reject
    ``short_sentence`` (the real corpus has 777 sentences that are just "."); an empty one
    ``empty_sentence``. A malformed line is one record (an error, or with ``skip_bad`` one Reject).
    Real corpus: 5,183 abstracts, 45,952 sentences; with the defaults 44,657 items and 1,295 rejects.
    """

    folder_file = "corpus.jsonl"

    def __init__(self, config: SciFactCorpusConfig) -> None:
        super().__init__(config)
        self.wanted = _wanted_ids(config.doc_ids)

    def read(self, skip_bad: bool = False) -> Iterator[SentenceItem | Reject]:
        cfg = self.config
        seen: set[str] = set()
        n_docs = 0
        limited = False
        wanted = set(self.wanted) if self.wanted is not None else None
        for rec, doc, error in _iter_docs(self.path, generic=False):
            if doc is not None and wanted is not None and doc.id not in wanted:
                continue
            if cfg.limit_docs is not None and n_docs >= cfg.limit_docs:
                limited = True
                break
            n_docs += 1
            fallback = f"{self.dataset}:{self.path.stem}:{rec.n}"
            if doc is not None and doc.id in seen:
                error = f"duplicate doc id {doc.id}"
                doc = None
            if doc is None:
                if not skip_bad:
                    raise InputError(self.source, rec.where, str(error))
                yield self._reject(rec, fallback, "malformed_record", str(error))
                continue
            seen.add(doc.id)
            yield from self._sentences(rec, doc)
        if self.wanted is not None and not limited:
            for doc_id in [d for d in self.wanted if d not in seen]:
                item_id = f"{self.dataset}:{doc_id}"
                ref = self._ref(None, item_id)
                detail = f"doc id {doc_id} (from doc_ids) not in {self.source}"
                yield Reject(item_id=item_id, stage="read", reason="document_missing", detail=detail, ref=ref)

    def _sentences(self, rec: Any, doc: Document) -> Iterator[SentenceItem | Reject]:
        cfg = self.config
        stripped = [self._strip(s) for s in doc.sentences]
        words = [_words(s) for s, _ in stripped]
        texts = [s if n else "" for (s, _), n in zip(stripped, words, strict=True)]  # wordless: no context
        section: str | None = None
        for i, (sentence, heading) in enumerate(stripped):
            section = heading or section
            item_id = f"{self.dataset}:{doc.id}:{i}"
            if not sentence:
                yield self._reject(rec, item_id, "empty_sentence", f"sentence {i} of doc {doc.id} is empty")
                continue
            n = words[i]
            if n < cfg.min_words:
                detail = f"{n} words (min_words {cfg.min_words}): {sentence!r}"
                yield self._reject(rec, item_id, "short_sentence", detail)
                continue
            before = tuple(s for s in texts[max(0, i - cfg.context) : i] if s) if cfg.context > 0 else ()
            after = tuple(s for s in texts[i + 1 : i + 1 + cfg.context] if s) if cfg.context > 0 else ()
            meta: dict[str, Any] = {"doc_id": doc.id, "sentence_index": i}
            if section:
                meta["section"] = section
            yield SentenceItem(
                id=item_id,
                sentence=sentence,
                context_before=before,
                context_after=after,
                cited=(doc,),
                citing=doc,
                ref=self._ref(rec.line, item_id),
                meta=meta,
            )

    def _strip(self, sentence: str) -> tuple[str, str | None]:
        if not self.config.strip_headings:
            return sentence, None
        return strip_heading(sentence)


def _wanted_ids(value: list[str | int] | str | None) -> list[str] | None:
    """doc ids from a list, or a file: one id per line (blank lines and ``#`` comments skipped), or JSON
    records with ``doc_id`` or ``cited_doc_ids`` (a SciFact claims file: the documents it cites)."""
    if value is None:
        return None
    if isinstance(value, list):
        return list(dict.fromkeys(str(v).strip() for v in value))
    path = Path(value)
    ids: list[str] = []
    if path.suffix.lower() in JSON_EXTENSIONS:
        for rec in iter_json_records(path):
            data = rec.data
            if data is None:
                raise InputError(path, rec.where, f"malformed doc_ids record: {rec.error}")
            raw = data.get("cited_doc_ids", data.get("doc_ids", [data.get("doc_id")]))
            if not isinstance(raw, list) or any(v is None for v in raw):
                raise InputError(path, rec.where, "expected 'doc_id' or a list 'cited_doc_ids'")
            ids.extend(str(v) for v in raw)
    else:
        if not path.is_file():
            raise InputError(path, None, "no such file (doc_ids)")
        for line in path.read_text(encoding="utf-8-sig").splitlines():
            line = line.split("#", 1)[0].strip()
            ids.extend(t for t in re.split(r"[\s,;]+", line) if t)
    return list(dict.fromkeys(ids))


# --------------------------------------------------------------------------------------------------
# SciFact citances (CLAIMGEN data)


class SciFactCitancesConfig(ComponentConfig):
    path: str  # scifact_citances_train.jsonl
    dataset: str = "scifact-citances"
    context: int = 1  # paragraph sentences on each side of the citance


@registry.register("reader", "scifact-citances", SciFactCitancesConfig)
class SciFactCitancesReader(SentenceReader):
    """SciFact's citances with the claims experts wrote for them (the CLAIMGEN-BART training data).

    A record ``{s2orc_id, title, abstract, citation_paragraph, citance, claims: [{text, subject,
    is_negation}]}``. ``sentence`` is the citance, whitespace collapsed, its citation markers ("[49]",
    "(Smith et al. 2010)") kept: the generators' cleanup removes them. The context is up to ``context``
    sentences of ``citation_paragraph`` just before and after the citance (located in the paragraph by
    its text; if it is not there the context is empty and ``meta["context_found"]`` is False; it is
    found in all 443 real records). ``citing`` is the citing paper, ``s2orc:{s2orc_id}``, title and
    abstract sentences (12 real records have no abstract, 7 no title); ``cited`` is empty (the file has
    no cited abstracts). ``references`` are the texts of the claims with ``is_negation`` false; the
    negated ones (claims the annotators wrote as false versions) are in ``meta["negated_references"]``.

    The real file has 443 records, no repeated citance, one paper (s2orc 20380985) with two citances
    (they share a Document). A repeat of a (paper, citance) pair would be a Reject ``duplicate_citance``.
    48 citances split into several pieces with the plain splitter, all but 2 at "et al." or "Fig.";
    those 2 are really two sentences and are kept whole (the claims were written for the whole citance).
    """

    def __init__(self, config: SciFactCitancesConfig) -> None:
        super().__init__(config)
        self._papers: dict[tuple[str, str, str], Document] = {}  # one shared Document per paper
        self._citances: dict[tuple[str, str], str] = {}  # (paper, citance) -> first item id

    def read(self, skip_bad: bool = False) -> Iterator[SentenceItem | Reject]:
        self._papers, self._citances = {}, {}
        yield from super().read(skip_bad)

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        if "s2orc_id" not in data:
            raise _Bad("missing field 's2orc_id'")
        paper_id = _key(data["s2orc_id"], "field 's2orc_id'")
        citance = _str_field(data, "citance")
        paragraph = _str_field(data, "citation_paragraph", required=False)
        title = normalize_text(_str_field(data, "title", required=False))
        abstract = _str_field(data, "abstract", required=False)
        claims = data.get("claims") or []
        if not isinstance(claims, list):
            raise _Bad(f"field 'claims': expected a list, got {type(claims).__name__}")
        references: list[str] = []
        negated: list[str] = []
        for j, claim in enumerate(claims):
            if not isinstance(claim, dict) or not isinstance(claim.get("text"), str):
                raise _Bad(f"claims[{j}]: expected an object with a 'text'")
            neg = claim.get("is_negation", False)
            if not isinstance(neg, bool):
                raise _Bad(f"claims[{j}].is_negation: expected true or false, got {neg!r}")
            text = normalize_text(claim["text"])
            if text:
                (negated if neg else references).append(text)
        sentence = normalize_text(citance)
        if not sentence:
            raise _Skip("empty_sentence", "the citance is empty")
        key = (paper_id, sentence)
        if key in self._citances:
            raise _Skip("duplicate_citance", f"the same citance of s2orc {paper_id} as {self._citances[key]}")
        self._citances[key] = item_id
        before, after, found = _paragraph_context(paragraph, citance, self.config.context)
        doc_key = (paper_id, title, abstract)
        citing = self._papers.get(doc_key)
        if citing is None:
            citing = Document(id=f"s2orc:{paper_id}", title=title, sentences=tuple(split_sentences(abstract)))
            self._papers[doc_key] = citing
        return {
            "sentence": sentence,
            "context_before": before,
            "context_after": after,
            "citing": citing,
            "references": tuple(references),
            "meta": {"s2orc_id": paper_id, "negated_references": negated, "context_found": found},
        }


def _paragraph_context(paragraph: str, citance: str, n: int) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """Up to ``n`` sentences of ``paragraph`` before and after ``citance``, and whether it was found."""
    start = paragraph.find(citance) if citance else -1
    end = start + len(citance)
    if start < 0:  # try again with whitespace collapsed on both sides
        para, cit = normalize_text(paragraph), normalize_text(citance)
        start = para.find(cit) if cit else -1
        if start < 0:
            return (), (), False
        paragraph, end = para, start + len(cit)
    if n <= 0:
        return (), (), True
    before = split_sentences(paragraph[:start])
    after = split_sentences(paragraph[end:])
    return tuple(before[-n:]) if before else (), tuple(after[:n]), True


# --------------------------------------------------------------------------------------------------
# Generic sentence tables


class SentenceColumns(ComponentConfig):
    """Which columns hold what. Only ``sentence`` must exist; the others are optional unless set
    explicitly (then a CSV header must have them)."""

    id: str | None = "id"
    sentence: str = "sentence"
    context_before: str | None = "context_before"  # text (split into sentences) or a list
    context_after: str | None = "context_after"
    cited: str | None = "cited"  # a list of doc ids, or "a;b;c"
    citing: str | None = "citing"  # one doc id
    references: str | None = "references"  # a list, or "claim one||claim two"
    meta: list[str] = []  # columns copied into meta


_COLUMN_KEYS = ("id", "sentence", "context_before", "context_after", "cited", "citing", "references")


class SentencesConfig(SentenceColumns):
    path: str  # .jsonl/.json/.csv/.tsv
    dataset: str = "sentences"
    corpus: str | None = None  # JSONL documents: doc_id or id, title, abstract/text/sentences
    delimiter: str | None = None
    quoted: bool | None = None


@registry.register("reader", "sentences", SentencesConfig)
class SentenceTableReader(SentenceReader):
    """Sentences from JSONL/JSON or CSV/TSV with a column mapping, with documents from a ``corpus`` file.

    Columns (defaults in :class:`SentenceColumns`): ``id`` (optional; item id ``{dataset}:{id}``, else
    ``{dataset}:{stem}:{n}``; a repeated id is a malformed record), ``sentence``, ``context_before`` /
    ``context_after`` (a list, or text split into sentences), ``cited`` (a list or ``;``-separated doc
    ids), ``citing`` (one doc id), ``references`` (a list or ``||``-separated). Documents come from
    ``corpus`` (:func:`load_corpus` with ``generic=True``); a cited (citing) id not in it makes a Reject
    ``cited_document_missing`` (``citing_document_missing``); doc ids without any ``corpus`` configured
    raise. An empty sentence is a Reject ``empty_sentence``.
    """

    def __init__(self, config: SentencesConfig) -> None:
        super().__init__(config)
        self._corpus: dict[str, Document] | None = None

    def corpus(self) -> dict[str, Document]:
        if self._corpus is None:
            self._corpus = load_corpus(self.config.corpus, generic=True) if self.config.corpus else {}
        return self._corpus

    def _records(self) -> Iterator[Any]:
        cfg = self.config
        self.corpus()
        suffix = self.path.suffix.lower()
        if suffix in JSON_EXTENSIONS:
            return iter_json_records(self.path)
        if suffix in CSV_EXTENSIONS or cfg.delimiter:
            check_file(self.path)
            header = csv_header(self.path, cfg.delimiter, cfg.quoted)
            explicit = [c for c in _COLUMN_KEYS if c in cfg.model_fields_set or c == "sentence"]
            columns = [getattr(cfg, c) for c in explicit if isinstance(getattr(cfg, c), str)] + list(cfg.meta)
            missing = [c for c in columns if c not in header]
            if header and missing:
                raise InputError(self.path, None, f"columns {missing} not in the header {header}")
            return iter_csv_records(self.path, cfg.delimiter, cfg.quoted)
        raise InputError(
            self.path, None, f"sentences reads {', '.join(JSON_EXTENSIONS + CSV_EXTENSIONS)} files, not {suffix!r}"
        )

    def _get(self, data: dict[str, Any], key: str) -> Any:
        column = getattr(self.config, key)
        if column is None:
            return None
        value = data.get(column)
        if isinstance(value, str) and not value.strip():
            return None
        return value

    def _item_id(self, rec: Any, data: dict[str, Any]) -> str | None:
        value = self._get(data, "id")
        if value is None:
            return None
        return f"{self.dataset}:{_key(value, f'column {self.config.id!r}')}"

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        cfg = self.config
        raw = data.get(cfg.sentence)
        if raw is not None and not isinstance(raw, str):
            raise _Bad(f"column {cfg.sentence!r}: expected text, got {type(raw).__name__}")
        before = self._texts(data, "context_before", split=True)
        after = self._texts(data, "context_after", split=True)
        references = self._texts(data, "references", sep="||")
        cited_ids = list(dict.fromkeys(self._ids(data)))
        citing_id = self._get(data, "citing")
        if citing_id is not None:
            citing_id = _key(citing_id, f"column {cfg.citing!r}")
        corpus = self.corpus()
        if (cited_ids or citing_id) and not cfg.corpus:
            raise InputError(self.path, rec.where, "the record names documents but no 'corpus' is configured")
        _missing(cited_ids, corpus, Path(cfg.corpus or ""))
        if citing_id is not None:
            _missing([citing_id], corpus, Path(cfg.corpus or ""), what="citing")
        sentence = normalize_text(raw or "")
        if not sentence:
            raise _Skip("empty_sentence", f"column {cfg.sentence!r} is empty")
        meta = {c: data.get(c) for c in cfg.meta}
        return {
            "sentence": sentence,
            "context_before": before,
            "context_after": after,
            "cited": tuple(corpus[d] for d in cited_ids),
            "citing": corpus[citing_id] if citing_id is not None else None,
            "references": references,
            "meta": meta,
        }

    def _texts(self, data: dict[str, Any], key: str, split: bool = False, sep: str | None = None) -> tuple[str, ...]:
        """A list of texts, or one text: split into sentences (``split``) or at ``sep``."""
        value = self._get(data, key)
        if value is None:
            return ()
        if isinstance(value, str):
            if split:
                return tuple(split_sentences(value))
            parts = value.split(sep) if sep else [value]
            return tuple(p for p in (normalize_text(x) for x in parts) if p)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(p for p in (normalize_text(v) for v in value) if p)
        what = f"column {getattr(self.config, key)!r}"
        raise _Bad(f"{what}: expected text or a list of texts, got {type(value).__name__}")

    def _ids(self, data: dict[str, Any]) -> list[str]:
        value = self._get(data, "cited")
        what = f"column {self.config.cited!r}"
        if value is None:
            return []
        if isinstance(value, str):
            return [p.strip() for p in value.split(";") if p.strip()]
        if isinstance(value, int) and not isinstance(value, bool):
            return [str(value)]
        if isinstance(value, list):
            return [_key(v, what) for v in value]
        raise _Bad(f"{what}: expected a list of doc ids or 'a;b;c', got {type(value).__name__}")


# --------------------------------------------------------------------------------------------------
# claimforge-dataset: the claims of a built dataset, as sentences to negate (the kbin recipe's input)


class ClaimforgeDatasetConfig(ComponentConfig):
    path: str  # a dataset folder written by `claimforge build` (or its examples.jsonl)
    labels: tuple[str, ...] = ("SUPPORTED",)
    dataset: str = "claimforge-dataset"


@registry.register("reader", "claimforge-dataset", ClaimforgeDatasetConfig)
class ClaimforgeDatasetReader(SentenceReader):
    """One item per example of a built dataset with one of ``labels``: the claim is the sentence, its
    evidence the cited document. Item ids are the example ids."""

    def __init__(self, config: ClaimforgeDatasetConfig) -> None:
        path = Path(config.path)
        super().__init__(config.model_copy(update={"path": str(path / "examples.jsonl" if path.is_dir() else path)}))

    def _item_id(self, rec: Any, data: dict[str, Any]) -> str | None:
        return str(data.get("id")) if data.get("id") is not None else None

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        try:
            example = Example.model_validate(data)
        except ValueError as e:
            raise _Bad(f"not a claimforge example: {e}") from None
        if example.label.value not in self.config.labels:
            raise _Skip("label_not_requested", example.label.value)
        doc = Document(id=example.evidence_id, sentences=tuple(split_sentences(example.evidence)))
        return {"sentence": example.claim, "cited": (doc,), "meta": {"source_item_id": example.source_item_id}}


class ClaimforgeExamplesConfig(ClaimforgeDatasetConfig):
    labels: tuple[str, ...] = ("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO")
    dataset: str = "claimforge-examples"


@registry.register("reader", "claimforge-examples", ClaimforgeExamplesConfig)
class ClaimforgeExamplesReader(ClaimforgeDatasetReader):
    """Every example of a built dataset (all labels by default), whole: the item's ``meta["example"]`` is the
    example itself, for pipelines that add to a dataset (``factify``)."""

    def _convert(self, rec: Any, data: dict[str, Any], item_id: str) -> dict[str, Any]:
        fields = super()._convert(rec, data, item_id)
        fields["meta"] = {**fields["meta"], "example": Example.model_validate(data).model_dump(mode="json")}
        return fields
