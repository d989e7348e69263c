"""Server-rendered web views, split by audience: public, organiser, results (players and organisers)."""
