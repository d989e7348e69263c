"""WSGI entry point (gunicorn config.wsgi).

Once the app is loaded (settings, apps, the URL conf, the scoresheet engine), every object alive is moved
out of the garbage collector's reach (`gc.freeze`): those objects live as long as the worker, and without
this each full collection walks all of them again. Measured on scoresheet entries (issue 26): the
collector's share fell from about 3.4 ms to 0.4 ms per entry. `WSGI_GC_FREEZE=0` turns it off.
"""

import contextlib
import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()


def _freeze() -> None:
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the URL conf imports every view module
    with contextlib.suppress(ImportError):
        import rules.scoresheet  # noqa: F401 - the engine, imported by the first entry otherwise
    gc.collect()
    gc.freeze()


if os.environ.get("WSGI_GC_FREEZE", "1") != "0":
    _freeze()
