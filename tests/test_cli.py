"""The command line: demo, build with limits and overrides, bad input handling, resumability."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimforge.cli import DEMO_SAMPLE, app

runner = CliRunner()


def lines(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_demo_builds_a_balanced_dataset_offline(tmp_path: Path) -> None:
    res = runner.invoke(app, ["demo", "--out", str(tmp_path / "demo")])
    assert res.exit_code == 0, res.output
    out = tmp_path / "demo"
    ex = lines(out / "examples.jsonl")
    labels = {e["label"] for e in ex}
    assert labels == {"SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"}
    counts = [sum(e["label"] == lab for e in ex) for lab in labels]
    assert len(set(counts)) == 1 and counts[0] >= 10  # what the judge confirms (12 per label, 2026-11-25)
    manifest = json.loads((out / "manifest.json").read_text())
    c = manifest["counts"]
    assert c["items_in"] == 48 == c["items_used"] + c["items_rejected"]
    for f in (
        "report.md",
        "lengths.png",
        "rejects.jsonl",
        "examples.parquet",
        "scifact/claims.jsonl",
        "scifact/corpus.jsonl",
        "fever/claims.jsonl",
        "fever/wiki-pages/wiki-001.jsonl",
        "multivers/claims_train.jsonl",
        "nli/pairs.jsonl",
    ):
        assert (out / f).exists(), f
    assert (out / "lengths.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (out / "report.md").read_text()
    assert "Table 5" in report and "random SUPPORTED examples" in report
    page = (out / "report.html").read_text()  # the same report as one page that opens without a server
    assert page.startswith("<!doctype html>") and "data:image/png;base64," in page and 'id="data"' in page
    assert "report.html" in manifest["files"]
    data = json.loads(page.split('<script type="application/json" id="data">')[1].split("</script>")[0])
    assert len(data) == len(ex) and {d["id"] for d in data} == {e["id"] for e in ex}

    # FACTIFY on the demo build: a bare folder as --input takes the recipe's reader
    res = runner.invoke(app, ["build", "factify", "--input", str(out), "--out", str(tmp_path / "fy"), "--limit", "12"])
    assert res.exit_code == 0, res.output
    fy = lines(tmp_path / "fy" / "examples.jsonl")
    originals = [e for e in fy if e["method"] != "factify"]
    assert [e["id"] for e in originals] == [e["id"] for e in ex[:12]]
    for e in fy:
        if e["method"] == "factify":
            d = e["provenance"]["details"]
            assert d["edit_distance"] > 2 and min(d["entailment"]) >= 0.75 and d["paraphrase_of"] in e["id"]
    assert any(e.get("qa_pairs") for e in fy)
    c = json.loads((tmp_path / "fy" / "manifest.json").read_text())["counts"]
    assert c["items_in"] == 12 == c["items_used"] + c["items_rejected"]


def build(input_spec: str, out: Path, *options: str, sets: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    """Run `claimforge build multi2claim --input SPEC --out OUT [options] --set ...` in-process."""
    args = ["build", "multi2claim", "--input", input_spec, "--out", str(out), *options]
    for s in sets:
        args += ["--set", s]
    return runner.invoke(app, args)


def _medmcqa(path: Path, bad_line: bool) -> Path:
    rows = [
        json.dumps({"question": f"What is thing {i}?", "choices": ["A. alpha", "B. beta", "C. gamma"], "answer": 0})
        for i in range(4)
    ]
    if bad_line:
        rows.insert(2, '{"question": "broken", ')
    path.write_text("\n".join(rows) + "\n")
    return path


def test_malformed_line_is_an_error_naming_file_and_line(tmp_path: Path) -> None:
    src = _medmcqa(tmp_path / "mm.jsonl", bad_line=True)
    res = build(f"medmcqa:{src}", tmp_path / "o", sets=("embedder.name=hashing",))
    assert res.exit_code == 2
    assert "mm.jsonl" in res.output and "line 3" in res.output


def test_skip_bad_turns_malformed_lines_into_rejects(tmp_path: Path) -> None:
    src = _medmcqa(tmp_path / "mm.jsonl", bad_line=True)
    out = tmp_path / "o"
    res = build(f"medmcqa:{src}", out, "--skip-bad", sets=("embedder.name=hashing",))
    # every item is rejected: a failed build that names the reasons (issue 16), its files still written
    assert res.exit_code == 1, res.output
    assert "no_explanation (4), malformed_record (1)" in " ".join(res.output.split())
    rejects = lines(out / "rejects.jsonl")
    reasons = sorted(r["reason"] for r in rejects if r["scope"] == "item")
    # this MedMCQA copy has no explanations: every good item is rejected for that, the bad line as malformed
    assert reasons == ["malformed_record"] + ["no_explanation"] * 4
    bad = next(r for r in rejects if r["reason"] == "malformed_record")
    assert bad["ref"]["line"] == 3
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["items_in"] == 5 == manifest["counts"]["items_rejected"]


def test_unknown_override_key_is_a_clear_error(tmp_path: Path) -> None:
    res = build(f"sciq:{DEMO_SAMPLE}", tmp_path, sets=("min_evidence_wrds=3",))
    assert res.exit_code == 2 and "min_evidence_wrds" in res.output
    assert "did you mean 'min_evidence_words'" in " ".join(res.output.split()) and "pydantic" not in res.output


def test_an_empty_build_fails_with_the_reasons_unless_allowed(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    res = build(f"sciq:{empty}", tmp_path / "a", sets=("embedder.name=hashing",))
    assert res.exit_code == 1 and "no examples; the input held no records" in " ".join(res.output.split())
    short = tmp_path / "short.json"
    short.write_text(json.dumps([json.loads(DEMO_SAMPLE.read_text())[0]]))
    res = build(f"sciq:{short}", tmp_path / "b", sets=("embedder.name=hashing", "min_evidence_words=5000"))
    assert res.exit_code == 1 and "short_evidence (1)" in " ".join(res.output.split())
    res = build(f"sciq:{empty}", tmp_path / "c", "--allow-empty", sets=("embedder.name=hashing",))
    assert res.exit_code == 0, res.output


def test_version_option() -> None:
    from claimforge import __version__

    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.output.strip() == __version__


def test_qa2d_command(tmp_path: Path) -> None:
    res = runner.invoke(app, ["qa2d", "What do neurons pass to the next neuron?", "neurotransmitters"])
    assert res.exit_code == 0
    assert "Neurons pass neurotransmitters to the next neuron." in res.output


def test_qa2d_reads_a_file(tmp_path: Path) -> None:
    table = tmp_path / "qa.csv"
    table.write_text(
        "question,answer\nWhat do neurons pass to the next neuron?,neurotransmitters\nWhich gas do plants take in?,"
        "carbon dioxide\n",
        encoding="utf-8",
    )
    out = tmp_path / "claims.jsonl"
    res = runner.invoke(app, ["qa2d", "--input", str(table), "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["line"] for r in rows] == [2, 3]
    assert rows[1]["claim"] == "Plants take in carbon dioxide."
    js = tmp_path / "qa.jsonl"
    js.write_text('{"question": "What organ pumps blood?", "answers": ["the heart"]}\n{"question": ""}\n')
    res = runner.invoke(app, ["qa2d", "--input", str(js)])
    assert res.exit_code == 2 and "qa.jsonl, line 2: no 'question' text" in " ".join(res.output.split())
    res = runner.invoke(app, ["qa2d", "What organ pumps blood?"])
    assert res.exit_code == 2 and "at least one answer" in res.output


def test_components_lists_the_registry() -> None:
    res = runner.invoke(app, ["components"])
    assert res.exit_code == 0
    for name in ("sciq", "medmcqa", "rules", "hf-seq2seq", "llm", "sentence-transformers", "multi2claim"):
        assert name in res.output


@pytest.mark.slow
def test_killed_run_resumes_to_identical_output(tmp_path: Path) -> None:
    """SIGKILL a build part-way, rerun it with the same cache: outputs equal a clean run's."""
    env = {**os.environ, "CLAIMFORGE_CACHE": str(tmp_path / "cache")}
    # the clean run's cache shares the session's exported ONNX graphs (90 MB each; graphs are only a faster runtime
    # of the same weights); the killed run's is fresh, so a kill can land while the judge is being exported
    session_graphs = Path(os.environ["CLAIMFORGE_CACHE"]) / "onnx"
    session_graphs.mkdir(parents=True, exist_ok=True)
    (tmp_path / "cache2").mkdir()
    (tmp_path / "cache2" / "onnx").symlink_to(session_graphs, target_is_directory=True)
    cmd = [
        sys.executable,
        "-m",
        "claimforge.cli",
        "build",
        "multi2claim",
        "--input",
        f"sciq:{DEMO_SAMPLE}",
        "--set",
        "embedder.batch_size=4",
    ]
    proc = subprocess.Popen(
        [*cmd, "--out", str(tmp_path / "a")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    # wait until the cache holds part of the work, then kill
    deadline = time.time() + 120
    while time.time() < deadline and not list((tmp_path / "cache").glob("*.sqlite")):
        time.sleep(0.2)
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (tmp_path / "a" / "examples.jsonl").exists() or proc.returncode == 0
    subprocess.run([*cmd, "--out", str(tmp_path / "a")], env=env, check=True, capture_output=True)
    clean_env = {**os.environ, "CLAIMFORGE_CACHE": str(tmp_path / "cache2")}
    subprocess.run([*cmd, "--out", str(tmp_path / "b")], env=clean_env, check=True, capture_output=True)
    for f in ("examples.jsonl", "rejects.jsonl", "scifact/claims.jsonl", "nli/pairs.jsonl"):
        assert (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f


def test_input_and_reader_overrides_combine(tmp_path: Path) -> None:
    """--input picks the reader; --set reader.* configures it (a table with a column mapping)."""
    filler = " ".join(["Cells are the basic units of life and they divide."] * 6)
    rows = ["stem,w,x,y,key,why"]
    for i, (ans, other) in enumerate([("nucleus", "ribosome"), ("ribosome", "nucleus"), ("vacuole", "golgi")]):
        rows.append(f"What organelle is number {i}?,{ans},{other},lysosome,A,The {ans} is here. {filler} {i}")
    src = tmp_path / "q.csv"
    src.write_text("\n".join(rows) + "\n")
    out = tmp_path / "o"
    sets = (
        "reader.question=stem",
        "reader.options=[w, x, y]",
        "reader.answer=key",
        "reader.explanation=why",
        "embedder.name=hashing",
        "label_check=off",  # three toy questions: the judge would not confirm them all
    )
    res = build(f"table:{src}", out, "--no-cache", sets=sets)
    assert res.exit_code == 0, res.output
    ex = lines(out / "examples.jsonl")
    assert {e["label"] for e in ex} == {"SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"}
    assert any(e["claim"].startswith(("Nucleus", "The nucleus")) for e in ex)


def test_out_guard_fails_before_any_work_and_lists_only_build_files(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.pdf").write_bytes(b"%PDF")
    start = time.monotonic()
    res = build(f"sciq:{DEMO_SAMPLE}", mine)
    assert res.exit_code == 2 and "thesis.pdf" in res.output and "--force" in res.output
    assert time.monotonic() - start < 5 and sorted(p.name for p in mine.iterdir()) == ["thesis.pdf"]
    res = build(f"sciq:{DEMO_SAMPLE}", mine, "--force", sets=("embedder.name=hashing",))
    assert res.exit_code == 0, res.output
    files = json.loads((mine / "manifest.json").read_text())["files"]
    assert "thesis.pdf" not in files and "examples.jsonl" in files
    assert all((mine / f).is_file() for f in files)
    # a rebuild into the same folder replaces the build (no --force needed) and says what it replaced
    res = build(f"sciq:{DEMO_SAMPLE}", mine, "--limit", "20", sets=("embedder.name=hashing",))
    assert res.exit_code == 0, res.output
    manifest = json.loads((mine / "manifest.json").read_text())
    assert manifest["replaced_build"]["pipeline"] == "multi2claim" and (mine / "thesis.pdf").exists()


@pytest.mark.parametrize("limit", ["0", "-5"])
def test_limit_must_be_positive(tmp_path: Path, limit: str) -> None:
    res = build(f"sciq:{DEMO_SAMPLE}", tmp_path / "o", "--limit", limit)
    assert res.exit_code == 2 and "--limit must be a positive number" in res.output


def test_quiet_shows_no_progress_and_verbose_logs(tmp_path: Path) -> None:
    args = ["build", "multi2claim", "--input", f"sciq:{DEMO_SAMPLE}", "--limit", "6", "--set", "embedder.name=hashing"]
    res = runner.invoke(app, ["--quiet", *args, "--out", str(tmp_path / "q"), "--allow-empty"])
    assert res.exit_code == 0, res.output
    assert "read + prefilter" not in res.output and "━" not in res.output and "done" in res.output
    res = runner.invoke(app, ["--quiet", "--verbose", "components"])
    assert res.exit_code == 2 and "exclude each other" in " ".join(res.output.split())


def test_a_reader_of_the_wrong_record_kind_is_refused_naming_the_readers_that_fit(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"doc_id": 1, "title": "T", "abstract": ["Aspirin reduces fever in adults."]}) + "\n")
    res = runner.invoke(
        app, ["build", "multi2claim", "--input", f"scifact-corpus:{corpus}", "--out", str(tmp_path / "a")]
    )
    text = " ".join(res.output.split())
    assert res.exit_code == 2, res.output
    assert "reader 'scifact-corpus' gives SentenceItem records" in text and "reads MCQItem records" in text
    assert "sciq" in text and "medmcqa" in text and not (tmp_path / "a" / "manifest.json").exists()
    res = runner.invoke(app, ["build", "claimgen", "--input", f"sciq:{DEMO_SAMPLE}", "--out", str(tmp_path / "b")])
    text = " ".join(res.output.split())
    assert res.exit_code == 2 and "gives MCQItem records" in text and "citation-integrity" in text
