"""Claim verifiers (cross-encoder, CEM, GCEM, zero-shot NLI, LLM judge) and their trainer."""
