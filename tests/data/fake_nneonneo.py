#!/usr/bin/env python3
"""A stand-in for nneonneo's 2048 command-line player, written for plyground's tests.

It prints what benchmarks/versus_nneonneo.py reads of that player's output, in its format: before
each move "Move #N, current score=S" and one line per root move with its search time ("in 0.02
seconds"), and at the end "Game over. Your score is N. The highest rank you achieved was R.".
FAKE_NNEONNEO=sleep makes it print one move and then wait forever (to test stopping a run);
FAKE_NNEONNEO=crash makes it die before the end of its game. If FAKE_NNEONNEO_STARTED names a
file, it is created when the player starts (a test waits for it before stopping the run).
"""

import os
import sys
import time

mode = os.environ.get("FAKE_NNEONNEO", "")
if os.environ.get("FAKE_NNEONNEO_STARTED"):
    open(os.environ["FAKE_NNEONNEO_STARTED"], "w").close()
for move in range(1, 6):
    print(f"\nMove #{move}, current score={4 * (move - 1)}")
    print("     2     0     0     0")
    print(f"Current scores: heur 100, actual {4 * (move - 1)}")
    for root in range(4):
        print(f"Move {root}: result 1.5: eval'd 100 moves (3 cache hits, 5 cache size) in 0.02 seconds (maxdepth=3)")
    sys.stdout.flush()
    if mode == "sleep":
        time.sleep(3600)
    if mode == "crash" and move == 3:
        sys.exit(3)
print("\nGame over. Your score is 20736. The highest rank you achieved was 11.")
