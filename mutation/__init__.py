"""Mutation testing of the pure core (`make mutate`, see docs/testing.md); not part of CI."""
