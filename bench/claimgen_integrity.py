"""How often a ClaimGen build keeps citances that the Citation-Integrity annotators marked as not supported by
the paper they cite (the dataset's labels are read here to *measure*; the pipeline never reads them).

    python bench/claimgen_integrity.py build/claimgen/ci --input ../shared/data/citation_integrity/claims_train.jsonl

For every citance the build read: did it give at least one SUPPORTED example (kept), and what did the annotators
say of the cited document used as evidence (SUPPORT / REFUTE / NEI)? Reported: the label mix of the citances that
made claims (the input, after claim generation) and of the citances kept.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from claimforge.registry import registry


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", type=Path)
    ap.add_argument("--input", type=Path, default=Path("../shared/data/citation_integrity/claims_train.jsonl"))
    args = ap.parse_args()
    reader = registry.build("reader", {"name": "citation-integrity", "path": str(args.input)})
    items = {it.id: it for it in reader.read(skip_bad=True) if hasattr(it, "meta")}
    examples = [json.loads(x) for x in (args.build / "examples.jsonl").read_text().splitlines() if x.strip()]
    rejects = [json.loads(x) for x in (args.build / "rejects.jsonl").read_text().splitlines() if x.strip()]
    kept: dict[str, str] = {}
    for e in examples:
        if e["label"] == "SUPPORTED":
            kept.setdefault(e["source_item_id"], e["evidence_id"])
    # confirmed: kept, or a confirmed SUPPORTED example that only label balancing dropped (its evidence
    # document is not written: "any cited document SUPPORT" stands in, as for the input)
    confirmed = set(kept) | {
        r["item_id"] for r in rejects if r["reason"] == "class_balancing" and r["detail"].startswith("SUPPORTED")
    }
    # citances that made at least one claim: kept ones, and those whose claims were all lost later
    lost_after_claims = {
        r["item_id"] for r in rejects if r["scope"] == "example" or r["reason"] in ("all_examples_dropped",)
    }
    made = set(kept) | {i for i in lost_after_claims if i in items}

    def mix(ids: set[str], doc_of: dict[str, str] | None) -> Counter[str]:
        out: Counter[str] = Counter()
        for i in ids:
            labels = items[i].meta["integrity_labels"]
            doc = doc_of.get(i) if doc_of else None
            out[labels.get(doc) if doc in labels else ("SUPPORT" if "SUPPORT" in labels.values() else "other")] += 1
        return out

    made = made | confirmed
    made_mix = mix(made, None)
    kept_mix = mix(set(kept), kept)
    confirmed_mix = mix(confirmed, None)
    report = {
        "citances_in_file": len(items),
        "citances_with_claims": len(made),
        "citances_kept": len(kept),
        "input_mix (any cited doc SUPPORT vs other)": dict(made_mix),
        "kept_mix (label of the evidence document)": dict(kept_mix),
        "citances_confirmed (before balancing)": len(confirmed),
        "confirmed_mix (any cited doc SUPPORT vs other)": dict(confirmed_mix),
        "confirmed_not_supported_share": round(1 - confirmed_mix["SUPPORT"] / max(1, len(confirmed)), 3),
        "kept_not_supported_share": round(1 - kept_mix["SUPPORT"] / max(1, len(kept)), 3),
        "input_not_supported_share": round(1 - made_mix["SUPPORT"] / max(1, len(made)), 3),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
