"""QA2D with a local seq2seq model (e.g. the BART-QA2D model of the Multi2Claim paper): question and answer
through ``input_template`` into the model, the generated sentence tidied into a claim."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import field_validator

from claimforge.backends.seq2seq import HFSeq2Seq, HFSeq2SeqConfig
from claimforge.cache import fingerprint
from claimforge.nlp.normalize import finish_sentence
from claimforge.registry import registry
from claimforge.types import QA2DRequest, QA2DResult


class HFSeq2SeqQA2DConfig(HFSeq2SeqConfig):
    # How a pair becomes the model input. The default, question and answer joined by a space, is the
    # input of the BART-QA2D model used by the Multi2Claim paper; other QA2D models were trained on
    # other formats (e.g. "question: {question} answer: {answer}"), so check the model card and set it.
    input_template: str = "{question} {answer}"

    @field_validator("input_template")
    @classmethod
    def _placeholders(cls, v: str) -> str:
        try:
            v.format(question="q", answer="a")
        except (KeyError, IndexError, ValueError) as e:
            raise ValueError(f"input_template may use only {{question}} and {{answer}} (got {v!r}: {e!r})") from None
        if "{question}" not in v or "{answer}" not in v:
            raise ValueError(f"input_template must contain {{question}} and {{answer}} (got {v!r})")
        return v


@registry.register("qa2d", "hf-seq2seq", HFSeq2SeqQA2DConfig)
class HFSeq2SeqQA2D:
    """QA2D with a local seq2seq model (e.g. BART-QA2D), input built from ``input_template``.

    The generated sentence is tidied into a claim."""

    def __init__(self, config: HFSeq2SeqQA2DConfig) -> None:
        self.config = config
        base_fields = set(HFSeq2SeqConfig.model_fields)
        self.backend = HFSeq2Seq(HFSeq2SeqConfig(**config.model_dump(include=base_fields)))
        c = config
        setup = fingerprint(c.input_template, c.max_input_tokens, c.max_new_tokens, c.num_beams)[:10]
        self.model_id = f"hf-seq2seq:{c.model}#{setup}"

    def __repr__(self) -> str:
        return f"HFSeq2SeqQA2D(backend={self.backend!r}, input_template={self.config.input_template!r})"

    def convert(self, requests: Sequence[QA2DRequest]) -> list[QA2DResult]:
        template = self.config.input_template
        inputs = [template.format(question=r.question.strip(), answer=r.answer.strip()) for r in requests]
        claims = [finish_sentence(out) for out in self.backend.generate(inputs)]
        return [QA2DResult(text=c) if c else QA2DResult(text=None, reason="seq2seq_empty_output") for c in claims]
