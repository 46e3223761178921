"""Typed, immutable records that flow through claimforge.

Every record carries enough provenance to trace an example back to the input line it came from.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Label(str, Enum):
    SUPPORTED = "SUPPORTED"
    REFUTED = "REFUTED"
    NOT_ENOUGH_INFO = "NOT_ENOUGH_INFO"


class Record(BaseModel):
    """Base for all records: frozen, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class SourceRef(Record):
    """Where an input item came from: dataset name, file, 1-based line (or record index), item id."""

    dataset: str
    path: str
    line: int | None = None
    item_id: str

    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path


class MCQItem(Record):
    """A multiple-choice question. ``answer_index`` is None when the source has no gold answer."""

    id: str
    question: str
    options: tuple[str, ...]
    answer_index: int | None
    explanation: str | None = None
    ref: SourceRef
    meta: dict[str, Any] = Field(default_factory=dict)

    @property
    def answer(self) -> str | None:
        if self.answer_index is None or not 0 <= self.answer_index < len(self.options):
            return None
        return self.options[self.answer_index]

    @property
    def distractors(self) -> tuple[str, ...]:
        return tuple(o for i, o in enumerate(self.options) if i != self.answer_index)


class Reject(Record):
    """An input item (``scope="item"``) or one would-be example of an item (``scope="example"``)
    that did not make it into the output, and why."""

    item_id: str
    scope: Literal["item", "example"] = "item"
    stage: str
    reason: str
    detail: str = ""
    ref: SourceRef | None = None


class Provenance(Record):
    """How an example was made: method, source item, component ids/versions and parameters."""

    method: str
    method_version: str
    source: SourceRef
    components: dict[str, str] = Field(default_factory=dict)
    params: dict[str, Any] = Field(default_factory=dict)
    details: dict[str, Any] = Field(default_factory=dict)


class QAPair(Record):
    """One 5W aspect of a claim as FACTIFY-5WQA gives it: the claim's span, a question whose answer it is, the
    evidence's answer to that question and the aspect's verdict (supported / refuted / not enough info)."""

    kind: str  # who / what / when / where / why
    role: str
    claim_span: str
    start: int  # character offsets of ``claim_span`` in the claim
    end: int
    question: str
    answer: str  # the evidence's answer ("" when it gives none)
    answer_score: float
    evidence_sentence: str
    verdict: str


class Example(Record):
    """One labelled fact-checking example: a claim, its evidence and the label; ``qa_pairs`` (the ``factify``
    pipeline) the claim's 5W question-answer pairs (written only when there are some)."""

    id: str
    claim: str
    evidence: str
    evidence_id: str
    label: Label
    source_item_id: str
    method: str
    provenance: Provenance
    qa_pairs: tuple[QAPair, ...] = ()


class Pair(Record):
    """A claim with its evidence sentences: the unit a verifier reads and a benchmark scores.

    ``labels`` holds the gold label, or several when the source only says "one of these" (a binary
    "not entailment" is REFUTED or NOT_ENOUGH_INFO); it is empty for unlabelled pairs.
    """

    id: str
    claim: str
    evidence: tuple[str, ...]
    labels: tuple[Label, ...] = ()
    source: str = ""  # where the pair came from: "file:line" or a dataset id

    @property
    def label(self) -> Label | None:
        """The single gold label (None when unlabelled or ambiguous)."""
        return self.labels[0] if len(self.labels) == 1 else None


class Document(Record):
    """A document that evidence comes from (usually an abstract), as sentences."""

    id: str
    title: str = ""
    sentences: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return " ".join(self.sentences)


SectionType = Literal["introduction", "methods", "results", "discussion", "conclusion", "other"]
SECTION_TYPES: tuple[SectionType, ...] = ("introduction", "methods", "results", "discussion", "conclusion", "other")


class Section(Record):
    """One section of a paper's body. Subsections are sections of their own, in reading order; ``heading`` is
    the path of headings (``"Results / Cell growth"``) and ``type`` the normalised kind (a subsection whose own
    heading says nothing takes its parent's). ``paragraphs`` hold each paragraph's sentences."""

    heading: str = ""
    type: SectionType = "other"
    paragraphs: tuple[tuple[str, ...], ...] = ()

    @property
    def sentences(self) -> tuple[str, ...]:
        return tuple(s for p in self.paragraphs for s in p)


class Paper(Record):
    """A full scientific paper in one model, whatever format it came from (JATS, GROBID TEI, S2ORC JSON,
    LaTeX, SciREX, PDF): title, abstract paragraphs, body sections, figure/table captions and the reference
    list kept apart. ``format`` names the parser; ``ref`` the file (and archive member) it came from."""

    id: str
    title: str = ""
    abstract: tuple[tuple[str, ...], ...] = ()
    sections: tuple[Section, ...] = ()
    captions: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    format: str = ""
    ref: SourceRef
    meta: dict[str, Any] = Field(default_factory=dict)

    @property
    def abstract_sentences(self) -> tuple[str, ...]:
        return tuple(s for p in self.abstract for s in p)

    def typed_sections(self) -> int:
        """How many sections have a type other than "other"."""
        return sum(1 for s in self.sections if s.type != "other")

    def document(self, exclude: Sequence[int] = (), abstract: bool = True) -> Document:
        """The paper as a sentence document: the abstract (with ``abstract``) and the body sections in order,
        without the sections whose indices are in ``exclude``."""
        skip = set(exclude)
        sentences = list(self.abstract_sentences) if abstract else []
        for i, sec in enumerate(self.sections):
            if i not in skip:
                sentences.extend(sec.sentences)
        return Document(id=self.id, title=self.title, sentences=tuple(sentences))


class SentenceItem(Record):
    """A scientific sentence to make claims from: a citation sentence (citance) with its context and the
    documents it cites, or a plain sentence of a document (then ``citing`` is that document).

    ``sentence`` has the dataset's special citation tokens removed by the reader (ordinary markers such as
    "[12]" or "(Smith et al., 2010)" stay: the generators' cleanup removes them). ``references`` are claims
    written by people for this sentence, when the source has them (SciFact's citance rewrites)."""

    id: str
    sentence: str
    context_before: tuple[str, ...] = ()
    context_after: tuple[str, ...] = ()
    cited: tuple[Document, ...] = ()
    citing: Document | None = None
    references: tuple[str, ...] = ()
    ref: SourceRef
    meta: dict[str, Any] = Field(default_factory=dict)
