"""Regenerate the Python code of proto/tourney/v1/arena.proto: the arena's (engine/server/generated/)
and the bot SDK's own copy (clients/python/tourney_bot/generated/, so `pip install ./clients/python`
needs nothing of the repository).

Run `python -m tourney.engine.server.codegen` after editing the proto; a test fails when the
committed code is stale. `generate(out_dir, package)` writes into any folder (the test uses a temp one).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "proto"
PROTO_FILE = "tourney/v1/arena.proto"
GENERATED = Path(__file__).resolve().parent / "generated"
# protoc writes imports relative to the proto path; the package lives under engine/server.
_PROTO_IMPORT = "from tourney.v1 import arena_pb2"
ARENA_PACKAGE = "tourney.engine.server.generated"
SDK_PACKAGE = "tourney_bot.generated"
SDK_GENERATED = ROOT / "clients" / "python" / "tourney_bot" / "generated"
TARGETS = ((GENERATED, ARENA_PACKAGE), (SDK_GENERATED, SDK_PACKAGE))  # (folder, the package it is imported as)
FILES = ("arena_pb2.py", "arena_pb2.pyi", "arena_pb2_grpc.py")
_INIT = '"""Generated from proto/tourney/v1/arena.proto by `python -m tourney.engine.server.codegen`; do not edit."""\n'


def generate(out_dir: Path, package: str = ARENA_PACKAGE) -> list[Path]:
    """Compile the proto into `out_dir` (arena_pb2.py, .pyi, arena_pb2_grpc.py, __init__.py), importing
    its own modules as `package`."""
    import tempfile

    from grpc_tools import protoc  # dev dependency: only needed to regenerate

    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        include = Path(protoc.__file__).resolve().parent / "_proto"
        code = protoc.main([
            "grpc_tools.protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
            str(PROTO_ROOT / PROTO_FILE),
        ])
        if code != 0:
            raise RuntimeError(f"protoc failed with exit code {code}")
        written = []
        for name in FILES:
            text = (Path(tmp) / "tourney" / "v1" / name).read_text()
            text = text.replace(_PROTO_IMPORT, f"from {package} import arena_pb2")
            # Generated code follows protoc's style, not ours: keep mypy --strict off it.
            text = "# mypy: ignore-errors\n" + text
            target = out_dir / name
            target.write_text(text)
            written.append(target)
    init = out_dir / "__init__.py"
    init.write_text(_INIT)
    written.append(init)
    return written


def main() -> int:
    """Regenerate the committed code and list the files written."""
    for folder, package in TARGETS:
        for path in generate(folder, package):
            print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
