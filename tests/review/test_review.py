"""claimforge review without a browser: the store (grades, fixes, agreement, sheets), apply-review, the web app's
security and endpoints (Starlette's test client), POST /check, and the command line."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from claimforge.check import CheckResult, EvidenceScore
from claimforge.cli import app as cli_app
from claimforge.evaluate.sheets import export_sheet, read_sheet
from claimforge.io.dataset import read_examples
from claimforge.review.app import _local_path, create_app
from claimforge.review.apply import apply_review
from claimforge.review.store import (
    ReviewError,
    ReviewStore,
    import_sheet,
    load_dataset,
    load_datasets,
    sheet_csv,
    wilson,
)

from .conftest import write_toy_build

HX = {"HX-Request": "true"}


def _store(path: Path) -> ReviewStore:
    return ReviewStore(load_datasets([path]))


def _client(store: ReviewStore, checker: Any = None, cookie: bool = True) -> TestClient:
    c = TestClient(create_app(store, "s3cret", checker), base_url="http://127.0.0.1:8765")
    if cookie:
        assert c.get("/?token=s3cret", follow_redirects=False).status_code == 303  # sets the server's cookie
        c.cookies.set("claimforge_annotator", "alice")
    return c


def _out(result: Any) -> str:
    return " ".join(result.output.split())  # rich wraps long lines


def _url(e_id: str) -> str:
    return quote(e_id, safe="")


# -- the store ---------------------------------------------------------------------------------------------------


def test_grades_are_on_disk_at_once_and_survive_a_restart(toy_build: Path) -> None:
    store = _store(toy_build)
    e = store.datasets["toybuild"].examples[0]
    store.grade("toybuild", e.id, "alice", {"label": "SUPPORTED", "fluency": "3"}, blind=True)
    store.grade("toybuild", e.id, "bob", {"label": "REFUTED"}, blind=True)
    store.grade("toybuild", e.id, "alice", {"label": "NOT_ENOUGH_INFO", "atomicity": 1}, blind=True)  # replaces
    again = _store(toy_build)  # a new server: everything read back from review/grades.jsonl
    assert {g.annotator: g.values for g in again.grades_of("toybuild", e.id)} == {
        "alice": {"label": "NOT_ENOUGH_INFO", "atomicity": 1},
        "bob": {"label": "REFUTED"},
    }
    assert len((toy_build / "review" / "grades.jsonl").read_text().splitlines()) == 3


def test_a_write_between_the_look_and_the_append_is_not_missed(toy_build: Path, monkeypatch: Any) -> None:
    from claimforge.review import store as store_module

    one, two = _store(toy_build), _store(toy_build)
    a, b = one.datasets["toybuild"].examples[:2]
    real = store_module._append

    def racing(path: Path, row: Any) -> int:  # the other server writes just before this one does
        if row["annotator"] == "alice":
            real(path, {**row, "example_id": b.id, "annotator": "bob"})
        return real(path, row)

    monkeypatch.setattr(store_module, "_append", racing)
    one.grade("toybuild", a.id, "alice", {"label": "SUPPORTED"})
    assert {g.annotator for g in one.grades.values()} == {"alice", "bob"}
    monkeypatch.setattr(store_module, "_append", real)
    two.refresh()
    assert len(two.grades) == 2


def test_a_broken_file_after_start_is_a_warning_not_an_outage(toy_build: Path) -> None:
    store = _store(toy_build)
    e = store.datasets["toybuild"].examples[0]
    store.grade("toybuild", e.id, "alice", {"label": "SUPPORTED"})
    with open(toy_build / "review" / "grades.jsonl", "a", encoding="utf-8") as f:
        f.write("garbage\n{}\n")
    store.refresh()
    assert len(store.grades) == 1 and any("not re-read" in w for w in store.warnings)
    store.refresh()
    assert sum("not re-read" in w for w in store.warnings) == 1  # warnings do not pile up


def test_grades_of_a_rebuilt_folder_are_warnings(toy_build: Path) -> None:
    store = _store(toy_build)
    neg = store.datasets["toybuild"].examples[1]
    store.grade("toybuild", neg.id, "alice", {"entailment": 3})
    store.fix("toybuild", neg.id, "reject", "alice", reason="x")
    manifest = json.loads((toy_build / "manifest.json").read_text())
    (toy_build / "manifest.json").write_text(json.dumps({**manifest, "started": "2026-12-01T00:00:00+00:00"}))
    lines = (toy_build / "examples.jsonl").read_text().splitlines()
    lines[1] = lines[0].replace("toy:0#1S", neg.id)  # the id now names a claim that is not a negation
    (toy_build / "examples.jsonl").write_text("\n".join(lines) + "\n")
    again = _store(toy_build)  # starts
    assert not again.grades and any("do not fit their example" in w for w in again.warnings)
    assert any("grades were made on an earlier build" in w for w in again.warnings)
    assert any("fixes were made on an earlier build" in w for w in again.warnings)
    (toy_build / "review" / "patch.jsonl").write_text('{"example_id": "x"}\n')
    with pytest.raises(ReviewError, match=r"patch.jsonl:1: not a fix record"):
        _store(toy_build)


def test_two_folders_with_one_name_are_refused(tmp_path: Path) -> None:
    a = write_toy_build(tmp_path / "x" / "out" / "gsci")
    b = write_toy_build(tmp_path / "y" / "out" / "gsci")
    with pytest.raises(ReviewError, match="would both be called 'out-gsci'"):
        load_datasets([a, b])


def test_two_servers_on_one_folder_see_each_others_grades(toy_build: Path) -> None:
    one, two = _store(toy_build), _store(toy_build)
    a, b = one.datasets["toybuild"].examples[:2]
    one.grade("toybuild", a.id, "alice", {"label": "SUPPORTED"})
    two.grade("toybuild", b.id, "bob", {"label": "REFUTED"})  # reads alice's grade before it appends
    assert {(g.example_id, g.annotator) for g in two.grades.values()} == {(a.id, "alice"), (b.id, "bob")}
    one.refresh()
    assert len(one.grades) == 2
    one.fix("toybuild", a.id, "reject", "alice", reason="x")
    two.refresh()
    assert ("toybuild", a.id) in two.fixes


def test_grade_values_are_checked_against_the_papers_scales(toy_build: Path) -> None:
    store = _store(toy_build)
    ds = store.datasets["toybuild"]
    supported, negation, nei = ds.examples[0], ds.examples[1], ds.examples[2]
    with pytest.raises(ReviewError, match="fluency = '4' is not one of 1, 2, 3"):
        store.grade("toybuild", supported.id, "alice", {"fluency": "4"})
    with pytest.raises(ReviewError, match="'entailment' does not apply"):
        store.grade("toybuild", supported.id, "alice", {"entailment": "3"})  # not a negation
    with pytest.raises(ReviewError, match="'faithfulness' does not apply"):
        store.grade("toybuild", nei.id, "alice", {"faithfulness": 5})  # no source sentence
    with pytest.raises(ReviewError, match="annotator name"):
        store.grade("toybuild", supported.id, "", {"label": "SUPPORTED"})
    with pytest.raises(ReviewError, match="no example"):
        store.grade("toybuild", "nope", "alice", {"label": "SUPPORTED"})
    g = store.grade("toybuild", negation.id, "alice", {"entailment": "SKIP", "label": "REFUTED"})
    assert g.values == {"entailment": "SKIP", "label": "REFUTED"}
    assert not (toy_build / "review" / "patch.jsonl").exists()


def test_a_write_cut_short_is_reported_and_any_other_bad_line_names_file_and_line(toy_build: Path) -> None:
    store = _store(toy_build)
    e = store.datasets["toybuild"].examples[0]
    store.grade("toybuild", e.id, "alice", {"label": "SUPPORTED"})
    grades = toy_build / "review" / "grades.jsonl"
    with open(grades, "a", encoding="utf-8") as f:
        f.write('{"example_id": "toy:0#1S", "annot')  # the server was killed mid-write
    again = _store(toy_build)
    assert len(again.grades) == 1
    assert any("grades.jsonl:2: an unfinished last line" in w for w in again.warnings)
    grades.write_text('not json\n{"example_id": "x"}\n', encoding="utf-8")
    with pytest.raises(ReviewError, match=r"grades.jsonl:1: not a review record"):
        _store(toy_build)


def test_label_accuracy_and_agreement(toy_build: Path) -> None:
    store = _store(toy_build)
    ds = store.datasets["toybuild"]
    for e in ds.examples[:6]:
        store.grade("toybuild", e.id, "alice", {"label": e.label.value, "fluency": 3}, blind=True)
        wrong = "NOT_ENOUGH_INFO" if e.label.value != "NOT_ENOUGH_INFO" else "SUPPORTED"
        bob = e.label.value if e.id != ds.examples[0].id else wrong
        store.grade("toybuild", e.id, "bob", {"label": bob, "fluency": 3 if bob == e.label.value else 2}, blind=True)
    s = store.summary("toybuild")
    assert s["blind"]["n"] == 12 and s["blind"]["correct"] == 11
    assert s["annotators"]["alice"]["blind"]["accuracy"] == 1.0
    assert s["annotators"]["bob"]["blind"]["correct"] == 5
    # the interval counts the 6 examples, not the 12 grades: two annotators' grades of one example are not
    # independent (example 0 adds half a right grade)
    assert s["blind"]["examples"] == 6
    assert s["blind"]["ci95"] == [round(v, 3) for v in wilson(5.5, 6)]
    assert s["blind"]["ci95"][0] < wilson(11, 12)[0]
    assert s["alpha"]["label"]["units"] == 6 and 0 < s["alpha"]["label"]["alpha"] < 1
    assert s["alpha"]["fluency"]["level"] == "ordinal"
    assert s["majority"] == {"examples": 5, "correct": 5}  # the 1-1 tie has no majority
    assert sum(sum(row.values()) for row in s["confusion"].values()) == 12


def test_the_blind_round_is_the_same_sample_for_everyone_and_ends(toy_build: Path) -> None:
    store = _store(toy_build)
    assert store.sample("toybuild", 5, 7) == store.sample("toybuild", 5, 7)
    seen = []
    while True:
        nxt, done, total = store.next_blind("toybuild", "alice", 5, 7)
        assert total == 5 and done == len(seen)
        if nxt is None:
            break
        seen.append(nxt)
        store.grade("toybuild", nxt, "alice", {"label": "SUPPORTED"}, blind=True)
    assert sorted(seen) == sorted(store.sample("toybuild", 5, 7))
    assert store.next_blind("toybuild", "bob", 5, 7)[0] == seen[0]


def test_sheets_both_ways(toy_build: Path, tmp_path: Path) -> None:
    store = _store(toy_build)
    ds = store.datasets["toybuild"]
    claim, negation = ds.examples[0], ds.examples[1]
    store.grade("toybuild", claim.id, "alice", {"fluency": 3, "decontextualized": 1, "atomicity": 1,
                                                 "faithfulness": 5}, comment="fine")  # fmt: skip
    store.grade("toybuild", ds.examples[3].id, "alice", {"fluency": 3})  # incomplete under the rule: left out
    store.grade("toybuild", negation.id, "alice", {"entailment": 3})
    text, written, skipped = sheet_csv(store, "toybuild", "claims", "alice")
    assert (written, skipped) == (1, 1)
    out = tmp_path / "alice.csv"
    out.write_text(text, encoding="utf-8")
    sheet = read_sheet(out)  # the format claimforge quality sheet reads
    assert sheet.ratings == {claim.id: {"fluency": 3, "decontextualized": 1, "atomicity": 1, "faithfulness": 5}}
    neg_text, n_neg, _ = sheet_csv(store, "toybuild", "negations", "alice")
    assert n_neg == 1 and "Aspirin lowers the risk of stroke number 1." in neg_text
    # a sheet made by `claimforge quality sheet export` (neutral item ids, the key beside it), filled by carol
    sheet_path = tmp_path / "carol.csv"
    export_sheet([ds.examples[0], ds.examples[3]], sheet_path, "claims", seed=1)
    with open(sheet_path, encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    rows[1][4:8] = ["2", "0", "", ""]
    rows[2][4:8] = ["1", "", "", ""]
    with open(sheet_path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows(rows)
    assert import_sheet(store, "toybuild", sheet_path) == 2
    assert {g.example_id for g in store.grades_of("toybuild", annotator="carol")} == {ds.examples[0].id,
                                                                                     ds.examples[3].id}  # fmt: skip
    # a page export read back: the annotator comes from its name, the label of the open grade stays
    store.grade("toybuild", claim.id, "alice", {"label": "SUPPORTED", "fluency": 3, "decontextualized": 1,
                                                 "atomicity": 1, "faithfulness": 5})  # fmt: skip
    page_export = tmp_path / "alice.toybuild.claims.csv"
    page_export.write_text(sheet_csv(store, "toybuild", "claims", "alice")[0].replace(",5,", ",4,"), "utf-8")
    assert import_sheet(store, "toybuild", page_export) == 1
    (g,) = store.grades_of("toybuild", claim.id, "alice", blind=False)
    assert g.values["label"] == "SUPPORTED" and g.values["faithfulness"] == 4 and store.annotators() == [
        "alice", "carol"]  # fmt: skip
    half_bad = tmp_path / "erin.csv"
    half_bad.write_text(
        "item_id,fluency (1-3),decontextualized (0/1),atomicity (0/1),faithfulness (1-5)\n"
        f"{claim.id},1,,,\n{ds.examples[2].id},3,1,1,5\n",  # the second has no source sentence: no faithfulness
        encoding="utf-8",
    )
    with pytest.raises(ReviewError, match="erin.csv: item .* 'faithfulness' does not apply"):
        import_sheet(store, "toybuild", half_bad)
    assert "erin" not in store.annotators()  # nothing was written
    bad = tmp_path / "dave.csv"
    bad.write_text(
        "item_id,fluency (1-3),decontextualized (0/1),atomicity (0/1),faithfulness (1-5)\nnot-an-example,1,,,\n",
        encoding="utf-8",
    )
    with pytest.raises(ReviewError, match="dave.csv: item 'not-an-example'.*no example"):
        import_sheet(store, "toybuild", bad)


def test_a_folder_that_is_not_a_build_is_named() -> None:
    with pytest.raises(ReviewError, match="not a folder"):
        load_dataset("/nonexistent/x")


def test_bad_examples_line_is_named(tmp_path: Path) -> None:
    folder = write_toy_build(tmp_path / "b")
    with open(folder / "examples.jsonl", "a", encoding="utf-8") as f:
        f.write('{"id": "broken"}\n')
    with pytest.raises(ReviewError, match=r"examples.jsonl:13: not a claimforge example"):
        load_dataset(folder)


# -- apply-review --------------------------------------------------------------------------------------------------


def test_apply_review_writes_a_corrected_dataset_with_provenance(toy_build: Path, tmp_path: Path) -> None:
    store = _store(toy_build)
    ds = store.datasets["toybuild"]
    a, b, c = ds.examples[0], ds.examples[1], ds.examples[2]
    store.fix("toybuild", a.id, "relabel", "alice", "NOT_ENOUGH_INFO", "the evidence does not name the dose")
    store.fix("toybuild", b.id, "reject", "bob", reason="not fluent")
    store.fix("toybuild", c.id, "reject", "bob", reason="oops")
    store.fix("toybuild", c.id, "keep", "bob")  # undone
    with pytest.raises(ReviewError, match="needs a reason"):
        store.fix("toybuild", c.id, "reject", "bob")
    with pytest.raises(ReviewError, match="relabel needs a label other than"):
        store.fix("toybuild", a.id, "relabel", "bob", a.label.value)
    before = (toy_build / "examples.jsonl").read_bytes()
    out = tmp_path / "reviewed"
    manifest = apply_review(toy_build, out)
    assert (toy_build / "examples.jsonl").read_bytes() == before  # the reviewed folder is not changed
    got = {e.id: e for e in read_examples(out / "examples.jsonl")}
    assert len(got) == 11 and b.id not in got
    assert got[a.id].label.value == "NOT_ENOUGH_INFO"
    assert got[a.id].provenance.details["review"]["label_before"] == "SUPPORTED"
    assert got[a.id].provenance.details["review"]["annotator"] == "alice"
    rejects = [json.loads(line) for line in (out / "rejects.jsonl").read_text().splitlines()]
    mine = [r for r in rejects if r["stage"] == "review"]
    assert len(mine) == 1 and mine[0]["item_id"] == b.id and "not fluent" in mine[0]["detail"]
    assert len(rejects) == 3  # the build's two rejects are kept
    r = manifest["review"]
    assert r["examples_in"] == r["kept"] + r["relabelled"] + r["rejected"] == 12
    assert (out / "report.md").is_file() and (out / "nli" / "pairs.jsonl").is_file()
    with pytest.raises(ReviewError, match="new folder"):
        apply_review(toy_build, toy_build, force=True)


def test_apply_review_without_fixes_says_so(toy_build: Path, tmp_path: Path) -> None:
    with pytest.raises(ReviewError, match="no fixes to apply"):
        apply_review(toy_build, tmp_path / "out")


# -- the web app ---------------------------------------------------------------------------------------------------


def test_every_request_needs_the_token_and_a_loopback_host(toy_build: Path) -> None:
    store = _store(toy_build)
    c = _client(store, cookie=False)
    assert c.get("/").status_code == 403
    assert c.get("/static/review.css").status_code == 403
    assert c.get("/?token=wrong").status_code == 403
    r = c.get("/examples?token=s3cret&label=REFUTED", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/examples?label=REFUTED"  # the token leaves the URL
    assert "httponly" in r.headers["set-cookie"].lower() and "samesite=strict" in r.headers["set-cookie"].lower()
    assert c.get("/").status_code == 200  # the cookie now
    evil = TestClient(create_app(store, "s3cret"), base_url="http://evil.example:8765")
    assert evil.get("/?token=s3cret").status_code == 403  # DNS rebinding
    ipv6 = TestClient(create_app(store, "s3cret"), base_url="http://[::1]:8765")
    assert ipv6.get("/?token=s3cret").status_code == 200
    assert _client(store, cookie=False).get("/?token=t\u00f6ken").status_code == 403  # not a 500
    for target in ("//evil.example/x", "/\\evil.example", "/\t/evil.example", "https://evil.example/", "x"):
        assert _local_path(target) == "/", target  # redirects never leave the site
    assert _local_path("/examples?label=REFUTED") == "/examples?label=REFUTED"
    other = _client(store, cookie=False)
    other.get("/?token=s3cret")
    second = TestClient(create_app(store, "other-token"), base_url="http://127.0.0.1:8766")
    second.get("/?token=other-token")
    second.cookies.update(other.cookies)  # a browser sends both servers' cookies to either port
    assert second.get("/").status_code == 200 and other.get("/").status_code == 200
    e = store.datasets["toybuild"].examples[0]
    r = c.post(f"/grade/toybuild/{_url(e.id)}", data={"label": "SUPPORTED", "annotator": "x"})
    assert r.status_code == 403 and "htmx" in r.text  # a cross-site form cannot send HX-Request
    assert not store.grades


def test_browse_filter_and_search(toy_build: Path) -> None:
    c = _client(_store(toy_build))
    page = c.get("/examples?dataset=toybuild").text
    assert "12 examples" in page and "f.entity_source" in page  # a provenance facet
    assert "4 examples" in c.get("/examples?dataset=toybuild&label=REFUTED").text
    assert "4 examples" in c.get("/examples?dataset=toybuild&method=claimgen-nei").text
    assert "4 examples" in c.get("/examples?dataset=toybuild&f.entity_source=noun_chunk").text
    r = c.get("/examples?dataset=toybuild&q=stroke+number+10", headers={"HX-Request": "true", "HX-Target": "results"})
    assert "1 example<" in r.text and "<html" not in r.text  # htmx gets the table only
    assert c.get("/examples?dataset=toybuild&f.nope=1").status_code == 400
    assert c.get("/examples?dataset=other").status_code == 404
    assert "no_claims_generated" in c.get("/rejects?dataset=toybuild").text


def test_the_example_page_shows_the_source_and_the_generating_step(toy_build: Path) -> None:
    store = _store(toy_build)
    c = _client(store)
    e = store.datasets["toybuild"].examples[1]  # a negation
    page = c.get(f"/example/toybuild/{_url(e.id)}").text
    for text in ("Aspirin raises the risk of stroke number 1.", "original claim", "minimal-edit", "replaced span",
                 "lowers", "raises", "Negation vs original claim", "Faithful to the source sentence"):  # fmt: skip
        assert text in page, text
    first = store.datasets["toybuild"].examples[0]
    page = c.get(f"/example/toybuild/{_url(first.id)}").text
    assert 'class="sentence key"' in page  # the 5W answer's sentence is marked
    assert "judge (label check)" in page and "entailment 0.91" in page
    assert "Negation vs original claim" not in page
    assert "(Fig. 2)." in page  # the sentence splitter keeps "Fig. 2" in its sentence


def test_grading_and_fixing_through_the_page(toy_build: Path) -> None:
    store = _store(toy_build)
    c = _client(store)
    e = store.datasets["toybuild"].examples[0]
    r = c.post(f"/grade/toybuild/{_url(e.id)}", data={"label": "SUPPORTED", "fluency": "3", "comment": "ok"},
               headers=HX)  # fmt: skip
    assert r.status_code == 200 and "saved" in r.text and "alice" in r.text
    r = c.post(f"/grade/toybuild/{_url(e.id)}", data={"fluency": "7"}, headers=HX)
    assert r.status_code == 400 and "not one of 1, 2, 3" in r.text
    r = c.post(f"/fix/toybuild/{_url(e.id)}", data={"action": "relabel", "label": "REFUTED", "reason": "r"},
               headers=HX)  # fmt: skip
    assert r.status_code == 200 and "relabel" in r.text
    r = c.post(f"/fix/toybuild/{_url(e.id)}", data={"action": "reject"}, headers=HX)
    assert r.status_code == 400 and "needs a reason" in r.text
    anonymous = _client(store)
    anonymous.cookies.delete("claimforge_annotator")
    r = anonymous.post(f"/grade/toybuild/{_url(e.id)}", data={"label": "SUPPORTED"}, headers=HX)
    assert r.status_code == 400 and "annotator name" in r.text
    r = c.post("/annotator", data={"annotator": "bob", "next": "/examples"}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/examples" and "bob" in r.headers["set-cookie"]
    r = c.post("/annotator", data={"annotator": "bob", "next": "//evil.example/x"}, headers=HX)
    assert r.headers["HX-Redirect"] == "/"  # never off the site
    assert "alice" in c.get("/agreement").text


def test_the_blind_round_hides_the_label_and_moves_on(toy_build: Path) -> None:
    store = _store(toy_build)
    c = _client(store)
    page = c.get("/blind?dataset=toybuild&n=3&seed=1").text
    assert "0 of 3 graded" in page
    assert "badge SUPPORTED" not in page and "badge REFUTED" not in page and "original claim" not in page
    assert "Faithful" not in page and "Negation vs" not in page  # only what claim + evidence can answer
    ids = store.sample("toybuild", 3, 1)
    for i in range(3):
        assert not any(x in page or quote(x, safe="") in page for x in ids)  # the id spells the label: never shown
        assert not re.search(r"%23\d*[SRN]\b|#\d*[SRN]\b", page)
        assert 'class="sentence key"' not in page  # nor the pipeline's own analysis
        position = re.search(r'name="position" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
        form = {"dataset": "toybuild", "n": "3", "seed": "1", "position": position, "label": "SUPPORTED"}
        r = c.post("/blind/grade", data=form, headers=HX)
        assert r.status_code == 204 and r.headers["HX-Redirect"] == "/blind?dataset=toybuild&n=3&seed=1"
        page = c.get(r.headers["HX-Redirect"]).text
        assert f"{i + 1} of 3" in page
    assert "Done: 3 of 3 graded" in page and "your labels agree with the dataset" in page
    assert all(g.blind for g in store.grades.values()) and len(store.grades) == 3
    r = c.post("/blind/grade", data={"dataset": "toybuild", "n": "3", "seed": "1", "position": "0"}, headers=HX)
    assert r.status_code == 400 and "choose a label" in r.text
    r = c.post("/blind/grade", data={**form, "position": "7"}, headers=HX)
    assert r.status_code == 400 and "not in this round" in r.text
    nameless = _client(store)
    nameless.cookies.delete("claimforge_annotator")
    assert "Set your name at the top" in nameless.get("/blind?dataset=toybuild").text


def test_a_blind_grade_and_an_open_one_are_kept_apart(toy_build: Path) -> None:
    store = _store(toy_build)
    e = store.datasets["toybuild"].examples[0]
    store.grade("toybuild", e.id, "alice", {"label": "REFUTED"}, blind=True)
    store.grade("toybuild", e.id, "alice", {"label": "SUPPORTED", "fluency": 3}, blind=False)  # later, label shown
    assert store.summary("toybuild")["blind"]["n"] == 1 and store.summary("toybuild")["open"]["n"] == 1
    assert {g.blind for g in _store(toy_build).grades_of("toybuild", e.id)} == {True, False}
    # an open grade does not count in the blind round
    other = store.datasets["toybuild"].examples[1]
    store.grade("toybuild", other.id, "bob", {"label": "REFUTED"}, blind=False)
    assert other.id in store.sample("toybuild", 12, 0)
    left = []
    while (nxt := store.next_blind("toybuild", "bob", 12, 0)[0]) is not None:
        left.append(nxt)
        store.grade("toybuild", nxt, "bob", {"label": "SUPPORTED"}, blind=True)
    assert other.id in left and len(left) == 12


def test_a_grade_after_a_crash_starts_its_own_line(toy_build: Path) -> None:
    store = _store(toy_build)
    a, b = store.datasets["toybuild"].examples[:2]
    store.grade("toybuild", a.id, "alice", {"label": "SUPPORTED"})
    grades = toy_build / "review" / "grades.jsonl"
    with open(grades, "a", encoding="utf-8") as f:
        f.write('{"example_id": "toy:0#1S", "annot')  # killed mid-write
    again = _store(toy_build)
    again.grade("toybuild", b.id, "alice", {"label": "REFUTED"})
    third = _store(toy_build)  # starts, with both grades
    assert {g.example_id for g in third.grades.values()} == {a.id, b.id} and not third.warnings


def test_export_gives_a_sheet_and_agreement_shows_alpha(toy_build: Path) -> None:
    store = _store(toy_build)
    for e in store.datasets["toybuild"].examples[:4]:
        for who in ("alice", "bob"):
            store.grade("toybuild", e.id, who, {"label": e.label.value, "fluency": 3, "decontextualized": 1,
                                                "atomicity": 1, "faithfulness": 4} if e.provenance.details.get(
                "source_sentence") else {"label": e.label.value}, blind=True)  # fmt: skip
    c = _client(store)
    page = c.get("/agreement").text
    assert "Krippendorff" in page and "8/8 (100%" in page
    r = c.get("/export/toybuild/claims.csv?annotator=alice")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert r.headers["X-Rows"] == "3" and "generated_claim" in r.text
    assert c.get("/export/toybuild/other.csv?annotator=alice").status_code == 400


class FakeChecker:
    """What build_checker returns, without models: SUPPORTED when the evidence repeats the claim's first word."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def check(self, items: Any) -> list[CheckResult]:
        self.calls.append(items)
        out = []
        for it in items:
            hit = it.claim.split()[0].lower() in " ".join(it.evidence).lower()
            p = {"SUPPORTED": 0.9, "REFUTED": 0.05, "NOT_ENOUGH_INFO": 0.05} if hit else {
                "SUPPORTED": 0.1, "REFUTED": 0.1, "NOT_ENOUGH_INFO": 0.8}  # fmt: skip
            label = max(p, key=lambda k: p[k])
            ev = tuple(EvidenceScore(text=s, probabilities=p, supports_verdict=hit) for s in it.evidence)
            out.append(CheckResult(id=it.id, claim=it.claim, label=label, probabilities=p, evidence=ev))
        return out


def test_post_check_answers_json(toy_build: Path) -> None:
    made: list[bool] = []
    fake = FakeChecker()

    def factory(full: bool) -> FakeChecker:
        made.append(full)
        return fake

    c = _client(_store(toy_build), factory, cookie=False)
    auth = {"Authorization": "Bearer s3cret"}
    body = {"claim": "Aspirin lowers stroke risk.", "evidence": "Aspirin lowered stroke risk. It was safe."}
    r = c.post("/check", json=body, headers=auth)
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["label"] == "SUPPORTED" and len(doc["evidence"]) == 2 and doc["claim"] == body["claim"]
    r = c.post("/check", json=[body, {"claim": "Zinc helps.", "evidence": ["Aspirin did."], "id": "z"}], headers=auth)
    assert [d["label"] for d in r.json()] == ["SUPPORTED", "NOT_ENOUGH_INFO"] and r.json()[1]["id"] == "z"
    assert made == [True]  # made once, on first use
    assert c.post("/check", json=body).status_code == 403  # no token
    assert c.post("/check", content=b"{nope", headers=auth).status_code == 400
    r = c.post("/check", json={"claim": "x"}, headers=auth)
    assert r.status_code == 400 and "evidence" in r.json()["error"]
    r = c.post("/check", json={"claim": "x", "evidence": "/etc/passwd"}, headers=auth)
    assert r.status_code == 200 and fake.calls[-1][0].evidence == ("/etc/passwd",)  # text, never a file
    off = _client(_store(toy_build), None, cookie=False)
    assert off.post("/check", json=body, headers=auth).status_code == 503


def test_the_judge_scores_each_sentence_on_demand(toy_build: Path) -> None:
    store = _store(toy_build)
    c = _client(store, lambda full: FakeChecker())
    e = store.datasets["toybuild"].examples[0]
    r = c.post(f"/score/toybuild/{_url(e.id)}", headers=HX)
    assert r.status_code == 200 and r.text.count("decisive SUPPORTED") == 3 and "SUP 0.90" in r.text
    assert "decisive" in c.get(f"/example/toybuild/{_url(e.id)}").text  # kept for the page


@pytest.mark.slow
def test_post_check_with_the_embedded_judge(toy_build: Path) -> None:
    from claimforge.check import build_checker

    c = _client(_store(toy_build), lambda full: build_checker("zero-shot-nli", aspects=False), cookie=False)
    r = c.post(
        "/check",
        json={
            "claim": "Aspirin lowers the risk of a second stroke.",
            "evidence": "Aspirin lowers the risk of a second stroke in adults. Bleeding was more common.",
        },  # fmt: skip
        headers={"Authorization": "Bearer s3cret"},
    )
    assert r.status_code == 200 and r.json()["label"] == "SUPPORTED"


# -- the command line ------------------------------------------------------------------------------------------------


def test_cli_review_fails_early_on_a_bad_folder(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli_app, ["review", str(tmp_path / "missing")])
    assert r.exit_code == 2 and "not a folder" in _out(r)
    r = CliRunner().invoke(cli_app, ["review", str(tmp_path), "--check-model", "nope"])
    assert r.exit_code == 2 and "--check-model 'nope' is neither" in _out(r)
    (tmp_path / "empty").mkdir()
    r = CliRunner().invoke(cli_app, ["review", str(tmp_path / "empty")])
    assert r.exit_code == 2 and "no examples.jsonl" in _out(r)


def test_cli_review_port_in_use_is_a_clear_error(toy_build: Path) -> None:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    try:
        r = CliRunner().invoke(cli_app, ["review", str(toy_build), "--port", str(s.getsockname()[1]), "--no-check"])
    finally:
        s.close()
    assert r.exit_code == 2 and "cannot listen there" in _out(r) and "--port 0" in _out(r)


def test_cli_apply_review(toy_build: Path, tmp_path: Path) -> None:
    store = _store(toy_build)
    store.fix("toybuild", store.datasets["toybuild"].examples[0].id, "reject", "alice", reason="bad")
    r = CliRunner().invoke(cli_app, ["apply-review", str(toy_build), "--out", str(tmp_path / "fixed")])
    assert r.exit_code == 0, r.output
    assert "12 examples in, 11 out" in _out(r) and "1 rejected in review" in _out(r)
    r = CliRunner().invoke(cli_app, ["apply-review", str(tmp_path / "nothing"), "--out", str(tmp_path / "f2")])
    assert r.exit_code == 2 and "not a folder" in _out(r)
