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
