"""What the scripts run inside GNU Backgammon's own Python share: requests in, answers out.

The runner (:mod:`tests.gnubg_runner`) names a JSON file of requests in
``GAMMONBOT_GNUBG_REQUESTS`` and the file for the answers, one per request, in
``GAMMONBOT_GNUBG_RESULTS``; it puts this folder on gnubg's ``PYTHONPATH``, so a script imports
this module by its plain name. Only the standard library is imported here, and gnubg only when
:func:`serve` runs inside it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any


def serve(answer: Callable[[Any, dict[str, Any]], Any]) -> None:
    """Answer every request with ``answer(gnubg, request)``."""
    import gnubg  # type: ignore[import-not-found]  # only inside GNU Backgammon

    with open(os.environ["GAMMONBOT_GNUBG_REQUESTS"], encoding="utf-8") as handle:
        requests = json.load(handle)
    answers = [answer(gnubg, request) for request in requests]
    with open(os.environ["GAMMONBOT_GNUBG_RESULTS"], "w", encoding="utf-8") as handle:
        json.dump(answers, handle)
