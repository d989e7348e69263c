"""On PostgreSQL, a trigger makes the audit log append-only even for raw SQL and bulk updates."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION tournaments_auditlog_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'tournaments_auditlog is append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER tournaments_auditlog_no_update_delete
    BEFORE UPDATE OR DELETE ON tournaments_auditlog
    FOR EACH ROW EXECUTE FUNCTION tournaments_auditlog_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS tournaments_auditlog_no_update_delete ON tournaments_auditlog;
DROP FUNCTION IF EXISTS tournaments_auditlog_append_only();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
