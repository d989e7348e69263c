"""Give the application's database role what it needs and no more (issue 15; docs/operations.md).

Run as the schema owner (the role that runs `migrate`), after every `migrate`:

    DATABASE_URL=postgres://tournaments_owner@db/tournaments manage.py grant_app_role tournaments_app

The app role gets SELECT, INSERT, UPDATE, DELETE on every table of the schema and the use of its
sequences, except the audit log, where it gets SELECT and INSERT only. Owning no table, it can neither
TRUNCATE nor ALTER (so not disable the append-only trigger) nor DROP anything. PostgreSQL only.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

AUDIT_TABLE = "tournaments_auditlog"


def grant_statements(role: str, schema: str = "public") -> list[str]:
    q = connection.ops.quote_name
    role_q, schema_q, audit_q = q(role), q(schema), q(AUDIT_TABLE)
    return [
        f"REVOKE ALL ON SCHEMA {schema_q} FROM {role_q}",
        f"GRANT USAGE ON SCHEMA {schema_q} TO {role_q}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema_q} FROM {role_q}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema_q} TO {role_q}",
        f"REVOKE ALL ON {schema_q}.{audit_q} FROM {role_q}",
        f"GRANT SELECT, INSERT ON {schema_q}.{audit_q} TO {role_q}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema_q} TO {role_q}",
    ]


class Command(BaseCommand):
    help = "Grant the app's database role DML on every table, but only SELECT and INSERT on the audit log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="The role the web processes and workers connect as.")
        parser.add_argument("--schema", default="public")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("grant_app_role is for PostgreSQL; SQLite has no roles.")
        role, schema = options["role"], options["schema"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            owner = cursor.fetchone()[0]
            if owner == role:
                raise CommandError("Run this as the schema owner, not as the app role itself.")
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
            if cursor.fetchone() is None:
                raise CommandError(f"Role {role} does not exist (CREATE ROLE {role} LOGIN PASSWORD '...').")
            with transaction.atomic():
                for statement in grant_statements(role, schema):
                    cursor.execute(statement)
        self.stdout.write(f"{role}: DML on {schema}'s tables, SELECT+INSERT only on {AUDIT_TABLE}.")
