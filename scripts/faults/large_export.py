#!/usr/bin/env python3
"""Writes an export file of COUNT users, each with one session, modelled on TEMPLATE.

    large_export.py TEMPLATE OUT COUNT

TEMPLATE is an `accounts export --with-sessions` file holding at least one user with a session;
every user of OUT copies the first such user (password hash included) under a new id, email
(guest00001@example.com, … zero-padded to at least five digits, so they stay in ascending
order, as the format requires) and number (1, 2, …, from format 2 on; the header's
last_user_number is then COUNT) with a session of its own, and the trailer's digest is
computed anew, so `accounts import` accepts the file. The fault sweep uses it to crash an import of
several batches; bench/cli.sh, to fill stores of 100,000 users.
"""
import hashlib
import json
import sys


def main() -> None:
    template, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(template, encoding="utf-8") as file:
        lines = [json.loads(line) for line in file]
    header = lines[0]
    session = next(line for line in lines if line.get("type") == "session")
    user = next(line for line in lines if line.get("type") == "user" and line["id"] == session["user_id"])
    header.update(users=count, with_sessions=True)
    numbered = "number" in user
    if numbered:
        header["last_user_number"] = count
    body = [header]
    width = max(5, len(str(count)))
    for index in range(1, count + 1):
        user_id = user["id"][: -8] + f"{index:08x}"
        copy = dict(user, id=user_id, email=f"guest{index:0{width}d}@example.com")
        if numbered:
            copy["number"] = index
        body.append(copy)
        token = hashlib.sha256(f"large-export-{index}".encode()).hexdigest()
        body.append(dict(session, token_sha256=token, user_id=user_id))
    text = "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in body)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    trailer = {"type": "end", "users": count, "sessions": count, "sha256": digest}
    with open(out, "w", encoding="utf-8") as file:
        file.write(text + json.dumps(trailer, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
