#!/usr/bin/env bash
# Train claimforge's own English tagger/morphologizer/parser/lemmatizer on UD English-EWT.
# Run from the repository root:   bash training/parser/train.sh
# Env overrides: UD_DIR (CoNLL-U dir), WORK (scratch dir, git-ignored), SEED, N_SENTS (sentences per doc).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."   # repo root
UD_DIR="${UD_DIR:-../shared/data/ud_english_ewt}"
WORK="${WORK:-build/parser}"
SEED="${SEED:-0}"
N_SENTS="${N_SENTS:-10}"
CONFIG="training/parser/config.cfg"
DEST="src/claimforge/nlp/models/en_claimforge_ewt"
PY="${PYTHON:-python}"

mkdir -p "$WORK/corpus"

# 1. CoNLL-U -> .spacy (one Doc per N_SENTS sentences). merge_subtokens is off (default), so
#    multi-word tokens ("don't" = do + n't) keep the UD *syntactic words* as gold tokens;
#    enhanced-graph empty nodes (8.1, ...) are skipped.
for split in train dev test; do
  "$PY" -m spacy convert "$UD_DIR/en_ewt-ud-$split.conllu" "$WORK/corpus" \
    --converter conllu --n-sents "$N_SENTS"
done

# 2. Train (CPU, fixed seed). model-best is chosen on dev by the score weights in the config.
time "$PY" -m spacy train "$CONFIG" \
  --output "$WORK/output" \
  --paths.train "$WORK/corpus/en_ewt-ud-train.spacy" \
  --paths.dev "$WORK/corpus/en_ewt-ud-dev.spacy" \
  --system.seed "$SEED" 2>&1 | tee "$WORK/train.log"

# 3. Evaluate on EWT test.
#    (a) headline numbers: gold tokenisation (--gold-preproc: the reference tokens are used and
#        every gold sentence is parsed as its own example) = the usual UD "gold tok" setting;
#    (b) raw-text setting: spaCy's tokenizer on the doc text (scores aligned to gold tokens) and
#        sentence boundaries predicted by the parser -> this is where sentence-split F is meaningful.
"$PY" -m spacy evaluate "$WORK/output/model-best" "$WORK/corpus/en_ewt-ud-test.spacy" --gold-preproc \
  --output "$WORK/test_metrics_goldtok.json" 2>&1 | tee "$WORK/test_eval_goldtok.txt"
"$PY" -m spacy evaluate "$WORK/output/model-best" "$WORK/corpus/en_ewt-ud-test.spacy" \
  --output "$WORK/test_metrics_rawtok.json" 2>&1 | tee "$WORK/test_eval_rawtok.txt"

# 4. Package: re-save model-best (inference files only: config, meta, tokenizer, vocab, component
#    weights) with claimforge metadata; training paths in the saved config are reset to null.
rm -rf "$DEST"
"$PY" - "$WORK/output/model-best" "$DEST" <<'PYEOF'
import sys
import spacy

src, dest = sys.argv[1], sys.argv[2]
nlp = spacy.load(src)
nlp.config["paths"]["train"] = None
nlp.config["paths"]["dev"] = None
nlp.meta.update({
    "name": "en_claimforge_ewt",
    "version": "0.1.0",
    "description": (
        "claimforge's default English pipeline: CNN tok2vec (no pretrained vectors) with PTB "
        "tagger, UPOS+FEATS morphologizer, UD dependency parser (also sentence boundaries) and "
        "edit-tree lemmatizer, trained on UD English-EWT v2.15."
    ),
    "license": "CC BY-SA 4.0",
    "sources": [{
        "name": "UD English-EWT v2.15",
        "url": "https://github.com/UniversalDependencies/UD_English-EWT",
        "license": "CC BY-SA 4.0",
    }],
})
nlp.to_disk(dest)
PYEOF
du -sh "$DEST"
echo "Pipeline written to $DEST"
