"""The command line the daemon-facing scripts share: SOCKET PID, then --name value options."""
import sys


def parse(doc, defaults):
    """(socket path, daemon pid, {option: value}) from sys.argv, each option typed like its
    default; prints `doc` and exits 2 when SOCKET and PID are missing."""
    args = sys.argv[1:]
    if len(args) < 2:
        print(doc, file=sys.stderr)
        sys.exit(2)
    options = {}
    for name, default in defaults.items():
        flag = "--" + name
        options[name] = type(default)(args[args.index(flag) + 1]) if flag in args else default
    return args[0], int(args[1]), options
