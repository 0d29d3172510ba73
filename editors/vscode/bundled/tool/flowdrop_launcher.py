# Starts the flowdrop-lsp server bundled with the VS Code extension, with whichever Python runs
# this file (the Python extension's interpreter, or python3 on PATH).
#
#   python flowdrop_launcher.py serve      run the server (stdio), as `flowdrop-lsp serve`
#   python flowdrop_launcher.py --check    print one JSON line: {"ok": ..., "message": ...}
#
# The extension runs `--check` first, so that a Python it cannot use gives the user a message
# saying why, instead of a server that dies at start-up. This file sticks to syntax that even
# an old Python parses, so that the message about the version is what such a Python prints.
import json
import os
import sys

MINIMUM = (3, 10)
BUNDLED = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBS = os.path.join(BUNDLED, "libs")
ABI = os.path.join(BUNDLED, "abi")
# Imported by --check: the compiled parts (what a wrong interpreter fails on) and the entry point.
# Not the whole server (pygls, lsprotocol): that would double the start-up time, as the server
# imports it again in its own process.
CHECKED_MODULES = ("rpds", "yaml", "flowdrop_lsp.entry")


def _python():
    return "Python %d.%d.%d (%s)" % (sys.version_info[:3] + (sys.executable,))


def _manifest():
    with open(os.path.join(BUNDLED, "manifest.json")) as f:
        return json.load(f)


def problem(import_check):
    """Why this Python cannot run the bundled server, or None."""
    if sys.version_info[:2] < MINIMUM:
        return "%s is too old: the bundled language server needs Python %d.%d or newer" % (
            (_python(),) + MINIMUM
        )
    try:
        manifest = _manifest()
    except (OSError, ValueError) as error:
        return "the extension's bundled server is missing or damaged (%s): reinstall it" % error
    import sysconfig

    here = sysconfig.get_platform()
    if sys.implementation.name != "cpython" or here != manifest["platform"]:
        return "%s on %s cannot load the bundled server's compiled parts, built for CPython on %s" % (
            _python(),
            here,
            manifest["platform"],
        )
    tag = "cp%d%d" % sys.version_info[:2]
    if tag not in manifest["python"]:
        return "%s: the bundled server holds compiled dependencies for %s only" % (
            _python(),
            ", ".join("CPython %s.%s" % (t[2], t[3:]) for t in manifest["python"]),
        )
    add_paths(tag)
    for module in CHECKED_MODULES if import_check else ():
        try:
            __import__(module)
        except Exception as error:  # any failure to import is a reason not to start
            return "%s cannot import %s from the bundled server: %s: %s" % (
                _python(),
                module,
                type(error).__name__,
                error,
            )
    return None


def add_paths(tag):
    # First on sys.path: the bundled packages win over whatever the interpreter has installed.
    for path in (LIBS, os.path.join(ABI, tag)):
        if path not in sys.path:
            sys.path.insert(0, path)


def main(argv):
    if argv[:1] == ["--check"]:
        reason = problem(import_check=True)
        print(json.dumps({"ok": reason is None, "python": _python(), "message": reason}))
        return 0
    reason = problem(import_check=False)
    if reason is not None:
        sys.stderr.write("flowdrop-lsp (bundled): %s\n" % reason)
        return 3
    from flowdrop_lsp.entry import main as entry_main

    return entry_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
