"""Speed figures: `make bench` runs every module here that exposes `run() -> dict` and prints JSON."""
