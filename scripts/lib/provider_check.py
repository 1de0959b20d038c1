"""Signing in with providers, checked against real peers (scripts/provider-check.sh):
django-oauth-toolkit (from PyPI) as an OpenID Connect provider on loopback (OIDC on, RS256, PKCE
required), and a stand-in serving GitHub's documented shapes for the GitHub preset. Drives the
whole flow as a client with a cookie jar would, through `accounts serve`."""
import json
import os
import secrets
import shutil
import subprocess
import sys
import threading
import urllib.parse
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

sys.path.insert(0, os.path.dirname(__file__))
from accounts_check import ACCOUNTS, HOME, LOG, Server, check, free_port  # noqa: E402
import github_standin  # noqa: E402

PASSWORD = "Tangerine-Kayak-42"
provider_port, accounts_port, github_port = free_port(), free_port(), free_port()
ISSUER = f"http://127.0.0.1:{provider_port}/o"
PUBLIC = f"http://127.0.0.1:{accounts_port}"
CALLBACK = PUBLIC + "/v1/providers/corp/callback"
STRAPI_CALLBACK = PUBLIC + "/api/connect/corp/callback"  # what a provider registered for Strapi has
APP_PAGE = "http://127.0.0.1:9/connect/corp/redirect"     # a Strapi app's page: only its address is read
CLIENT_ID, CLIENT_SECRET = "accounts-check", secrets.token_urlsafe(32)

# --- The OpenID provider: Django and django-oauth-toolkit, its key and users made here.
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
with open(os.path.join(HOME, "provider-rsa.pem"), "wb") as f:
    f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()))
os.environ.update({"OIDC_ISSUER": ISSUER, "OIDC_DJANGO_SECRET": secrets.token_hex(32),
                   "DJANGO_SETTINGS_MODULE": "oidc_provider.settings"})
import django  # noqa: E402

django.setup()
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from oauth2_provider.models import Application  # noqa: E402

call_command("migrate", verbosity=0)
PEOPLE = {
    "alice": ("alice@example.org", "Alice Kim", ""),
    "bob": ("bobby7@example.org", "Bob", ""),   # bobby7@example.org signs up with a password here
    "carol": ("carol@example.org", "Carol", "unverified"),
    "dave": ("dave77@example.org", "Dave", ""),             # mallory's own account at the provider
}
for login, (email, name, last) in PEOPLE.items():
    User.objects.create_user(login, email, PASSWORD, first_name=name, last_name=last)
Application.objects.create(
    name="accounts", client_id=CLIENT_ID, client_secret=CLIENT_SECRET, client_type=Application.CLIENT_CONFIDENTIAL,
    authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
    redirect_uris=" ".join([CALLBACK, STRAPI_CALLBACK, "http://127.0.0.1/callback"]),  # the last: the CLI's, any port
    algorithm=Application.RS256_ALGORITHM, skip_authorization=True)


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


provider = make_server("127.0.0.1", provider_port, get_wsgi_application(), ThreadingWSGIServer, QuietHandler)
threading.Thread(target=provider.serve_forever, daemon=True).start()
github = github_standin.GitHub(github_port)

# --- accounts serve, with both providers.
for name, secret in [("corp", CLIENT_SECRET), ("github", github_standin.CLIENT_SECRET)]:
    path = os.path.join(HOME, f"{name}-secret")
    with open(path, "w") as f:
        f.write(secret + "\n")
    os.chmod(path, 0o600)
env = {
    "PATH": "/usr/bin:/bin", "HOME": HOME, "LANG": "C.UTF-8",
    "XDG_STATE_HOME": os.path.join(HOME, "state"), "XDG_CONFIG_HOME": os.path.join(HOME, "config"),
    "ACCOUNTS_BACKEND": "sqlite", "ACCOUNTS_SQLITE_PATH": os.path.join(HOME, "accounts.sqlite"),
    "ACCOUNTS_HASHING_OPS_LIMIT": "1", "ACCOUNTS_HASHING_MEM_LIMIT_KIB": "8",
    "ACCOUNTS_SERVER_PUBLIC_URL": PUBLIC,
    "ACCOUNTS_PROVIDERS_CORP_ISSUER": ISSUER, "ACCOUNTS_PROVIDERS_CORP_CLIENT_ID": CLIENT_ID,
    "ACCOUNTS_PROVIDERS_CORP_CLIENT_SECRET_FILE": os.path.join(HOME, "corp-secret"),
    "ACCOUNTS_PROVIDERS_CORP_DISPLAY_NAME": "Corp SSO", "ACCOUNTS_PROVIDERS_CORP_APP_REDIRECT_URL": APP_PAGE,
    "ACCOUNTS_PROVIDERS_GITHUB_CLIENT_ID": github_standin.CLIENT_ID,
    "ACCOUNTS_PROVIDERS_GITHUB_CLIENT_SECRET_FILE": os.path.join(HOME, "github-secret"),
    "ACCOUNTS_PROVIDERS_GITHUB_WEB_URL": github.url, "ACCOUNTS_PROVIDERS_GITHUB_API_URL": github.url,
    "ACCOUNTS_PROVIDERS_GITHUB_APP_REDIRECT_URL": "com.example.app:/connect/github",
}
server = Server(env, port=accounts_port)


def browser(person=None):
    """A client with its own cookies, signed in at the OpenID provider as `person`."""
    session = requests.Session()
    if person:
        login = ISSUER.removesuffix("/o") + "/accounts/login/"
        session.get(login)
        answer = session.post(login, data={"username": person, "password": PASSWORD,
                                           "csrfmiddlewaretoken": session.cookies["csrftoken"]},
                              headers={"Referer": login}, allow_redirects=False)
        check(answer.status_code == 302, f"{person} signs in at the provider ({answer.status_code})")
    return session


def said(answer):
    """An answer as a check may print it: the status and the error code, never a token."""
    try:
        return f"{answer.status_code} {answer.json().get('code', '')}".strip()
    except ValueError:
        return str(answer.status_code)


def start(session, provider="corp", token=None, query=""):
    headers = {"Authorization": "Bearer " + token} if token else {}
    answer = session.get(f"{PUBLIC}/v1/providers/{provider}/start{query}", headers=headers, allow_redirects=False)
    return answer


def at_provider(session, location):
    """Follows the provider's answer to the authorization request: its redirect to our callback."""
    answer = session.get(location, allow_redirects=False)
    check(answer.status_code == 302 and answer.headers["Location"].startswith(PUBLIC),
          f"the provider sends the client back ({answer.status_code})")
    return answer.headers["Location"]


def sign_in(session, provider="corp", token=None, query=""):
    """The whole flow: start, the provider, the callback; the callback's answer."""
    started = start(session, provider, token, query)
    check(started.status_code == 302, f"start redirects ({said(started)})")
    callback = at_provider(session, started.headers["Location"])
    headers = {"Authorization": "Bearer " + token} if token else {}
    return session.get(callback, headers=headers, allow_redirects=False), callback


# --- OpenID Connect: a new person gets an account.
status, body = server.call("GET", "/v1/providers")
listed = json.loads(body)["providers"]
check([p["name"] for p in listed] == ["corp", "github"] and listed[0]["display_name"] == "Corp SSO",
      "GET /v1/providers lists both, with their names")
alice = browser("alice")
started = start(alice)
location = urllib.parse.urlsplit(started.headers["Location"])
asked = dict(urllib.parse.parse_qsl(location.query))
check(location.path == "/o/authorize/" and asked["code_challenge_method"] == "S256" and len(asked["nonce"]) == 64
      and asked["redirect_uri"] == CALLBACK and asked["scope"] == "openid email profile",
      "start sends the client to the discovered authorize endpoint with PKCE S256, a nonce and the callback")
check("HttpOnly" in started.headers["Set-Cookie"] and "SameSite=Lax" in started.headers["Set-Cookie"],
      "the flow's cookie is HttpOnly and SameSite=Lax")
check(asked["code_challenge"] not in started.headers["Set-Cookie"]
      and asked["state"] in started.headers["Set-Cookie"], "the cookie holds the state, not the PKCE secret")
callback = at_provider(alice, started.headers["Location"])
answer = alice.get(callback, allow_redirects=False)
check(answer.status_code == 200, f"the callback signs alice in ({said(answer)})")
signed = answer.json()
check(signed["user"]["email"] == "alice@example.org" and signed["user"]["nickname"] == "Alice Kim"
      and signed["user"]["email_verified"] is True, "a new account: the verified email, the provider's name")
check("accounts_provider_flow=;" in answer.headers.get("Set-Cookie", "") or
      "Max-Age=0" in answer.headers.get("Set-Cookie", ""), "the callback clears the flow's cookie")
alice_token = signed["token"]
status, body = server.call("GET", "/v1/identities", token=alice_token)
identities = json.loads(body)["identities"]
check(status == 200 and len(identities) == 1 and identities[0]["provider"] == "corp"
      and identities[0]["subject"] == str(User.objects.get(username="alice").pk), "the identity is keyed on sub")
for guess in ["!", PASSWORD, ""]:
    status, body = server.call("POST", "/v1/login", {"email": "alice@example.org", "password": guess})
    check(status in (400, 401) and "token" not in json.loads(body),
          f"an account made by a provider has no password: {guess or 'an empty one'!r} opens nothing")

# The code used again, with the same cookie: the provider refuses it.
replay = requests.get(callback, cookies={"accounts_provider_flow": started.cookies["accounts_provider_flow"]},
                      allow_redirects=False)
check(replay.status_code == 400 and replay.json()["code"] == "provider_flow_invalid"
      and "invalid_grant" in replay.json()["message"], f"a code used twice is refused at the provider ({said(replay)})")
# Signing in again finds the same account.
answer, _ = sign_in(alice)
check(answer.status_code == 200 and answer.json()["user"]["id"] == signed["user"]["id"],
      "a second sign-in opens the same account")

# --- Wrong state, no cookie, another browser's cookie.
started = start(alice)
callback = at_provider(alice, started.headers["Location"])
forged = callback.replace("state=", "state=0")
answer = alice.get(forged, allow_redirects=False)
check(answer.status_code == 400 and answer.json()["code"] == "provider_flow_invalid", "a changed state is refused")
mallory = requests.Session()
answer = mallory.get(callback, allow_redirects=False)
check(answer.status_code == 400 and answer.json()["code"] == "provider_flow_invalid",
      "a callback link opened by another browser (login CSRF) signs nobody in")
started = start(alice)
state = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(started.headers["Location"]).query))["state"]
answer = alice.get(PUBLIC + "/v1/providers/corp/callback?error=access_denied&state=" + state, allow_redirects=False)
check(answer.status_code == 400 and "access_denied" in answer.json()["message"], "a refusal at the provider is said")

# --- An email not verified at the provider opens nothing.
answer, _ = sign_in(browser("carol"))
check(answer.status_code == 403 and answer.json()["code"] == "provider_email_unverified",
      f"an unverified email makes no account ({said(answer)})")
status, body = server.call("POST", "/v1/login", {"email": "carol@example.org", "password": PASSWORD})
check(status == 401, "and no account exists for it")

# --- A password account's email: never taken over; linked only from its own session.
status, body = server.call("POST", "/v1/signup", {"email": "bobby7@example.org", "password": PASSWORD,
                                                  "nickname": "밥 아저씨"})
check(status == 201, f"bob signs up with a password ({status} {json.loads(body).get('code', '')})")
bob_account = json.loads(body)
bob = browser("bob")
answer, _ = sign_in(bob)
check(answer.status_code == 409 and answer.json()["code"] == "identity_not_linked" and "token" not in answer.json(),
      "the provider's matching email does not sign in to bob's password account")
status, body = server.call("GET", "/v1/identities", token=bob_account["token"])
check(json.loads(body)["identities"] == [], "and links nothing")
status, body = server.call("POST", "/v1/login", {"email": "bobby7@example.org", "password": PASSWORD})
bob_token = json.loads(body)["token"]
answer = start(bob, query="?link=true")
check(answer.status_code == 401, "linking needs the account's session")
answer, _ = sign_in(bob, token=bob_token, query="?link=true")
check(answer.status_code == 200 and answer.json()["identity"]["provider"] == "corp",
      f"signed in with the password, bob links the provider ({said(answer)})")
answer, _ = sign_in(bob)
check(answer.status_code == 200 and answer.json()["user"]["id"] == bob_account["user"]["id"],
      "now the provider signs bob in to his own account")
answer, _ = sign_in(browser("alice"), token=bob_token, query="?link=true")
check(answer.status_code == 409 and answer.json()["code"] == "identity_taken",
      "alice's identity cannot be linked to bob's account")

# --- Unlinking: never the last way in.
subject = str(User.objects.get(username="alice").pk)
status, body = server.call("DELETE", f"/v1/identities/corp/{subject}", token=alice_token)
check(status == 409 and json.loads(body)["code"] == "last_way_in", "alice's only way in is kept")
bob_subject = str(User.objects.get(username="bob").pk)
status, body = server.call("DELETE", f"/v1/identities/corp/{subject}", token=bob_token)
check(status == 404 and json.loads(body)["code"] == "identity_not_found", "bob cannot unlink alice's identity")
status, _ = server.call("DELETE", f"/v1/identities/corp/{bob_subject}", token=bob_token)
check(status == 200, "bob, who has a password, unlinks his")
answer, _ = sign_in(bob)
check(answer.status_code == 409 and answer.json()["code"] == "identity_not_linked", "and the provider opens nothing again")

# --- The GitHub preset against the stand-in.
github.user = {"id": 583231, "login": "octocat", "name": "The Octocat", "emails": [
    {"email": "octocat@users.noreply.github.com", "primary": False, "verified": True, "visibility": None},
    {"email": "octo@example.org", "primary": True, "verified": True, "visibility": "public"},
]}
gh = requests.Session()
started = start(gh, provider="github")
flow_cookie = started.cookies["accounts_provider_flow"]
callback = at_provider(gh, started.headers["Location"])
answer = gh.get(callback, allow_redirects=False)
check(answer.status_code == 200 and answer.json()["user"]["email"] == "octo@example.org"
      and answer.json()["user"]["nickname"] == "The Octocat", f"GitHub: the primary verified email ({said(answer)})")
octo_token = answer.json()["token"]
status, body = server.call("GET", "/v1/identities", token=octo_token)
check(json.loads(body)["identities"][0]["subject"] == "583231", "keyed on GitHub's numeric id")
replay = requests.get(callback, cookies={"accounts_provider_flow": flow_cookie}, allow_redirects=False)
check(replay.status_code == 400 and "bad_verification_code" in replay.json()["message"],
      "a GitHub code used twice is refused: its 200 with an error field is read as the refusal it is")
github.user = {"id": 583231, "login": "octocat", "name": "The Octocat", "emails": [
    {"email": "octo-new@example.org", "primary": True, "verified": True, "visibility": "public"}]}
answer, _ = sign_in(requests.Session(), provider="github")
check(answer.status_code == 200 and answer.json()["user"]["email"] == "octo@example.org",
      "a changed email at GitHub still opens the same account (the id is the key)")
github.user = {"id": 9001, "login": "ghost", "name": None, "emails": [
    {"email": "ghost@example.org", "primary": True, "verified": False, "visibility": None}]}
answer, _ = sign_in(requests.Session(), provider="github")
check(answer.status_code == 403 and answer.json()["code"] == "provider_email_unverified",
      "GitHub's unverified primary email makes no account")
check(("POST", "/login/oauth/access_token") in github.requests and ("GET", "/user/emails") in github.requests,
      "the server asked GitHub's token endpoint and /user/emails")

# --- Strapi's shapes: /api/connect/corp, the app's page with ?access_token=, /api/auth/corp/callback.
def strapi_connect(session, provider="corp", app_page=APP_PAGE):
    started = session.get(f"{PUBLIC}/api/connect/{provider}", allow_redirects=False)
    check(started.status_code == 302, f"/api/connect/{provider} redirects ({said(started)})")
    asked = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(started.headers["Location"]).query))
    check(asked["redirect_uri"] == f"{PUBLIC}/api/connect/{provider}/callback",
          "with Strapi's own callback, as a provider set up for Strapi has it")
    callback = at_provider(session, started.headers["Location"])
    ended = session.get(callback, allow_redirects=False)
    check(ended.status_code == 302 and ended.headers["Location"].startswith(app_page + "?"),
          f"the flow ends at the app's page ({said(ended)})")
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(ended.headers["Location"]).query))


sent = strapi_connect(browser("alice"))
ticket = sent["access_token"]
check(len(ticket) == 64, "the app's page gets a ticket as access_token")
answer = requests.get(f"{PUBLIC}/api/auth/corp/callback", params={"access_token": ticket})
strapi = answer.json()
check(answer.status_code == 200 and strapi["user"]["email"] == "alice@example.org"
      and strapi["user"]["id"] == signed["user"]["number"], f"/api/auth/corp/callback answers {{jwt, user}} ({said(answer)})")
me = requests.get(f"{PUBLIC}/api/users/me", headers={"Authorization": "Bearer " + strapi["jwt"]})
check(me.status_code == 200 and me.json()["email"] == "alice@example.org", "and its jwt works on /api/users/me")
again = requests.get(f"{PUBLIC}/api/auth/corp/callback", params={"access_token": ticket})
check(again.status_code == 400 and again.json()["error"]["details"]["code"] == "invalid_code",
      "a ticket works once")
sent = strapi_connect(browser("bob"))
check(sent == {"error": "identity_not_linked"}, f"bob's password account is not signed in through Strapi either ({sent})")

# --- The web pages: the button, the provider, the finish that sets the session's cookie.
page = requests.get(f"{PUBLIC}/login").text
check('href="/providers/corp/start"' in page and "Sign in with Corp SSO" in page and "Sign in with GitHub" in page,
      "the login page has a button per provider")
korean = requests.get(f"{PUBLIC}/login", headers={"Accept-Language": "ko"}).text
check("Corp SSO(으)로 로그인" in korean, "in Korean too")
web = browser("alice")
started = web.get(f"{PUBLIC}/providers/corp/start", allow_redirects=False)
callback = at_provider(web, started.headers["Location"])
ended = web.get(callback, allow_redirects=False)
check(ended.status_code == 302 and ended.headers["Location"] == "/providers/corp/finish"
      and "accounts_provider_ticket=" in ended.headers.get("Set-Cookie", ""),
      "the callback sends the browser to the pages' finish, the ticket in a cookie, never in the address")
# Mallory's own ticket, in a finish link sent to someone else, signs them in to nothing.
mallory = browser("dave")
started = mallory.get(f"{PUBLIC}/providers/corp/start", allow_redirects=False)
stolen = mallory.get(at_provider(mallory, started.headers["Location"]), allow_redirects=False)
ticket = stolen.cookies.get("accounts_provider_ticket")
check(ticket is not None and len(ticket) == 64, "mallory reads her own ticket from her own cookie")
victim = requests.Session()
forwarded = victim.get(f"{PUBLIC}/providers/corp/finish?ticket={ticket}", allow_redirects=False)
check(forwarded.status_code == 400 and "accounts_session=" not in forwarded.headers.get("Set-Cookie", ""),
      f"her ticket in a finish link signs the victim in to nothing (login CSRF; {forwarded.status_code})")
finished = web.get(PUBLIC + ended.headers["Location"], allow_redirects=False)
check(finished.status_code in (302, 303) and finished.headers["Location"] == "/welcome"
      and "accounts_session=" in finished.headers.get("Set-Cookie", ""), "the finish sets the session's cookie")
welcome = web.get(f"{PUBLIC}/welcome")
check("Alice Kim" in welcome.text, "and the welcome page greets alice")
bob = browser("bob")
started = bob.get(f"{PUBLIC}/providers/corp/start", allow_redirects=False)
ended = bob.get(at_provider(bob, started.headers["Location"]), allow_redirects=False)
shown = bob.get(PUBLIC + ended.headers["Location"])
check(shown.status_code == 409 and "sign in with its password first" in shown.text,
      f"the login page tells bob to sign in with his password first ({shown.status_code})")

# --- Once in a real browser: headless Chromium clicks the button and signs in at the provider.
chromium = shutil.which("chromium") and shutil.which("chromedriver")
if chromium:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = Options()
    # A profile folder of its own in the check's folder, which the script removes: without one,
    # Chromium leaves its default profile in TMPDIR.
    profile = os.path.join(HOME, "chromium-profile")
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--lang=en-US",
                     f"--user-data-dir={profile}"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    try:
        driver.get(f"{PUBLIC}/login")
        driver.find_element(By.LINK_TEXT, "Sign in with Corp SSO").click()
        try:
            WebDriverWait(driver, 30).until(lambda d: "/accounts/login/" in d.current_url)
        except TimeoutException:
            pass
        check(driver.current_url.startswith(ISSUER.removesuffix("/o") + "/accounts/login/"),
              "Chromium: the button leads to the provider's sign-in")
        driver.find_element(By.NAME, "username").send_keys("alice")
        driver.find_element(By.NAME, "password").send_keys(PASSWORD)
        driver.find_element(By.TAG_NAME, "button").click()
        try:
            WebDriverWait(driver, 30).until(lambda d: d.current_url == f"{PUBLIC}/welcome")
        except TimeoutException:
            pass
        check(driver.current_url == f"{PUBLIC}/welcome" and "Alice Kim" in driver.page_source,
              f"Chromium: back from the provider, alice is welcomed ({driver.current_url})")
    finally:
        driver.quit()
elif os.environ.get("CI") == "true":
    check(False, "chromium and chromedriver are missing (scripts/install-dependencies.sh --browser)")
else:
    print("SKIPPED the Chromium part: chromium and chromium-driver are not installed")

# --- The CLI as a native app (RFC 8252): the provider's address printed, the answer on a loopback port.
def cli(*arguments, **kwargs):
    return subprocess.run([ACCOUNTS, *arguments], env=env, capture_output=True, text=True, **kwargs)


login = subprocess.Popen([ACCOUNTS, "login", "--provider", "corp", "--json"], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
address = None
for line in login.stderr:
    if line.startswith(ISSUER):
        address = line.strip()
        break
check(address is not None and "redirect_uri=http%3A%2F%2F127.0.0.1%3A" in address,
      "accounts login --provider prints the provider's address, with a loopback callback")
person = browser("alice")
back = person.get(address, allow_redirects=False)
check(back.status_code == 302 and back.headers["Location"].startswith("http://127.0.0.1:"),
      "the provider sends the browser to the CLI's loopback port (any port, RFC 8252 §7.3)")
page = person.get(back.headers["Location"])
check(page.status_code == 200 and "Return to the terminal" in page.text, "the CLI's page says to return to the terminal")
out, err = login.communicate(timeout=60)
answer = json.loads(out)
check(login.returncode == 0 and answer["ok"] and answer["user"]["email"] == "alice@example.org",
      f"the CLI signs alice in to her account (exit {login.returncode})")
run = cli("identities", "--json")
listed = json.loads(run.stdout)["identities"]
check(run.returncode == 0 and [i["provider"] for i in listed] == ["corp"], "accounts identities lists corp")
run = cli("identities", "unlink", "corp", listed[0]["subject"], "--json")
check(run.returncode == 3 and json.loads(run.stdout)["error"]["code"] == "last_way_in",
      f"accounts identities unlink keeps the only way in (exit {run.returncode})")
run = cli("login", "--provider", "nobody")
check(run.returncode == 8 and "configured: corp, github" in run.stderr, "an unknown provider is named, with the known ones")

# --- The GitHub preset through the web pages, a Strapi app and the CLI.
github.user = {"id": 583231, "login": "octocat", "name": "The Octocat", "emails": [
    {"email": "octo@example.org", "primary": True, "verified": True, "visibility": "public"}]}
web = requests.Session()
started = web.get(f"{PUBLIC}/providers/github/start", allow_redirects=False)
ended = web.get(at_provider(web, started.headers["Location"]), allow_redirects=False)
web.get(PUBLIC + ended.headers["Location"], allow_redirects=False)
check("The Octocat" in web.get(f"{PUBLIC}/welcome").text, "GitHub on the web pages: the octocat is welcomed")
sent = strapi_connect(requests.Session(), "github", "com.example.app:/connect/github")
answer = requests.get(f"{PUBLIC}/api/auth/github/callback", params={"access_token": sent.get("access_token", "")})
check(answer.status_code == 200 and answer.json()["user"]["email"] == "octo@example.org",
      f"GitHub for a Strapi app: {{jwt, user}} ({said(answer)})")
login = subprocess.Popen([ACCOUNTS, "login", "--provider", "github", "--json"], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
address = next((line.strip() for line in login.stderr if line.startswith(github.url)), None)
check(address is not None, "accounts login --provider github prints GitHub's address")
back = requests.get(address, allow_redirects=False)
requests.get(back.headers["Location"])
out, _ = login.communicate(timeout=60)
check(login.returncode == 0 and json.loads(out)["user"]["email"] == "octo@example.org",
      f"GitHub through the CLI signs the octocat in (exit {login.returncode})")

# --- Nothing secret in the log.
log = open(LOG).read()
check(CLIENT_SECRET not in log and github_standin.CLIENT_SECRET not in log and alice_token not in log
      and "code=" not in log, "no secret, token or code in the server's log")
server.stop()
provider.shutdown()
github.server.shutdown()
print(f"{__import__('accounts_check').checks} checks passed")
