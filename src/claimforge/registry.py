"""The one registry of components: each kind (reader, qa2d, embedder, ...) maps names to a factory
and the pydantic model that configures it. Recipes name components; ``build`` turns a spec into an object.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

T = TypeVar("T")

# Modules whose import registers the built-in components of each kind (imported on first lookup
# of that kind, so asking for a reader never imports torch).
_BUILTIN_MODULES: dict[str, tuple[str, ...]] = {
    "reader": ("claimforge.io.mcq", "claimforge.io.sentences", "claimforge.io.posts", "claimforge.io.papers.reader"),
    "nlp": ("claimforge.nlp.pipeline",),
    "ner": ("claimforge.nlp.entities",),
    "kb": (
        "claimforge.kb.wordnet",
        "claimforge.kb.go",
        "claimforge.kb.hpo",
        "claimforge.kb.umls",
        "claimforge.kb.mesh",
    ),
    "lm": ("claimforge.backends.lm",),
    "embedder": ("claimforge.backends.embeddings",),
    "seq2seq": ("claimforge.backends.seq2seq",),
    "llm": ("claimforge.backends.llm",),
    "fillmask": ("claimforge.backends.fillmask", "claimforge.generate.kb_fill"),
    "retriever": ("claimforge.backends.retrieval",),
    "qa": ("claimforge.backends.qa",),
    "questioner": ("claimforge.backends.questions",),
    "qa2d": ("claimforge.generate.qa2d.rules", "claimforge.generate.qa2d.seq2seq", "claimforge.generate.qa2d.llm"),
    "pipeline": (
        "claimforge.generate.multi2claim",
        "claimforge.generate.claimgen",
        "claimforge.generate.kbin",
        "claimforge.generate.covidfact",
        "claimforge.generate.sciclaimhunt",
        "claimforge.generate.factify",
    ),
    "generator": ("claimforge.generate.claimgen", "claimforge.generate.paper_llm"),
    "claim_check": ("claimforge.generate.claim_check",),
    "saliency": ("claimforge.generate.saliency",),
    "paraphraser": ("claimforge.generate.paraphrase",),
    "negator": (
        "claimforge.generate.kbin",
        "claimforge.generate.edit_negator",
        "claimforge.generate.numeric",
        "claimforge.generate.paper_llm",
    ),
    "task": ("claimforge.io.benchmarks",),
    "verifier": (
        "claimforge.verify.cross_encoder",
        "claimforge.verify.onnx_runtime",
        "claimforge.verify.embedding_heads",
        "claimforge.verify.zeroshot",
        "claimforge.verify.llm_judge",
        "claimforge.verify.paper_retrieval",
        "claimforge.verify.aspect_qa",
    ),
    "nli": ("claimforge.verify.nli",),
}


class ComponentConfig(BaseModel):
    """Base class for component configs: unknown keys are an error, so typos in recipes surface."""

    model_config = ConfigDict(extra="forbid", frozen=True, protected_namespaces=())


class RegistryError(ValueError):
    pass


@dataclass(frozen=True)
class Entry:
    kind: str
    name: str
    factory: Callable[[Any], Any]
    config_cls: type[ComponentConfig]
    help: str


class Registry:
    def __init__(self) -> None:
        self._entries: dict[str, dict[str, Entry]] = {}
        self._loaded: set[str] = set()
        self._broken: dict[str, list[str]] = {}  # kind -> "module (error)" of built-in modules that failed to import

    def register(
        self, kind: str, name: str, config_cls: type[ComponentConfig]
    ) -> Callable[[Callable[[Any], T]], Callable[[Any], T]]:
        def deco(factory: Callable[[Any], T]) -> Callable[[Any], T]:
            by_name = self._entries.setdefault(kind, {})
            if name in by_name and by_name[name].factory is not factory:
                raise RegistryError(f"{kind} {name!r} is registered twice")
            doc = (factory.__doc__ or "").strip().splitlines()
            by_name[name] = Entry(kind, name, factory, config_cls, doc[0] if doc else "")
            return factory

        return deco

    def _load_builtins(self, kind: str) -> None:
        if kind not in self._loaded:
            self._loaded.add(kind)
            for mod in _BUILTIN_MODULES.get(kind, ()):
                try:
                    importlib.import_module(mod)
                except ImportError as e:  # a missing optional dependency: say so when a name is not found
                    self._broken.setdefault(kind, []).append(f"{mod} ({e})")

    def names(self, kind: str) -> list[str]:
        self._load_builtins(kind)
        return sorted(self._entries.get(kind, {}))

    def kinds(self) -> list[str]:
        return sorted(set(_BUILTIN_MODULES) | set(self._entries))

    def entry(self, kind: str, name: str) -> Entry:
        self._load_builtins(kind)
        try:
            return self._entries[kind][name]
        except KeyError:
            known = ", ".join(self.names(kind)) or "none"
            close = difflib.get_close_matches(name, self.names(kind), n=1)
            known += f"; did you mean {close[0]!r}?" if close else ""
            broken = self._broken.get(kind)
            why = f"; these modules of {kind}s could not be imported: {'; '.join(broken)}" if broken else ""
            raise RegistryError(f"unknown {kind} {name!r} (known: {known}){why}") from None

    def config(self, kind: str, spec: Mapping[str, Any] | str) -> tuple[Entry, ComponentConfig]:
        """Validate a spec ``{"name": ..., **params}`` (or a bare name) against the component's config."""
        if isinstance(spec, str):
            spec = {"name": spec}
        params = dict(spec)
        name = params.pop("name", None)
        if not name:
            raise RegistryError(f"{kind} spec needs a 'name': {dict(spec)}")
        entry = self.entry(kind, name)
        try:
            return entry, entry.config_cls(**params)
        except ValidationError as e:
            raise RegistryError(f"bad config for {kind} {name!r}: {explain_validation(e, entry.config_cls)}") from None

    def build(self, kind: str, spec: Mapping[str, Any] | str) -> Any:
        entry, cfg = self.config(kind, spec)
        return entry.factory(cfg)


def explain_validation(error: ValidationError, config_cls: type[BaseModel]) -> str:
    """A config error a person can act on: each problem as ``key: what is wrong``, an unknown key with the closest
    known one ("did you mean"), no pydantic internals or links."""
    fields = list(config_cls.model_fields)
    parts = []
    for err in error.errors():
        key = ".".join(str(x) for x in err["loc"]) or "(config)"
        if err["type"] == "extra_forbidden":
            close = difflib.get_close_matches(str(err["loc"][-1]), fields, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f" (known keys: {', '.join(fields)})"
            parts.append(f"unknown key {key!r}{hint}")
        else:
            got = err.get("input")
            shown = f" (got {got!r})" if got is not None and not isinstance(got, dict) else ""
            parts.append(f"{key}: {err['msg']}{shown}")
    return "; ".join(parts)


registry = Registry()
