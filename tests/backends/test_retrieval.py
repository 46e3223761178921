"""Retrieval: BM25, dense (hashing embedder) and hybrid rank the known documents first at every unit; the on-disk
index is reused, rebuilt when the corpus or the config changes, and never half-written; the corpus readers and
their errors; reciprocal-rank fusion by hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claimforge.backends import retrieval
from claimforge.backends.retrieval import (
    Document,
    Hit,
    documents_from_texts,
    read_corpus,
    reciprocal_rank_fusion,
    unit_spans,
)
from claimforge.io.rows import InputError
from claimforge.registry import registry

CORPUS = [
    (
        "vitd",
        "Vitamin D supplementation and bone density",
        "We enrolled 400 older adults in a randomized trial. Daily vitamin D supplementation increased bone "
        "mineral density of the hip. Falls were not reduced. Calcium intake did not modify the effect.",
    ),
    (
        "stroke",
        "Neurological events in severe COVID-19",
        "Patients with severe COVID-19 often deteriorate rapidly. Ischemic stroke was observed in 5% of "
        "hospitalized patients. Stroke was associated with higher mortality.",
    ),
    (
        "masks",
        "Face masks and respiratory virus transmission",
        "Surgical face masks reduced the transmission of influenza in households. Adherence was low. "
        "The effect on coronavirus transmission was similar.",
    ),
    (
        "sleep",
        "Sleep deprivation and memory",
        "Sleep deprivation impairs memory consolidation in students. Recovery sleep restored performance.",
    ),
]
QUERIES = {
    "vitamin D supplements improve bone mineral density": ("vitd", 1),
    "COVID-19 patients suffer ischemic stroke": ("stroke", 1),
    "face masks reduce influenza transmission": ("masks", 0),
    "sleep deprivation impairs memory consolidation": ("sleep", 0),
}
HASHING = {"name": "hashing", "dim": 512, "ngram": 3}


def _spec(name: str, index_dir: Path, **extra: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"name": name, "index_dir": str(index_dir), **extra}
    if name == "dense":
        spec.setdefault("embedder", HASHING)
    if name == "hybrid":
        spec.setdefault("dense", {"name": "dense", "embedder": HASHING})
    return spec


@pytest.fixture
def docs() -> list[Document]:
    return documents_from_texts(CORPUS)


@pytest.mark.parametrize("name", ["bm25", "dense", "hybrid"])
@pytest.mark.parametrize("unit", ["document", "passage", "sentence"])
def test_known_documents_rank_first(tmp_path: Path, docs: list[Document], name: str, unit: str) -> None:
    r = registry.build("retriever", _spec(name, tmp_path))
    r.index(docs)
    results = r.search(list(QUERIES), k=3, unit=unit)
    assert len(results) == len(QUERIES)
    for (query, (doc_id, sentence)), hits in zip(QUERIES.items(), results, strict=True):
        assert hits, query
        top = hits[0]
        assert top.doc_id == doc_id, (query, hits)
        assert top.unit == unit and top.rank == 0
        assert [h.rank for h in hits] == list(range(len(hits)))
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        doc = next(d for d in docs if d.id == doc_id)
        if unit == "sentence":
            assert (top.start, top.end) == (sentence, sentence + 1)
            assert top.text == doc.sentences[sentence]
        elif unit == "passage":
            assert top.start <= sentence < top.end and top.end - top.start <= 3
            assert top.text == " ".join(doc.sentences[top.start : top.end])
        else:
            assert (top.start, top.end) == (0, len(doc.sentences))
            assert top.text.startswith(doc.title)
            assert len({h.doc_id for h in hits}) == len(hits)  # each document once


def test_units_and_passage_windows(tmp_path: Path) -> None:
    assert unit_spans(0, "passage") == []
    assert unit_spans(2, "passage") == [(0, 2)]
    assert unit_spans(3, "passage") == [(0, 3)]
    assert unit_spans(6, "passage") == [(0, 3), (2, 5), (3, 6)]  # the last window moved back, full length
    assert unit_spans(7, "passage") == [(0, 3), (2, 5), (4, 7)]
    assert unit_spans(5, "passage", size=2, stride=2) == [(0, 2), (2, 4), (3, 5)]
    assert unit_spans(3, "sentence") == [(0, 1), (1, 2), (2, 3)]
    assert unit_spans(4, "document") == [(0, 4)]
    with pytest.raises(ValueError, match="unknown unit"):
        unit_spans(3, "paragraph")
    fruit = ["apple", "banana", "cherry", "durian", "elderberry", "fig", "grape"]
    sents = tuple(f"Sentence number {i} mentions {w}." for i, w in enumerate(fruit))
    doc = Document(id="d", title="T", sentences=sents)
    r = registry.build("retriever", _spec("bm25", tmp_path, passage_sentences=2, passage_stride=1))
    r.index([doc])
    hits = r.search(["elderberry"], k=10, unit="passage")[0]
    assert {(h.start, h.end) for h in hits} == {(3, 5), (4, 6)}
    with pytest.raises(ValueError, match="unknown unit"):
        r.search(["x"], k=1, unit="paragraph")


def test_empty_sentences_are_not_units_and_k_beyond_the_corpus(tmp_path: Path) -> None:
    docs = [
        Document(id="a", title="", sentences=("Kinase inhibitors block signalling.", "", "Tumours shrank.")),
        Document(id="b", title="Only a title about kinase", sentences=()),
    ]
    r = registry.build("retriever", _spec("dense", tmp_path))
    r.index(docs)
    sentences = r.search(["kinase"], k=50, unit="sentence")[0]
    assert sorted((h.doc_id, h.start) for h in sentences) == [("a", 0), ("a", 2)]
    assert {h.doc_id for h in r.search(["kinase"], k=50, unit="document")[0]} == {"a", "b"}
    assert r.search([], k=3) == []
    with pytest.raises(ValueError, match="k must be"):
        r.search(["x"], k=0)


def test_bm25_drops_units_without_a_shared_term(tmp_path: Path, docs: list[Document]) -> None:
    r = registry.build("retriever", _spec("bm25", tmp_path))
    r.index(docs)
    hits = r.search(["hippocampus", "the of and"], k=5)
    assert hits == [[], []]


def test_search_before_index_is_an_error(tmp_path: Path) -> None:
    r = registry.build("retriever", _spec("bm25", tmp_path))
    with pytest.raises(RuntimeError, match="index"):
        r.search(["x"], k=1)


@pytest.mark.parametrize("name", ["bm25", "dense", "hybrid"])
def test_index_is_reused_from_disk(tmp_path: Path, docs: list[Document], name: str) -> None:
    first = registry.build("retriever", _spec(name, tmp_path))
    first.index(docs)
    n_units = 3 if name != "hybrid" else 6
    assert first.stats == {"built": n_units, "loaded": 0}
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    stamps = {p: p.stat().st_mtime_ns for p in files}
    expected = first.search(list(QUERIES), k=3, unit="passage")

    first.index(docs)  # the same corpus again, same object: nothing to do
    assert first.stats == {"built": n_units, "loaded": 0}

    second = registry.build("retriever", _spec(name, tmp_path))
    second.index(list(docs))
    assert second.stats == {"built": 0, "loaded": n_units}
    assert {p: p.stat().st_mtime_ns for p in files} == stamps  # nothing rewritten
    assert sorted(p for p in tmp_path.rglob("*") if p.is_file()) == files
    assert second.search(list(QUERIES), k=3, unit="passage") == expected


def test_index_files_are_json_and_numpy(tmp_path: Path, docs: list[Document]) -> None:
    r = registry.build("retriever", _spec("hybrid", tmp_path))
    r.index(docs)
    suffixes = {p.suffix for p in tmp_path.rglob("*") if p.is_file()}
    assert suffixes <= {".json", ".npy", ".faiss"}, suffixes
    meta = json.loads(next(tmp_path.rglob("sentence/meta.json")).read_text())
    assert meta["units"] == sum(len(d.sentences) for d in docs) and meta["documents"] == len(docs)


def test_a_changed_corpus_or_config_rebuilds(tmp_path: Path, docs: list[Document]) -> None:
    r = registry.build("retriever", _spec("bm25", tmp_path))
    r.index(docs)
    root = r.index_root
    changed = [*docs[:-1], Document(id="sleep", title=docs[-1].title, sentences=docs[-1].sentences[:1])]
    r.index(changed)
    assert r.stats["built"] == 6 and r.index_root != root
    assert r.search(["restored performance"], k=5)[0] == []  # the removed sentence is gone
    r.index(docs)  # back to the first corpus: its index is still there
    assert r.stats == {"built": 6, "loaded": 3} and r.index_root == root
    other = registry.build("retriever", _spec("bm25", tmp_path, passage_sentences=2))
    other.index(docs)
    assert other.stats == {"built": 3, "loaded": 0} and other.index_root != root
    renamed = [Document(id="vitamin-d", title=docs[0].title, sentences=docs[0].sentences), *docs[1:]]
    again = registry.build("retriever", _spec("bm25", tmp_path))
    again.index(renamed)
    assert again.stats["built"] == 3


def test_units_outside_the_eager_list_are_built_on_first_search(tmp_path: Path, docs: list[Document]) -> None:
    r = registry.build("retriever", _spec("bm25", tmp_path, units=["sentence"]))
    r.index(docs)
    assert r.stats == {"built": 1, "loaded": 0}
    assert r.search(["masks influenza"], k=1, unit="document")[0][0].doc_id == "masks"
    assert r.stats == {"built": 2, "loaded": 0}
    r2 = registry.build("retriever", _spec("bm25", tmp_path))
    r2.index(docs)
    assert r2.stats == {"built": 1, "loaded": 2}


def test_an_interrupted_build_leaves_no_index(
    tmp_path: Path, docs: list[Document], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"n": 0}
    real = retrieval.BM25Retriever._build

    def failing(self: Any, texts: list[str], folder: Path, progress: Any) -> Any:
        calls["n"] += 1
        real(self, texts, folder, progress)  # files written into the temporary folder ...
        raise KeyboardInterrupt  # ... then killed before the rename

    monkeypatch.setattr(retrieval.BM25Retriever, "_build", failing)
    r = registry.build("retriever", _spec("bm25", tmp_path))
    with pytest.raises(KeyboardInterrupt):
        r.index(docs)
    assert calls["n"] == 1
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]  # no unit folder, no leftover
    monkeypatch.setattr(retrieval.BM25Retriever, "_build", real)
    fresh = registry.build("retriever", _spec("bm25", tmp_path))
    fresh.index(docs)
    assert fresh.stats == {"built": 3, "loaded": 0}


def test_a_stray_temporary_folder_is_never_loaded(tmp_path: Path, docs: list[Document]) -> None:
    r = registry.build("retriever", _spec("bm25", tmp_path))
    r.index(docs)
    root = r.index_root
    assert root is not None
    (root / "sentence").rename(root / ".sentence.tmp-1-dead")  # as a killed build leaves it
    r2 = registry.build("retriever", _spec("bm25", tmp_path))
    r2.index(docs)
    assert r2.stats == {"built": 1, "loaded": 2}


def test_reciprocal_rank_fusion_by_hand() -> None:
    def hit(doc: str, rank: int, start: int = 0) -> Hit:
        return Hit(doc, "sentence", start, start + 1, f"{doc}{start}", 9.0 - rank, rank)

    sparse = [hit("a", 0), hit("b", 1), hit("c", 2)]
    dense = [hit("c", 0), hit("a", 1), hit("d", 2), hit("a", 3, start=1)]
    fused = reciprocal_rank_fusion([sparse, dense], k=10, k_rrf=60)
    scores = {(h.doc_id, h.start): h.score for h in fused}
    assert scores[("a", 0)] == pytest.approx(1 / 61 + 1 / 62)
    assert scores[("c", 0)] == pytest.approx(1 / 63 + 1 / 61)
    assert scores[("b", 0)] == pytest.approx(1 / 62)
    assert scores[("d", 0)] == pytest.approx(1 / 63)
    assert scores[("a", 1)] == pytest.approx(1 / 64)  # another sentence of a: another unit
    assert [(h.doc_id, h.start) for h in fused] == [("a", 0), ("c", 0), ("b", 0), ("d", 0), ("a", 1)]
    assert [h.rank for h in fused] == [0, 1, 2, 3, 4]
    assert [h.doc_id for h in reciprocal_rank_fusion([sparse, dense], k=2, k_rrf=1)] == ["a", "c"]
    # equal scores: the better best rank first (b at rank 1 of list 0 vs d at rank 1 of list 1: the earlier list)
    tie = reciprocal_rank_fusion([[hit("x", 0), hit("b", 1)], [hit("y", 0), hit("d", 1)]], k=4)
    assert [h.doc_id for h in tie] == ["x", "y", "b", "d"]


def test_hybrid_searches_deeper_than_k(tmp_path: Path, docs: list[Document]) -> None:
    class Fixed:
        def __init__(self, ranking: list[str]) -> None:
            self.ranking, self.model_id, self.asked = ranking, "fixed", [0]

        def index(self, documents: Any, progress: Any = None) -> None:
            pass

        def search(self, queries: Any, k: int, unit: str = "sentence", progress: Any = None) -> list[list[Hit]]:
            self.asked[0] = k
            return [[Hit(d, unit, 0, 1, d, 1.0, r) for r, d in enumerate(self.ranking[:k])] for _ in queries]

    a, b = Fixed(["p", "q", "r", "s"]), Fixed(["s", "r", "t"])
    cfg = registry.config("retriever", {"name": "hybrid", "depth": 4, "k_rrf": 60})[1]
    h = retrieval.HybridRetriever(cfg, sparse=a, dense=b)  # type: ignore[arg-type]
    out = h.search(["q"], k=2)[0]
    assert a.asked == b.asked == [4]
    assert [x.doc_id for x in out] == ["s", "r"]  # 1/64 + 1/61 and 1/63 + 1/62 beat p's 1/61


# --------------------------------------------------------------------------------------------------
# Corpora


def test_documents_from_texts_splits_with_the_project_splitter() -> None:
    (doc,) = documents_from_texts(
        [("7", "  A  title ", "First sentence, see Fig. 2 for details. Second one (Smith et al. 2010) here.")]
    )
    assert doc == Document(
        id="7",
        title="A title",
        sentences=("First sentence, see Fig. 2 for details.", "Second one (Smith et al. 2010) here."),
    )
    with pytest.raises(ValueError, match="duplicate"):
        documents_from_texts([("a", "", "x"), ("a", "", "y")])


def test_read_scifact_and_generic_jsonl(tmp_path: Path) -> None:
    scifact = tmp_path / "corpus.jsonl"
    scifact.write_text(
        json.dumps({"doc_id": 4983, "title": "T1", "abstract": ["S one.", "S two."], "structured": False})
        + "\n\n"
        + json.dumps({"doc_id": 5, "title": "T2", "abstract": []})
        + "\n"
    )
    docs = read_corpus(scifact)
    assert docs == [Document(id="4983", title="T1", sentences=("S one.", "S two.")), Document(id="5", title="T2")]
    generic = tmp_path / "generic.jsonl"
    generic.write_text(
        json.dumps({"id": "a", "title": "Ta", "text": "One thing. Another thing."})
        + "\n"
        + json.dumps({"id": "b", "sentences": ["Only."]})
        + "\n"
    )
    assert read_corpus(generic) == [
        Document(id="a", title="Ta", sentences=("One thing.", "Another thing.")),
        Document(id="b", title="", sentences=("Only.",)),
    ]


@pytest.mark.parametrize(
    ("lines", "where", "what"),
    [
        (['{"doc_id": 1, "abstract": ["a"]}', "{not json"], "line 2", "invalid JSON"),
        (['{"doc_id": 1, "abstract": ["a"]}', '{"title": "no id"}'], "line 2", "doc_id"),
        (['{"doc_id": 1, "abstract": ["a"]}', '{"doc_id": 1, "abstract": ["b"]}'], "line 2", "duplicate doc id"),
        (['{"doc_id": 1, "abstract": 7}'], "line 1", "abstract"),
    ],
)
def test_bad_corpus_lines_name_file_and_line(tmp_path: Path, lines: list[str], where: str, what: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=what) as e:
        read_corpus(path)
    assert e.value.path == str(path) and e.value.where == where


JATS = b"""<?xml version="1.0"?>
<article><front><article-meta><title-group><article-title>A JATS paper</article-title></title-group>
<abstract><p>Interferon signalling was reduced <xref ref-type="bibr">[3]</xref>. Viral load rose.</p></abstract>
</article-meta></front><body><sec><p>Methods were standard.</p></sec></body></article>
"""


def test_read_folders_of_text_and_jats(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "p1.txt").write_text("\nTitle of one\nBody sentence one. Body sentence two.\nA third line.\n")
    (folder / "sub" / "p2.nxml").write_bytes(JATS)
    (folder / "notes.md").write_text("ignored")
    (folder / ".hidden.txt").write_text("ignored\nignored")
    docs = read_corpus(folder)
    assert docs == [
        Document(
            id="p1", title="Title of one", sentences=("Body sentence one.", "Body sentence two.", "A third line.")
        ),
        Document(
            id="p2",
            title="A JATS paper",
            sentences=("Interferon signalling was reduced.", "Viral load rose.", "Methods were standard."),
        ),
    ]
    assert read_corpus(folder / "sub" / "p2.nxml") == docs[1:]
    (folder / "sub" / "p1.xml").write_bytes(JATS)
    with pytest.raises(InputError, match="duplicate doc id 'p1'"):
        read_corpus(folder)


def test_read_a_tar_archive_of_jats(tmp_path: Path) -> None:
    import io
    import tarfile

    archive = tmp_path / "xml_files.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, data in (("x/PMC9.nxml", JATS), ("x/notes.txt", b"not a paper")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (doc,) = read_corpus(archive)
    assert doc.id == "PMC9" and doc.title == "A JATS paper" and "Viral load rose." in doc.sentences
    (tmp_path / "broken.tar.xz").write_bytes(b"\xfd7zXZ\x00 truncated")
    with pytest.raises(InputError, match="broken archive"):
        read_corpus(tmp_path / "broken.tar.xz")


def test_corpus_reader_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_corpus(tmp_path / "absent.jsonl")
    with pytest.raises(InputError, match="no corpus files"):
        read_corpus(tmp_path)
    (tmp_path / "empty.txt").write_text("\n\n")
    with pytest.raises(InputError, match="empty text file"):
        read_corpus(tmp_path / "empty.txt")
    (tmp_path / "broken.xml").write_text("<article><p>unclosed</article>")
    with pytest.raises(InputError, match="not well-formed XML") as e:
        read_corpus(tmp_path / "broken.xml")
    assert e.value.path == str(tmp_path / "broken.xml")
    (tmp_path / "c.csv").write_text("a,b\n")
    with pytest.raises(InputError, match="unknown corpus format"):
        read_corpus(tmp_path / "c.csv")


def test_real_scifact_corpus(shared_data: Any, tmp_path: Path) -> None:
    docs = read_corpus(shared_data("scifact", "corpus.jsonl"))
    assert len(docs) == 5183 and len({d.id for d in docs}) == 5183
    r = registry.build("retriever", {"name": "bm25", "index_dir": str(tmp_path), "units": ["document"]})
    r.index(docs[:300])
    query = docs[123].title
    assert r.search([query], k=1, unit="document")[0][0].doc_id == docs[123].id
