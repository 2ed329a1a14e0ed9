#!/usr/bin/python3
"""Issue 41's instruction targets on other sets of real captions: through the daemon, layout within
1.3× the HarfBuzz floor and justify within 1.4×, "in scripts/daemon-instructions.py and on any
other set of real captions".

The corpus (../shared/corpus/captions.jsonl) is cut into sets a user's captions could resemble:
each script alone, the shortest and the longest quarter, and random samples of 431 captions (the
size of the set the issue was measured on; fixed seeds, so a set is the same every run). Each set
is written as JSON lines, and counted by callgrind with the same two tools as the corpus, each
over the set alone:

    LAYOUTD_CORPUS=SET scripts/count-instructions.sh floor cold     (the floor, in-process layout)
    scripts/daemon-instructions.py --kind KIND --corpus SET         (through the daemon, cold)

    scripts/caption-sets.py [--kind layout|justify] [--binary LAYOUTD] [--bench LAYOUTD_BENCH] [--set NAME ...] [--keep DIR]

Prints one markdown row a set. Needs release builds of layoutd and layoutd-bench
(scripts/build-release.sh --product layoutd, --product layoutd-bench) and valgrind; about twenty
minutes for every set on the project's machine.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "captions.jsonl")
TARGETS = {"layout": 1.3, "justify": 1.4}
SAMPLE = 431


def caption_sets(lines):
    """(name, lines) for every set, in the order the table prints them."""
    rows = [json.loads(line) for line in lines]
    sets = [("every caption", lines)]
    for script in ("Latn", "Cyrl", "Deva", "Arab", "Hani"):
        sets.append((f"script {script}", [line for line, row in zip(lines, rows) if row.get("script") == script]))
    units = [len(row["text"].encode("utf-16-le")) // 2 for row in rows]  # each caption's UTF-16 length
    ordered = sorted(units)
    first, third = ordered[len(ordered) // 4], ordered[3 * len(ordered) // 4]
    sets.append((f"shortest quarter (under {first} units)", [line for line, n in zip(lines, units) if n < first]))
    sets.append((f"longest quarter (over {third} units)", [line for line, n in zip(lines, units) if n > third]))
    sets.append(("with an emoji", [line for line, row in zip(lines, rows) if any(ord(c) >= 0x1F000 for c in row["text"])]))
    for seed in (1, 2, 3, 41):
        sets.append((f"random {SAMPLE}, seed {seed}", random.Random(seed).sample(lines, SAMPLE)))
    return sets


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def floor_and_layout(bench, path):
    """The floor's and in-process layout's instructions a caption over the set at `path`."""
    out = subprocess.run([os.path.join(HERE, "count-instructions.sh"), "floor", "cold"], check=True, capture_output=True,
                         text=True, env={**os.environ, "LAYOUTD_BENCH": bench, "LAYOUTD_CORPUS": path}).stdout
    counts = dict(re.findall(r"^(floor|cold): (\d+) instructions per caption", out, re.M))
    return int(counts["floor"]), int(counts["cold"])


def through_daemon(binary, kind, path):
    """A cold request's instructions through the daemon, over the set at `path`."""
    out = subprocess.run([sys.executable, os.path.join(HERE, "daemon-instructions.py"), "--kind", kind,
                          "--binary", binary, "--corpus", path], check=True, capture_output=True, text=True).stdout
    return int(re.search(r"cold ([\d,]+) instructions", out).group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=sorted(TARGETS), default="layout")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "layoutd"))
    parser.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "layoutd-bench"))
    parser.add_argument("--set", action="append", metavar="NAME",
                        help="only the sets whose names contain NAME (repeatable), e.g. Hani, random")
    parser.add_argument("--keep", metavar="DIR", help="write the sets' JSON lines to DIR and keep them")
    arguments = parser.parse_args()
    if not os.path.exists(CORPUS):
        sys.exit(f"caption-sets: no corpus at {CORPUS}")
    os.environ.setdefault("SWIFT_DETERMINISTIC_HASHING", "1")  # the counts repeat run to run
    with open(CORPUS, encoding="utf-8") as corpus:
        lines = [line if line.endswith("\n") else line + "\n" for line in corpus if line.strip()]
    sets = caption_sets(lines)
    if arguments.set:
        sets = [(name, chosen) for name, chosen in sets if any(part in name for part in arguments.set)]
    directory = arguments.keep or tempfile.mkdtemp()
    os.makedirs(directory, exist_ok=True)
    target = TARGETS[arguments.kind]
    print(f"| set | captions | floor | layout in process | {arguments.kind} through the daemon | × floor (target {target}×) |")
    print("|---|---|---|---|---|---|")
    for name, chosen in sets:
        path = os.path.join(directory, slug(name) + ".jsonl")
        with open(path, "w", encoding="utf-8") as out:
            out.writelines(chosen)
        floor, layout = floor_and_layout(arguments.bench, path)
        daemon = through_daemon(arguments.binary, arguments.kind, path)
        ratio = daemon / floor
        print(f"| {name} | {len(chosen):,} | {floor:,} | {layout:,} ({layout / floor:.3f}×) | {daemon:,} | "
              f"{ratio:.3f}× {'met' if ratio <= target else 'not met'} |", flush=True)


if __name__ == "__main__":
    main()
