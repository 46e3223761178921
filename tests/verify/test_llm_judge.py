"""The LLM-judge verifier against a local scripted OpenAI-compatible server (as in tests/backends/test_llm.py)."""

from __future__ import annotations

import json
import logging
import re
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from claimforge.backends.llm import OpenAIChatConfig
from claimforge.records import Label, Pair
from claimforge.registry import registry
from claimforge.verify.base import LABELS_2, LABELS_3, Verifier, VerifierConfig, predict_labels
from claimforge.verify.llm_judge import (
    DEFAULT_SYSTEM_TEMPLATES,
    SCICLAIMHUNT_PROMPT,
    LLMJudgeConfig,
    LLMJudgeVerifier,
    UnparsedOutputError,
    parse_label,
    trim_evidence,
)

SECRET = "sk-test-Jd7Lq2Xv9RbN4pW0"
KEY_ENV = "CLAIMFORGE_TEST_JUDGE_KEY"
S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO


class FakeServer:
    """``POST /v1/chat/completions``: the reply is ``responder(request body)``; requests are recorded."""

    def __init__(self) -> None:
        self.responder: Callable[[dict[str, Any]], str] = lambda body: "SUPPORTED"
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                with server.lock:
                    server.requests.append({"headers": dict(self.headers), "body": body})
                content = server.responder(body)
                message = {"role": "assistant", "content": content}
                data = json.dumps({"choices": [{"index": 0, "message": message}]}).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            daemon_threads = True

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def count(self) -> int:
        with self.lock:
            return len(self.requests)

    def script(self, by_claim: dict[str, str]) -> None:
        """Reply by the claim in the user message."""

        def respond(body: dict[str, Any]) -> str:
            user = body["messages"][-1]["content"]
            claim = re.search(r"^Claim: (.*)$", user, re.MULTILINE)
            assert claim is not None, user
            return by_claim[claim.group(1)]

        self.responder = respond


@pytest.fixture
def server(serve) -> FakeServer:  # type: ignore[no-untyped-def]
    return serve(FakeServer(), KEY_ENV, SECRET)


def _spec(server: FakeServer, tmp_path: Path, **kw: Any) -> dict[str, Any]:
    return {
        "base_url": server.base_url,
        "model": "judge-mini",
        "api_key_env": KEY_ENV,
        "backoff": 0.01,
        "timeout": 2.0,
        "cache_dir": str(tmp_path / "cache"),
        **kw,
    }


def _judge(server: FakeServer, tmp_path: Path, **kw: Any) -> LLMJudgeVerifier:
    return LLMJudgeVerifier(LLMJudgeConfig(**_spec(server, tmp_path, **kw)))


def _pair(i: int, claim: str | None = None, evidence: tuple[str, ...] = ("Cells contain DNA.",)) -> Pair:
    return Pair(id=f"p{i}", claim=claim or f"Claim number {i}.", evidence=evidence)


# -- config, registry, identity ---------------------------------------------------------------------


def test_config_fields_do_not_clash_and_registry_builds(server: FakeServer, tmp_path: Path) -> None:
    assert not set(OpenAIChatConfig.model_fields) & set(VerifierConfig.model_fields)
    verifier = registry.build("verifier", {"name": "llm-judge", **_spec(server, tmp_path, num_labels=2)})
    assert isinstance(verifier, LLMJudgeVerifier) and isinstance(verifier, Verifier)
    assert verifier.labels == LABELS_2
    assert isinstance(verifier.config, VerifierConfig) and isinstance(verifier.config, OpenAIChatConfig)
    with pytest.raises(ValidationError):
        LLMJudgeConfig(model="m", num_labels=4)
    with pytest.raises(ValidationError, match="claim"):
        LLMJudgeConfig(model="m", user_template="Evidence: {evidence}")
    with pytest.raises(ValidationError):
        LLMJudgeConfig(model="m", on_unparsed="drop")


def test_model_id_names_model_and_host_without_credentials(server: FakeServer, tmp_path: Path) -> None:
    v3 = _judge(server, tmp_path)
    assert re.fullmatch(rf"llm-judge:judge-mini@127\.0\.0\.1:{server.port}#[0-9a-f]{{10}}", v3.model_id)
    assert _judge(server, tmp_path, num_labels=2).model_id != v3.model_id  # another prompt, another id
    creds = _judge(server, tmp_path, base_url="https://alice:hunter2@api.example.org/v1")
    assert creds.model_id.startswith("llm-judge:judge-mini@api.example.org#")
    for text in (creds.model_id, repr(creds)):
        assert "alice" not in text and "hunter2" not in text and SECRET not in text


def test_api_key_never_in_model_id_repr_or_logs(
    server: FakeServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # including httpx / httpcore debug logs
    server.responder = lambda body: "I would rather not say."  # unparsed -> a warning is logged
    verifier = _judge(server, tmp_path)
    verifier.predict_proba([_pair(1)])
    assert server.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"  # the key is used...
    assert any("named no label" in r.getMessage() for r in caplog.records)
    for text in (verifier.model_id, repr(verifier), repr(verifier.config), repr(verifier.llm), caplog.text):
        assert SECRET not in text  # ... and never shown
    assert all(SECRET not in str(m) for m in verifier.unparsed)


# -- the prompt -------------------------------------------------------------------------------------


def test_three_way_messages_carry_claim_evidence_and_options(server: FakeServer, tmp_path: Path) -> None:
    pair = _pair(1, "Mitochondria make ATP.", ("Mitochondria produce ATP.", "They have their own DNA."))
    verifier = _judge(server, tmp_path)
    verifier.predict_proba([pair])
    (req,) = server.requests
    system, user = req["body"]["messages"]
    assert system == {"role": "system", "content": DEFAULT_SYSTEM_TEMPLATES[3]}
    assert system["content"].startswith("You are an expert in making judgments. You are given a claim and")
    assert "'SUPPORTED'" in system["content"] and "'REFUTED'" in system["content"]
    assert "'NOT ENOUGH INFO'" in system["content"]
    assert user["role"] == "user"
    assert user["content"] == (
        "Claim: Mitochondria make ATP.\n\nSentences:\n1. Mitochondria produce ATP.\n2. They have their own DNA."
        "\n\nAnswer with exactly one of 'SUPPORTED', 'REFUTED' or 'NOT ENOUGH INFO'."
    )
    assert req["body"]["model"] == "judge-mini" and req["body"]["temperature"] == 0.0
    assert verifier.messages(pair) == req["body"]["messages"]


def test_two_way_messages_offer_only_two_labels(server: FakeServer, tmp_path: Path) -> None:
    _judge(server, tmp_path, num_labels=2).predict_proba([_pair(1, evidence=())])
    system, user = (m["content"] for m in server.requests[0]["body"]["messages"])
    # the paper's instruction with 'positive'/'negative' renamed
    assert system == SCICLAIMHUNT_PROMPT.replace("'positive'", "'SUPPORTED'").replace("'negative'", "'REFUTED'")
    assert user.endswith("Answer with exactly one of 'SUPPORTED' or 'REFUTED'.")
    assert "(no sentences)" in user
    assert "ENOUGH" not in system + user


def test_template_overrides(server: FakeServer, tmp_path: Path) -> None:
    verifier = _judge(
        server,
        tmp_path,
        system_template="Judge. Options: {options}.",
        user_template='C={claim}\nE={evidence}\nReply as {"label": <one of {options}>}',
    )
    system, user = verifier.messages(_pair(1, "A {evidence} claim."))
    assert system["content"] == "Judge. Options: 'SUPPORTED', 'REFUTED' or 'NOT ENOUGH INFO'."
    assert user["content"] == (
        "C=A {evidence} claim.\nE=1. Cells contain DNA.\n"
        "Reply as {\"label\": <one of 'SUPPORTED', 'REFUTED' or 'NOT ENOUGH INFO'>}"
    )


# -- parsing ----------------------------------------------------------------------------------------

PARSE_CASES: list[tuple[str, Label | None, Label | None]] = [
    # (reply, 3-way label, 2-way label)
    ("SUPPORTED", S, S),
    ("refuted.", R, R),
    ("**Supported**", S, S),
    ("  'REFUTED'  ", R, R),
    ("NOT ENOUGH INFO", N, R),
    ("NOT_ENOUGH_INFO", N, R),
    ("NEI", N, R),
    ("SUPPORTS", S, S),
    ("Refutes", R, R),
    ("CONTRADICT", R, R),
    ("entailment", S, S),
    ("contradiction", R, R),
    ("Neutral", N, R),
    ("Unknown.", N, R),
    ("Unverifiable", N, R),
    ("The information is insufficient to decide.", N, R),
    ("True", S, S),
    ("FALSE", R, R),
    ("Yes", S, S),
    ("No.", R, R),
    ("Label: REFUTED", R, R),
    ("Final answer: **Not supported**", N, R),
    ("Answer:\nSUPPORTED", S, S),
    ("The answer is REFUTED", R, R),
    ("Verdict - positive", S, S),
    ("Answer: Refuted, because the evidence does not support it.", R, R),
    ('{"label": "refutes"}', R, R),
    ('```json\n{"verdict": "SUPPORTS", "reason": "nothing contradicts it"}\n```', S, S),
    ("{'label': 'NEI'}", N, R),
    ("The first sentence mentions X, which supports part of it. However, the number contradicts the claim.", R, R),
    ("The evidence supports the method but contradicts the result. Therefore the claim is SUPPORTED", S, S),
    ("REFUTED. The evidence does not support the claim.", R, R),
    ("SUPPORTED\n\nExplanation: the second sentence refutes a different claim.", S, S),
    ("The evidence does not support the claim.", N, R),
    ("The evidence doesn't contradict the claim.", N, R),
    ("There is no evidence that supports this claim.", N, R),
    ("The claim is unsupported.", N, R),
    ("The sentences neither support nor refute the claim.", N, R),
    ("The claim is false.", R, R),
    ("This is not true.", R, R),
    ("True, but the evidence contradicts the claim. REFUTED.", R, R),
    ("Yes, the evidence supports the claim.", S, S),
    ("<think>It supports... no wait, it refutes it.</think>\n**Refuted**", R, R),
    # unparsed
    ("", None, None),
    ("I cannot help with that.", None, None),
    ("No evidence in the sentences addresses this.", None, None),
    ("<think>the evidence seems to support the claim, but", None, None),
]


@pytest.mark.parametrize(("reply", "three", "two"), PARSE_CASES)
def test_parse_label(reply: str, three: Label | None, two: Label | None) -> None:
    assert parse_label(reply, LABELS_3) == three
    assert parse_label(reply, LABELS_2) == two


# -- predictions ------------------------------------------------------------------------------------


def test_predict_proba_is_one_hot_in_pair_order(server: FakeServer, tmp_path: Path) -> None:
    replies = {"Claim number 0.": "SUPPORTED", "Claim number 1.": "Label: REFUTED", "Claim number 2.": "NEI"}
    replies |= {f"Claim number {i}.": "refuted" for i in range(3, 7)}
    server.script(replies)
    ticks: list[tuple[int, int]] = []
    verifier = _judge(server, tmp_path, batch_size=3)
    pairs = [_pair(i) for i in range(7)]
    probs = verifier.predict_proba(pairs, progress=lambda done, total: ticks.append((done, total)))
    assert probs.shape == (7, 3) and probs.dtype == np.float32
    assert np.array_equal(probs.sum(axis=1), np.ones(7))
    assert predict_labels(verifier, pairs) == [S, R, N, R, R, R, R]
    assert ticks == [(3, 7), (6, 7), (7, 7)]
    assert verifier.unparsed == [] and verifier.trimmed == []
    assert [j.label for j in verifier.judge(pairs[:3])] == [S, R, N]
    assert verifier.predict_proba([]).shape == (0, 3)


def test_two_way_maps_nei_to_refuted(server: FakeServer, tmp_path: Path) -> None:
    server.script({"Claim number 0.": "NOT ENOUGH INFO", "Claim number 1.": "Supported", "Claim number 2.": "No"})
    probs = _judge(server, tmp_path, num_labels=2).predict_proba([_pair(i) for i in range(3)])
    assert probs.tolist() == [[0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize(
    ("num_labels", "policy", "row"),
    [(3, "nei", [0.0, 0.0, 1.0]), (2, "nei", [0.0, 1.0]), (3, "uniform", [1 / 3] * 3), (2, "uniform", [0.5, 0.5])],
)
def test_unparsed_rows_follow_policy_and_are_recorded(
    server: FakeServer, tmp_path: Path, num_labels: int, policy: str, row: list[float]
) -> None:
    server.script({"Claim number 0.": "Refuted", "Claim number 1.": "As an AI model, I   cannot\njudge this."})
    verifier = _judge(server, tmp_path, num_labels=num_labels, on_unparsed=policy)
    probs = verifier.predict_proba([_pair(0), _pair(1)])
    assert probs[0].tolist() == [0.0, 1.0, 0.0][:num_labels]
    assert probs[1] == pytest.approx(row)
    assert verifier.unparsed == [("p1", "As an AI model, I cannot judge this.")]
    verifier.predict_proba([_pair(1)])  # cached reply, still counted: the list accumulates
    assert len(verifier.unparsed) == 2


def test_unparsed_error_policy_raises_after_the_whole_call(server: FakeServer, tmp_path: Path) -> None:
    server.script({f"Claim number {i}.": "¯\\_(ツ)_/¯" if i % 2 else "SUPPORTED" for i in range(4)})
    verifier = _judge(server, tmp_path, on_unparsed="error", batch_size=1)
    with pytest.raises(UnparsedOutputError, match="2 of 4") as err:
        verifier.predict_proba([_pair(i) for i in range(4)])
    assert [pid for pid, _ in err.value.unparsed] == ["p1", "p3"]
    assert [pid for pid, _ in verifier.unparsed] == ["p1", "p3"]
    assert server.count == 4  # every pair was asked (and cached) before raising


# -- evidence ---------------------------------------------------------------------------------------


def test_trim_evidence_keeps_whole_sentences() -> None:
    sents = ["Alpha is one.", "Beta is two.", "Gamma is three."]  # 13 + 1 + 12 + 1 + 15 = 42 chars
    assert trim_evidence(sents, None) == sents
    assert trim_evidence(sents, 42) == sents
    assert trim_evidence(sents, 41) == sents[:2]
    assert trim_evidence(sents, 26) == sents[:2]
    assert trim_evidence(sents, 25) == sents[:1]
    # a paragraph item that does not fit: its leading whole sentences that do
    para = "First point here. Second point here. Third point is longer than the rest."
    assert trim_evidence(["Intro.", para], 45) == ["Intro.", "First point here. Second point here."]
    # a first sentence longer than the limit is kept whole, never cut
    assert trim_evidence(["A very long first sentence indeed. Next."], 10) == ["A very long first sentence indeed."]
    assert trim_evidence(["  ", "Spaced   out\ntext."], None) == ["Spaced out text."]


def test_long_evidence_is_trimmed_and_recorded(server: FakeServer, tmp_path: Path) -> None:
    evidence = tuple(f"Sentence number {i} says something about cells." for i in range(40))
    verifier = _judge(server, tmp_path, max_evidence_chars=200)
    verifier.predict_proba([_pair(1, evidence=evidence), _pair(2)])
    (user,) = (m for r in server.requests if "Claim number 1." in (m := r["body"]["messages"][1]["content"]))
    sent = re.findall(r"^\d+\. (.*)$", user, re.MULTILINE)
    assert sent == list(evidence[: len(sent)]) and 1 < len(sent) < 40  # whole sentences, in order
    assert sum(map(len, sent)) + len(sent) - 1 <= 200
    ((pid, kept, given),) = verifier.trimmed
    assert pid == "p1" and kept <= 200 < given == sum(map(len, evidence)) + 39


# -- caching ----------------------------------------------------------------------------------------


def test_second_call_is_served_from_cache(server: FakeServer, tmp_path: Path) -> None:
    pairs = [_pair(i) for i in range(3)]
    first = _judge(server, tmp_path).predict_proba(pairs)
    assert server.count == 3
    again = _judge(server, tmp_path)  # a new verifier (and client) on the same cache
    assert np.array_equal(again.predict_proba(pairs), first)
    assert np.array_equal(again.predict_proba(pairs), first)
    assert server.count == 3
    _judge(server, tmp_path, num_labels=2).predict_proba(pairs)  # another prompt: new requests
    assert server.count == 6
