"""Public sign-up, entry limit and waiting list, self check-in (issue 28; docs/registration.md).

- `services.py`: every write (`registration_<action>`), atomic, audited, the tournament locked first;
- `tokens.py`: the signed private link of a sign-up (status, withdrawal, self check-in);
- `emails.py`, `tasks.py`: the e-mails (confirmation, waiting list, moved up, ...), sent after commit,
  each once (an `EmailNotification` row per event, sign-up and address);
- `throttle.py`: the public sign-up is rate-limited per client address (web and API share one budget);
- `forms.py`, `views.py`, `urls.py`: the pages; `apis.py`: the REST API (`/api/tournaments/<slug>/registrations/...`).

The sign-up (`Registration`) lives in `tournaments/models.py` like every model of the app.
"""
