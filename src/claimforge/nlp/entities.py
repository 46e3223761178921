"""Entity mentions in text: biomedical named entities (NER) plus, optionally, the remaining noun phrases.

Component kind ``ner``, name ``spacy``. A spaCy NER pipeline (default: the project's own ``en_claimforge_bioner``,
Chemical and Disease, trained on BC5CDR; any spaCy/scispaCy pipeline name or path replaces it, e.g.
``en_ner_bc5cdr_md``) finds the named entities; the project's ``nlp`` component (the parser) adds its noun chunks
as ``NP`` mentions where they do not overlap an entity, trimmed of leading determiners, possessives and quantifiers.
Mentions carry character offsets into the input text and are cached on disk per (models, versions, text).

The BIO helpers (:func:`read_bio_tsv`, :func:`bio_to_spans`) are shared with ``training/ner`` (corpus conversion
and evaluation) so that training, evaluation and tests read the token/tag TSV corpora the same way.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from claimforge.cache import CachedComponentConfig, fingerprint
from claimforge.nlp.pipeline import _load_spacy
from claimforge.registry import registry

DEFAULT_NER_PIPELINE = "en_claimforge_bioner"
NP_LABEL = "NP"
# Bump when the merge/trim rules change: cached mentions made with older rules are then not reused.
MERGE_RULES_VERSION = "1"


@dataclass(frozen=True)
class Mention:
    """A mention with character offsets: ``text == source_text[start:end]``."""

    text: str
    start: int
    end: int
    label: str
    source: Literal["ner", "noun_chunk"]


# --------------------------------------------------------------------------------------------------------------
# BIO corpora (token<TAB>tag per line, blank line between sentences)


def read_bio_tsv(path: str | Path) -> Iterator[tuple[list[str], list[str]]]:
    """Sentences ``(tokens, tags)`` of a token-per-line BIO file; blank lines end sentences."""
    words: list[str] = []
    tags: list[str] = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\r\n")
            if not line.strip():
                if words:
                    yield words, tags
                    words, tags = [], []
                continue
            parts = line.split("\t")
            if len(parts) < 2:
                raise ValueError(f"{path}:{lineno}: expected 'token<TAB>tag', got {line!r}")
            words.append(parts[0])
            tags.append(parts[-1].strip())
    if words:
        yield words, tags


def bio_to_spans(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Entity token spans ``(start, end_exclusive, label)`` from BIO tags, as conlleval reads them.

    ``B-X`` always starts an entity (so ``B-X B-X`` is two adjacent entities); ``I-X`` continues an open ``X``
    entity and otherwise starts a new one (``O I-X`` and ``B-Y I-X`` both start an ``X`` entity); ``O`` closes.
    """
    spans: list[tuple[int, int, str]] = []
    start: int | None = None
    label = ""
    for i, tag in enumerate(tags):
        prefix, _, typ = tag.partition("-")
        if tag == "O" or prefix not in ("B", "I") or not typ:
            if tag != "O" and prefix not in ("B", "I", "O"):
                raise ValueError(f"not a BIO tag: {tag!r}")
            if start is not None:
                spans.append((start, i, label))
            start = None
            continue
        if prefix == "B" or start is None or typ != label:
            if start is not None:
                spans.append((start, i, label))
            start, label = i, typ
    if start is not None:
        spans.append((start, len(tags), label))
    return spans


# --------------------------------------------------------------------------------------------------------------
# Noun-chunk trimming

# Leading words removed from a noun chunk: articles, demonstratives, possessives, quantifiers.
_TRIM_WORDS = frozenset(
    """
    a an the this that these those some any no each every either neither all both half several many much
    few fewer more most less least various numerous another such what which whatever whichever
    my your his her its our their whose one's
    """.split()  # noqa: SIM905
)
_TRIM_TAGS = frozenset({"DT", "PDT", "PRP$", "WDT", "WP$", "POS"})
_TRIM_POS = frozenset({"DET", "PUNCT"})


def _trimmed_chunk(chunk: Any) -> tuple[int, int] | None:
    """Character span of a noun chunk without its leading determiners/possessives/quantifiers, or None when
    what is left is only a pronoun or only stop words, numbers and punctuation."""
    tokens = list(chunk)
    while tokens and (tokens[0].lower_ in _TRIM_WORDS or tokens[0].tag_ in _TRIM_TAGS or tokens[0].pos_ in _TRIM_POS):
        tokens = tokens[1:]
    while tokens and (tokens[-1].is_punct or tokens[-1].is_space):
        tokens = tokens[:-1]
    if not tokens:
        return None
    if len(tokens) == 1 and (tokens[0].pos_ == "PRON" or tokens[0].tag_ in {"PRP", "WP", "EX"}):
        return None
    if all(t.is_stop or t.like_num or t.pos_ == "NUM" or t.is_punct or t.pos_ == "PRON" for t in tokens):
        return None
    return tokens[0].idx, tokens[-1].idx + len(tokens[-1].text)


# Dependency labels only the UD scheme uses (the project's own parser, en_claimforge_sci, is trained on UD).
# spaCy's English noun-chunk iterator knows only the ClearNLP labels (dobj, pobj, ...) of en_core_web_* and
# scispaCy, so on a UD parse it misses objects and prepositional/oblique nouns; UD parses use ud_noun_chunks.
_UD_ONLY_DEPS = frozenset(
    {"obj", "obl", "case", "nsubj:pass", "nmod:poss", "iobj", "flat", "fixed", "compound:prt", "det:predet"}
)
# Left dependents that belong to a base noun phrase (UD and ClearNLP labels).
_NP_LEFT_DEPS = frozenset(
    {
        "det", "det:predet", "det:poss", "predet", "amod", "compound", "nummod", "nmod:poss", "poss", "nn", "flat",
        "nmod", "nmod:npmod", "npadvmod", "quantmod", "nounmod", "obl:npmod",
    }
)  # fmt: skip
_NOMINAL_POS = frozenset({"NOUN", "PROPN", "PRON"})


def ud_noun_chunks(doc: Any) -> list[Any]:
    """Base noun phrases of a UD-parsed doc: each nominal with its left modifiers (determiners, adjectives,
    compounds, numbers, possessors, and recursively their own such left modifiers; not prepositions,
    conjunctions or clauses); nested spans (a pre-modifying noun inside its head's phrase) are dropped.
    Returns ``Span`` s in document order."""

    def np_left(tok: Any, depth: int = 0) -> int:
        lefts = [np_left(c, depth + 1) for c in tok.lefts if c.dep_ in _NP_LEFT_DEPS and depth < 8]
        return min([tok.i, *lefts])

    spans = [(np_left(word), word.i + 1) for word in doc if word.pos_ in _NOMINAL_POS]
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans, key=lambda se: (-(se[1] - se[0]), se[0])):
        if not any(start < e and s < end for s, e in out):
            out.append((start, end))
    return [doc[s:e] for s, e in sorted(out)]


def noun_chunks(doc: Any) -> list[Any]:
    """The doc's noun chunks: :func:`ud_noun_chunks` for UD-labelled parses, else spaCy's ``doc.noun_chunks``."""
    if not doc.has_annotation("DEP"):
        raise ValueError("the doc has no dependency parse")
    if any(t.dep_ in _UD_ONLY_DEPS for t in doc):
        return ud_noun_chunks(doc)
    try:
        return list(doc.noun_chunks)
    except NotImplementedError:  # no noun-chunk iterator for this language
        return ud_noun_chunks(doc)


def merge_mentions(
    text: str, entities: Sequence[tuple[int, int, str]], chunks: Sequence[tuple[int, int]]
) -> list[Mention]:
    """NER entities first; each noun-chunk span (already trimmed) is added as ``NP`` only if it overlaps none
    of the entities. Sorted by start offset (then end)."""
    out = [Mention(text[s:e], s, e, label, "ner") for s, e, label in entities]
    taken = sorted((s, e) for s, e, _ in entities)
    for s, e in chunks:
        if not any(s < te and ts < e for ts, te in taken):
            out.append(Mention(text[s:e], s, e, NP_LABEL, "noun_chunk"))
    out.sort(key=lambda m: (m.start, m.end, m.source))
    return out


# --------------------------------------------------------------------------------------------------------------
# The component

# Components a NER pipeline never needs at inference (skipped for speed, e.g. in scispaCy's full pipelines).
_NOT_FOR_NER = frozenset(
    {"tagger", "morphologizer", "parser", "lemmatizer", "trainable_lemmatizer", "attribute_ruler", "senter"}
)


class SpacyNERConfig(CachedComponentConfig):
    pipeline: str = DEFAULT_NER_PIPELINE  # the shipped model's name, or any spaCy/scispaCy pipeline name or path
    noun_chunks: bool = True  # add the parser's noun chunks (label NP) where they overlap no entity
    parser: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})  # an ``nlp`` component spec
    labels: tuple[str, ...] | None = None  # keep only these NER labels (None: all)
    batch_size: int = 256


class SpacyNER:
    """Named-entity mentions from a spaCy NER pipeline, plus the parser's noun chunks that do not overlap them.

    ``mentions(texts)`` returns, per text, :class:`Mention` s sorted by start offset: the NER entities (only
    ``labels`` if given; source ``"ner"``), then, when ``noun_chunks`` is on, every noun chunk of the ``parser``
    component (kind ``nlp``) that overlaps none of those entities, labelled ``NP`` (source ``"noun_chunk"``),
    trimmed of leading determiners/possessives/quantifiers and dropped if only a pronoun or only stop words or
    numbers remain. Entities whose label is not in ``labels`` are dropped *before* the merge, so their words can
    come back as an ``NP``. Results are cached on disk per (NER pipeline and version, parser and version, options,
    text); a cached text runs neither model.
    """

    def __init__(self, config: SpacyNERConfig) -> None:
        self.config = config
        self.model_id = config.pipeline
        self._cache = config.open_cache("mentions")

    @property
    def nlp(self) -> Any:
        """The loaded spaCy pipeline (shared with the ``nlp`` component when both name the same pipeline)."""
        try:
            return _load_spacy(self.config.pipeline, ())
        except RuntimeError as e:
            raise RuntimeError(
                f"cannot load the NER pipeline {self.config.pipeline!r}: give a spaCy/scispaCy NER pipeline name "
                f"(e.g. en_ner_bc5cdr_md) or directory; the default is {DEFAULT_NER_PIPELINE!r}. ({e})"
            ) from None

    @functools.cached_property
    def parser(self) -> Any:
        """The ``nlp`` component whose noun chunks are added (built on first use)."""
        return registry.build("nlp", self.config.parser)

    @functools.cached_property
    def version(self) -> str:
        meta = self.nlp.meta
        return f"{meta.get('lang', '?')}_{meta.get('name', '?')}-{meta.get('version', '?')}"

    def _key(self, text: str) -> str:
        chunker = [self.parser.model_id, self.parser.version] if self.config.noun_chunks else None
        labels = sorted(self.config.labels) if self.config.labels is not None else None
        return fingerprint("mentions", MERGE_RULES_VERSION, self.config.pipeline, self.version, labels, chunker, text)

    def mentions(self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None) -> list[list[Mention]]:
        """Mentions per text, in input order (character offsets into each text)."""
        keys = [self._key(t) for t in texts]
        unique = dict(zip(keys, texts, strict=True))
        found: dict[str, list[Mention]] = {k: self._decode(v) for k, v in self._cache.get_many(list(unique)).items()}
        todo = [k for k in unique if k not in found]
        done = len(found)
        if progress is not None:
            progress(done, len(unique))
        chunk = self.config.batch_size * 8
        for i in range(0, len(todo), chunk):
            part = todo[i : i + chunk]
            part_texts = [unique[k] for k in part]
            entities = self._entities(part_texts)
            chunks = self._noun_chunks(part_texts) if self.config.noun_chunks else [[] for _ in part]
            new = {k: merge_mentions(t, e, c) for k, t, e, c in zip(part, part_texts, entities, chunks, strict=True)}
            found.update(new)
            self._cache.put_many({k: self._encode(v) for k, v in new.items()})
            done += len(part)
            if progress is not None:
                progress(done, len(unique))
        return [list(found[k]) for k in keys]

    def _entities(self, texts: Sequence[str]) -> list[list[tuple[int, int, str]]]:
        nlp = self.nlp
        if not any(nlp.get_pipe_meta(name).factory in ("ner", "beam_ner", "entity_ruler") for name in nlp.pipe_names):
            raise RuntimeError(f"spaCy pipeline {self.config.pipeline!r} has no entity recognizer (ner)")
        skip = [n for n in nlp.pipe_names if nlp.get_pipe_meta(n).factory in _NOT_FOR_NER]
        keep = set(self.config.labels) if self.config.labels is not None else None
        out = []
        for doc in nlp.pipe(texts, batch_size=self.config.batch_size, disable=skip):
            out.append([(e.start_char, e.end_char, e.label_) for e in doc.ents if keep is None or e.label_ in keep])
        return out

    def _noun_chunks(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        out = []
        for doc in self.parser.parse(texts):
            try:
                chunks = noun_chunks(doc)
            except ValueError as e:
                raise RuntimeError(
                    f"nlp component {self.config.parser!r} gives no noun chunks (needs a dependency parser): {e}"
                ) from None
            out.append([span for span in map(_trimmed_chunk, chunks) if span is not None])
        return out

    @staticmethod
    def _encode(mentions: Sequence[Mention]) -> bytes:
        rows = [[m.text, m.start, m.end, m.label, m.source] for m in mentions]
        return json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    @staticmethod
    def _decode(blob: bytes) -> list[Mention]:
        return [Mention(*row) for row in json.loads(blob)]


@registry.register("ner", "spacy", SpacyNERConfig)
def build_spacy_ner(config: SpacyNERConfig) -> SpacyNER:
    """Biomedical NER mentions (default: the shipped en_claimforge_bioner, Chemical/Disease) plus noun chunks."""
    return SpacyNER(config)
