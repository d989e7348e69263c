"""A record's text and a live scoresheet's state compressed with LZ4 instead of pglz on PostgreSQL (issue 26).

Both are written whole and often: a record's 20-30 KB text once per POST and read back by its verification,
a sheet's 20-30 KB state on every entry. PostgreSQL compresses such values out of line with pglz by
default; LZ4 does the same job in a fraction of the CPU (a 19 KB record's insert: 0.71 -> 0.41 ms in
pgbench here). Values written before keep their compression until rewritten. A server built without LZ4
keeps pglz (the change is skipped); SQLite has no such setting.
"""

from django.db import DatabaseError, migrations, transaction

COLUMNS = [("games_gamerecord", "raw"), ("games_scoresheet", "state")]


def _compression(method: str):  # type: ignore[no-untyped-def]
    def apply(apps, schema_editor):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            return
        for table, column in COLUMNS:
            try:
                with transaction.atomic(using=schema_editor.connection.alias):
                    schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}")
            except DatabaseError:  # built without LZ4: the default stays
                return
    return apply


class Migration(migrations.Migration):
    dependencies = [("games", "0003_importbatch_upload_storage")]

    operations = [migrations.RunPython(_compression("lz4"), _compression("pglz"))]
