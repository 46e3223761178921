"""QA2D by few-shot prompting an OpenAI-compatible chat model (the project's client, ``backends/llm.py``), and
the parsing of a claim out of the model's reply."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from claimforge.backends.llm import FailedReply, Message, OpenAIChatConfig, OpenAIChatLLM, excerpt, without_thinking
from claimforge.cache import fingerprint
from claimforge.nlp.normalize import finish_sentence
from claimforge.registry import registry
from claimforge.types import QA2DRequest, QA2DResult


class FewShotExample(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    question: str
    answer: str
    claim: str


DEFAULT_SYSTEM_PROMPT = (
    "Rewrite the question and its answer as one fluent declarative sentence that states the answer. "
    "Keep the wording of the question where possible and add no information. "
    "Output only the sentence."
)

DEFAULT_EXAMPLES: tuple[FewShotExample, ...] = (
    FewShotExample(
        question="What do neurons pass to the next neuron?",
        answer="neurotransmitters",
        claim="Neurons pass neurotransmitters to the next neuron.",
    ),
    FewShotExample(
        question="Which organelle is known as the powerhouse of the cell?",
        answer="the mitochondrion",
        claim="The mitochondrion is known as the powerhouse of the cell.",
    ),
    FewShotExample(
        question="What gas do plants absorb from the atmosphere during photosynthesis?",
        answer="carbon dioxide",
        claim="Plants absorb carbon dioxide from the atmosphere during photosynthesis.",
    ),
    FewShotExample(
        question="Deficiency of which vitamin causes scurvy?",
        answer="Vitamin C",
        claim="Deficiency of vitamin C causes scurvy.",
    ),
    FewShotExample(
        question="Which drug is the first-line treatment for anaphylaxis?",
        answer="Intramuscular epinephrine",
        claim="Intramuscular epinephrine is the first-line treatment for anaphylaxis.",
    ),
    FewShotExample(
        question="A patient with a lesion of the facial nerve is most likely to present with:",
        answer="inability to close the eye on the affected side",
        claim=(
            "A patient with a lesion of the facial nerve is most likely to present with "
            "inability to close the eye on the affected side."
        ),
    ),
)


class LLMQA2DConfig(OpenAIChatConfig):
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    examples: tuple[FewShotExample, ...] = DEFAULT_EXAMPLES


# Bullets, "1." / "1)" / "(1)", and "a)" (not "a." / "A.": "E. coli ..." is a sentence).
_LIST_MARKER = re.compile(r"^\s*(?:[-*•–]+|\d+[.)]|\(\d+\)|[a-z]\))\s+")
_PREFIX = re.compile(
    r"^\s*(?:claim|answer|statement|sentence|declarative(?: sentence)?|output|rewritten(?: sentence)?)"
    r"\s*[:：-]\s*",
    re.IGNORECASE,
)
_QUOTES = "\"'“”‘’`«»"


def _strip_quotes(line: str) -> str:
    """Drop quotes around the whole line; the period may sit inside or outside the closing quote."""
    if len(line) < 2 or line[0] not in _QUOTES:
        return line
    if line[-1] in _QUOTES:
        return line[1:-1]
    if len(line) >= 3 and line.endswith(".") and line[-2] in _QUOTES:
        return line[1:-2] + "."
    return line  # an opening quote that closes mid-sentence: '"Heart" is an organ.'


def parse_claim(output: str) -> str | None:
    """The claim in a model's reply: first non-empty line, without quotes, labels and list markers."""
    text = without_thinking(output)
    if re.search(r"<think>", text, re.IGNORECASE):  # reasoning never finished: no answer in it
        return None
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    for _ in range(4):  # labels, markers, emphasis and quotes can nest: '- **Claim:** "x"'
        before = line
        line = _LIST_MARKER.sub("", line)
        line = line.replace("**", "").replace("__", "").strip()
        line = _PREFIX.sub("", line)
        line = _strip_quotes(line.strip()).strip()
        if line == before:
            break
    return finish_sentence(line)


@registry.register("qa2d", "llm", LLMQA2DConfig)
class LLMQA2D:
    """QA2D by few-shot prompting an OpenAI-compatible chat model.

    One request per pair, run concurrently and cached."""

    def __init__(self, config: LLMQA2DConfig, llm: OpenAIChatLLM | None = None) -> None:
        self.config = config
        self.llm = llm = llm if llm is not None else OpenAIChatLLM.of(config)
        prompt_id = fingerprint(config.system_prompt, [e.model_dump() for e in config.examples])[:10]
        self.model_id = f"llm:{llm.model_id}#{prompt_id}"

    def __repr__(self) -> str:
        return f"LLMQA2D(llm={self.llm!r}, examples={len(self.config.examples)})"

    @staticmethod
    def _user(question: str, answer: str) -> str:
        return f"Question: {question.strip()}\nAnswer: {answer.strip()}"

    def messages(self, request: QA2DRequest) -> list[Message]:
        msgs: list[Message] = [{"role": "system", "content": self.config.system_prompt}]
        for ex in self.config.examples:
            msgs.append({"role": "user", "content": self._user(ex.question, ex.answer)})
            msgs.append({"role": "assistant", "content": ex.claim})
        msgs.append({"role": "user", "content": self._user(request.question, request.answer)})
        return msgs

    def convert(self, requests: Sequence[QA2DRequest]) -> list[QA2DResult]:
        outputs = self.llm.complete([self.messages(r) for r in requests])
        results = []
        for out in outputs:
            claim = parse_claim(out)
            if isinstance(out, FailedReply):
                results.append(QA2DResult(text=None, reason="llm_request_failed", detail=out.error))
            elif claim:
                results.append(QA2DResult(text=claim))
            else:
                results.append(QA2DResult(text=None, reason="llm_empty_output", detail=excerpt(out, 200)))
        return results
