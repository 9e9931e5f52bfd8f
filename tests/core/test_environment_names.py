"""Every environment variable name is spelled once, in engine/core/environment.py: the code and its messages
name the constants (docstrings and comments may say the names in words)."""

from __future__ import annotations

import ast
from pathlib import Path

import tourney.engine.core.environment as environment

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "engine" / "core" / "environment.py"
NAMES = [v for k, v in vars(environment).items() if k.endswith(("_ENV", "_ENV_PREFIX")) and isinstance(v, str)]


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def spelled_outside_home(root: Path, folders: tuple[str, ...]) -> list[str]:
    """Every string in the code under `folders` of `root` (not a docstring) holding an environment variable's name."""
    found = []
    for folder in folders:
        for path in (root / folder).rglob("*.py"):
            if path == HOME or "generated" in path.parts:
                continue
            tree = ast.parse(path.read_text(), str(path))
            docs = _docstrings(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                    found += [f"{path.relative_to(root)}:{node.lineno} {name}" for name in NAMES if name in node.value]
    return sorted(found)


def test_the_home_names_every_variable_once():
    assert len(NAMES) == len(set(NAMES)) and "TOURNEY_ADMIN_TOKEN" in NAMES


def test_no_layer_spells_an_environment_variable_name():
    assert spelled_outside_home(ROOT, ("engine", "workers", "tournament", "web", "envs")) == []


def test_the_check_sees_a_name_in_a_message(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "x.py").write_text('"""TOURNEY_DB in a docstring is prose."""\n'
                                              'import os\nos.environ.get("TOURNEY_DB")\n')
    assert spelled_outside_home(tmp_path, ("engine",)) == ["engine/x.py:3 TOURNEY_DB"]
