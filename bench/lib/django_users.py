#!/usr/bin/env python3
"""Prints a Django `manage.py dumpdata auth.user` file of COUNT users, as Django writes it
(indent 1), for bench/import.sh. Every user has the same PBKDF2 hash: the import keeps hashes
as they are and never verifies them, so one is enough.

    django_users.py COUNT > users.json
"""
import json
import sys

HASH = "pbkdf2_sha256$870000$u4bqr4uDdG9wb1pWPQQFIp$7h5hEh9SJbAeKGE7EgcsQOU0est4WZDfg4Vs7RGccko="


def main() -> None:
    count = int(sys.argv[1])
    out = sys.stdout
    out.write("[\n")
    for pk in range(1, count + 1):
        record = {"model": "auth.user", "pk": pk, "fields": {
            "password": HASH, "last_login": None, "is_superuser": False, "username": f"user{pk}",
            "first_name": "", "last_name": "", "email": f"user{pk:07d}@example.com", "is_staff": False,
            "is_active": True, "date_joined": "2024-05-01T12:00:00.123Z", "groups": [], "user_permissions": []}}
        out.write(json.dumps(record, indent=1).replace("\n", "\n") + (",\n" if pk < count else "\n"))
    out.write("]\n")


if __name__ == "__main__":
    main()
