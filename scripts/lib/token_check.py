"""Signed access tokens checked by a service that has only the key set: PyJWT (from PyPI) reads
`/.well-known/jwks.json` of `accounts serve` with `session.access_tokens: jwt`, for
scripts/token-check.sh."""
import base64
import json
import os
import subprocess
import sys

import jwt

sys.path.insert(0, os.path.dirname(__file__))
import accounts_check  # noqa: E402
from accounts_check import ACCOUNTS, HOME, LOG, Server, check  # noqa: E402

PASSWORD = "Tangerine-Kayak-42"
ISSUER = "https://accounts.example.com"
env = {
    "PATH": "/usr/bin:/bin", "HOME": HOME, "LANG": "C.UTF-8",
    "XDG_STATE_HOME": os.path.join(HOME, "state"), "XDG_CONFIG_HOME": os.path.join(HOME, "config"),
    "ACCOUNTS_BACKEND": "sqlite", "ACCOUNTS_SQLITE_PATH": os.path.join(HOME, "accounts.sqlite"),
    "ACCOUNTS_HASHING_OPS_LIMIT": "1", "ACCOUNTS_HASHING_MEM_LIMIT_KIB": "8",
    "ACCOUNTS_SERVER_PUBLIC_URL": ISSUER, "ACCOUNTS_SESSION_ACCESS_TOKENS": "jwt",
}


def verify(server, token):
    """The claims, as a service with only the key set reads them (a fresh key set each time)."""
    keys = jwt.PyJWKClient(server.url + "/.well-known/jwks.json", cache_jwk_set=False)
    key = keys.get_signing_key_from_jwt(token)
    return jwt.decode(token, key, algorithms=["ES256"], audience="accounts", issuer=ISSUER,
                      options={"require": ["exp", "iat", "sub", "iss", "aud"]})


def refused(server, token):
    try:
        verify(server, token)
        return None
    except (jwt.PyJWTError, jwt.PyJWKClientError) as error:
        return type(error).__name__


def cli(*arguments):
    return subprocess.run([ACCOUNTS, *arguments], env=env, capture_output=True, text=True)


server = Server(env)
status, body = server.call("POST", "/v1/signup", {"email": "leesoon7@example.com", "password": PASSWORD, "nickname": "이순신"})
check(status == 201, f"sign-up: {status}")
signed_up = json.loads(body)
first = signed_up["token"]
claims = verify(server, first)
check(claims["sub"] == signed_up["user"]["id"] and claims["number"] == 1, "PyJWT checks the token against the key set: sub and number")
check(claims["amr"] == ["pwd"] and len(claims["sid"]) == 32 and claims["exp"] - claims["iat"] == 600, "amr, sid, a 10-minute lifetime")
check(jwt.get_unverified_header(first)["typ"] == "at+jwt", "typ at+jwt (RFC 9068)")
header, payload, signature = first.split(".")
changed = dict(claims, number=2, sub="f" * 32)
body64 = base64.urlsafe_b64encode(json.dumps(changed).encode()).rstrip(b"=").decode()
check(refused(server, header + "." + body64 + "." + signature) == "InvalidSignatureError",
      "a token whose claims were changed (another user) is refused by PyJWT")

status, body = server.call("POST", "/api/auth/local", {"identifier": "leesoon7@example.com", "password": PASSWORD})
strapi = json.loads(body)
check(status == 200 and verify(server, strapi["jwt"])["sub"] == claims["sub"], "Strapi's jwt is the same kind of token")

run = cli("keys", "rotate")
check(run.returncode == 0 and "new key" in run.stdout, f"accounts keys rotate (exit {run.returncode}: {run.stderr})")
status, body = server.call("POST", "/v1/login", {"email": "leesoon7@example.com", "password": PASSWORD})
second = json.loads(body)["token"]
check(jwt.get_unverified_header(second)["kid"] != jwt.get_unverified_header(first)["kid"], "the server signs with the new key at once")
check(verify(server, first)["sub"] == verify(server, second)["sub"], "both keys are published: old and new tokens verify")
status, body = server.call("GET", "/.well-known/jwks.json")
check(len(json.loads(body)["keys"]) == 2, "the key set holds the old key until its tokens expire")

status, _ = server.call("POST", "/v1/logout", token=second)
check(status == 200 and server.call("GET", "/v1/me", token=second)[0] == 401, "after a logout this server refuses the token")
check(refused(server, second) is None, "while a service with only the keys accepts it until it expires (as documented)")

run = cli("keys", "rotate", "--now")
check(run.returncode == 0, f"accounts keys rotate --now (exit {run.returncode}: {run.stderr})")
check(refused(server, first) == "PyJWKClientError", "after --now the old key is gone: PyJWT refuses its tokens")
check(server.call("GET", "/v1/me", token=first)[0] == 401, "and so does the server")
status, body = server.call("POST", "/v1/refresh", {"refresh_token": signed_up["refresh_token"]})
renewed = json.loads(body)
check(status == 200 and verify(server, renewed["token"])["sid"] == claims["sid"], "a refresh signs with the newest key, same sid")
check(oct(os.stat(os.path.join(HOME, "state", "accounts", "signing-keys.json")).st_mode & 0o777) == "0o600", "the key file is 0600")
server.stop()
log = open(LOG).read()
check(all(t.split(".")[2] not in log for t in (first, second, renewed["token"])), "no token in the server's log")
check("PRIVATE KEY" not in log, "no key in the server's log")
print(f"token check: {accounts_check.checks} checks passed")
