#!/usr/bin/python3
"""The Python client's figures for layoutd-bench --clients: one caption's round trip and 1,000
captions pipelined, with the blocking client (and, with --async, the asyncio one).

    bench.py SOCKET TEXTS [--async]    TEXTS: captions separated by NUL bytes
Prints "roundtrip_us MEDIAN" (300 captions one at a time, after 20 unmeasured) and
"pipelined_us TOTAL" (the first 1,000 captions, up to 64 in flight: the median of three batches
after one unmeasured, as the round trip leaves its first 20 calls out).
"""
import asyncio
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layoutd  # noqa: E402

#: The pipelined batch's runs: the first unmeasured, the median of the rest printed.
BATCHES = 4


def blocking(path, texts):
    with layoutd.Client(path) as client:
        times = []
        for index, text in enumerate(texts[:320]):
            start = time.perf_counter()
            client.layout(text, width=300, size=24)
            if index >= 20:
                times.append((time.perf_counter() - start) * 1e6)
        print(f"roundtrip_us {statistics.median(times):.2f}")
        batch = [texts[i % len(texts)] for i in range(1000)]
        totals = []
        for _ in range(BATCHES):
            start = time.perf_counter()
            client.layout_many(batch, width=300, size=24, window=64)
            totals.append((time.perf_counter() - start) * 1e6)
        print(f"pipelined_us {statistics.median(totals[1:]):.0f}")


async def asynchronous(path, texts):
    client = await layoutd.AsyncClient.connect(path)
    times = []
    for index, text in enumerate(texts[:320]):
        start = time.perf_counter()
        await client.layout(text, width=300, size=24)
        if index >= 20:
            times.append((time.perf_counter() - start) * 1e6)
    print(f"roundtrip_us {statistics.median(times):.2f}")
    batch = [texts[i % len(texts)] for i in range(1000)]
    totals = []
    for _ in range(BATCHES):
        start = time.perf_counter()
        await client.layout_many(batch, width=300, size=24, window=64)
        totals.append((time.perf_counter() - start) * 1e6)
    print(f"pipelined_us {statistics.median(totals[1:]):.0f}")
    await client.close()


if __name__ == "__main__":
    texts = open(sys.argv[2], "rb").read().decode().split("\0")
    texts = [t for t in texts if t]
    if "--async" in sys.argv:
        asyncio.run(asynchronous(sys.argv[1], texts))
    else:
        blocking(sys.argv[1], texts)
