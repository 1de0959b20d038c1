"""What the Python checks of `accounts serve` share (scripts/mail-check.sh, scripts/token-check.sh):
numbered checks that stop at the first failure with the server's last log lines, a free loopback
port, and the server itself, started with an environment and driven over HTTP."""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

ACCOUNTS = os.environ["ACCOUNTS_BIN"]
HOME = os.environ["CHECK_HOME"]
LOG = os.path.join(HOME, "serve.log")
checks = 0


def check(condition, what):
    """Counts a check that holds; prints why and stops at one that does not."""
    global checks
    if not condition:
        print(f"FAIL  {what}", file=sys.stderr)
        if os.path.exists(LOG):
            print("the server's log, last lines:", file=sys.stderr)
            print("".join(open(LOG).readlines()[-15:]), file=sys.stderr)
        sys.exit(1)
    checks += 1
    print(f"ok    {what}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`accounts serve` on `port` (0: any free one) with `env`, its log appended to serve.log."""

    def __init__(self, env, port=0):
        self.env = env
        self.process = subprocess.Popen(
            [ACCOUNTS, "serve", "--port", str(port)], env=env, stdout=subprocess.PIPE,
            stderr=open(LOG, "a"), text=True)
        line = self.process.stdout.readline()
        match = re.match(r"Listening on (\S+)", line)
        if not match:
            print(open(LOG).read(), file=sys.stderr)
            raise SystemExit(f"the server did not start: {line!r}")
        self.url = match.group(1)

    def call(self, method, path, body=None, token=None, form=False):
        data = None
        headers = {}
        if body is not None:
            if form:
                data = urllib.parse.urlencode(body).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            else:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = "Bearer " + token
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.process.terminate()
        self.process.wait()
