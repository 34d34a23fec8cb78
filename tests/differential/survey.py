"""Survey of engine/PyTorch differences: many random programs, each divergence shrunk and grouped.

    python -m tests.differential.survey [--programs 500] [--seed 0] [--steps 10]

Prints one minimal snippet per kind of difference (the list to fix), most frequent first.
"""
import argparse
import random
import re
from collections import Counter

import torch as T

import engine as E

from .harness import describe, run_lockstep
from .programs import build_program


def kind(divergence, lines):
    """A short key for grouping: the diverging line's operation shape and the first difference's gist."""
    i, diffs = divergence
    line = re.sub(r"\[[-\d., \[\]e]*\]", "[..]", lines[i])
    line = re.sub(r"\bx\d+\b", "x", line)
    line = re.sub(r"-?\d+(\.\d+)?", "N", line)
    gist = diffs[0].splitlines()[0]
    gist = re.sub(r"\bx\d+\b", "x", gist)
    gist = re.sub(r"(torch|engine) .*", r"\1 ...", gist) if ": values" not in gist else gist
    return f"{line}  =>  {gist[:160]}"


def shrink(lines, key):
    """Greedily drop lines while the program still diverges the same way (undefined names fail alike)."""
    i = 0
    while i < len(lines):
        trial = lines[:i] + lines[i + 1:]
        div = run_lockstep(T, E, trial)
        if div is not None and kind(div, trial) == key:
            lines = trial
        else:
            i += 1
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    counts, examples = Counter(), {}
    for n in range(args.programs):
        rng = random.Random(args.seed * 1_000_003 + n)
        lines = build_program(T, rng, rng.randint(1, args.steps))
        div = run_lockstep(T, E, lines)
        if div is None:
            continue
        key = kind(div, lines)
        counts[key] += 1
        if key not in examples:
            lines = shrink(lines, key)
            examples[key] = describe(lines, run_lockstep(T, E, lines))
    print(f"{sum(counts.values())} of {args.programs} programs diverged; {len(counts)} kinds\n")
    for key, count in counts.most_common():
        print(f"=== {count}x  {key}\n{examples[key]}\n")


if __name__ == "__main__":
    main()
