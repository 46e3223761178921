"""QA2D: a question and its answer into a declarative claim. Three converters behind one interface
(:class:`claimforge.types.QA2DConverter`, registry kind ``qa2d``): ``rules`` (the default, :mod:`.rules`),
``hf-seq2seq`` (a local seq2seq model, :mod:`.seq2seq`) and ``llm`` (few-shot prompting a chat model,
:mod:`.llm`)."""

from __future__ import annotations

from claimforge.generate.qa2d.rules import RuleQA2D, RuleQA2DConfig, finish, last_sentence, prepare_question

__all__ = ["RuleQA2D", "RuleQA2DConfig", "finish", "last_sentence", "prepare_question"]
