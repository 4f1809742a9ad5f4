"""The words every face uses for what the service hands out: one formatter per thing,
so the command line, the HTTP API and the pages say the same.

``safe_text`` (a name or reason made safe for a terminal) and ``event_line`` (one line
per recorded event) are the event layer's; the faces take them from here, the
application layer, and never import ``events`` themselves.
"""

from __future__ import annotations

from events.records import event_line, safe_text

__all__ = ["event_line", "safe_text"]
