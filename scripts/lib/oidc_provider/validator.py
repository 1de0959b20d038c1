"""The claims the provider gives: the user's email, whether it was proven (a user whose
last name is "unverified" has not proven it), the name and the login, as a deployment of
django-oauth-toolkit adds them (its documented get_additional_claims)."""
from oauth2_provider.oauth2_validators import OAuth2Validator


class Validator(OAuth2Validator):
    def get_additional_claims(self, request):
        user = request.user
        return {
            "email": user.email,
            "email_verified": user.last_name != "unverified",
            "name": user.first_name or None,
            "preferred_username": user.username,
        }
