#!/usr/bin/env bash
# The shipped n-tuple network, src/plyground/g2048/networks/ntuple-4x4.pnet, trained and packed again.
#
#     recipes/shipped_network.sh OUT        # from the repository root; about 7 hours on one core
#
# The shipped network (weights 78a9096d652b) was trained on from the network shipped before it
# (weights 1aaa936303ab, itself the first run packed; its recipe is the "from" of its header) with
# the code of commit 03c1fc3. So this checks that commit out in OUT/checkout (a git worktree) and runs
# its plyground on the shipped network of that commit: one worker, so that the run is the same bit for
# bit. OUT/RUN is the training run, OUT/ntuple-4x4.pnet the packed network (OUT/samples.json: the
# afterstates whose values tests/data/shipped_network_samples.json holds). See docs/ntuple.md ("The
# network shipped with plyground") and docs/experiments/2026-12-05-network-warm-start.md.
set -euo pipefail
out=${1:?usage: recipes/shipped_network.sh OUT_FOLDER}
commit=03c1fc3
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -d "$out/checkout" ] || git worktree add --detach "$out/checkout" "$commit"
plyground() { PYTHONPATH="$out/checkout/src" python -c 'from plyground.apps.cli.main import main; main()' "$@"; }
if [ -d "$out/RUN" ]; then
    plyground 2048 learn --resume --out "$out/RUN"   # a stopped run goes on
else
    plyground 2048 learn --games 1047600 --workers 1 --seed 4 --from network --tc --alpha 0.1 --restarts 2 \
        --out "$out/RUN"
fi
plyground 2048 pack "$out/RUN" --out "$out/ntuple-4x4.pnet" --step 2 --samples "$out/samples.json"
