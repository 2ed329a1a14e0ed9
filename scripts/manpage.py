#!/usr/bin/python3
"""Writes a man page (roff) for an argument-parser binary from its own --help output.

    manpage.py BINARY SECTION > NAME.SECTION

Subcommands (listed under SUBCOMMANDS in the help) get a section each, from `BINARY help SUB`.
"""
import re
import subprocess
import sys


def help_text(binary, *arguments):
    result = subprocess.run([binary, *arguments, "--help"], capture_output=True, text=True)
    return result.stdout or result.stderr


def escape(text):
    return text.replace("\\", "\\\\").replace("-", "\\-").replace("'", "\\(aq")


def sections(text):
    """(title, lines) pairs: OVERVIEW, USAGE, OPTIONS, SUBCOMMANDS, ..."""
    current, lines, out = None, [], []
    for line in text.splitlines():
        match = re.match(r"^([A-Z][A-Z ]+):\s*(.*)$", line)
        if match:
            if current:
                out.append((current, lines))
            current, lines = match.group(1), ([match.group(2)] if match.group(2) else [])
        elif current:
            lines.append(line)
    if current:
        out.append((current, lines))
    return out


def options(lines):
    """Option lines as .TP entries: a line starting with '-' names options, the rest describe."""
    roff = []
    for line in lines:
        stripped = line.strip()
        if not stripped:
            continue
        match = re.match(r"^(-\S.*?)(?:\s{2,}(.*))?$", stripped)
        if match and line.startswith("  -"):
            roff.append(".TP\n.B " + escape(match.group(1)))
            if match.group(2):
                roff.append(escape(match.group(2)))
        else:
            roff.append(escape(stripped))
    return roff


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, section = sys.argv[1], sys.argv[2]
    name = binary.rsplit("/", 1)[-1]
    parts = dict(sections(help_text(binary)))
    overview = " ".join(l.strip() for l in parts.get("OVERVIEW", [])).strip()
    print(f'.TH {name.upper()} {section} "" "layoutd" "layoutd manual"')
    print(".SH NAME")
    print(f"{escape(name)} \\- {escape(overview or name)}")
    print(".SH SYNOPSIS")
    print(".nf\n" + escape(" ".join(l.strip() for l in parts.get("USAGE", []))) + "\n.fi")
    if "OPTIONS" in parts:
        print(".SH OPTIONS")
        print("\n".join(options(parts["OPTIONS"])))
    subcommands = [l.strip().split()[0] for l in parts.get("SUBCOMMANDS", []) if l.strip() and not l.strip().startswith("See")]
    if subcommands:
        print(".SH COMMANDS")
        for sub in subcommands:
            sub_parts = dict(sections(help_text(binary, sub)))
            print(f".SS {escape(name + ' ' + sub)}")
            print(escape(" ".join(l.strip() for l in sub_parts.get("OVERVIEW", []))))
            print(".PP\n.nf\n" + escape(" ".join(l.strip() for l in sub_parts.get("USAGE", []))) + "\n.fi")
            if "OPTIONS" in sub_parts:
                print("\n".join(options(sub_parts["OPTIONS"])))
    print(".SH SEE ALSO")
    print("layoutd(8), layoutctl(1), /usr/share/doc/layoutd/protocol.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
