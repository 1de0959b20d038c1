"""Writes the OpenAPI 3.1 document of `accounts serve`: Sources/AccountServer/Routes/OpenAPIDocument.swift
(what the server serves at /openapi.json) and docs/openapi.json (the same bytes, for tools).

    python3 scripts/openapi/generate.py

Edit the routes, schemas and texts here, never the generated files. Tests keep them honest:
OpenAPITests checks that the router has exactly these operations and that docs/openapi.json
is the served document; scripts/api-check.sh runs schemathesis against a live server.
"""
import json
import os
def ref(n): return {"$ref": f"#/components/schemas/{n}"}
def jsonbody(schema): return {"content": {"application/json": {"schema": schema}}}
def resp(desc, schema, headers=None):
    r = {"description": desc, **jsonbody(schema)}
    if headers: r["headers"] = headers
    return r
retry = {"Retry-After": {"description": "Seconds to wait before trying again.", "schema": {"type": "integer", "minimum": 1}}}
www = {"WWW-Authenticate": {"description": "Always `Bearer`.", "schema": {"type": "string"}}}
# Each failure response is written once, under components/responses, and referenced by the
# routes: one schema and text per status and API style, so a client generator makes one type
# for each instead of one per route.
failure_names = {"400": "InvalidInput", "401": "NotSignedIn", "409": "EmailTaken", "413": "BodyTooLarge",
    "415": "NotJSON", "429": "TooManyAttempts", "431": "HeadersTooLarge", "500": "StoreFailed", "503": "Unavailable"}
failure_texts = {
    "400": "Invalid input: a rule broken, or a body that is not the route's JSON object (a field missing, null, of the wrong type, or given twice).",
    "401": "Wrong credentials, or no valid session.",
    "409": "The email is already registered.",
    "413": "The body is larger than server.max_body_bytes.",
    "415": "The body is not application/json.",
    "429": "Too many attempts: the account's throttle or the client's per-minute limit.",
    "431": "The URL and headers together are over 81,920 bytes, or over 1,000 fields (`headers_too_large`). The server refuses such a request before it reads the path, so this answer has the native shape and English on every route, and closes the connection.",
    "500": "The store failed; the cause is in the server's log only.",
    "503": "The store is busy, every hashing slot is taken and the queue is full, or the request outlived server.request_timeout_seconds (it may still take effect); on /healthz also `store_disk_full`, the disk under the store's files having less free space than server.health_min_free_mib (the figures are in the message for monitoring clients only).",
}
# Answered before the route is known (UnparsableRequestHandler): one native response for all.
route_independent = ["431"]
def failure_name(style, code): return ("" if style == "native" or code in route_independent else "Strapi") + failure_names[code]
def failure_response(style, code):
    if code in route_independent: style = "native"
    h = retry if code in ("429", "503") else (www if code == "401" and style == "native" else None)
    return resp(failure_texts[code], ref("Failure") if style == "native" else ref("StrapiFailure"), h)
responses = {}  # only the ones some route refers to
def failures(style, codes):
    for c in codes: responses[failure_name(style, c)] = failure_response(style, c)
    return {c: {"$ref": f"#/components/responses/{failure_name(style, c)}"} for c in codes}
accept_language = {"name": "Accept-Language", "in": "header", "required": False, "description": "`ko` for Korean messages; English otherwise.", "schema": {"type": "string"}}
lang = {"$ref": "#/components/parameters/AcceptLanguage"}
bearer = [{"bearer": []}]
body_codes = ["400", "413", "415", "429", "500", "503"]
def op(summary, opid, tag, style, ok_code, ok, codes, req=None, secured=False, desc=None):
    o = {"summary": summary, "operationId": opid, "tags": [tag], "parameters": [lang],
         "responses": {ok_code: ok, **failures(style, codes + route_independent)}}
    if desc: o["description"] = desc
    if req: o["requestBody"] = {"required": True, **jsonbody(ref(req))}
    if secured: o["security"] = bearer
    return o
paths = {
  "/v1/signup": {"post": op("Sign up and sign in", "signUp", "native", "native", "201",
      resp("The account and its first session.", ref("Session")), ["400", "409", "413", "415", "429", "500", "503"], req="SignUpRequest",
      desc="Checks every rule (the ID rule, password length and strength, confirmation, nickname), then creates the user with its first session in one store call.")},
  "/v1/login": {"post": op("Log in", "logIn", "native", "native", "200",
      resp("A new session.", ref("Session")), ["400", "401", "413", "415", "429", "500", "503"], req="LoginRequest",
      desc="An unknown email and a wrong password give the same answer at the same cost.")},
  "/v1/logout": {"post": op("Log out", "logOut", "native", "native", "200",
      resp("The session is revoked in the store.", ref("Done")), ["401", "500", "503"], secured=True)},
  "/v1/me": {"get": op("The signed-in user (the welcome screen's data)", "me", "native", "native", "200",
      resp("The user and the greeting in the request's language.", ref("Me")), ["401", "500", "503"], secured=True)},
  "/v1/password": {"post": op("Change the password", "changePassword", "native", "native", "200",
      resp("Changed; every other session of the user is revoked.", ref("Done")), ["400", "401", "413", "415", "429", "500", "503"],
      req="ChangePasswordRequest", secured=True)},
  "/v1/withdraw": {"post": op("Withdraw", "withdraw", "native", "native", "200",
      resp("The user and every one of its sessions are deleted.", ref("Done")), ["400", "401", "413", "415", "429", "500", "503"],
      req="WithdrawRequest", secured=True)},
  "/healthz": {"get": op("Whether the store answers and its disk has room", "health", "operations", "native", "200",
      resp("The store answered, and the disk under its files (if on this host) has at least server.health_min_free_mib free.", ref("Health")), ["500", "503"])},
  "/api/auth/local/register": {"post": op("Register (Strapi)", "strapiRegister", "strapi", "strapi", "200",
      resp("The new user and its token.", ref("StrapiAuth")), ["400", "413", "415", "429", "500", "503"], req="StrapiRegisterRequest")},
  "/api/auth/local": {"post": op("Log in (Strapi)", "strapiLogin", "strapi", "strapi", "200",
      resp("The user and a new token.", ref("StrapiAuth")), ["400", "413", "415", "429", "500", "503"], req="StrapiLoginRequest")},
  "/api/auth/change-password": {"post": op("Change the password (Strapi)", "strapiChangePassword", "strapi", "strapi", "200",
      resp("The user and the token used, still valid; every other session is revoked.", ref("StrapiAuth")),
      ["400", "401", "413", "415", "429", "500", "503"], req="StrapiChangePasswordRequest", secured=True)},
  "/api/users/me": {"get": op("The signed-in user (Strapi)", "strapiMe", "strapi", "strapi", "200",
      resp("The user.", ref("StrapiUser")), ["401", "500", "503"], secured=True)},
  "/openapi.json": {"get": {"summary": "This document", "operationId": "openAPI", "tags": ["operations"],
      "responses": {"200": {"description": "The OpenAPI document.", "content": {"application/json": {"schema": {"type": "object"}}}},
          **failures("native", route_independent)}}},
}
s = lambda **kw: {"type": "string", **kw}
EMAIL = "^[a-z][a-z0-9]{5,19}@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$"
email = lambda d: s(pattern=EMAIL, description=d)
password = lambda d: s(minLength=8, maxLength=128, description=d)
nickname = lambda d: s(minLength=2, maxLength=20, description=d)
schemas = {
  "SignUpRequest": {"type": "object", "required": ["email", "password", "nickname"], "properties": {
      "email": email("The ID: 6 to 20 lowercase letters and digits before '@', not starting with a digit; a domain of two or more labels."),
      "password": password("8 to 128 characters (after NFKC), hard to guess (zxcvbn), not containing the ID or the nickname: rules beyond this schema."),
      "confirmation": s(description="The password again; the password itself when left out."),
      "nickname": nickname("2 to 20 characters after trimming."),
      "remember": {"type": "boolean", "description": "Make the session last as long as a remembered login."}}},
  "LoginRequest": {"type": "object", "required": ["email", "password"], "properties": {
      "email": email("The ID."), "password": s(), "remember": {"type": "boolean"}}},
  "ChangePasswordRequest": {"type": "object", "required": ["current_password", "new_password"], "properties": {
      "current_password": s(), "new_password": password("The password rules of sign-up; not the current one."), "confirmation": s(description="The new password again; the new password itself when left out.")}},
  "WithdrawRequest": {"type": "object", "required": ["password"], "properties": {"password": s()}},
  "User": {"type": "object", "required": ["id", "email", "nickname", "created_at_ms"], "properties": {
      "id": s(pattern="^[0-9a-f]{32}$"), "email": s(), "nickname": s(), "created_at_ms": {"type": "integer"}}},
  "Session": {"type": "object", "required": ["ok", "token", "expires_at_ms", "user"], "properties": {
      "ok": {"const": True}, "token": s(pattern="^[0-9a-f]{64}$", description="The bearer token; only its SHA-256 is stored."),
      "expires_at_ms": {"type": "integer"}, "user": ref("User")}},
  "Me": {"type": "object", "required": ["ok", "user", "welcome"], "properties": {
      "ok": {"const": True}, "user": ref("User"), "welcome": s(description="\"{nickname} 님 환영합니다.\" or \"Welcome, {nickname}.\"")}},
  "Done": {"type": "object", "required": ["ok"], "properties": {"ok": {"const": True}}},
  "Health": {"type": "object", "required": ["ok"], "description": "`backend` and `disk_free_bytes` are shown to the clients in server.monitoring_clients only (loopback unless set); any other client gets `ok` alone.",
      "properties": {"ok": {"const": True}, "backend": s(description="The backend's name; for monitoring clients only."),
      "disk_free_bytes": {"type": "integer", "minimum": 0, "description": "Free bytes on the disk under the store's files; for monitoring clients only, and absent for a store on another host (PostgreSQL)."}}},
  "Failure": {"type": "object", "required": ["ok", "code", "message"], "properties": {
      "ok": {"const": False}, "code": s(description="A stable error code, as `accounts … --json` prints."), "message": s(),
      "problems": {"type": "array", "minItems": 1, "description": "On a 400 of /v1/signup or /v1/password for a broken rule: every rule each field breaks, in the form's order (the first is `code` and `message`), so a form can show them all at once under their fields.",
          "items": {"type": "object", "required": ["field", "code", "message"], "properties": {
              "field": s(description="The request field: email, nickname, password, confirmation, new_password."), "code": s(), "message": s()}}}}},
  "StrapiRegisterRequest": {"type": "object", "required": ["username", "email", "password"], "properties": {
      "username": nickname("The nickname."), "email": email("The ID."), "password": password("The password rules of sign-up.")}},
  "StrapiLoginRequest": {"type": "object", "required": ["identifier", "password"], "properties": {
      "identifier": email("The email (AccountStore has no username login)."), "password": s()}},
  "StrapiChangePasswordRequest": {"type": "object", "required": ["currentPassword", "password", "passwordConfirmation"], "properties": {
      "currentPassword": s(), "password": password("The password rules of sign-up; not the current one."), "passwordConfirmation": s()}},
  "StrapiUser": {"type": "object", "required": ["id", "documentId", "username", "email", "provider", "confirmed", "blocked", "createdAt", "updatedAt"], "properties": {
      "id": s(pattern="^[0-9a-f]{32}$", description="AccountStore's id (Strapi's is a number)."), "documentId": s(),
      "username": s(), "email": s(), "provider": {"const": "local"}, "confirmed": {"type": "boolean"}, "blocked": {"type": "boolean"},
      "createdAt": s(), "updatedAt": s()}},
  "StrapiAuth": {"type": "object", "required": ["jwt", "user"], "properties": {
      "jwt": s(pattern="^[0-9a-f]{64}$", description="An opaque session token the server can revoke, not a JWT."), "user": ref("StrapiUser")}},
  "StrapiFailure": {"type": "object", "required": ["data", "error"], "properties": {
      "data": {"type": "null"}, "error": {"type": "object", "required": ["status", "name", "message", "details"], "properties": {
          "status": {"type": "integer"}, "name": s(), "message": s(),
          "details": {"type": "object", "properties": {"code": s(),
              "errors": {"type": "array", "minItems": 1, "description": "On a 400 of register or change-password for a broken rule: every rule each field breaks, as Strapi lists a form's validation errors (the first is the error's `message`), with the stable code of each.",
                  "items": {"type": "object", "required": ["path", "message", "name", "code"], "properties": {
                      "path": {"type": "array", "items": s(), "description": "The request field: [\"username\"], [\"email\"], [\"password\"], [\"passwordConfirmation\"]."},
                      "message": s(), "name": {"const": "ValidationError"}, "code": s()}}}}}}}}},
}
# Every answer names its request's log line (RequestLogMiddleware).
request_id_header = {"description": "The request's id, as its line in the server's log shows it: quote it when reporting a failure.", "schema": {"type": "string"}}
request_id = {"X-Request-Id": {"$ref": "#/components/headers/RequestId"}}
for response in [r for ops in paths.values() for o in ops.values() for r in o["responses"].values() if "$ref" not in r] + list(responses.values()):
    response["headers"] = {**response.get("headers", {}), **request_id}
doc = {"openapi": "3.1.0",
  "info": {"title": "AccountStore", "version": "1", "description": "Sign-up, login, sessions, password change and withdrawal over one account store: a native JSON API, Strapi's users-permissions auth routes, and a health check."},
  "tags": [{"name": "native"}, {"name": "strapi"}, {"name": "operations"}],
  "paths": paths,
  "components": {"schemas": schemas, "responses": responses, "parameters": {"AcceptLanguage": accept_language}, "headers": {"RequestId": request_id_header}, "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "The session token of a sign-up or login (64 hex digits)."}}}}
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
text = json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True)
assert '"""#' not in text
body = "\n".join(("        " + line) if line else line for line in text.split("\n"))
swift = (
    "// Generated by scripts/openapi/generate.py: edit that, then run it.\n\n"
    "/// The OpenAPI 3.1 document of every route, served at `/openapi.json` and committed as\n"
    "/// `docs/openapi.json` (a test keeps the two the same and checks that the router has exactly\n"
    "/// these operations; schemathesis checks live answers against it in CI).\n"
    "enum OpenAPIDocument {\n"
    '    static let json = #"""\n' + body + '\n        """#\n}\n'
)
with open(os.path.join(root, "Sources/AccountServer/Routes/OpenAPIDocument.swift"), "w", encoding="utf-8") as file:
    file.write(swift)
with open(os.path.join(root, "docs/openapi.json"), "w", encoding="utf-8") as file:
    file.write(text + "\n")
