"""The NLP pipeline (tagger, morphology, parser, lemmatizer) behind one small class, with a parse cache.

Default: the project's own spaCy pipeline trained on UD English-EWT, UD English-Atis (questions) and CRAFT
(biomedical full text), shipped in the package (``en_claimforge_sci``, docs/models/parser.md); any spaCy pipeline
name or path (``en_core_web_sm``, ``en_core_sci_sm``) replaces it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from claimforge.cache import CachedComponentConfig, fingerprint
from claimforge.registry import registry

DEFAULT_PIPELINE = "en_claimforge_sci"
MODELS_DIR = Path(__file__).resolve().parent / "models"


def resolve_pipeline(name: str) -> str:
    """The shipped pipeline's name maps to its directory in the package; other names pass through."""
    shipped = MODELS_DIR / name
    if not Path(name).exists() and shipped.is_dir():
        return str(shipped)
    return name


def pipeline_id(name: str) -> str:
    """``name@version`` for a pipeline directory with a meta.json (the shipped ones: read without loading the
    model, so replaced weights never reuse parses or stage outputs cached under the old ones); else the name."""
    meta = Path(resolve_pipeline(name)) / "meta.json"
    if meta.is_file():
        try:
            version = json.loads(meta.read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError):
            version = None
        if version:
            return f"{name}@{version}"
    return name


@functools.lru_cache(maxsize=4)
def _load_spacy(name: str, disable: tuple[str, ...]) -> Any:
    import spacy

    path = resolve_pipeline(name)
    try:
        return spacy.load(path, exclude=list(disable))
    except OSError as e:
        raise RuntimeError(
            f"cannot load spaCy pipeline {name!r}: {e}. Give an installed pipeline name "
            f"(e.g. en_core_web_sm) or a directory; the default is {DEFAULT_PIPELINE!r}."
        ) from None


class SpacyConfig(CachedComponentConfig):
    pipeline: str = DEFAULT_PIPELINE
    disable: tuple[str, ...] = ()
    batch_size: int = 256


_TOKEN_FIELDS = ("words", "spaces", "tags", "pos", "morphs", "lemmas", "heads", "deps", "sent_starts")


class SpacyNLP:
    """Parses texts into spaCy ``Doc``s, batched, with parses cached on disk per (pipeline, text)."""

    def __init__(self, config: SpacyConfig) -> None:
        self.config = config
        self.model_id = pipeline_id(config.pipeline)
        self._cache = config.open_cache("parses")

    @property
    def nlp(self) -> Any:
        return _load_spacy(self.config.pipeline, tuple(self.config.disable))

    @functools.cached_property
    def version(self) -> str:
        meta = self.nlp.meta
        return f"{meta.get('lang', '?')}_{meta.get('name', '?')}-{meta.get('version', '?')}"

    def parse(self, texts: Sequence[str], progress: Callable[[int, int], None] | None = None) -> list[Any]:
        """Docs for ``texts`` in order; cached parses are rebuilt without running the model."""
        keys = [fingerprint("parse", self.config.pipeline, self.version, self.config.disable, t) for t in texts]
        unique = dict(zip(keys, texts, strict=True))
        cached = self._cache.get_many(list(unique))
        docs: dict[str, Any] = {k: self._from_bytes(v) for k, v in cached.items()}
        todo = [k for k in unique if k not in docs]
        done = len(docs)
        if progress is not None:
            progress(done, len(unique))
        chunk = self.config.batch_size * 8
        for i in range(0, len(todo), chunk):
            part = todo[i : i + chunk]
            new = dict(
                zip(part, self.nlp.pipe((unique[k] for k in part), batch_size=self.config.batch_size), strict=True)
            )
            docs.update(new)
            self._cache.put_many({k: self._to_bytes(d) for k, d in new.items()})
            done += len(part)
            if progress is not None:
                progress(done, len(unique))
        return [docs[k] for k in keys]

    @staticmethod
    def _to_bytes(doc: Any) -> bytes:
        has_sents = doc.has_annotation("SENT_START")
        data = {
            "words": [t.text for t in doc],
            "spaces": [bool(t.whitespace_) for t in doc],
            "tags": [t.tag_ for t in doc],
            "pos": [t.pos_ for t in doc],
            "morphs": [str(t.morph) for t in doc],
            "lemmas": [t.lemma_ for t in doc],
            "heads": [t.head.i for t in doc],
            "deps": [t.dep_ for t in doc],
            "sent_starts": [bool(t.is_sent_start) for t in doc] if has_sents else None,
        }
        return json.dumps(data, separators=(",", ":")).encode("utf-8")

    def _from_bytes(self, blob: bytes) -> Any:
        from spacy.tokens import Doc

        data = json.loads(blob)
        fields = {k: data[k] for k in _TOKEN_FIELDS if data.get(k) is not None}
        if any(fields.get("deps") or ()):
            # Doc() needs sent_starts consistent with heads; heads already define sentences.
            fields.pop("sent_starts", None)
        return Doc(self.nlp.vocab, **fields)


@registry.register("nlp", "spacy", SpacyConfig)
def build_spacy(config: SpacyConfig) -> SpacyNLP:
    """A spaCy pipeline (default: the shipped en_claimforge_sci; or any name/path)."""
    return SpacyNLP(config)
