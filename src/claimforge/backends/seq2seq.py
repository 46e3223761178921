"""Text-to-text generation with a Hugging Face encoder-decoder (BART, T5): batched, deterministic, cached.
The ``hf-seq2seq`` QA2D converter built on it is in :mod:`claimforge.generate.qa2d.seq2seq`.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import Field

from claimforge.cache import CachedComponentConfig, fingerprint, weights_stamp
from claimforge.registry import registry

_PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl")


class ModelLoadError(RuntimeError):
    """The model could not be loaded (missing, or only available as pickled weights)."""


def _check_safetensors(directory: Path) -> None:
    if any(directory.glob("*.safetensors")):
        return
    pickled = sorted(p.name for p in directory.iterdir() if p.name.endswith(_PICKLE_SUFFIXES))
    found = f"found only {', '.join(pickled)}" if pickled else "found no weight files"
    raise ModelLoadError(
        f"{directory} has no safetensors weights ({found}). claimforge loads models only from "
        "*.safetensors files and never unpickles .bin/.pt checkpoints; convert the model to safetensors "
        "(re-save it with save_pretrained in an environment you trust) or use a model that ships them."
    )


def load_hf_model(path: str, device: str, auto_class: str, what: str) -> tuple[Any, Any]:
    """Tokenizer and ``transformers.<auto_class>`` model from a local directory or a cached hub name, in eval
    mode on ``device``; safetensors only (pickled .bin weights are refused). ``what`` names the model in errors."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import transformers

    local = Path(path)
    if local.is_dir():
        _check_safetensors(local)
    elif local.exists():
        raise ModelLoadError(f"{what} path {path!r} is a file; give the model directory")
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(path)
        model = getattr(transformers, auto_class).from_pretrained(path, use_safetensors=True)
    except OSError as e:
        raise ModelLoadError(
            f"could not load {what} {path!r} (a local directory or a cached Hugging Face model "
            f"with safetensors weights is needed; pickled .bin weights are refused): {e}"
        ) from e
    model.to(device)
    model.eval()
    return tokenizer, model


@functools.lru_cache(maxsize=2)
def _load_seq2seq(path: str, device: str) -> tuple[Any, Any]:
    """Tokenizer and model, loaded once per process per (path, device)."""
    return load_hf_model(path, device, "AutoModelForSeq2SeqLM", "seq2seq model")


def _resolve(model: str) -> str:
    """An existing local path becomes absolute (one process-wide load per directory); names pass."""
    path = Path(model).expanduser()
    return str(path.resolve()) if path.exists() else model


class HFSeq2SeqConfig(CachedComponentConfig):
    model: str
    device: str = "cpu"
    batch_size: int = Field(default=16, ge=1)
    max_input_tokens: int = Field(default=256, ge=1)
    max_new_tokens: int = Field(default=64, ge=1)
    num_beams: int = Field(default=4, ge=1)


class HFSeq2Seq:
    """Deterministic (greedy or beam search) generation from an ``AutoModelForSeq2SeqLM``.

    Texts are deduplicated, looked up in the on-disk cache, and the rest generated in batches of
    similar length (less padding); the output has one string per input, in order.
    """

    def __init__(self, config: HFSeq2SeqConfig) -> None:
        self.config = config
        self.model_id = config.model
        self._path = _resolve(config.model)
        self._tag = weights_stamp(self._path)
        self._cache = config.open_cache("seq2seq")

    def __repr__(self) -> str:
        c = self.config
        return f"HFSeq2Seq(model={c.model!r}, device={c.device!r}, num_beams={c.num_beams})"

    @property
    def components(self) -> tuple[Any, Any]:
        """``(tokenizer, model)``, loaded on first use."""
        return _load_seq2seq(self._path, self.config.device)

    def _key(self, text: str) -> str:
        c = self.config
        params = (c.max_input_tokens, c.max_new_tokens, c.num_beams)
        return fingerprint("seq2seq", self.model_id, self._tag, params, text)

    def _generate_batch(self, batch: list[str]) -> list[str]:
        import torch

        tokenizer, model = self.components
        c = self.config
        enc = tokenizer(batch, padding=True, truncation=True, max_length=c.max_input_tokens, return_tensors="pt")
        with torch.inference_mode():
            out = model.generate(
                input_ids=enc["input_ids"].to(model.device),
                attention_mask=enc["attention_mask"].to(model.device),
                max_new_tokens=c.max_new_tokens,
                num_beams=c.num_beams,
                do_sample=False,
            )
        return [t.strip() for t in tokenizer.batch_decode(out, skip_special_tokens=True)]

    def generate(self, texts: Sequence[str], progress: Callable[[int, int], Any] | None = None) -> list[str]:
        keys = [self._key(t) for t in texts]
        text_of = dict(zip(keys, texts, strict=True))
        outputs = {k: v.decode("utf-8") for k, v in self._cache.get_many(list(text_of)).items()}
        todo = sorted((k for k in text_of if k not in outputs), key=lambda k: len(text_of[k]))
        done = len(outputs)
        if progress is not None:
            progress(done, len(text_of))
        size = self.config.batch_size
        for i in range(0, len(todo), size):
            part = todo[i : i + size]
            new = dict(zip(part, self._generate_batch([text_of[k] for k in part]), strict=True))
            outputs.update(new)
            self._cache.put_many({k: v.encode("utf-8") for k, v in new.items()})
            done += len(part)
            if progress is not None:
                progress(done, len(text_of))
        return [outputs[k] for k in keys]

    def sample(
        self,
        texts: Sequence[str],
        counts: Sequence[int],
        top_k: int = 50,
        seed: int = 13,
        progress: Callable[[int, int], Any] | None = None,
    ) -> list[list[str]]:
        """``counts[i]`` top-k samples for ``texts[i]`` (CLAIMGEN-BART's k claims per citance). Each input
        is sampled with a generator seeded from ``seed`` and the text, so results do not depend on batching;
        cached like :meth:`generate`."""
        import torch

        tokenizer, model = self.components
        c = self.config
        out: list[list[str]] = []
        for n, (text, k) in enumerate(zip(texts, counts, strict=True)):
            key = fingerprint(
                "seq2seq-sample", self.model_id, self._tag, c.max_input_tokens, c.max_new_tokens, top_k, seed, k, text
            )
            hit = self._cache.get(key)
            if hit is not None:
                out.append(json.loads(hit))
            else:
                torch.manual_seed(int(fingerprint(seed, text)[:8], 16))
                enc = tokenizer([text], truncation=True, max_length=c.max_input_tokens, return_tensors="pt")
                with torch.inference_mode():
                    gen = model.generate(
                        **{k_: v.to(model.device) for k_, v in enc.items() if k_ in ("input_ids", "attention_mask")},
                        max_new_tokens=c.max_new_tokens,
                        do_sample=True,
                        top_k=top_k,
                        num_return_sequences=k,
                    )
                outs = [t.strip() for t in tokenizer.batch_decode(gen, skip_special_tokens=True)]
                self._cache.put(key, json.dumps(outs).encode("utf-8"))
                out.append(outs)
            if progress is not None:
                progress(n + 1, len(texts))
        return out


@registry.register("seq2seq", "hf", HFSeq2SeqConfig)
def build_hf_seq2seq(config: HFSeq2SeqConfig) -> HFSeq2Seq:
    """A local Hugging Face encoder-decoder (BART, T5, ...), safetensors only."""
    return HFSeq2Seq(config)
