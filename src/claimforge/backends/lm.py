"""Fluency scoring by language models behind the ``LanguageModel`` interface: total log-probability and
perplexity of texts, batched and cached on disk.

``ngram`` is the embedded default: the project's own word-level 4-gram model with interpolated modified
Kneser-Ney smoothing, trained on scientific prose and shipped in the package (docs/models/lm.md; training in
``training/lm/``). It needs neither torch nor a GPU and scores thousands of sentences per second.
``hf-causal`` loads any Hugging Face causal LM (GPT-2, Llama, ...) by name or local path, safetensors only,
and computes token-level perplexity with a sliding window over long texts.

KBIN (Wright et al. 2022) ranks candidate negations by perplexity and keeps the most fluent per replacement;
lower perplexity is more fluent.
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
import struct
import unicodedata
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from pydantic import Field, model_validator

from claimforge.cache import CachedComponentConfig, DiskCache, files_digest, fingerprint
from claimforge.nlp.sentences import SPLITTER_VERSION, split_sentences
from claimforge.nlp.words import EMBEDDED_LM
from claimforge.registry import registry

FORMAT = "claimforge-ngram-lm"
FORMAT_VERSION = 1

Progress = Callable[[int, int], Any] | None


class LanguageModel(Protocol):
    model_id: str

    def log_prob(self, texts: Sequence[str], progress: Progress = None) -> list[tuple[float, int]]:
        """For each text, (total natural-log probability, number of scored tokens), in order."""
        ...

    def perplexity(self, texts: Sequence[str], progress: Progress = None) -> np.ndarray:
        """For each text, exp(-log_prob / tokens) (NaN for a text with no scored token); lower is more fluent."""
        ...


def perplexity_of(scores: Sequence[tuple[float, int]]) -> np.ndarray:
    """exp of the mean negative log-probability per token; NaN where no token was scored."""
    lp = np.array([s[0] for s in scores], dtype=np.float64)
    n = np.array([s[1] for s in scores], dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(n > 0, np.exp(-lp / np.maximum(n, 1)), np.nan)


_SCORE = struct.Struct("<dq")


class _CachedScorer:
    """Deduplicates texts, looks them up in the disk cache and scores the rest with ``_score_batch``."""

    model_id: str
    _cache: DiskCache
    _chunk: int = 4096

    def _key(self, text: str) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def _score_batch(self, texts: list[str]) -> list[tuple[float, int]]:  # pragma: no cover - overridden
        raise NotImplementedError

    def log_prob(self, texts: Sequence[str], progress: Progress = None) -> list[tuple[float, int]]:
        keys = [self._key(t) for t in texts]
        text_of = dict(zip(keys, texts, strict=True))
        found = {k: _SCORE.unpack(v) for k, v in self._cache.get_many(list(text_of)).items()}
        done: dict[str, tuple[float, int]] = {k: (float(v[0]), int(v[1])) for k, v in found.items()}
        todo = sorted((k for k in text_of if k not in done), key=lambda k: len(text_of[k]))
        if progress is not None:
            progress(len(done), len(text_of))
        for i in range(0, len(todo), self._chunk):
            part = todo[i : i + self._chunk]
            new = dict(zip(part, self._score_batch([text_of[k] for k in part]), strict=True))
            done.update(new)
            self._cache.put_many({k: _SCORE.pack(lp, n) for k, (lp, n) in new.items()})
            if progress is not None:
                progress(len(done), len(text_of))
        return [done[k] for k in keys]

    def perplexity(self, texts: Sequence[str], progress: Progress = None) -> np.ndarray:
        return perplexity_of(self.log_prob(texts, progress=progress))


# ---------------------------------------------------------------------------------------------------------
# Text normalisation shared by training and scoring of the n-gram model
# ---------------------------------------------------------------------------------------------------------

UNK, BOS, EOS, NUM = "<unk>", "<s>", "</s>", "<num>"
SPECIALS = (UNK, BOS, EOS)
UNK_ID, BOS_ID, EOS_ID = 0, 1, 2

# A number (1, 1.8, 10,000), a run of letters/digits, or one other non-space character.
_TOKEN_RE = re.compile(r"(\d+(?:[.,]\d+)*(?![^\W_]))|([^\W_]+)|([^\w\s]|_)")
_DIGITS_RE = re.compile(r"\d+")


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens: NFKC, numbers become ``<num>``, digit runs inside words become ``0`` ("p53" ->
    "p0", "IL-6" -> "il - <num>"), punctuation and hyphens are tokens of their own."""
    out = []
    for number, word, other in _TOKEN_RE.findall(unicodedata.normalize("NFKC", text).lower()):
        if number:
            out.append(NUM)
        elif word:
            out.append(word if word.isalpha() else _DIGITS_RE.sub("0", word))
        else:
            out.append(other)
    return out


def text_to_sentences(text: str, split: bool = True) -> list[list[str]]:
    """Token lists, one per sentence (or one for the whole text when ``split`` is false)."""
    pieces = split_sentences(text) if split else [text]
    sents = [tokenize(p) for p in pieces]
    return [s for s in sents if s] or [[]]


# ---------------------------------------------------------------------------------------------------------
# The n-gram model: interpolated modified Kneser-Ney, stored in backoff form
# ---------------------------------------------------------------------------------------------------------

KEY_BITS = 16  # bits per word id in a packed n-gram key: vocabulary <= 65,536 words, order <= 4
MAX_VOCAB = 1 << KEY_BITS
MAX_ORDER = 64 // KEY_BITS
_LN10 = math.log(10.0)


def pack(ids: Sequence[int]) -> int:
    """The key of an n-gram: its word ids, 16 bits each, the last word in the lowest bits."""
    key = 0
    for i in ids:
        key = (key << KEY_BITS) | int(i)
    return key


@dataclass
class NGramLM:
    """A word n-gram model in backoff form (as in ARPA files): for a seen n-gram ``h w`` its interpolated
    probability is stored; otherwise ``log p(w|h) = backoff(h) + log p(w|h')`` with ``h'`` the history minus its
    first word. ``tables[k - 1]`` holds order k: sorted packed keys, log-probs and backoffs (natural log)."""

    vocab: list[str]
    order: int
    unigram_logp: np.ndarray  # (V,) log p(w); -inf for <s>
    unigram_backoff: np.ndarray  # (V,) log backoff of the one-word history w
    keys: list[np.ndarray]  # for orders 2..N: sorted uint64 packed keys
    logp: list[np.ndarray]  # for orders 2..N
    backoff: list[np.ndarray]  # for orders 2..N-1 (log backoff of the n-gram as a history)
    meta: dict[str, Any] = field(default_factory=dict)
    # (V,) log p(w) of a unigram model of raw word frequencies (modified KN discounts, uniform floor): the
    # reference of SLOR. Kneser-Ney's own unigram level counts contexts, not occurrences, so it cannot serve.
    frequency_logp: np.ndarray | None = None

    def __post_init__(self) -> None:
        self.word_id = {w: i for i, w in enumerate(self.vocab)}
        # log of the number of word types behind <unk> (an unknown word is one of them, uniformly).
        self.log_unk_types = math.log(max(1, int(self.meta.get("unk_types", 1))))

    # -- scoring ------------------------------------------------------------------------------------------
    def ids(self, tokens: Sequence[str]) -> list[int]:
        get = self.word_id.get
        return [get(t, UNK_ID) for t in tokens]

    def _lookup(self, k: int, query: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(found, value) for packed order-k keys."""
        keys = self.keys[k - 2]
        if len(keys) == 0:
            return np.zeros(len(query), dtype=bool), np.zeros(len(query), dtype=np.float64)
        # Sorted queries make the binary searches cache-friendly (several times faster on large tables).
        by_key = np.argsort(query, kind="stable")
        idx = np.empty(len(query), dtype=np.int64)
        idx[by_key] = np.searchsorted(keys, query[by_key])
        idx[idx == len(keys)] = 0
        found = keys[idx] == query
        return found, np.where(found, values[idx], 0.0).astype(np.float64)

    def score_ids(self, words: np.ndarray, history: np.ndarray, hist_len: np.ndarray) -> np.ndarray:
        """Natural-log p(word | history) for M predictions at once: ``history[:, j]`` is the word j+1 positions
        back (any value where ``j >= hist_len``), ``hist_len`` how many history words exist (<= order - 1)."""
        words = np.asarray(words, dtype=np.uint64)
        n = len(words)
        if n == 0:
            return np.zeros(0, dtype=np.float64)
        hist = np.asarray(history, dtype=np.uint64).reshape(n, -1)
        hist_len = np.asarray(hist_len)
        result = np.zeros(n, dtype=np.float64)
        done = np.zeros(n, dtype=bool)
        acc = np.zeros(n, dtype=np.float64)  # sum of backoffs of the histories longer than the match
        # Packed n-gram keys ending at each word, and the packed histories, for every order.
        ngram = [words]
        ctx = [np.zeros(n, dtype=np.uint64)]
        for j in range(self.order - 1):
            h = hist[:, j] if j < hist.shape[1] else np.zeros(n, dtype=np.uint64)
            ngram.append(ngram[-1] | (h << np.uint64(KEY_BITS * (j + 1))))
            ctx.append(h if j == 0 else ctx[-1] | (h << np.uint64(KEY_BITS * j)))
        for k in range(self.order, 1, -1):
            valid = hist_len >= k - 1
            found, lp = self._lookup(k, ngram[k - 1], self.logp[k - 2])
            hit = valid & found & ~done
            result[hit] = lp[hit] + acc[hit]
            done |= hit
            # the history of order k is an n-gram of order k-1
            if k - 1 == 1:
                bo = self.unigram_backoff[ctx[1].astype(np.int64)].astype(np.float64)
            else:
                _, bo = self._lookup(k - 1, ctx[k - 1], self.backoff[k - 3])
            add = valid & ~done
            acc[add] += bo[add]
        rest = ~done
        result[rest] = self.unigram_logp[words[rest].astype(np.int64)].astype(np.float64) + acc[rest]
        return result

    def score_sentences(self, sentences: Sequence[Sequence[str]], unk_penalty: bool = True) -> np.ndarray:
        """Natural-log probability of each token list as one sentence, ``<s> ... </s>`` (``</s>`` scored)."""
        n_order = self.order
        lengths = np.array([len(s) + 2 for s in sentences], dtype=np.int64)
        seq = np.empty(int(lengths.sum()), dtype=np.int64)
        pos = 0
        get = self.word_id.get
        for s in sentences:
            seq[pos] = BOS_ID
            seq[pos + 1 : pos + 1 + len(s)] = [get(t, UNK_ID) for t in s]
            seq[pos + 1 + len(s)] = EOS_ID
            pos += len(s) + 2
        starts = np.cumsum(lengths) - lengths
        position = np.arange(len(seq)) - np.repeat(starts, lengths)
        target = position > 0
        idx = np.nonzero(target)[0]
        hist = np.zeros((len(idx), max(1, n_order - 1)), dtype=np.int64)
        for j in range(n_order - 1):
            hist[:, j] = seq[np.maximum(idx - j - 1, 0)]
        hist_len = np.minimum(position[idx], n_order - 1)
        lp = self.score_ids(seq[idx], hist, hist_len)
        if unk_penalty:
            lp[seq[idx] == UNK_ID] -= self.log_unk_types
        sent_of = np.repeat(np.arange(len(sentences)), lengths)[idx]
        return np.bincount(sent_of, weights=lp, minlength=len(sentences))

    def frequency_scores(self, sentences: Sequence[Sequence[str]], unk_penalty: bool = True) -> np.ndarray:
        """Natural-log probability of each token list under the word-frequency unigram model (``</s>`` scored)."""
        if self.frequency_logp is None:
            raise ValueError("this model has no word-frequency unigram table (retrain it with training/lm/train.py)")
        get = self.word_id.get
        ids = np.fromiter((get(t, UNK_ID) for s in sentences for t in s), dtype=np.int64)
        lengths = np.array([len(s) for s in sentences], dtype=np.int64)
        lp = self.frequency_logp[ids].astype(np.float64)
        if unk_penalty:
            lp[ids == UNK_ID] -= self.log_unk_types
        owner = np.repeat(np.arange(len(sentences)), lengths)
        return np.bincount(owner, weights=lp, minlength=len(sentences)) + float(self.frequency_logp[EOS_ID])

    def next_word_logprobs(self, context: Sequence[str]) -> np.ndarray:
        """log p(w | <s> context) for every vocabulary id w (-inf for <s>, which is never predicted); the
        probabilities over the vocabulary, ``<unk>`` and ``</s>`` included, sum to 1."""
        hist_ids = [BOS_ID, *self.ids(context)][::-1][: self.order - 1]
        n_vocab = len(self.vocab)
        hist = np.tile(np.array(hist_ids + [0] * (self.order - 1 - len(hist_ids)), dtype=np.int64), (n_vocab, 1))
        out = self.score_ids(np.arange(n_vocab), hist, np.full(n_vocab, len(hist_ids)))
        out[BOS_ID] = -np.inf
        return out

    # -- storage ------------------------------------------------------------------------------------------
    def arrays(self) -> dict[str, np.ndarray]:
        out = {"unigram_logp": self.unigram_logp, "unigram_backoff": self.unigram_backoff}
        if self.frequency_logp is not None:
            out["frequency_logp"] = self.frequency_logp
        for k in range(2, self.order + 1):
            out[f"keys{k}"] = self.keys[k - 2]
            out[f"logp{k}"] = self.logp[k - 2]
            if k < self.order:
                out[f"backoff{k}"] = self.backoff[k - 2]
        return out

    def save(self, directory: Path | str, compress: bool = True) -> None:
        """``header.json`` (vocabulary, order, training metadata) + ``arrays.npz`` (plain numeric arrays; the
        sorted n-gram keys as byte planes of their successive differences)."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        header = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "order": self.order,
            "key_bits": KEY_BITS,
            "log_base": "e",
            "meta": self.meta,
            "vocab": self.vocab,
        }
        (directory / "header.json").write_text(json.dumps(header, ensure_ascii=False, indent=0) + "\n", "utf-8")
        arrays: dict[str, Any] = {
            k: (_shuffle_deltas(v) if k.startswith("keys") else v) for k, v in self.arrays().items()
        }
        if compress:
            np.savez_compressed(directory / "arrays.npz", **arrays)
        else:
            np.savez(directory / "arrays.npz", **arrays)

    @classmethod
    def load(cls, directory: Path | str) -> NGramLM:
        directory = Path(directory)
        header = json.loads((directory / "header.json").read_text("utf-8"))
        if header.get("format") != FORMAT or header.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"{directory} is not a {FORMAT} v{FORMAT_VERSION} model")
        if header.get("key_bits") != KEY_BITS:
            raise ValueError(f"{directory}: unsupported key width {header.get('key_bits')}")
        order = int(header["order"])
        with np.load(directory / "arrays.npz", allow_pickle=False) as z:
            arr = {k: (_unshuffle_deltas(z[k]) if k.startswith("keys") else z[k]) for k in z.files}
        return cls(
            vocab=list(header["vocab"]),
            order=order,
            unigram_logp=arr["unigram_logp"],
            unigram_backoff=arr["unigram_backoff"],
            frequency_logp=arr.get("frequency_logp"),
            keys=[arr[f"keys{k}"] for k in range(2, order + 1)],
            logp=[arr[f"logp{k}"] for k in range(2, order + 1)],
            backoff=[arr[f"backoff{k}"] for k in range(2, order)],
            meta=dict(header.get("meta", {})),
        )

    def astype(self, dtype: Any) -> NGramLM:
        """The same model with its log-probs and backoffs stored as ``dtype`` (e.g. float16 for shipping)."""
        return NGramLM(
            vocab=self.vocab,
            order=self.order,
            unigram_logp=self.unigram_logp.astype(np.float32),
            unigram_backoff=self.unigram_backoff.astype(np.float32),
            frequency_logp=self.frequency_logp,
            keys=self.keys,
            logp=[a.astype(dtype) for a in self.logp],
            backoff=[a.astype(dtype) for a in self.backoff],
            meta=dict(self.meta),
        )

    @property
    def num_ngrams(self) -> list[int]:
        return [len(self.vocab)] + [len(k) for k in self.keys]


def _shuffle_deltas(keys: np.ndarray) -> np.ndarray:
    """Sorted uint64 keys stored as the byte planes (8, n) of their differences: compresses about 30% better."""
    deltas = np.diff(keys.astype(np.uint64), prepend=np.uint64(0))
    return np.ascontiguousarray(deltas.astype("<u8").view(np.uint8).reshape(-1, 8).T)


def _unshuffle_deltas(planes: np.ndarray) -> np.ndarray:
    if planes.ndim == 1:  # plain sorted keys (written before keys were delta-coded)
        return planes.astype(np.uint64, copy=False)
    deltas = np.ascontiguousarray(planes.T).view("<u8").reshape(-1)
    return np.cumsum(deltas, dtype=np.uint64)


# ---------------------------------------------------------------------------------------------------------
# Components
# ---------------------------------------------------------------------------------------------------------


def shuffled_orders(text: str, k: int) -> list[str]:
    """``k`` random orders of the words of ``text`` (final punctuation kept last), seeded by the text itself so
    a claim always gets the same shuffles."""
    words = text.strip().split()
    end = ""
    if words and words[-1][-1:] in ".!?":
        end = words[-1][-1]
        words[-1] = words[-1][:-1] or words[-1]
    rng = random.Random(zlib.crc32(text.encode("utf-8")))
    out = []
    for _ in range(k):
        w = words[:]
        rng.shuffle(w)
        out.append(" ".join(w) + end)
    return out


def lm_fluency_stats(lm: Any, texts: Sequence[str], shuffles: int) -> tuple[np.ndarray, np.ndarray]:
    """Perplexity of each text and its ratio to the geometric mean perplexity of ``shuffles`` random orders of
    the same words — one LM call for texts and shuffles together. The ratio is about 1 for word salad and well
    below 1 for a well-formed sentence, whatever the rarity of its terms."""
    variants = [v for t in texts for v in shuffled_orders(t, shuffles)]
    ppl = np.asarray(lm.perplexity(list(texts) + variants), dtype=float)
    own, shuf = ppl[: len(texts)], ppl[len(texts) :].reshape(len(texts), shuffles)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.exp(np.log(own) - np.log(shuf).mean(axis=1))
    return own, ratio


# A word follows "which" more readily than "the" as a verb ("which drains" +3.3 nats over "the drains", "which
# lies" +4.0, "which fuse" +2.4) and the other way round as a plural noun ("levels" -1.4, "effects" -2.7, "cells"
# -0.7) with the shipped n-gram LM; ambiguous words sit between ("increases" +1.5, "concerns" +1.0, "code" -1.3).
VERB_READING_MARGIN = 1.25


@functools.lru_cache(maxsize=4096)
def _verb_reading(next_word: Callable[[str, str], float], word: str) -> bool:
    """Whether the LM reads ``word`` as a verb rather than a plural noun: log p(word | "which") exceeds log p(word |
    "the") by more than :data:`VERB_READING_MARGIN` nats."""
    w = word.lower()
    return next_word("which", w) - next_word("the", w) > VERB_READING_MARGIN


def verb_reader(lm: Any) -> Callable[[str], bool] | None:
    """``word -> bool``: whether ``lm`` reads a word as a verb rather than a plural noun (:func:`_verb_reading`), for
    the claim check's verb fallback (``nlp.wellformed.fluency_checks``); None for a model that cannot score one
    next word (``next_word_logprob``: the n-gram LM)."""
    next_word = getattr(lm, "next_word_logprob", None)
    return None if next_word is None else functools.partial(_verb_reading, next_word)


def embedded_model_dir() -> Path:
    path = Path(str(resources.files("claimforge") / "models" / EMBEDDED_LM))
    if not (path / "header.json").is_file():
        raise FileNotFoundError(f"the embedded n-gram LM is missing from the installation ({path})")
    return path


@functools.lru_cache(maxsize=4)
def _load_ngram(path: str) -> tuple[NGramLM, str]:
    directory = Path(path)
    return NGramLM.load(directory), files_digest([directory / "header.json", directory / "arrays.npz"])[:16]


class NGramLMConfig(CachedComponentConfig):
    path: str | None = None  # a model directory written by training/lm/train.py; default: the shipped lm-ngram
    split_sentences: bool = True  # score each sentence of a text as <s> ... </s> and add them up
    unk_penalty: bool = True  # an unknown word also pays log(number of word types behind <unk>)


class NGramLanguageModel(_CachedScorer):
    """A word n-gram model (interpolated modified Kneser-Ney) in plain numpy arrays; ``</s>`` is a scored
    token, so a sentence of n words has n + 1 scored tokens."""

    def __init__(self, config: NGramLMConfig) -> None:
        self.config = config
        directory = Path(config.path).expanduser().resolve() if config.path else embedded_model_dir()
        self.model, digest = _load_ngram(str(directory))
        name = EMBEDDED_LM if config.path is None else str(directory)
        self.model_id = f"ngram:{name}@{digest}"
        self._cache = config.open_cache("lm")

    def __repr__(self) -> str:
        return f"NGramLanguageModel({self.model_id!r}, order={self.model.order})"

    def _key(self, text: str) -> str:
        c = self.config
        split = SPLITTER_VERSION if c.split_sentences else False
        return fingerprint("lm", self.model_id, split, c.unk_penalty, text)

    def _sentences(self, texts: Sequence[str]) -> tuple[list[list[str]], list[int]]:
        """Token lists of all sentences, and the index of the text each comes from."""
        sents: list[list[str]] = []
        owner: list[int] = []
        for i, text in enumerate(texts):
            for s in text_to_sentences(text, self.config.split_sentences):
                sents.append(s)
                owner.append(i)
        return sents, owner

    def _score_batch(self, texts: list[str]) -> list[tuple[float, int]]:
        sents, owner = self._sentences(texts)
        lp = self.model.score_sentences(sents, unk_penalty=self.config.unk_penalty)
        totals = np.bincount(owner, weights=lp, minlength=len(texts))
        ntok = np.bincount(owner, weights=[len(s) + 1 for s in sents], minlength=len(texts))
        return [(float(a), int(b)) for a, b in zip(totals, ntok, strict=True)]

    def next_word_logprob(self, context: str, word: str) -> float:
        """Natural-log p(word | the last words of ``context``, one sentence that starts the text): how well a word
        follows ("related to" -0.1, "dissociated to" -5.8 nats with the shipped model)."""
        m = self.model
        tokens = tokenize(word)
        if len(tokens) != 1:
            raise ValueError(f"next_word_logprob scores one word, not {word!r}")
        hist = [BOS_ID, *m.ids(tokenize(context))][::-1][: m.order - 1]
        history = np.array([hist + [0] * (m.order - 1 - len(hist))], dtype=np.int64)
        words = np.array(m.ids(tokens), dtype=np.int64)
        return float(m.score_ids(words, history, np.array([len(hist)]))[0])

    def rarest_word(self, text: str) -> tuple[str, float]:
        """The least frequent alphabetic word of ``text`` and its relative frequency in the LM's training
        text (0.0 for a word the model does not know): the n-gram LM as a frequency list, for "is this a
        real, common word"."""
        if self.model.frequency_logp is None:
            raise ValueError(
                f"{self.model_id} has no word-frequency table (retrain it with training/lm/train.py), so it cannot "
                "tell rare words: set negator.min_word_frequency=0"
            )
        best = ("", 1.0)
        for w in tokenize(text):
            if not w.isalpha():
                continue
            f = self.word_frequency(w) or 0.0
            if f < best[1]:
                best = (w, f)
        return best

    def unknown_words(self, text: str) -> tuple[int, int]:
        """(alphabetic words the model does not know, alphabetic words) in ``text``: with ``unk_penalty: false`` an
        unknown word costs only p(<unk> | history), so a run of rare terms reads as fluent to the perplexity; the
        claim check bounds their share instead."""
        words = [w for w in tokenize(text) if w.isalpha()]
        return sum(1 for w in words if self.model.word_id.get(w, UNK_ID) == UNK_ID), len(words)

    def word_frequency(self, word: str) -> float | None:
        """The relative frequency of one lower-cased word in the LM's training text (0.0 for a word the model does
        not know; None when the model has no frequency table)."""
        m = self.model
        if m.frequency_logp is None:
            return None
        i = m.word_id.get(word, UNK_ID)
        return 0.0 if i == UNK_ID else math.exp(float(m.frequency_logp[i]))

    def slor(self, texts: Sequence[str]) -> np.ndarray:
        """SLOR (Kann et al. 2018): (log p(text) - log p_unigram(text)) / tokens, higher is more fluent. Unlike
        perplexity it does not punish rare words for being rare, so it suits comparing candidates that differ in
        the words substituted (docs/models/lm.md: the pairwise test). Computed fresh, not cached."""
        sents, owner = self._sentences(texts)
        c = self.config
        lp = self.model.score_sentences(sents, unk_penalty=c.unk_penalty)
        lp1 = self.model.frequency_scores(sents, unk_penalty=c.unk_penalty)
        n = np.bincount(owner, weights=[len(s) + 1 for s in sents], minlength=len(texts))
        diff = np.bincount(owner, weights=lp - lp1, minlength=len(texts))
        return diff / np.maximum(n, 1)


@registry.register("lm", "ngram", NGramLMConfig)
def build_ngram_lm(config: NGramLMConfig) -> NGramLanguageModel:
    """The embedded word 4-gram model (modified Kneser-Ney, scientific prose; docs/models/lm.md) or another."""
    return NGramLanguageModel(config)


# -- Hugging Face causal LMs ---------------------------------------------------------------------------------


class HFCausalLMConfig(CachedComponentConfig):
    model: str  # HF name or local directory of a causal LM (safetensors weights)
    device: str = "cpu"
    batch_size: int = Field(default=16, ge=1)
    max_batch_tokens: int = Field(default=8192, ge=1)  # padded tokens per forward pass (bounds logits memory)
    max_length: int | None = Field(default=None, ge=2)  # window; default: the model's context size
    stride: int | None = Field(default=None, ge=1)  # new tokens per window after the first; default max_length/2
    add_bos: bool = True  # prepend BOS (or EOS when there is no BOS) so the first word is scored

    @model_validator(mode="after")
    def _stride_fits(self) -> HFCausalLMConfig:
        if self.stride is not None and self.max_length is not None and self.stride >= self.max_length:
            raise ValueError("stride must be smaller than max_length")
        return self


@functools.lru_cache(maxsize=2)
def _load_causal(path: str, device: str) -> tuple[Any, Any]:
    """Tokenizer and model, loaded once per process per (path, device); safetensors only."""
    from claimforge.backends.seq2seq import load_hf_model

    return load_hf_model(path, device, "AutoModelForCausalLM", "causal LM")


@dataclass
class _Window:
    text: int  # index of the text
    ids: list[int]  # input ids of the window
    first: int  # first window position that is a scored target


def sliding_windows(n_tokens: int, max_length: int, stride: int) -> list[tuple[int, int, int]]:
    """(begin, end, first_target) windows over a sequence of ``n_tokens`` ids: each position >= 1 is a target
    exactly once, in the first window that reaches it, with up to ``max_length - stride`` positions of context
    carried over from the previous window (the Hugging Face perplexity recipe)."""
    out: list[tuple[int, int, int]] = []
    prev_end = 1  # position 0 has no left context
    begin = 0
    while prev_end < n_tokens:
        end = min(begin + max_length, n_tokens)
        if end > prev_end:
            out.append((begin, end, prev_end))
            prev_end = end
        begin += stride
    return out


class HFCausalLM(_CachedScorer):
    """Token log-probabilities from an ``AutoModelForCausalLM``: BOS prepended, labels shifted by one, padding
    masked out, texts longer than the context scored with a sliding window."""

    _chunk = 512

    def __init__(self, config: HFCausalLMConfig) -> None:
        from claimforge.backends.seq2seq import _resolve

        self.config = config
        self._path = _resolve(config.model)
        path = Path(self._path)
        files = sorted(path.rglob("*.safetensors")) if path.is_dir() else []
        self._digest = files_digest(files)[:16] if files else ""
        self.model_id = f"hf-causal:{config.model}@{self._digest}" if self._digest else f"hf-causal:{config.model}"
        self._cache = config.open_cache("lm")

    def __repr__(self) -> str:
        return f"HFCausalLM(model={self.config.model!r}, device={self.config.device!r})"

    @property
    def components(self) -> tuple[Any, Any]:
        """``(tokenizer, model)``, loaded on first use."""
        return _load_causal(self._path, self.config.device)

    def window(self) -> tuple[int, int]:
        """(max_length, stride) in tokens."""
        _, model = self.components
        c = self.config
        size = c.max_length
        if size is None:
            for name in ("n_positions", "max_position_embeddings", "n_ctx", "seq_length"):
                value = getattr(model.config, name, None)
                if isinstance(value, int) and value > 1:
                    size = value
                    break
        size = size or 1024
        stride = c.stride or max(1, size // 2)
        return size, min(stride, size - 1)

    def bos_id(self) -> int | None:
        tokenizer, _ = self.components
        if not self.config.add_bos:
            return None
        for tid in (tokenizer.bos_token_id, tokenizer.eos_token_id):
            if tid is not None:
                return int(tid)
        return None

    def _key(self, text: str) -> str:
        c = self.config
        return fingerprint("lm", self.model_id, c.max_length, c.stride, c.add_bos, text)

    def encode(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids of each text as scored: BOS (when used) + the text's tokens without special tokens."""
        tokenizer, _ = self.components
        bos = self.bos_id()
        ids = tokenizer(list(texts), add_special_tokens=False, verbose=False)["input_ids"] if texts else []
        return [([bos] if bos is not None else []) + list(x) for x in ids]

    def _score_batch(self, texts: list[str]) -> list[tuple[float, int]]:
        import torch

        _, model = self.components
        size, stride = self.window()
        windows: list[_Window] = []
        counts = [0] * len(texts)
        for i, ids in enumerate(self.encode(texts)):
            for begin, end, first in sliding_windows(len(ids), size, stride):
                windows.append(_Window(i, ids[begin:end], first - begin))
                counts[i] += end - first
        totals = [0.0] * len(texts)
        order = sorted(range(len(windows)), key=lambda j: len(windows[j].ids))
        c = self.config
        batch: list[_Window] = []
        batches: list[list[_Window]] = []
        for j in order:
            w = windows[j]
            if batch and (len(batch) >= c.batch_size or (len(batch) + 1) * len(w.ids) > c.max_batch_tokens):
                batches.append(batch)
                batch = []
            batch.append(w)
        if batch:
            batches.append(batch)
        for part in batches:
            width = max(len(w.ids) for w in part)
            input_ids = torch.zeros((len(part), width), dtype=torch.long)
            attention = torch.zeros((len(part), width), dtype=torch.long)
            target = torch.zeros((len(part), width), dtype=torch.bool)  # positions whose token is scored
            for r, w in enumerate(part):
                input_ids[r, : len(w.ids)] = torch.tensor(w.ids, dtype=torch.long)
                attention[r, : len(w.ids)] = 1
                target[r, w.first : len(w.ids)] = True
            with torch.inference_mode():
                logits = model(
                    input_ids=input_ids.to(model.device), attention_mask=attention.to(model.device)
                ).logits.float()
                logprobs = torch.log_softmax(logits[:, :-1], dim=-1)
                token_lp = logprobs.gather(-1, input_ids[:, 1:, None].to(logprobs.device))[..., 0]
                token_lp = torch.where(target[:, 1:].to(token_lp.device), token_lp, torch.zeros_like(token_lp))
            sums = token_lp.double().sum(dim=1).cpu().tolist()
            for w, s in zip(part, sums, strict=True):
                totals[w.text] += s
        return [(t, n) for t, n in zip(totals, counts, strict=True)]


@registry.register("lm", "hf-causal", HFCausalLMConfig)
def build_hf_causal_lm(config: HFCausalLMConfig) -> HFCausalLM:
    """Any Hugging Face causal LM (GPT-2, ...) by name or local path, safetensors only; sliding-window perplexity."""
    return HFCausalLM(config)
