"""A chat LLM as a zero-shot claim verifier ("LLM judge") over any OpenAI-compatible server.

The default prompt is SciClaimHunt's verification instruction (see ``SCICLAIMHUNT_PROMPT``), adapted to
the 3-way (SUPPORTED / REFUTED / NOT ENOUGH INFO) and 2-way (SUPPORTED / REFUTED) label spaces. The
reply is free text; ``parse_label`` reads the verdict out of it (rules in its docstring).

An LLM judge gives a label, not a distribution: ``predict_proba`` returns one-hot rows (1.0 on the
parsed label), so ranking metrics (AUC, calibration) are degenerate for it. Replies that name no label
are never dropped silently: ``on_unparsed`` decides their row ("nei", "uniform" or "error") and each is
recorded in ``LLMJudgeVerifier.unparsed``.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

import numpy as np
from pydantic import Field, field_validator

from claimforge.backends.llm import Message, OpenAIChatConfig, OpenAIChatLLM, excerpt, without_thinking
from claimforge.cache import fingerprint
from claimforge.nlp.sentences import split_sentences
from claimforge.records import Label, Pair
from claimforge.registry import registry
from claimforge.verify.base import LABELS_3, VerifierConfig, label_space

log = logging.getLogger(__name__)

# -- the prompt -------------------------------------------------------------------------------------

# SciClaimHunt (Kumar et al.), Section IV-B "Retrieval-Augmented Generation (RAG) Approach", paragraph
# "Instruction Tuning with Llama": the prompt instruction P_r given with the claim and the (summarised)
# retrieved evidence to Llama-3.2-3B-Instruct. Verbatim (the paper's text breaks around Fig. 3):
SCICLAIMHUNT_PROMPT = (
    "You are an expert in making judgments. You are given a claim and some sentences. Your job is to verify "
    "whether the evidence encapsulated in retrieved sentences supports the claim. The retrieved sentences "
    "come from a research paper. If the evidence encapsulated in the retrieved sentences supports the claim, "
    "you need to answer as 'positive' otherwise 'negative'."
)
# The paper uses it for instruction *tuning* (it has no separate zero-shot prompt) and a binary label
# space. Our defaults keep its wording and change only the answer clause: 'positive'/'negative' become
# our label names, and the 3-way prompt adds REFUTED for contradicting evidence and NOT ENOUGH INFO.
_PAPER_HEAD = SCICLAIMHUNT_PROMPT.rsplit(" If the evidence", 1)[0]
_IF_SUPPORTS = "If the evidence encapsulated in the retrieved sentences supports the claim, you need to answer as"
DEFAULT_SYSTEM_TEMPLATES: dict[int, str] = {
    2: f"{_PAPER_HEAD} {_IF_SUPPORTS} 'SUPPORTED' otherwise 'REFUTED'.",
    3: (
        f"{_PAPER_HEAD} {_IF_SUPPORTS} 'SUPPORTED'; if it contradicts the claim, you need to answer as "
        "'REFUTED'; otherwise 'NOT ENOUGH INFO'."
    ),
}
# The paper does not print its input layout; this one (and the closing instruction, which makes a
# general chat model answer with a bare label) is ours.
DEFAULT_USER_TEMPLATE = "Claim: {claim}\n\nSentences:\n{evidence}\n\nAnswer with exactly one of {options}."
NO_EVIDENCE = "(no sentences)"
LABEL_TEXT = {Label.SUPPORTED: "SUPPORTED", Label.REFUTED: "REFUTED", Label.NOT_ENOUGH_INFO: "NOT ENOUGH INFO"}

_PLACEHOLDER = re.compile(r"\{(claim|evidence|options)\}")


def fill_template(template: str, **values: str) -> str:
    """Replace ``{claim}``, ``{evidence}`` and ``{options}`` in one pass; other braces stay as written
    (a template may show a JSON answer format), and inserted text is never substituted again."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def options_text(labels: Sequence[Label]) -> str:
    """``'SUPPORTED', 'REFUTED' or 'NOT ENOUGH INFO'`` (quoted like the paper's 'positive')."""
    names = [f"'{LABEL_TEXT[lab]}'" for lab in labels]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


# -- config -----------------------------------------------------------------------------------------


class LLMJudgeConfig(OpenAIChatConfig, VerifierConfig):
    """The chat fields (server, model, sampling, retries, cache) plus the verifier fields.

    ``batch_size`` is the number of pairs sent to the chat client per call (progress is reported per
    batch; the client runs ``concurrency`` requests at a time and caches every answer as it arrives).
    """

    max_evidence_chars: int | None = Field(default=4000, ge=1)  # None: send all evidence
    system_template: str | None = None  # default: DEFAULT_SYSTEM_TEMPLATES[num_labels]; may use {options}
    user_template: str | None = None  # default: DEFAULT_USER_TEMPLATE; needs {claim} and {evidence}
    on_unparsed: Literal["nei", "uniform", "error"] = "nei"

    @field_validator("num_labels")
    @classmethod
    def _label_count(cls, v: int) -> int:
        label_space(v)
        return v

    @field_validator("user_template")
    @classmethod
    def _user_placeholders(cls, v: str | None) -> str | None:
        if v is not None:
            missing = [p for p in ("{claim}", "{evidence}") if p not in v]
            if missing:
                raise ValueError(f"user_template must contain {' and '.join(missing)}")
        return v


# -- parsing the verdict ----------------------------------------------------------------------------

_S, _R, _N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO
_SEP = r"[\s-]+"
# (pattern, label, family). Families decide what a negation does: "verb" (support/refute and their
# synonyms) negated means *absence* of support/contradiction -> NOT_ENOUGH_INFO; "truth" (true/false)
# negated flips; "nei" negated is ignored; "weak" words (yes/no/positive/...) are too common in prose
# to count anywhere but in an answer position (a marker's value or a short leading segment).
_TERMS: tuple[tuple[str, Label, str], ...] = (
    (rf"not{_SEP}enough{_SEP}(?:info(?:rmation)?|evidence)", _N, "nei"),
    (rf"insufficient(?:{_SEP}(?:info(?:rmation)?|evidence))?", _N, "nei"),
    (rf"unverifiable|not{_SEP}verifiable|can{_SEP}?not{_SEP}be{_SEP}(?:verified|determined)", _N, "nei"),
    (r"nei|neutral|unknown|undetermined|indeterminate|inconclusive", _N, "nei"),
    (rf"unsupported|non{_SEP}?entailment|not{_SEP}entailment", _N, "nei"),
    (r"supports?|supported|entail(?:s|ed|ment)?|confirms|confirmed", _S, "verb"),
    (r"refut(?:e|es|ed|ation)|contradict(?:s|ed|ion|ory)?|disprov(?:e|es|ed)", _R, "verb"),
    (r"true", _S, "truth"),
    (r"false", _R, "truth"),
    (r"yes|correct|positive", _S, "weak"),
    (r"no|incorrect|negative", _R, "weak"),
)
_TERM = re.compile("|".join(rf"(?P<t{i}>\b(?:{p})\b)" for i, (p, _, _) in enumerate(_TERMS)))
_NEGATORS = frozenset(
    {"not", "no", "never", "neither", "nor", "without", "cannot", "lack", "lacks", "lacking", "absence"}
    | {"fails", "failed", "doesnt", "dont", "didnt", "isnt", "arent", "wasnt", "werent", "cant", "wont"}
)
_CLAUSE_END = re.compile(r"[.,;:!?()\n]")
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_KEYS = r"answer|label|verdict|prediction|classification|judge?ment|decision"
_MARKER = re.compile(
    rf"\b(?:final{_SEP})?(?:{_KEYS})\s*(?:(?:is|would{_SEP}be|should{_SEP}be|will{_SEP}be)\s*:?|[:=]|->|=>|[-–—])[ \t]*"
)
_JSON_OBJ = re.compile(r"\{[^{}]*\}")
_KEY_VALUE = re.compile(rf"[\"']?\b({_KEYS})\b[\"']?\s*:\s*[\"']([^\"'\n]+)[\"']", re.IGNORECASE)
_LEADING = re.compile(r"\s*([^.!?:;\n—–]*?)\s*(?:[.!?:;\n—–]|$)")
_LEADING_COMMA = re.compile(r"\s*([^.,!?:;\n—–]*?)\s*(?:[.,!?:;\n—–]|$)")


def _normalize(text: str) -> str:
    """Lower-case text without markdown, quotes or brackets (apostrophes inside words are kept)."""
    text = unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"[*_`#>|\"“”«»\[\]{}]", " ", text)
    text = re.sub(r"(?<![A-Za-z])'|'(?![A-Za-z])", " ", text)
    text = re.sub(r"[ \t]+", " ", text)
    return text.lower()


def _negator(prefix: str) -> str | None:
    """The negating word among the last three words of the clause before a term, if any."""
    clause = _CLAUSE_END.split(prefix)[-1]
    for word in _WORD.findall(clause)[-3:][::-1]:
        bare = word.replace("'", "")
        if bare in _NEGATORS or word.endswith("n't"):
            return bare
    return None


def _mentions(text: str, weak: bool) -> list[Label]:
    """Every label term in ``text`` (normalized), in order, after negation; unresolvable ones left out."""
    found: list[Label] = []
    for m in _TERM.finditer(text):
        i = int(next(k for k, v in m.groupdict().items() if v is not None)[1:])
        _, label, family = _TERMS[i]
        if family == "weak" and not weak:
            continue
        neg = _negator(text[: m.start()]) if family != "weak" else None
        if neg is None:
            found.append(label)
        elif neg in ("neither", "nor") or family == "verb":
            # "neither supports nor refutes" / "neither true nor false"; "does not support",
            # "no evidence contradicts": an absence, not the opposite
            found.append(_N)
        elif family == "truth":  # "not true" = false, "not false" = true
            found.append(_R if label is _S else _S)
    return found


def _leading(text: str, comma: bool = False) -> Label | None:
    """A verdict-first reply: the first segment (up to . ! ? : ; a dash or a line break, and a comma when
    ``comma``) is at most four words and names a label (``Refuted. The ...``, ``**Not supported**``, ``No.``)."""
    m = (_LEADING_COMMA if comma else _LEADING).match(text)
    segment = m.group(1) if m else ""
    if not segment or len(segment.split()) > 4:
        return None
    found = _mentions(segment, weak=True)
    return found[-1] if found else None


def _span(text: str, comma: bool = False) -> Label | None:
    """A label from an answer span (a whole reply, a marker's value): leading segment, else last mention."""
    found = _leading(text, comma)
    if found is None:
        mentions = _mentions(text, weak=False)
        found = mentions[-1] if mentions else None
    return found


def _from_json(raw: str) -> Label | None:
    found: Label | None = None
    for m in _JSON_OBJ.finditer(raw):
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            continue
        if not isinstance(obj, dict):
            continue
        for key, value in obj.items():
            if isinstance(value, str) and re.fullmatch(_KEYS, str(key).strip().lower()):
                found = _span(_normalize(value), comma=True) or found
    if found is None:  # pseudo-JSON ({'label': 'REFUTED'}) and "label": "..." fragments
        for m in _KEY_VALUE.finditer(raw):
            found = _span(_normalize(m.group(2)), comma=True) or found
    return found


def parse_label(output: str, labels: Sequence[Label] = LABELS_3) -> Label | None:
    """The verdict in a judge's reply, in the label space ``labels``; None when it names no label.

    Rules, in order (the first that yields a label wins):

    1. ``<think>...</think>`` reasoning is dropped; an unclosed ``<think>`` (reasoning cut off by
       ``max_tokens``) means no answer.
    2. JSON: ``{"label": "..."}`` (keys answer/label/verdict/prediction/classification/judgment/decision,
       any case; the last such object wins), also single-quoted pseudo-JSON.
    3. An explicit marker: ``Answer:``, ``Final answer:``, ``Label -``, ``Verdict =``, ``the answer is``...
       The *last* marker whose value (the rest of its line, or the next non-empty line) names a label
       wins, the value read by 4 (where a comma also ends the segment: ``Answer: Refuted, because the
       evidence does not support it`` is REFUTED) and then 5.
    4. A verdict-first reply: the first segment (up to . ! ? : ; a dash or a line break) has at most four
       words and names a label: ``Refuted. The evidence ...``, ``**Supported**``, ``No.``.
    5. Otherwise the *last* label word mentioned (an explanation followed by the answer).

    Text is compared lower-cased without markdown, quotes, brackets or underscores. Synonyms:
    SUPPORTED = supported/supports/support/entailment/entails/confirmed/true (+ yes/correct/positive);
    REFUTED = refuted/refutes/refute/contradict(s/ed/ion)/disproves/false (+ no/incorrect/negative);
    NOT_ENOUGH_INFO = not enough info(rmation)/NEI/insufficient/unverifiable/cannot be determined/
    neutral/unknown/undetermined/inconclusive/unsupported/non-entailment. The words in parentheses
    ("yes", "no", ...) are too common in explanations to count except in rules 2-4.

    Negation (one of not/no/never/without/lack/n't... among the three words before the term, same clause):
    a negated support/refute word states an *absence*, not the opposite: "not supported", "does not
    contradict", "no evidence supports" -> NOT_ENOUGH_INFO. "neither ... nor ..." -> NOT_ENOUGH_INFO.
    "not true" -> REFUTED and "not false" -> SUPPORTED (a truth value flips). A negated NEI word is ignored.

    In a 2-way space NOT_ENOUGH_INFO becomes REFUTED (the binary reading "not supported", as in
    ``verify.base.project_labels``): so "not supported" is REFUTED there, and so is "does not
    contradict" (no contradiction is not support).
    """
    text = without_thinking(output, " ")
    if re.search(r"<think>", text, re.IGNORECASE):
        return None
    found = _from_json(text)
    norm = _normalize(text)
    if found is None:
        for m in reversed(list(_MARKER.finditer(norm))):
            # the rest of the marker's line, or the next non-empty line ("Answer:\nREFUTED")
            value = next((ln for ln in norm[m.end() :].split("\n") if ln.strip()), "")
            found = _span(value, comma=True)
            if found is not None:
                break
    if found is None:
        found = _span(norm.strip())
    if found is None:
        return None
    return found if found in labels else Label.REFUTED


# -- evidence ---------------------------------------------------------------------------------------


def trim_evidence(sentences: Sequence[str], max_chars: int | None) -> list[str]:
    """The evidence that fits in ``max_chars`` characters (sentences plus one separator between them),
    in order and made of whole sentences only.

    Items are kept while they fit; the first that does not is split into sentences and its leading
    sentences that fit are kept (joined as one item); then it stops. Text is never cut mid-sentence:
    if even the first sentence is longer than the limit, that sentence alone is kept, whole.
    """
    items = [" ".join(s.split()) for s in sentences if s and s.strip()]
    if max_chars is None:
        return items
    kept: list[str] = []
    used = 0

    for item in items:
        extra = len(item) + (1 if kept else 0)
        if used + extra <= max_chars:
            used += extra
            kept.append(item)
            continue
        part: list[str] = []
        for sent in split_sentences(item) or [item]:
            extra = len(sent) + (1 if kept or part else 0)
            if used + extra > max_chars:
                break
            used += extra
            part.append(sent)
        if part:
            kept.append(" ".join(part))
        elif not kept:
            kept.append((split_sentences(item) or [item])[0])
        break
    return kept


# -- the verifier -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """One pair's verdict: the label in the verifier's space (None when the reply named none) and the
    raw reply."""

    pair_id: str
    label: Label | None
    output: str


class UnparsedOutputError(ValueError):
    """Raised (``on_unparsed="error"``) when replies name no label; ``.unparsed`` lists them."""

    def __init__(self, message: str, unparsed: list[tuple[str, str]]) -> None:
        super().__init__(message)
        self.unparsed = unparsed


def _failure(reply: str) -> str:
    error = getattr(reply, "error", "")
    return f"[request failed] {error}" if error else ""


def _chars(sentences: Sequence[str]) -> int:
    """What ``max_evidence_chars`` counts: the sentences plus one separator between each two."""
    return sum(map(len, sentences)) + max(len(sentences) - 1, 0)


def _host(base_url: str) -> str:
    """host[:port] of a URL, without user:password or path."""
    parts = urlsplit(base_url)
    host = parts.hostname or "?"
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port else host


class LLMJudgeVerifier:
    """Asks a chat model for the verdict on each claim–evidence pair.

    ``predict_proba`` returns one-hot rows: an LLM judge gives a label, not a distribution. A reply that
    names no label gets the row ``on_unparsed`` says (NOT_ENOUGH_INFO, or REFUTED in a 2-way space;
    uniform; or an ``UnparsedOutputError`` once the whole call is done) and is appended to
    ``self.unparsed`` as ``(pair id, reply excerpt)``; ``self.trimmed`` lists ``(pair id, evidence chars
    sent, evidence chars given)`` for pairs whose evidence was cut to ``max_evidence_chars``. Both
    accumulate over calls (clear them between reports if needed).

    ``llm`` replaces the chat client (tests); it is assumed to talk to the configured model.
    """

    kind = "llm-judge"

    def __init__(self, config: LLMJudgeConfig, llm: Any = None) -> None:
        self.config = config
        self.labels: tuple[Label, ...] = label_space(config.num_labels)
        self.llm = llm if llm is not None else OpenAIChatLLM.of(config)
        options = options_text(self.labels)
        system = config.system_template or DEFAULT_SYSTEM_TEMPLATES[config.num_labels]
        self.system_prompt = fill_template(system, options=options)
        self.user_template = fill_template(config.user_template or DEFAULT_USER_TEMPLATE, options=options)
        prompt_id = fingerprint(self.system_prompt, self.user_template, config.max_evidence_chars)[:10]
        self.model_id = f"llm-judge:{config.model}@{_host(config.base_url)}#{prompt_id}"
        self.unparsed: list[tuple[str, str]] = []
        self.trimmed: list[tuple[str, int, int]] = []

    def __repr__(self) -> str:
        c = self.config
        return f"LLMJudgeVerifier({self.model_id!r}, num_labels={c.num_labels}, on_unparsed={c.on_unparsed!r})"

    def close(self) -> None:
        if hasattr(self.llm, "close"):
            self.llm.close()

    def __enter__(self) -> LLMJudgeVerifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- prompts --------------------------------------------------------------------------------------

    def _render(self, pair: Pair) -> tuple[list[Message], int, int]:
        given = [" ".join(s.split()) for s in pair.evidence if s and s.strip()]
        kept = trim_evidence(given, self.config.max_evidence_chars)
        evidence = "\n".join(f"{i}. {s}" for i, s in enumerate(kept, 1)) or NO_EVIDENCE
        user = fill_template(self.user_template, claim=" ".join(pair.claim.split()), evidence=evidence)
        messages: list[Message] = [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": user},
        ]
        return messages, _chars(kept), _chars(given)

    def messages(self, pair: Pair) -> list[Message]:
        """The conversation sent for ``pair``."""
        return self._render(pair)[0]

    # -- judging --------------------------------------------------------------------------------------

    def judge(self, pairs: Sequence[Pair], progress: Any = None) -> list[Judgement]:
        """One verdict per pair, in order (labels in this verifier's space; None when unparsed)."""
        out: list[Judgement] = []
        bs = self.config.batch_size
        for start in range(0, len(pairs), bs):
            batch = pairs[start : start + bs]
            convs = []
            for pair in batch:
                messages, sent, given = self._render(pair)
                if sent < given:
                    self.trimmed.append((pair.id, sent, given))
                convs.append(messages)
            replies = self.llm.complete(convs)
            # a refused request (backends.llm.FailedReply) is an unparsed verdict that names the server's message
            out.extend(
                Judgement(pair.id, parse_label(reply, self.labels), _failure(reply) or reply)
                for pair, reply in zip(batch, replies, strict=True)
            )
            if progress is not None:
                progress(min(start + bs, len(pairs)), len(pairs))
        return out

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        """One-hot rows (n, len(labels)): 1.0 on each pair's parsed label; unparsed rows per ``on_unparsed``."""
        k = len(self.labels)
        probs = np.zeros((len(pairs), k), dtype=np.float32)
        unparsed: list[tuple[str, str]] = []
        fallback = Label.NOT_ENOUGH_INFO if Label.NOT_ENOUGH_INFO in self.labels else Label.REFUTED
        for row, j in enumerate(self.judge(pairs, progress=progress)):
            if j.label is not None:
                probs[row, self.labels.index(j.label)] = 1.0
                continue
            unparsed.append((j.pair_id, excerpt(j.output, 200)))
            if self.config.on_unparsed == "uniform":
                probs[row] = 1.0 / k
            else:
                probs[row, self.labels.index(fallback)] = 1.0
        self.unparsed.extend(unparsed)
        if unparsed:
            pid, text = unparsed[0]
            summary = f"{len(unparsed)} of {len(pairs)} judge replies named no label (first: {pid}: {text!r})"
            if self.config.on_unparsed == "error":
                raise UnparsedOutputError(summary + "; see .unparsed, or set on_unparsed", unparsed)
            what = "uniform" if self.config.on_unparsed == "uniform" else fallback.value
            log.warning("%s: %s; scored as %s", self.model_id, summary, what)
        return probs


@registry.register("verifier", "llm-judge", LLMJudgeConfig)
def build_llm_judge(config: LLMJudgeConfig) -> LLMJudgeVerifier:
    """A chat LLM as a zero-shot judge (SciClaimHunt's prompt) on an OpenAI-compatible server."""
    return LLMJudgeVerifier(config)
