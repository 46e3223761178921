"""Multi2Claim: multiple-choice questions -> SUPPORTED / REFUTED / NOT_ENOUGH_INFO examples.

SUPPORTED = QA2D(question, answer) with the explanation; REFUTED = QA2D(question, the distractor closest to
the answer) with the same explanation; NOT_ENOUGH_INFO = the supported claim with the most similar other
explanation (top-k by embedding of answer + explanation) that does not mention the answer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field

from claimforge.nlp.normalize import contains_content, content_lemmas, restore_case, word_count
from claimforge.pipeline import BuildState, Chunk, LabelCheckConfig, Pipeline, Stage
from claimforge.records import Example, Label, MCQItem, Reject
from claimforge.registry import registry
from claimforge.types import QA2DRequest, QA2DResult
from claimforge.verify.label_check import judge

METHOD = "multi2claim"


class Multi2ClaimConfig(LabelCheckConfig):
    reader: dict[str, Any] | None = None
    qa2d: dict[str, Any] = {"name": "rules"}
    # The emit-time check of every claim (generate/claim_check.py): one that fails is a ``not_wellformed``
    # reject, never a row; None turns it off.
    claim_check: dict[str, Any] | None = {"name": "wellformed"}
    embedder: dict[str, Any] = {"name": "sentence-transformers"}
    min_evidence_words: int = 50
    # Input far beyond any real exam question is a reject, not a 5,000-word claim; the real sets stay well
    # under these (SciQ: questions ≤ 68 words, support ≤ 560; Medbullets: ≤ 244 / ≤ 756; MedMCQA: ≤ 88 / ≤ 695).
    max_question_words: int = Field(400, ge=1)
    max_evidence_words: int = Field(1500, ge=1)
    max_claim_words: int = Field(300, ge=1)
    single_answer: bool = True
    unique_evidence: Literal["keep_first", "drop_all", "allow"] = "keep_first"
    # A distractor that means the same as the answer ("twice a year" / "2 times a year", "nuclear" / "atomic
    # fusion") makes a REFUTED claim that is true. Distractors at least ``synonym_cosine`` similar to the answer
    # (embedding; antonyms are just as similar) are judged: if the answer's claim entails the distractor's with
    # P(entailment) ≥ ``synonym_entailment`` the distractor is skipped for the next. synonym_cosine=1 turns it off.
    synonym_cosine: float = Field(0.8, ge=0, le=1)
    synonym_entailment: float = Field(0.5, ge=0, le=1)
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


class Multi2ClaimPrefilter:
    """The paper's filters, in input order: unusable questions (step 1), then explanations shared with an
    earlier question (step 2, or every sharer with ``unique_evidence: drop_all``)."""

    def __init__(self, config: Multi2ClaimConfig) -> None:
        self.config = config
        self._ids: set[str] = set()
        self._count: Counter[str] = Counter()
        self._observed_ids: set[str] = set()
        self._first: dict[str, str] = {}

    def _problem(self, item: MCQItem, ids: set[str]) -> tuple[str, str]:
        reason, detail = _item_problem(self.config, item)
        if item.id in ids:
            reason, detail = "duplicate_item_id", "an earlier item has the same id"
        ids.add(item.id)
        return reason, detail

    def observe(self, item: MCQItem) -> None:
        if self.config.unique_evidence == "drop_all" and not self._problem(item, self._observed_ids)[0]:
            self._count[_evidence_key(item.explanation or "")] += 1

    def check(self, item: MCQItem) -> tuple[int, str, str] | None:
        reason, detail = self._problem(item, self._ids)
        if reason:
            return 1, reason, detail
        key = _evidence_key(item.explanation or "")
        mode = self.config.unique_evidence
        if mode == "drop_all" and self._count[key] > 1:
            return 2, "duplicate_evidence", f"{self._count[key]} items share this explanation"
        if mode == "keep_first" and key in self._first:
            return 2, "duplicate_evidence", f"same explanation as {self._first[key]}"
        self._first.setdefault(key, item.id)
        return None


def _item_problem(cfg: Multi2ClaimConfig, item: MCQItem) -> tuple[str, str]:
    if not item.question.strip():
        return "empty_question", ""
    n_question = word_count(item.question)
    if n_question > cfg.max_question_words:
        return "question_too_long", f"{n_question} words > max_question_words={cfg.max_question_words}"
    if item.answer is None or not item.answer.strip():
        return "no_answer", "no keyed answer" if item.answer_index is None else "empty answer option"
    # (a keyed "all of the above" is marked "multi" in MedMCQA, and rightly: every option is true, so it makes no
    # REFUTED claim and the filter's reason, a distractor that is also correct, does not apply)
    multi = str(item.meta.get("choice_type", "single")).lower() == "multi"
    if cfg.single_answer and multi and not _all_of_the_above(item.answer):
        return "multiple_correct_options", "choice_type=multi"
    if _refers_to_options(item.answer) and not true_options(item):
        return "answer_refers_to_options", item.answer
    if not _distractors(item) and not _all_of_the_above(item.answer):
        return "no_distractors", f"{len(item.options)} options"
    if not item.explanation or not item.explanation.strip():
        return "no_explanation", ""
    n = word_count(item.explanation)
    if n < cfg.min_evidence_words:
        return "short_evidence", f"{n} words < {cfg.min_evidence_words}"
    if n > cfg.max_evidence_words:
        return "evidence_too_long", f"{n} words > max_evidence_words={cfg.max_evidence_words}"
    return "", ""


class Multi2Claim(Pipeline):
    """The Multi2Claim pipeline: filters; distractors ranked by embedding; QA2D claims (SUPPORTED and
    REFUTED); explanation embeddings; NOT_ENOUGH_INFO pairing (global); label selection (global)."""

    method = METHOD
    item_type = MCQItem
    component_kinds = {"qa2d": "qa2d", "claim_check": "claim_check", "embedder": "embedder", "judge": "nli"}
    prefilter_fields = (
        "min_evidence_words",
        "max_question_words",
        "max_evidence_words",
        "single_answer",
        "unique_evidence",
    )
    config: Multi2ClaimConfig

    @property
    def qa2d(self) -> Any:
        return self.component("qa2d")

    @property
    def embedder(self) -> Any:
        return self.component("embedder")

    def prefilter(self) -> Multi2ClaimPrefilter:
        return Multi2ClaimPrefilter(self.config)

    def stages(self) -> list[Stage]:
        return [
            Stage(
                "embed options",
                "map",
                self._closest_distractors,
                ("item",),
                ("option", "distractors"),
                ("embedder",),
                version="2",  # 2: the option the true claim states (a keyed "all of the above" -> a true option)
            ),
            Stage(
                "qa2d",
                "map",
                self._claims,
                ("item", "option", "distractors"),
                ("supported",),
                ("qa2d", "claim_check", "max_claim_words", "synonym_cosine", "synonym_entailment", "judge"),
                # 3: the claim check rejects a lone subordinate clause; 4: QA2D gaps after "be"; 5: the one sentence
                # splitter finds a vignette's figure sentences; 6: the claim check wellformed-v3; 7: wellformed-v4;
                # 8: QA2D rules-v4 ("What do you call X?" -> "X is called ANSWER", articles for multi-word answers,
                # nominal predicates before a stranded preposition); 9: the rest of rules-v4 ("is called" blanks,
                # definitions term first, "do what" + a verb), no capital on a function word from the explanation;
                # 10: "What is the term for X?" -> "X is called ANSWER"; 11: title-case options lowered when they are
                # common words ("Malaria"), no article before mass nouns of any length; 12: "has" + a participle that
                # modifies a noun is the main verb; 13: QA2D rules-v5 (articles by the noun's countability); 14: names
                # cased, one preposition, superlatives term first, "X called that ..." -> "X that ... is called";
                # 15: rules-v6 and v7: a passive inside the subject is not the question's verb, a doubled auxiliary said
                # once, where / when / "in what kind of N" left in place at the end answered there; wellformed-v5;
                # 16: rules-v8: an answer the tagger does not read as a noun alone ("atom") still gets its article;
                # 17: rules-v9: "what else" without "else", articles for an adjective answer with its kept noun, no
                # "a" before a plural answer, the answer's own preposition after a fronted one; 18: rules-v10: the
                # question's lower-cased names and acronyms cased ("dna" -> "DNA", "krebs cycle" -> "Krebs cycle");
                # 19: rules-v11: "What does X do (to Y)?" + a verb phrase -> "X VERBs (Y)"; 20: rules-v12: an article
                # may follow "of" unless a classifier or measure precedes it ("a tumor of the pituitary gland"); 21:
                # rules-v13 (review fixes: raising verbs, "do to" objects, partitives, plural heads before "of"); 22:
                # rules-v14 (no article before a substance the countability test is unsure of: "Keratin fills ...");
                # 23: rules-v15 (in-situ "do what to Y" folds Y like the fronted form: "speed the reaction up"); 24:
                # rules-v16 (copular questions with a stranded preposition: "The Kuiper belt is closest to Mars"; "do"
                # as the asked verb: "Two nuclei must collide"; an opening phrase without its comma; no exception
                # reading with two negations; typographic apostrophes) and a capital after an inner full stop before a
                # comma (". However,"); 25: rules-v17 (a kept asked noun decides the verb's number: "The term
                # ribosomes is used", "Fossil fuels include"); 26: rules-v18 ("Where in the cell does X occur" -> "In
                # the cell, X occurs in ANSWER"; "has" + a passive in a relative clause is no perfect; "does X takes");
                # 27: rules-v19 (a "do" left by a removed "not" is dropped: "Fermentation uses oxygen"; participles
                # inside the asked noun: "What light-producing process"; "What type of young do scorpions produce");
                # 28: rules-v20 ("(all of) the following N" as the blank in place; a list answer is plural);
                # 29: rules-v21 (every "a"/"an" agrees with the next word by sound: "an articulation", "an RNA");
                # 30: rules-v22 (the answer before a relative clause on it: "Some plants produce fruit that protects");
                # 31: rules-v23 ("Approximately how many weeks ..."; "What is measured using ..." has the wh-word as
                # its subject); 32: rules-v25 (an instruction tagged as a noun still becomes a gerund subject; fixes
                # from the session-36 review: "following" as a preposition, "did not", purpose infinitives, "T cells");
                # 33: rules-v26 (object relative clauses: "Every star emits radiation that humans cannot see");
                # 34: rules-v27 (how-many quantities keep the asked noun, "one" makes it singular: "One star is ...");
                # 35: rules-v28 (existential "there": "There are about 14 million thunderstorms each year worldwide");
                # 36: rules-v29 ("What happens to X?" + a verb: "An animal's telomeres shorten as it ages");
                # 37: rules-v30 ("How does X change ...?" likewise; "for what purpose" + "to synthesize" without "for");
                # 38: rules-v31 ("What is the fracture called when ...?" -> "The fracture is called a fault when ...");
                # 39: rules-v32 (review fixes: "Old oceanic crust is created", "doubles" as a verb); 40: rules-v33
                # (MedMCQA stems: exam tags, "All the following N", verbs read as nouns, predicate answers, openers);
                # 41: rules-v34 ("WHO", "any" after a removed "not", "used for" + "to ..."); 42: rules-v35 (articles:
                # "A sphygmomanometer is used", "The thermosphere is above", "called a groin"); 43: rules-v36
                # (alternative questions: "Darwin believed in gradualism"; "Mathematics is"); 44: rules-v37
                # (coordinated verbs agree, "Why doesn't X ...", "What objects are made ..."); 45: rules-v38 (articles
                # after the paired reading: "Delayed reaction is a feature of anaphylaxis"), the claim check
                # wellformed-v7 ("Late ejection systolic click is seen in severe AS" passes); 46: rules-v39 ("What
                # happens when/if ...?": "If a catalyst runs out, the reaction slows"); 47: rules-v40 (review fixes);
                # 48: rules-v41 ("Fiber helps keep"); 49: wellformed-v8 ("such as and ..." is a broken list);
                # 50: wellformed-v9 (no SciQ or MedMCQA conversion changes); 51: rules-v42 (MedMCQA stems: dashes as
                # blanks, exam lists, "most likely:", "This is because", a telegraphic last sentence after context),
                # a keyed "all of the above" states one true option (no REFUTED claim: ``all_options_true``), the
                # claim check wellformed-v10 (a "Not" left before its verb: "Not should be used in ..."); 52:
                # wellformed-v11 (a verb the tagger calls a plural noun: "The maxillary sinus drains into ..."; a
                # truth stem left in the claim; an answer with no subject); 53: rules-v43 (truth stems name their topic)
                # 54: rules-v44 (noun-phrase answers to truth stems, "X has the following function" + a predicate,
                # "Which of the following ... except" asked once); 55: rules-v45 (a verb made plural for a clearly
                # plural subject: "Topical steroids are ..."), wellformed-v12 (no unknown-word penalty in the LM score)
                # 56: rules-v46 (telegraphic participles get their copula, relative clauses in noun-phrase stems),
                # wellformed-v13; 57: rules-v47 (a plural answer in place of an asked noun the parse left out: "at
                # which gas molecules move"; a verb inside the sentence agrees with the answer; a "what" ending the
                # question is the one it asks), wellformed-v14 (a "what" ending the claim is a question left)
                version="57",
            ),
            Stage(
                "embed explanations",
                "map",
                self._embed_explanations,
                ("item", "supported"),
                ("nei_vector",),
                ("embedder",),
            ),
            Stage(
                "pair NEI evidence",
                "global",
                self._nei,
                ("item", "supported", "nei_vector"),
                config=("nei_top_k", "nei_answer_match"),
            ),
            self.label_check_stage(self.config.labels),
            self.select_stage(self.config.labels),
        ]

    def _closest_distractors(self, chunk: Chunk) -> None:
        """The option each item's true claim states (:func:`keyed_option`) and its distractors, most similar to
        that option first (cosine of embeddings)."""
        units = chunk.live()
        texts: list[str] = []
        for u in units:
            u.data["option"] = keyed_option(u.item)
            texts.append(u.data["option"])
            texts.extend(_distractors(u.item))
        vecs = self.embedder.embed(texts)
        i = 0
        for u in units:
            ds = _distractors(u.item)
            sims = vecs[i + 1 : i + 1 + len(ds)] @ vecs[i]
            i += 1 + len(ds)
            order = np.argsort(-sims, kind="stable")
            u.data["distractors"] = [(ds[j], float(sims[j])) for j in order]

    def _claims(self, chunk: Chunk) -> None:
        """The SUPPORTED and REFUTED claims of each item. For inverted stems (EXCEPT/NOT) the roles swap:
        the keyed answer makes the false claim and the closest distractor the true one."""
        units = chunk.live()
        per_unit = self._option_claims(units)
        for u, (res_answer, res_ds) in zip(units, per_unit, strict=True):
            item = u.item
            ds = u.data["distractors"]
            sup, ref, why = self._roles(item, u.data["option"], ds, res_answer, res_ds)
            if sup is None:
                reason = (why and why.reason) or "qa2d_failed"
                chunk.reject(
                    u, "qa2d", reason, "; ".join(x for x in ((why.detail if why else ""), item.question[:200]) if x)
                )
                continue
            u.data["supported"] = sup
            chunk.examples.append(self._example(item, Label.SUPPORTED, _text(sup), item, sup.details))
            if ref is None:
                chunk.add_reject(
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
                chunk.examples.append(self._example(item, Label.REFUTED, _text(ref), item, ref.details))

    def _option_claims(self, units: list[Any]) -> list[tuple[QA2DResult, list[QA2DResult]]]:
        """Each item's answer claim and its distractors' claims, closest distractor first, up to the first that
        makes a claim: converted, checked (length, emit-time check) and not a synonym of the answer. Lazily, in
        rounds: the answers and every item's next distractor, so the distractors after the first good one are
        never converted, parsed or judged (the result is the same as converting them all)."""
        answers = self._converted(
            [QA2DRequest(question=u.item.question, answer=u.data["option"]) for u in units],
            [u.item.explanation or "" for u in units],
        )
        per_unit: list[tuple[QA2DResult, list[QA2DResult]]] = [(a, []) for a in answers]
        open_ = [k for k, a in enumerate(answers) if a.text and units[k].data["distractors"]]
        while open_:
            nxt = [units[k].data["distractors"][len(per_unit[k][1])] for k in open_]  # (distractor, cosine)
            reqs = [
                QA2DRequest(question=units[k].item.question, answer=d) for k, (d, _) in zip(open_, nxt, strict=True)
            ]
            results = self._skip_synonyms(
                [per_unit[k][0] for k in open_],
                [cos for _, cos in nxt],
                self._converted(reqs, [units[k].item.explanation or "" for k in open_]),
            )
            still = []
            for k, r in zip(open_, results, strict=True):
                per_unit[k][1].append(r)
                if not r.text and len(per_unit[k][1]) < len(units[k].data["distractors"]):
                    still.append(k)
            open_ = still
        return per_unit

    def _converted(self, reqs: list[QA2DRequest], sources: list[str]) -> list[QA2DResult]:
        """QA2D of each request, cased like its source text (the item's explanation), through the length limit
        and the emit-time check."""
        results = [
            r.model_copy(update={"text": restore_case(r.text, src)}) if r.text else r
            for r, src in zip(self.qa2d.convert(reqs), sources, strict=True)
        ]
        return self._wellformed([self._length_checked(r) for r in results])

    def uses(self, name: str) -> bool:
        return super().uses(name) or (name == "judge" and self.config.synonym_cosine < 1)

    def _skip_synonyms(
        self, answers: list[QA2DResult], cosines: list[float], results: list[QA2DResult]
    ) -> list[QA2DResult]:
        """The claims of distractors that mean the same as the answer become ``distractor_synonym`` results: a
        distractor at least ``synonym_cosine`` similar to the answer whose claim the answer's claim entails
        (P(entailment) ≥ ``synonym_entailment``)."""
        cfg = self.config
        if cfg.synonym_cosine >= 1 or self.component("judge") is None:
            return results
        todo = [
            i for i, (r, cos) in enumerate(zip(results, cosines, strict=True)) if r.text and cos >= cfg.synonym_cosine
        ]
        if not todo:
            return results
        probs = judge(
            self.component("judge"), [results[i].text or "" for i in todo], [(answers[i].text or "",) for i in todo]
        )
        out = list(results)
        for i, p in zip(todo, probs, strict=True):
            if float(p[0]) >= cfg.synonym_entailment:
                detail = f"P(entailment) {float(p[0]):.2f} from the answer's claim: {results[i].text}"
                out[i] = QA2DResult(text=None, reason="distractor_synonym", detail=detail)
        return out

    @staticmethod
    def _roles(
        item: MCQItem,
        option: str,
        ds: list[tuple[str, float]],
        res_answer: QA2DResult,
        res_ds: Sequence[QA2DResult],
    ) -> tuple[OptionClaim | None, OptionClaim | None, QA2DResult | None]:
        if not res_answer.text:
            return None, None, res_answer
        answer = OptionClaim(option, "answer", 1.0, res_answer)
        ok = [OptionClaim(d, "distractor", s, r) for (d, s), r in zip(ds[: len(res_ds)], res_ds, strict=True) if r.text]
        if res_answer.polarity == "inverted":
            if not ok:
                return None, None, QA2DResult(text=None, reason="inverted_stem_without_convertible_distractor")
            return ok[0], answer, None
        if res_ds:
            why = None if ok else res_ds[0]
        elif option != item.answer:  # a keyed "all of the above": no option is false
            why = QA2DResult(text=None, reason="all_options_true", detail=f"the keyed answer is {item.answer!r}")
        else:
            why = QA2DResult(text=None, reason="no_distractors")
        return answer, ok[0] if ok else None, why

    def _length_checked(self, result: QA2DResult) -> QA2DResult:
        n = word_count(result.text or "")
        if n > self.config.max_claim_words:
            detail = f"{n} words > max_claim_words={self.config.max_claim_words}"
            return QA2DResult(text=None, reason="claim_too_long", detail=detail)
        return result

    def _wellformed(self, results: list[QA2DResult]) -> list[QA2DResult]:
        """Each produced claim through the emit-time check; a failing one becomes a ``not_wellformed`` result."""
        produced = [i for i, r in enumerate(results) if r.text]
        reasons = self.claim_check_reasons([results[i].text or "" for i in produced])
        out = list(results)
        for i, why in zip(produced, reasons, strict=True):
            if why:
                detail = f"{'; '.join(why)} :: {results[i].text}"
                out[i] = QA2DResult(text=None, reason="not_wellformed", detail=detail)
        return out

    def _embed_explanations(self, chunk: Chunk) -> None:
        units = [u for u in chunk.live() if "supported" in u.data]
        vecs = self.embedder.embed([f"{u.data['supported'].option} {u.item.explanation}" for u in units])
        for u, v in zip(units, vecs, strict=True):
            u.data["nei_vector"] = v

    def _nei(self, state: BuildState) -> None:
        """Pair each supported claim with the most similar other explanation that does not mention the option
        the claim states (the keyed answer, or for inverted stems the distractor the claim was made from)."""
        units = [u for u in state.units if u.rejected is None and "supported" in u.data]
        supported: list[tuple[MCQItem, OptionClaim]] = [(u.item, u.data["supported"]) for u in units]
        if len(supported) < 2:
            state.rejects.extend(
                Reject(item_id=it.id, scope="example", stage="nei", reason="too_few_items", ref=it.ref)
                for it, _ in supported
            )
            return
        vecs = np.stack([u.data["nei_vector"] for u in units])
        hay = [content_lemmas(it.explanation or "") for it, _ in supported]
        doc_key = [_evidence_key(it.explanation or "") for it, _ in supported]
        k = min(self.config.nei_top_k, len(supported) - 1)
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
                    state.rejects.append(
                        Reject(item_id=item.id, scope="example", stage="nei", reason=why, detail=f"k={k}", ref=item.ref)
                    )
                    continue
                j, rank, cos = chosen
                other = supported[j][0]
                details = {**claim.details, "evidence_rank": rank, "evidence_cosine": round(cos, 6)}
                state.examples.append(self._example(item, Label.NOT_ENOUGH_INFO, _text(claim), other, details))

    def _mentions(self, hay: Sequence[str], needle: Sequence[str]) -> bool:
        if contains_content(hay, needle):
            return True
        return self.config.nei_answer_match == "head" and len(needle) > 1 and needle[-1] in hay

    def _example(
        self, item: MCQItem, label: Label, claim: str, evidence_item: MCQItem, details: dict[str, Any]
    ) -> Example:
        return self.make_example(
            item,
            label,
            claim,
            evidence_item.explanation or "",
            f"{evidence_item.id}:explanation",
            {"question": item.question, "answer": item.answer, **details},
        )


# Options that only point at other options ("all of the above", "both a and c", "1 and 2", "A only"): no claim can be
# made of them. "ALL" in capitals is acute lymphoblastic leukaemia, an answer like any other.
_REFERENCE_TAIL = r"(\s+of)?(\s+the)?(\s+(above|these|them|options|following))?"
_LABEL = r"([a-e]|[1-5]|i{1,3}|iv|v)"
_OPTION_REF = re.compile(
    rf"^\s*((all|none|both|either|neither){_REFERENCE_TAIL}"
    rf"|(both\s+)?{_LABEL}(\s*(,|and|&)\s*{_LABEL})+|[a-e]\s+only)\s*[.]?\s*$",
    re.I,
)
# A keyed "all of the above" makes every option that is no such reference true.
_ALL_OPTIONS = re.compile(rf"^\s*all{_REFERENCE_TAIL}\s*[.]?\s*$", re.I)


def _refers_to_options(option: str) -> bool:
    return bool(_OPTION_REF.match(option)) and option.strip(" .") != "ALL"


def _all_of_the_above(option: str) -> bool:
    return bool(_ALL_OPTIONS.match(option)) and option.strip(" .") != "ALL"


def true_options(item: MCQItem) -> list[str]:
    """The options the key makes true: the keyed answer, or for a keyed "all of the above" every option that does
    not itself point at other options, in option order (none for "none of the above", "both a and c")."""
    answer = item.answer or ""
    if not _refers_to_options(answer):
        return [answer] if answer.strip() else []
    if not _all_of_the_above(answer):
        return []
    return [
        o.strip()
        for i, o in enumerate(item.options)
        if i != item.answer_index and o.strip() and not _refers_to_options(o)
    ]


def keyed_option(item: MCQItem) -> str:
    """The option an item's SUPPORTED claim states: the keyed answer, or for a keyed "all of the above" the true
    option whose content words the explanation covers best (the first on a tie), so that the claim's evidence is
    most likely to state it ("" when no option is true)."""
    options = true_options(item)
    if len(options) < 2:
        return options[0] if options else ""
    hay = set(content_lemmas(item.explanation or ""))

    def covered(option: str) -> float:
        words = content_lemmas(option)
        return sum(w in hay for w in words) / len(words) if words else 0.0

    return max(options, key=covered)  # max keeps the first of equal ones


def _text(claim: OptionClaim) -> str:
    return claim.result.text or ""


def _distractors(item: MCQItem) -> list[str]:
    """Distinct non-empty distractors that differ from the answer (case-insensitive) and do not merely
    point at other options; none when the key is "all of the above" (every option is true)."""
    if _all_of_the_above(item.answer or ""):
        return []
    ans = (item.answer or "").strip().lower()
    seen: set[str] = set()
    out: list[str] = []
    for d in item.distractors:
        key = d.strip().lower()
        if key and key != ans and key not in seen and not _refers_to_options(d):
            seen.add(key)
            out.append(d.strip())
    return out


def _evidence_key(text: str) -> str:
    return " ".join(text.lower().split())


@registry.register("pipeline", METHOD, Multi2ClaimConfig)
def build_multi2claim(config: Multi2ClaimConfig) -> Multi2Claim:
    """Multiple-choice questions -> three-label fact-checking dataset (Multi2Claim)."""
    return Multi2Claim(config)
