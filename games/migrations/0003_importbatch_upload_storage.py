"""The import's upload stored out of line without compression on PostgreSQL (games/upload_store.py)."""

from django.db import migrations


def _storage(mode: str):  # type: ignore[no-untyped-def]
    def apply(apps, schema_editor):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE games_importbatch ALTER COLUMN upload SET STORAGE {mode}")
    return apply


class Migration(migrations.Migration):
    dependencies = [("games", "0002_sheet_app_scoresheet")]

    operations = [migrations.RunPython(_storage("EXTERNAL"), _storage("EXTENDED"))]
