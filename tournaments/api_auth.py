"""The API's token authentication: DRF's `TokenAuthentication` with its one query written out (issue 26).

Every request of a phone, a scoresheet app or a record uploader that carries `Authorization: Token ...`
reads the token with its user. DRF composes that join through the ORM each time (about 0.55 ms of CPU,
most of it in the query compiler); here its SQL is written once from the models' metadata
(`tournaments.raw_rows`) and the instances are built as the ORM would (0.2 ms). Same answers, same
messages: an unknown key is "Invalid token.", an inactive user "User inactive or deleted.".
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from tournaments import prepared_sql
from tournaments.raw_rows import Columns, build_joined


@functools.cache
def _token_sql(token_model: Any) -> tuple[str, Columns, Columns]:
    quote = connection.ops.quote_name
    user_model = get_user_model()
    token, user = Columns(token_model, "t"), Columns(user_model, "u")
    user_fk = token_model._meta.get_field("user")
    return (
        f"SELECT {token.sql()}, {user.sql()} FROM {quote(token_model._meta.db_table)} t "
        f"INNER JOIN {quote(user_model._meta.db_table)} u ON t.{quote(user_fk.column)} = u.{quote(user_model._meta.pk.column)} "
        f"WHERE t.{quote(token_model._meta.pk.column)} = %s",
        token, user,
    )


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        sql, token_columns, user_columns = _token_sql(self.get_model())
        if "\x00" in key:  # PostgreSQL refuses the character in a parameter: no key holds it
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        with prepared_sql.cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        (token, user), _rest = build_joined((token_columns, user_columns), row)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token.user = user
        return user, token
