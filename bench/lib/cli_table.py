"""The table of `make bench-cli` (bench/cli.sh), its dated copy under bench/results/, and the
README's speed line, which is always taken from the latest saved run.

    cli_table.py table WORK N BUILD ROUNDS [SAVE_TO]   print the table of the run whose hyperfine
                                                       JSON files are in WORK; with SAVE_TO (a
                                                       results folder), also save it there, dated,
                                                       and rewrite the README's speed line from it
    cli_table.py readme [--check]                      rewrite the README's speed line from the
                                                       latest bench/results/*-cli.md, or (--check,
                                                       CI) fail when the README's differs from it

Each round is one hyperfine run of every SQLite and LMDB call beside the two references: the
sqlite3 shell's count (for the calls) and a static Swift hello (for `accounts --version` and
`--help`, which do no store work). A ratio is taken within its round, against its reference.
The floor (bench/reference/argument-parser-count) runs in each round too: a row of its own against
sqlite3 and hello, and each call against it below the table.
"""

import datetime
import glob
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
README = os.path.join(ROOT, "README.md")
RESULTS = os.path.join(ROOT, "bench", "results")
# The README's speed line sits between these two markers, alone on its line.
BEGIN, END = "<!-- bench-cli: written by bench/lib/cli_table.py from the latest bench/results/*-cli.md -->", "<!-- /bench-cli -->"
# The floor's program, bench/reference/argument-parser-count.
FLOOR = "/argument-parser-count"
# A table row: median ms, ratio, lowest-highest round (or blanks), reference, command.
ROW = re.compile(r"^\s+([\d.]+)\s+([\d.]+)x\s+(\S+|\s+)\s+(sqlite3|hello|json\.load|-)\s+(.*)$")


def name(command, work):
    """A command as the table shows it: the work folder dropped, the binary called by its name."""
    words = command.replace(work + "/", "").replace(work, "").split()
    return " ".join(os.path.basename(w) if w.startswith("/") else w for w in words)


def reference_of(command, index, default):
    """Which reference a command is judged against: none for the references themselves (the first
    command of a run, and hello), hello for what does no store work, else the run's store reference."""
    if index == 0 or command.endswith("/hello"):
        return "-"
    if command.endswith(" --version") or command.endswith(" --help"):
        return "hello"
    return default


def table(work, n, build, rounds):
    lines = [
        f"One process per call, {n} users, {build} build. ms = median of a command's runs (the median",
        f"over the rounds); ratio = that / the same round's reference (sqlite3: the sqlite3 shell's",
        f"count; hello: a static Swift hello; json.load: CPython's): the median over {rounds} rounds,",
        "then the lowest and highest round (JSON: one round)",
    ]
    if build == "debug":
        lines.append("  (a debug build: this run checks the script, its figures mean nothing)")
    groups = (([f"embedded-{r}" for r in range(1, int(rounds) + 1)], "sqlite3"), (["json"], "json.load"))
    for group, default in groups:
        runs = [json.load(open(f"{work}/{round}.json"))["results"] for round in group]
        commands = [result["command"] for result in runs[0]]
        # The references' positions: the first command of a run is its store reference.
        positions = {default: 0}
        for index, command in enumerate(commands):
            if command.endswith("/hello"):
                positions["hello"] = index
        for index, command in enumerate(commands):
            reference = reference_of(command, index, default)
            medians = [statistics.median(run[index]["times"]) for run in runs]
            against = positions.get(reference, index)
            ratios = [statistics.median(run[index]["times"]) / statistics.median(run[against]["times"]) for run in runs]
            spread = f"{min(ratios):5.2f}-{max(ratios):4.2f}" if len(runs) > 1 else " " * 10
            lines.append(
                f"  {statistics.median(medians) * 1000:9.1f}  {statistics.median(ratios):5.2f}x  {spread}  "
                f"{reference:9}  {name(command, work)}"
            )
        if default == "sqlite3":
            lines += against_floor(runs, commands, work, len(runs) > 1)
    return "\n".join(lines)


def against_floor(runs, commands, work, spread):
    """Each accounts call of the embedded rounds against the floor, in the same round: a store call
    against the floor's count, --version and --help against the floor's --version."""
    floors = {}
    for index, command in enumerate(commands):
        if FLOOR in command:
            floors["start-up" if command.endswith(" --version") else "count"] = index
    if len(floors) < 2:
        return []
    lines = [
        "Against the floor (argument-parser-count: whoami's options parsed by swift-argument-parser, the",
        "same count by SQLite, or its --version), ratio in the same round:",
    ]
    for index, command in enumerate(commands):
        if index == 0 or FLOOR in command or command.endswith("/hello"):
            continue
        against = floors["start-up" if reference_of(command, index, "") == "hello" else "count"]
        ratios = [statistics.median(run[index]["times"]) / statistics.median(run[against]["times"]) for run in runs]
        low_high = f"{min(ratios):5.2f}-{max(ratios):4.2f}" if spread else " " * 10
        lines.append(f"  {statistics.median(ratios):5.2f}x  {low_high}  floor  {name(command, work)}")
    return lines


def commit():
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
        return head + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def save(text, folder, n, rounds, runs):
    now = datetime.datetime.now(datetime.timezone.utc)
    path = os.path.join(folder, now.strftime("%Y-%m-%d-%H%M") + "-cli.md")
    with open(path, "w") as file:
        file.write(f"# One call of the CLI, {now:%Y-%m-%d %H:%M} UTC: `make bench-cli`\n\n")
        file.write(
            f"`N={n} ROUNDS={rounds} RUNS={runs} bash bench/cli.sh` on commit {commit()}, {os.cpu_count()} cores "
            f"({cpu()}); the binary `make install` installs (bench/lib/release-build.sh, stripped as it is "
            "installed). The method is in bench/README.md.\n\n"
        )
        file.write("```\n" + text + "\n```\n")
    return path


def latest():
    runs = sorted(glob.glob(os.path.join(RESULTS, "*-cli.md")))
    # Only the runs this script saved carry the reference column.
    runs = [path for path in runs if any(ROW.match(line) for line in open(path))]
    if not runs:
        sys.exit("error: no saved bench-cli run under bench/results/ (run make bench-cli)")
    return runs[-1]


def speed_line(path):
    """The README's line from one saved run: whoami on SQLite and LMDB, and --version."""
    rows = {}
    for line in open(path):
        match = ROW.match(line)
        if match:
            rows[match.group(5)] = (float(match.group(1)), float(match.group(2)))
    n = re.search(r"N=(\d+)", open(path).read()).group(1)

    def row(prefix, required=True):
        for command, figures in rows.items():
            if command.startswith(prefix):
                return figures
        if required:
            sys.exit(f"error: {path} has no row for {prefix}")
        return None

    sqlite, lmdb, version = row("accounts whoami --backend sqlite"), row("accounts whoami --backend lmdb"), row("accounts --version")
    # Runs before 2026-12-03 15:37 have no floor.
    floor = row("argument-parser-count count", required=False)
    floor_text = f"; a Swift tool on swift-argument-parser that only counts them, {floor[1]:.2f}×" if floor else ""
    date = os.path.basename(path)[:10]
    return (
        f"Speed: one `accounts whoami` on {int(n):,} users takes {sqlite[0]:.1f} ms on SQLite ({sqlite[1]:.2f}× the "
        f"`sqlite3` shell counting them{floor_text}) and {lmdb[0]:.1f} ms on LMDB ({lmdb[1]:.2f}×); `accounts --version` "
        f"{version[0]:.1f} ms ({version[1]:.2f}× a static Swift hello). Measured {date} by `make bench-cli` "
        f"([the run](bench/results/{os.path.basename(path)}), [the method](bench/README.md))."
    )


def readme(check):
    text = open(README).read()
    if BEGIN not in text or END not in text:
        sys.exit(f"error: README.md lacks the speed line's markers {BEGIN} … {END}")
    head, rest = text.split(BEGIN, 1)
    current, tail = rest.split(END, 1)
    wanted = "\n" + speed_line(latest()) + "\n"
    if check:
        if current != wanted:
            sys.exit(
                "error: README.md's speed line is not the latest saved bench-cli run's; "
                "run: python3 bench/lib/cli_table.py readme\n"
                f"  README: {current.strip()}\n  latest: {wanted.strip()}"
            )
        return
    with open(README, "w") as file:
        file.write(head + BEGIN + wanted + END + tail)


if __name__ == "__main__":
    if sys.argv[1:2] == ["table"]:
        work, n, build, rounds, runs = sys.argv[2:7]
        text = table(work, n, build, rounds)
        print("\n" + text)
        if len(sys.argv) > 7:
            path = save(text, sys.argv[7], n, rounds, runs)
            readme(check=False)
            print(f"\nsaved: {os.path.relpath(path, ROOT)}; README.md's speed line now quotes it")
    elif sys.argv[1:2] == ["readme"]:
        readme(check="--check" in sys.argv[2:])
    else:
        sys.exit(__doc__)
