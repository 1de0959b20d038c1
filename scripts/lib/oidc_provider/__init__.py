"""A real OpenID Connect provider for scripts/provider-check.sh: Django with django-oauth-toolkit
(from PyPI), OIDC on, RS256, PKCE required, on a loopback port."""
