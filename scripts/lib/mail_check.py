"""Forgot password end to end against a real SMTP relay (aiosmtpd), for scripts/mail-check.sh."""
import email
import email.policy
import json
import mailbox
import os
import re
import ssl
import subprocess
import sys
import time

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox

sys.path.insert(0, os.path.dirname(__file__))
from accounts_check import ACCOUNTS, HOME, LOG, Server, check, free_port  # noqa: E402
import accounts_check  # noqa: E402

PASSWORD = "Tangerine-Kayak-42"
NEW_PASSWORD = "Violet-Harbor-Compass-19"


class FlakyMailbox(Mailbox):
    """A Maildir relay that answers 451 to the first `refusals` messages."""

    def __init__(self, path, refusals=0):
        super().__init__(path)
        self.refusals = refusals
        self.refused = 0

    async def handle_DATA(self, server, session, envelope):
        if self.refused < self.refusals:
            self.refused += 1
            return "451 4.3.0 try again later"
        return await super().handle_DATA(server, session, envelope)


class Relay:
    def __init__(self, name, port, tls, refusals=0, implicit=False):
        self.maildir = os.path.join(HOME, name)
        self.handler = FlakyMailbox(self.maildir, refusals)
        kwargs = {}
        if tls or implicit:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(os.path.join(HOME, "relay.pem"), os.path.join(HOME, "relay.key"))
            # STARTTLS required, or TLS from the first byte (SMTPS, RFC 8314's port 465).
            kwargs = {"ssl_context": context} if implicit else {"tls_context": context, "require_starttls": True}
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=port, **kwargs)

    def start(self):
        self.controller.start()
        return self

    def stop(self):
        self.controller.stop()

    def messages(self):
        return [email.message_from_bytes(m.as_bytes(), policy=email.policy.default) for m in mailbox.Maildir(self.maildir)]

    def wait(self, count, seconds=20):
        deadline = time.time() + seconds
        while time.time() < deadline:
            found = self.messages()
            if len(found) >= count:
                return found
            time.sleep(0.1)
        return self.messages()


def environment(store, relay_port, tls):
    env = {
        "PATH": "/usr/bin:/bin", "HOME": HOME, "LANG": "C.UTF-8",
        "XDG_STATE_HOME": os.path.join(HOME, "state"), "XDG_CONFIG_HOME": os.path.join(HOME, "config"),
        "ACCOUNTS_BACKEND": "sqlite", "ACCOUNTS_SQLITE_PATH": os.path.join(HOME, store),
        "ACCOUNTS_HASHING_OPS_LIMIT": "1", "ACCOUNTS_HASHING_MEM_LIMIT_KIB": "8",
        "ACCOUNTS_MAIL_SMTP_HOST": "localhost" if tls != "none" else "127.0.0.1",
        "ACCOUNTS_MAIL_SMTP_PORT": str(relay_port), "ACCOUNTS_MAIL_TLS": tls,
        "ACCOUNTS_MAIL_FROM": "accounts@example.com", "ACCOUNTS_MAIL_RETRY_SECONDS": "1",
        "ACCOUNTS_SERVER_PUBLIC_URL": "https://accounts.example.com",
    }
    if tls != "none":
        env["ACCOUNTS_MAIL_CA_FILE"] = os.path.join(HOME, "relay.pem")
    return env


def code_of(message):
    text = message.get_body(("plain",)).get_content()
    match = re.search(r"Code: ([0-9a-f]{64})", text)
    return match.group(1) if match else None, text


def metric(server, name):
    status, text = server.call("GET", "/metrics")
    match = re.search(rf"^{name} (\S+)$", text, re.M)
    return float(match.group(1)) if match else None


# 1. STARTTLS with a self-signed certificate; the relay down at the request, the server killed
#    before it returns; the relay's first answer a 451.
relay_port = free_port()
env = environment("accounts.sqlite", relay_port, "starttls")
server = Server(env)
status, body = server.call("POST", "/v1/signup", {"email": "leesoon7@example.com", "password": PASSWORD, "nickname": "이순신"})
check(status in (200, 201), f"sign-up: {status}")
known = server.call("POST", "/v1/password/forgot", {"email": "leesoon7@example.com"})
unknown = server.call("POST", "/v1/password/forgot", {"email": "nobody7@example.com"})
check(known == unknown == (200, '{"ok":true}'), f"a registered and an unknown address get the same answer: {known} {unknown}")

def settle(server, name, value, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline and metric(server, name) != value:
        time.sleep(0.1)
    return metric(server, name)


failing = settle(server, "accounts_outbox_failing", 1)
queued = metric(server, "accounts_outbox_queued")
check((queued, failing) == (1, 1), f"the mail waits in the outbox, failing, while the relay is down ({queued}, {failing})")
server.kill()
relay = Relay("tls-maildir", relay_port, tls=True, refusals=1).start()
server = Server(env)
found = relay.wait(1)
check(len(found) == 1, "the mail asked for before the crash arrives once the relay and the server are back")
check(relay.handler.refused == 1, "the relay's 451 was met by a later try")
message = found[0]
check(message["To"] == "leesoon7@example.com" and message["Subject"] == "Reset your password", "addressed and titled")
code, text = code_of(message)
check(code is not None and f"https://accounts.example.com/reset-password?code={code}" in text, "the link uses server.public_url")
check(message.get_body(("html",)) is not None, "an HTML part beside the text")
check(settle(server, "accounts_outbox_queued", 0) == 0, "the outbox is empty after the delivery")
time.sleep(1.5)
check(len(relay.messages()) == 1, "sent once")
status, body = server.call("POST", "/v1/password/reset", {"code": code, "password": "short", "confirmation": "other"})
check(status == 400 and '"problems"' in body, f"a weak password is refused with every problem, code kept: {body}")
status, body = server.call("POST", "/v1/password/reset", {"code": code, "password": NEW_PASSWORD, "confirmation": NEW_PASSWORD})
check(status == 200 and json.loads(body)["user"]["email_verified"] is True, f"the reset signs in and proves the email: {status}")
token = json.loads(body)["token"]
check(server.call("GET", "/v1/me", token=token)[0] == 200, "the new session answers")
status, body = server.call("POST", "/v1/password/reset", {"code": code, "password": NEW_PASSWORD, "confirmation": NEW_PASSWORD})
check(status == 400 and '"invalid_code"' in body, "the code works once")
status, body = server.call("POST", "/v1/password/reset", {"code": "0" * 64, "password": NEW_PASSWORD, "confirmation": NEW_PASSWORD})
check(status == 400 and '"invalid_code"' in body, "a guessed code is refused")
status, _ = server.call("POST", "/v1/login", {"email": "leesoon7@example.com", "password": NEW_PASSWORD})
check(status == 200, "the new password logs in")
store = open(os.path.join(HOME, "accounts.sqlite"), "rb").read()
check(code.encode() not in store, "the code is nowhere in the store")
server.stop()
relay.stop()

# 2. A plain relay on loopback: the Strapi routes, then the CLI.
relay_port = free_port()
env = environment("strapi.sqlite", relay_port, "none")
relay = Relay("plain-maildir", relay_port, tls=False).start()
server = Server(env)
status, _ = server.call("POST", "/api/auth/local/register", {"username": "sesac", "email": "sesacuser1@example.com", "password": PASSWORD})
check(status == 200, f"Strapi register: {status}")
status, body = server.call("POST", "/api/auth/forgot-password", {"email": "sesacuser1@example.com"}, form=True)
check((status, body) == (200, '{"ok":true}'), f"Strapi forgot-password: {status} {body}")
found = relay.wait(1)
check(len(found) == 1, "the Strapi user's mail arrives")
code, _ = code_of(found[0])
status, body = server.call("POST", "/api/auth/reset-password", {"code": code, "password": NEW_PASSWORD, "passwordConfirmation": NEW_PASSWORD})
answer = json.loads(body)
check(status == 200 and answer["user"]["email"] == "sesacuser1@example.com" and answer["jwt"], f"Strapi reset-password: {status}")
server.stop()
cli = dict(env, ACCOUNTS_SESSION_FILE=os.path.join(HOME, "cli-session"))
run = subprocess.run([ACCOUNTS, "password", "forgot", "--email", "sesacuser1@example.com"], env=cli, capture_output=True, text=True)
check(run.returncode == 0 and "If an account uses" in run.stdout, f"CLI forgot (exit {run.returncode}: {run.stderr})")
found = relay.wait(2)
check(len(found) == 2, "the CLI sends the mail itself")
codes = [code_of(m)[0] for m in found]
cli_code = next(c for c in codes if c != code)
run = subprocess.run([ACCOUNTS, "password", "reset", "--code", cli_code, "--password-stdin"], env=cli,
                     input=f"{PASSWORD}-new\n{PASSWORD}-new\n", capture_output=True, text=True)
check(run.returncode == 0 and "New password set" in run.stdout, f"CLI reset (exit {run.returncode})")
whoami = subprocess.run([ACCOUNTS, "whoami"], env=cli, capture_output=True, text=True)
check(whoami.returncode == 0 and "sesac" in whoami.stdout, "the CLI is signed in after the reset")
relay.stop()

# 3. TLS from the first byte (mail.tls tls), the CLI sending: the mail arrives over SMTPS, and
#    a relay that speaks plain text on that port gets nothing.
relay_port = free_port()
env = environment("smtps.sqlite", relay_port, "tls")
relay = Relay("smtps-maildir", relay_port, tls=False, implicit=True).start()
cli = dict(env, ACCOUNTS_SESSION_FILE=os.path.join(HOME, "smtps-session"))
run = subprocess.run([ACCOUNTS, "signup", "--email", "smtps7@example.com", "--nickname", "smtps", "--password-stdin"],
                     env=cli, input=f"{PASSWORD}\n{PASSWORD}\n", capture_output=True, text=True)
check(run.returncode == 0, f"CLI sign-up (exit {run.returncode}: {run.stderr})")
run = subprocess.run([ACCOUNTS, "password", "forgot", "--email", "smtps7@example.com"], env=cli, capture_output=True, text=True)
check(run.returncode == 0 and len(relay.wait(1)) == 1, f"the mail arrives over SMTPS (exit {run.returncode}: {run.stderr})")
codes.append(code_of(relay.messages()[0])[0])
relay.stop()
plain = Relay("smtps-plain-maildir", relay_port, tls=False).start()
run = subprocess.run([ACCOUNTS, "password", "forgot", "--email", "smtps7@example.com"], env=cli, capture_output=True, text=True)
time.sleep(1)
check(plain.messages() == [], "a plain-text relay on the TLS port is sent nothing")
plain.stop()
log = open(LOG).read()
check(all(c not in log for c in codes if c), "no code in the server's log")
print(f"mail check: {accounts_check.checks} checks passed")
