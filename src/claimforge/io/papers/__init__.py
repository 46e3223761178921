"""Full papers in any common format → one document model (:class:`claimforge.records.Paper`).

One module per format (``jats``, ``tei``, ``s2orc``, ``scirex``, ``latex``, ``pdf``), each with
``parse(data: bytes, paper_id: str, where: str) -> Paper`` that raises :class:`PaperError` for a file it cannot
read; :mod:`.sections` gives every section heading its normalised type.
"""

from __future__ import annotations


class PaperError(Exception):
    """A file that gives no usable paper: ``reason`` is a short reject reason (``not_well_formed``,
    ``no_text_layer``, ``no_sections``, ...), ``detail`` says what was wrong and where."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
