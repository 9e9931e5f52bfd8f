"""The names an organiser gives a tournament or a league: printable and bounded.

Every table, web page, export and log line repeats them, so a control character (an ESC sequence, a
bidi override) would act on each reader's terminal, and a name of megabytes would be stored and sent
again with every standings page.
"""

from __future__ import annotations

from tourney.engine.core import ConfigError
from tourney.engine.core.printable import shown

MAX_LABEL_CHARS = 100


def check_label(label: str, what: str) -> None:
    """Refuse `label` (`what` names it, e.g. "--name") unless it is 1 to MAX_LABEL_CHARS printable characters."""
    if not label.strip():
        raise ConfigError(f"{what} is empty: give it a name.")
    if len(label) > MAX_LABEL_CHARS:
        raise ConfigError(f"{what} has {len(label):,} characters: give a name of at most {MAX_LABEL_CHARS}.")
    if not label.isprintable():
        raise ConfigError(f"{what} '{shown(label)}' holds a character that is not printable: give a name of "
                          "letters, digits, spaces and punctuation.")
