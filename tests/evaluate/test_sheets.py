"""Human-evaluation sheets (claimforge.evaluate.sheets): export, fill, import, agreement, and errors that name the
file, row and column."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from claimforge.evaluate import sheets as sh
from claimforge.evaluate.agreement import krippendorff_alpha
from claimforge.evaluate.sheets import SheetError, agreement, export_sheet, import_sheets, is_acceptable, read_items


def _claim_rows() -> list[dict[str, object]]:
    return [
        {
            "id": f"ex{i}",
            "claim": f"Claim number {i} holds.",
            "source_sentence": f"Source sentence {i} [3].",
            "context": ["Before.", "After."],
            "method": "bart" if i % 2 else "entity",
        }
        for i in range(6)
    ]


def _read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        return list(csv.reader(f))


def _fill(template: Path, out: Path, ratings: dict[str, list[str]]) -> Path:
    rows = _read_csv(template)
    header = rows[0]
    first = header.index("fluency (1-3)") if "fluency (1-3)" in header else header.index("entailment (3/2/1/SKIP)")
    for row in rows[1:]:
        values = ratings[row[0]]
        row[first : first + len(values)] = values
    with open(out, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return out


# item order in the sheet is random; ratings are given per item position
ALICE = [["3", "1", "1", "5"], ["3", "1", "0", "4"], ["1", "", "", ""], ["2", "0", "", ""], ["3", "1", "1", "4"]]
BOB = [["3", "1", "1", "4"], ["3", "1", "1", "5"], ["1", "", "", ""], ["2", "1", "1", "2"], ["3", "1", "1", "5"]]


def test_export_fill_import_agreement_round_trip(tmp_path: Path) -> None:
    info = export_sheet(_claim_rows(), tmp_path / "claims.csv", kind="claims", n=5, seed=1)
    assert info["n"] == 5 and info["available"] == 6
    rows = _read_csv(tmp_path / "claims.csv")
    assert rows[0] == [
        "item_id",
        "source_sentence",
        "context",
        "generated_claim",
        "fluency (1-3)",
        "decontextualized (0/1)",
        "atomicity (0/1)",
        "faithfulness (1-5)",
        "comment",
    ]
    assert [r[0] for r in rows[1:]] == ["c0001", "c0002", "c0003", "c0004", "c0005"]
    assert all(r[2] == "Before. After." and r[4:] == ["", "", "", "", ""] for r in rows[1:])
    # seeded: the same sample again, a different one for another seed
    again = export_sheet(_claim_rows(), tmp_path / "again.csv", kind="claims", n=5, seed=1)
    assert _read_csv(tmp_path / "again.csv")[1:] == rows[1:] and again["n"] == 5
    guide = Path(info["guidelines"]).read_text(encoding="utf-8")
    assert "only if fluency > 1" in guide and "Faithfulness > 3" in guide and "leaves out information" in guide
    key = read_items(info["items"])
    assert set(key) == {f"c000{i}" for i in range(1, 6)} and {v["method"] for v in key.values()} <= {"bart", "entity"}

    ids = [r[0] for r in rows[1:]]
    alice = _fill(tmp_path / "claims.csv", tmp_path / "alice.csv", dict(zip(ids, ALICE, strict=True)))
    bob = _fill(tmp_path / "claims.csv", tmp_path / "bob.csv", dict(zip(ids, BOB, strict=True)))
    sheets = import_sheets([alice, bob])
    assert [s.annotator for s in sheets] == ["alice", "bob"]
    assert sheets[0].ratings[ids[2]] == {
        "fluency": 1,
        "decontextualized": None,
        "atomicity": None,
        "faithfulness": None,
    }

    groups = {k: v["method"] for k, v in key.items()}
    doc = agreement(sheets, groups=groups)
    assert doc["n_units"] == 5 and doc["n_shared_units"] == 5 and doc["n_annotations"] == 10
    assert doc["fluency_agreement"] == 1.0
    assert doc["alpha"]["fluency"]["alpha"] == 1.0 and doc["alpha"]["fluency"]["level"] == "ordinal"
    assert doc["alpha"]["decontextualized"]["level"] == "nominal"
    decon = [[1, 1], [1, 1], [None, None], [0, 1], [1, 1]]
    assert doc["alpha"]["decontextualized"]["alpha"] == pytest.approx(krippendorff_alpha(decon, "nominal"), abs=1e-4)
    faith = [[5, 4], [4, 5], [None, None], [None, 2], [4, 5]]
    assert doc["alpha"]["faithfulness"]["alpha"] == pytest.approx(krippendorff_alpha(faith, "ordinal"), abs=1e-4)
    assert doc["alpha"]["faithfulness"]["units"] == 3
    s = doc["summary"]
    assert s["fluency"] == pytest.approx(2.4)
    assert s["decontextualized_pct"] == pytest.approx(87.5)  # per-claim means 1, 1, .5, 1
    assert s["atomicity_pct"] == pytest.approx(87.5)  # 1, .5, 1 (bob only), 1
    assert s["faithfulness"] == pytest.approx(3.875)  # 4.5, 4.5, 2, 4.5
    # accepted by a majority of its annotators: item 1 (both) and item 5 (both); item 2 is 1 of 2
    assert s["n_generated"] == 5 and s["n_accepted"] == 2 and s["precision_pct"] == 40.0
    assert sum(g["n_generated"] for g in doc["by_group"].values()) == 5
    md = sh.agreement_markdown(doc)
    assert "| all | 2.40 | 87.50 | 87.50 | 3.88 | 5 | 2 | 40.00 |" in md


def test_negation_sheet_round_trip_table7(tmp_path: Path) -> None:
    rows = [{"original_claim": f"X{i} inhibits Y.", "negation": f"X{i} activates Y."} for i in range(4)]
    info = export_sheet(rows, tmp_path / "neg.csv", kind="negations", seed=3)
    header = _read_csv(tmp_path / "neg.csv")[0]
    assert header == [
        "item_id",
        "original_claim (premise)",
        "negation (hypothesis)",
        "entailment (3/2/1/SKIP)",
        "comment",
    ]
    assert "DEFINITELY FALSE" in Path(info["guidelines"]).read_text(encoding="utf-8")
    ids = [r[0] for r in _read_csv(tmp_path / "neg.csv")[1:]]
    a = _fill(tmp_path / "neg.csv", tmp_path / "a.csv", dict(zip(ids, [["3"], ["2"], ["SKIP"], ["1"]], strict=True)))
    b = _fill(tmp_path / "neg.csv", tmp_path / "b.csv", dict(zip(ids, [["3"], ["3"], ["skip"], ["1"]], strict=True)))
    doc = agreement(import_sheets([a, b]))
    s = doc["summary"]
    # the tie on item 2 (2 vs 3) goes to the less favourable value 2
    assert s == {
        "n_negations": 4,
        "fluent": 3,
        "entailment": {"3": 1, "2": 1, "1": 1},
        "skip": 1,
        "annotations": {"3": 3, "2": 1, "1": 2, "SKIP": 2},
    }
    assert doc["alpha"]["negation_fluency"]["alpha"] == 1.0
    ent = [[3, 3], [2, 3], [None, None], [1, 1]]
    assert doc["alpha"]["entailment"]["alpha"] == pytest.approx(krippendorff_alpha(ent, "ordinal"), abs=1e-4)


def _one_row_sheet(tmp_path: Path, name: str, cells: list[list[str]]) -> Path:
    header = list(sh.CLAIM_HEADERS.values())
    rows = [header] + [[f"c{i:04d}", "src", "", "claim", *c, ""] for i, c in enumerate(cells, 1)]
    path = tmp_path / name
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


@pytest.mark.parametrize(
    ("cells", "row", "column", "message"),
    [
        ([["3", "1", "1", "5"], ["4", "1", "1", "5"]], 3, "fluency (1-3)", "'4' is not one of 1/2/3"),
        ([["3", "yes", "1", "5"]], 2, "decontextualized (0/1)", "not one of 0/1"),
        ([["2", "1", "1", "4.5"]], 2, "faithfulness (1-5)", "not one of 1/2/3/4/5"),
        ([["1", "1", "", ""]], 2, "decontextualized (0/1)", "must be empty"),
        ([["3", "0", "1", ""]], 2, "atomicity (0/1)", "must be empty"),
        ([["3", "1", "", "5"]], 2, "atomicity (0/1)", "empty, but fluency > 1 and decontextualized = 1"),
        ([["2", "", "", ""]], 2, "decontextualized (0/1)", "empty, but fluency = 2 > 1"),
        ([["", "", "", ""]], 2, "fluency (1-3)", "not annotated"),
    ],
)
def test_invalid_cells_name_file_row_column(
    tmp_path: Path, cells: list[list[str]], row: int, column: str, message: str
) -> None:
    path = _one_row_sheet(tmp_path, "ann.csv", cells)
    with pytest.raises(SheetError) as e:
        import_sheets([path])
    text = str(e.value)
    assert str(path) in text and f"row {row}" in text and repr(column) in text and message in text


def test_sheet_blanks_allowed_by_rule_and_incomplete_rows(tmp_path: Path) -> None:
    path = _one_row_sheet(
        tmp_path, "ok.csv", [["1", "", "", ""], ["3", "0", "", ""], ["3", "1", "0", "3"], ["3.0", "1", "1", "4"]]
    )
    sheet = import_sheets([path])[0]
    assert sheet.ratings["c0004"] == {"fluency": 3, "decontextualized": 1, "atomicity": 1, "faithfulness": 4}
    partial = _one_row_sheet(tmp_path, "partial.csv", [["3", "1", "1", "5"], ["", "", "", ""]])
    assert len(import_sheets([partial], allow_incomplete=True)[0].ratings) == 1
    neg = tmp_path / "neg.csv"
    neg.write_text("item_id,original_claim,negation,entailment (3/2/1/SKIP),comment\nn1,a,b,maybe,\n", encoding="utf-8")
    with pytest.raises(SheetError, match=r"row 2, column 'entailment \(3/2/1/SKIP\)': 'maybe'"):
        import_sheets([neg])
    with pytest.raises(ValueError, match="different kinds"):
        agreement(import_sheets([path]) + [sh.Sheet(path=neg, kind="negations", annotator="x")])


def test_acceptance_rule() -> None:
    assert is_acceptable(2, 1, 1, 4)
    assert not is_acceptable(1, 1, 1, 5) and not is_acceptable(3, 0, None, None)
    assert not is_acceptable(3, 1, 0, 5) and not is_acceptable(3, 1, 1, 3)
