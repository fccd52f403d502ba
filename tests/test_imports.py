"""The referee's modules import each other in one direction only: no module of the rules core
imports one that (directly or not) imports it back, even from inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Every module of ``modules`` that ``path`` imports, at the top or inside a function."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            candidates = [target] + [f"{target}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            candidates = [a.name for a in node.names]
        else:
            continue
        found |= {c for c in candidates if c in modules and c != name}
    return found


def _cycles(folder: Path) -> list[list[str]]:
    files = {_module_name(p): p for p in folder.rglob("*.py")}
    graph = {m: _imports(p, set(files)) for m, p in files.items()}
    graph = {m: {d for d in deps if not m.startswith(d + ".") and d != m.rsplit(".", 1)[0]}
             for m, deps in graph.items()}          # a module importing its own package's __init__
    cycles, state = [], {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = "open"
        for d in sorted(graph[m]):
            if state.get(d) == "open":
                cycles.append(stack[stack.index(d):] + [d] if d in stack else [m, d])
            elif d not in state:
                visit(d, stack + [d])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return cycles


def test_the_referee_has_no_import_circle():
    assert _cycles(PACKAGE / "referee") == []


def test_the_cycle_finder_finds_a_circle(tmp_path, monkeypatch):
    pkg = tmp_path / "companion" / "knot"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("def f():\n    from .a import y\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "companion")
    assert _cycles(pkg) == [["companion.knot.a", "companion.knot.b", "companion.knot.a"]]
