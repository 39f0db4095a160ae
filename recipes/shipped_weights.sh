#!/usr/bin/env bash
# The heuristic's tuned weights, src/plyground/g2048/weights/tuned-depth2.json, tuned again.
#
#     recipes/shipped_weights.sh OUT        # from the repository root; hours on two cores
#
# CMA-ES from the default weights (src/plyground/g2048/weights/default.json, set by hand: it has no
# recipe), every candidate on the same 32 seeds at depth 2, then the best against the default on 400
# fresh seeds. OUT/tune is the tuning run (resumed when it is there), OUT/tuned-depth2.json its best
# weights; the shipped file adds a "note" with the validation's figures. The weights were tuned at the
# commit of 2026-11-30 that shipped them (0f92b82); later code may play other games from the same seeds.
# See docs/tuning.md and docs/experiments/2026-11-30-cma-es-tuning-run.md.
set -euo pipefail
out=${1:?usage: recipes/shipped_weights.sh OUT_FOLDER}
mkdir -p "$out"
if [ -f "$out/tune/tune.json" ]; then
    plyground 2048 tune --resume --out "$out/tune"
else
    plyground 2048 tune --generations 25 --population 12 --games 32 --depth 2 --seed 1 --validate 400 --out "$out/tune"
fi
cp "$out/tune/best.json" "$out/tuned-depth2.json"
