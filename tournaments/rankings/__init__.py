"""Ratings and rankings across tournaments (issue 9): openskill Plackett-Luce ratings per game pool,
leaderboards, player and team profiles, seeding from ratings. See docs/rankings.md."""
