"""CEM and GCEM from SciClaimHunt (Section IV-C/D): light heads over frozen sentence embeddings.

Claim and evidence sentences are embedded once (cached), so training touches only the small head:
CEM attends from the claim over the evidence sentences (multi-head attention, claim as query); GCEM
links evidence sentences whose cosine ≥ β and runs a 3-layer graph attention network, pooled by
min/max/mean. Both classify the features [e⊙c, e−c, e, c] with a two-layer network.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from claimforge.records import Pair
from claimforge.registry import registry
from claimforge.verify.base import TorchVerifier, VerifierConfig

WEIGHTS_FILE = "weights.safetensors"
log = logging.getLogger(__name__)


class EmbeddingHeadConfig(VerifierConfig):
    embedder: dict[str, Any] | str = {"name": "sentence-transformers"}
    hidden: int = 256
    dropout: float = 0.3  # the heads overfit quickly on thousands of pairs (docs/results.md)
    heads: int = 8  # attention heads (paper: 8)
    max_sentences: int = 64  # longer evidence keeps the sentences most similar to the claim
    batch_size: int = 256
    threads: int | None = None


class CEMConfig(EmbeddingHeadConfig):
    pass


class GCEMConfig(EmbeddingHeadConfig):
    beta: float = 0.75  # edge when cosine ≥ beta (paper: 0.25 / 0.5 / 0.75; 0.75 best)
    gat_layers: int = 3


def _mlp(torch: Any, dim: int, hidden: int, classes: int, dropout: float) -> Any:
    nn = torch.nn
    # Unit-length sentence vectors make the features tiny (e⊙c is ~1/dim per component); normalising them
    # first lets the two-layer classifier learn at an ordinary rate (without it, CEM barely moved off
    # chance in 4 epochs on Multi2Claim data; docs/results.md).
    return nn.Sequential(
        nn.LayerNorm(4 * dim), nn.Linear(4 * dim, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, classes)
    )


def _features(torch: Any, e: Any, c: Any) -> Any:
    return torch.cat([e * c, e - c, e, c], dim=-1)


def _build_cem(dim: int, cfg: CEMConfig) -> Any:
    import torch

    if dim % cfg.heads:
        raise ValueError(f"embedding size {dim} is not divisible by heads={cfg.heads}")

    class CEM(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.attention = torch.nn.MultiheadAttention(dim, cfg.heads, dropout=cfg.dropout, batch_first=True)
            self.classifier = _mlp(torch, dim, cfg.hidden, cfg.num_labels, cfg.dropout)

        def forward(self, claim: Any, sentences: Any, mask: Any, **_: Any) -> Any:
            # v = the attention-weighted average of the evidence sentence vectors themselves (weights averaged
            # over heads), so v lives in the claim's space and v⊙c, v−c compare like with like; the heads'
            # projected values would put v in a learned space that [v⊙c, v−c] cannot compare to c.
            _, weights = self.attention(
                claim.unsqueeze(1), sentences, sentences, key_padding_mask=~mask, need_weights=True
            )
            v = torch.bmm(weights, sentences).squeeze(1)
            return self.classifier(_features(torch, v, claim))

    return CEM()


def _build_gcem(dim: int, cfg: GCEMConfig) -> Any:
    import torch
    from torch_geometric.nn import GATConv, global_max_pool, global_mean_pool

    if dim % cfg.heads:
        raise ValueError(f"embedding size {dim} is not divisible by heads={cfg.heads}")

    class GCEM(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            # Hidden GAT layers: `heads` heads concatenated; the last layer averages one head (Veličković et al.).
            layers = [
                GATConv(dim, dim // cfg.heads, heads=cfg.heads, dropout=cfg.dropout) for _ in range(cfg.gat_layers - 1)
            ]
            layers.append(GATConv(dim, dim, heads=1, dropout=cfg.dropout))
            self.gat = torch.nn.ModuleList(layers)
            self.project = torch.nn.Linear(3 * dim, dim)  # [min; max; mean] → the claim's size
            self.classifier = _mlp(torch, dim, cfg.hidden, cfg.num_labels, cfg.dropout)

        def forward(self, claim: Any, nodes: Any, edge_index: Any, graph: Any, **_: Any) -> Any:
            h = nodes
            for i, layer in enumerate(self.gat):
                h = layer(h, edge_index)
                if i < len(self.gat) - 1:
                    h = torch.nn.functional.elu(h)
            pooled = torch.cat(
                [-global_max_pool(-h, graph), global_max_pool(h, graph), global_mean_pool(h, graph)], dim=-1
            )
            return self.classifier(_features(torch, self.project(pooled), claim))

    return GCEM()


class EmbeddingHeadVerifier(TorchVerifier):
    """Shared by CEM and GCEM: sentence embeddings computed once per text, weights in safetensors."""

    def __init__(self, config: EmbeddingHeadConfig) -> None:
        self.config: EmbeddingHeadConfig = config
        self._embedder: Any = None
        self._module: Any = None
        self._row: dict[str, int] = {}
        self._vectors: list[np.ndarray] = []
        self._matrix: np.ndarray | None = None
        if config.threads:
            import torch

            torch.set_num_threads(config.threads)

    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            self._embedder = registry.build("embedder", self.config.embedder)
        return self._embedder

    @property
    def source_id(self) -> str:
        return str(getattr(self.embedder, "model_id", self.config.embedder))

    @property
    def dim(self) -> int:
        if not self._vectors:
            self._add(self.embedder.embed(["dimension probe"]), ["dimension probe"])
        return int(self._vectors[0].shape[-1])

    @property
    def module(self) -> Any:
        if self._module is None:
            self._module = self._build(self.dim)
        return self._module

    def _build(self, dim: int) -> Any:
        raise NotImplementedError

    def _add(self, vecs: np.ndarray, texts: Sequence[str]) -> None:
        for t, v in zip(texts, vecs, strict=True):
            if t not in self._row:  # a repeated text keeps its first row; rows and vectors stay aligned
                self._row[t] = len(self._vectors)
                self._vectors.append(v.astype(np.float32))
        self._matrix = None

    def prepare(self, pairs: Sequence[Pair], progress: Any = None) -> None:
        new = sorted({t for p in pairs for t in (p.claim, *p.evidence) if t not in self._row})
        if new:
            self._add(self.embedder.embed(new, progress=progress), new)

    def _vec(self, texts: Sequence[str]) -> np.ndarray:
        if self._matrix is None or len(self._matrix) != len(self._vectors):
            self._matrix = np.stack(self._vectors)
        return self._matrix[[self._row[t] for t in texts]]

    def _evidence(self, pair: Pair, claim_vec: np.ndarray) -> np.ndarray:
        sents = pair.evidence or ("",)  # an empty evidence list reads as one empty sentence
        missing = [s for s in sents if s not in self._row]
        if missing:
            self._add(self.embedder.embed(missing), missing)
        vecs = self._vec(sents)
        if len(vecs) > self.config.max_sentences:
            keep = np.sort(np.argsort(-(vecs @ claim_vec), kind="stable")[: self.config.max_sentences])
            vecs = vecs[keep]
        return vecs

    def length(self, pair: Pair) -> int:
        return min(len(pair.evidence), self.config.max_sentences)

    def _claims(self, pairs: Sequence[Pair]) -> np.ndarray:
        missing = [p.claim for p in pairs if p.claim not in self._row]
        if missing:
            self._add(self.embedder.embed(missing), missing)
        return self._vec([p.claim for p in pairs])

    def forward(self, batch: dict[str, Any]) -> Any:
        return self.module(**batch)

    def save_weights(self, directory: Path, half: bool = False) -> None:
        from safetensors.torch import save_file

        state = {
            k: (v.half() if half and v.is_floating_point() else v).contiguous()
            for k, v in self.module.state_dict().items()
        }
        save_file(state, str(directory / WEIGHTS_FILE), metadata={"dim": str(self.dim)})

    def load_weights(self, directory: Path, strict: bool = True) -> list[str]:
        from safetensors import safe_open
        from safetensors.torch import load_file

        path = directory / WEIGHTS_FILE
        with safe_open(str(path), framework="pt") as f:
            dim = int((f.metadata() or {}).get("dim", self.dim))
        saved = load_file(str(path))
        module = self._build(dim)
        own = module.state_dict()
        fresh = [k for k in own if k not in saved or saved[k].shape != own[k].shape]
        if strict and fresh:
            raise ValueError(f"{path}: weights missing or of another shape for {fresh[:5]}")
        module.load_state_dict({k: v.float() for k, v in saved.items() if k not in fresh}, strict=False)
        self._module = module
        return fresh


class CEMVerifier(EmbeddingHeadVerifier):
    """CEM: multi-head attention from the claim over the evidence sentence embeddings."""

    kind: ClassVar[str] = "cem"

    def _build(self, dim: int) -> Any:
        return _build_cem(dim, self.config)  # type: ignore[arg-type]

    def collate(self, pairs: Sequence[Pair]) -> dict[str, Any]:
        import torch

        claims = self._claims(pairs)
        ev = [self._evidence(p, c) for p, c in zip(pairs, claims, strict=True)]
        width = max(len(e) for e in ev)
        sentences = np.zeros((len(pairs), width, claims.shape[1]), dtype=np.float32)
        mask = np.zeros((len(pairs), width), dtype=bool)
        for i, e in enumerate(ev):
            sentences[i, : len(e)] = e
            mask[i, : len(e)] = True
        return {
            "claim": torch.from_numpy(claims.copy()),
            "sentences": torch.from_numpy(sentences),
            "mask": torch.from_numpy(mask),
        }


class GCEMVerifier(EmbeddingHeadVerifier):
    """GCEM: a graph of evidence sentences (edge when cosine ≥ β) through a 3-layer GAT, pooled.

    Memory grows with the edges: about 3.3 KB per edge in inference and 9.5 KB in training (8 heads, 384-d
    MiniLM vectors). A whole paper (300 sentences) has ~1k edges at β = 0.75 but 16k-55k at β = 0.25 (PLOS
    papers), so prediction batches hold at most ``max_batch_edges`` edges (fewer pairs than ``batch_size`` when
    needed); training batches are the trainer's, and a warning says when one is over that budget
    (docs/verifiers.md: ``train.batch_size`` for full papers).
    """

    kind: ClassVar[str] = "gcem"
    config: GCEMConfig
    max_batch_edges: ClassVar[int] = 300_000  # ~1 GB of GAT activations in inference
    _warned_edges = 0  # the largest training batch (edges) warned about so far

    def _build(self, dim: int) -> Any:
        return _build_gcem(dim, self.config)  # type: ignore[arg-type]

    def _adjacency(self, e: np.ndarray) -> np.ndarray:
        return e @ e.T >= self.config.beta  # includes i→i: every node sees itself

    def edge_count(self, pair: Pair) -> int:
        """The number of edges of the pair's sentence graph."""
        return int(np.count_nonzero(self._adjacency(self._evidence(pair, self._claims([pair])[0]))))

    def batches(self, order: list[int], pairs: Sequence[Pair]) -> list[list[int]]:
        """At most ``batch_size`` pairs and ``max_batch_edges`` edges per batch (a larger graph goes alone)."""
        out: list[list[int]] = []
        current: list[int] = []
        used = 0
        for i in order:
            n = self.edge_count(pairs[i])
            if current and (len(current) >= self.config.batch_size or used + n > self.max_batch_edges):
                out.append(current)
                current, used = [], 0
            current.append(i)
            used += n
        if current:
            out.append(current)
        return out

    def _warn_large_batch(self, pairs: int, edges: int) -> None:
        """Say (again only when batches get twice as large) that a training batch's graphs are large."""
        if edges >= 2 * self._warned_edges:
            self._warned_edges = edges
            log.warning(
                "gcem: a training batch of %d graphs has %d edges (~%.1f GB of activations at ~9.5 KB per edge); "
                "with whole papers and a low beta, lower train.batch_size",
                pairs,
                edges,
                edges * 9.5e3 / 1e9,
            )

    def collate(self, pairs: Sequence[Pair]) -> dict[str, Any]:
        import torch

        claims = self._claims(pairs)
        nodes, edges, graph = [], [], []
        offset = 0
        for g, (pair, c) in enumerate(zip(pairs, claims, strict=True)):
            e = self._evidence(pair, c)
            src, dst = np.nonzero(self._adjacency(e))
            edges.append(np.stack([src, dst]) + offset)
            nodes.append(e)
            graph.append(np.full(len(e), g))
            offset += len(e)
        n_edges = sum(x.shape[1] for x in edges)
        if n_edges > self.max_batch_edges and self._module is not None and self._module.training:
            self._warn_large_batch(len(pairs), n_edges)
        return {
            "claim": torch.from_numpy(claims.copy()),
            "nodes": torch.from_numpy(np.concatenate(nodes)),
            "edge_index": torch.from_numpy(np.concatenate(edges, axis=1).astype(np.int64)),
            "graph": torch.from_numpy(np.concatenate(graph).astype(np.int64)),
        }


@registry.register("verifier", "cem", CEMConfig)
def build_cem(config: CEMConfig) -> CEMVerifier:
    """CEM (SciClaimHunt): claim-query multi-head attention over evidence sentence embeddings."""
    return CEMVerifier(config)


@registry.register("verifier", "gcem", GCEMConfig)
def build_gcem(config: GCEMConfig) -> GCEMVerifier:
    """GCEM (SciClaimHunt): graph attention network over the evidence sentence graph."""
    return GCEMVerifier(config)
