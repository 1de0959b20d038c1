"""A stand-in for GitHub's OAuth app endpoints and REST API, serving their documented shapes on
loopback for the GitHub preset (scripts/provider-check.sh): /login/oauth/authorize sends the
browser straight back with a code, /login/oauth/access_token answers JSON (a refused code is
200 with an `error` field, as GitHub answers it) and checks PKCE S256, /user and /user/emails
answer for the token. `accounts` in USERS is who signs in next."""
import base64
import hashlib
import json
import secrets
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CLIENT_ID = "Iv1.accountscheck"
CLIENT_SECRET = secrets.token_hex(20)


class GitHub:
    def __init__(self, port):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.user = None      # the account that signs in next: {"id", "login", "name", "emails"}
        self.codes = {}       # code -> (user, challenge, redirect_uri)
        self.tokens = {}      # token -> user
        self.requests = []    # (method, path) of every request, for the checks
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, status, body, headers=()):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                url = urllib.parse.urlsplit(self.path)
                standin.requests.append(("GET", url.path))
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path == "/login/oauth/authorize":
                    if query.get("client_id") != CLIENT_ID or query.get("code_challenge_method") != "S256":
                        return self.answer(400, {"error": "bad authorize request"})
                    code = secrets.token_hex(10)
                    standin.codes[code] = (standin.user, query["code_challenge"], query["redirect_uri"])
                    back = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"]})
                    self.send_response(302)
                    self.send_header("Location", back)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
                user = standin.tokens.get(token)
                if self.headers.get("User-Agent") is None:
                    return self.answer(403, {"message": "Request forbidden by administrative rules."})
                if user is None:
                    return self.answer(401, {"message": "Bad credentials"})
                if url.path == "/user":
                    return self.answer(200, {"id": user["id"], "login": user["login"], "name": user["name"],
                                             "type": "User", "site_admin": False})
                if url.path == "/user/emails":
                    return self.answer(200, user["emails"])
                return self.answer(404, {"message": "Not Found"})

            def do_POST(self):
                url = urllib.parse.urlsplit(self.path)
                standin.requests.append(("POST", url.path))
                length = int(self.headers.get("Content-Length") or 0)
                form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
                if url.path != "/login/oauth/access_token":
                    return self.answer(404, {"message": "Not Found"})
                if self.headers.get("Accept") != "application/json":
                    return self.answer(400, {"error": "this stand-in answers JSON only"})
                if form.get("client_id") != CLIENT_ID or form.get("client_secret") != CLIENT_SECRET:
                    return self.answer(200, {"error": "incorrect_client_credentials"})
                entry = standin.codes.pop(form.get("code"), None)
                if entry is None:
                    return self.answer(200, {"error": "bad_verification_code",
                                             "error_description": "The code passed is incorrect or expired."})
                user, challenge, redirect_uri = entry
                verifier = form.get("code_verifier", "")
                made = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
                if made != challenge or form.get("redirect_uri") != redirect_uri:
                    return self.answer(200, {"error": "bad_verification_code"})
                token = "gho_" + secrets.token_hex(18)
                standin.tokens[token] = user
                return self.answer(200, {"access_token": token, "token_type": "bearer", "scope": "read:user,user:email"})

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
