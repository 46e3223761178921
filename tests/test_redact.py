"""No credential reaches an output: the one redaction function and the build outputs that use it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimforge.redact import redact, redact_tree, url_userinfo, url_without_userinfo


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://u:PW@host/v1", "http://***@host/v1"),
        (
            "claimforge build x --set qa2d.base_url=https://me:hunter2@llm.example.org:8443/v1 --out o",
            "claimforge build x --set qa2d.base_url=https://***@llm.example.org:8443/v1 --out o",
        ),
        ("https://host/v1?api_key=abc123&x=1", "https://host/v1?api_key=***&x=1"),
        ("https://host/v1?x=1&token=t0ken", "https://host/v1?x=1&token=***"),
        ("http://localhost:8000/v1", "http://localhost:8000/v1"),
        ("user@example.org wrote", "user@example.org wrote"),  # not a URL: left alone
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_secret_environment_values_are_masked_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_API_KEY", "sk-abcdef123456")
    monkeypatch.setenv("SHORT_TOKEN", "ab")  # too short to mask safely
    assert redact("error: key sk-abcdef123456 refused") == "error: key *** refused"
    assert redact("ab ab") == "ab ab"


def test_redact_tree_and_url_helpers() -> None:
    tree = {"a": ["http://x:y@h/p", 3, None], "b": {"c": "plain"}}
    assert redact_tree(tree) == {"a": ["http://***@h/p", 3, None], "b": {"c": "plain"}}
    assert url_without_userinfo("https://a:b%40c@h:1/v1") == "https://h:1/v1"
    assert url_userinfo("https://a:b%40c@h:1/v1") == ("a", "b@c")
    assert url_userinfo("https://h/v1") is None


def test_a_password_in_the_command_reaches_no_build_output(tmp_path: Path) -> None:
    from claimforge.build import run_build
    from claimforge.cli import DEMO_SAMPLE

    password = "PW-9f8e7d6c"
    url = f"http://alice:{password}@127.0.0.1:9/v1"
    recipe = {
        "pipeline": "multi2claim",
        "reader": {"name": "sciq", "path": str(DEMO_SAMPLE)},
        "embedder": {"name": "hashing"},
    }
    out = tmp_path / "o"
    command = f"claimforge build multi2claim --set qa2d.base_url={url} --out {out}"
    run_build(recipe, out, command=command)
    for path in out.rglob("*"):
        if path.is_file():
            assert password.encode() not in path.read_bytes(), path
    manifest = json.loads((out / "manifest.json").read_text())
    assert "http://***@127.0.0.1:9/v1" in manifest["command"]
    assert "***@127.0.0.1" in (out / "report.md").read_text()
