"""Questions whose answer is a span of a claim (FACTIFY-5WQA §5), behind the ``questioner`` registry.

- ``template`` (the default): the wh-question ``nlp/aspects.py`` builds from the claim's parse for each aspect;
- ``hf``: any Hugging Face seq2seq question generator by name or path, prompted with the answer and the claim
  (``prompt``, by default the common T5 QG format "answer: … context: …");
- ``llm``: an OpenAI-compatible chat model asked for one question whose answer is exactly the span.

A generated text that is not a question (empty, or without "?") falls back to the template question, so every
aspect keeps one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import Field

from claimforge.backends.llm import OpenAIChatConfig, OpenAIChatLLM, without_thinking
from claimforge.cache import fingerprint
from claimforge.registry import ComponentConfig, registry

# (claim, the span that must be the answer, the template question) -> a question
Request = tuple[str, str, str]


def _question_or(text: str, fallback: str) -> str:
    text = " ".join(without_thinking(text).split()).strip().strip('"')
    if "?" not in text:
        return fallback
    return text[: text.index("?") + 1]


class TemplateQuestionerConfig(ComponentConfig):
    pass


class TemplateQuestioner:
    """The parse's own wh-questions (``Aspect.question``)."""

    model_id = "template"

    def __init__(self, config: TemplateQuestionerConfig | None = None) -> None:
        self.config = config

    def ask(self, requests: Sequence[Request]) -> list[str]:
        return [template for _, _, template in requests]


@registry.register("questioner", "template", TemplateQuestionerConfig)
def build_template(config: TemplateQuestionerConfig) -> TemplateQuestioner:
    """The wh-questions made from the claim's parse (nlp/aspects.py)."""
    return TemplateQuestioner(config)


class HFQuestionerConfig(ComponentConfig):
    seq2seq: dict[str, Any]  # an ``hf`` seq2seq spec: {"name": "hf", "model": PATH_OR_NAME, ...}
    prompt: str = "answer: {answer}  context: {claim}"  # the model's input ({answer}, {claim})


class HFQuestioner:
    def __init__(self, config: HFQuestionerConfig) -> None:
        self.config = config
        self.model = registry.build("seq2seq", config.seq2seq)
        self.model_id = f"hf:{self.model.model_id}#{fingerprint(config.prompt)[:8]}"

    def ask(self, requests: Sequence[Request]) -> list[str]:
        prompts = [self.config.prompt.format(answer=a, claim=c) for c, a, _ in requests]
        outs = self.model.generate(prompts) if prompts else []
        return [_question_or(o, t) for o, (_, _, t) in zip(outs, requests, strict=True)]


@registry.register("questioner", "hf", HFQuestionerConfig)
def build_hf(config: HFQuestionerConfig) -> HFQuestioner:
    """Any Hugging Face seq2seq question generator (T5 QG: "answer: … context: …")."""
    return HFQuestioner(config)


LLM_QG_PROMPT = (
    "Write one question about the claim below whose answer is exactly the given span of the claim. The question "
    "must make sense without the claim and must not contain the answer. Reply with the question only."
)


class LLMQuestionerConfig(OpenAIChatConfig):
    system_prompt: str = LLM_QG_PROMPT
    max_tokens: int = Field(default=64, ge=1)


class LLMQuestioner:
    def __init__(self, config: LLMQuestionerConfig) -> None:
        self.config = config
        self.llm = OpenAIChatLLM.of(config)
        self.model_id = f"llm:{self.llm.model_id}#{fingerprint(config.system_prompt)[:10]}"

    def ask(self, requests: Sequence[Request]) -> list[str]:
        convs = [
            [
                {"role": "system", "content": self.config.system_prompt},
                {"role": "user", "content": f"Claim: {c}\nAnswer span: {a}"},
            ]
            for c, a, _ in requests
        ]
        replies = self.llm.complete(convs) if convs else []
        return [_question_or(r, t) for r, (_, _, t) in zip(replies, requests, strict=True)]


@registry.register("questioner", "llm", LLMQuestionerConfig)
def build_llm(config: LLMQuestionerConfig) -> LLMQuestioner:
    """An OpenAI-compatible chat model asked for a question whose answer is the span."""
    return LLMQuestioner(config)
