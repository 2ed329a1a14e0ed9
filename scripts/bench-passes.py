#!/usr/bin/python3
"""`layoutd-bench`'s in-process passes for one or more builds, measured in turn: each pass's
CPU a caption as scripts/kernel-cost.py measures its references (rusage of 1 + R repeats less
1 repeat, over R), every build's passes in each round, the order of the builds reversed every
other round. Prints each build's medians and their ratios to the same build's floor and cold
pass, and each pass's median ratio to the first build's, round by round.

Side by side in one run, the ratios hold where figures across runs do not (the machine is
shared and noisy).

    scripts/bench-passes.py [--rounds N] [--repeats R] [--pass P …] NAME=BENCH NAME=BENCH …

e.g. `dynamic=.build/release/layoutd-bench static=.build-static-plain/release/layoutd-bench` (built with
`scripts/build-release.sh --static-swift-stdlib --scratch-path .build-static-plain --product layoutd-bench`).
Passes: floor (HarfBuzz alone), cold (in-process layout), framed (the daemon's request path
without its socket), batch (every caption one batch, answered in process), or any other
`LAYOUTD_BENCH_PROFILE`; default floor, cold, framed and batch.
"""
import argparse
import importlib.util
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("kernel_cost", os.path.join(HERE, "kernel-cost.py"))
kernel_cost = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_cost)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=10, help="repeats of the corpus a measurement adds to its one-repeat run")
    parser.add_argument("--pass", dest="passes", action="append", help="a LAYOUTD_BENCH_PROFILE; repeatable")
    parser.add_argument("benches", nargs="+", metavar="NAME=BENCH")
    arguments = parser.parse_args()
    passes = arguments.passes or ["floor", "cold", "framed", "batch"]
    benches = dict(spec.partition("=")[::2] for spec in arguments.benches)
    for name, path in benches.items():
        if not os.access(path, os.X_OK):
            raise SystemExit(f"bench-passes: {name}'s bench {path} is not an executable")
    captions = len(kernel_cost.daemon_instructions.captions(0))
    names = list(benches)
    micros = {(name, kind): [] for name in names for kind in passes}
    for round_ in range(arguments.rounds):
        for name in names if round_ % 2 == 0 else reversed(names):
            for kind in passes:
                seconds = kernel_cost.floor_cpu_per_caption(benches[name], captions, arguments.repeats, profile=kind)
                micros[(name, kind)].append(seconds * 1e6)
        print(f"round {round_ + 1}/{arguments.rounds}: "
              + "; ".join(f"{name} " + ", ".join(f"{kind} {micros[(name, kind)][-1]:.2f}" for kind in passes) for name in names),
              flush=True)
    print(f"\n{captions} captions, {arguments.rounds} rounds, medians (µs CPU a caption):\n")
    print("| build | " + " | ".join(passes) + " |")
    print("|---|" + "---|" * len(passes))
    for name in names:
        medians = {kind: statistics.median(micros[(name, kind)]) for kind in passes}
        cells = []
        for kind in passes:
            # Each pass beside the same build's floor and cold pass, where those were measured.
            beside = [f"{medians[kind] / medians[reference]:.3f}× {reference}"
                      for reference in ("floor", "cold") if reference in medians and kind not in ("floor", reference)]
            cells.append(f"{medians[kind]:.2f}" + (f" ({', '.join(beside)})" if beside else ""))
        print(f"| {name} | " + " | ".join(cells) + " |")
    first = names[0]
    for name in names[1:]:
        ratios = {kind: statistics.median(b / a for a, b in zip(micros[(first, kind)], micros[(name, kind)])) for kind in passes}
        print(f"\n{name} / {first}, the median of the rounds' ratios: "
              + ", ".join(f"{kind} {ratio:.3f}×" for kind, ratio in ratios.items()))


if __name__ == "__main__":
    main()
