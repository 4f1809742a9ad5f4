"""The PostgreSQL recorder: the library's, with each append made in one round trip.

eventsourcing's recorder keeps notification ids in commit order by taking an
EXCLUSIVE lock on the events table for every insert, and holds it until the
transaction commits. Its insert runs in a pipeline: lock, notify and insert,
then a sync and a commit, so the lock is held across two round trips between
the server process and the database. With many tables recording at once every
append waits for that lock, and the round trips, not the database's work, set
how many appends a second the whole service can take.

Here an append is one call of a server-side function that takes the same lock,
notifies the same channel and inserts the rows, made on an autocommit
connection: one statement, one round trip, and the lock is released by the
commit that ends it. Ordering, uniqueness (a racing append still fails on the
primary key) and the notification channel are exactly the library's. The
function is created with the tables, or on the first start of an older store
(``GameStore.ensure_tables``), under the store's advisory lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.sql import SQL, Composed, Identifier

__all__ = ["APPEND_FUNCTION", "RefereePostgresRecorder"]

APPEND_FUNCTION = "referee_append_events"


class RefereePostgresRecorder(PostgresApplicationRecorder):
    """``PostgresApplicationRecorder`` whose inserts call ``referee_append_events``."""

    def __init__(
        self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"
    ) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        schema = Identifier(datastore.schema)
        self.append_function = APPEND_FUNCTION
        self.create_append_function: Composed = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{function}(events {schema}.{event}[], "
            "lock_wait text) RETURNS SETOF bigint LANGUAGE plpgsql AS $body$ BEGIN PERFORM "
            "set_config('lock_timeout', lock_wait, true); LOCK TABLE {schema}.{table} IN "
            "EXCLUSIVE MODE; NOTIFY {channel}; RETURN QUERY INSERT INTO {schema}.{table} "
            "(originator_id, originator_version, topic, state) SELECT originator_id, "
            "originator_version, topic, state FROM unnest(events) RETURNING notification_id; "
            "END $body$"
        ).format(
            schema=schema,
            function=Identifier(APPEND_FUNCTION),
            event=Identifier(self.stored_event_type_name),
            table=Identifier(self.events_table_name),
            channel=Identifier(self.channel_name),
        )
        self.sql_create_statements.append(self.create_append_function)
        self.call_append: Composed = SQL("SELECT * FROM {schema}.{function}(%s, %s)").format(
            schema=schema, function=Identifier(APPEND_FUNCTION)
        )
        self.lock_wait = (
            f"{int(datastore.lock_timeout)}s"  # this process's bound (0: wait without one)
        )

    def insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """Insert the events in one statement (one transaction, one round trip).

        Not retried: an append whose commit went unanswered may have been stored, and
        a retry would then fail as a concurrent write; the caller hears the error."""
        if not stored_events:
            return []
        rows = [
            self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
            for e in stored_events
        ]
        with self.datastore.get_connection() as conn, conn.cursor() as cursor:
            cursor.execute(self.call_append, (rows, self.lock_wait), prepare=True)
            return [row[APPEND_FUNCTION] for row in cursor.fetchall()]
