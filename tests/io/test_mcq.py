"""Readers of multiple-choice questions: self-made fixtures in each real format, then the real data."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from claimforge.io.mcq import sciq_option_order, strip_choice_prefixes
from claimforge.io.rows import InputError, normalize_explanation, normalize_text, reader_from_spec
from claimforge.records import MCQItem, Reject
from claimforge.registry import RegistryError, registry


def build(name: str, path: Path, **params: Any) -> Any:
    return registry.build("reader", {"name": name, "path": str(path), **params})


def items_of(reader: Any, **kw: Any) -> list[MCQItem]:
    out = list(reader.read(**kw))
    assert all(isinstance(x, MCQItem) for x in out)
    return out  # type: ignore[return-value]


def split(out: list[MCQItem | Reject]) -> tuple[list[MCQItem], list[Reject]]:
    return [x for x in out if isinstance(x, MCQItem)], [x for x in out if isinstance(x, Reject)]


def write_jsonl(path: Path, lines: list[Any]) -> Path:
    """Each entry: a dict (dumped), or a str written verbatim (blank lines, broken JSON)."""
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


def comparable(item: MCQItem) -> tuple[Any, ...]:
    return (item.question, item.options, item.answer_index, item.explanation, item.meta)


# --------------------------------------------------------------------------------------------------
# Registry and specs


def test_readers_are_registered_with_strict_configs(tmp_path: Path) -> None:
    assert {"sciq", "medmcqa", "medbullets", "table", "hf"} <= set(registry.names("reader"))
    with pytest.raises(RegistryError, match="cop_bse"):
        build("medmcqa", tmp_path / "x.jsonl", cop_bse=0)
    with pytest.raises(RegistryError, match="answer_format"):
        build("table", tmp_path / "x.csv", options=["a"], answer_format="number")


def test_reader_from_spec(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "val.jsonl", [{"question": "Q?", "choices": ["A. x", "B. y"], "answer": 1}])
    reader = reader_from_spec(f"medmcqa:{path}", cop_base=0)
    assert reader.dataset == "medmcqa" and reader.config.cop_base == 0
    assert [i.answer for i in items_of(reader)] == ["y"]
    table = reader_from_spec(f"table:{path}", options="choices", dataset="mine")
    assert items_of(table)[0].id == "mine:val:0"
    for bad in (str(path), "val.jsonl", "C:\\data\\val.jsonl"):
        with pytest.raises(RegistryError, match="sciq") as e:
            reader_from_spec(bad)
        assert "NAME:PATH" in str(e.value)
    with pytest.raises(RegistryError, match="unknown reader 'sciqq'.*known: .*medmcqa"):
        reader_from_spec(f"sciqq:{path}")
    with pytest.raises(RegistryError, match="no path"):
        reader_from_spec("sciq:")


def test_normalisation() -> None:
    assert normalize_text("  What \t is\n this?\u00a0 ") == "What is this?"
    assert normalize_explanation(" One  line.\r\n\r\n\n  Two\t\tlines. \n Three ") == "One line.\nTwo lines.\nThree"
    assert strip_choice_prefixes(["A. x", "B) y", "(C) z", "D."]) == ("x", "y", "z", "")
    # only when every choice carries its own position's letter
    assert strip_choice_prefixes(["B. cereus", "E. coli"]) == ("B. cereus", "E. coli")


# --------------------------------------------------------------------------------------------------
# SciQ

SCIQ_TEXT = """[
    {
        "question": "  What   type of organism\\tmakes yogurt? ",
        "distractor3": "viruses",
        "distractor1": " protozoa ",
        "distractor2": "gymnosperms",
        "correct_answer": "mesophilic organisms",
        "support": "Mesophiles grow best   in moderate temperature.\\n\\n\\n  They make cheese. "
    },
    {
        "question": "Who proposed the theory of evolution by natural selection?",
        "distractor3": "Scopes", "distractor1": "Linnaeus", "distractor2": "shaw",
        "correct_answer": "darwin",
        "support": ""
    },

    {"question": "Which is a noble gas?", "distractor1": "oxygen", "distractor2": "",
     "correct_answer": "neon", "distractor3": "nitrogen"}
]
"""


def test_sciq_fields_order_ids_and_lines(tmp_path: Path) -> None:
    path = tmp_path / "train.json"
    path.write_text(SCIQ_TEXT)
    raw = json.loads(SCIQ_TEXT)
    reader = build("sciq", path)
    items = items_of(reader)
    assert reader.dataset == "sciq"
    assert [i.id for i in items] == ["sciq:train:0", "sciq:train:1", "sciq:train:2"]
    assert [i.ref.line for i in items] == [2, 10, 17]
    assert all(i.ref.path == str(path) and i.ref.item_id == i.id and i.ref.dataset == "sciq" for i in items)
    first = items[0]
    assert first.question == "What type of organism makes yogurt?"
    assert first.answer == "mesophilic organisms"
    assert set(first.options) == {"mesophilic organisms", "protozoa", "gymnosperms", "viruses"}
    assert first.explanation == "Mesophiles grow best in moderate temperature.\nThey make cheese."
    assert items[1].explanation is None
    assert items[2].distractors.count("") == 1 and "" in items[2].options  # empty distractor kept, not a read error
    order = ["correct_answer", "distractor1", "distractor2", "distractor3"]
    for item, rec in zip(items, raw, strict=True):
        assert item.answer == normalize_text(rec["correct_answer"])
        slots = sciq_option_order(item.question)
        assert sorted(slots) == order
        assert item.options == tuple(normalize_text(rec.get(s) or "") for s in slots)
    assert items_of(build("sciq", path)) == items  # stable


def test_sciq_answer_position_varies() -> None:
    positions = Counter(sciq_option_order(f"question number {i}?").index("correct_answer") for i in range(400))
    assert set(positions) == {0, 1, 2, 3}
    assert min(positions.values()) > 60


def test_sciq_missing_answer_and_malformed_records(tmp_path: Path) -> None:
    path = tmp_path / "valid.json"
    recs = [
        {
            "question": "Q1?",
            "distractor1": "a",
            "distractor2": "b",
            "distractor3": "c",
            "correct_answer": "d",
        },
        42,
        {"question": ["not", "text"], "correct_answer": "x"},
        {"question": "Q4?", "distractor1": "a"},
    ]
    path.write_text(json.dumps(recs, indent=1))
    with pytest.raises(InputError) as e:
        list(build("sciq", path).read())
    assert "valid.json" in str(e.value) and "line 9" in str(e.value) and "expected a JSON object" in str(e.value)
    out = list(build("sciq", path).read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == len(recs) and len(items) == 2 and len(rejects) == 2
    assert [r.ref.line for r in rejects if r.ref] == [9, 10]
    assert [r.item_id for r in rejects] == ["sciq:valid:1", "sciq:valid:2"]
    assert all(r.stage == "read" and r.reason == "malformed_record" for r in rejects)
    assert "question" in rejects[1].detail and "list" in rejects[1].detail
    assert items[1].id == "sciq:valid:3" and items[1].answer_index is None and items[1].explanation is None


def test_sciq_broken_array_raises_even_with_skip_bad(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[\n  {"question": "a"},\n  {"question": "b",,}\n]\n')
    with pytest.raises(InputError, match=r"broken\.json, line 3"):
        list(build("sciq", path).read(skip_bad=True))
    with pytest.raises(InputError, match="no such file"):
        list(build("sciq", tmp_path / "absent.json").read())


# --------------------------------------------------------------------------------------------------
# MedMCQA


def test_medmcqa_choices_layout(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "validation.jsonl",
        [
            {
                "question": "Which is  true:",
                "choices": ["A. One", "B. Two", "C. Three", "D. Four"],
                "answer": 2,
            },
            {"question": "Unlabelled ?", "choices": ["A. x", "B. y", "C. z", "D. w"], "answer": -1},
            "",
            {"question": "No prefixes", "choices": ["B. cereus", "E. coli"], "answer": 0},
            '{"question": "broken", ',
            {"question": "Out of range", "choices": ["A. x", "B. y"], "answer": 4},
            {"question": "Wrong type", "choices": ["A. x", "B. y"], "answer": "1"},
            {"question": "Missing answer", "choices": ["A. x", "B. y"]},
        ],
    )
    with pytest.raises(InputError) as e:
        list(build("medmcqa", path).read())
    assert "validation.jsonl, line 5" in str(e.value) and "invalid JSON" in str(e.value)
    out = list(build("medmcqa", path).read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == 7 and len(items) == 4 and len(rejects) == 3
    assert [i.ref.line for i in items] == [1, 2, 4, 8]
    assert [i.id for i in items] == [f"medmcqa:validation:{n}" for n in (0, 1, 2, 6)]
    assert items[0].question == "Which is true:" and items[0].options == ("One", "Two", "Three", "Four")
    assert items[0].answer == "Three" and items[0].explanation is None and items[0].meta == {}
    assert items[1].answer_index is None
    assert items[2].options == ("B. cereus", "E. coli")
    assert items[3].answer_index is None
    assert [(r.ref.line if r.ref else None, r.item_id) for r in rejects] == [
        (5, "medmcqa:validation:3"),
        (6, "medmcqa:validation:4"),
        (7, "medmcqa:validation:5"),
    ]
    assert "out of range" in rejects[1].detail and "integer" in rejects[2].detail


OFFICIAL = {
    "id": "e9ad821a-c438-4965-9f77-760819dfa155",
    "question": "Chronic urethral obstruction due to BPH can lead to the following change in kidney",
    "opa": "Hyperplasia",
    "opb": "Hyperophy",
    "opc": "Atrophy",
    "opd": "Dyplasia",
    "cop": 3,
    "choice_type": "single",
    "exp": "Chronic urethral obstruction ... \n\nleads to atrophy.",
    "subject_name": "Anatomy",
    "topic_name": "Urinary tract",
}


def test_medmcqa_official_layout_and_cop_base(tmp_path: Path) -> None:
    multi = {**OFFICIAL, "id": "m1", "choice_type": "multi", "cop": 1, "exp": None, "topic_name": None}
    unlabelled = {k: v for k, v in OFFICIAL.items() if k not in ("cop", "exp")} | {"id": "t1"}
    # the official release's .json files hold one object per line
    path = write_jsonl(tmp_path / "dev.json", [OFFICIAL, multi, unlabelled, {**OFFICIAL, "id": "z", "cop": 0}])
    out = list(build("medmcqa", path).read(skip_bad=True))
    items, rejects = split(out)
    first = items[0]
    assert first.id == "medmcqa:e9ad821a-c438-4965-9f77-760819dfa155" and first.ref.line == 1
    # the "rt" MedMCQA lost is put back ("Hyperophy"); "Dyplasia", a typo of another kind, stays
    assert first.options == ("Hyperplasia", "Hypertrophy", "Atrophy", "Dyplasia")
    assert first.answer == "Atrophy"  # cop 3 is 1-based -> opc
    assert first.explanation == "Chronic urethral obstruction ...\nleads to atrophy."
    assert first.meta == {
        "choice_type": "single",
        "subject_name": "Anatomy",
        "topic_name": "Urinary tract",
        "restored_rt": ["Hyperophy->Hypertrophy"],
    }
    as_is = split(list(build("medmcqa", path, restore_lost_rt=False).read(skip_bad=True)))[0][0]
    damaged = {**OFFICIAL, "id": "rt", "question": "Fuher test for hypeension?", "exp": "The aery narrows."}
    [fixed] = items_of(build("medmcqa", write_jsonl(tmp_path / "rt.jsonl", [damaged])))
    assert (fixed.question, fixed.explanation) == ("Further test for hypertension?", "The artery narrows.")
    repaired = ["Fuher->Further", "hypeension->hypertension", "Hyperophy->Hypertrophy", "aery->artery"]
    assert fixed.meta["restored_rt"] == repaired
    assert as_is.options[1] == "Hyperophy" and "restored_rt" not in as_is.meta
    assert items[1].meta["choice_type"] == "multi" and items[1].answer == "Hyperplasia"
    assert items[1].explanation is None and items[1].meta["topic_name"] is None
    assert items[2].id == "medmcqa:t1" and items[2].answer_index is None
    assert len(rejects) == 1 and rejects[0].ref and rejects[0].ref.line == 4 and "out of range" in rejects[0].detail
    # Hugging Face's medmcqa: 0-based cop, -1 for the unlabelled test split
    hf_style = write_jsonl(tmp_path / "hf.jsonl", [OFFICIAL, {**OFFICIAL, "id": "u", "cop": -1}])
    zero = items_of(build("medmcqa", hf_style, cop_base=0))
    assert zero[0].answer == "Dyplasia" and zero[1].answer_index is None


def test_medmcqa_layouts_mix_and_duplicate_ids(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "mixed.jsonl",
        [{"question": "Q", "choices": ["A. a", "B. b"], "answer": 1}, OFFICIAL, OFFICIAL],
    )
    items, rejects = split(list(build("medmcqa", path).read(skip_bad=True)))
    assert [i.answer for i in items] == ["b", "Atrophy"]
    assert len(rejects) == 1 and "duplicate id" in rejects[0].detail and rejects[0].item_id == "medmcqa:mixed:2"


# --------------------------------------------------------------------------------------------------
# Medbullets

MEDBULLETS_ROWS = [
    {
        "link": "https://bit.ly/aaa",
        "question": "A 42-year-old woman  presents with chest pain.\nWhat is the next step?",
        "opa": "ECG",
        "opb": "Troponin",
        "opc": "CT angiography",
        "opd": "Aspirin",
        "ope": "Discharge",
        "answer_idx": "A",
        "answer": "ECG",
        "explanation": "An ECG comes first.\n\nIncorrect Answers:\nAnswer B: later.",
    },
    {
        "link": "https://bit.ly/bbb",
        "question": 'Which drug, "the classic one", is used?',
        "opa": "Verapamil",
        "opb": "Digoxin",
        "opc": "Adenosine",
        "opd": "Amiodarone",
        "ope": "Metoprolol",
        "answer_idx": "C",
        "answer": "Adenosine",
        "explanation": "Adenosine, of course.",
    },
    {
        "link": "https://bit.ly/ccc",
        "question": "A child with fever.",
        "opa": "Rest",
        "opb": "Ibuprofen",
        "opc": "Antibiotics",
        "opd": "Observation",
        "ope": "Admission",
        "answer_idx": "E",
        "answer": "Admission",
        "explanation": "Admit.",
    },
]


def write_medbullets(tmp_path: Path, name: str, rows: list[dict[str, Any]], five: bool) -> tuple[Path, Path]:
    import pandas as pd

    cols = ["link", "question", "opa", "opb", "opc", "opd", *(["ope"] if five else []), "answer_idx"]
    cols += ["answer", "explanation"]
    frame = pd.DataFrame([{c: r[c] for c in cols} for r in rows], columns=cols)
    csv_path, json_path = tmp_path / f"{name}.csv", tmp_path / f"{name}.json"
    with csv_path.open("w", newline="") as f:  # like the real files: \r\n rows, \n inside fields
        writer = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    frame.to_json(json_path)
    return csv_path, json_path


def test_medbullets_csv_and_column_json(tmp_path: Path) -> None:
    csv_path, json_path = write_medbullets(tmp_path, "medbullets_op5", MEDBULLETS_ROWS, five=True)
    assert json.loads(json_path.read_text())["question"]["1"] == MEDBULLETS_ROWS[1]["question"]
    from_csv, from_json = items_of(build("medbullets", csv_path)), items_of(build("medbullets", json_path))
    assert [i.id for i in from_csv] == [f"medbullets:medbullets_op5:{n}" for n in range(3)]
    assert [i.id for i in from_json] == [i.id for i in from_csv]
    assert [i.ref.line for i in from_csv] == [2, 7, 8]  # the first row's fields span five lines
    assert [i.ref.line for i in from_json] == [0, 1, 2]  # column JSON: the row index
    assert [comparable(a) for a in from_csv] == [comparable(b) for b in from_json]
    first = from_csv[0]
    assert first.question == "A 42-year-old woman presents with chest pain. What is the next step?"
    assert first.options == ("ECG", "Troponin", "CT angiography", "Aspirin", "Discharge")
    assert first.answer == "ECG" and first.meta == {"link": "https://bit.ly/aaa"}
    assert first.explanation == "An ECG comes first.\nIncorrect Answers:\nAnswer B: later."
    assert from_csv[1].question == 'Which drug, "the classic one", is used?' and from_csv[1].answer_index == 2
    assert from_csv[2].answer == "Admission"


def test_medbullets_op4_and_bad_answers(tmp_path: Path) -> None:
    rows = [
        MEDBULLETS_ROWS[0],
        {**MEDBULLETS_ROWS[1], "answer": "Digoxin"},  # disagrees with answer_idx C
        MEDBULLETS_ROWS[2],  # E does not exist with four options
        {**MEDBULLETS_ROWS[1], "answer_idx": "?"},
        {**MEDBULLETS_ROWS[1], "answer_idx": "", "answer": ""},
    ]
    csv_path, json_path = write_medbullets(tmp_path, "medbullets_op4", rows, five=False)
    with pytest.raises(InputError) as e:
        list(build("medbullets", csv_path).read())
    assert "medbullets_op4.csv, line 7" in str(e.value) and "disagrees" in str(e.value)
    with pytest.raises(InputError, match=r"medbullets_op4\.json, row 1: .*disagrees"):
        list(build("medbullets", json_path).read())
    for path, lines in ((csv_path, [7, 8, 9]), (json_path, [1, 2, 3])):
        out = list(build("medbullets", path).read(skip_bad=True))
        items, rejects = split(out)
        assert len(out) == 5 and len(items) == 2 and len(rejects) == 3
        assert items[0].options == ("ECG", "Troponin", "CT angiography", "Aspirin")
        assert items[1].answer_index is None and items[1].id == "medbullets:medbullets_op4:4"
        assert [r.ref.line for r in rejects if r.ref] == lines
        assert "out of range" in rejects[1].detail and "unknown answer letter" in rejects[2].detail


# --------------------------------------------------------------------------------------------------
# Generic tables

TABLE_ROWS = [
    {
        "id": "q1",
        "q": "Capital of France?",
        "a": "Paris",
        "b": "Lyon",
        "c": "Nice",
        "ans": "A",
        "why": "Fact.",
    },
    {"id": "q2", "q": "2 + 2?", "a": "3", "b": "4", "c": "5", "ans": "1", "why": ""},
    {
        "id": "q3",
        "q": "Colour of the sky?",
        "a": "green",
        "b": "red",
        "c": "Blue",
        "ans": "blue",
        "why": "Rayleigh",
    },
]


def write_csv(path: Path, rows: list[dict[str, Any]], delimiter: str = ",") -> Path:
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]), delimiter=delimiter, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


MAPPING = {"question": "q", "options": ["a", "b", "c"], "answer": "ans", "explanation": "why", "id": "id"}


def test_table_csv_auto_and_id_column(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "quiz.csv", TABLE_ROWS)
    items = items_of(build("table", path, **MAPPING, meta=["id"]))
    assert [i.id for i in items] == ["table:q1", "table:q2", "table:q3"]
    assert [i.ref.line for i in items] == [2, 3, 4]
    # auto: letter, int-like cell (CSV cells are untyped) as a 0-based index, text matched case-insensitively
    assert [i.answer for i in items] == ["Paris", "4", "Blue"]
    assert [i.explanation for i in items] == ["Fact.", None, "Rayleigh"]
    assert items[0].meta == {"id": "q1"}
    one_based = items_of(build("table", path, **MAPPING, index_base=1))
    assert one_based[1].answer == "3"
    tsv = write_csv(tmp_path / "quiz.tsv", TABLE_ROWS, delimiter="\t")
    assert [comparable(i) for i in items_of(build("table", tsv, **MAPPING))] == [
        comparable(i) for i in items_of(build("table", path, **MAPPING))
    ]


@pytest.mark.parametrize(
    ("fmt", "answers", "expected"),
    [
        ("index0", ["0", "2", "-1"], ["x", "z", None]),
        ("index1", ["1", "3", ""], ["x", "z", None]),
        ("letter", ["a", "(C)", "B."], ["x", "z", "y"]),
        ("text", [" x ", "Z", "y"], ["x", "z", "y"]),
        ("auto", ["B", "2", "z"], ["y", "z", "z"]),
    ],
)
def test_table_answer_formats(tmp_path: Path, fmt: str, answers: list[str], expected: list[str | None]) -> None:
    rows = [{"question": f"Q{n}", "o1": "x", "o2": "y", "o3": "z", "answer": a} for n, a in enumerate(answers)]
    path = write_csv(tmp_path / "t.csv", rows)
    items = items_of(build("table", path, options=["o1", "o2", "o3"], answer_format=fmt))
    assert [i.answer for i in items] == expected
    assert [i.id for i in items] == ["table:t:0", "table:t:1", "table:t:2"]


@pytest.mark.parametrize(
    ("fmt", "bad", "message"),
    [
        ("index0", "3", "out of range"),
        ("index1", "0", "out of range"),
        ("index0", "two", "not an integer"),
        ("letter", "D", "out of range"),
        ("letter", "xyz", "unknown answer letter"),
        ("text", "w", "matches none"),
        ("auto", "w", "matches none"),
    ],
)
def test_table_bad_answers(tmp_path: Path, fmt: str, bad: str, message: str) -> None:
    rows = [
        {"question": "Q", "o1": "x", "o2": "y", "o3": "z", "answer": a} for a in ("1" if fmt != "letter" else "A", bad)
    ]
    if fmt == "text" or fmt == "auto":
        rows[0]["answer"] = "x"
    path = write_csv(tmp_path / "bad.csv", rows)
    reader = build("table", path, options=["o1", "o2", "o3"], answer_format=fmt)
    with pytest.raises(InputError, match=rf"bad\.csv, line 3: .*{message}"):
        list(reader.read())
    out = list(reader.read(skip_bad=True))
    assert len(out) == 2 and isinstance(out[0], MCQItem) and isinstance(out[1], Reject)
    assert out[1].ref and out[1].ref.line == 3 and out[1].item_id == "table:bad:1"


def test_table_csv_row_errors_and_header(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_text('question,o1,o2,answer\nQ1,x,y,0\nQ2,x\n\n"Q3\nspans lines",x,y,1\nQ4,x,y,1,extra\n')
    reader = build("table", path, options=["o1", "o2"])
    with pytest.raises(InputError, match=r"rows\.csv, line 3: expected 4 fields, got 2"):
        list(reader.read())
    out = list(reader.read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == 4
    assert [(i.question, i.ref.line) for i in items] == [("Q1", 2), ("Q3 spans lines", 5)]
    assert [r.ref.line for r in rejects if r.ref] == [3, 7]
    with pytest.raises(InputError, match=r"\['o3'\] not in the header"):
        list(build("table", path, options=["o1", "o3"]).read())


def test_table_jsonl_list_column_typed_auto(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "items.jsonl",
        [
            {"question": "1 + 1?", "choices": ["1", "2", "3"], "label": "2", "uid": 7},  # a string: text
            {"question": "1 + 2?", "choices": ["1", "2", "3"], "label": 2, "uid": 8},  # an int: index
            {"question": "Missing everything"},
            {"question": "Bad options", "choices": "not a list", "label": 0, "uid": 9},
            {"question": "Bool answer", "choices": ["a"], "label": True, "uid": 10},
        ],
    )
    reader = build("table", path, options="choices", answer="label", id="uid")
    out = list(reader.read(skip_bad=True))
    items, rejects = split(out)
    assert len(out) == 5 and len(items) == 3 and len(rejects) == 2
    assert [i.answer for i in items] == ["2", "3", None]
    assert [i.id for i in items] == ["table:7", "table:8", "table:items:2"]
    assert items[2].options == () and items[2].question == "Missing everything"
    assert "JSON list" in rejects[0].detail and "boolean" in rejects[1].detail
    # a list held in a CSV cell as JSON
    csv_path = tmp_path / "lists.csv"
    csv_path.write_text('question,choices,label\nQ,"[""a"", ""b""]",b\n')
    assert items_of(build("table", csv_path, options="choices", answer="label"))[0].answer_index == 1


def test_table_json_array_and_column_json(tmp_path: Path) -> None:
    import pandas as pd

    rows = [
        {"question": "Q1", "o1": "x", "o2": "y", "answer": 1},
        {"question": "Q2", "o1": "x", "o2": "y", "answer": 0},
    ]
    array = tmp_path / "array.json"
    array.write_text(json.dumps(rows, indent=2))
    columns = tmp_path / "columns.json"
    pd.DataFrame(rows).to_json(columns)
    a = items_of(build("table", array, options=["o1", "o2"]))
    c = items_of(build("table", columns, options=["o1", "o2"]))
    assert [i.answer for i in a] == ["y", "x"] == [i.answer for i in c]
    assert [i.ref.line for i in a] == [2, 8] and [i.ref.line for i in c] == [0, 1]


# --------------------------------------------------------------------------------------------------
# Hugging Face datasets, local files only


def test_hf_parquet_json_and_saved_dataset(tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [
        {
            "id": "a1",
            "question": "Q one?",
            "opa": "x",
            "opb": "y",
            "opc": "z",
            "opd": "w",
            "cop": 1,
            "exp": "E.",
        },
        {
            "id": "a2",
            "question": "Q two?",
            "opa": "x",
            "opb": "y",
            "opc": "z",
            "opd": "w",
            "cop": -1,
            "exp": None,
        },
    ]
    mapping = {
        "options": ["opa", "opb", "opc", "opd"],
        "answer": "cop",
        "answer_format": "index0",
        "explanation": "exp",
        "id": "id",
        "cache_dir": str(tmp_path / "hf_cache"),
    }
    parquet = tmp_path / "medmcqa.parquet"
    pq.write_table(pa.Table.from_pylist(rows), parquet)
    jsonl = write_jsonl(tmp_path / "medmcqa.jsonl", rows)
    saved = tmp_path / "saved"
    datasets.DatasetDict({"validation": datasets.Dataset.from_list(rows)}).save_to_disk(str(saved))

    from_parquet = items_of(build("hf", parquet, **mapping))
    assert [i.id for i in from_parquet] == ["hf:a1", "hf:a2"]
    assert [i.answer for i in from_parquet] == ["y", None]
    assert from_parquet[0].explanation == "E." and from_parquet[1].explanation is None
    assert all(i.ref.line is None for i in from_parquet)
    from_jsonl = items_of(build("hf", jsonl, **mapping))
    from_disk = items_of(build("hf", saved, split="validation", **mapping))
    from_table = items_of(build("table", jsonl, **{k: v for k, v in mapping.items() if k != "cache_dir"}))
    assert [comparable(i) for i in from_jsonl] == [comparable(i) for i in from_parquet]
    assert [comparable(i) for i in from_disk] == [comparable(i) for i in from_parquet]
    assert [comparable(i) for i in from_table] == [comparable(i) for i in from_parquet]
    with pytest.raises(InputError, match="no split 'train'"):
        list(build("hf", saved, **mapping).read())
    with pytest.raises(InputError, match=r"\['nope'\] not in"):
        list(build("hf", parquet, **{**mapping, "explanation": "nope"}).read())
    bad = write_jsonl(tmp_path / "bad.jsonl", [{**rows[0], "cop": 9}])
    with pytest.raises(InputError, match=r"bad\.jsonl, row 0: answer index 9 out of range"):
        list(build("hf", bad, **mapping).read())
    rejects = list(build("hf", bad, **mapping).read(skip_bad=True))
    assert isinstance(rejects[0], Reject) and rejects[0].item_id == "hf:bad:0"


# --------------------------------------------------------------------------------------------------
# Real data (skips when ../shared/data is absent)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("split_name", "count", "with_support"),
    [("train", 11679, 10481), ("valid", 1000, 887), ("test", 1000, 884)],
)
def test_real_sciq(shared_data: Any, split_name: str, count: int, with_support: int) -> None:
    path = shared_data("sciq", f"{split_name}.json")
    raw = json.loads(path.read_text())
    items = items_of(build("sciq", path))
    assert len(items) == count == len(raw)
    assert all(i.answer == normalize_text(r["correct_answer"]) for i, r in zip(items, raw, strict=True))
    assert sum(i.explanation is not None for i in items) == with_support
    assert len({i.id for i in items}) == count
    assert Counter(i.answer_index for i in items).keys() == {0, 1, 2, 3}
    assert [i.ref.line for i in items[:2]] == [2, 10]
    lines = path.read_text().splitlines()
    assert all(lines[i.ref.line - 1].strip() == "{" for i in items)  # type: ignore[operator]


@pytest.mark.slow
def test_real_medmcqa(shared_data: Any) -> None:
    validation = items_of(build("medmcqa", shared_data("medmcqa", "validation.jsonl")))
    assert len(validation) == 4183 and all(i.answer_index is not None for i in validation)
    assert all(len(i.options) == 4 for i in validation)
    # prefixes are stripped once; a few options carry a second "A. " in the data itself
    assert sum(i.options[0].startswith("A. ") for i in validation) == 2
    test = items_of(build("medmcqa", shared_data("medmcqa", "test_unlabelled.jsonl")))
    assert len(test) == 6150 and all(i.answer_index is None for i in test)
    assert test[-1].ref.line == 6150


@pytest.mark.slow
@pytest.mark.parametrize(("name", "n_options"), [("medbullets_op4", 4), ("medbullets_op5", 5)])
def test_real_medbullets(shared_data: Any, name: str, n_options: int) -> None:
    from_csv = items_of(build("medbullets", shared_data("mcq_medbullets", f"{name}.csv")))
    from_json = items_of(build("medbullets", shared_data("mcq_medbullets", f"{name}.json")))
    assert len(from_csv) == len(from_json) == 308
    assert all(i.explanation and len(i.options) == n_options and i.answer for i in from_csv)
    assert [comparable(a) for a in from_csv] == [comparable(b) for b in from_json]
    assert all(i.meta["link"].startswith("http") for i in from_csv)


def test_control_characters_never_reach_items(tmp_path: Path) -> None:
    assert normalize_text("Cells\x00 divide\x1b[31m.\x7f") == "Cells divide[31m."
    assert normalize_explanation("a\x00b\r\nc\x0c") == "ab\nc"
    rec = {
        "question": "What\x00 stores DNA?",
        "distractor1": "ribo\x07some",
        "distractor2": "golgi",
        "distractor3": "vacuole",
        "correct_answer": "nucleus\x1f",
        "support": "The nucleus\x00 stores DNA.\x0b",
    }
    path = tmp_path / "sciq.json"
    path.write_text(json.dumps([rec]))
    (it,) = items_of(build("sciq", path))
    texts = [it.question, it.explanation or "", *it.options]
    assert all(not any(ord(c) < 32 and c != "\n" for c in t) for t in texts)
    assert it.question == "What stores DNA?" and it.answer == "nucleus" and "ribosome" in it.options
