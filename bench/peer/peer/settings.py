"""Settings of the benchmark peer: a production-style Django configuration (DEBUG off, the
usual middleware, persistent database connections) on the PostgreSQL database named by
PEER_DATABASE_URL (postgres://user@host:port/name)."""

import os
from urllib.parse import urlparse

_db = urlparse(os.environ.get("PEER_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fad_peer"))

SECRET_KEY = os.environ.get("PEER_SECRET_KEY", "benchmark-peer-not-secret")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "peer.urls"
WSGI_APPLICATION = "peer.wsgi.application"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "roster",
]

# Django's default stack (`startproject`) minus the messages framework, which a JSON read never
# uses. Sessions are looked up only when a request carries a session cookie (these do not).
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _db.path.lstrip("/"),
        "USER": _db.username or "postgres",
        "PASSWORD": _db.password or "",
        "HOST": _db.hostname or "127.0.0.1",
        "PORT": str(_db.port or 5432),
        # Persistent connections, as the Django docs advise for production: without them every
        # request would open a new PostgreSQL connection.
        "CONN_MAX_AGE": 600,
        "CONN_HEALTH_CHECKS": False,
    }
}

# No access log line per request from Django itself; gunicorn's access log is off by default.
LOGGING = {"version": 1, "disable_existing_loggers": False}
