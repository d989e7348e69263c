"""At most one open result per table: never a pending result beside a final one (ADR 0001; the services
already refused it, now the database does too)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_auditlog_hash_chain'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='result',
            constraint=models.UniqueConstraint(condition=models.Q(('state__in', ['reported', 'confirmed', 'overridden'])), fields=('table',), name='result_one_open_per_table'),
        ),
    ]
