"""Dataset statistics and the build report: label counts, the Multi2Claim Table 5 figures (mean claim and
document length), reject reasons, random examples per label, and a PNG of the length distributions.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from statistics import mean, median
from typing import IO, Any

from claimforge.io.dataset import atomic_open
from claimforge.nlp.normalize import word_count
from claimforge.records import Example, Label, Reject
from claimforge.verify.label_check import label_of_reject


def dataset_stats(
    examples: list[Example], rejects: list[Reject], n_input: int, n_used: int | None = None
) -> dict[str, Any]:
    """``n_used``: the input records that gave examples, when the pipeline counts them otherwise than by the
    examples' source items (``Pipeline.item_of``)."""
    labels = Counter(e.label.value for e in examples)
    claim_len = [word_count(e.claim) for e in examples]
    docs = {e.evidence_id: e.evidence for e in examples}
    doc_len = [word_count(d) for d in docs.values()]
    item_rejects = [r for r in rejects if r.scope == "item"]
    used = n_used if n_used is not None else len({e.source_item_id for e in examples})
    per_label = {
        lab.value: {
            "count": labels.get(lab.value, 0),
            "mean_claim_words": _mean([word_count(e.claim) for e in examples if e.label == lab]),
            "mean_evidence_words": _mean([word_count(e.evidence) for e in examples if e.label == lab]),
        }
        for lab in Label
    }
    return {
        "examples": len(examples),
        "labels": dict(labels),
        "per_label": per_label,
        "mean_claim_words": _mean(claim_len),
        "median_claim_words": median(claim_len) if claim_len else 0,
        "mean_document_words": _mean(doc_len),
        "median_document_words": median(doc_len) if doc_len else 0,
        "documents": len(docs),
        "items_in": n_input,
        "items_used": used,
        "items_rejected": len(item_rejects),
        "reject_reasons": dict(Counter(f"{r.stage}:{r.reason}" for r in item_rejects).most_common()),
        "example_losses": dict(Counter(f"{r.stage}:{r.reason}" for r in rejects if r.scope == "example").most_common()),
        "label_check": label_check_stats(examples, rejects),
    }


def label_check_stats(examples: list[Example], rejects: list[Reject]) -> dict[str, dict[str, int]]:
    """Per label: examples the label check confirmed (kept), flagged (kept, not confirmed: ``label_check=flag``)
    and rejected; empty when the build ran no check."""
    out: dict[str, dict[str, int]] = {}
    for e in examples:
        verdict = e.provenance.details.get("label_check")
        if verdict is not None:
            row = out.setdefault(e.label.value, {"confirmed": 0, "flagged": 0, "rejected": 0})
            row["confirmed" if verdict.get("passed") else "flagged"] += 1
    for r in rejects:
        if r.stage == "label check":
            label = label_of_reject(r.detail)
            out.setdefault(label, {"confirmed": 0, "flagged": 0, "rejected": 0})["rejected"] += 1
    return dict(sorted(out.items()))


def _mean(xs: list[int]) -> float:
    return round(mean(xs), 2) if xs else 0.0


def plot_lengths(path: Path, examples: list[Example]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    lengths = {lab: [word_count(e.claim) for e in examples if e.label == lab] for lab in Label}
    every = [x for xs in lengths.values() for x in xs]
    # one set of bins for all labels: one word wide for short claims, at most 40 bins for long ones; outlined steps
    # so that no label's bars hide another's
    edges = np.histogram_bin_edges(every, bins=min(40, max(every) - min(every) + 1)) if every else 10
    for lab, xs in lengths.items():
        if xs:
            n, _, patches = axes[0].hist(xs, bins=edges, alpha=0.25, label=f"{lab.value} (n={len(xs)})")
            axes[0].hist(xs, bins=edges, histtype="step", linewidth=1.4, color=patches[0].get_facecolor()[:3])
    axes[0].set_title("Claim length")
    axes[0].set_xlabel("words")
    axes[0].set_ylabel("examples")
    if axes[0].get_legend_handles_labels()[0]:
        axes[0].legend(fontsize=7)
    docs = {e.evidence_id: e.evidence for e in examples}
    lens = [word_count(d) for d in docs.values()]
    if lens:
        axes[1].hist(lens, bins=40, color="tab:gray")
    axes[1].set_title(f"Evidence document length ({len(docs)} documents)")
    axes[1].set_xlabel("words")
    fig.tight_layout()
    with atomic_open(path, "wb") as f:
        fig.savefig(f, format="png", dpi=110)
    plt.close(fig)


def write_html(
    f: IO[str], title: str, stats: dict[str, Any], examples: list[Example], manifest: dict[str, Any], plot_png: bytes
) -> None:
    """``report.md``'s content as one HTML file that opens without a server: the tables, the length plot (inline),
    and every example in a table with a search box and a label filter (plain JavaScript, no network). The examples
    are written one at a time (a build's report does not hold a second copy of them)."""
    import base64
    import html

    e_ = html.escape

    def table(head: list[str], rows: list[list[Any]]) -> str:
        cells = "".join(f"<th>{e_(h)}</th>" for h in head)
        body = "".join("<tr>" + "".join(f"<td>{e_(str(c))}</td>" for c in r) + "</tr>" for r in rows)
        return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"

    per_label = [
        [lab, s["count"], s["mean_claim_words"], s["mean_evidence_words"]] for lab, s in stats["per_label"].items()
    ]
    per_label.append(["all", stats["examples"], stats["mean_claim_words"], stats["mean_document_words"]])
    parts = [
        f"<h1>{e_(title)}</h1>",
        "<ul>",
        f"<li>items in: <b>{stats['items_in']}</b> = used <b>{stats['items_used']}</b> + rejected "
        f"<b>{stats['items_rejected']}</b></li>",
        f"<li>examples: <b>{stats['examples']}</b> "
        f"({e_(', '.join(f'{k} {v}' for k, v in sorted(stats['labels'].items())))})</li>",
        f"<li>built with: <code>{e_(str(manifest.get('command', '')))}</code></li>",
        "<li>components: "
        + ", ".join(f"{e_(k)}=<code>{e_(str(v))}</code>" for k, v in manifest.get("components", {}).items())
        + "</li></ul>",
        "<h2>Statistics</h2>",
        table(["label", "count", "mean claim words", "mean evidence words"], per_label),
        f'<img alt="length distributions" src="data:image/png;base64,{base64.b64encode(plot_png).decode()}">',
        "<h2>Rejected items</h2>",
        table(["stage:reason", "items"], [[k, v] for k, v in stats["reject_reasons"].items()] or [["(none)", 0]]),
    ]
    if stats["example_losses"]:
        parts += [
            "<p>Examples dropped from otherwise used items:</p>",
            table(["stage:reason", "examples"], [[k, v] for k, v in stats["example_losses"].items()]),
        ]
    if stats.get("label_check"):
        rows = [[lab, c["confirmed"], c["flagged"], c["rejected"]] for lab, c in stats["label_check"].items()]
        parts += ["<h2>Label check</h2>", table(["label", "confirmed (kept)", "flagged (kept)", "rejected"], rows)]
    options = "".join(f"<option>{e_(lab.value)}</option>" for lab in Label)
    parts += [
        f"<h2>Examples ({len(examples)})</h2>",
        '<p><input id="q" type="search" placeholder="search claims, evidence and ids" size="50"> '
        f'<select id="lab"><option value="">all labels</option>{options}</select> <span id="n"></span></p>',
        '<table id="ex"><thead><tr><th>id</th><th>label</th><th>claim</th><th>evidence</th></tr></thead>'
        "<tbody></tbody></table>",
    ]
    f.write(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{e_(title)}</title>'
        f"<style>{_REPORT_CSS}</style></head><body>" + "\n".join(parts) + "\n"
    )
    # the examples as one JSON array, element by element ("</" escaped so no claim can close the script)
    f.write('<script type="application/json" id="data">[')
    for i, x in enumerate(examples):
        row = {
            "id": x.id,
            "label": x.label.value,
            "method": x.method,
            "claim": x.claim,
            "evidence": x.evidence if len(x.evidence) <= 600 else x.evidence[:600] + " …",
        }
        f.write((", " if i else "") + json.dumps(row, ensure_ascii=False).replace("</", "<\\/"))
    f.write("]</script>\n<script>" + _REPORT_JS + "</script></body></html>\n")


_REPORT_CSS = (
    "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:0.5em 0}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;"
    "text-align:left}th{background:#f3f3f3}img{max-width:100%}#ex td:nth-child(3){font-weight:600}"
    "#ex td:nth-child(4){font-size:0.85em;color:#444}.SUPPORTED{color:#1a7f37}.REFUTED{color:#cf222e}"
    ".NOT_ENOUGH_INFO{color:#9a6700}code{font-size:0.9em}"
)
# the example table: filter by text and label, show at most 500 rows at a time
_REPORT_JS = """
const rows = JSON.parse(document.getElementById('data').textContent);
const body = document.querySelector('#ex tbody'), q = document.getElementById('q');
const lab = document.getElementById('lab'), n = document.getElementById('n');
function cell(tr, text, cls) { const td = document.createElement('td'); td.textContent = text;
  if (cls) td.className = cls; tr.appendChild(td); }
function show() {
  const words = q.value.toLowerCase().split(/\\s+/).filter(Boolean), want = lab.value;
  const hits = rows.filter(r => (!want || r.label === want) &&
    words.every(w => (r.claim + ' ' + r.evidence + ' ' + r.id).toLowerCase().includes(w)));
  body.replaceChildren();
  for (const r of hits.slice(0, 500)) { const tr = document.createElement('tr');
    cell(tr, r.id); cell(tr, r.label, r.label); cell(tr, r.claim); cell(tr, r.evidence); body.appendChild(tr); }
  n.textContent = hits.length + ' of ' + rows.length + (hits.length > 500 ? ' (first 500 shown)' : '');
}
q.addEventListener('input', show); lab.addEventListener('change', show); show();
"""


def render_report(
    title: str,
    stats: dict[str, Any],
    examples: list[Example],
    manifest: dict[str, Any],
    per_label: int = 10,
    seed: int = 0,
) -> str:
    lines = [f"# {title}", ""]
    lines += [
        f"- items in: **{stats['items_in']}** = used **{stats['items_used']}** + rejected "
        f"**{stats['items_rejected']}**",
        f"- examples: **{stats['examples']}** ({', '.join(f'{k} {v}' for k, v in sorted(stats['labels'].items()))})",
        f"- built with: `{manifest.get('command', '')}`",
        f"- components: {', '.join(f'{k}=`{v}`' for k, v in manifest.get('components', {}).items())}",
        "",
        "## Statistics (as in Multi2Claim Table 5)",
        "",
        "| label | count | mean claim words | mean evidence words |",
        "|---|---:|---:|---:|",
    ]
    for lab, s in stats["per_label"].items():
        lines.append(f"| {lab} | {s['count']} | {s['mean_claim_words']} | {s['mean_evidence_words']} |")
    lines += [
        f"| **all** | {stats['examples']} | {stats['mean_claim_words']} | "
        f"{stats['mean_document_words']} (per distinct document, n={stats['documents']}) |",
        "",
        "![length distributions](lengths.png)",
        "",
        "## Rejected items",
        "",
        "| stage:reason | items |",
        "|---|---:|",
    ]
    lines += [f"| {k} | {v} |" for k, v in stats["reject_reasons"].items()] or ["| (none) | 0 |"]
    if stats["example_losses"]:
        lines += ["", "Examples dropped from otherwise used items:", "", "| stage:reason | examples |", "|---|---:|"]
        lines += [f"| {k} | {v} |" for k, v in stats["example_losses"].items()]
    if stats.get("label_check"):
        lines += [
            "",
            "## Label check",
            "",
            "What the judge confirmed from claim + evidence, per label (kept examples after balancing; rejected",
            "ones are in rejects.jsonl with their scores, `label check:label_not_confirmed`):",
            "",
            "| label | confirmed (kept) | flagged (kept) | rejected |",
            "|---|---:|---:|---:|",
        ]
        lines += [
            f"| {lab} | {c['confirmed']} | {c['flagged']} | {c['rejected']} |"
            for lab, c in stats["label_check"].items()
        ]
    rng = random.Random(seed)
    for lab in Label:
        pool = [e for e in examples if e.label == lab]
        if not pool:
            continue
        lines += ["", f"## {per_label} random {lab.value} examples", ""]
        for e in rng.sample(pool, min(per_label, len(pool))):
            ev = e.evidence if len(e.evidence) < 400 else e.evidence[:400] + " …"
            d = e.provenance.details
            # what the claim was made from: the question (Multi2Claim) or the source sentence (ClaimGen)
            src = next(((k, d[k]) for k in ("question", "source_sentence") if d.get(k)), ("source", ""))
            lines += [
                f"- **{e.claim}**  ",
                f"  {src[0].replace('_', ' ')}: _{src[1]}_ — `{e.id}`  ",
                f"  evidence: {ev}",
            ]
    return "\n".join(lines) + "\n"


def write_report(
    out: Path,
    title: str,
    examples: list[Example],
    rejects: list[Reject],
    n_input: int,
    manifest: dict[str, Any],
    n_used: int | None = None,
) -> dict[str, Any]:
    stats = dataset_stats(examples, rejects, n_input, n_used)
    plot_lengths(out / "lengths.png", examples)
    with atomic_open(out / "report.md") as f:
        f.write(render_report(title, stats, examples, manifest))
    with atomic_open(out / "report.html") as f:
        write_html(f, title, stats, examples, manifest, (out / "lengths.png").read_bytes())
    return stats
