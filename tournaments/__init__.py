"""The tournaments Django app: tournaments, entrants, rounds, tables, results and standings."""
