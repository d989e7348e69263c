"""The server side of the live scoresheet (issues 16 and 26): `services` (every write), `selectors`
(reads and the API's answer), `apis` (REST), `views` (the page), `choices` (the page's taps, pure).
The game itself is `rules.scoresheet` (pure); see docs/scoresheet.md."""
