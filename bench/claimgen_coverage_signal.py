"""Does "claim coverage" (how much of a claim's content its evidence expresses) tell supported citances from
over-claiming ones better than the judge? An experiment for issue 11 (docs/claimgen.md, "A coverage signal").

    python bench/claimgen_coverage_signal.py --data ../shared/data \
        --read build/claimgen/ci_train_s31:build/reading/claimgen_s31 \
        --read build/claimgen/ci_test_s32b:build/reading/claimgen_ci_test_s32

Two coverages, both from the bundled all-MiniLM-L6-v2's contextual token vectors (BERTScore precision of the claim
against the evidence, Zhang et al. 2020): ``piece`` (word pieces, IDF over the Citation-Integrity corpus sentences,
stop words out) and ``word`` (pieces averaged into words, each word weighted by -log of its frequency in the n-gram
LM's text). Scored on Citation-Integrity dev and test (a citance's sentence against the cited sentences the
annotators checked it with; SUPPORT against REFUTE / NEI), and on the SUPPORTED examples of blind readings (the
reader's label against the build's). The dataset's labels are read only to measure.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

STOP = frozenset(
    "the a an of and or in on to for with by is are was were be been that this these as at from it its".split()  # noqa: SIM905
)


class Coverage:
    def __init__(self, corpus_sentences: Sequence[str]) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from transformers import AutoModel, AutoTokenizer

        from claimforge.backends.embeddings import resolve_model_path
        from claimforge.registry import registry

        path = resolve_model_path("all-MiniLM-L6-v2")
        self.tok = AutoTokenizer.from_pretrained(path)
        self.model = AutoModel.from_pretrained(path).eval()
        self.lm = registry.build("lm", {"name": "ngram"})
        df: collections.Counter[str] = collections.Counter()
        for s in corpus_sentences:
            df.update(set(self.tok.tokenize(s.lower())))
        self.n, self.df = len(corpus_sentences), df

    def _encode(self, text: str, max_length: int) -> tuple[object, list[str], list[tuple[str, list[int]]]]:
        import torch

        enc = self.tok([text], truncation=True, max_length=max_length, return_tensors="pt", return_offsets_mapping=True)
        offsets = enc.pop("offset_mapping")[0]
        with torch.no_grad():
            h = torch.nn.functional.normalize(self.model(**enc).last_hidden_state[0], dim=-1)
        pieces = self.tok.convert_ids_to_tokens(enc["input_ids"][0])
        words: dict[int, list[int]] = {}
        for j, w in enumerate(enc.word_ids(0)):
            if w is not None:
                words.setdefault(w, []).append(j)
        spans = [(text[int(offsets[js[0]][0]) : int(offsets[js[-1]][1])], js) for js in words.values()]
        return h, pieces, spans

    def score(self, claim: str, evidence: str) -> tuple[float, float]:
        """(piece coverage, word coverage) of ``claim`` by ``evidence``."""
        import torch

        hc, pc, wc = self._encode(claim, 256)
        he, _, we = self._encode(evidence, 512)
        if len(pc) <= 2 or len(he) <= 2:  # type: ignore[arg-type]
            return 0.0, 0.0  # an empty claim or evidence
        inner = slice(1, -1)  # [CLS] and [SEP] out
        sim = (hc[inner] @ he[inner].T).max(dim=1).values.numpy()  # type: ignore[index]
        idf = [
            0.0 if (p in STOP or not re.search(r"\w", p)) else math.log((self.n + 1) / (self.df.get(p, 0) + 1))
            for p in pc[1:-1]
        ]
        piece = float(np.dot(sim, idf) / max(sum(idf), 1e-9))
        cw = [(t, hc[js].mean(0)) for t, js in wc if re.search(r"\w", t)]  # type: ignore[index]
        ew = [he[js].mean(0) for t, js in we if re.search(r"\w", t)]  # type: ignore[index]
        if not cw or not ew:
            return piece, 0.0
        c = torch.nn.functional.normalize(torch.stack([v for _, v in cw]), dim=-1)
        e = torch.nn.functional.normalize(torch.stack(ew), dim=-1)
        wsim = (c @ e.T).max(dim=1).values.numpy()
        weights = np.array([-math.log(max(self.lm.word_frequency(t.lower()) or 0.0, 1e-7)) for t, _ in cw])
        return piece, float(np.dot(wsim, weights) / weights.sum())


def auc(y: Sequence[bool], s: Sequence[float]) -> float | None:
    """ROC AUC, None when only one class is present."""
    from sklearn.metrics import roc_auc_score

    return round(float(roc_auc_score(list(y), list(s))), 3) if len(set(y)) == 2 else None


def share(y: np.ndarray) -> float | None:
    """The share of True in ``y``, None when empty (JSON has no NaN)."""
    return round(float(y.mean()), 3) if len(y) else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--read", action="append", default=[], help="BUILD:READING (a blind reading's key and answers)")
    ap.add_argument("--gate", type=float, default=0.70, help="the judge's SUPPORTED gate")
    args = ap.parse_args()
    from claimforge.io.nli_sources import citation_integrity
    from claimforge.io.sentences import load_corpus
    from claimforge.records import Label
    from claimforge.registry import registry

    ci = args.data / "citation_integrity"
    cov = Coverage([s for d in load_corpus(ci / "corpus.jsonl").values() for s in d.sentences])
    judge = registry.build("nli", {"name": "embedded", "runtime": "onnx"})
    out: dict[str, object] = {}
    for split in ("dev", "test"):
        pairs = citation_integrity(f"ci_{split}", ci / f"claims_{split}.jsonl", ci / "corpus.jsonl")
        ent = judge.predict_proba(pairs)[:, 0]
        y = np.array([Label.SUPPORTED in p.labels for p in pairs])
        piece, word = map(np.array, zip(*(cov.score(p.claim, " ".join(p.evidence)) for p in pairs), strict=True))
        gated = ent >= args.gate
        rows = {
            f"coverage>={t:.2f}": {
                "n": int((gated & (word >= t)).sum()),
                "precision": share(y[gated & (word >= t)]),
            }
            for t in (0.55, 0.6, 0.65, 0.7, 0.75, 0.8)
        }
        out[split] = {
            "pairs": len(pairs),
            "supported": round(float(y.mean()), 3),
            "auc": {"judge": auc(y, ent), "piece": auc(y, piece), "word": auc(y, word)},
            f"judge>={args.gate}": {"n": int(gated.sum()), "precision": share(y[gated])},
            "with word coverage": rows,
        }
    read_y, read_s = [], []
    for spec in args.read:
        build, reading = (Path(x) for x in spec.split(":", 1))
        key = [json.loads(x) for x in (reading / "key.jsonl").read_text().splitlines() if x.strip()]
        answers = {a["n"]: a for a in map(json.loads, (reading / "answers.jsonl").read_text().splitlines())}
        examples = {e["id"]: e for e in map(json.loads, (build / "examples.jsonl").read_text().splitlines())}
        for k in key:
            if k["label"] == "SUPPORTED":
                e = examples[k["id"]]
                ent = e["provenance"]["details"]["label_check"]["entailment"]
                read_y.append(answers[k["n"]]["label"] == "SUPPORTED")
                read_s.append((ent, *cov.score(e["claim"], e["evidence"])))
    if read_y:
        ent, piece, word = zip(*read_s, strict=True)
        out["read"] = {
            "examples": len(read_y),
            "read_supported": sum(read_y),
            "auc": {"judge": auc(read_y, ent), "piece": auc(read_y, piece), "word": auc(read_y, word)},
            "word>=0.65": {
                "n": sum(w >= 0.65 for w in word),
                "read_supported": sum(r for r, w in zip(read_y, word, strict=True) if w >= 0.65),
            },
        }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
