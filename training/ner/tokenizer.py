"""spaCy tokenizer matching the BC5CDR / NCBI-disease corpus tokenisation, for ``spacy train --code``.

The corpora (standoff2conll) split text into runs of letters/digits and single other characters, i.e.
``re.findall(r"[^\\W_]+|[^\\w\\s]|_", text)``: "Parkinson's" -> Parkinson ' s, "5-FU" -> 5 - FU, "i.p." -> i . p .
The ``before_init`` callback below gives the pipeline a tokenizer that does exactly that (no special cases, no
URL/token matches; every non-alphanumeric character is a prefix, suffix or infix). The patterns are saved with
the pipeline (``tokenizer`` file), so the shipped model tokenises raw text like its training data without this
module; the packaging step resets ``[initialize.before_init]`` to null.
"""

from __future__ import annotations

import re

import spacy

PUNCT = r"[^\w\s]|_"
CORPUS_TOKEN = re.compile(r"[^\W_]+|[^\w\s]|_")


def corpus_tokenize(nlp: spacy.language.Language) -> None:
    """Make ``nlp.tokenizer`` split like the corpora: alphanumeric runs and single other characters."""
    tok = nlp.tokenizer
    tok.rules = {}
    tok.token_match = None
    tok.url_match = None
    tok.prefix_search = re.compile(rf"^(?:{PUNCT})").search
    tok.suffix_search = re.compile(rf"(?:{PUNCT})$").search
    tok.infix_finditer = re.compile(PUNCT).finditer


@spacy.registry.callbacks("claimforge.corpus_tokenizer.v1")
def make_corpus_tokenizer():  # type: ignore[no-untyped-def]
    def before_init(nlp: spacy.language.Language) -> spacy.language.Language:
        corpus_tokenize(nlp)
        return nlp

    return before_init
