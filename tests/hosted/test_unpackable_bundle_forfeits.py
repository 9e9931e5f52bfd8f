"""A stored bundle that no longer unpacks (stored before packing refused such names) forfeits its own
seat, in one sentence, and the opponent wins: the error ran out of the match, a traceback from
`tourney match` and a failed match task on the ladder."""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile

from tests.hosted.bundles import GAME, bot_source
from tests.hosted.conftest import Store
from tourney.engine.core import Termination
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import VALIDATED, add_version, set_status


def clashing_bundle() -> bytes:
    """A packed bundle holding bot.py, `lib` as a file and `lib/util.py`: no folder can hold all three."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in (("bot.py", bot_source("good").encode()), ("lib", b"x"), ("lib/util.py", b"x")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


def test_a_bundle_that_does_not_unpack_forfeits_its_seat(hosted_store: Store) -> None:
    packed = clashing_bundle()
    engine = open_store(hosted_store.url)
    version = add_version(engine, "clash", packed, hashlib.sha256(packed).hexdigest(), 3, "python3 bot.py", [GAME])
    assert version.id is not None
    set_status(engine, version.id, VALIDATED)
    result = hosted_store.play("hosted:good", "hosted:clash")
    assert result.termination == Termination.CRASH and result.forfeit_seat == 1, result.reason
    assert "cannot be unpacked" in result.reason
