"""Django settings of the provider: a throwaway SQLite database and RSA key in CHECK_HOME."""
import os

HOME = os.environ["CHECK_HOME"]
SECRET_KEY = os.environ["OIDC_DJANGO_SECRET"]
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "oidc_provider.urls"
INSTALLED_APPS = [
    "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware", "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [os.path.join(os.path.dirname(__file__), "templates")],
    "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(HOME, "provider.sqlite3")}}
USE_TZ = True
LOGIN_URL = "/accounts/login/"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed; these users are throwaway
OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": open(os.path.join(HOME, "provider-rsa.pem")).read(),
    "OIDC_ISS_ENDPOINT": os.environ["OIDC_ISSUER"],
    "PKCE_REQUIRED": True,
    "SCOPES": {"openid": "OpenID Connect", "email": "Your email", "profile": "Your name"},
    "OAUTH2_VALIDATOR_CLASS": "oidc_provider.validator.Validator",
    "ID_TOKEN_EXPIRE_SECONDS": int(os.environ.get("OIDC_ID_TOKEN_SECONDS", "300")),
}
