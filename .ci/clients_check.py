"""Checks what the code generators made of openapi/openapi.json (called by .ci/clients.sh).

Fails (exit 1, every finding listed) on:
- an operation of the document missing from the Python client or the TypeScript `operations`,
  or a warning of openapi-python-client (it drops what it cannot read, with a warning);
- an untyped field or model in either output (Python `Any`, a free-form model; TypeScript
  `unknown`) that `.ci/clients-allow.txt` does not name, or an allow-list entry that no longer
  matches anything (so the list only shrinks with the schema);
- a component named after a Rust type (`Vec`, `BTreeMap`, `Option_String`, ...).

Usage: clients_check.py DOCUMENT PY_PACKAGE_DIR PY_GENERATOR_LOG TS_FILE ALLOW_LIST
"""

import ast
import json
import pathlib
import re
import sys

RUST_TYPES = (
    "Vec|VecDeque|BTreeMap|BTreeSet|HashMap|HashSet|IndexMap|Option|Box|Rc|Arc|Cow|Result"
    "|String|Value|Map|Json|NaiveDateTime|DateTime|i8|i16|i32|i64|u8|u16|u32|u64|usize|f32|f64"
)
RUST_NAME = re.compile(rf"^({RUST_TYPES})($|_|<)|::|<")
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


def operations(document):
    """operationId of every operation under `paths`."""
    return {
        op["operationId"]
        for item in document.get("paths", {}).values()
        for method, op in item.items()
        if method in METHODS
    }


def python_operations(package):
    return {f.stem for f in (package / "api").glob("*/*.py") if f.stem != "__init__"}


def typescript_operations(text):
    """Keys of `export interface operations { ... }`."""
    block = text.split("export interface operations {", 1)
    if len(block) < 2:
        return set()
    names = set()
    for line in block[1].splitlines():
        if line.startswith("}"):
            break
        match = re.match(r"^    (\w+): \{", line)
        if match:
            names.add(match.group(1))
    return names


def python_untyped(package):
    """`py:Class.field` for every field typed `Any`, `py:Class` for a free-form model."""
    found = {}
    for path in sorted((package / "models").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.ClassDef):
                continue
            fields = [
                (st.target.id, ast.unparse(st.annotation))
                for st in node.body
                if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)
            ]
            named = [(n, a) for n, a in fields if n != "additional_properties"]
            extra = [a for n, a in fields if n == "additional_properties"]
            for name, annotation in named:
                if re.search(r"\bAny\b", annotation):
                    found[f"py:{node.name}.{name}"] = annotation
            if not named and extra and re.search(r"\bAny\b", extra[0]):
                found[f"py:{node.name}"] = "a model with no fields but any others"
    return found


def typescript_untyped(text):
    """`ts:path.to.field` for every `unknown` type (header maps and `X & unknown`, which is X,
    aside), found by following the nesting of openapi-typescript's output."""
    found = {}
    stack = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("/**", "*", "//")):
            continue
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        match = re.match(r'^(?:readonly )?("[^"]+"|\[[^\]]+\]|[\w$]+)\??: (.*)$', stripped)
        if not match:
            continue
        key, value = match.group(1).strip('"'), match.group(2)
        if key.startswith("["):
            key = "*"  # an index signature: any key of a map
        path = [k for _, k in stack] + [key]
        if value.endswith("{"):
            stack.append((indent, key))
            continue
        value = value.replace("& unknown", "")
        if not re.search(r"\bunknown\b", value):
            continue
        if "headers" in path[-2:] and key == "*":
            continue  # every response's headers map: `[name: string]: unknown`
        if "/" in key and "json" not in key:
            continue  # a body that is not JSON (text/html, text/csv, ...)
        found["ts:" + ".".join(path)] = value.rstrip(";")
    return found


def allow_list(path):
    """Entries of the allow-list: `<where> <why>`, one a line; `#` starts a comment line."""
    entries, bad = {}, []
    for number, line in enumerate(pathlib.Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where, _, why = line.strip().partition(" ")
        if not why.strip():
            bad.append(f"{path}:{number}: `{where}` says not why it may stay untyped")
        entries[where] = why.strip()
    return entries, bad


def main():
    document_path, package, log, ts_file, allow = sys.argv[1:6]
    document = json.loads(pathlib.Path(document_path).read_text())
    package = pathlib.Path(package)
    ts_text = pathlib.Path(ts_file).read_text()
    failures = []

    wanted = operations(document)
    for client, made in (("Python", python_operations(package)), ("TypeScript", typescript_operations(ts_text))):
        missing = sorted(wanted - made)
        if missing:
            failures.append(f"{client} client lacks {len(missing)} operation(s): {', '.join(missing)}")
        print(f"clients: {client}: {len(wanted & made)} of {len(wanted)} operations")
    warnings = [
        line
        for line in pathlib.Path(log).read_text().splitlines()
        if re.search(r"^WARNING|Unable to|will not be generated|removal of|Could not", line)
    ]
    if warnings:
        failures.append("openapi-python-client warned:\n    " + "\n    ".join(warnings))

    entries, bad = allow_list(allow)
    failures.extend(bad)
    untyped = {**python_untyped(package), **typescript_untyped(ts_text)}
    for where, what in sorted(untyped.items()):
        if where not in entries:
            failures.append(f"untyped: {where} ({what}); type it, or name it in {allow} with why")
    for where in sorted(set(entries) - set(untyped)):
        failures.append(f"{allow} names {where}, which is no longer untyped: remove the entry")
    print(f"clients: {len(untyped)} untyped field(s) or model(s), all on the allow-list" if not any(f.startswith("untyped") for f in failures) else "clients: untyped fields found")

    rusty = sorted(name for name in document.get("components", {}).get("schemas", {}) if RUST_NAME.search(name))
    if rusty:
        failures.append(f"components named after a Rust type: {', '.join(rusty)}")

    for failure in failures:
        print(f"FAIL {failure}")
    if failures:
        sys.exit(1)
    print("clients: generated clients cover every operation; no Rust names")


if __name__ == "__main__":
    main()
