"""Submitted game records: submission, verification by `rules`, settlement into results, replay (issue 8)."""
