"""Salient words of a claim: the words whose replacement is most likely to flip its meaning (COVID-Fact §2.2.1).

Every method ranks the same candidates, the content words of the claim's parse (verbs, adjectives, nouns,
numerals, adverbs, proper nouns; not auxiliaries, stop words or punctuation), so methods differ only in the order:

``attention``
    the paper's method: the attention a verifier's classification token pays to each word (summed over its
    word pieces) at one layer, one head or the mean of the heads; any cross-encoder verifier (default: the
    embedded judge; a run trained with ``claimforge train``; a Hugging Face model name or path). The claim is
    encoded alone, as the paper's claim-only veracity classifier reads it.
``yake``
    YAKE (Campos et al. 2020), unsupervised keyword extraction, 1-grams.
``pos``
    a part-of-speech prior (the paper's Figure 2: verbs, adjective modifiers and nouns are the words its
    counter-claims changed), rarer words first within a class.

``rank(claims)`` returns, per claim, every candidate as a :class:`SalientWord`, best first.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import Field

from claimforge.registry import ComponentConfig, registry

CONTENT_POS = ("VERB", "ADJ", "NOUN", "NUM", "ADV", "PROPN")
# Function words whose replacement flips a claim as surely as a content word's: negation, modality, quantity,
# comparison and order ("can" -> "cannot", "two" -> "three", "more" -> "less", "first" -> "last").
FLIP_WORDS = frozenset(
    """not no never can cannot could may might must should will would more less most least first last few
    many several all none only before after""".split()  # noqa: SIM905
)
# The POS prior: verbs and modifiers flip a claim most often, then numbers and nouns (COVID-Fact Figure 2).
POS_PRIOR = {"VERB": 1.0, "ADJ": 0.9, "NUM": 0.85, "NOUN": 0.8, "FLIP": 0.7, "ADV": 0.6, "PROPN": 0.5}
_NEVER = frozenset(["al", "et", "vs", "fig", "ref", "study", "studies", "new", "also"])


@dataclass(frozen=True)
class SalientWord:
    """A candidate word of a claim: character span, text, part of speech, tag, and the method's score (higher
    is more salient)."""

    start: int
    end: int
    text: str
    pos: str
    tag: str
    score: float


def candidates(doc: Any) -> list[SalientWord]:
    """The content words of a parsed claim, in order, with score 0."""
    out = []
    for t in doc:
        flip = t.lower_ in FLIP_WORDS or (t.pos_ == "NUM" and t.like_num)
        if not flip:
            if t.pos_ not in CONTENT_POS or t.is_stop or t.is_punct or t.dep_ in ("aux", "aux:pass", "cop"):
                continue
            if len(t.text) < 2 or t.lower_ in _NEVER or not any(ch.isalnum() for ch in t.text):
                continue
        pos = "NUM" if t.pos_ == "NUM" else "FLIP" if t.lower_ in FLIP_WORDS else t.pos_
        out.append(SalientWord(t.idx, t.idx + len(t.text), t.text, pos, t.tag_, 0.0))
    return out


def _ranked(words: list[SalientWord], scores: Sequence[float]) -> list[SalientWord]:
    scored = [SalientWord(w.start, w.end, w.text, w.pos, w.tag, float(s)) for w, s in zip(words, scores, strict=True)]
    return sorted(scored, key=lambda w: (-w.score, w.start))


class _Base:
    model_id: str

    def __init__(self, config: Any) -> None:
        self.config = config
        self._nlp: Any = None

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = registry.build("nlp", self.config.nlp)
        return self._nlp

    def rank(self, claims: Sequence[str]) -> list[list[SalientWord]]:
        docs = self.nlp.parse(list(claims)) if claims else []
        cands = [candidates(d) for d in docs]
        scores = self._scores(list(claims), cands)
        return [_ranked(c, s) for c, s in zip(cands, scores, strict=True)]

    def _scores(self, claims: list[str], cands: list[list[SalientWord]]) -> list[list[float]]:
        raise NotImplementedError


class POSSaliencyConfig(ComponentConfig):
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    lm: dict[str, Any] | None = Field(default_factory=lambda: {"name": "ngram"})  # rarity within a class


@registry.register("saliency", "pos", POSSaliencyConfig)
class POSSaliency(_Base):
    """The part-of-speech prior, rarer words first within a class (by the n-gram LM's word counts)."""

    def __init__(self, config: POSSaliencyConfig) -> None:
        super().__init__(config)
        self._lm = registry.build("lm", config.lm) if config.lm is not None else None
        self.model_id = "pos-prior-v1" + (f"+{self._lm.model_id}" if self._lm is not None else "")

    def _scores(self, claims: list[str], cands: list[list[SalientWord]]) -> list[list[float]]:
        out = []
        for words in cands:
            rarity = [self._rarity(w.text) for w in words]
            out.append([POS_PRIOR[w.pos] + 0.01 * r for w, r in zip(words, rarity, strict=True)])
        return out

    def _rarity(self, word: str) -> float:
        """0 (most common) .. 1 (unseen), from the word's relative frequency in the LM's training text."""
        if self._lm is None or not hasattr(self._lm, "rarest_word"):
            return 0.0
        _, freq = self._lm.rarest_word(word)
        return float(min(1.0, -np.log10(max(freq, 1e-9)) / 9.0))


class YAKEConfig(ComponentConfig):
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    window: int = Field(default=1, ge=1)  # YAKE's co-occurrence window
    dedup: float = Field(default=0.9, gt=0, le=1)


@registry.register("saliency", "yake", YAKEConfig)
class YAKESaliency(_Base):
    """YAKE keyword scores (lower YAKE score = more salient; words YAKE does not return come last)."""

    def __init__(self, config: YAKEConfig) -> None:
        super().__init__(config)
        self.model_id = f"yake-1gram-w{config.window}"

    def _scores(self, claims: list[str], cands: list[list[SalientWord]]) -> list[list[float]]:
        import yake

        extractor = yake.KeywordExtractor(
            lan="en", n=1, top=100, windowsSize=self.config.window, dedupLim=self.config.dedup
        )
        out = []
        for claim, words in zip(claims, cands, strict=True):
            found = {k.lower(): s for k, s in extractor.extract_keywords(claim)} if words else {}
            out.append([-found[w.text.lower()] if w.text.lower() in found else -1e9 for w in words])
        return out


class AttentionSaliencyConfig(ComponentConfig):
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    # "embedded" (the shipped judge), a verifier directory written by `claimforge train`, or a Hugging Face
    # sequence-classification model (name or path).
    model: str = "embedded"
    layer: int = -1  # which layer's attention (negative: from the top)
    # one head, or None for the mean of the layer's heads; head 9 of the last layer of the embedded judge was the
    # best on the first half of COVID-Fact train (bench/covidfact_saliency.py --sweep, docs/models/saliency.md)
    head: int | None = 9
    max_length: int = Field(default=128, ge=8)
    batch_size: int = Field(default=32, ge=1)


@functools.lru_cache(maxsize=2)
def _attention_model(model: str) -> tuple[Any, Any, str]:
    """(tokenizer, module, model id) of a cross-encoder, with attention weights returned."""
    from claimforge.cache import weights_stamp
    from claimforge.verify.base import load_verifier
    from claimforge.verify.cross_encoder import CrossEncoderVerifier
    from claimforge.verify.nli import EMBEDDED_NLI, embedded_model_dir

    if model == "embedded":
        path = embedded_model_dir()
        verifier: Any = load_verifier(path)
        model_id = f"{EMBEDDED_NLI}@{weights_stamp(path)}"
    elif (Path(model) / "verifier.json").is_file() or (Path(model) / "best" / "verifier.json").is_file():
        path = Path(model) if (Path(model) / "verifier.json").is_file() else Path(model) / "best"
        verifier = load_verifier(path)
        model_id = f"run:{path.resolve()}@{weights_stamp(path)}"
    else:
        from claimforge.verify.cross_encoder import CrossEncoderConfig

        verifier = CrossEncoderVerifier(CrossEncoderConfig(model=model, num_labels=2))
        model_id = f"hf:{model}@{weights_stamp(model)}"
    module = verifier.module
    if hasattr(module, "set_attn_implementation"):
        module.set_attn_implementation("eager")  # fused attention kernels do not return the weights
    else:  # pragma: no cover - older transformers
        module.config._attn_implementation = "eager"
    module.eval()
    return verifier.tokenizer, module, model_id


@registry.register("saliency", "attention", AttentionSaliencyConfig)
class AttentionSaliency(_Base):
    """The attention of a verifier's classification token to each candidate word (COVID-Fact's method)."""

    def __init__(self, config: AttentionSaliencyConfig) -> None:
        super().__init__(config)
        c = config
        _, _, mid = _attention_model(c.model)
        self.model_id = f"attention({mid},layer={c.layer},head={'mean' if c.head is None else c.head})"

    def attentions(self, claims: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per claim: (CLS attention, shape layers x heads x pieces; the pieces' character offsets)."""
        import torch

        tok, module, _ = _attention_model(self.config.model)
        out: list[tuple[np.ndarray, np.ndarray]] = []
        bs = self.config.batch_size
        for i in range(0, len(claims), bs):
            batch = list(claims[i : i + bs])
            enc = tok(
                batch,
                truncation=True,
                max_length=self.config.max_length,
                padding=True,
                return_offsets_mapping=True,
                return_tensors="pt",
            )
            offsets = enc.pop("offset_mapping").numpy()
            with torch.inference_mode():
                res = module(**enc, output_attentions=True)
            att = torch.stack(res.attentions, dim=1)[:, :, :, 0, :].float().numpy()  # batch, layer, head, piece
            mask = enc["attention_mask"].numpy().astype(bool)
            for j in range(len(batch)):
                out.append((att[j][:, :, mask[j]], offsets[j][mask[j]]))
        return out

    def _scores(self, claims: list[str], cands: list[list[SalientWord]]) -> list[list[float]]:
        c = self.config
        out = []
        for (att, offsets), words in zip(self.attentions(claims), cands, strict=True):
            layer = att[c.layer]
            weights = layer.mean(axis=0) if c.head is None else layer[c.head]
            out.append(word_scores(weights, offsets, words))
        return out


def word_scores(weights: np.ndarray, offsets: np.ndarray, words: Sequence[SalientWord]) -> list[float]:
    """The summed weight of the word pieces inside each word's character span (special tokens have offsets
    (0, 0) and count for nothing)."""
    scores = []
    for w in words:
        inside = (offsets[:, 1] > offsets[:, 0]) & (offsets[:, 0] < w.end) & (offsets[:, 1] > w.start)
        scores.append(float(weights[inside].sum()))
    return scores


# --------------------------------------------------------------------------------------------------
# Learned: a logistic regression over the signals above


def features(
    att: np.ndarray, offsets: np.ndarray, words: Sequence[SalientWord], yake_found: Sequence[bool]
) -> np.ndarray:
    """Per candidate word: its attention from every layer x head (each column divided by the claim's largest),
    its part-of-speech class, whether YAKE returns it, its relative position, whether it is a verb, a comparative
    or superlative, or capitalised. Rows follow ``words``."""
    if not words:
        return np.zeros((0, 0))
    n_layers, n_heads = att.shape[:2]
    per = np.array([word_scores(att[i][h], offsets, words) for i in range(n_layers) for h in range(n_heads)]).T
    per = per / (per.max(axis=0, keepdims=True) + 1e-9)
    classes = list(POS_PRIOR)
    rows = []
    for j, w in enumerate(words):
        extra = [
            float(yake_found[j]),
            j / len(words),
            float(w.tag.startswith("VB")),
            float(w.tag in ("JJR", "JJS", "RBR", "RBS")),
            float(w.text[:1].isupper()),
        ]
        rows.append([*per[j], *(float(w.pos == c) for c in classes), *extra])
    return np.array(rows, dtype=np.float64)


def shipped_saliency_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("claimforge") / "models" / "saliency-covidfact"))


class LearnedSaliencyConfig(ComponentConfig):
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    # weights.json written by training/saliency/train.py; None: the shipped model (docs/models/saliency.md)
    path: str | None = None


@registry.register("saliency", "learned", LearnedSaliencyConfig)
class LearnedSaliency(_Base):
    """A logistic regression over the judge's attention, part of speech and YAKE (default; docs/models/saliency.md).

    Trained to predict the words COVID-Fact's counter-claims replaced."""

    def __init__(self, config: LearnedSaliencyConfig) -> None:
        import json

        super().__init__(config)
        path = Path(config.path) if config.path else shipped_saliency_dir() / "weights.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no saliency weights (train them with training/saliency/train.py)")
        spec = json.loads(path.read_text(encoding="utf-8"))
        self.coef = np.array(spec["coef"], dtype=np.float64)
        self.intercept = float(spec["intercept"])
        self.attention = AttentionSaliency(AttentionSaliencyConfig(nlp=config.nlp, model=spec["attention_model"]))
        self.yake = YAKESaliency(YAKEConfig(nlp=config.nlp))
        self.model_id = f"learned-saliency@{spec['version']}+{self.attention.model_id}"

    def _scores(self, claims: list[str], cands: list[list[SalientWord]]) -> list[list[float]]:
        found = self.yake._scores(claims, cands)
        out: list[list[float]] = []
        for (att, off), words, yk in zip(self.attention.attentions(claims), cands, found, strict=True):
            if not words:
                out.append([])
                continue
            x = features(att, off, words, [s > -1e8 for s in yk])
            if x.shape[1] != len(self.coef):
                raise ValueError(
                    f"saliency weights expect {len(self.coef)} features, the attention model gives {x.shape[1]}: "
                    "retrain them for this verifier (training/saliency/train.py)"
                )
            out.append(list(x @ self.coef + self.intercept))
        return out
