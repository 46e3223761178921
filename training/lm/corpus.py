"""Scientific prose from ../shared/data for the n-gram LM: documents -> sentences, split by document.

Sources (each document keeps all its sentences on one side of the split):
  scifact        SciFact corpus abstracts (already split into sentences)
  citint         Citation-Integrity corpus abstracts (already split into sentences)
  sciq           SciQ ``support`` paragraphs (train/valid/test files; identical paragraphs once)
  plos           PLOS JATS articles (abstracts + body paragraphs; starter_corpus and testdata)
  evinf          Evidence-Inference PMC trial reports (abstracts + body paragraphs, from xml_files.tar.xz)

Extracted documents are cached outside the repository (in the system temp directory) as gzipped JSON lines.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from claimforge.backends.lm import tokenize  # noqa: E402
from claimforge.nlp.sentences import split_sentences  # noqa: E402

SOURCES = ("scifact", "citint", "sciq", "plos", "evinf")
SPLITS = ("train", "dev", "test")


@dataclass
class Document:
    source: str
    doc_id: str
    sentences: list[str]

    @property
    def split(self) -> str:
        """3% test, 3% dev, 94% train, by a hash of (source, document id)."""
        h = int(hashlib.sha1(f"{self.source}:{self.doc_id}".encode()).hexdigest()[:8], 16) % 100
        return "test" if h < 3 else "dev" if h < 6 else "train"


# -- JATS --------------------------------------------------------------------------------------------------

_SKIP = {
    "table-wrap",
    "table",
    "fig",
    "disp-formula",
    "inline-formula",
    "graphic",
    "inline-graphic",
    "supplementary-material",
    "tex-math",
    "alternatives",
    "fn",
    "table-wrap-foot",
}
_EMPTY_BRACKETS = re.compile(r"\s*[\[(]\s*[,;–—\-\s]*[\])]")


def _skip(el: ET.Element) -> bool:
    tag = el.tag if isinstance(el.tag, str) else ""
    if tag.startswith("{"):  # MathML and other namespaced markup
        return True
    return tag in _SKIP or (tag == "xref" and el.get("ref-type") in {"bibr", "fn", "table-fn"})


def _text(el: ET.Element) -> str:
    parts = [el.text or ""]
    for ch in el:
        if not _skip(ch):
            parts.append(_text(ch))
        parts.append(ch.tail or "")
    return "".join(parts)


def _paragraphs(el: ET.Element) -> Iterator[str]:
    if _skip(el) or el.tag in {"ref-list", "ack", "caption", "title", "label"}:
        return
    if el.tag == "p":
        text = _EMPTY_BRACKETS.sub("", " ".join(_text(el).split()))
        if text:
            yield text
        return
    for ch in el:
        yield from _paragraphs(ch)


def jats_sentences(xml: bytes | str) -> list[str]:
    root = ET.fromstring(xml)
    out: list[str] = []
    for part in [*root.iter("abstract"), *root.iter("body")]:
        for para in _paragraphs(part):
            out.extend(split_sentences(para))
    return out


# -- sources -----------------------------------------------------------------------------------------------


def _jsonl(path: Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def _abstract_docs(path: Path, source: str) -> Iterator[Document]:
    for row in _jsonl(path):
        sents = [s for piece in row.get("abstract", []) for s in split_sentences(piece)]
        if sents:
            yield Document(source, str(row["doc_id"]), sents)


def _sciq_docs(folder: Path) -> Iterator[Document]:
    seen: set[str] = set()
    for split in ("train", "valid", "test"):
        path = folder / f"{split}.json"
        if not path.exists():
            continue
        for i, row in enumerate(json.loads(path.read_text("utf-8"))):
            support = " ".join((row.get("support") or "").split())
            if not support or support in seen:
                continue
            seen.add(support)
            yield Document("sciq", f"{split}-{i}", split_sentences(support))


def _plos_docs(folder: Path) -> Iterator[Document]:
    for path in sorted(folder.rglob("*.xml")):
        sents = jats_sentences(path.read_bytes())
        if sents:
            yield Document("plos", path.stem, sents)


def _evinf_docs(folder: Path) -> Iterator[Document]:
    tar = folder / "xml_files.tar.xz"
    seen: set[str] = set()
    if tar.exists():
        with tarfile.open(tar, "r:xz") as tf:
            for member in tf:
                if not member.isfile() or not member.name.endswith(".nxml"):
                    continue
                handle = tf.extractfile(member)
                if handle is None:
                    continue
                stem = Path(member.name).stem
                seen.add(stem)
                sents = jats_sentences(handle.read())
                if sents:
                    yield Document("evinf", stem, sents)
    for path in sorted((folder / "xml_sample_ev2_val_test").glob("*.nxml")):
        if path.stem not in seen:
            sents = jats_sentences(path.read_bytes())
            if sents:
                yield Document("evinf", path.stem, sents)


def extract(data: Path, source: str) -> Iterator[Document]:
    if source == "scifact":
        yield from _abstract_docs(data / "scifact" / "corpus.jsonl", source)
    elif source == "citint":
        yield from _abstract_docs(data / "citation_integrity" / "corpus.jsonl", source)
    elif source == "sciq":
        yield from _sciq_docs(data / "sciq")
    elif source == "plos":
        yield from _plos_docs(data / "papers" / "plos_jats")
    elif source == "evinf":
        yield from _evinf_docs(data / "papers" / "evidence_inference")
    else:
        raise ValueError(f"unknown source {source!r} (known: {', '.join(SOURCES)})")


def default_cache_dir() -> Path:
    return Path(tempfile.gettempdir()) / "claimforge-lm-corpus"


def documents(data: Path, source: str, cache_dir: Path | None = None) -> list[Document]:
    """The documents of one source, extracted once and cached (outside the repository)."""
    cache_dir = cache_dir or default_cache_dir()
    cache = cache_dir / f"{source}.jsonl.gz"
    if cache.exists() and cache.stat().st_mtime >= max(p.stat().st_mtime for p in [data, *data.iterdir()]):
        with gzip.open(cache, "rt", encoding="utf-8") as f:
            return [Document(**json.loads(line)) for line in f]
    docs = list(extract(data, source))
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as f:
        for d in docs:
            f.write(json.dumps({"source": d.source, "doc_id": d.doc_id, "sentences": d.sentences}) + "\n")
    tmp.replace(cache)
    return docs


def keep_sentence(tokens: list[str]) -> bool:
    """3-150 tokens, at least half of them words (drops table rows, reference lists, formula debris)."""
    if not 3 <= len(tokens) <= 150:
        return False
    words = sum(1 for t in tokens if t[0].isalpha())
    return words * 2 >= len(tokens)


@dataclass
class Sentence:
    source: str
    doc_id: str
    text: str
    tokens: list[str]


def split_corpus(
    data: Path, sources: tuple[str, ...] = SOURCES, cache_dir: Path | None = None
) -> dict[str, list[Sentence]]:
    """Sentences per split. Exact duplicates (same tokens) are kept once; a dev/test sentence that also occurs
    in train is dropped from dev/test (boilerplate repeats across documents)."""
    out: dict[str, list[Sentence]] = {s: [] for s in SPLITS}
    seen: dict[str, set[tuple[str, ...]]] = {s: set() for s in SPLITS}
    for source in sources:
        for doc in documents(data, source, cache_dir):
            split = doc.split
            for text in doc.sentences:
                toks = tokenize(text)
                key = tuple(toks)
                if not keep_sentence(toks) or key in seen[split]:
                    continue
                seen[split].add(key)
                out[split].append(Sentence(doc.source, doc.doc_id, text, toks))
    for split in ("dev", "test"):
        out[split] = [s for s in out[split] if tuple(s.tokens) not in seen["train"]]
    return out


def subsample(sentences: list[Sentence], fractions: dict[str, float]) -> list[Sentence]:
    """Keep a seeded, document-level fraction of some sources (e.g. {"evinf": 0.25}); others are kept whole."""

    def keep(s: Sentence) -> bool:
        f = fractions.get(s.source, 1.0)
        h = int(hashlib.sha1(f"sample:{s.source}:{s.doc_id}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
        return h < f

    return [s for s in sentences if keep(s)]


def parse_fractions(spec: str) -> dict[str, float]:
    """``"evinf=0.25,plos=0.5"`` -> {"evinf": 0.25, "plos": 0.5}."""
    out = {}
    for part in filter(None, spec.split(",")):
        name, _, value = part.partition("=")
        out[name] = float(value)
    return out
