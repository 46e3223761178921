"""The build report: report.html's example table is written element by element and reads back as the examples."""

from __future__ import annotations

import io
import json
import re

from claimforge.evaluate.report import dataset_stats, write_html
from claimforge.records import Example, Label, Provenance, SourceRef


def _example(i: int, claim: str, evidence: str) -> Example:
    ref = SourceRef(dataset="d", path="p", line=i, item_id=f"d:{i}")
    return Example(
        id=f"d:{i}#S",
        claim=claim,
        evidence=evidence,
        evidence_id=f"e{i}",
        label=Label.SUPPORTED,
        source_item_id=f"d:{i}",
        method="m",
        provenance=Provenance(method="m", method_version="0", source=ref),
    )


def test_html_example_table_is_the_json_of_every_example() -> None:
    examples = [
        _example(0, "A claim with </script> inside.", "Évidence ünïcode."),
        _example(1, "Second claim.", "x" * 700),  # evidence over 600 characters is cut
    ]
    stats = dataset_stats(examples, [], 2)
    for rows in (examples, []):
        f = io.StringIO()
        write_html(f, "t", dataset_stats(rows, [], len(rows)) if rows else stats | {"examples": 0}, rows, {}, b"")
        page = f.getvalue()
        m = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
        assert m is not None and page.endswith("</body></html>\n")
        expected = [
            {
                "id": e.id,
                "label": "SUPPORTED",
                "method": "m",
                "claim": e.claim,
                "evidence": e.evidence if len(e.evidence) <= 600 else e.evidence[:600] + " …",
            }
            for e in rows
        ]
        # the same text json.dumps gives for the whole list, with "</" escaped
        assert m.group(1) == json.dumps(expected, ensure_ascii=False).replace("</", "<\\/")
        assert json.loads(m.group(1).replace("<\\/", "</")) == expected
