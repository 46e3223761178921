"""Verifiers that read a whole paper: SciClaimHunt's Evidence Retrieval (ER, §IV-A) and Retrieval-Augmented
(RAG, §IV-B) approaches, as wrappers around any other verifier.

A pair's evidence is the paper's sentences (SciClaimHunt: ~265 of them). Both wrappers first *reduce* the pair:

1. the sentences are split into passages: windows of ``passage_sentences`` consecutive sentences every
   ``stride`` sentences (default: non-overlapping windows; the last window is moved back to end at the last
   sentence, :func:`claimforge.backends.retrieval.unit_spans`);
2. every passage is scored against the claim: ``dense`` (cosine of sentence-embedding vectors, the paper's
   SBERT), ``bm25`` (the project's BM25 tokenisation and scoring, bm25s, over the paper's passages) or
   ``hybrid`` (reciprocal-rank fusion of the two);
3. the best ``k`` passages are kept, in paper order (overlapping windows share their sentences once).

``er`` hands ``Pair(claim, those sentences)`` to the ``inner`` verifier. ``rag`` first summarises them:
``extractive`` keeps the ``summary_sentences`` sentences most similar to the claim (in paper order);
``llm`` asks an OpenAI-compatible chat model for a short summary of the facts in the passages that bear on the
claim (the paper's Gemma step), split into sentences. The inner verifier then reads (claim, summary).

The wrappers are trainable exactly like their inner verifier (``claimforge train --model er``): the trainer's
``prepare`` reduces every pair once (sentence embeddings batched over many pairs, each distinct text embedded
once and cached on disk by the embedder; LLM summaries requested once per pair and cached by the chat client),
and training updates only the inner model. A saved wrapper is its ``verifier.json`` (wrapper config, inner
spec included) and the inner model in ``inner/``; :func:`claimforge.verify.base.load_verifier` restores both.

The default inner verifier is ``embedded-nli``: the project's shipped MiniLM NLI cross-encoder
(docs/models/nli.md), fine-tuned from its NLI weights when trained. Any verifier spec works as ``inner``
(``cross-encoder``, ``cem``, ``gcem``; ``zero-shot-nli`` and ``llm-judge`` for prediction only).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import Field, model_validator

from claimforge.backends.llm import without_thinking
from claimforge.cache import fingerprint
from claimforge.records import Label, Pair
from claimforge.registry import registry
from claimforge.verify.base import VERIFIER_FILE, TorchVerifier, VerifierConfig, label_space, saved_spec, two_way

log = logging.getLogger(__name__)

INNER_DIR = "inner"  # where a saved wrapper keeps its inner verifier
EMBEDDED_INNER = "embedded-nli"  # the inner spec name of the shipped NLI cross-encoder


# -- passages ---------------------------------------------------------------------------------------


def passage_windows(n_sentences: int, size: int = 3, stride: int | None = None) -> list[tuple[int, int]]:
    """The ``[start, end)`` sentence ranges of a paper's passages: windows of ``size`` sentences every ``stride``
    (default ``size``: consecutive, non-overlapping); the last window is moved back to end at the last sentence,
    so every window of a paper longer than ``size`` is full length (the retriever's passage units)."""
    from claimforge.backends.retrieval import unit_spans

    if size < 1 or (stride is not None and stride < 1):
        raise ValueError("passage size and stride must be at least 1")
    return unit_spans(n_sentences, "passage", size, stride or size)


def top_passages(scores: Sequence[float] | np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` best-scored passages (ties: the earlier passage), returned in paper order."""
    order = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")[:k]
    return sorted(int(i) for i in order)


def sentences_of(spans: Sequence[tuple[int, int]]) -> list[int]:
    """The sentence indices the passages cover, each once, in paper order."""
    return sorted({i for start, end in spans for i in range(start, end)})


# -- config -----------------------------------------------------------------------------------------


class PaperRetrievalConfig(VerifierConfig):
    """What ``er`` and ``rag`` share: the inner verifier and the passage retrieval.

    ``batch_size`` is the number of pairs reduced together (the texts of that many pairs are embedded in one
    call; pairs with the same paper are grouped so each paper is embedded once). The inner verifier keeps its
    own batch size.
    """

    batch_size: int = Field(default=64, ge=1)
    inner: dict[str, Any] | str = EMBEDDED_INNER  # a verifier spec, or embedded-nli (+ cross-encoder overrides)
    passage_sentences: int = Field(default=3, ge=1)
    stride: int | None = Field(default=None, ge=1)  # None: = passage_sentences (the paper splits into passages)
    k: int = Field(default=3, ge=1)  # passages kept
    retrieval: Literal["dense", "bm25", "hybrid"] = "dense"
    # dense passage vectors: "text" embeds each passage's text (the paper: SBERT over the passage); "mean" is the
    # normalised mean of its sentences' vectors (each sentence embedded once, shared by overlapping windows).
    passage_vectors: Literal["text", "mean"] = "text"
    embedder: dict[str, Any] | str = {"name": "sentence-transformers"}
    bm25: dict[str, Any] | str = {"name": "bm25"}  # a retriever spec: its tokeniser, stemmer and BM25 parameters
    k_rrf: int = Field(default=60, ge=1)  # hybrid: reciprocal-rank fusion constant
    threads: int | None = None


class ERConfig(PaperRetrievalConfig):
    pass


DEFAULT_SUMMARY_PROMPT = (
    "You are given a claim and passages retrieved from a research paper. Write a short summary of the facts "
    "stated in the passages that bear on the claim, as a few plain factual sentences in a coherent order: "
    "rephrase and combine them, keep the numbers, conditions and comparisons exactly as the passages give them, "
    "and add nothing that the passages do not say. Do not judge the claim: do not say whether the passages "
    "support or refute it, and do not mention the claim. Output only the summary sentences."
)
DEFAULT_SUMMARY_USER = "Claim: {claim}\n\nPassages:\n{passages}"


class RAGConfig(PaperRetrievalConfig):
    summarizer: Literal["extractive", "llm"] = "extractive"
    summary_sentences: int = Field(default=5, ge=1)  # extractive: sentences kept
    # llm: the chat client's keys (base_url, model, api_key_env, temperature, max_tokens, cache_dir, ...); the
    # API key is read from the environment variable named by api_key_env, never from the config
    llm: dict[str, Any] | None = None
    summary_prompt: str = DEFAULT_SUMMARY_PROMPT  # the system message
    summary_user: str = DEFAULT_SUMMARY_USER  # the user message: {claim} and {passages}

    @model_validator(mode="after")
    def _llm_settings(self) -> RAGConfig:
        if self.summarizer == "llm" and not self.llm:
            raise ValueError("summarizer 'llm' needs llm settings (at least llm.model; llm.base_url, api_key_env)")
        if "{passages}" not in self.summary_user:
            raise ValueError("summary_user must contain {passages}")
        return self


# -- the inner verifier -----------------------------------------------------------------------------


def build_inner(spec: dict[str, Any] | str, num_labels: int) -> Any:
    """The inner verifier of a spec. ``embedded-nli`` (also a spec without a name) is the shipped NLI
    cross-encoder, 3-way, with its own settings (max_length 128, ...) and any cross-encoder keys the spec gives
    on top; any other name is a registry verifier, built in the wrapper's label space unless the spec sets
    ``num_labels``."""
    params: dict[str, Any] = {"name": spec} if isinstance(spec, str) else dict(spec)
    name = params.pop("name", EMBEDDED_INNER)
    if name != EMBEDDED_INNER:
        params.setdefault("num_labels", num_labels)
        return registry.build("verifier", {"name": name, **params})
    from claimforge.verify.cross_encoder import MODEL_DIR
    from claimforge.verify.nli import embedded_model_dir

    if params.get("num_labels", 3) != 3:
        raise ValueError("the embedded NLI model is 3-way; a 2-way er/rag reads it as SUPPORTED vs the rest")
    if "model" in params:
        raise ValueError("embedded-nli has its own weights; for other ones give {name: cross-encoder, model: ...}")
    path = embedded_model_dir()
    shipped = saved_spec(path)
    if shipped.get("name") != "cross-encoder":
        raise ValueError(f"{path}: expected a cross-encoder, found {shipped.get('name')!r}")
    shipped.pop("name")
    # The cross-encoder loads its weights from ``model`` on first use: the shipped, trained 3-way head.
    return registry.build(
        "verifier",
        {"name": "cross-encoder", **shipped, **params, "model": str(path / MODEL_DIR)},
    )


def _spec_name(spec: dict[str, Any] | str) -> str:
    return spec if isinstance(spec, str) else str(spec.get("name", EMBEDDED_INNER))


# -- the wrappers -----------------------------------------------------------------------------------


class PaperRetrievalVerifier(TorchVerifier):
    """Retrieves the top-k passages of a pair's paper, then runs the inner verifier on what they say.

    ``reduce(pairs)`` gives the pairs the inner verifier reads (cached per claim and evidence). A 3-way inner
    verifier in a 2-way wrapper is read as SUPPORTED vs the rest (its probabilities, and in training its logits,
    REFUTED and NOT_ENOUGH_INFO pooled), so the shipped 3-way NLI model trains on binary data without a new head.
    """

    kind: ClassVar[str] = ""
    config: PaperRetrievalConfig

    def __init__(self, config: PaperRetrievalConfig) -> None:
        self.config = config
        self.inner = build_inner(config.inner, config.num_labels)
        inner_k = len(self.inner.labels)
        if inner_k < config.num_labels:
            raise ValueError(f"a {inner_k}-way inner verifier cannot give {config.num_labels}-way predictions")
        self._fold = inner_k == 3 and config.num_labels == 2
        self._embedder: Any = None
        self._bm25: Any = None
        self._reduced: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
        if config.retrieval in ("bm25", "hybrid"):
            self._bm25 = registry.build("retriever", config.bm25)
            if not hasattr(self._bm25, "_tokenize") or not hasattr(self._bm25, "bm25_config"):
                raise ValueError(f"bm25 must be a BM25 retriever spec, got {config.bm25!r}")
        if config.threads:
            import torch

            torch.set_num_threads(config.threads)

    # -- identity ---------------------------------------------------------------------------------
    @property
    def labels(self) -> tuple[Label, ...]:
        return label_space(self.config.num_labels)

    def _reduction_id(self) -> str:
        c = self.config
        parts = [f"{c.retrieval}", f"p{c.passage_sentences}/{c.stride or c.passage_sentences}", f"k{c.k}"]
        if c.retrieval != "bm25":
            parts.append(f"{c.passage_vectors}:{getattr(self.embedder, 'model_id', c.embedder)}")
        if self._bm25 is not None:
            parts.append(self._bm25.model_id)
        return ",".join(parts)

    @property
    def model_id(self) -> str:
        return f"{self.kind}({self._reduction_id()})>{self.inner.model_id}"

    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            self._embedder = registry.build("embedder", self.config.embedder)
        return self._embedder

    # -- the trainable inner model --------------------------------------------------------------------
    def _trainable(self) -> TorchVerifier:
        if not isinstance(self.inner, TorchVerifier):
            raise ValueError(
                f"{self.kind} with inner verifier {_spec_name(self.config.inner)!r} is not trainable "
                "(use it with evaluate, or give a trainable inner: embedded-nli, cross-encoder, cem, gcem)"
            )
        return self.inner

    @property
    def default_train(self) -> dict[str, Any]:  # type: ignore[override]  # a class variable of other verifiers
        """The inner verifier's training defaults."""
        return dict(self._trainable().default_train)

    @property
    def module(self) -> Any:
        return self._trainable().module

    def prepare(self, pairs: Sequence[Pair], progress: Any = None) -> None:
        """Reduce every pair (batched), then let the inner model precompute its features for the reduced pairs."""
        inner = self._trainable()
        inner.prepare(self.reduce(pairs, progress=progress))

    def collate(self, pairs: Sequence[Pair]) -> dict[str, Any]:
        return self._trainable().collate(self.reduce(pairs))

    def forward(self, batch: dict[str, Any]) -> Any:
        logits = self._trainable().forward(batch)
        if self._fold:
            import torch

            # log P(S), log P(R or N) up to the same constant: softmax of these is two_way(softmax(logits))
            return torch.stack([logits[:, 0], torch.logsumexp(logits[:, 1:], dim=-1)], dim=-1)
        return logits

    def length(self, pair: Pair) -> int:
        return int(self._trainable().length(self.reduce([pair])[0]))

    def save_weights(self, directory: Path, half: bool = False) -> None:
        """The inner verifier, saved whole (its own ``verifier.json`` and weights) in ``inner/``."""
        self._trainable().save(directory / INNER_DIR, half=half)

    def load_weights(self, directory: Path, strict: bool = True) -> list[str]:
        """The inner weights of a saved wrapper (``directory/inner``), or of a saved run of the inner verifier's
        own kind (``--init`` from a cross-encoder run)."""
        inner = self._trainable()
        source = directory / INNER_DIR if (directory / INNER_DIR / VERIFIER_FILE).is_file() else directory
        saved = saved_spec(source).get("name")
        if saved != inner.kind:
            raise ValueError(f"{source}: a saved {saved!r} verifier cannot initialise an inner {inner.kind!r}")
        return inner.load_weights(source, strict=strict)

    # -- prediction -------------------------------------------------------------------------------
    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        """Reduce the pairs, then the inner verifier's probabilities (folded to 2-way when needed)."""
        if not pairs:
            return np.zeros((0, len(self.labels)), dtype=np.float32)
        probs = np.asarray(self.inner.predict_proba(self.reduce(pairs, progress=progress), progress=progress))
        return two_way(probs).astype(np.float32) if self._fold else probs.astype(np.float32)

    # -- reduction --------------------------------------------------------------------------------
    def reduce(self, pairs: Sequence[Pair], progress: Any = None) -> list[Pair]:
        """The pairs as the inner verifier reads them: same id, claim and labels, the reduced evidence."""
        keys = [(p.claim, p.evidence) for p in pairs]
        todo = list(dict.fromkeys(k for k in keys if k not in self._reduced))
        if todo:
            # Pairs of one paper in the same batch: its sentences and passages are embedded once.
            by_paper: dict[tuple[str, ...], list[tuple[str, tuple[str, ...]]]] = {}
            for key in todo:
                by_paper.setdefault(key[1], []).append(key)
            ordered = [key for group in by_paper.values() for key in group]
            size = self.config.batch_size
            for start in range(0, len(ordered), size):
                chunk = ordered[start : start + size]
                self._reduced.update(zip(chunk, self._reduce_batch(chunk), strict=True))
                if progress is not None:
                    progress(min(start + size, len(ordered)), len(ordered))
        return [p.model_copy(update={"evidence": self._reduced[k]}) for p, k in zip(pairs, keys, strict=True)]

    def _reduce_batch(self, keys: list[tuple[str, tuple[str, ...]]]) -> list[tuple[str, ...]]:
        """The reduced evidence of a batch of (claim, evidence) keys."""
        selected = self.retrieve(keys)
        return self._summarize(keys, selected)

    def _summarize(
        self, keys: list[tuple[str, tuple[str, ...]]], selected: list[list[tuple[int, int]]]
    ) -> list[tuple[str, ...]]:
        """ER: the (non-empty) sentences of the selected passages, in paper order."""
        return [
            tuple(ev[i] for i in sentences_of(spans) if ev[i]) for (_, ev), spans in zip(keys, selected, strict=True)
        ]

    def retrieve(self, keys: Sequence[tuple[str, tuple[str, ...]]]) -> list[list[tuple[int, int]]]:
        """For each (claim, evidence sentences), the ``[start, end)`` ranges of its top-k passages in paper order."""
        c = self.config
        spans_of: list[list[tuple[int, int]]] = []
        scored: list[int] = []  # keys with more passages than k
        for j, (_, ev) in enumerate(keys):
            spans = [(s, e) for s, e in passage_windows(len(ev), c.passage_sentences, c.stride) if any(ev[s:e])]
            spans_of.append(spans)
            if len(spans) > c.k:
                scored.append(j)
        out: list[list[tuple[int, int]]] = [list(spans) for spans in spans_of]
        if not scored:
            return out
        dense = self._dense_scores([keys[j] for j in scored], [spans_of[j] for j in scored])
        for n, j in enumerate(scored):
            claim, ev = keys[j]
            spans = spans_of[j]
            if c.retrieval == "dense":
                picked = top_passages(dense[n], c.k)
            elif c.retrieval == "bm25":
                picked = top_passages(self._bm25_scores(claim, ev, spans), c.k)
            else:
                picked = self._fused(dense[n], self._bm25_scores(claim, ev, spans), spans)
            out[j] = [spans[i] for i in picked]
        return out

    def _dense_scores(
        self, keys: Sequence[tuple[str, tuple[str, ...]]], spans_of: Sequence[list[tuple[int, int]]]
    ) -> list[np.ndarray]:
        """Cosine of each passage with its claim (empty arrays under bm25, which needs no vectors)."""
        if self.config.retrieval == "bm25":
            return [np.zeros(0) for _ in keys]
        text_mode = self.config.passage_vectors == "text"
        texts: dict[str, None] = {}
        for (claim, ev), spans in zip(keys, spans_of, strict=True):
            texts[claim] = None
            for s, e in spans:
                if text_mode:
                    texts[_passage_text(ev, s, e)] = None
                else:
                    texts.update(dict.fromkeys(t for t in ev[s:e] if t))
        vec = self._vectors(list(texts))
        out = []
        for (claim, ev), spans in zip(keys, spans_of, strict=True):
            if text_mode:
                mat = np.stack([vec[_passage_text(ev, s, e)] for s, e in spans])
            else:
                mat = np.stack([_unit(np.mean([vec[t] for t in ev[s:e] if t], axis=0)) for s, e in spans])
            out.append(mat @ vec[claim])
        return out

    def _vectors(self, texts: list[str]) -> dict[str, np.ndarray]:
        """Unit-length embedder vectors of distinct texts, one embedder call (it batches and caches on disk)."""
        if not texts:
            return {}
        arr = np.asarray(self.embedder.embed(texts), dtype=np.float32)
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return dict(zip(texts, arr / norms, strict=True))

    def _bm25_scores(self, claim: str, evidence: tuple[str, ...], spans: Sequence[tuple[int, int]]) -> np.ndarray:
        """BM25 of the claim against the paper's passages (the paper is the corpus: its own term statistics),
        with the tokeniser, stopwords and stemmer of the configured BM25 retriever."""
        import bm25s
        from bm25s.tokenization import Tokenized

        tok = self._bm25._tokenize([claim, *(_passage_text(evidence, s, e) for s, e in spans)])
        word = {i: w for w, i in tok.vocab.items()}
        cfg = self._bm25.bm25_config
        index = bm25s.BM25(method=cfg.method, k1=cfg.k1, b=cfg.b)
        index.index(Tokenized(ids=tok.ids[1:], vocab=tok.vocab), show_progress=False)
        query = [word[i] for i in tok.ids[0]]
        if not query:
            return np.zeros(len(spans))
        return np.asarray(index.get_scores(query), dtype=np.float64)

    def _fused(self, dense: np.ndarray, sparse: np.ndarray, spans: Sequence[tuple[int, int]]) -> list[int]:
        """Hybrid: reciprocal-rank fusion of the dense and BM25 rankings (passages sharing no term with the
        claim are not in the BM25 ranking, as in the retriever)."""
        from claimforge.backends.retrieval import Hit, reciprocal_rank_fusion

        def ranking(scores: np.ndarray, positive: bool) -> list[Hit]:
            order = np.argsort(-scores, kind="stable")
            return [
                Hit("", "passage", spans[i][0], spans[i][1], "", float(scores[i]), r)
                for r, i in enumerate(order)
                if not positive or scores[i] > 0
            ]

        fused = reciprocal_rank_fusion([ranking(dense, False), ranking(sparse, True)], self.config.k, self.config.k_rrf)
        start_of = {span[0]: i for i, span in enumerate(spans)}
        return sorted(start_of[h.start] for h in fused)


def _passage_text(evidence: tuple[str, ...], start: int, end: int) -> str:
    return " ".join(s for s in evidence[start:end] if s)


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


class ERVerifier(PaperRetrievalVerifier):
    """ER: the inner verifier on the top-k passages of the paper."""

    kind: ClassVar[str] = "er"
    config: ERConfig


_BULLET = re.compile(r"^\s*(?:[-*•–]+|\d+[.)]|\(\d+\))\s+")
_HEADING = re.compile(r"^\s*(?:here is|here's|summary)\b[^:\n]*:\s*$", re.IGNORECASE)


def summary_sentences(reply: str) -> tuple[str, ...]:
    """The sentences of an LLM summary: ``<think>`` blocks, a "Summary:" / "Here is ..." lead-in line, list
    markers and markdown emphasis removed; each line split with the project's sentence splitter. Empty when the
    reply holds no text (or reasoning that never finished)."""
    from claimforge.nlp.sentences import split_sentences

    text = without_thinking(reply, " ")
    if "<think>" in text.lower():
        return ()
    out: list[str] = []
    for line in text.splitlines():
        if _HEADING.match(line):
            continue
        line = _BULLET.sub("", line).replace("**", "").replace("__", "")
        line = re.sub(r"^\s*summary\s*:\s*", "", line, flags=re.IGNORECASE)
        out.extend(s for s in split_sentences(line) if s.strip())
    return tuple(out)


class RAGVerifier(PaperRetrievalVerifier):
    """RAG: the top-k passages summarised (extractive, or by a chat LLM), then the inner verifier.

    With the ``llm`` summarizer, a reply that fails or holds no text falls back to the retrieved sentences (the
    ER evidence) for that pair: logged, and listed in ``self.fallbacks`` as ``(pair claim, reason)``.
    """

    kind: ClassVar[str] = "rag"
    config: RAGConfig

    def __init__(self, config: RAGConfig) -> None:
        super().__init__(config)
        self.fallbacks: list[tuple[str, str]] = []
        self._llm: Any = None
        if config.summarizer == "llm":
            spec = dict(config.llm or {})
            spec.setdefault("name", "openai-compatible")
            self._llm = registry.build("llm", spec)

    def _reduction_id(self) -> str:
        c = self.config
        if c.summarizer == "extractive":
            summary = f"extractive{c.summary_sentences}:{getattr(self.embedder, 'model_id', c.embedder)}"
        else:
            summary = f"llm:{self._llm.model_id}#{fingerprint(c.summary_prompt, c.summary_user)[:10]}"
        return f"{super()._reduction_id()},{summary}"

    def messages(self, claim: str, passages: Sequence[str]) -> list[dict[str, Any]]:
        """The conversation that asks for the summary of ``passages`` (numbered, one paragraph each)."""
        listed = "\n\n".join(f"[{i}] {p}" for i, p in enumerate(passages, 1))
        # one pass over the template: a passage that happens to contain "{claim}" is left as it is
        fill = {"{passages}": listed, "{claim}": " ".join(claim.split())}
        user = re.sub(r"\{passages\}|\{claim\}", lambda m: fill[m.group(0)], self.config.summary_user)
        return [{"role": "system", "content": self.config.summary_prompt}, {"role": "user", "content": user}]

    def _summarize(
        self, keys: list[tuple[str, tuple[str, ...]]], selected: list[list[tuple[int, int]]]
    ) -> list[tuple[str, ...]]:
        retrieved = super()._summarize(keys, selected)
        if self.config.summarizer == "llm":
            return self._llm_summaries(keys, selected, retrieved)
        return self._extractive(keys, retrieved)

    def _extractive(
        self, keys: list[tuple[str, tuple[str, ...]]], retrieved: list[tuple[str, ...]]
    ) -> list[tuple[str, ...]]:
        """The ``summary_sentences`` retrieved sentences most similar to the claim, in paper order."""
        n = self.config.summary_sentences
        long = [j for j, sents in enumerate(retrieved) if len([s for s in sents if s]) > n]
        if not long:
            return retrieved
        texts = dict.fromkeys(t for j in long for t in (keys[j][0], *retrieved[j]) if t)
        vec = self._vectors(list(texts))
        out = list(retrieved)
        for j in long:
            sents = [s for s in retrieved[j] if s]
            sims = np.stack([vec[s] for s in sents]) @ vec[keys[j][0]]
            out[j] = tuple(sents[i] for i in top_passages(sims, n))
        return out

    def _llm_summaries(
        self,
        keys: list[tuple[str, tuple[str, ...]]],
        selected: list[list[tuple[int, int]]],
        retrieved: list[tuple[str, ...]],
    ) -> list[tuple[str, ...]]:
        asked = [j for j, spans in enumerate(selected) if spans]  # a pair without evidence has nothing to summarise
        convs = [self.messages(keys[j][0], [_passage_text(keys[j][1], s, e) for s, e in selected[j]]) for j in asked]
        reply_of = dict(zip(asked, self._llm.complete(convs) if convs else [], strict=True))
        out: list[tuple[str, ...]] = []
        failed: list[tuple[str, str]] = []
        for j, ((claim, _), fallback) in enumerate(zip(keys, retrieved, strict=True)):
            if j not in reply_of:
                out.append(())
                continue
            reply = reply_of[j]
            sents = summary_sentences(reply)
            if sents:
                out.append(sents)
                continue
            error = getattr(reply, "error", "")
            failed.append((claim, f"request failed: {error}" if error else "empty reply"))
            out.append(fallback)
        if failed:
            self.fallbacks.extend(failed)
            log.warning(
                "%s: %d of %d summaries failed (first: %s); those pairs keep the retrieved sentences",
                self._llm.model_id,
                len(failed),
                len(keys),
                failed[0][1][:200],
            )
        return out

    def close(self) -> None:
        """Close the chat client's connections (the llm summarizer)."""
        if self._llm is not None and hasattr(self._llm, "close"):
            self._llm.close()


@registry.register("verifier", "er", ERConfig)
def build_er(config: ERConfig) -> ERVerifier:
    """SciClaimHunt ER: top-k passages of the paper (dense/BM25/hybrid), then an inner verifier (trainable)."""
    return ERVerifier(config)


@registry.register("verifier", "rag", RAGConfig)
def build_rag(config: RAGConfig) -> RAGVerifier:
    """SciClaimHunt RAG: top-k passages summarised (extractive or LLM), then an inner verifier (trainable)."""
    return RAGVerifier(config)
