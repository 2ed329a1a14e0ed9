#!/usr/bin/python3
"""Writes man pages (roff) for an argument-parser binary from the parser itself
(`BINARY --experimental-dump-help`, swift-argument-parser's description of every command):
one page for the tool and one per subcommand, as git does (layoutctl-layout.1, layoutctl-tags-place.1).

    manpage.py BINARY SECTION OUTDIR      writes OUTDIR/NAME.SECTION for every page, prints their names

Sections: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, SUBCOMMANDS, and for the tool's pages EXIT STATUS,
ENVIRONMENT, FILES and EXAMPLES (the README's commands for that subcommand), SEE ALSO.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def exit_statuses(path, heading):
    """(status, meaning) rows of the markdown table under `heading` in `path` (docs/cli.md keeps
    layoutctl's, the one list of them), without the markdown."""
    try:
        text = open(os.path.join(ROOT, path)).read()
    except OSError:
        return []
    section = text.split(heading, 1)[1] if heading in text else ""
    rows = []
    for line in section.split("\n## ", 1)[0].splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0].isdigit():
            rows.append((cells[0], cells[1].replace("`", "")))
    return rows


EXIT_STATUS = {
    "layoutctl": exit_statuses("docs/cli.md", "## Exit statuses"),
    "layoutd": [
        ("0", "stopped by SIGTERM or SIGINT after answering what was in flight, or --check-config found no fault"),
        ("1", "the daemon could not start: no font could be loaded, the socket could not be made; the message says what"),
        ("64", "usage: an unknown option, a missing or malformed value"),
        ("78", "the configuration file cannot be read or holds a mistake (also from --check-config); the message names the line"),
    ],
}

ENVIRONMENT = {
    "layoutctl": [
        ("LAYOUTD_SOCKET", "the daemon's socket when --socket is not given"),
        ("XDG_RUNTIME_DIR", "the user's default socket is $XDG_RUNTIME_DIR/layoutd.sock (else /tmp/layoutd-UID/layoutd.sock), "
                            "when the service's /run/layoutd/layoutd.sock does not exist"),
    ],
    "layoutd": [
        ("XDG_RUNTIME_DIR", "the default socket is $XDG_RUNTIME_DIR/layoutd.sock, else /tmp/layoutd-UID/layoutd.sock"),
        ("LISTEN_FDS, LISTEN_PID", "a socket handed over by systemd (socket activation) is served instead of --socket"),
        ("NOTIFY_SOCKET, WATCHDOG_USEC", "systemd's readiness, reload and watchdog notifications"),
    ],
}

FILES = {
    "layoutd": [
        ("/etc/layoutd/layoutd.conf", "the configuration file, read at start and on SIGHUP"),
        ("/etc/layoutd/tag-styles.json", "the image-tag style table"),
        ("/run/layoutd/layoutd.sock", "the service's socket"),
    ],
    "layoutctl": [("/run/layoutd/layoutd.sock", "the service's socket, used when it exists")],
}


def escape(text):
    return text.replace("\\", "\\\\").replace("-", "\\-").replace("'", "\\(aq").replace("\n.", "\n\\&.")


def readme_examples(words):
    """The README's commands for `words` ("layoutctl", "layout"): its lines that start so."""
    try:
        readme = open(os.path.join(ROOT, "README.md")).read()
    except OSError:
        return []
    found = []
    for line in readme.splitlines():
        line = line.replace(".build/release/", "").strip()
        if not line.startswith(" ".join(words) + " ") or line.startswith("layoutd &"):
            continue
        if len(words) == 2 and words[1] == "tags":
            # `tags place` is the default: lines that name another tags subcommand belong to it.
            if any(line.startswith(f"layoutctl tags {sub} ") for sub in ("hit", "toggle", "reset")):
                continue
        found.append(re.split(r"\s{2,}#", line)[0].strip())
    return found


def option_line(argument):
    names = ", ".join(("-" if name["kind"] == "short" else "--") + name["name"] for name in argument.get("names", []))
    if argument["kind"] == "positional":
        names = argument.get("valueName", "value")
        return f"\\fI{escape(names)}\\fR" + ("..." if argument.get("isRepeating") else "")
    if argument["kind"] == "option":
        return f"\\fB{escape(names)}\\fR \\fI{escape(argument.get('valueName', 'value'))}\\fR"
    return f"\\fB{escape(names)}\\fR"


def synopsis(path, command):
    parts = []
    for argument in command.get("arguments", []):
        if not argument.get("shouldDisplay", True):
            continue
        text = option_line(argument)
        parts.append(text if not argument.get("isOptional") else f"[{text}]")
    if command.get("subcommands"):
        parts.append("\\fISUBCOMMAND\\fR")
    return f"\\fB{escape(' '.join(path))}\\fR " + " ".join(parts)


def page(path, command, section, tool):
    name = "-".join(path)
    out = [f'.TH "{escape(name.upper())}" "{section}" "" "layoutd" "layoutd manual"', ".SH NAME",
           f"{escape(name)} \\- {escape(command.get('abstract', ''))}", ".SH SYNOPSIS", synopsis(path, command)]
    discussion = command.get("discussion")
    out += [".SH DESCRIPTION", escape(command.get("abstract", ""))]
    if discussion:
        out += [".PP", escape(discussion)]
    shown = [argument for argument in command.get("arguments", []) if argument.get("shouldDisplay", True)]
    if shown:
        out.append(".SH OPTIONS")
        for argument in shown:
            out += [".TP", option_line(argument)]
            text = argument.get("abstract", "")
            if argument.get("defaultValue") not in (None, ""):
                text += f" (default: {argument['defaultValue']})"
            if argument.get("allValues"):
                text += " Values: " + ", ".join(argument["allValues"]) + "."
            out.append(escape(text) if text else "")
    subcommands = [sub for sub in command.get("subcommands", []) if sub.get("shouldDisplay", True) and sub["commandName"] != "help"]
    if subcommands:
        out.append(".SH SUBCOMMANDS")
        for sub in subcommands:
            default = " (the default)" if command.get("defaultSubcommand") == sub["commandName"] else ""
            out += [".TP", f"\\fB{escape(sub['commandName'])}\\fR{default}",
                    escape(sub.get("abstract", "")) + f" See \\fB{escape(name + '-' + sub['commandName'])}\\fR({section})."]
    examples = readme_examples(path)
    if examples:
        out += [".SH EXAMPLES", ".nf"] + [escape(line) for line in examples] + [".fi"]
    if len(path) == 1:
        for title, rows in (("EXIT STATUS", EXIT_STATUS), ("ENVIRONMENT", ENVIRONMENT), ("FILES", FILES)):
            if rows.get(tool):
                out.append(f".SH {title}")
                for key, text in rows[tool]:
                    out += [".TP", f"\\fB{escape(key)}\\fR", escape(text)]
    else:
        out += [".SH EXIT STATUS", f"As \\fB{escape(tool)}\\fR({section})."]
    others = ["layoutctl(1)" if tool == "layoutd" else "layoutd(8)"]
    if len(path) > 1:
        others.insert(0, f"{'-'.join(path[:-1])}({section})")
    out += [".SH SEE ALSO", ", ".join(escape(other) for other in others) + "; docs/cli.md, docs/protocol.md and docs/configuration.md "
            "in /usr/share/doc/layoutd."]
    return "\n".join(out) + "\n"


def pages(path, command, section, tool):
    yield "-".join(path), page(path, command, section, tool)
    for sub in command.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            yield from pages(path + [sub["commandName"]], sub, section, tool)


def main():
    binary, section, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
    dumped = subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True, check=True).stdout
    command = json.loads(dumped)["command"]
    tool = command["commandName"]
    os.makedirs(outdir, exist_ok=True)
    for name, text in pages([tool], command, section, tool):
        with open(os.path.join(outdir, f"{name}.{section}"), "w") as handle:
            handle.write(text)
        print(f"{name}.{section}")


if __name__ == "__main__":
    main()
