"""Settings, driven by the environment (see .env.example for every variable).

With nothing configured the project runs for development: DEBUG on, a SQLite file database,
Celery tasks executed eagerly in the web process, a local-memory cache. Setting DATABASE_URL,
CELERY_BROKER_URL and REDIS_URL switches to PostgreSQL, a real broker with workers, and Redis.
Production sets DEBUG=False, SECRET_KEY and ALLOWED_HOSTS; the security settings below then
default to their strict values so that `manage.py check --deploy --fail-level WARNING` passes.
"""

from __future__ import annotations

import importlib.util
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from django.utils.translation import gettext_lazy as _
from redis.backoff import NoBackoff
from redis.retry import Retry

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DEBUG", default=True)

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    # Development only: a fresh key per process (sessions do not survive a restart).
    SECRET_KEY = get_random_secret_key()

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "csp",
    "corsheaders",
    "tournaments",
    "tournaments.rankings",
    "tournaments.webhooks",
]
# The games app (issue 8) plugs in when its package exists; tournaments never imports it.
if importlib.util.find_spec("games") is not None:
    INSTALLED_APPS.append("games")

MIDDLEWARE = [
    # issue 26: anonymous reads of the cached public standings answered from the cache alone
    # (tournaments/public_fast_path.py); first, so none of the middleware below runs for them.
    "tournaments.public_fast_path.PublicReadFastPath",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # /api/ writes: JSON nested deeper than API_JSON_MAX_DEPTH -> 400 json_too_deep before any view (issue 29)
    "tournaments.api_parsers.JsonDepthMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # hardening (issue 15): request context for the security log, 503 when the database is down,
    # login lockout (django-axes; keep it last).
    "tournaments.security_log.RequestContextMiddleware",
    "tournaments.outages.DatabaseOutageMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL (postgres://user@host:5432/name via psycopg 3, or sqlite:///path).
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DB_CONN_MAX_AGE", default=0))
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Take the write lock when a transaction begins and wait for a competing writer (up to 20 s)
    # instead of failing with "database is locked" on a lock upgrade.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})

# Bounds on every PostgreSQL connection of the app (issue 29), set by the app itself at connect time, so
# that no request or task holds a lock past a bound and a vanished host's locks are released within
# seconds: the server ends a statement after DB_STATEMENT_TIMEOUT, a wait for a row lock after
# DB_LOCK_TIMEOUT (lock_tournament answers 503 "tournament_busy" with Retry-After), and a session left
# idle inside a transaction (its host gone) after DB_IDLE_IN_TRANSACTION_TIMEOUT, releasing its locks.
# The client side notices a dead server or a cut link through TCP keepalives and a user timeout (libpq
# keepalives*, tcp_user_timeout). Seconds; 0 disables one. docs/operations.md also sets them on the server.
DB_STATEMENT_TIMEOUT = env.float("DB_STATEMENT_TIMEOUT", default=30.0)
DB_LOCK_TIMEOUT = env.float("DB_LOCK_TIMEOUT", default=5.0)
DB_IDLE_IN_TRANSACTION_TIMEOUT = env.float("DB_IDLE_IN_TRANSACTION_TIMEOUT", default=10.0)
DB_KEEPALIVES_IDLE = env.int("DB_KEEPALIVES_IDLE", default=5)
DB_KEEPALIVES_INTERVAL = env.int("DB_KEEPALIVES_INTERVAL", default=2)
DB_KEEPALIVES_COUNT = env.int("DB_KEEPALIVES_COUNT", default=3)
DB_TCP_USER_TIMEOUT = env.float("DB_TCP_USER_TIMEOUT", default=10.0)
DB_CONNECT_TIMEOUT = env.int("DB_CONNECT_TIMEOUT", default=5)


def postgres_connection_options(options: dict) -> dict:
    """libpq parameters for the bounds above, merged into a PostgreSQL database's OPTIONS (an explicit
    `options` string in OPTIONS is kept and the server settings are appended)."""
    server = {
        "statement_timeout": DB_STATEMENT_TIMEOUT,
        "lock_timeout": DB_LOCK_TIMEOUT,
        "idle_in_transaction_session_timeout": DB_IDLE_IN_TRANSACTION_TIMEOUT,
    }
    flags = " ".join(f"-c {name}={int(seconds * 1000)}" for name, seconds in server.items())
    merged = {
        "keepalives": 1,
        "keepalives_idle": DB_KEEPALIVES_IDLE,
        "keepalives_interval": DB_KEEPALIVES_INTERVAL,
        "keepalives_count": DB_KEEPALIVES_COUNT,
        "tcp_user_timeout": int(DB_TCP_USER_TIMEOUT * 1000),
        "connect_timeout": DB_CONNECT_TIMEOUT,
        **options,
    }
    merged["options"] = f"{options['options']} {flags}" if options.get("options") else flags
    return merged


# The hottest statements are prepared on the server, once per connection (tournaments/prepared_sql.py;
# Django's own cursors bind on the client and never prepare). Off behind a PgBouncer older than 1.21 or
# without `max_prepared_statements` in transaction mode (docs/operations.md).
DB_PREPARED_STATEMENTS = env.bool("DB_PREPARED_STATEMENTS", default=True)

if DATABASES["default"]["ENGINE"] in ("django.db.backends.postgresql", "django.contrib.gis.db.backends.postgis"):
    DATABASES["default"]["OPTIONS"] = postgres_connection_options(DATABASES["default"].get("OPTIONS", {}))
    DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 0 if DB_PREPARED_STATEMENTS else None)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: Redis when REDIS_URL is set (also used by the API throttles), else process-local memory.
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default="tournaments"),
            "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient"},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Redis outages (issue 15): a short socket timeout, errors ignored (a cache miss, a throttle that lets the
# request through) with one warning per outage, and no further attempt for REDIS_RETRY_SECONDS once an
# operation failed (tournaments/cache_fail_open.py). Applies to every Redis cache alias.
REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=0.25)
REDIS_RETRY_SECONDS = env.float("REDIS_RETRY_SECONDS", default=5.0)
REDIS_FAIL_OPEN_OPTIONS = {
    "CLIENT_CLASS": "tournaments.cache_fail_open.FailOpenRedisClient",
    "SOCKET_CONNECT_TIMEOUT": REDIS_SOCKET_TIMEOUT,
    "SOCKET_TIMEOUT": REDIS_SOCKET_TIMEOUT,
    "IGNORE_EXCEPTIONS": True,
    # no silent retries inside redis-py: one timeout is the whole wait
    "CONNECTION_POOL_KWARGS": {"retry": Retry(NoBackoff(), 0)},
}
for _cache in CACHES.values():
    if _cache["BACKEND"] == "django_redis.cache.RedisCache":
        _cache.setdefault("OPTIONS", {}).update(REDIS_FAIL_OPEN_OPTIONS)
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = False  # FailOpenRedisClient logs one warning per outage

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login protection (django-axes, issue 15): the web login, the admin login and POST /api/auth/token/.
# After LOGIN_FAILURE_LIMIT failures for one account OR from one client address, further attempts are
# refused (429) until LOGIN_LOCKOUT_MINUTES after the last counted failure; other users are unaffected.
AUTHENTICATION_BACKENDS = [
    "tournaments.login_protection.LoginLockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_LOCKOUT_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "tournaments.client_address.client_address"
AXES_LOCKOUT_CALLABLE = "tournaments.login_protection.lockout_response"
AXES_VERBOSE = False
# How many reverse proxies in front of the app append to X-Forwarded-For (docs/operations.md).
# 0 (the default): X-Forwarded-For is ignored and the client is REMOTE_ADDR. With N, the client is
# the N-th address from the right of X-Forwarded-For (what the outermost trusted proxy saw).
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)

# Public pages and API reads for anonymous readers of public tournaments (tournaments/page_cache.py):
# browsers and reverse proxies may reuse them this many seconds, then serve them stale this many more
# while they revalidate (ETag, 304). 0 and 0: revalidate every time.
PUBLIC_CACHE_MAX_AGE = env.int("PUBLIC_CACHE_MAX_AGE", default=5)
PUBLIC_CACHE_STALE_WHILE_REVALIDATE = env.int("PUBLIC_CACHE_STALE_WHILE_REVALIDATE", default=30)
# The anonymous fast path of the cached public standings (tournaments/public_fast_path.py, issue 26); off:
# every read takes the ordinary path (same answers, more CPU per read).
PUBLIC_FAST_PATH = env.bool("PUBLIC_FAST_PATH", default=True)
# Live scoresheet entries per keeper (account, else report token, else address; games/scoresheet/apis.py).
SCORESHEET_THROTTLE_RATE = env.str("SCORESHEET_THROTTLE_RATE", default="300/min")

LOGIN_URL = env.str("LOGIN_URL", default="/accounts/login/")
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Internationalisation: German, French and English; the language comes from the URL-less
# LocaleMiddleware (session/cookie set by the language switcher, then Accept-Language).
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="en")
LANGUAGES = [("de", _("German")), ("fr", _("French")), ("en", _("English")), ("he", _("Hebrew"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Zurich")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Development serves static files straight from the apps (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
MEDIA_ROOT = Path(env.str("MEDIA_ROOT", default=str(BASE_DIR / "media")))
MEDIA_URL = "media/"

# Request size limits: bodies above these are refused with 400 before any view runs.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2 * 1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env.int("DATA_UPLOAD_MAX_NUMBER_FIELDS", default=2000)
DATA_UPLOAD_MAX_NUMBER_FILES = env.int("DATA_UPLOAD_MAX_NUMBER_FILES", default=100)
FILE_UPLOAD_MAX_MEMORY_SIZE = env.int("FILE_UPLOAD_MAX_MEMORY_SIZE", default=2 * 1024 * 1024)
# Deepest JSON nesting the API parser accepts (deeper bodies get 400 "json_too_deep").
API_JSON_MAX_DEPTH = env.int("API_JSON_MAX_DEPTH", default=32)
# Calendar feeds: the length of a game and the right-hand side of event UIDs.
GAME_DURATION_MINUTES = env.int("GAME_DURATION_MINUTES", default=90)
CALENDAR_UID_DOMAIN = env.str("CALENDAR_UID_DOMAIN", default="tournaments.invalid")
# Absolute address of the site, for links in e-mails (report links, unsubscribe) sent by tasks.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")
# Largest CSV accepted by the entrant import.
ENTRANT_IMPORT_MAX_ROWS = env.int("ENTRANT_IMPORT_MAX_ROWS", default=2000)
# Game records (games app, docs/games.md): bytes and actions per record (bigger: 400 record_too_large);
# bulk imports: bytes of the upload, records per import, total uncompressed bytes of a ZIP (zip bombs).
GAMES_RECORD_MAX_BYTES = env.int("GAMES_RECORD_MAX_BYTES", default=1_000_000)
GAMES_RECORD_MAX_ACTIONS = env.int("GAMES_RECORD_MAX_ACTIONS", default=20_000)
GAMES_IMPORT_MAX_BYTES = env.int("GAMES_IMPORT_MAX_BYTES", default=50_000_000)
GAMES_IMPORT_MAX_ITEMS = env.int("GAMES_IMPORT_MAX_ITEMS", default=1000)
GAMES_IMPORT_MAX_UNCOMPRESSED = env.int("GAMES_IMPORT_MAX_UNCOMPRESSED", default=200_000_000)
GAMES_IMPORT_CHUNK_ITEMS = env.int("GAMES_IMPORT_CHUNK_ITEMS", default=100)  # at most, per import task (workers share a batch)
GAMES_IMPORT_CHUNK_BYTES = env.int("GAMES_IMPORT_CHUNK_BYTES", default=1_048_576)  # at most (one item at least)
# A verification task takes along up to this many pending records of its tournament (itself included),
# replaying the others while GAMES_VERIFY_BATCH_SECONDS last (PostgreSQL; games/verify_burst.py). 1: one by one.
GAMES_VERIFY_BATCH_RECORDS = env.int("GAMES_VERIFY_BATCH_RECORDS", default=32)
GAMES_VERIFY_BATCH_SECONDS = env.float("GAMES_VERIFY_BATCH_SECONDS", default=2.0)

# REST API
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tournaments.api_auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api_parsers.DepthLimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "tournaments.api_errors.api_exception_handler",
    # One bucket per request (tournaments/api_throttles.py): the user when logged in, else a valid
    # report token, else the client address (TRUSTED_PROXY_COUNT). Anonymous reads of the cached public
    # pages (a tournament, its rounds, the standings) count apart, sized for a venue behind one address:
    # 1,000 phones reading every 5 s. Counters live in the cache (Redis in production) and fail open
    # when it is down.
    "DEFAULT_THROTTLE_CLASSES": ["tournaments.api_throttles.ApiRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("API_THROTTLE_ANON", default="600/min"),
        "anon_read": env.str("API_THROTTLE_ANON_READ", default="12000/min"),
        "user": env.str("API_THROTTLE_USER", default="600/min"),
        "report_token": env.str("API_THROTTLE_REPORT_TOKEN", default="60/min"),
    },
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
# Public sign-up (tournaments/registration/throttle.py): POSTs per client address, web and API together.
REGISTRATION_SIGN_UP_RATE = env.str("REGISTRATION_SIGN_UP_RATE", default="10/hour")
# The web pages behind a private token (/report/<token>/, /email/unsubscribe/<token>/), like the API:
# unknown tokens per client address, a valid token's own budget (tournaments/page_throttles.py).
TOKEN_PAGE_THROTTLE_GUESSES = env.str("TOKEN_PAGE_THROTTLE_GUESSES", default="60/min")
TOKEN_PAGE_THROTTLE_TOKEN = env.str("TOKEN_PAGE_THROTTLE_TOKEN", default=REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["report_token"])
SPECTACULAR_SETTINGS = {
    "TITLE": "Club tournaments API",
    "DESCRIPTION": "Tournaments, entrants, rounds, results and standings for TAC, Tac-Tik, Tock, TAKI "
    "and ZACK!. Writes need a token (`Authorization: Token <key>`). Errors are "
    '`{"error": {"code": "<stable_code>", "message": "...", "details": {...}}}`.',
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc are served from this site's static files (no CDN: works offline).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Request bodies are documented as JSON (what clients send); uploads declare multipart themselves.
    "PARSER_WHITELIST": ["tournaments.api_parsers.DepthLimitedJSONParser", "rest_framework.parsers.JSONParser"],
    # Request bodies get their own components, so required strings say minLength 1.
    "COMPONENT_SPLIT_REQUEST": True,
    # PATCH bodies are validated as written (fields marked required stay required in the schema).
    "COMPONENT_SPLIT_PATCH": False,
    # The CSV/iCal/rankings exports are plain Django views: documented by a hook.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "tournaments.api_schema_extras.add_plain_views"],
    # One name per choice set (a generated client gets stable class names).
    "ENUM_NAME_OVERRIDES": {
        "ResultKindEnum": "tournaments.models.Result.Kind",
        "ResultStateEnum": "tournaments.models.Result.State",
        "WebhookEventEnum": "tournaments.webhooks.events.EVENT_NAMES",
        "ReportKindEnum": ["normal", "time_limit", "forfeit"],
        "RegistrationStateEnum": "tournaments.models.Registration.State",
        "WebhookDeliveryStateEnum": "tournaments.webhooks.models.WebhookDelivery.State",
    },
    # State-dependent refusals: 409 (the state does not allow it) and 422 (the tournament's rules refuse
    # the content) are documented on every write; 400 is a malformed request (tournaments/errors.py).
}

# Celery: RabbitMQ (amqp://) when CELERY_BROKER_URL is set; otherwise tasks run eagerly in-process.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not CELERY_BROKER_URL)
if not CELERY_BROKER_URL:
    # Eager tasks never reach a broker; naming the host keeps kombu from warning on every start.
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is redelivered
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fix-up closes a worker's database connection before and after every task unless this is
# set (a new connection per task); config/celery.py closes only a connection that broke or outlived its
# CONN_MAX_AGE instead, as Django does around a request.
CELERY_DB_REUSE_MAX = 2**31
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=300)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=240)
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="tournaments")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE = {
    "standings-reconcile": {
        "task": "tournaments.tasks.standings_reconcile",
        "schedule": timedelta(seconds=env.int("STANDINGS_RECONCILE_SECONDS", default=300)),
    },
    "ratings-reconcile": {
        "task": "tournaments.rankings.tasks.ratings_reconcile",
        "schedule": timedelta(seconds=env.int("RATINGS_RECONCILE_SECONDS", default=900)),
    },
    "webhooks-reconcile": {
        "task": "tournaments.webhooks.tasks.webhook_reconcile",
        "schedule": timedelta(seconds=env.int("WEBHOOKS_RECONCILE_SECONDS", default=120)),
    },
    "game-records-reconcile": {
        "task": "games.tasks.records_reconcile",
        "schedule": timedelta(seconds=env.int("RECORDS_RECONCILE_SECONDS", default=300)),
    },
    # Tasks kept in the database while the broker was down (tournaments/task_outbox.py), sent again.
    "task-outbox-flush": {
        "task": "tournaments.tasks.outbox_flush",
        "schedule": timedelta(seconds=env.float("TASK_OUTBOX_FLUSH_SECONDS", default=5.0)),
    },
}
# A record stored while a verification task of its tournament waits in the queue sends no task of its own:
# that task's batch takes it (games/verify_burst.py). Off: one task per record, as before issue 26.
GAMES_VERIFY_COALESCE = env.bool("GAMES_VERIFY_COALESCE", default=True)
# records_reconcile re-enqueues game records still pending this long after their upload (seconds).
RECORDS_RECONCILE_AGE_SECONDS = env.int("RECORDS_RECONCILE_AGE_SECONDS", default=120)

# CORS (django-cors-headers): other sites may READ the public API (GET/HEAD, no cookies, no
# Authorization header); tournaments.embedding.cors_read_only decides per request. Writes stay same-origin.
CORS_URLS_REGEX = r"^$"  # no path by pattern: the signal handler decides (GET/HEAD/preflight of a GET)
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "accept-language", "if-none-match", "if-modified-since")
CORS_ALLOW_CREDENTIALS = False
CORS_PREFLIGHT_MAX_AGE = 86400

# Webhooks (tournaments/webhooks, docs/webhooks.md): private, loopback and link-local targets are refused
# unless WEBHOOKS_ALLOW_PRIVATE_TARGETS is on (tests, intranets); attempts back off exponentially.
# Live pages (tournaments/live.py): seconds between the conditional GETs of a running tournament's pages,
# and seconds each panel of the hall display (/t/<slug>/hall/) stays on screen.
LIVE_REFRESH_SECONDS = env.int("LIVE_REFRESH_SECONDS", default=20)
HALL_PANEL_SECONDS = env.int("HALL_PANEL_SECONDS", default=15)
WEBHOOKS_ALLOW_PRIVATE_TARGETS = env.bool("WEBHOOKS_ALLOW_PRIVATE_TARGETS", default=False)
WEBHOOKS_TIMEOUT_SECONDS = env.float("WEBHOOKS_TIMEOUT_SECONDS", default=5.0)
WEBHOOKS_MAX_ATTEMPTS = env.int("WEBHOOKS_MAX_ATTEMPTS", default=6)
WEBHOOKS_RETRY_BASE_SECONDS = env.int("WEBHOOKS_RETRY_BASE_SECONDS", default=30)
WEBHOOKS_RETRY_MAX_SECONDS = env.int("WEBHOOKS_RETRY_MAX_SECONDS", default=3600)

# E-mail: EMAIL_URL (smtp://user:password@host:587, smtp+tls://..., smtp+ssl://...); by default the
# console backend prints every message (nothing to set up). Notifications: tournaments/notifications.
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="tournaments@localhost")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)

# Security: strict by default when DEBUG is off (each can be overridden from the environment).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
# Content-Security-Policy (django-csp) on every response: scripts and styles from this site only
# (inline scripts only with the request's nonce), no framing by other sites. A view opts into being
# framed anywhere with tournaments.framing.embeddable (docs/operations.md).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}
