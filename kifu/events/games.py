"""The game table's old name (``kifu.events.table``): kept only for ``kifu/cli/record/recording.py`` and
``tests/test_record.py``, which import it by that name until their owner renames it; nothing else imports it."""

from .table import *  # noqa: F403
from .table import codec, events_module, require  # noqa: F401
