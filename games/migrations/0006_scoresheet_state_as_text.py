"""A live scoresheet's state kept as plain text on PostgreSQL instead of jsonb (issue 26, fifth pass).

The application reads and writes the state whole, by orjson, and never queries inside it: PostgreSQL's
parse of each 20-30 KB state into jsonb at every entry (and its print back at every read) was the part of
an entry's cost that grew with the game (`games/json_fields.py`). Each jsonb value becomes its text (an
assignment cast); back, each text is parsed again. The type change resets the column's compression: LZ4
is set again where the server has it (`0004_lz4_compression`). SQLite's column is the same for both
fields (JSON text).
"""

import games.json_fields
from django.db import DatabaseError, migrations, transaction


def _to(column_type: str):  # type: ignore[no-untyped-def]
    def alter(apps, schema_editor):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            f"ALTER TABLE games_scoresheet ALTER COLUMN state TYPE {column_type} USING state::{column_type}")
        try:
            with transaction.atomic(using=schema_editor.connection.alias):
                schema_editor.execute("ALTER TABLE games_scoresheet ALTER COLUMN state SET COMPRESSION lz4")
        except DatabaseError:  # built without LZ4: the default stays
            pass
    return alter


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0005_scoresheet_state_fast_json'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='scoresheet',
                    name='state',
                    field=games.json_fields.TextJSONField(default=dict),
                ),
            ],
            database_operations=[migrations.RunPython(_to("text"), _to("jsonb"))],
        ),
    ]
