"""QA2D by few-shot prompting a chat model (claimforge.generate.qa2d.llm), against the fake OpenAI-compatible
server of tests/backends/test_llm.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claimforge.generate.qa2d.llm import DEFAULT_EXAMPLES, LLMQA2D, parse_claim
from claimforge.registry import registry
from claimforge.types import QA2DRequest, QA2DResult

from ..backends.test_llm import KEY_ENV, SECRET, FakeServer, Reply, _config


@pytest.fixture
def server(serve) -> FakeServer:  # type: ignore[no-untyped-def]
    return serve(FakeServer(), KEY_ENV, SECRET)


def test_qa2d_rejects_the_refused_item_with_the_server_message(server: FakeServer, tmp_path: Path) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        if "too long" in body["messages"][-1]["content"]:
            return Reply(400, body={"error": {"message": "maximum context length is 4096 tokens"}})
        return Reply(content="Neurons pass neurotransmitters.")

    server.responder = respond
    qa2d = registry.build("qa2d", {"name": "llm", **_config(server, tmp_path)})
    ok, bad = qa2d.convert(
        [QA2DRequest(question="What do neurons pass?", answer="x"), QA2DRequest(question="too long", answer="y")]
    )
    assert ok.text == "Neurons pass neurotransmitters."
    assert bad.text is None and bad.reason == "llm_request_failed"
    assert "maximum context length is 4096 tokens" in bad.detail


def test_qa2d_prompt_has_system_and_few_shot(server: FakeServer, tmp_path: Path) -> None:
    server.script = [Reply(content="Neurons release acetylcholine.")]
    qa2d = registry.build("qa2d", {"name": "llm", **_config(server, tmp_path)})
    assert isinstance(qa2d, LLMQA2D)
    (res,) = qa2d.convert([QA2DRequest(question="What do neurons release?", answer="acetylcholine")])
    assert res == QA2DResult(text="Neurons release acetylcholine.")
    body = server.requests[0]["body"]
    assert body["model"] == "tiny-chat" and body["temperature"] == 0.0
    msgs = body["messages"]
    assert msgs[0]["role"] == "system" and "declarative sentence" in msgs[0]["content"]
    assert len(msgs) == 2 + 2 * len(DEFAULT_EXAMPLES)
    assert msgs[1] == {
        "role": "user",
        "content": "Question: What do neurons pass to the next neuron?\nAnswer: neurotransmitters",
    }
    assert msgs[2] == {"role": "assistant", "content": "Neurons pass neurotransmitters to the next neuron."}
    assert msgs[-1] == {
        "role": "user",
        "content": "Question: What do neurons release?\nAnswer: acetylcholine",
    }


def test_qa2d_custom_prompt_and_examples(server: FakeServer, tmp_path: Path) -> None:
    spec = {
        "name": "llm",
        **_config(server, tmp_path),
        "system_prompt": "Be brief.",
        "examples": [{"question": "Q?", "answer": "A", "claim": "A is it."}],
    }
    qa2d = registry.build("qa2d", spec)
    default = registry.build("qa2d", {"name": "llm", **_config(server, tmp_path)})
    assert qa2d.model_id != default.model_id  # the prompt is part of the converter's identity
    qa2d.convert([QA2DRequest(question="q", answer="a")])
    assert [m["content"] for m in server.requests[0]["body"]["messages"]] == [
        "Be brief.",
        "Question: Q?\nAnswer: A",
        "A is it.",
        "Question: q\nAnswer: a",
    ]


def test_qa2d_parses_messy_outputs(server: FakeServer, tmp_path: Path) -> None:
    outputs = {
        "q1": 'Claim: "the heart pumps blood."',
        "q2": "- neurons pass signals to muscles",
        "q3": "",
        "q4": "  \n\n Answer: Mitochondria make ATP\nExplanation: because ...",
        "q5": '1. "mRNA is translated by ribosomes".',
        "q6": "<think>the answer is B</think>\nThe liver stores glycogen",
        "q7": "Claim:",
    }

    def respond(body: dict[str, Any]) -> Reply:
        question = body["messages"][-1]["content"].split("\n")[0].removeprefix("Question: ")
        return Reply(content=outputs[question])

    server.responder = respond
    qa2d = registry.build("qa2d", {"name": "llm", **_config(server, tmp_path)})
    results = qa2d.convert([QA2DRequest(question=q, answer="x") for q in outputs])
    assert [r.text for r in results] == [
        "The heart pumps blood.",
        "Neurons pass signals to muscles.",
        None,
        "Mitochondria make ATP.",
        "mRNA is translated by ribosomes.",
        "The liver stores glycogen.",
        None,
    ]
    assert results[2].reason == results[6].reason == "llm_empty_output"
    assert all(r.reason is None for r in results if r.text)


@pytest.mark.parametrize(
    ("raw", "claim"),
    [
        ("Claim: \u201cWater boils at 100 degrees Celsius\u201d", "Water boils at 100 degrees Celsius."),
        ("**Statement:** pH below 7 is acidic", "pH below 7 is acidic."),
        ('"Heart" is the name of an organ.', '"Heart" is the name of an organ.'),
        ("E. coli is a bacterium", "E. coli is a bacterium."),
        ("* the answer is yes;", "The answer is yes."),
        ('""', None),
        ("<think>never finished", None),
    ],
)
def test_parse_claim(raw: str, claim: str | None) -> None:
    assert parse_claim(raw) == claim
