"""Multi2Claim: multiple-choice questions -> SUPPORTED / REFUTED / NOT_ENOUGH_INFO examples.

SUPPORTED = QA2D(question, answer) with the explanation; REFUTED = QA2D(question, the distractor closest to
the answer) with the same explanation; NOT_ENOUGH_INFO = the supported claim with the most similar other
explanation (top-k by embedding of answer + explanation) that does not mention the answer.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field

from claimforge import __version__
from claimforge.generate.base import BuildResult, QA2DRequest, QA2DResult, account, select_labels
from claimforge.nlp.normalize import contains_content, content_lemmas, word_count
from claimforge.progress import Progress, SilentProgress
from claimforge.records import Example, Label, MCQItem, Provenance, Reject
from claimforge.registry import ComponentConfig, registry

METHOD = "multi2claim"


class Multi2ClaimConfig(ComponentConfig):
    reader: dict[str, Any] | None = None
    qa2d: dict[str, Any] = {"name": "rules"}
    embedder: dict[str, Any] = {"name": "sentence-transformers"}
    min_evidence_words: int = 50
    # Input far beyond any real exam question is a reject, not a 5,000-word claim; the real sets stay well
    # under these (SciQ: questions ≤ 68 words, support ≤ 560; Medbullets: ≤ 244 / ≤ 756; MedMCQA: ≤ 88 / ≤ 695).
    max_question_words: int = Field(400, ge=1)
    max_evidence_words: int = Field(1500, ge=1)
    max_claim_words: int = Field(300, ge=1)
    single_answer: bool = True
    unique_evidence: Literal["keep_first", "drop_all", "allow"] = "keep_first"
    nei_top_k: int = Field(10, ge=1)
    # When does a candidate NEI explanation "contain the answer"? phrase: all of the answer's content words
    # in a row; head: that, or the answer's head word alone ("cortex" for "adrenal cortex") — stricter, so
    # fewer NEI pairs whose evidence in fact supports the claim.
    nei_answer_match: Literal["phrase", "head"] = "head"
    balance: bool = True
    seed: int = 13
    labels: tuple[Label, ...] = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)


@dataclass(frozen=True)
class OptionClaim:
    """A claim made from one option: which option, its role, its cosine to the keyed answer, the QA2D result."""

    option: str
    role: Literal["answer", "distractor"]
    cosine: float
    result: QA2DResult

    @property
    def details(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "option_role": self.role,
            "option_cosine": round(self.cosine, 6),
            "polarity": self.result.polarity,
        }


class Multi2Claim:
    """The Multi2Claim pipeline; components come from the registry, built lazily."""

    def __init__(self, config: Multi2ClaimConfig) -> None:
        self.config = config
        self._qa2d: Any = None
        self._embedder: Any = None

    @property
    def qa2d(self) -> Any:
        if self._qa2d is None:
            self._qa2d = registry.build("qa2d", self.config.qa2d)
        return self._qa2d

    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            self._embedder = registry.build("embedder", self.config.embedder)
        return self._embedder

    # -- stage 1: validation filters -------------------------------------------------------------
    def validate(self, items: Iterable[MCQItem]) -> tuple[list[MCQItem], list[Reject]]:
        cfg = self.config
        kept: list[MCQItem] = []
        rejects: list[Reject] = []
        seen_evidence: dict[str, str] = {}
        evidence_count: Counter[str] = Counter()
        candidates: list[tuple[MCQItem, str]] = []
        ids: set[str] = set()
        for item in items:
            reason, detail = self._item_problem(item)
            if item.id in ids:
                reason, detail = "duplicate_item_id", "an earlier item has the same id"
            ids.add(item.id)
            if reason:
                rejects.append(Reject(item_id=item.id, stage="filter", reason=reason, detail=detail, ref=item.ref))
                continue
            key = _evidence_key(item.explanation or "")
            candidates.append((item, key))
            evidence_count[key] += 1
        for item, key in candidates:
            duplicate = ""
            if cfg.unique_evidence == "drop_all" and evidence_count[key] > 1:
                duplicate = f"{evidence_count[key]} items share this explanation"
            elif cfg.unique_evidence == "keep_first" and key in seen_evidence:
                duplicate = f"same explanation as {seen_evidence[key]}"
            if duplicate:
                rejects.append(
                    Reject(item_id=item.id, stage="filter", reason="duplicate_evidence", detail=duplicate, ref=item.ref)
                )
                continue
            seen_evidence.setdefault(key, item.id)
            kept.append(item)
        return kept, rejects

    def _item_problem(self, item: MCQItem) -> tuple[str, str]:
        cfg = self.config
        if not item.question.strip():
            return "empty_question", ""
        n_question = word_count(item.question)
        if n_question > cfg.max_question_words:
            return "question_too_long", f"{n_question} words > max_question_words={cfg.max_question_words}"
        if item.answer is None or not item.answer.strip():
            return "no_answer", "no keyed answer" if item.answer_index is None else "empty answer option"
        if cfg.single_answer and str(item.meta.get("choice_type", "single")).lower() == "multi":
            return "multiple_correct_options", "choice_type=multi"
        if _OPTION_REF.match(item.answer):
            return "answer_refers_to_options", item.answer
        if not _distractors(item):
            return "no_distractors", f"{len(item.options)} options"
        if not item.explanation or not item.explanation.strip():
            return "no_explanation", ""
        n = word_count(item.explanation)
        if n < cfg.min_evidence_words:
            return "short_evidence", f"{n} words < {cfg.min_evidence_words}"
        if n > cfg.max_evidence_words:
            return "evidence_too_long", f"{n} words > max_evidence_words={cfg.max_evidence_words}"
        return "", ""

    # -- stage 2: claims ---------------------------------------------------------------------------
    def build(self, items: Iterable[MCQItem | Reject], progress: Progress | None = None) -> BuildResult:
        progress = progress or SilentProgress()
        cfg = self.config
        all_items: list[MCQItem] = []
        rejects: list[Reject] = []
        for x in items:
            (rejects if isinstance(x, Reject) else all_items).append(x)  # type: ignore[arg-type]
        n_input = len(all_items) + len(rejects)
        kept, filt = self.validate(all_items)
        rejects.extend(filt)

        with progress.stage("embed options") as tick:
            distractor = self._closest_distractors(kept, tick)
        with progress.stage("qa2d") as tick:
            claims = self._claims(kept, distractor, tick)
        examples: list[Example] = []
        supported: list[tuple[MCQItem, OptionClaim]] = []
        for item in kept:
            sup, ref, why = claims[item.id]
            if sup is None:
                rejects.append(
                    Reject(
                        item_id=item.id,
                        stage="qa2d",
                        reason=(why and why.reason) or "qa2d_failed",
                        detail="; ".join(x for x in ((why.detail if why else ""), item.question[:200]) if x),
                        ref=item.ref,
                    )
                )
                continue
            supported.append((item, sup))
            examples.append(self._example(item, Label.SUPPORTED, _text(sup), item, sup.details))
            if ref is None:
                rejects.append(
                    Reject(
                        item_id=item.id,
                        scope="example",
                        stage="qa2d_refuted",
                        reason=(why and why.reason) or "qa2d_failed",
                        detail=why.detail if why else "",
                        ref=item.ref,
                    )
                )
            else:
                examples.append(self._example(item, Label.REFUTED, _text(ref), item, ref.details))
        with progress.stage("embed explanations") as tick:
            nei, nei_rejects = self._nei(supported, tick)
        examples.extend(nei)
        rejects.extend(nei_rejects)
        examples = select_labels(examples, rejects, cfg.labels, cfg.balance, cfg.seed)
        return account(all_items, examples, rejects, n_input, self.components, self.config.model_dump(mode="json"))

    def _closest_distractors(self, items: Sequence[MCQItem], tick: Any) -> dict[str, list[tuple[str, float]]]:
        """Distractors of each item, most similar to the answer first (cosine of embeddings)."""
        texts: list[str] = []
        for it in items:
            texts.append(it.answer or "")
            texts.extend(_distractors(it))
        vecs = self.embedder.embed(texts, progress=tick)
        out: dict[str, list[tuple[str, float]]] = {}
        i = 0
        for it in items:
            ds = _distractors(it)
            a = vecs[i]
            sims = vecs[i + 1 : i + 1 + len(ds)] @ a
            i += 1 + len(ds)
            order = np.argsort(-sims, kind="stable")
            out[it.id] = [(ds[j], float(sims[j])) for j in order]
        return out

    def _claims(
        self, items: Sequence[MCQItem], distractors: dict[str, list[tuple[str, float]]], tick: Any
    ) -> dict[str, tuple[OptionClaim | None, OptionClaim | None, QA2DResult | None]]:
        """Supported and refuted claims per item. For inverted stems (EXCEPT/NOT) the roles swap:
        the keyed answer makes the false claim and the closest distractor the true one."""
        reqs: list[QA2DRequest] = []
        for it in items:
            reqs.append(QA2DRequest(question=it.question, answer=it.answer or ""))
            reqs.extend(QA2DRequest(question=it.question, answer=d) for d, _ in distractors[it.id])
        results = [self._length_checked(r) for r in self._convert(reqs, tick)]
        out: dict[str, Any] = {}
        i = 0
        for it in items:
            ds = distractors[it.id]
            res_answer = results[i]
            res_ds = results[i + 1 : i + 1 + len(ds)]
            i += 1 + len(ds)
            if not res_answer.text:
                out[it.id] = (None, None, res_answer)
                continue
            answer = OptionClaim(it.answer or "", "answer", 1.0, res_answer)
            ok = [OptionClaim(d, "distractor", s, r) for (d, s), r in zip(ds, res_ds, strict=True) if r.text]
            if res_answer.polarity == "inverted":
                if not ok:
                    out[it.id] = (
                        None,
                        None,
                        QA2DResult(text=None, reason="inverted_stem_without_convertible_distractor"),
                    )
                    continue
                out[it.id] = (ok[0], answer, None)
            else:
                why = None if ok else (res_ds[0] if res_ds else QA2DResult(text=None, reason="no_distractors"))
                out[it.id] = (answer, ok[0] if ok else None, why)
        return out

    def _length_checked(self, result: QA2DResult) -> QA2DResult:
        n = word_count(result.text or "")
        if n > self.config.max_claim_words:
            detail = f"{n} words > max_claim_words={self.config.max_claim_words}"
            return QA2DResult(text=None, reason="claim_too_long", detail=detail)
        return result

    def _convert(self, reqs: list[QA2DRequest], tick: Any) -> list[QA2DResult]:
        if "progress" in inspect.signature(self.qa2d.convert).parameters:
            return list(self.qa2d.convert(reqs, progress=tick))
        return list(self.qa2d.convert(reqs))

    def _nei(self, supported: list[tuple[MCQItem, OptionClaim]], tick: Any) -> tuple[list[Example], list[Reject]]:
        """Pair each supported claim with the most similar other explanation that does not mention the option
        the claim states (the keyed answer, or for inverted stems the distractor the claim was made from)."""
        if len(supported) < 2:
            return [], [
                Reject(item_id=it.id, scope="example", stage="nei", reason="too_few_items", ref=it.ref)
                for it, _ in supported
            ]
        texts = [f"{claim.option} {it.explanation}" for it, claim in supported]
        vecs = self.embedder.embed(texts, progress=tick)
        hay = [content_lemmas(it.explanation or "") for it, _ in supported]
        doc_key = [_evidence_key(it.explanation or "") for it, _ in supported]
        k = min(self.config.nei_top_k, len(supported) - 1)
        examples: list[Example] = []
        rejects: list[Reject] = []
        block = 1024
        for b in range(0, len(supported), block):
            sims = vecs[b : b + block] @ vecs.T
            for r in range(sims.shape[0]):
                sims[r, b + r] = -np.inf  # never the item's own explanation
            top = np.argpartition(-sims, k - 1, axis=1)[:, :k] if k < sims.shape[1] else None
            for r in range(sims.shape[0]):
                i = b + r
                item, claim = supported[i]
                cand = top[r] if top is not None else np.arange(sims.shape[1])
                cand = cand[np.argsort(-sims[r, cand], kind="stable")]
                needle = content_lemmas(claim.option)
                chosen = None
                if not needle:  # "all of the above": no key entity to look for, so no safe NEI pairing
                    cand = cand[:0]
                for rank, j in enumerate(cand[:k]):
                    if j == i or not np.isfinite(sims[r, j]) or doc_key[j] == doc_key[i]:
                        continue
                    if not self._mentions(hay[j], needle):
                        chosen = (int(j), rank, float(sims[r, j]))
                        break
                if chosen is None:
                    why = "no_evidence_without_answer_in_top_k" if needle else "answer_has_no_content_word"
                    rejects.append(
                        Reject(item_id=item.id, scope="example", stage="nei", reason=why, detail=f"k={k}", ref=item.ref)
                    )
                    continue
                j, rank, cos = chosen
                other = supported[j][0]
                examples.append(
                    self._example(
                        item,
                        Label.NOT_ENOUGH_INFO,
                        _text(claim),
                        other,
                        {**claim.details, "evidence_rank": rank, "evidence_cosine": round(cos, 6)},
                    )
                )
        return examples, rejects

    def _mentions(self, hay: Sequence[str], needle: Sequence[str]) -> bool:
        if contains_content(hay, needle):
            return True
        return self.config.nei_answer_match == "head" and len(needle) > 1 and needle[-1] in hay

    def _example(
        self, item: MCQItem, label: Label, claim: str, evidence_item: MCQItem, details: dict[str, Any]
    ) -> Example:
        suffix = {Label.SUPPORTED: "S", Label.REFUTED: "R", Label.NOT_ENOUGH_INFO: "N"}[label]
        return Example(
            id=f"{item.id}#{suffix}",
            claim=claim,
            evidence=evidence_item.explanation or "",
            evidence_id=f"{evidence_item.id}:explanation",
            label=label,
            source_item_id=item.id,
            method=METHOD,
            provenance=Provenance(
                method=METHOD,
                method_version=__version__,
                source=item.ref,
                components=self.components,
                params=self._params,
                details={"question": item.question, "answer": item.answer, **details},
            ),
        )

    @property
    def components(self) -> dict[str, str]:
        return {"qa2d": self.qa2d.model_id, "embedder": self.embedder.model_id}

    @property
    def _params(self) -> dict[str, Any]:
        return self.config.model_dump(mode="json", exclude={"reader", "qa2d", "embedder"})


# Options that only point at other options ("all of the above", "both a and c"): no claim can be made of them.
_OPTION_REF = re.compile(
    r"^\s*((all|none|both|either|neither)(\s+of)?(\s+the)?(\s+(above|these|them|options))?"
    r"|(both\s+)?[a-e](\s*(,|and|&)\s*[a-e])+)\s*[.]?\s*$",
    re.I,
)


def _text(claim: OptionClaim) -> str:
    return claim.result.text or ""


def _distractors(item: MCQItem) -> list[str]:
    """Distinct non-empty distractors that differ from the answer (case-insensitive) and do not merely
    point at other options."""
    ans = (item.answer or "").strip().lower()
    seen: set[str] = set()
    out: list[str] = []
    for d in item.distractors:
        key = d.strip().lower()
        if key and key != ans and key not in seen and not _OPTION_REF.match(d):
            seen.add(key)
            out.append(d.strip())
    return out


def _evidence_key(text: str) -> str:
    return " ".join(text.lower().split())


@registry.register("pipeline", METHOD, Multi2ClaimConfig)
def build_multi2claim(config: Multi2ClaimConfig) -> Multi2Claim:
    """Multiple-choice questions -> three-label fact-checking dataset (Multi2Claim)."""
    return Multi2Claim(config)
