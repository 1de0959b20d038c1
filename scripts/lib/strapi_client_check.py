"""strapi-client (PyPI) against `accounts serve`'s Strapi routes; run by scripts/strapi-client-check.sh.

Every step uses the client's own code: its request methods (which raise on any status that is
not 2xx), its `authorize`, its `BaseDocument` model (pydantic: `id` must be an int) and its
`check_health`. A failed step raises, and the script exits non-zero.
"""

import os
import time
from importlib.metadata import version

from strapi_client import StrapiClient
from strapi_client.models.base_document import BaseDocument


class User(BaseDocument):
    """Strapi's user as an app models it: the document fields plus the plugin's."""

    username: str
    email: str
    provider: str
    confirmed: bool
    blocked: bool


url = os.environ["STRAPI_URL"]
password = "Marmot-Velvet-Quarry-81"
new_password = "Kettle-Orchid-Basalt-27"
assert version("strapi-client") == "5.2.1", version("strapi-client")

with StrapiClient(base_url=url) as client:
    assert client.check_health(), "check_health() is False"

    users = []
    for name in ("sesac", "second"):
        reply = client.send_post_request(
            "auth/local/register",
            json={"username": name, "email": f"{name}user1@example.com", "password": password},
            use_auth=False,
        ).json()
        users.append(User.model_validate(reply["user"]))
    assert [user.id for user in users] == [1, 2], [user.id for user in users]
    assert all(len(user.document_id) == 32 for user in users)

    client.authorize(identifier="sesacuser1@example.com", password=password)
    me = User.model_validate(client.send_get_request("users/me").json())
    assert me.id == 1 and me.document_id == users[0].document_id and me.username == "sesac", me
    assert me.updated_at == me.created_at, "a new user's updatedAt is its createdAt"

    time.sleep(0.01)  # updatedAt is kept to the millisecond: let the clock move past it
    client.send_post_request(
        "auth/change-password",
        json={"currentPassword": password, "password": new_password, "passwordConfirmation": new_password},
    )
    changed = User.model_validate(client.send_get_request("users/me").json())
    assert changed.id == 1 and changed.updated_at > me.updated_at, (me.updated_at, changed.updated_at)
    assert changed.created_at == me.created_at

    try:
        client.authorize(identifier="sesacuser1@example.com", password=password)
    except RuntimeError:
        pass
    else:
        raise AssertionError("the old password still authorizes")
    client.authorize(identifier="sesacuser1@example.com", password=new_password)
    assert User.model_validate(client.send_get_request("users/me").json()).id == 1

print(
    f"strapi-client {version('strapi-client')}: register x2 (ids 1, 2), authorize, users/me as BaseDocument, "
    "change-password (updatedAt moved), check_health: all passed"
)
