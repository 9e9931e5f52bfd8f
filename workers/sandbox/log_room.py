"""Room for one more bot log: the folder of bot logs is kept under a byte budget.

A hosted seat writes one log per seat name and worker process (tournament/hosted/seat.py `log_path`),
each capped at the sandbox's largest file; nothing else ever removes them, so a ladder's stream of new
versions and worker processes would fill the disk in time. Before a sandboxed bot starts, the least
recently written logs are deleted until its own log fits the budget whole.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def make_room(folder: Path, needed: int, budget: int, keep: Path) -> list[Path]:
    """Delete the least recently written `*.log` files in `folder` (never `keep`) until what stays plus
    `needed` bytes is within `budget`, or none is left; the files deleted. Another process deleting or
    writing the same files at once is harmless: a file already gone is skipped, and one still being
    written is freed once its writer closes it."""
    logs: list[tuple[float, int, Path]] = []
    with contextlib.suppress(FileNotFoundError):
        for entry in os.scandir(folder):
            if not entry.name.endswith(".log") or entry.name == keep.name:
                continue
            with contextlib.suppress(FileNotFoundError):
                info = entry.stat(follow_symlinks=False)
                logs.append((info.st_mtime, info.st_size, Path(entry.path)))
    total = sum(size for _, size, _ in logs)
    deleted = []
    for _, size, path in sorted(logs, key=lambda log: log[0]):
        if total + needed <= budget:
            break
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            deleted.append(path)
        total -= size
    return deleted
