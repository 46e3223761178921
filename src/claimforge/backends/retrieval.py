"""Evidence retrieval over a local corpus: BM25 (``bm25s``), dense (any embedder + a ``faiss`` inner-product
index) and a hybrid of the two (reciprocal-rank fusion), each a registry component of kind ``retriever``.

A corpus is a list of :class:`Document` (id, title, sentences). It is searched at one of three units:

``document``
    the title and all sentences (each document is one unit, so a document comes back at most once);
``passage``
    windows of ``passage_sentences`` consecutive sentences, every ``passage_stride`` sentences (the last window
    is moved back to end at the last sentence, so every window of a long enough document is full length);
``sentence``
    each non-empty sentence.

A hit names the document and the sentence range ``[start, end)`` of its unit (``0, len(sentences)`` for a
document), so callers map passages and sentences back to their document.

Indexes are stored on disk, one folder per retriever config and corpus (``<index_dir>/<name>-<key>/<unit>/``):
the key is a fingerprint of the config, the corpus content (ids, titles, sentences), the embedder's identity and
the library versions, so a second :meth:`index` of the same corpus loads instead of rebuilding, and any change
rebuilds. Each unit is built into a temporary folder and renamed into place when complete, so an interrupted
build never leaves a half index that a later run loads. Files: ``units.json`` (the unit table: document index,
start, end), ``meta.json`` (what the index is), and the bm25s arrays (``.npy``, loaded without pickle) and
vocabulary (JSON), or the faiss index (``vectors.faiss``). Units listed in ``units`` are built by
:meth:`index`; any other unit is built (and stored) on its first search.

Corpora: :func:`read_corpus` reads SciFact-format JSONL, generic JSONL, folders of ``.txt`` files and JATS
``.xml``/``.nxml`` files (docs/retrieval.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from claimforge.cache import default_cache_dir, fingerprint, weights_stamp
from claimforge.io.papers.jats import jats_document
from claimforge.io.papers.reader import JATS_SUFFIXES, ArchiveBroken, archive_members, is_archive_name
from claimforge.io.rows import InputError, files_under, normalize_text, read_text
from claimforge.io.sentences import load_corpus
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Document
from claimforge.registry import ComponentConfig, registry

__all__ = [
    "UNITS",
    "BM25Retriever",
    "DenseRetriever",
    "Document",
    "Hit",
    "HybridRetriever",
    "Retriever",
    "documents_from_texts",
    "read_corpus",
    "reciprocal_rank_fusion",
    "unit_spans",
]

Unit = Literal["document", "passage", "sentence"]
UNITS: tuple[str, ...] = ("document", "passage", "sentence")
FORMAT_VERSION = 1  # of the files in an index folder; a change rebuilds every index


@dataclass(frozen=True)
class Hit:
    """One retrieved unit: its document, the sentence range ``[start, end)`` it covers, its text and score."""

    doc_id: str
    unit: str  # "document" | "passage" | "sentence"
    start: int  # index of the unit's first sentence in the document (0 for documents)
    end: int  # one past its last sentence
    text: str
    score: float
    rank: int  # 0-based


class Retriever(Protocol):
    model_id: str

    def index(self, documents: Sequence[Document], progress: Any = None) -> None:
        """Index ``documents`` (or load their stored index); replaces any earlier corpus."""
        ...

    def search(self, queries: Sequence[str], k: int, unit: str = "sentence", progress: Any = None) -> list[list[Hit]]:
        """The best ``k`` (at most) units for each query, best first."""
        ...


# --------------------------------------------------------------------------------------------------
# Corpora


def documents_from_texts(items: Iterable[tuple[str, str, str]]) -> list[Document]:
    """Documents from ``(id, title, body text)``; the body is split into sentences with the project's splitter
    (:func:`claimforge.nlp.sentences.split_sentences`). A repeated id is an error."""
    docs: list[Document] = []
    seen: set[str] = set()
    for doc_id, title, body in items:
        doc_id = str(doc_id)
        if doc_id in seen:
            raise ValueError(f"duplicate document id {doc_id!r}")
        seen.add(doc_id)
        docs.append(
            Document(id=doc_id, title=normalize_text(title or ""), sentences=tuple(split_sentences(body or "")))
        )
    return docs


_CORPUS_SUFFIXES = (".jsonl", ".json", ".ndjson", ".txt", ".xml", ".nxml")


def _txt_document(path: Path) -> Document:
    """A ``.txt`` file: id = file stem, the first non-blank line is the title, the rest the body."""
    lines = read_text(path).splitlines()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        raise InputError(path, None, "empty text file (expected a title line and the body)")
    return documents_from_texts([(path.stem, lines[0], "\n".join(lines[1:]))])[0]


def _read_file(path: Path) -> list[Document]:
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return list(load_corpus(path, generic=True).values())
    if suffix == ".txt":
        return [_txt_document(path)]
    if suffix in JATS_SUFFIXES:
        return [jats_document(path.read_bytes(), path.stem, str(path))]
    if is_archive_name(path.name):  # JATS members, streamed
        try:
            docs = []
            for name, size, data in archive_members(path, JATS_SUFFIXES):
                if size and not data:
                    raise InputError(path, None, f"{name}: {size} bytes, over the size limit of one paper file")
                docs.append(jats_document(data, Path(name).stem, f"{path}:{name}"))
            return docs
        except ArchiveBroken as e:
            raise InputError(path, None, e.detail) from None
    known = ", ".join(_CORPUS_SUFFIXES)
    raise InputError(path, None, f"unknown corpus format {suffix!r} (expected one of {known}, or a tar archive)")


def read_corpus(path: str | Path) -> list[Document]:
    """Documents of a corpus file or folder, in file order (a folder: its files sorted by path, recursively).

    - JSONL / JSON: SciFact's ``{doc_id, title, abstract: [sentences]}`` or generic records with ``id`` or
      ``doc_id``, ``title`` (optional) and ``abstract``, ``text`` or ``sentences`` (a list of sentences, kept as
      they are, or a text, split into sentences);
    - ``.txt``: one document per file, id = file stem, the first line the title;
    - ``.xml`` / ``.nxml``: a JATS article (abstract and body paragraphs), id = file stem;
    - a tar archive (``.tar.xz``, ``.tar.gz``, …): its JATS members, read in turn without unpacking.

    A malformed record raises :class:`~claimforge.io.rows.InputError` naming the file and line; a document id
    seen twice (in one file or across the files of a folder) is an error too."""
    p = Path(path)
    if not p.exists():
        raise InputError(p, None, "no such file or folder")
    if p.is_dir():
        files = [
            f
            for f in files_under(p)  # symbolic links to folders followed
            if f.is_file()
            and (f.suffix.lower() in _CORPUS_SUFFIXES or is_archive_name(f.name))
            and not f.name.startswith(".")
        ]
        if not files:
            raise InputError(p, None, f"no corpus files ({', '.join(_CORPUS_SUFFIXES)}, tar archives) in the folder")
    else:
        files = [p]
    docs: list[Document] = []
    where: dict[str, Path] = {}
    for f in files:
        for doc in _read_file(f):
            if doc.id in where:
                raise InputError(f, None, f"duplicate doc id {doc.id!r} (also in {where[doc.id]})")
            where[doc.id] = f
            docs.append(doc)
    return docs


def corpus_digest(documents: Sequence[Document]) -> str:
    """A digest of the documents' ids, titles and sentences, in order."""
    h = hashlib.sha256()
    for d in documents:
        h.update(json.dumps([d.id, d.title, list(d.sentences)], ensure_ascii=False).encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()


# --------------------------------------------------------------------------------------------------
# Units


def unit_spans(n_sentences: int, unit: str, size: int = 3, stride: int = 2) -> list[tuple[int, int]]:
    """The ``[start, end)`` sentence ranges of a document's units. Passages: windows of ``size`` sentences every
    ``stride``; the last window is moved back to end at the last sentence (a document of at most ``size``
    sentences is one passage)."""
    if unit == "document":
        return [(0, n_sentences)]
    if n_sentences == 0:
        return []
    if unit == "sentence":
        return [(i, i + 1) for i in range(n_sentences)]
    if unit == "passage":
        if n_sentences <= size:
            return [(0, n_sentences)]
        starts = list(range(0, n_sentences - size + 1, stride))
        if starts[-1] + size < n_sentences:
            starts.append(n_sentences - size)
        return [(s, s + size) for s in starts]
    raise ValueError(f"unknown unit {unit!r} (known: {', '.join(UNITS)})")


def _unit_text(doc: Document, unit: str, start: int, end: int) -> str:
    body = " ".join(s for s in doc.sentences[start:end] if s)
    if unit == "document":
        return f"{doc.title} {body}".strip() if doc.title else body
    return body


@dataclass
class _Table:
    """The units of one kind over a corpus: document index, start and end of each."""

    doc: list[int]
    start: list[int]
    end: list[int]

    def __len__(self) -> int:
        return len(self.doc)

    def to_json(self) -> dict[str, list[int]]:
        return {"doc": self.doc, "start": self.start, "end": self.end}


def _make_table(documents: Sequence[Document], unit: str, size: int, stride: int) -> _Table:
    table = _Table([], [], [])
    for i, d in enumerate(documents):
        for start, end in unit_spans(len(d.sentences), unit, size, stride):
            if not any(d.sentences[start:end]) and not (unit == "document" and d.title):
                continue  # nothing to match (empty sentences, a document with neither title nor text)
            table.doc.append(i)
            table.start.append(start)
            table.end.append(end)
    return table


# --------------------------------------------------------------------------------------------------
# The shared machinery: unit tables, index folders, hits


class RetrieverConfig(ComponentConfig):
    passage_sentences: int = 3
    passage_stride: int = 2
    index_dir: str | None = None  # default: <cache dir>/indexes
    units: tuple[Unit, ...] = ("document", "passage", "sentence")  # built by index(); others on first search


def _versions() -> dict[str, str]:
    import claimforge

    return {"format": str(FORMAT_VERSION), "claimforge": getattr(claimforge, "__version__", "")}


class _IndexedRetriever:
    """Units, on-disk index folders (built once, atomically) and hits; subclasses build, load and search one
    unit's index."""

    name = ""

    def __init__(self, config: RetrieverConfig) -> None:
        if config.passage_sentences < 1 or config.passage_stride < 1:
            raise ValueError("passage_sentences and passage_stride must be at least 1")
        self.config = config
        self.model_id = self.name
        self.documents: list[Document] = []
        self.stats = {"built": 0, "loaded": 0}  # unit indexes built / loaded from disk since construction
        self._root: Path | None = None
        self._digest: str | None = None
        self._tables: dict[str, _Table] = {}
        self._indexes: dict[str, Any] = {}

    # subclass hooks
    def _key(self) -> dict[str, Any]:
        """What the index content depends on besides the corpus and the unit settings."""
        raise NotImplementedError

    def _build(self, texts: list[str], folder: Path, progress: Any) -> Any:
        raise NotImplementedError

    def _load(self, folder: Path) -> Any:
        raise NotImplementedError

    def _search(
        self, index: Any, n_units: int, queries: Sequence[str], k: int, progress: Any
    ) -> list[list[tuple[int, float]]]:
        raise NotImplementedError

    # shared
    @property
    def index_root(self) -> Path | None:
        """The folder of the current corpus's index (None before :meth:`index`)."""
        return self._root

    def index(self, documents: Sequence[Document], progress: Any = None) -> None:
        documents = list(documents)
        ids = [d.id for d in documents]
        if len(set(ids)) != len(ids):
            dupes = sorted({i for i in ids if ids.count(i) > 1})[:5]
            raise ValueError(f"duplicate document ids in the corpus: {dupes}")
        digest = corpus_digest(documents)
        if digest != self._digest:
            cfg = self.config
            key = fingerprint(self.name, self._key(), cfg.passage_sentences, cfg.passage_stride, digest, _versions())
            base = Path(cfg.index_dir) if cfg.index_dir else default_cache_dir() / "indexes"
            self.documents, self._digest = documents, digest
            self._root = base / f"{self.name}-{key[:24]}"
            self._tables, self._indexes = {}, {}
        for unit in self.config.units:
            self._ensure(unit, progress)

    def _ensure(self, unit: str, progress: Any = None) -> None:
        if unit not in UNITS:
            raise ValueError(f"unknown unit {unit!r} (known: {', '.join(UNITS)})")
        if unit in self._indexes:
            return
        if self._root is None:
            raise RuntimeError(f"{self.name} retriever: call index(documents) before search")
        folder = self._root / unit
        if (folder / "meta.json").is_file():
            self._load_unit(unit, folder)
            return
        cfg = self.config
        table = _make_table(self.documents, unit, cfg.passage_sentences, cfg.passage_stride)
        texts = [
            _unit_text(self.documents[d], unit, s, e) for d, s, e in zip(table.doc, table.start, table.end, strict=True)
        ]
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = folder.parent / f".{unit}.tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        try:
            tmp.mkdir()
            index = self._build(texts, tmp, progress) if texts else None
            (tmp / "units.json").write_text(json.dumps(table.to_json()), encoding="utf-8")
            meta = {
                "retriever": self.name,
                "model_id": self.model_id,
                "unit": unit,
                "units": len(table),
                "documents": len(self.documents),
                "corpus": self._digest,
                "key": self._key(),
                "passage_sentences": cfg.passage_sentences,
                "passage_stride": cfg.passage_stride,
                "versions": _versions(),
            }
            (tmp / "meta.json").write_text(json.dumps(meta, indent=1, default=str), encoding="utf-8")  # written last
            try:
                tmp.rename(folder)
            except OSError:  # another process finished the same index first: use theirs
                if not (folder / "meta.json").is_file():
                    raise
                shutil.rmtree(tmp, ignore_errors=True)
                self._load_unit(unit, folder)
                return
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        self._tables[unit], self._indexes[unit] = table, index
        self.stats["built"] += 1

    def _load_unit(self, unit: str, folder: Path) -> None:
        raw = json.loads((folder / "units.json").read_text(encoding="utf-8"))
        table = _Table(raw["doc"], raw["start"], raw["end"])
        self._tables[unit] = table
        self._indexes[unit] = self._load(folder) if len(table) else None
        self.stats["loaded"] += 1

    def search(self, queries: Sequence[str], k: int, unit: str = "sentence", progress: Any = None) -> list[list[Hit]]:
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        self._ensure(unit)
        table = self._tables[unit]
        queries = list(queries)
        if not queries:
            return []
        if not len(table):
            return [[] for _ in queries]
        found = self._search(self._indexes[unit], len(table), queries, min(k, len(table)), progress)
        return [[self._hit(unit, table, u, score, r) for r, (u, score) in enumerate(row)] for row in found]

    def _hit(self, unit: str, table: _Table, u: int, score: float, rank: int) -> Hit:
        doc = self.documents[table.doc[u]]
        start, end = table.start[u], table.end[u]
        return Hit(doc.id, unit, start, end, _unit_text(doc, unit, start, end), float(score), rank)


# --------------------------------------------------------------------------------------------------
# BM25 (bm25s)


class BM25Config(RetrieverConfig):
    method: Literal["robertson", "atire", "bm25l", "bm25+", "lucene"] = "lucene"
    k1: float = 1.5
    b: float = 0.75
    stopwords: str = "en"  # a bm25s stopword list name ("en"), or "none"
    # auto: PyStemmer's English stemmer if installed, else NLTK's Snowball stemmer if installed, else none
    stemmer: Literal["auto", "none", "pystemmer", "snowball"] = "auto"


def _stemmer(name: str) -> tuple[str, Any]:
    """(name of the stemmer used, a function word -> stem, or None)."""
    if name in ("auto", "pystemmer"):
        try:
            import Stemmer  # type: ignore[import-not-found]

            return "pystemmer-english", Stemmer.Stemmer("english").stemWords
        except ImportError:
            if name == "pystemmer":
                raise RuntimeError("stemmer 'pystemmer' needs the package PyStemmer (pip install PyStemmer)") from None
    if name in ("auto", "snowball"):
        try:
            from nltk.stem.snowball import SnowballStemmer  # type: ignore[import-untyped]

            stem = SnowballStemmer("english").stem
            return "snowball-english", lambda words: [stem(w) for w in words]
        except ImportError:
            if name == "snowball":
                raise RuntimeError("stemmer 'snowball' needs the package nltk (pip install nltk)") from None
    return "none", None


class BM25Retriever(_IndexedRetriever):
    """BM25 over bm25s (its tokeniser: lower-cased words of 2+ characters, stopwords removed, optional stemmer)."""

    name = "bm25"

    def __init__(self, config: BM25Config) -> None:
        super().__init__(config)
        self.bm25_config = config
        self.stemmer_name, self._stem = _stemmer(config.stemmer)
        self.model_id = f"bm25s-{config.method}(k1={config.k1},b={config.b},stem={self.stemmer_name})"

    def _key(self) -> dict[str, Any]:
        import bm25s

        c = self.bm25_config
        return {
            "method": c.method,
            "k1": c.k1,
            "b": c.b,
            "stopwords": c.stopwords,
            "stemmer": self.stemmer_name,
            "bm25s": bm25s.__version__,
        }

    def _tokenize(self, texts: list[str]) -> Any:
        import bm25s

        stopwords = None if self.bm25_config.stopwords == "none" else self.bm25_config.stopwords
        return bm25s.tokenize(texts, stopwords=stopwords, stemmer=self._stem, show_progress=False)

    def _build(self, texts: list[str], folder: Path, progress: Any) -> Any:
        import bm25s

        c = self.bm25_config
        index = bm25s.BM25(method=c.method, k1=c.k1, b=c.b)
        index.index(self._tokenize(texts), show_progress=False)
        index.save(str(folder))
        if progress is not None:
            progress(len(texts), len(texts))
        return index

    def _load(self, folder: Path) -> Any:
        import bm25s

        return bm25s.BM25.load(str(folder), load_corpus=False, allow_pickle=False)

    def _search(
        self, index: Any, n_units: int, queries: Sequence[str], k: int, progress: Any
    ) -> list[list[tuple[int, float]]]:
        ids, scores = index.retrieve(
            self._tokenize(list(queries)), k=k, show_progress=False, n_threads=0, return_as="tuple"
        )
        if progress is not None:
            progress(len(queries), len(queries))
        # A zero score shares no term with the query: not a hit.
        rows = zip(ids, scores, strict=True)
        return [[(int(u), float(s)) for u, s in zip(r_ids, r_scores, strict=True) if s > 0] for r_ids, r_scores in rows]


@registry.register("retriever", "bm25", BM25Config)
def build_bm25(config: BM25Config) -> BM25Retriever:
    """BM25 with bm25s (English stopwords; stemming when a stemmer package is installed)."""
    return BM25Retriever(config)


# --------------------------------------------------------------------------------------------------
# Dense (embedder + faiss)


class DenseConfig(RetrieverConfig):
    embedder: dict[str, Any] | str = {"name": "sentence-transformers"}


class DenseRetriever(_IndexedRetriever):
    """Cosine similarity of embedder vectors: an exact faiss inner-product index over L2-normalised vectors."""

    name = "dense"

    def __init__(self, config: DenseConfig, embedder: Any = None) -> None:
        super().__init__(config)
        self.dense_config = config
        self.embedder = embedder if embedder is not None else registry.build("embedder", config.embedder)
        self.model_id = f"dense:{self.embedder.model_id}"

    def _key(self) -> dict[str, Any]:
        import faiss

        model = getattr(getattr(self.embedder, "config", None), "model", None)
        stamp = ""
        if isinstance(model, str):
            from claimforge.backends.embeddings import resolve_model_path

            stamp = weights_stamp(resolve_model_path(model))
        return {"embedder": self.embedder.model_id, "weights": stamp, "faiss": faiss.__version__}

    def _embed(self, texts: Sequence[str], progress: Any) -> np.ndarray:
        vecs = np.ascontiguousarray(self.embedder.embed(list(texts), progress=progress), dtype=np.float32)
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return vecs / norms

    def _build(self, texts: list[str], folder: Path, progress: Any) -> Any:
        import faiss

        vecs = self._embed(texts, progress)
        index = faiss.IndexFlatIP(vecs.shape[1])
        index.add(vecs)
        faiss.write_index(index, str(folder / "vectors.faiss"))
        return index

    def _load(self, folder: Path) -> Any:
        import faiss

        return faiss.read_index(str(folder / "vectors.faiss"))

    def _search(
        self, index: Any, n_units: int, queries: Sequence[str], k: int, progress: Any
    ) -> list[list[tuple[int, float]]]:
        scores, ids = index.search(self._embed(queries, progress), k)
        rows = zip(ids, scores, strict=True)
        return [
            [(int(u), float(s)) for u, s in zip(r_ids, r_scores, strict=True) if u >= 0] for r_ids, r_scores in rows
        ]


@registry.register("retriever", "dense", DenseConfig)
def build_dense(config: DenseConfig) -> DenseRetriever:
    """Dense retrieval: any embedder (default sentence-transformers MiniLM) and a faiss inner-product index."""
    return DenseRetriever(config)


# --------------------------------------------------------------------------------------------------
# Hybrid (reciprocal-rank fusion)


def reciprocal_rank_fusion(rankings: Sequence[Sequence[Hit]], k: int, k_rrf: int = 60) -> list[Hit]:
    """Fuse ranked lists of hits: a unit's score is the sum over the lists of ``1 / (k_rrf + rank)`` (rank
    1-based) where it appears; units are the same when document, unit and sentence range are. Ties go to the
    unit with the better best rank, then to the earlier list. The text comes from the first list holding it."""
    fused: dict[tuple[str, str, int, int], list[Any]] = {}
    for li, ranking in enumerate(rankings):
        for r, hit in enumerate(ranking):
            key = (hit.doc_id, hit.unit, hit.start, hit.end)
            entry = fused.get(key)
            if entry is None:
                fused[key] = [1.0 / (k_rrf + r + 1), r, li, hit]
            else:
                entry[0] += 1.0 / (k_rrf + r + 1)
                if r < entry[1]:
                    entry[1], entry[2] = r, li
    order = sorted(fused.values(), key=lambda e: (-e[0], e[1], e[2]))[:k]
    return [
        Hit(h.doc_id, h.unit, h.start, h.end, h.text, float(score), rank) for rank, (score, _, _, h) in enumerate(order)
    ]


class HybridConfig(RetrieverConfig):
    sparse: dict[str, Any] | str = {"name": "bm25"}
    dense: dict[str, Any] | str = {"name": "dense"}
    k_rrf: int = 60
    depth: int = 100  # candidates each retriever contributes (at least k)


class HybridRetriever:
    """Reciprocal-rank fusion of a sparse (BM25) and a dense retriever; the unit settings, index folder and
    eager units of the hybrid config apply to both."""

    name = "hybrid"

    def __init__(self, config: HybridConfig, sparse: Any = None, dense: Any = None) -> None:
        self.config = config
        shared = {
            "passage_sentences": config.passage_sentences,
            "passage_stride": config.passage_stride,
            "index_dir": config.index_dir,
            "units": config.units,
        }

        def spec(s: dict[str, Any] | str) -> dict[str, Any]:
            s = {"name": s} if isinstance(s, str) else dict(s)
            return {**shared, **s}

        self.sparse = sparse if sparse is not None else registry.build("retriever", spec(config.sparse))
        self.dense = dense if dense is not None else registry.build("retriever", spec(config.dense))
        self.model_id = f"hybrid(rrf={config.k_rrf}):{self.sparse.model_id}+{self.dense.model_id}"

    @property
    def stats(self) -> dict[str, int]:
        a, b = getattr(self.sparse, "stats", {}), getattr(self.dense, "stats", {})
        return {k: a.get(k, 0) + b.get(k, 0) for k in ("built", "loaded")}

    def index(self, documents: Sequence[Document], progress: Any = None) -> None:
        documents = list(documents)
        self.sparse.index(documents, progress)
        self.dense.index(documents, progress)

    def search(self, queries: Sequence[str], k: int, unit: str = "sentence", progress: Any = None) -> list[list[Hit]]:
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        depth = max(self.config.depth, k)
        a = self.sparse.search(queries, depth, unit, progress)
        b = self.dense.search(queries, depth, unit, progress)
        return [reciprocal_rank_fusion([x, y], k, self.config.k_rrf) for x, y in zip(a, b, strict=True)]


@registry.register("retriever", "hybrid", HybridConfig)
def build_hybrid(config: HybridConfig) -> HybridRetriever:
    """Reciprocal-rank fusion of BM25 and dense retrieval (k_rrf 60)."""
    return HybridRetriever(config)
