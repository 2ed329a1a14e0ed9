#!/usr/bin/python3
"""The code a request runs: how many distinct instructions, 64-byte cache lines and 4 KiB pages
of each library the daemon executes per request, and which of the binary's functions hold them.

A request's time depends on how much code it runs, not only on how many instructions: code that
runs once a request must be fetched into the first-level instruction cache (32 KiB here) every
request. Reads a profile pair made by `scripts/daemon-instructions.py --profile PREFIX` (one
pass in PREFIX.1, two in PREFIX.2, with costs per instruction): an instruction counts when it
ran at least once every other request of the pass, so start-up and rare paths are left out.

    scripts/code-footprint.py PREFIX --requests N --binary PATH [--top K]

`--binary` is the layoutd the profile was made with (its symbols name the functions);
`--requests` the pass's requests (the captions counted).
"""
import argparse
import bisect
import collections
import re
import subprocess


def costs(path):
    """Instructions executed at each (object, address) in a callgrind profile made with --dump-instr=yes."""
    names, executed = {}, collections.Counter()
    obj, address, skip_next = None, 0, False
    with open(path) as lines:
        for line in lines:
            if line.startswith(("ob=", "cob=")):
                found = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
                if found.group(2):
                    names[found.group(1)] = found.group(2).split("/")[-1]
                if line.startswith("ob="):
                    obj = names[found.group(1)]
                continue
            if line.startswith("calls="):
                skip_next = True  # the next cost line is the call's inclusive cost, not this instruction's
                continue
            if line[:1] not in "0123456789+-*":
                continue
            parts = line.split()
            position = parts[0]
            if position.startswith("0x"):
                address = int(position, 16)
            elif position[0] in "+-":
                step = int(position[1:], 16) if position[1:].startswith("0x") else int(position[1:])
                address += step if position[0] == "+" else -step
            if skip_next:
                skip_next = False
                continue
            if len(parts) >= 3:
                executed[(obj, address)] += int(parts[2])
    return executed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("prefix")
    parser.add_argument("--requests", type=int, required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--top", type=int, default=30)
    arguments = parser.parse_args()
    one, two = costs(arguments.prefix + ".1"), costs(arguments.prefix + ".2")
    per_request = {key: (count - one.get(key, 0)) / arguments.requests for key, count in two.items()}
    run = {key: count for key, count in per_request.items() if count >= 0.5}

    by_object = collections.defaultdict(list)
    for (obj, address), count in run.items():
        by_object[obj].append((address, count))
    print(f"Code run per request ({arguments.requests} requests; an instruction counts when it ran every other request at least):\n")
    print("| object | instructions executed | distinct instructions | 64-byte lines | 4 KiB pages |")
    print("|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for obj, entries in sorted(by_object.items(), key=lambda item: -len(item[1])):
        executed = sum(count for _, count in entries)
        lines = len({address >> 6 for address, _ in entries})
        pages = len({address >> 12 for address, _ in entries})
        for index, value in enumerate((executed, len(entries), lines, pages)):
            totals[index] += value
        if len(entries) >= 20:
            print(f"| {obj} | {executed:,.0f} | {len(entries):,} | {lines:,} ({lines * 64 / 1024:.0f} KiB) | {pages} |")
    print(f"| all | {totals[0]:,.0f} | {totals[1]:,} | {totals[2]:,} ({totals[2] * 64 / 1024:.0f} KiB) | {totals[3]} |")

    # The binary's functions, by the code they run a request.
    symbols = []
    listing = subprocess.run(["nm", "--defined-only", arguments.binary], capture_output=True, text=True, check=True).stdout
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tT":
            symbols.append((int(fields[0], 16), fields[2]))
    symbols.sort()
    starts = [start for start, _ in symbols]
    binary = arguments.binary.split("/")[-1]
    functions = collections.defaultdict(lambda: [0, 0.0, set()])
    for address, count in by_object.get(binary, []):
        function = functions[symbols[bisect.bisect_right(starts, address) - 1][1]]
        function[0] += 1
        function[1] += count
        function[2].add(address >> 6)
    mangled = list(functions)
    readable = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(mangled),
                              capture_output=True, text=True).stdout.splitlines()
    rows = sorted(((functions[name][0], len(functions[name][2]), functions[name][1], text)
                   for name, text in zip(mangled, readable)), reverse=True)
    once = sum(distinct for distinct, _, executed, _ in rows if executed <= 1.5 * distinct)
    print(f"\n{binary}: {len(rows)} functions; {once:,} of its {sum(row[0] for row in rows):,} distinct instructions "
          f"belong to functions that run each instruction about once a request (at most 1.5 times).\n")
    print("| distinct instructions | lines | executed | times each | function |")
    print("|---|---|---|---|---|")
    for distinct, lines, executed, text in rows[:arguments.top]:
        print(f"| {distinct} | {lines} | {executed:,.0f} | {executed / distinct:.1f} | `{text[:100]}` |")


if __name__ == "__main__":
    main()
