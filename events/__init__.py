"""The event layer: stored events, their encoding, the store and the integrity checks."""

# The schema first: it merges the tournament stream's types (events.tournament, which
# builds on the schema's base class) into its topics, whichever module is imported first.
from events import schema as _schema  # noqa: F401
