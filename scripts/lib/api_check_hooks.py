"""schemathesis hooks for scripts/api-check.sh (loaded through SCHEMATHESIS_HOOKS).

A request the OpenAPI document allows may still be refused with 400 for a rule JSON Schema
cannot state: a relation between fields, a strength estimate, the store's state. Each operation
lists those reasons, by error code, in `x-rules-beyond-schema`; any other 400 to an allowed
request means the document says less than the server checks, and fails the run. The config lets
positive_data_acceptance take a 400, and this check decides which ones.
"""

import hashlib
import itertools
import os
import re

import schemathesis
import requests
from hypothesis import strategies as st


def _error_code(response):
    try:
        body = response.json()
    except ValueError:
        return None
    if not isinstance(body, dict):
        return None
    if "code" in body:
        return body["code"]
    details = (body.get("error") or {}).get("details") or {}
    return details.get("code")


@schemathesis.check
def rejected_only_for_rules_beyond_schema(ctx, response, case):
    """A 400 to a request the document allows names a reason the operation lists as beyond it."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    allowed = case.operation.definition.raw.get("x-rules-beyond-schema", [])
    code = _error_code(response)
    if code not in allowed:
        raise AssertionError(
            f"A request the document allows was refused with 400 `{code}`, which "
            f"{case.operation.label} does not list in x-rules-beyond-schema {allowed}"
        )
    return None


# A new password (format `password`, OpenAPI's hint for a secret) is, three times in four, one
# the strength rule takes: long random letters and digits. Arbitrary text alone is almost always
# refused as too easy to guess, so no sign-up would succeed, and the stateful phase would never
# follow the links from a new session (to /v1/me, a password change, a withdrawal).
# Derived from a drawn number, not drawn letter by letter: the stateful phase draws simple values
# (the same "0000…" each time), and those are all too easy to guess.
STRONG = st.integers(min_value=0).map(lambda n: hashlib.sha256(b"api-check %d" % n).hexdigest()[:24])
schemathesis.openapi.format("password", st.one_of(STRONG, STRONG, STRONG, st.text(min_size=8, max_size=128)))

# A device name (format `device-name`) is drawn from assigned letters, marks, digits,
# punctuation, symbols and spaces: the server also refuses unassigned and private-use code
# points, which the schema's pattern cannot name, and a sign-up or login refused for its device
# name would leave the stateful phase no session to follow.
DEVICE_NAMES = st.text(
    alphabet=st.characters(categories=["L", "M", "N", "P", "S", "Zs"]), min_size=1, max_size=64)
schemathesis.openapi.format("device-name", DEVICE_NAMES)


@schemathesis.check
class EveryOperationSucceeds:
    """Every operation answered 2xx at least once: the run reached past the refusals, to a new
    account's session and what it leads to (the links), not only the error paths."""

    def __init__(self):
        self.tested = set()
        self.reached = set()

    def after_response(self, ctx, response, case):
        self.tested.add(case.operation.label)
        if 200 <= response.status_code < 300:
            self.reached.add(case.operation.label)

    # These take a code that only a mail carries (no generated code is one the store holds):
    # scripts/mail-check.sh reaches each with a code a real relay delivered.
    NEEDS_A_MAILED_CODE = {
        "POST /v1/password/reset", "POST /v1/email/verify", "POST /api/auth/reset-password",
        "GET /api/auth/email-confirmation",
    }

    # Served only with `session.access_tokens: jwt` (this run's server has opaque tokens, and
    # answers the documented 404): scripts/token-check.sh reads it with PyJWT.
    SERVED_IN_JWT_MODE = {"GET /.well-known/jwks.json"}

    def after_run(self, ctx):
        never = self.tested - self.reached - self.NEEDS_A_MAILED_CODE - self.SERVED_IN_JWT_MODE
        if never:
            raise AssertionError("never answered 2xx: " + ", ".join(sorted(never)))


SESSION_TOKEN = re.compile(r"Bearer [0-9a-f]{64}")


@schemathesis.auth(retry_on=[401])
class KnownAccount:
    """A session of the account scripts/api-check.sh made (API_CHECK_EMAIL, API_CHECK_PASSWORD),
    for a signed-in request that has no token of its own: the signed-in routes are tried with a
    valid token, not only missing and forged ones. A request that a link gave a token (a new
    account's, from its sign-up or login) keeps that one."""

    def __init__(self):
        # The values this provider set: a retry after a 401 (the session logged out by an
        # earlier request) replaces them with a fresh one.
        self.issued = set()

    def get(self, case, context):
        answer = requests.post(
            os.environ["API_CHECK_URL"] + "/v1/login",
            json={"email": os.environ["API_CHECK_EMAIL"], "password": os.environ["API_CHECK_PASSWORD"]},
            timeout=30,
        )
        answer.raise_for_status()
        return answer.json()["token"]

    def set(self, case, data, context):
        headers = case.headers if case.headers is not None else {}
        given = [name for name in headers if name.lower() == "authorization"]
        # A link's token is a session token (64 hex digits); schemathesis itself fills the
        # bearer scheme's header with a placeholder.
        from_link = [name for name in given if SESSION_TOKEN.fullmatch(headers[name]) and headers[name] not in self.issued]
        if not from_link:
            for name in given:
                del headers[name]
            headers["Authorization"] = f"Bearer {data}"
            self.issued.add(headers["Authorization"])
        case.headers = headers


# The confirmation a password form sends repeats the new password: a relation the schema cannot
# state. A valid request (positive mode) that carries one is made to repeat it, so sign-ups and
# changes of password can succeed; a confirmation that differs is the Swift tests' to try.
SIGN_UPS = {"POST /v1/signup": "email", "POST /api/auth/local/register": "email"}
SIGN_UP_NUMBERS = itertools.count()

CONFIRMATIONS = {
    "POST /v1/signup": ("password", "confirmation"),
    "POST /v1/password": ("new_password", "confirmation"),
    "POST /api/auth/change-password": ("password", "passwordConfirmation"),
}


# A signed-in operation that needs the account's own password (a login, a password change, a
# withdrawal) or its session's token (a refresh) succeeds only for an account whose password or
# token the request knows: a relation between the request and the store. The stateful phase reaches such requests through the document's
# links, but how far it gets along 24 links varies from run to run (a run of 13 scenarios followed
# 11 of them, the next one 51 and 19); so, outside it, one valid
# request in four is made for an account of its own, signed up here, and every such operation
# is shown to succeed in every run. The known account of KnownAccount is never used for this: a
# change of its password would sign every later request out.
OWN_ACCOUNTS = itertools.count()
NEEDS_OWN_ACCOUNT = {
    "POST /v1/refresh",
    "POST /v1/login",
    "POST /v1/password",
    "POST /v1/withdraw",
    "POST /api/auth/local",
    "POST /api/auth/change-password",
}
OWN_ACCOUNTS_TURN = itertools.count()


def _own_account():
    n = next(OWN_ACCOUNTS)
    email = "own%08d@example.com" % n
    password = hashlib.sha256(b"api-check own %d" % n).hexdigest()[:24]
    answer = requests.post(
        os.environ["API_CHECK_URL"] + "/v1/signup",
        json={"email": email, "password": password, "nickname": "own"},
        timeout=30,
    )
    answer.raise_for_status()
    return n, email, password, answer.json()["token"]


def _with_own_account(case):
    n, email, password, token = _own_account()
    label = case.operation.label
    if label == "POST /v1/login":
        case.body.update(email=email, password=password)
        return case
    if label == "POST /api/auth/local":
        case.body.update(identifier=email, password=password)
        return case
    if label == "POST /v1/refresh":
        case.body["refresh_token"] = token
        return case
    headers = case.headers if case.headers is not None else {}
    for name in [name for name in headers if name.lower() == "authorization"]:
        del headers[name]
    headers["Authorization"] = "Bearer " + token
    case.headers = headers
    new = hashlib.sha256(b"api-check new %d" % n).hexdigest()[:24]
    if label == "POST /v1/password":
        case.body["current_password"] = password
        case.body["new_password"] = new
        if "confirmation" in case.body:
            case.body["confirmation"] = new
    elif label == "POST /api/auth/change-password":
        case.body.update(currentPassword=password, password=new, passwordConfirmation=new)
    else:
        case.body["password"] = password
    return case


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return case
    phase = str(getattr(getattr(meta, "phase", None), "name", "")).lower()
    if case.operation.label in NEEDS_OWN_ACCOUNT and phase != "stateful" and next(OWN_ACCOUNTS_TURN) % 4 == 0:
        return _with_own_account(case)
    # Each valid sign-up gets an email of its own (the drawn part before `@` ends in a number
    # this run has not used): the stateful phase draws the same simple email over and over, and
    # after its first sign-up every other is 409.
    email_field = SIGN_UPS.get(case.operation.label)
    email = case.body.get(email_field) if email_field else None
    if isinstance(email, str) and "@" in email:
        local, domain = email.split("@", 1)
        number = "%d" % next(SIGN_UP_NUMBERS)
        case.body[email_field] = local[: 20 - len(number)] + number + "@" + domain
    fields = CONFIRMATIONS.get(case.operation.label)
    if fields is None:
        return case
    password, confirmation = fields
    new = case.body.get(password)
    if isinstance(new, str) and confirmation in case.body:
        case.body[confirmation] = new
    return case


FORMS = {"application/x-www-form-urlencoded", "multipart/form-data"}


@schemathesis.hook
def filter_case(context, case):
    """A form is name/value pairs of text: a body drawn as something else to break the schema
    (a string, a list, a null field) is sent as what the form encoding makes of it, often an
    empty form, which this route rightly accepts; its success is no schema violation accepted.
    Such a case is not sent; the JSON bodies try those shapes, and the server refuses them."""
    if case.media_type in FORMS:
        return isinstance(case.body, dict) and all(value is not None for value in case.body.values())
    return True
