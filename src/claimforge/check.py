"""``claimforge check``: is this claim supported by this evidence (or by what a corpus holds), and why?

A claim is checked against evidence sentences given with it, or retrieved first from a corpus (the retrieval
registry: BM25, dense or hybrid over sentences, passages or documents). The verdict is the verifier's on the
claim and all its evidence, exactly what ``claimforge evaluate`` predicts for the same pair; the explanation is
each evidence sentence scored alone by the same verifier, the ones that carry the verdict first.

Any verifier: a registry name (``zero-shot-nli``, the default, reads the embedded judge; ``llm-judge``) or a
saved model / run directory from ``claimforge train``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from claimforge.io.rows import InputError, read_text
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Label, Pair
from claimforge.registry import registry

MAX_CLAIM_CHARS = 2000
# An aspect decides a REFUTED or NOT_ENOUGH_INFO verdict when taking it out of the claim moves the claim towards
# SUPPORTED by this much (``AspectVerdict.change``), clearly more than any other aspect, and the claim without it
# no longer gets that verdict. Set a priori, not tuned.
ASPECT_CHANGE = 0.2


@dataclass
class CheckItem:
    """One claim to check, with its own evidence sentences (empty: retrieve them from the corpus)."""

    id: str
    claim: str
    evidence: tuple[str, ...] = ()
    where: str = ""  # "file:line" of a batch input, for errors


@dataclass
class EvidenceScore:
    text: str
    probabilities: dict[str, float]  # the verifier on the claim and this sentence alone
    supports_verdict: bool  # this sentence alone gives the claim's verdict
    doc_id: str | None = None  # retrieved evidence: where it came from
    retrieval_score: float | None = None


@dataclass
class AspectVerdict:
    """One 5W aspect of the claim and what taking it out of the claim does to the verdict."""

    kind: str  # who / what / when / where / why
    role: str
    text: str
    start: int  # character offsets of ``text`` in the claim
    end: int
    question: str
    claim_without: str
    probabilities_without: dict[str, float]
    change: float  # without it: P(SUPPORTED) gained + (REFUTED verdicts) P(REFUTED) lost
    status: str  # supported / refuted / not enough info (the one deciding aspect) / not decisive
    # QA validation (with a reader): the evidence's answer to ``question`` and whether it agrees with ``text``
    answer: str = ""
    answer_score: float = 0.0
    answer_sentence: str = ""
    answer_match: float = 0.0  # token F1 of the evidence's answer against the claim's span
    qa_status: str = ""  # supported / refuted / not enough info ("" without a reader)


@dataclass
class CheckResult:
    id: str
    claim: str
    label: str
    probabilities: dict[str, float]  # the verifier on the claim and all its evidence
    evidence: list[EvidenceScore] = field(default_factory=list)  # the verdict's sentences first
    retrieved: bool = False
    model: str = ""
    aspects: list[AspectVerdict] = field(default_factory=list)
    explanation: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def evidence_from_argument(value: str) -> tuple[str, ...]:
    """``--evidence``: a file (plain text, or a JATS article) when one exists at that path, else the text itself;
    split into sentences."""
    path = Path(value)
    text = value
    try:
        is_file = len(value) < 4096 and path.is_file()
    except OSError:
        is_file = False
    if not is_file and _looks_like_path(value):
        raise InputError(path, None, "no such file (give the evidence text itself, or an existing file)")
    if is_file:
        if path.suffix.lower() in (".xml", ".nxml"):
            from claimforge.io.papers.jats import jats_document

            sentences = jats_document(path.read_bytes(), path.stem, str(path)).sentences
            if not sentences:
                raise InputError(path, None, "the article has no text")
            return tuple(sentences)
        text = read_text(path)
        if not text.strip():
            raise InputError(path, None, "the evidence file is empty")
    sentences = tuple(split_sentences(text))
    if not sentences:
        raise ValueError("the evidence is empty")
    return sentences


_EVIDENCE_SUFFIXES = (".txt", ".md", ".xml", ".nxml", ".json", ".jsonl", ".text")


def _looks_like_path(value: str) -> bool:
    """One word that ends like a file or holds a path separator: "abstract.txt", "papers/x" (a mistyped path
    must not become the evidence text)."""
    v = value.strip()
    return bool(v) and not any(c.isspace() for c in v) and (v.lower().endswith(_EVIDENCE_SUFFIXES) or "/" in v)


def _clean_claim(claim: Any, where: str) -> str:
    if not isinstance(claim, str) or not claim.strip():
        raise ValueError(f"{where}: the claim is empty" if where else "the claim is empty")
    claim = " ".join(claim.split())
    if len(claim) > MAX_CLAIM_CHARS:
        raise ValueError(f"{where or 'claim'}: longer than {MAX_CLAIM_CHARS} characters; is it a claim?")
    return claim


def claim_item(claim: str, evidence: Sequence[str] = (), item_id: str = "claim") -> CheckItem:
    return CheckItem(id=item_id, claim=_clean_claim(claim, ""), evidence=tuple(evidence))


def read_items(path: Path) -> Iterator[CheckItem]:
    """Claims of a batch: JSON lines ``{"claim": ..., "id"?: ..., "evidence"?: text or [sentences]}`` (``.jsonl``,
    ``.json`` as one list), or plain text with one claim per line. A bad record is an error naming the file and
    line."""
    if not path.is_file():
        raise InputError(path, None, "no such file")
    text = read_text(path)
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        rows: list[tuple[int, Any]] = []
        if path.suffix.lower() == ".json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as e:
                raise InputError(path, f"line {e.lineno}", f"not valid JSON ({e.msg})") from None
            if not isinstance(data, list):
                raise InputError(path, None, "expected a list of claim records")
            rows = [(n, row) for n, row in enumerate(data, 1)]
        else:
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    try:
                        rows.append((n, json.loads(line)))
                    except json.JSONDecodeError as e:
                        raise InputError(path, f"line {n}", f"not valid JSON ({e.msg})") from None
        unit = "record" if path.suffix.lower() == ".json" else "line"  # a JSON list's items have no own lines
        seen: set[str] = set()
        for n, row in rows:
            at = f"{unit} {n}"
            if not isinstance(row, dict) or "claim" not in row:
                raise InputError(path, at, 'expected an object with a "claim" field')
            evidence = row.get("evidence")
            if evidence is None:
                evidence = []
            elif isinstance(evidence, str):
                evidence = split_sentences(evidence)
            elif isinstance(evidence, list) and all(isinstance(x, str) for x in evidence):
                evidence = [" ".join(x.split()) for x in evidence if x.strip()]
                if not evidence and row["evidence"]:
                    raise InputError(path, at, '"evidence" holds only empty sentences')
            else:
                raise InputError(path, at, '"evidence" must be a text or a list of sentences')
            try:
                claim = _clean_claim(row["claim"], "")
            except ValueError as e:
                raise InputError(path, at, str(e)) from None
            item_id = str(row["id"]) if row.get("id") is not None else str(n)
            if item_id in seen:
                raise InputError(path, at, f"id {item_id!r} was given to an earlier claim too")
            seen.add(item_id)
            yield CheckItem(id=item_id, claim=claim, evidence=tuple(evidence), where=f"{path}, {at}")
        return
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield CheckItem(id=str(n), claim=_clean_claim(line, f"{path}, line {n}"), where=f"{path}, line {n}")


def load_check_verifier(model: str, overrides: dict[str, Any] | None = None, num_labels: int = 3) -> Any:
    """A registry name (with ``overrides``) or the path of a saved model / ``claimforge train`` run."""
    from claimforge.verify.base import load_verifier

    path = Path(model)
    if path.is_dir():
        if overrides:
            raise ValueError(f"--set model.* applies to a verifier by name, not to the saved model {model}")
        return load_verifier(path / "best" if (path / "best").is_dir() else path)
    names = registry.names("verifier")
    if model not in names:
        raise ValueError(f"--model {model!r} is neither a saved model folder nor a verifier ({', '.join(names)})")
    return registry.build("verifier", {"num_labels": num_labels, **(overrides or {}), "name": model})


def build_checker(
    model: str = "zero-shot-nli",
    overrides: dict[str, Any] | None = None,
    aspects: bool = True,
    qa: str = "embedded",
    documents: Sequence[Any] | None = None,
    retriever: str = "bm25",
    k: int = 5,
    unit: str = "sentence",
    verifier: Any = None,
) -> Checker:
    """The checker ``claimforge check`` and the review server's ``POST /check`` use: the verifier (a name with
    ``overrides``, or a saved model), a retriever over ``documents`` when given, the parser for the 5W aspects
    (``aspects``) and the reader that answers their questions (``qa``: embedded, none, or a QA model's path / HF
    name). Loads the models; ``verifier``: one already loaded (then ``model`` and ``overrides`` are not used)."""
    if verifier is None:
        verifier = load_check_verifier(model, overrides)
    ret = corpus_retriever(documents, {"name": retriever}) if documents is not None else None
    nlp = registry.build("nlp", {"name": "spacy"}) if aspects else None
    reader = None
    if aspects and qa != "none":
        reader = registry.build("qa", {"name": "embedded"} if qa == "embedded" else {"name": "hf", "model": qa})
    return Checker(verifier, ret, k=k, unit=unit, nlp=nlp, qa=reader)


class Checker:
    """Checks claims with one verifier, loaded once; with a corpus, retrieves each claim's evidence first."""

    def __init__(
        self,
        verifier: Any,
        retriever: Any = None,
        k: int = 5,
        unit: str = "sentence",
        nlp: Any = None,
        qa: Any = None,
        judge: Any = None,
        questioner: Any = None,
    ) -> None:
        """``nlp``: a parser (the ``nlp`` registry) for the 5W aspects; None: no aspect table. ``qa``: an extractive
        reader (the ``qa`` registry) that answers each aspect's question from the evidence, ``judge`` the NLI
        model that compares differing answers (default: the verifier), ``questioner`` what asks (default: the
        aspects' template questions)."""
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        self.verifier = verifier
        self.retriever = retriever
        self.k = k
        self.unit = unit
        self.nlp = nlp
        self.qa = qa
        if qa is not None and judge is None and len(verifier.labels) != 3:  # differing answers need a 3-way judge
            judge = registry.build("nli", {"name": "embedded"})
        self.judge = judge
        self.questioner = questioner

    def check(self, items: Sequence[CheckItem], progress: Any = None) -> list[CheckResult]:
        items = list(items)
        missing = [it for it in items if not it.evidence]
        if missing and self.retriever is None:
            where = missing[0].where or "the claim"
            raise ValueError(f"{where}: no evidence given and no --corpus to retrieve it from")
        hits: dict[int, list[Any]] = {}
        if missing:
            found = self.retriever.search([it.claim for it in missing], self.k, unit=self.unit)
            for it, row in zip(missing, found, strict=True):
                hits[id(it)] = row
        pairs: list[Pair] = []
        sources: list[list[tuple[str, str | None, float | None]]] = []
        for it in items:
            src: list[tuple[str, str | None, float | None]]
            if it.evidence:
                src = [(s, None, None) for s in it.evidence]
            else:
                src = [(h.text, h.doc_id, round(h.score, 4)) for h in hits[id(it)]]
            sources.append(src)
            pairs.append(Pair(id=it.id, claim=it.claim, evidence=tuple(s for s, _, _ in src)))
        labels = [lab.value for lab in self.verifier.labels]
        # one verifier call: each claim with all its evidence, then each sentence alone (a one-sentence evidence's
        # "alone" score is its whole score, not computed twice)
        with_evidence = [p for p in pairs if p.evidence]
        alone_pairs = [
            Pair(id=f"{p.id}#{j}", claim=p.claim, evidence=(s,))
            for p in with_evidence
            if len(p.evidence) > 1
            for j, s in enumerate(p.evidence)
        ]
        scores = (
            self.verifier.predict_proba([*with_evidence, *alone_pairs], progress=progress) if with_evidence else None
        )
        whole = scores[: len(with_evidence)] if scores is not None else None
        alone_rows = iter(scores[len(with_evidence) :] if scores is not None else ())
        out: list[CheckResult] = []
        w = 0
        for it, pair, src in zip(items, pairs, sources, strict=True):
            if not pair.evidence:  # the corpus held nothing for it
                probs = {lab: (1.0 if lab == Label.NOT_ENOUGH_INFO.value else 0.0) for lab in labels}
                if Label.NOT_ENOUGH_INFO.value not in labels:
                    probs = {lab: (1.0 if lab == Label.REFUTED.value else 0.0) for lab in labels}
                verdict = max(probs, key=lambda k: probs[k])
                out.append(CheckResult(it.id, it.claim, verdict, probs, [], True, self.verifier.model_id))
                continue
            assert whole is not None
            row = whole[w]
            w += 1
            verdict = labels[int(row.argmax())]
            scored = []
            alone = [row] if len(src) == 1 else [next(alone_rows) for _ in src]
            for (text, doc_id, rscore), p in zip(src, alone, strict=True):
                scored.append(
                    EvidenceScore(
                        text=text,
                        probabilities={lab: round(float(x), 4) for lab, x in zip(labels, p, strict=True)},
                        supports_verdict=labels[int(p.argmax())] == verdict,
                        doc_id=doc_id,
                        retrieval_score=rscore,
                    )
                )
            if verdict != Label.NOT_ENOUGH_INFO.value:  # the sentences that carry the verdict first
                scored.sort(key=lambda e: -e.probabilities[verdict])
            out.append(
                CheckResult(
                    id=it.id,
                    claim=it.claim,
                    label=verdict,
                    probabilities={lab: round(float(x), 4) for lab, x in zip(labels, row, strict=True)},
                    evidence=scored,
                    retrieved=not it.evidence,
                    model=self.verifier.model_id,
                )
            )
        if self.nlp is not None:
            self._aspects([(r, p) for r, p in zip(out, pairs, strict=True) if r.evidence])
        for r in out:
            r.explanation = explain(r)
        return out

    def _aspects(self, checked: list[tuple[CheckResult, Pair]]) -> None:
        """Each result's 5W aspects, each scored by taking it out of the claim (same evidence, same verifier)."""
        from claimforge.nlp.aspects import aspects as claim_aspects

        if not checked:
            return
        docs = self.nlp.parse([r.claim for r, _ in checked])
        found = [claim_aspects(doc) for doc in docs]
        validated: list[list[Any]] = [[None] * len(own) for own in found]
        if self.qa is not None:
            from claimforge.verify.aspect_qa import validate_aspects

            validated = validate_aspects(
                [r.claim for r, _ in checked],
                found,
                [p.evidence for _, p in checked],
                self.qa,
                self.judge if self.judge is not None else self.verifier,
                questioner=self.questioner,
            )
        todo: list[tuple[CheckResult, Any, Pair, Any]] = []
        for (r, pair), own, answers in zip(checked, found, validated, strict=True):
            for a, qa_answer in zip(own, answers, strict=True):
                without = a.without(r.claim)
                if without != r.claim:
                    todo.append((r, a, Pair(id=f"{r.id}-{a.kind}", claim=without, evidence=pair.evidence), qa_answer))
        if not todo:
            return
        labels = [lab.value for lab in self.verifier.labels]
        probs = self.verifier.predict_proba([p for _, _, p, _ in todo])
        sup, ref = Label.SUPPORTED.value, Label.REFUTED.value
        for (r, a, pair, qa_answer), row in zip(todo, probs, strict=True):
            q = {lab: round(float(x), 4) for lab, x in zip(labels, row, strict=True)}
            # how far taking the aspect out moves the claim towards SUPPORTED: for REFUTED, the contradiction
            # that goes plus the support that comes (a vaguer claim loses its contradiction too, but only taking
            # out the false part makes the evidence support the rest); for NOT_ENOUGH_INFO, the support that comes
            change = q[sup] - r.probabilities[sup]
            if r.label == ref:
                change += r.probabilities[ref] - q.get(ref, 0.0)
            status = "supported" if r.label == sup else "not decisive"
            r.aspects.append(
                AspectVerdict(
                    kind=a.kind,
                    role=a.role,
                    text=a.text,
                    start=a.start,
                    end=a.end,
                    question=qa_answer.question if qa_answer is not None else a.question,
                    claim_without=pair.claim,
                    probabilities_without=q,
                    change=round(change, 4),
                    status=status,
                    **(_qa_fields(qa_answer) if qa_answer is not None else {}),
                )
            )
        for r, _ in checked:  # the one aspect that decides a REFUTED or NOT_ENOUGH_INFO verdict, if one does
            if r.label == sup or not r.aspects:
                continue
            # a REFUTED claim's false part: among the aspects whose answer the evidence contradicts, the one whose
            # removal moves the claim most; without such an answer, the occlusion rule below
            contradicted = [a for a in r.aspects if a.qa_status == "refuted"]
            if r.label == ref and contradicted:
                max(contradicted, key=lambda x: x.change).status = "refuted"
                continue
            ranked = sorted(r.aspects, key=lambda x: -x.change)
            top = ranked[0]
            flips = max(top.probabilities_without, key=lambda k: top.probabilities_without[k]) != r.label
            tie = len(ranked) > 1 and ranked[1].change >= top.change - 1e-3
            if top.change >= ASPECT_CHANGE and flips and not tie:
                top.status = "refuted" if r.label == ref else "not enough info"


def _qa_fields(v: Any) -> dict[str, Any]:
    """``AspectVerdict`` fields from a ``verify.aspect_qa.AspectAnswer``."""
    return {
        "answer": v.answer,
        "answer_score": round(v.answer_score, 4),
        "answer_sentence": v.sentence,
        "answer_match": v.match,
        "qa_status": v.status,
    }


def explain(r: CheckResult) -> str:
    """One sentence: the verdict, the aspect that decides it (if one does) and the evidence sentence that does."""
    p = r.probabilities[r.label]
    text = f"{r.label} ({p:.2f})"
    deciding = [a for a in r.aspects if a.status in ("refuted", "not enough info")]
    if deciding:
        a = max(deciding, key=lambda x: x.change)
        what = "false" if a.status == "refuted" else "not covered by the evidence"
        prob = Label.REFUTED.value if a.status == "refuted" else Label.SUPPORTED.value
        text += f": the claim's {a.kind}-aspect ({a.text!r}) is {what}"
        if a.qa_status == "refuted" and a.answer:
            text += f"; the evidence says {a.answer!r}"
        else:
            text += (
                f"; without it, P({prob}) goes from {r.probabilities[prob]:.2f} to {a.probabilities_without[prob]:.2f}"
            )
    elif r.label != Label.SUPPORTED.value and r.aspects:
        text += ": no single aspect decides it"
    best = next((e for e in r.evidence if e.supports_verdict), None)
    if best is not None and r.label != Label.NOT_ENOUGH_INFO.value:
        text += f". Evidence: {best.text!r}"
    return text


def corpus_retriever(documents: Sequence[Any], spec: dict[str, Any] | str, progress: Any = None) -> Any:
    """A retriever over ``documents`` (``backends.retrieval.read_corpus``); its index is built once and reused
    (keyed by the corpus' content)."""
    retriever = registry.build("retriever", spec)
    retriever.index(list(documents), progress=progress)
    return retriever
