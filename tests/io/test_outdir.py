"""The output folder guard: never the root or home folder, never someone else's files, only our files listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimforge.io.outdir import MARKER, OutputDirError, check_output_dir


def test_root_and_home_are_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    home = tmp_path / "home" / "me"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    for bad in ("/", str(home), str(home.parent), "~"):
        with pytest.raises(OutputDirError, match="root or home"):
            check_output_dir(bad, force=True)
    check_output_dir(home / "builds" / "x")  # a new folder below home is fine


def test_a_folder_with_foreign_files_needs_force(tmp_path: Path) -> None:
    (tmp_path / "id_ed25519").write_text("secret")
    (tmp_path / "paper.pdf").write_bytes(b"%PDF")
    with pytest.raises(OutputDirError, match=r"not a claimforge build \(id_ed25519, paper.pdf\).*--force"):
        check_output_dir(tmp_path)
    target = check_output_dir(tmp_path, force=True)
    target.start()
    (tmp_path / "examples.jsonl").write_text("{}\n")
    assert target.written() == ["examples.jsonl"]  # the user's files are never listed


def test_a_file_is_not_a_folder(tmp_path: Path) -> None:
    f = tmp_path / "f.txt"
    f.write_text("x")
    with pytest.raises(OutputDirError, match="is a file"):
        check_output_dir(f)


def test_a_previous_build_is_replaced_without_stale_files(tmp_path: Path) -> None:
    out = tmp_path / "o"
    first = check_output_dir(out)
    first.start()
    for name in ("examples.jsonl", "old_only.jsonl"):
        (out / name).write_text("old\n")
    manifest = {"pipeline": "multi2claim", "files": sorted(first.written()) + ["manifest.json"]}
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "notes.txt").write_text("mine")  # the user's own file beside a build
    second = check_output_dir(out)
    assert second.replaced is not None and second.replaced["pipeline"] == "multi2claim"
    second.start()
    assert not (out / "old_only.jsonl").exists() and not (out / "examples.jsonl").exists()
    assert (out / "notes.txt").read_text() == "mine" and (out / MARKER).is_file()
    (out / "examples.jsonl").write_text("new\n")
    assert second.written() == ["examples.jsonl"]


def test_an_interrupted_build_folder_is_ours(tmp_path: Path) -> None:
    out = tmp_path / "o"
    check_output_dir(out).start()
    (out / "examples.jsonl").write_text("partial")
    assert check_output_dir(out).replaced is None  # marker only: accepted without --force
