"""Readers for the general-domain NLI / fact-verification sets the embedded NLI model is trained on
(VitaminC, FEVER-NLI, ANLI, SNLI via e-SNLI, NLI4CT, SICK), each yielding ``Pair`` records.

NLI premise = evidence, hypothesis = claim; entailment → SUPPORTED, contradiction → REFUTED,
neutral → NOT_ENOUGH_INFO; a binary "not entailment" allows REFUTED or NOT_ENOUGH_INFO.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable
from pathlib import Path

from claimforge.io.benchmarks import RecordError, label_key, parse_label_map
from claimforge.io.rows import InputError, iter_json_records
from claimforge.records import Label, Pair

# The project's one table of label spellings; a binary "not entailment" allows REFUTED or NOT_ENOUGH_INFO.
LABELS = parse_label_map({}, num_labels=3)


def _labels(raw: str, path: Path, line: int | None) -> tuple[Label, ...]:
    try:
        return LABELS[label_key(raw)]
    except KeyError:
        raise RecordError(path, line, f"unknown label {raw!r}") from None


def _detok(text: str) -> str:
    """Undo the PTB-style spacing of FEVER / e-SNLI text ("word ." → "word.")."""
    text = text.replace("-LRB-", "(").replace("-RRB-", ")")
    for a, b in ((" .", "."), (" ,", ","), (" 's", "'s"), (" n't", "n't"), ("( ", "("), (" )", ")"), (" ;", ";")):
        text = text.replace(a, b)
    return text.strip()


def claim_evidence_jsonl(name: str, path: Path) -> list[Pair]:
    """VitaminC / ANLI fact-verification JSONL: ``{claim, evidence, label}``."""
    out = []
    for rec in iter_json_records(path):
        n, row = rec.line, rec.data
        where = f"{path}:{n}"
        if row is None:
            raise RecordError(path, n, rec.error or "no data")
        try:
            claim, evidence, raw = row["claim"], row["evidence"], row["label"]
        except KeyError as e:
            raise RecordError(path, n, f"missing field {e.args[0]!r}") from None
        group = row.get("case_id") or n  # VitaminC's contrastive pairs share a case: keep them together
        out.append(
            Pair(
                id=f"{name}:{group}:{n}",
                claim=_detok(claim),
                evidence=(_detok(evidence),),
                labels=_labels(raw, path, n),
                source=where,
            )
        )
    return out


def line_aligned(name: str, claims: Path, evidence: Path, labels: Path) -> list[Pair]:
    """Three files with one claim / evidence / label per line (FEVER-NLI, e-SNLI)."""
    rows = [p.read_text(encoding="utf-8").splitlines() for p in (claims, evidence, labels)]
    if len({len(r) for r in rows}) != 1:
        raise InputError(
            labels,
            None,
            f"line counts of {claims.name}, {evidence.name}, {labels.name} differ ({[len(r) for r in rows]})",
        )
    return [
        Pair(
            id=f"{name}:{n}",
            claim=_detok(c),
            evidence=(_detok(e),),
            labels=_labels(lab, labels, n),
            source=f"{claims}:{n}",
        )
        for n, (c, e, lab) in enumerate(zip(*rows, strict=True), 1)
    ]


def nli4ct(name: str, path: Path, trials_dir: Path) -> list[Pair]:
    """NLI4CT statements against the evidence lines of the trial report section(s) they cite."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise RecordError(path, e.lineno, f"not valid JSON ({e.msg})") from None
    out = []
    for sid, row in data.items():
        try:
            evidence = _nli4ct_evidence(row, trials_dir)
            claim, raw = row["Statement"].strip(), row["Label"]
        except (KeyError, OSError, ValueError, IndexError, AttributeError) as e:
            raise RecordError(path, None, f"statement {sid}: {type(e).__name__}: {e}") from None
        out.append(
            Pair(
                id=f"{name}:{sid}",
                claim=claim,
                evidence=tuple(evidence),
                labels=_labels(raw, path, None),
                source=f"{path}:{sid}",
            )
        )
    return out


def _nli4ct_evidence(row: dict, trials_dir: Path) -> list[str]:
    evidence: list[str] = []
    for role in ("Primary", "Secondary"):
        trial = row.get(f"{role}_id")
        if not trial:
            continue
        report = json.loads((trials_dir / f"{trial}.json").read_text(encoding="utf-8"))
        lines = report[row["Section_id"]]
        # an index past the section's end is an error (IndexError), not a silently shorter evidence
        picked = [lines[i].strip() for i in row.get(f"{role}_evidence_index", range(len(lines)))]
        prefix = f"{role} trial: " if row.get("Type") == "Comparison" else ""
        evidence.extend(prefix + line for line in picked if line)
    return evidence


def sick(name: str, path: Path) -> list[Pair]:
    out = []
    with open(path, encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.DictReader(f, delimiter="\t"), 2):
            try:
                pair_id, claim, evidence, raw = (
                    row["pair_ID"],
                    row["sentence_B"],
                    row["sentence_A"],
                    row["entailment_judgment"],
                )
            except KeyError as e:
                raise RecordError(path, n, f"missing column {e.args[0]!r}") from None
            out.append(
                Pair(
                    id=f"{name}:{pair_id}",
                    claim=claim,
                    evidence=(evidence,),
                    labels=_labels(raw or "", path, n),
                    source=f"{path}:{n}",
                )
            )
    return out


def nli_sources(root: Path) -> dict[str, Callable[[], list[Pair]]]:
    """The NLI training sources under ``root`` (``../shared/data/nli``), by name, loaded lazily."""
    return {
        "vitaminc_real": lambda: claim_evidence_jsonl("vitaminc_real", root / "vitaminc_real/test.jsonl"),
        "vitaminc_synthetic": lambda: claim_evidence_jsonl(
            "vitaminc_synthetic", root / "vitaminc_synthetic/test.jsonl"
        ),
        "anli": lambda: claim_evidence_jsonl("anli", root / "anli/test.jsonl"),
        "fever_nli": lambda: line_aligned(
            "fever_nli", root / "fever_nli/claim.txt", root / "fever_nli/evidence.txt", root / "fever_nli/label.txt"
        ),
        "snli": lambda: [
            p
            for split in ("dev", "test")
            for p in line_aligned(
                f"snli_{split}", root / f"esnli/s2.{split}", root / f"esnli/s1.{split}", root / f"esnli/labels.{split}"
            )
        ],
        "nli4ct": lambda: [
            p
            for split in ("train", "dev")
            for p in nli4ct(f"nli4ct_{split}", root / f"nli4ct/{split}.json", root / "nli4ct/CT_json")
        ],
        "sick": lambda: sick("sick", root / "sick/SICK_semeval2014_format.txt"),
    }


# --- real scientific claim–evidence pairs that are not benchmarks ------------------------------------------


CI_MIN_WORDS = 4  # a Citation-Integrity citance with fewer words (of 2+ letters) is a fragment, not a claim


def citation_integrity(name: str, claims: Path, corpus: Path) -> list[Pair]:
    """Citation-Integrity citances against the cited paper's evidence sentences (the corpus record of the
    citance, up to 5 sentences). The citance's own sentence (markers stripped) is the claim; fragments of fewer
    than ``CI_MIN_WORDS`` words are left out. SUPPORT is
    SUPPORTED; REFUTE and NEI are "not supported" (REFUTED or NOT_ENOUGH_INFO): the dataset's NOT_ACCURATE
    citances mostly claim more than the cited paper shows, which is not a contradiction."""
    from claimforge.io.citations import split_citance
    from claimforge.io.sentences import load_corpus

    docs = load_corpus(corpus)
    out = []
    for rec in iter_json_records(claims):
        n, row = rec.line, rec.data
        if row is None:
            raise RecordError(claims, n, rec.error or "no data")
        try:
            cid, text, cited = row["id"], row["claim"], row["cited_doc_ids"]
            evidence_labels = [e["label"] for sets in row.get("evidence", {}).values() for e in sets]
        except (KeyError, TypeError) as e:
            raise RecordError(claims, n, f"missing field {e}") from None
        found = [docs[str(d)] for d in cited if str(d) in docs]
        if not found:
            raise RecordError(claims, n, f"cited documents {cited} are not in {corpus}")
        sentence = re.sub(r"^[^\w(\[]+", "", split_citance(text)[1])  # ", with …" / "), and …" left by a cut
        sentence = sentence[:1].upper() + sentence[1:]
        if len(re.findall(r"[A-Za-z]{2,}", sentence)) < CI_MIN_WORDS:
            continue  # a citance cut to a fragment ("Chen et al..", "Notably, in.", "2012; 380: 1491–7)")
        labels = (Label.SUPPORTED,) if "SUPPORT" in evidence_labels else (Label.REFUTED, Label.NOT_ENOUGH_INFO)
        out.append(
            Pair(
                id=f"{name}:{cid}:{n}",
                claim=sentence,
                evidence=tuple(s for d in found for s in d.sentences),
                labels=labels,
                source=f"{claims}:{n}",
            )
        )
    return out


_EI_DIRECTION = {"significantly increased": 1, "significantly increase": 1, "significantly decreased": -1}
_EI_TEMPLATES: dict[int, tuple[str, ...]] = {
    1: (
        "{I} significantly increased {O} compared with {C}.",
        "Compared with {C}, {I} resulted in significantly higher {O}.",
        "{O} was significantly higher with {I} than with {C}.",
    ),
    -1: (
        "{I} significantly decreased {O} compared with {C}.",
        "Compared with {C}, {I} resulted in significantly lower {O}.",
        "{O} was significantly lower with {I} than with {C}.",
    ),
    0: (
        "There was no significant difference in {O} between {I} and {C}.",
        "{I} did not significantly change {O} compared with {C}.",
        "{O} did not differ significantly between {I} and {C}.",
    ),
}
_EI_MAX_WORDS = 15  # of an intervention, comparator or outcome: longer prompts make unreadable claims


def _mid_sentence(phrase: str) -> str:
    """A prompt phrase inside a sentence: a capitalised first word lower-cased unless it is an acronym."""
    phrase = " ".join(phrase.replace("\u00a0", " ").replace("&nbsp;", " ").split()).rstrip(".;,")
    first = phrase.split(" ", 1)[0]
    if first[:1].isupper() and first[1:] == first[1:].lower() and first.isalpha():
        return phrase[0].lower() + phrase[1:]
    return phrase


def _ei_claim(direction: int, ico: dict[str, str], choice: int) -> str:
    template = _EI_TEMPLATES[direction][choice % len(_EI_TEMPLATES[direction])]
    outcome = ico["O"]
    if "{O}" in template and not template.startswith("{O}"):
        outcome = re.sub(r"^(?:the|a|an) ", "", outcome)  # "higher the total number" / "in the mean score"
    text = template.format(I=ico["I"], C=ico["C"], O=outcome)
    return text[0].upper() + text[1:]


def evidence_inference(name: str, annotations: Path, prompts: Path) -> list[Pair]:
    """Evidence Inference (Lehman et al., 2019; DeYoung et al., 2020) recast as claim verification.

    Each prompt (intervention, comparator, outcome of a trial report) with the doctors' verdict (significantly
    increased / decreased / no significant difference) and their evidence span gives a claim written from a
    template: SUPPORTED = the verdict's claim with the span; REFUTED = a claim with another verdict and the same
    span (a one-phrase change against real evidence); NOT_ENOUGH_INFO = the claim with the span of another prompt
    of the same article that shares no content word with the claim's outcome. Only annotations the verifying
    doctor accepted (label and reasoning) are used, and a prompt's verdict is its annotators' majority; prompts
    with a part longer than 15 words are left out. Ids are ``<name>:<PMCID>:<n>``: an article stays on one side
    of a split. Deterministic: choices are hashed from the prompt id."""
    import hashlib

    from claimforge.nlp.normalize import STOPWORDS

    csv.field_size_limit(1 << 30)
    icos: dict[str, dict[str, str]] = {}
    with open(prompts, encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.DictReader(f), 2):
            try:
                parts = {"I": row["Intervention"], "C": row["Comparator"], "O": row["Outcome"]}
                icos[row["PromptID"]] = {"PMCID": row["PMCID"], **{k: _mid_sentence(v) for k, v in parts.items()}}
            except KeyError as e:
                raise RecordError(prompts, n, f"missing column {e.args[0]!r}") from None
    verdicts: dict[str, list[int]] = {}
    spans: dict[str, list[str]] = {}
    with open(annotations, encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.DictReader(f), 2):
            try:
                pid, raw, span = row["PromptID"], row["Label"].strip(), row["Annotations"]
                valid = row["Valid Label"] == "True" and row["Valid Reasoning"] == "True"
            except KeyError as e:
                raise RecordError(annotations, n, f"missing column {e.args[0]!r}") from None
            if not valid or pid not in icos:
                continue
            direction = _EI_DIRECTION.get(raw, 0 if raw == "no significant difference" else None)
            if direction is None:
                continue
            verdicts.setdefault(pid, []).append(direction)
            span = " ".join(span.split())
            if 5 <= len(span.split()) <= 80 and span not in spans.setdefault(pid, []):
                spans[pid].append(span)

    def h(*key: object) -> int:
        return int(hashlib.sha256(":".join(map(str, key)).encode()).hexdigest()[:8], 16)

    def content(text: str) -> set[str]:
        return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 3 and w not in STOPWORDS}

    by_article: dict[str, list[str]] = {}
    for pid in sorted(spans, key=lambda p: int(p) if p.isdigit() else p):
        votes = verdicts[pid]
        top = max(set(votes), key=lambda d: (votes.count(d), -abs(d)))
        ico = icos[pid]
        if votes.count(top) * 2 <= len(votes) or not spans[pid]:
            continue  # no majority verdict, or no usable evidence span
        if any(not ico[k] or len(ico[k].split()) > _EI_MAX_WORDS for k in "ICO"):
            continue
        verdicts[pid] = [top]
        by_article.setdefault(ico["PMCID"], []).append(pid)
    out: list[Pair] = []
    for article, pids in by_article.items():
        for pid in pids:
            ico, direction = icos[pid], verdicts[pid][0]
            span = spans[pid][h(pid, "span") % len(spans[pid])]
            claim = _ei_claim(direction, ico, h(pid, "t"))
            others = [d for d in (1, -1, 0) if d != direction]
            wrong = _ei_claim(others[h(pid, "r") % 2], ico, h(pid, "rt"))
            src = f"{annotations}:prompt {pid}"

            def add(text: str, evidence: str, label: Label, article: str = article, src: str = src) -> None:
                out.append(
                    Pair(
                        id=f"{name}:{article}:{len(out)}", claim=text, evidence=(evidence,), labels=(label,), source=src
                    )
                )

            add(claim, span, Label.SUPPORTED)
            add(wrong, span, Label.REFUTED)
            outcome = content(ico["O"])
            unrelated = [
                s
                for q in pids
                if q != pid and content(icos[q]["O"]) != outcome
                for s in spans[q]
                if outcome and not outcome & content(s)
            ]
            if unrelated:
                add(claim, unrelated[h(pid, "n") % len(unrelated)], Label.NOT_ENOUGH_INFO)
    return out


def sci_sources(data: Path) -> dict[str, Callable[[], list[Pair]]]:
    """Real scientific claim–evidence pairs under ``data`` (``../shared/data``) that are not benchmarks, by
    name, loaded lazily: Citation-Integrity train + dev (its official test is the held-out slice:
    ``citation_integrity_test``) and Evidence Inference."""
    ci, ei = data / "citation_integrity", data / "papers/evidence_inference/annotations"
    return {
        "citation_integrity": lambda: [
            p
            for split in ("train", "dev")
            for p in citation_integrity(
                f"citation_integrity_{split}", ci / f"claims_{split}.jsonl", ci / "corpus.jsonl"
            )
        ],
        "evidence_inference": lambda: evidence_inference(
            "evidence_inference", ei / "v2_annotations.csv", ei / "prompts_merged.csv"
        ),
    }
