"""``claimforge apply-review``: a reviewed dataset's fix actions (``DIR/review/patch.jsonl``) turned into a corrected
dataset in a new folder, written like a build (examples, rejects, exports, report, manifest) with provenance: each
relabelled example says what its label was and who changed it; each rejected one is a ``review`` reject with the
reason. The source folder is not changed."""

from __future__ import annotations

import hashlib
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from claimforge.evaluate.report import write_report
from claimforge.io.dataset import write_examples, write_json, write_rejects
from claimforge.io.exports import write_exports
from claimforge.io.outdir import check_output_dir
from claimforge.redact import redact_tree
from claimforge.review.store import PATCH_FILE, ReviewError, ReviewStore, load_dataset, reviewed_examples


def apply_review(source: str | Path, out: str | Path, force: bool = False, command: str = "") -> dict[str, Any]:
    """Write ``source`` with its review's fixes applied to ``out``; returns the new manifest."""
    started = time.time()
    src = Path(source)
    target = check_output_dir(out, force=force)  # cheap checks first
    if target.path == src.resolve():
        raise ReviewError(f"--out {out}: the corrected dataset must go to a new folder, not the reviewed one")
    ds = load_dataset(src)
    patch = ds.review_dir / PATCH_FILE
    if not patch.is_file():
        raise ReviewError(f"{src}: no fixes to apply ({patch} does not exist; make them on the review page)")
    store = ReviewStore({ds.name: ds})
    examples, new_rejects, counts = reviewed_examples(store, ds.name)
    rejects = [*ds.rejects, *new_rejects]
    outp = target.path
    target.start()
    (outp / "manifest.json").unlink(missing_ok=True)
    write_examples(outp, examples)
    write_rejects(outp, rejects)
    exports = write_exports(outp, examples)
    old = ds.manifest
    old_counts = old.get("counts") or {}
    manifest: dict[str, Any] = {
        "command": command,
        "pipeline": old.get("pipeline") or "reviewed",
        "recipe": old.get("recipe"),
        "input": old.get("input"),
        "components": old.get("components") or {},
        "exports": exports,
        "versions": old.get("versions"),
        "started": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
        "review": {
            "source": str(src),
            "source_started": old.get("started"),
            "patch": str(patch),
            "patch_sha256": hashlib.sha256(patch.read_bytes()).hexdigest(),
            "examples_in": len(ds.examples),
            **counts,
            "warnings": store.warnings,
        },
    }
    manifest = redact_tree(manifest)
    stats = write_report(
        outp,
        f"{manifest['pipeline']} dataset (reviewed)",
        examples,
        rejects,
        int(old_counts.get("items_in") or len({e.source_item_id for e in ds.examples})),
        manifest,
        old_counts.get("items_used"),
    )
    manifest["counts"] = {k: stats[k] for k in ("items_in", "items_used", "items_rejected", "examples", "labels")}
    manifest["timings_s"] = {"total": round(time.time() - started, 2)}
    manifest["files"] = sorted(set(target.written()) | {"manifest.json"})
    write_json(outp / "manifest.json", manifest)
    return manifest
