# The front door: make run | test | lint | bench | mutate
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)
PYTEST_ARGS ?=
PORT ?= 8000

.PHONY: venv run test lint typecheck bench mutate demo worker clean

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements-dev.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

venv: $(STAMP)

## Set up, migrate, load the demo tournament (with game records) and serve it on http://127.0.0.1:$(PORT) (PORT=8000 by default)
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py demo_records
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

## Set up and run the whole test suite
test: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict rules/

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict rules/

## Speed figures as JSON (one core)
bench: $(STAMP)
	@$(PY) -m benchmarks

## Mutation testing of the pure core, one module at a time (not in CI; see docs/testing.md).
## MUTATE_ARGS: e.g. "standings swiss", "--sample 0" (all mutants), "--seed 7", "--report"
MUTATE_ARGS ?=
mutate: $(STAMP)
	$(PY) -m mutation $(MUTATE_ARGS)

worker: $(STAMP)
	$(VENV)/bin/celery -A config worker -l info

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .mutation
