"""A tamper-evident audit log (issue 29), on PostgreSQL.

Each `tournaments_auditlog` row is chained to the previous row of its tournament: a BEFORE INSERT
trigger (installed by migration 0007) takes a transaction-level advisory lock for the tournament, sets
`created_at` to the database's `now()` (whatever the writer sent), `chain_seq` to the previous row's + 1,
`prev_hash` to the previous row's `row_hash`, and

    row_hash = sha256(prev_hash | chain_seq | tournament_id | action | object_type | object_id
                      | actor_id | actor_entrant_id | data (jsonb text) | created_at (UTC, microseconds))

Rows written by COPY (bulk imports) go through the same trigger. Rows cannot be updated or deleted
(the append-only trigger of migration 0002, and the app role has only SELECT, INSERT). Whoever bypasses
both (a superuser, the owner disabling the triggers) leaves a chain that `manage.py audit_verify`
reports as broken: a changed row no longer matches its hash, a removed or inserted row breaks the
sequence and the links. The check recomputes the hashes here, in Python, not with the database's function.
What the chain cannot show: the newest rows of a tournament removed together (compare the count or the
last hash with a copy kept elsewhere, e.g. the nightly backup's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connection

LOCK_NAMESPACE = 0x61756469  # "audi": the advisory lock's first key; the second is the tournament id

CANONICAL_SQL = """concat_ws('|', {r}.prev_hash, {r}.chain_seq::text, coalesce({r}.tournament_id::text, ''),
    {r}.action, {r}.object_type, coalesce({r}.object_id::text, ''), coalesce({r}.actor_id::text, ''),
    coalesce({r}.actor_entrant_id::text, ''), {r}.data::text,
    to_char({r}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'))"""

CREATE = f"""
CREATE OR REPLACE FUNCTION tournaments_auditlog_chain() RETURNS trigger AS $$
DECLARE
    last_seq bigint;
    last_hash varchar(64);
BEGIN
    PERFORM pg_advisory_xact_lock({LOCK_NAMESPACE}, coalesce(NEW.tournament_id, 0)::int);
    NEW.created_at := now();
    IF NEW.tournament_id IS NULL THEN
        SELECT chain_seq, row_hash INTO last_seq, last_hash FROM tournaments_auditlog
         WHERE tournament_id IS NULL AND chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1;
    ELSE
        SELECT chain_seq, row_hash INTO last_seq, last_hash FROM tournaments_auditlog
         WHERE tournament_id = NEW.tournament_id AND chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1;
    END IF;
    NEW.chain_seq := coalesce(last_seq, 0) + 1;
    NEW.prev_hash := coalesce(last_hash, '');
    NEW.row_hash := encode(sha256(convert_to({CANONICAL_SQL.format(r="NEW")}, 'UTF8')), 'hex');
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS tournaments_auditlog_chain ON tournaments_auditlog;
CREATE TRIGGER tournaments_auditlog_chain BEFORE INSERT ON tournaments_auditlog
    FOR EACH ROW EXECUTE FUNCTION tournaments_auditlog_chain();
"""

# Existing rows get their chain once, in (tournament, time, id) order; the append-only trigger is
# switched off for that one statement by the owner running the migration.
BACKFILL = f"""
ALTER TABLE tournaments_auditlog DISABLE TRIGGER tournaments_auditlog_no_update_delete;
DO $$
DECLARE
    r record;
    cur_tournament bigint := -1;
    seq bigint := 0;
    prev varchar(64) := '';
BEGIN
    FOR r IN SELECT id, tournament_id FROM tournaments_auditlog WHERE chain_seq IS NULL
             ORDER BY tournament_id NULLS FIRST, created_at, id LOOP
        IF coalesce(r.tournament_id, 0) <> cur_tournament THEN
            cur_tournament := coalesce(r.tournament_id, 0);
            seq := 0;
            prev := '';
        END IF;
        seq := seq + 1;
        UPDATE tournaments_auditlog a SET chain_seq = seq, prev_hash = prev WHERE a.id = r.id;
        UPDATE tournaments_auditlog a
           SET row_hash = encode(sha256(convert_to({CANONICAL_SQL.format(r="a")}, 'UTF8')), 'hex')
         WHERE a.id = r.id RETURNING a.row_hash INTO prev;
    END LOOP;
END $$;
ALTER TABLE tournaments_auditlog ENABLE TRIGGER tournaments_auditlog_no_update_delete;
"""

DROP = """
DROP TRIGGER IF EXISTS tournaments_auditlog_chain ON tournaments_auditlog;
DROP FUNCTION IF EXISTS tournaments_auditlog_chain();
"""


def row_hash(prev_hash: str, seq: int, tournament_id: int | None, action: str, object_type: str,
             object_id: int | None, actor_id: int | None, actor_entrant_id: int | None, data_text: str,
             created_at_text: str) -> str:
    fields = [prev_hash, str(seq), "" if tournament_id is None else str(tournament_id), action, object_type,
              "" if object_id is None else str(object_id), "" if actor_id is None else str(actor_id),
              "" if actor_entrant_id is None else str(actor_entrant_id), data_text, created_at_text]
    return hashlib.sha256("|".join(fields).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ChainBreak:
    tournament_id: int | None
    row_id: int | None
    chain_seq: int | None
    problem: str


def chain_breaks(tournament_id: int | None = None, *, all_tournaments: bool = True) -> Iterator[ChainBreak]:
    """Every break of the audit chains (one tournament's, or all of them): rows without a chain, a
    sequence gap, a link to the wrong previous hash, a hash that does not match the row."""
    if connection.vendor != "postgresql":
        raise RuntimeError("The audit chain is kept on PostgreSQL only.")
    where = "" if all_tournaments else "WHERE tournament_id IS NOT DISTINCT FROM %s"
    params = [] if all_tournaments else [tournament_id]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT id, tournament_id, chain_seq, prev_hash, row_hash, action, object_type, object_id,
                       actor_id, actor_entrant_id, data::text,
                       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
                  FROM tournaments_auditlog {where}
                 ORDER BY tournament_id NULLS FIRST, chain_seq NULLS FIRST, id""", params)
        current: object = object()
        expected_seq, expected_prev = 1, ""
        for (row_id, t_id, seq, prev, stored, action, object_type, object_id, actor_id, actor_entrant_id,
             data_text, created_text) in cursor:
            if t_id != current:
                current, expected_seq, expected_prev = t_id, 1, ""
            if seq is None:
                yield ChainBreak(t_id, row_id, None, "row outside the chain")
                continue
            if seq != expected_seq:
                yield ChainBreak(t_id, row_id, seq, f"sequence jumps from {expected_seq - 1} to {seq}")
            if prev != expected_prev:
                yield ChainBreak(t_id, row_id, seq, "linked to another previous row")
            computed = row_hash(prev, seq, t_id, action, object_type, object_id, actor_id, actor_entrant_id,
                                data_text, created_text)
            if computed != stored:
                yield ChainBreak(t_id, row_id, seq, "content does not match its hash")
            expected_seq, expected_prev = seq + 1, stored
