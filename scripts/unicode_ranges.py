"""Reads a Unicode property file (`RANGE ; VALUE # comment` lines) into sorted ranges, each
merged with its neighbour where they touch and share a value. Shared by the scripts that
generate the engine's property tables."""


def read_ranges(path, header, skip=None):
    """(version, [(first, last, value)]) from `path`; `header` is the file's name before its
    version ("VerticalOrientation-"), `skip` a value left out (the property's default)."""
    values = []
    version = "?"
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("# " + header):
                version = line.split("-", 1)[1].split(".txt")[0]
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            cps, value = (part.strip() for part in line.split(";"))
            low, _, high = cps.partition("..")
            values.append((int(low, 16), int(high or low, 16), value))
    values.sort()
    merged = []
    for low, high, value in values:
        if value == skip:
            continue
        if merged and merged[-1][2] == value and merged[-1][1] + 1 == low:
            merged[-1] = (merged[-1][0], high, value)
        else:
            merged.append((low, high, value))
    return version, merged


def packed_rows(ranges, indent="        ", per_row=4):
    """Swift array rows of `ranges` ((first, last, code)), two numbers each: the first code point,
    then the last with `code` in the top byte, as `PropertyRanges.value` reads them."""
    rows = []
    for index in range(0, len(ranges), per_row):
        chunk = ranges[index:index + per_row]
        rows.append(indent + " ".join(f"0x{low:04X}, 0x{code << 24 | high:08X}," for low, high, code in chunk))
    return rows


def write_or_check(path, text, name, script, what, count):
    """Writes `text` to `path`, or with --check on the command line exits 1 when the committed
    file differs (`name` and `script` say which and how to mend it)."""
    import sys
    if "--check" in sys.argv:
        with open(path, encoding="utf-8") as committed:
            if committed.read() != text:
                sys.exit(f"{name} is stale: run {script}")
        print(f"{what} is current")
        return
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    print(f"wrote {path} ({count} ranges)")
