"""The committed generated code is what the proto compiles to today."""

from __future__ import annotations

from pathlib import Path

from tourney.engine.server import codegen


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    written = codegen.generate(tmp_path)
    assert {p.name for p in written} == {*codegen.FILES, "__init__.py"}
    for path in written:
        committed = codegen.GENERATED / path.name
        assert committed.exists(), f"{committed} is missing: run python -m tourney.engine.server.codegen"
        assert committed.read_text() == path.read_text(), (
            f"{committed} is stale: run python -m tourney.engine.server.codegen and commit the result"
        )
