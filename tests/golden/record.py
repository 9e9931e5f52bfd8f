"""Rewrite the golden record from the current code: `.venv/bin/python -m tests.golden.record`.

Only after a deliberate rule change; say which entries changed and why in the commit message.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.golden.cases import GOLDEN_FILE, record_all


def main() -> None:
    path = Path(__file__).with_name(GOLDEN_FILE)
    path.write_text(json.dumps(record_all(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
