"""Webhooks (issue 30): an organiser registers URLs that receive a signed POST for the tournament's events.

- `events.py`: the event names and `webhook_emit`, which the services (and the games app) call inside
  their transaction; nothing is sent unless the transaction commits, and nothing it does can fail it.
- `targets.py`: which URLs may be targeted (no private, loopback, link-local ... address of any kind,
  checked for every address the host resolves to, at registration and again at every delivery).
- `signing.py`: the `Webhook-Signature` header (HMAC-SHA256 over `<timestamp>.<body>`, per-endpoint secret).
- `delivery.py`: one HTTP attempt, connected to the address that was checked (no second DNS lookup).
- `services.py`: endpoints (create, remove), fan-out of an event into deliveries, attempts and backoff.
- `tasks.py`: the Celery tasks; `apis.py`, `views.py`: the API and the organiser's page.

Docs: docs/webhooks.md. An app of its own (label `webhooks`); it imports `tournaments`, never `games`.
"""
