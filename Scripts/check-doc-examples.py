#!/usr/bin/env python3
"""Compiles every Swift example of README.md and docs/*.md in the Swift 6 language mode.

Each ```swift block becomes a module of its own in a scratch package that depends on this
one: its declarations at file scope (with those of the blocks before it in the same page,
which it may build on), its statements in a function. What an example takes from its
context without declaring it (a `realm`, a `config`, the `Dog` and `Person` models the
pages share) is declared for it. Prints each error and warning of an example's own code;
exits 1 if any example fails to compile.

    python3 Scripts/check-doc-examples.py [--dir SCRATCH]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The models the pages use without declaring them.
CONTEXT_TYPES = {
    "Dog": """final class Dog: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 0
    @Persisted var born = Date()
    @Persisted var photo: Data?
    @Persisted var owner: Person?
}""",
    "Person": """final class Person: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var dogs: List<Dog>
}""",
    "Job": """final class Job: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var state = ""
}""",
}

# The values the pages use without declaring them, declared at the top of the function.
CONTEXT_VALUES = {
    "config": "let config = Realm.Configuration()",
    "configuration": "let configuration = Realm.Configuration()",
    "url": 'let url = URL(fileURLWithPath: "/tmp/example.realm")',
    "realm": "let realm = try Realm()",
    "rex": "let rex = Dog()",
    "person": "let person = Person()",
    "dogs": "let dogs = try Realm().objects(Dog.self)",
    "start": "let start = Date()",
    "end": "let end = Date()",
}

DECLARATION = re.compile(r"^(@[\w.]+(\([^)]*\))?\s+)*((public|private|fileprivate|final|nonisolated|open)\s+)*"
                         r"(class|struct|enum|actor|extension|func|protocol|typealias)\b")
ATTRIBUTE_LINE = re.compile(r"^@[\w.]+(\([^)]*\))?\s*$")
TYPE_NAME = re.compile(r"^(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|private|final|nonisolated|open)\s+)*"
                       r"(?:class|struct|enum|actor|protocol|typealias)\s+(\w+)", re.M)


def split_block(block):
    """The block's imports, its file-scope declarations and its statements."""
    lines = block.rstrip("\n").split("\n")
    imports, declarations, statements = set(), [], []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("import "):
            imports.add(line.strip())
            i += 1
            continue
        head = i
        while head < len(lines) and ATTRIBUTE_LINE.match(lines[head]):
            head += 1
        if head < len(lines) and DECLARATION.match(lines[head]):
            # It runs to the line that closes its braces (one without braces, to its own end).
            depth, opened, end = 0, False, i
            while end < len(lines):
                depth += lines[end].count("{") - lines[end].count("}")
                opened = opened or "{" in lines[end]
                end += 1
                if end > head and opened and depth <= 0:
                    break
                if end > head and not opened and not lines[end - 1].rstrip().endswith((",", "(")):
                    break
            declarations.append("\n".join(lines[i:end]))
            i = end
            continue
        statements.append(line)
        i += 1
    return imports, declarations, statements


def uses(name, text):
    """Whether `text` names `name` (as a whole word)."""
    return re.search(r"\b" + name + r"\b", text) is not None


def declared_first(name, body):
    """Whether `body` declares `name` (`let`, `var`) before it first uses it otherwise."""
    use = re.search(r"\b" + name + r"\b", body)
    declaration = re.search(r"\b(let|var)\s+" + name + r"\b", body)
    return declaration is not None and declaration.end() - len(name) <= use.start()


def example_source(block, earlier):
    """The module source of `block`, given the declarations of the page's earlier blocks."""
    imports, declarations, statements = split_block(block)
    # A type the block declares again replaces the earlier one, and what used that goes too.
    own = set(TYPE_NAME.findall("\n".join(declarations)))
    inherited = [d for d in earlier if not any(uses(name, d) for name in own)]
    body = "\n".join(statements)
    values = [v for name, v in CONTEXT_VALUES.items() if uses(name, body) and not declared_first(name, body)]
    text = "\n".join(inherited + declarations + [body] + values)
    declared = set(TYPE_NAME.findall("\n".join(inherited + declarations)))
    needed = {name for name in CONTEXT_TYPES if name not in declared and uses(name, text)}
    if needed & {"Dog", "Person"}:
        needed |= {"Dog", "Person"} - declared
    signature = "func example() async throws {" if "await" in body else "func example() throws {"
    parts = ["\n".join(sorted(imports | {"import Foundation", "import Strata"}))]
    parts += [CONTEXT_TYPES[name] for name in sorted(needed)] + inherited + declarations
    parts.append(signature + "\n" + "\n".join("    " + line for line in values + statements) + "\n}")
    return "\n\n".join(parts) + "\n", declarations


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", default="/tmp/strata-doc-examples", help="the scratch package's directory")
    args = parser.parse_args()
    sources = os.path.join(args.dir, "Sources")
    subprocess.run(["rm", "-rf", sources], check=True)
    targets = []
    for page in ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        earlier = []
        with open(os.path.join(ROOT, page)) as f:
            blocks = re.findall(r"```swift\n(.*?)```", f.read(), re.S)
        for number, block in enumerate(blocks):
            source, declarations = example_source(block, earlier)
            earlier += declarations
            target = "Example%02d_%s_%d" % (len(targets), re.sub(r"\W", "_", os.path.basename(page)[:-3]), number)
            os.makedirs(os.path.join(sources, target))
            with open(os.path.join(sources, target, "Example.swift"), "w") as f:
                f.write(source)
            targets.append((target, page, number))
    package = os.path.basename(ROOT).lower()  # a path dependency's identity
    with open(os.path.join(args.dir, "Package.swift"), "w") as f:
        f.write("// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n"
                '    name: "DocExamples",\n    dependencies: [.package(path: "%s")],\n    targets: [\n' % ROOT)
        for target, _, _ in targets:
            f.write('        .target(name: "%s", dependencies: [.product(name: "Strata", package: "%s"), '
                    '.product(name: "StrataReplication", package: "%s")]),\n'
                    % (target, package, package))
        f.write("    ]\n)\n")
    failed = 0
    for target, page, number in targets:
        run = subprocess.run(["swift", "build", "--target", target], cwd=args.dir, capture_output=True, text=True)
        problems = sorted({line for line in run.stdout.splitlines() + run.stderr.splitlines()
                           if target + "/" in line and (": error:" in line or ": warning:" in line)
                           and "never used" not in line and "is unused" not in line})
        status = "ok" if run.returncode == 0 else "FAILED"
        print("%s %s, example %d" % (status, page, number + 1))
        for line in problems:
            print("    " + line.split("Sources/", 1)[-1])
        failed += run.returncode != 0
    print("%d of %d examples compile" % (len(targets) - failed, len(targets)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
