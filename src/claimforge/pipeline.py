"""The one shape of a pipeline: a pre-filter, then named stages.

A pipeline turns input records (multiple-choice questions, sentences, ...) into labelled examples. The
engine (:mod:`claimforge.engine`) reads the input in chunks and runs, for each record, a :class:`Unit`:

1. the **pre-filter** (:class:`Prefilter`) looks at every record in input order and rejects the unusable ones
   (empty, too long, duplicate); it is cheap and keeps only small state, so every shard of a build runs it
   over the whole input and agrees on what "the first of two duplicates" is;
2. **map** stages work a chunk at a time (QA2D, claim generation, negation, embeddings): they read and write
   ``unit.data`` keys they declare, add examples and rejects to the chunk, and the engine stores each finished
   chunk, so a build resumes where it stopped;
3. **global** stages need the whole set (NOT_ENOUGH_INFO pairing by nearest neighbours, label balancing):
   they run once, after every chunk, on :class:`BuildState`.

A stage lists the config fields its output depends on (``config``): the engine fingerprints a stage by them
and by the stages before it, so a changed field reruns only that stage and the ones after it. Every config
field of a pipeline belongs to the reader, the pre-filter or a stage (checked when the build starts).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol

from pydantic import model_validator

from claimforge import __version__
from claimforge.records import Example, Label, Provenance, Record, Reject
from claimforge.registry import ComponentConfig, registry
from claimforge.verify.label_check import (
    DEFAULT_JUDGE,
    Thresholds,
    Verdict,
    evidence_sentences,
    judge,
    reject_detail,
    verdict,
)

SUFFIX = {Label.SUPPORTED: "S", Label.REFUTED: "R", Label.NOT_ENOUGH_INFO: "N"}
MAP_STEP = 100  # reject order: pre-filter steps count from 0, the map stages from here


def example_id(item_id: str, label: Label, key: str = "") -> str:
    """The id of an example: ``<item id>#<key><S|R|N>`` (key: which claim of the item, when it has several)."""
    return f"{item_id}#{key}{SUFFIX[label]}"


@dataclass
class Unit:
    """One input record on its way through the stages: ``item`` (None when the reader rejected the record),
    what the map stages wrote (``data``), and the step that rejected it as a whole (None while it lives)."""

    index: int
    item: Any
    data: dict[str, Any] = field(default_factory=dict)
    rejected: int | None = None


@dataclass
class Chunk:
    """A run of consecutive input records (``number`` counts chunks from 0) with what the stages made of them:
    examples in the order made, and rejects as ``(step, reject)`` pairs (the final reject order sorts by step,
    then chunk, then the order made)."""

    number: int
    units: list[Unit]
    examples: list[Example] = field(default_factory=list)
    rejects: list[tuple[int, Reject]] = field(default_factory=list)
    step: int = 0  # set by the engine: the running stage's step
    # set by the engine while a stage runs: a stage that works through the chunk's units in steps reports how far
    # it is (done, total units) so the stage's bar moves within a chunk; never stored
    progress: Callable[[int, int], None] | None = field(default=None, repr=False, compare=False)

    def live(self) -> list[Unit]:
        """The units no step has rejected as a whole."""
        return [u for u in self.units if u.rejected is None]

    def reject(self, unit: Unit, stage: str, reason: str, detail: str = "") -> None:
        """Reject ``unit``'s record as a whole: the later stages skip it."""
        self.rejects.append(
            (self.step, Reject(item_id=unit.item.id, stage=stage, reason=reason, detail=detail, ref=unit.item.ref))
        )
        unit.rejected = self.step

    def add_reject(self, r: Reject) -> None:
        """Record a reject made by a component; an item-scope one also rejects the live unit of that id."""
        self.rejects.append((self.step, r))
        if r.scope == "item":
            for u in self.live():
                if u.item.id == r.item_id:
                    u.rejected = self.step


@dataclass
class BuildState:
    """What global stages see: every unit (in input order, with the data keys global stages read), the
    examples so far (map stages' first, in order), and the rejects global stages add (in the order made)."""

    units: list[Unit]
    examples: list[Example]
    rejects: list[Reject] = field(default_factory=list)
    # set by the engine while a global stage runs: how far it is (done, total), for its bar
    progress: Callable[[int, int], None] | None = field(default=None, repr=False, compare=False)
    # what one global stage tells a later one (e.g. the label check: the examples it judged and rejected,
    # and the ones balancing left unjudged, for the confirmed-claims stage)
    notes: dict[str, Any] = field(default_factory=dict)


@dataclass
class BuildResult:
    """A finished build: examples, rejects (item scope first), and the accounting behind the report."""

    examples: list[Example]
    rejects: list[Reject]
    n_input: int
    used_item_ids: set[str]
    components: dict[str, str]
    config: dict[str, Any]
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def n_rejected_items(self) -> int:
        return sum(1 for r in self.rejects if r.scope == "item")


class LabelCheckConfig(ComponentConfig):
    """The config fields of the label check every pipeline ends with (its configs derive from this).

    ``label_check``: ``reject`` (default) drops an example whose label the judge does not confirm, as a reject
    with its scores; ``flag`` keeps it, marked in provenance; ``off`` skips the check (no judge is loaded).
    """

    judge: dict[str, Any] | None = dict(DEFAULT_JUDGE)
    label_check: Literal["reject", "flag", "off"] = "reject"
    label_thresholds: Thresholds = Thresholds()

    @model_validator(mode="after")
    def _judge_when_checking(self) -> LabelCheckConfig:
        if self.judge is None and self.label_check != "off":
            raise ValueError(f"label_check={self.label_check} needs a judge: set judge, or label_check=off")
        return self


MapFn = Callable[[Chunk], None]
GlobalFn = Callable[[BuildState], None]


@dataclass(frozen=True)
class Stage:
    """A named step. ``kind="map"``: ``fn(chunk)``; ``kind="global"``: ``fn(state)``. ``reads``/``writes``
    name ``unit.data`` keys ("item" for the record itself); ``config`` the config fields the output depends on;
    ``version`` changes when the stage's code changes what it makes (stored chunks of another version are
    not reused)."""

    name: str
    kind: Literal["map", "global"]
    fn: Callable[[Any], None]
    reads: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    config: tuple[str, ...] = ()
    version: str = "1"


class Prefilter(Protocol):
    """Checks records in input order. ``observe`` (optional, see :func:`observes`) is called for every record
    first when the check needs to see the whole input (e.g. "drop every item that shares its explanation")."""

    def check(self, item: Any) -> tuple[int, str, str] | None:
        """None to keep the record, else ``(step, reason, detail)``; the step orders the rejects."""
        ...


def observes(prefilter: Any) -> bool:
    return callable(getattr(prefilter, "observe", None))


class Pipeline:
    """Base of every pipeline. Subclasses set ``method``, ``item_type``, ``components_kinds`` (config field ->
    registry kind) and ``prefilter_fields``, and define :meth:`prefilter` and :meth:`stages`.

    Components are passed to the constructor (``Multi2Claim(config, qa2d=my_converter)``) or built from
    the config's spec the first time they are used."""

    method: ClassVar[str]
    item_type: ClassVar[type[Record]]
    component_kinds: ClassVar[dict[str, str]] = {}
    prefilter_fields: ClassVar[tuple[str, ...]] = ()

    def __init__(self, config: ComponentConfig, **components: Any) -> None:
        unknown = set(components) - set(self.component_kinds)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no component {', '.join(sorted(unknown))}")
        self.config = config
        self._components: dict[str, Any] = dict(components)

    def component(self, name: str) -> Any:
        """The component ``name`` (None when the config turns it off), built from the registry on first use."""
        if not self.uses(name):
            return None
        if name not in self._components:
            spec = getattr(self.config, name)
            self._components[name] = None if spec is None else registry.build(self.component_kinds[name], spec)
        return self._components[name]

    def claim_check_reasons(self, texts: Sequence[str]) -> list[list[str]]:
        """Why each generated claim fails the emit-time check (component ``claim_check``; an empty list: it
        passes, and every claim passes when the pipeline has no check or it is turned off)."""
        check = self.component("claim_check") if "claim_check" in self.component_kinds else None
        if check is None or not texts:
            return [[] for _ in texts]
        return check.check(texts)  # type: ignore[no-any-return]

    def uses(self, name: str) -> bool:
        """Whether this configuration needs component ``name`` (the judge only when the label check is on;
        a pipeline that also judges in another stage says so by overriding this)."""
        return name != "judge" or getattr(self.config, "label_check", "off") != "off"

    @property
    def components(self) -> dict[str, str]:
        """The model id of every component in use (recorded in each example's provenance)."""
        out = {}
        for name in self.component_kinds:
            c = self.component(name)
            if c is not None:
                out[name] = c.model_id
        return out

    def build(self, records: Iterable[Any], progress: Any = None) -> BuildResult:
        """Run the whole pipeline in memory over ``records`` (items and reader rejects), storing nothing:
        the library entry point when there is no output folder (``claimforge build`` stores every stage)."""
        from claimforge.engine import run_in_memory  # the engine runs pipelines; imported here, not above

        return run_in_memory(self, records, progress)

    def item_of(self, e: Example) -> str:
        """The id of the input record ``e`` was made from (what the accounting counts): its source item, unless
        the pipeline's records are themselves examples of another dataset (``factify``)."""
        return e.source_item_id

    def prefilter(self) -> Prefilter:
        raise NotImplementedError

    def stages(self) -> list[Stage]:
        raise NotImplementedError

    @property
    def params(self) -> dict[str, Any]:
        """The config without the reader and the component specs (they are in provenance.components)."""
        return self.config.model_dump(mode="json", exclude={"reader", *self.component_kinds})

    def make_example(
        self,
        item: Any,
        label: Label,
        claim: str,
        evidence: str,
        evidence_id: str,
        details: dict[str, Any],
        *,
        key: str = "",
        method: str | None = None,
    ) -> Example:
        """The one way an example is made: id ``<item id>#<key><S|R|N>``, provenance with the source record,
        component ids, parameters and ``details``."""
        method = method or self.method
        return Example(
            id=example_id(item.id, label, key),
            claim=claim,
            evidence=evidence,
            evidence_id=evidence_id,
            label=label,
            source_item_id=item.id,
            method=method,
            provenance=Provenance(
                method=method,
                method_version=__version__,
                source=item.ref,
                components=self.components,
                params=self.params,
                details=details,
            ),
        )

    def label_check_stage(
        self,
        labels: Sequence[Label],
        evidence_of: Callable[[Example], tuple[str, ...]] | None = None,
        checked_as: Callable[[Example], Label] | None = None,
    ) -> Stage:
        """The judge scores each example's claim against its evidence; labels it does not confirm are rejected
        (or flagged). Before label selection, so balancing sees only checked examples. A balanced build with
        ``label_check: reject`` checks lazily: labels in a seeded random order, the one with the fewest
        confirmed examples next, until every label has as many confirmed as the scarcest label can give —
        the examples balancing would drop anyway are not scored (they are ``balance`` rejects).

        ``evidence_of``: the sentences the judge reads for an example (default: its evidence text's sentences);
        a pipeline whose evidence is a whole paper gives the passages it chose for the judge. ``checked_as``: the
        label whose gate an example must pass (default its own; a binary scheme that calls an unverifiable claim
        REFUTED checks it as NOT_ENOUGH_INFO)."""
        read = evidence_of or (lambda e: evidence_sentences(e.evidence))
        gate = checked_as or (lambda e: e.label)

        def run(state: BuildState) -> None:
            cfg: Any = self.config
            if cfg.label_check == "off" or not state.examples:
                return
            th: Thresholds = cfg.label_thresholds
            nli = self.component("judge")
            ex = state.examples
            verdicts: dict[int, Verdict] = {}

            judged = [0]

            def check(indices: list[int]) -> int:
                def tick(done: int, total: int) -> None:
                    if state.progress is not None:
                        state.progress(judged[0] + done, len(ex))  # of all examples: the lazy check stops early

                probs = judge(nli, [ex[i].claim for i in indices], [read(ex[i]) for i in indices], tick)
                judged[0] += len(indices)
                for i, p in zip(indices, probs, strict=True):
                    verdicts[i] = verdict(gate(ex[i]), p, th)
                return sum(verdicts[i].passed for i in indices)

            n = 0  # the balanced size, known only to the lazy check
            if cfg.label_check == "reject" and cfg.balance:
                n = _check_until_balanced(ex, labels, cfg.seed, check)
            else:
                check(list(range(len(ex))))
            kept = []
            unjudged: list[Example] = state.notes.setdefault("label_check_unjudged", [])
            failed: list[Example] = state.notes.setdefault("label_check_failed", [])
            for i, e in enumerate(ex):
                v = verdicts.get(i)
                if v is None:
                    if e.label not in labels:
                        kept.append(e)  # the label selection rejects it (label_not_requested)
                        continue
                    why = f"not checked: balancing keeps {n} per label"
                    state.rejects.append(
                        example_reject(
                            self.item_of(e), e, "balance", "class_balancing", reject_detail(e.label, e.id, why)
                        )
                    )
                    unjudged.append(e)
                    continue
                details = {**e.provenance.details, "label_check": v.details}
                checked = e.model_copy(update={"provenance": e.provenance.model_copy(update={"details": details})})
                if v.passed or cfg.label_check == "flag":
                    kept.append(checked)
                else:
                    detail = reject_detail(e.label, e.id, v.explain(th))
                    state.rejects.append(
                        example_reject(self.item_of(e), e, "label check", "label_not_confirmed", detail)
                    )
                    failed.append(e)
            state.examples = kept

        return Stage(
            "label check", "global", run, config=("judge", "label_check", "label_thresholds", "balance", "seed")
        )

    def confirmed_claims_stage(self) -> Stage:
        """After the label check: drop the REFUTED and NOT_ENOUGH_INFO examples made from a claim whose SUPPORTED
        example the judge did not confirm, or that has no SUPPORTED example (``claim_not_confirmed``): a false
        version of a claim the evidence does not support is not known to be false. A SUPPORTED example that a
        balanced label check left unjudged (a ``class_balancing`` reject) does not count against its claim: the
        judge never said no. A claim is the example's ``provenance.details["claim_key"]``, else its source item.
        Config fields ``require_confirmed_claim`` and ``label_check``."""

        def key(e: Example) -> str:
            return str(e.provenance.details.get("claim_key", e.source_item_id))

        def run(state: BuildState) -> None:
            cfg: Any = self.config
            if not cfg.require_confirmed_claim or cfg.label_check == "off":
                return
            confirmed = {
                key(e)
                for e in (*state.examples, *state.notes.get("label_check_unjudged", ()))
                if e.label == Label.SUPPORTED
                and (
                    e.provenance.details.get("label_check", {}).get("passed", False)
                    or "label_check" not in e.provenance.details
                )
            }
            confirmed -= {key(e) for e in state.notes.get("label_check_failed", ()) if e.label == Label.SUPPORTED}
            kept = []
            for e in state.examples:
                if e.label == Label.SUPPORTED or key(e) in confirmed:
                    kept.append(e)
                else:
                    detail = f"{e.id}: the judge did not confirm the claim it was made from"
                    state.rejects.append(
                        example_reject(self.item_of(e), e, "confirmed claims", "claim_not_confirmed", detail)
                    )
            state.examples = kept

        return Stage("confirmed claims", "global", run, config=("require_confirmed_claim", "label_check"))

    def select_stage(self, labels: Sequence[Label]) -> Stage:
        """The last stage of every pipeline: keep ``labels`` and, with ``config.balance``, down-sample."""

        def run(state: BuildState) -> None:
            cfg: Any = self.config
            state.examples = select_labels(state.examples, state.rejects, labels, cfg.balance, cfg.seed)

        return Stage("labels", "global", run, config=("labels", "balance", "seed"))


def example_reject(item_id: str, e: Example, stage: str, reason: str, detail: str) -> Reject:
    """A reject of one would-be example (scope ``example``) of input record ``item_id``, with its source."""
    return Reject(item_id=item_id, scope="example", stage=stage, reason=reason, detail=detail, ref=e.provenance.source)


CHECK_BATCH = 128  # examples judged per round of the lazy (balanced) label check


def _check_until_balanced(
    examples: list[Example], labels: Sequence[Label], seed: int, check: Callable[[list[int]], int]
) -> int:
    """Judge examples of ``labels`` (``check(indices)`` returns how many passed) until balancing's size is
    known: every label either fully checked or with at least as many confirmed as the scarcest fully checked
    label. Each label's examples go in a seeded random order, so the confirmed ones are a uniform sample of all
    the label's confirmed examples. Returns the balanced size."""
    rng = random.Random(seed)
    queues: dict[Label, list[int]] = {}
    for lab in labels:
        ids = sorted((e.id, i) for i, e in enumerate(examples) if e.label == lab)
        queues[lab] = [i for _, i in ids]
        rng.shuffle(queues[lab])
    done = {lab: 0 for lab in labels}
    confirmed = {lab: 0 for lab in labels}
    while True:
        exhausted = [lab for lab in labels if done[lab] >= len(queues[lab])]
        if exhausted:
            n = min(confirmed[lab] for lab in exhausted)
            todo = [lab for lab in labels if lab not in exhausted and confirmed[lab] < n]
        else:
            todo = list(labels)
        if not todo:
            return min(confirmed.values()) if confirmed else 0
        lab = min(todo, key=lambda x: confirmed[x])
        batch = queues[lab][done[lab] : done[lab] + CHECK_BATCH]
        done[lab] += len(batch)
        confirmed[lab] += check(batch)


def balance_labels(examples: list[Example], labels: Sequence[Label], seed: int) -> tuple[list[Example], list[Reject]]:
    """Down-sample every label to the smallest label's count (seeded); the rest become rejects."""
    by: dict[Label, list[Example]] = {lab: [] for lab in labels}
    for e in examples:
        by[e.label].append(e)
    n = min(len(v) for v in by.values()) if by else 0
    rng = random.Random(seed)
    keep: set[str] = set()
    for lab in labels:
        pool = sorted(by[lab], key=lambda e: e.id)
        keep.update(e.id for e in (rng.sample(pool, n) if len(pool) > n else pool))
    kept = [e for e in examples if e.id in keep]
    dropped = [
        example_reject(e.source_item_id, e, "balance", "class_balancing", f"{e.label.value} {e.id}")
        for e in examples
        if e.id not in keep
    ]
    return kept, dropped


def select_labels(
    examples: list[Example], rejects: list[Reject], labels: Sequence[Label], balance: bool, seed: int
) -> list[Example]:
    """Keep the requested labels (others become ``label_not_requested`` rejects) and, with ``balance``,
    down-sample to equal label counts; the losses are appended to ``rejects``."""
    for e in examples:
        if e.label not in labels:
            rejects.append(example_reject(e.source_item_id, e, "labels", "label_not_requested", e.id))
    kept = [e for e in examples if e.label in labels]
    if balance:
        kept, dropped = balance_labels(kept, labels, seed)
        rejects.extend(dropped)
    return kept
