"""Knowledge bases for KB-informed negation (WordNet, Gene Ontology, HPO, UMLS, MeSH) behind one interface:
see :mod:`claimforge.kb.base`. Build one with ``registry.build("kb", {"name": "wordnet", ...})``."""

from claimforge.kb.base import Concept, KBNotAvailable, KnowledgeBase, UnknownConcept, normalize_name

__all__ = ["Concept", "KBNotAvailable", "KnowledgeBase", "UnknownConcept", "normalize_name"]
