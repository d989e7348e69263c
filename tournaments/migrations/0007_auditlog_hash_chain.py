"""The audit log becomes tamper-evident: each row chained by hash to the previous row of its tournament,
its time set by the database (tournaments/audit_chain.py; PostgreSQL only). Existing rows are chained
in (tournament, time, id) order."""

from django.conf import settings
from django.db import migrations, models

from tournaments.audit_chain import BACKFILL, CREATE, DROP


def install_chain(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKFILL)
        schema_editor.execute(CREATE)


def remove_chain(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_task_outbox'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='auditlog',
            name='chain_seq',
            field=models.BigIntegerField(editable=False, null=True),
        ),
        migrations.AddField(
            model_name='auditlog',
            name='prev_hash',
            field=models.CharField(blank=True, default='', editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name='auditlog',
            name='row_hash',
            field=models.CharField(blank=True, default='', editable=False, max_length=64),
        ),
        migrations.AddConstraint(
            model_name='auditlog',
            constraint=models.UniqueConstraint(fields=('tournament', 'chain_seq'), name='auditlog_chain_seq_unique'),
        ),
        migrations.RunPython(install_chain, remove_chain),
    ]
