"""``claimforge review``: a local web page to read, grade and fix built datasets (docs/review.md)."""
