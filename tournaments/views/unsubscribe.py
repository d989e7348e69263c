"""The unsubscribe link of every notification e-mail: `/email/unsubscribe/<signed address>/`.

GET shows the address and a button (mail scanners that open links do not unsubscribe anyone); POST
unsubscribes. The signed token is the credential, so the POST needs no CSRF token (mail clients send
the RFC 8058 one-click POST `List-Unsubscribe=One-Click` without one).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from tournaments.notifications import address_from_unsubscribe_token, unsubscribe
from tournaments.page_throttles import token_page_throttle


@csrf_exempt
@require_http_methods(["GET", "POST"])
@token_page_throttle
def email_unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    address = address_from_unsubscribe_token(token)
    if address is None:
        raise Http404("This unsubscribe link is not valid.")
    done = False
    if request.method == "POST":
        unsubscribe(address)
        done = True
    return render(request, "tournaments/email_unsubscribe.html", {"address": address, "done": done})
