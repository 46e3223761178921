"""The ``factify`` pipeline (FACTIFY-5WQA §3 and §5–6): a built dataset in, the same dataset out with paraphrased
claims added (each keeps its claim's label and evidence) and, optionally, every example's 5W question–answer pairs.

Stages:
1. ``paraphrase``: up to ``paraphraser.n`` candidates per claim (``generate/paraphrase.py``: embedded rules and
   synonyms, an HF seq2seq model, or an LLM with the paper's prompt);
2. ``filter``: word-level minimum edit distance to the claim > ``min_edit_distance`` (the paper: 2), then the judge
   in both directions (claim → paraphrase and paraphrase → claim, P(entailment) ≥ ``min_entailment`` each);
   each failure is a reject with its reason and scores;
3. ``diversity``: the survivors' inverse BLEU (the mean of 1 / BLEU against the claim and the other survivors);
   the ``max_per_claim`` most diverse are kept;
4. the label check: each paraphrase against its evidence, as every pipeline does (the originals were checked when
   their dataset was built and pass through unchanged);
5. ``5W QA pairs`` (``qa_pairs: true``): every example's aspects, questions, the evidence's answers and the
   aspect verdicts (``verify/aspect_qa.py``), in ``Example.qa_pairs``.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from claimforge.cache import fingerprint
from claimforge.generate.paraphrase import edit_distance, inverse_bleu
from claimforge.pipeline import BuildState, Chunk, LabelCheckConfig, Pipeline, Stage
from claimforge.records import Example, Label, Pair, QAPair, Reject, SentenceItem
from claimforge.registry import registry
from claimforge.verify.label_check import evidence_sentences


class FactifyConfig(LabelCheckConfig):
    reader: dict[str, Any] | None = None
    paraphraser: dict[str, Any] = {"name": "embedded"}
    min_edit_distance: int = Field(default=2, ge=0)  # a paraphrase must differ from its claim in more words
    min_entailment: float = Field(default=0.70, ge=0.0, le=1.0)  # the judge's SUPPORTED gate, both directions
    max_per_claim: int = Field(default=5, ge=1)
    qa_pairs: bool = True  # add the 5W question-answer pairs and aspect verdicts to every example
    nlp: dict[str, Any] = {"name": "spacy"}  # the parser of the 5W aspects
    qa: dict[str, Any] = {"name": "embedded"}  # the reader that answers the aspect questions from the evidence
    questioner: dict[str, Any] = {"name": "template"}  # the aspect questions: template (the parse), hf, llm
    balance: bool = False  # the label check's lazy mode is for balanced builds; paraphrases keep their labels
    seed: int = 13


class FactifyPrefilter:
    """Examples without a claim or evidence cannot be paraphrased (step 1, after the reader's rejects)."""

    def check(self, item: SentenceItem) -> tuple[int, str, str] | None:
        if not item.sentence.strip():
            return 1, "empty_claim", ""
        return None if item.meta.get("example", {}).get("evidence", "").strip() else (1, "no_evidence", "")


class FactifyPipeline(Pipeline):
    """A built dataset plus paraphrased claims (label and evidence kept), filtered as FACTIFY-5WQA filters them."""

    method = "factify"
    item_type = SentenceItem
    component_kinds = {
        "paraphraser": "paraphraser",
        "judge": "nli",
        "nlp": "nlp",
        "qa": "qa",
        "questioner": "questioner",
    }
    config: FactifyConfig

    def uses(self, name: str) -> bool:
        if name == "judge":
            return True  # the entailment filter needs it even with the label check off
        if name in ("nlp", "qa", "questioner"):
            return self.config.qa_pairs
        return True

    def __init__(self, config: FactifyConfig, **components: Any) -> None:
        super().__init__(config, **components)
        self._original_ids: set[str] = set()  # filled by the "originals" stage

    def item_of(self, e: Example) -> str:
        """Records are the input dataset's examples: an original is its own record, a paraphrase its claim's."""
        return e.id if e.id in self._original_ids else str(e.provenance.details["paraphrase_of"])

    def prefilter(self) -> FactifyPrefilter:
        return FactifyPrefilter()

    def stages(self) -> list[Stage]:
        labels = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)
        return [
            Stage("paraphrase", "map", self._paraphrase, ("item",), ("candidates",), ("paraphraser",)),
            Stage(
                "filter",
                "map",
                self._filter,
                ("item", "candidates"),
                (),
                ("min_edit_distance", "min_entailment", "max_per_claim", "judge"),
            ),
            self.label_check_stage(labels),
            Stage("originals", "global", self._originals, ("item",)),
            Stage("5W QA pairs", "global", self._qa_pairs, config=("qa_pairs", "nlp", "qa", "questioner")),
        ]

    def _paraphrase(self, chunk: Chunk) -> None:
        units = chunk.live()
        found = self.component("paraphraser").paraphrase([u.item.sentence for u in units])
        for u, ps in zip(units, found, strict=True):
            u.data["candidates"] = [[p.text, list(p.operations)] for p in ps]

    def _filter(self, chunk: Chunk) -> None:
        cfg = self.config
        units = chunk.live()
        # 1. edit distance
        survivors: list[tuple[Any, str, list[str], int]] = []
        for u in units:
            for text, ops in u.data["candidates"]:
                med = edit_distance(text, u.item.sentence)
                if med <= cfg.min_edit_distance:
                    self._reject(chunk, u, "filter", "edit_distance", f"{med} word edits: {text!r}")
                else:
                    survivors.append((u, text, ops, med))
        # 2. entailment both ways
        judge = self.component("judge")
        pairs = [Pair(id="f", claim=t, evidence=(u.item.sentence,)) for u, t, _, _ in survivors]
        pairs += [Pair(id="b", claim=u.item.sentence, evidence=(t,)) for u, t, _, _ in survivors]
        probs = judge.predict_proba(pairs) if pairs else []
        n = len(survivors)
        entailed: dict[int, list[tuple[str, list[str], int, float, float]]] = {}
        for k, (u, text, ops, med) in enumerate(survivors):
            fwd, bwd = float(probs[k][0]), float(probs[n + k][0])
            if min(fwd, bwd) < cfg.min_entailment:
                why = f"P(entailment) claim->paraphrase {fwd:.2f}, paraphrase->claim {bwd:.2f}: {text!r}"
                self._reject(chunk, u, "filter", "not_entailed_both_ways", why)
            else:
                entailed.setdefault(u.index, []).append((text, ops, med, fwd, bwd))
        # 3. diversity: inverse BLEU against the claim and the other survivors; the most diverse kept
        for u in units:
            kept = entailed.get(u.index, [])
            scored = []
            for j, (text, ops, med, fwd, bwd) in enumerate(kept):
                others = [u.item.sentence, *(t for i, (t, *_) in enumerate(kept) if i != j)]
                scored.append((round(inverse_bleu(text, others), 4), j, text, ops, med, fwd, bwd))
            scored.sort(key=lambda x: (-x[0], x[1]))
            original = Example.model_validate(u.item.meta["example"])
            for rank, (div, _, text, ops, med, fwd, bwd) in enumerate(scored):
                if rank >= cfg.max_per_claim:
                    self._reject(chunk, u, "filter", "max_per_claim", f"inverse BLEU {div}: {text!r}")
                    continue
                details = {
                    "paraphrase_of": original.id,
                    "paraphrased_claim": original.claim,
                    "operations": ops,
                    "edit_distance": med,
                    "entailment": [round(fwd, 4), round(bwd, 4)],
                    "inverse_bleu": div,
                    "source_method": original.method,
                    "rank": rank,
                    # what the original was made from (the exports title an explanation passage by its question)
                    **{k: original.provenance.details[k] for k in ("question",) if k in original.provenance.details},
                }
                # the key holds the text's hash: paraphrasing a dataset that already has paraphrases makes no duplicates
                key = f"p{fingerprint(text)[:8]}"
                made = self.make_example(
                    u.item, original.label, text, original.evidence, original.evidence_id, details, key=key
                )
                # the source item of the claim it paraphrases: splits keep a paraphrase with its original
                chunk.examples.append(made.model_copy(update={"source_item_id": original.source_item_id}))

    def _reject(self, chunk: Chunk, u: Any, stage: str, reason: str, detail: str) -> None:
        """One paraphrase that did not make it (an example-scope reject; the original example still does)."""
        chunk.add_reject(
            Reject(item_id=u.item.id, scope="example", stage=stage, reason=reason, detail=detail, ref=u.item.ref)
        )

    def _originals(self, state: BuildState) -> None:
        """Each original example first, then its paraphrases (in input order)."""
        by_item: dict[str, list[Example]] = {}
        for e in state.examples:  # so far only the paraphrases
            by_item.setdefault(str(e.provenance.details["paraphrase_of"]), []).append(e)
        out: list[Example] = []
        for u in state.units:
            if u.rejected is not None or u.item is None:
                continue
            out.append(Example.model_validate(u.item.meta["example"]))
            self._original_ids.add(u.item.id)
            out.extend(by_item.pop(u.item.id, []))
        if by_item:  # a paraphrase of a record that is not there: a bug, never a silent loss
            raise RuntimeError(f"paraphrases of unknown records: {sorted(by_item)[:3]}")
        state.examples = out

    def _qa_pairs(self, state: BuildState) -> None:
        if not self.config.qa_pairs or not state.examples:
            return
        from claimforge.nlp.aspects import aspects as claim_aspects
        from claimforge.verify.aspect_qa import validate_aspects

        ex = state.examples
        docs = self.component("nlp").parse([e.claim for e in ex])
        found = [claim_aspects(d) for d in docs]
        evidence = [tuple(evidence_sentences(e.evidence)) for e in ex]
        checked = validate_aspects(
            [e.claim for e in ex],
            found,
            evidence,
            self.component("qa"),
            self.component("judge"),
            questioner=self.component("questioner"),
        )
        state.examples = [
            e.model_copy(
                update={
                    "qa_pairs": tuple(
                        QAPair(
                            kind=a.kind,
                            role=a.role,
                            claim_span=a.text,
                            start=a.start,
                            end=a.end,
                            question=v.question,
                            answer=v.answer,
                            answer_score=round(v.answer_score, 4),
                            evidence_sentence=v.sentence,
                            verdict=v.status,
                        )
                        for a, v in zip(aspects, verdicts, strict=True)
                    )
                }
            )
            for e, aspects, verdicts in zip(ex, found, checked, strict=True)
        ]


@registry.register("pipeline", "factify", FactifyConfig)
def build_factify_pipeline(config: FactifyConfig) -> FactifyPipeline:
    """A built dataset + paraphrased claims (edit distance, entailment both ways, inverse-BLEU diversity) and
    FACTIFY-5WQA's question-answer pairs per example."""
    return FactifyPipeline(config)
