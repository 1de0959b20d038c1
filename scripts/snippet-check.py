#!/usr/bin/env python3
"""Every Swift snippet in the README and the DocC articles is compiled code.

Each ```swift block must follow a line `<!-- snippet: PATH#NAME -->`, and equal, line for line,
the region NAME of PATH: the lines between `// snippet.NAME` and `// snippet.end`, less their
common indentation and the lines between `// snippet.hide` and `// snippet.show`. The files
named are the example packages' (Examples/), which the test command builds and tests, so a
snippet that would not compile fails the run here or there.

    scripts/snippet-check.py            check every document; exit 1 naming each mismatch
    scripts/snippet-check.py --update   rewrite each marked block from its region (then review)
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = re.compile(r"^<!-- snippet: (?P<path>[^#\s]+)#(?P<name>[\w-]+) -->$")


def documents():
    """The Markdown a reader meets: the README, the DocC articles, the examples' READMEs."""
    found = ["README.md"]
    found += sorted(glob.glob("Sources/*/*.docc/*.md", root_dir=ROOT))
    found += sorted(glob.glob("Examples/*/README.md", root_dir=ROOT))
    return [path for path in found if os.path.exists(os.path.join(ROOT, path))]


def swift_blocks(text):
    """(line number, marker line or None, block lines) for each ```swift block."""
    lines = text.split("\n")
    blocks = []
    index = 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            start = index
            before = start - 1
            while before >= 0 and not lines[before].strip():
                before -= 1
            marker = lines[before].strip() if before >= 0 else None
            end = start + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            blocks.append((start + 1, marker, lines[start + 1 : end]))
            index = end + 1
        else:
            index += 1
    return blocks


def region(path, name):
    """The lines of region `name` in `path` as a reader should see them, or an error string."""
    full = os.path.join(ROOT, path)
    if not os.path.exists(full):
        return f"{path} does not exist"
    lines = open(full, encoding="utf-8").read().split("\n")
    begin = [i for i, line in enumerate(lines) if line.strip() == f"// snippet.{name}"]
    if len(begin) != 1:
        return f"{path} has {len(begin)} lines '// snippet.{name}', expected one"
    shown, hidden = [], False
    for line in lines[begin[0] + 1 :]:
        mark = line.strip()
        if mark == "// snippet.end":
            break
        if mark == "// snippet.hide":
            hidden = True
        elif mark == "// snippet.show":
            hidden = False
        elif not hidden:
            shown.append(line.rstrip())
    else:
        return f"{path}: region '{name}' has no '// snippet.end'"
    indent = min((len(line) - len(line.lstrip()) for line in shown if line.strip()), default=0)
    return [line[indent:] for line in shown]


def update(document):
    """Rewrites each marked Swift block of `document` from its region."""
    path = os.path.join(ROOT, document)
    lines = open(path, encoding="utf-8").read().split("\n")
    for line_number, marker, block in reversed(swift_blocks("\n".join(lines))):
        match = MARKER.match(marker or "")
        expected = region(match["path"], match["name"]) if match else None
        if isinstance(expected, list):
            lines[line_number : line_number + len(block)] = expected
    open(path, "w", encoding="utf-8").write("\n".join(lines))


def main():
    if sys.argv[1:] == ["--update"]:
        for document in documents():
            update(document)
    problems, checked = [], 0
    for document in documents():
        for line_number, marker, block in swift_blocks(open(os.path.join(ROOT, document), encoding="utf-8").read()):
            where = f"{document}:{line_number}"
            match = MARKER.match(marker or "")
            if not match:
                problems.append(f"{where}: a Swift block without '<!-- snippet: PATH#NAME -->' above it")
                continue
            expected = region(match["path"], match["name"])
            if isinstance(expected, str):
                problems.append(f"{where}: {expected}")
            elif [line.rstrip() for line in block] != expected:
                problems.append(
                    f"{where}: differs from {match['path']}#{match['name']}; it should read:\n"
                    + "\n".join("    " + line for line in expected))
            else:
                checked += 1
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"snippets: {checked} match compiled code, {len(problems)} do not")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
