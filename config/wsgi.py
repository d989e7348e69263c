"""WSGI entry point (gunicorn config.wsgi).

Once the app is loaded (settings, apps, the URL conf, the scoresheet engine), every object alive is moved
out of the garbage collector's reach (`gc.freeze`): those objects live as long as the worker, and without
this each full collection walks all of them again. Measured on scoresheet entries (issue 26): the
collector's share fell from about 3.4 ms to 0.4 ms per entry. The youngest generation then takes
GC_GEN0_THRESHOLD objects between collections, as in the Celery workers (`config.celery`): reading a
sheet's state late in a game allocates thousands of small containers, and with CPython's default of 700
the collections they set off were a third of its cost (py-spy: the state's parse 9.3 -> 3.5 % of a
flat-out run's gunicorn samples). `WSGI_GC_FREEZE=0` turns both off.
"""

import contextlib
import os

from django.core.wsgi import get_wsgi_application

from config.celery import tune_garbage_collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()


def _freeze() -> None:
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the URL conf imports every view module
    with contextlib.suppress(ImportError):
        import rules.scoresheet  # noqa: F401 - the engine, imported by the first entry otherwise
    tune_garbage_collector()


if os.environ.get("WSGI_GC_FREEZE", "1") != "0":
    _freeze()
