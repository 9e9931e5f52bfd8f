"""The committed generated code (the arena's and the Python SDK's copy) is what the proto compiles to today."""

from __future__ import annotations

from pathlib import Path

import pytest

from tourney.engine.server import codegen


@pytest.mark.parametrize(("folder", "package"), codegen.TARGETS, ids=["arena", "sdk"])
def test_generated_code_is_up_to_date(tmp_path: Path, folder: Path, package: str) -> None:
    written = codegen.generate(tmp_path, package)
    assert {p.name for p in written} == {*codegen.FILES, "__init__.py"}
    for path in written:
        committed = folder / path.name
        assert committed.exists(), f"{committed} is missing: run python -m tourney.engine.server.codegen"
        assert committed.read_text() == path.read_text(), (
            f"{committed} is stale: run python -m tourney.engine.server.codegen and commit the result"
        )
