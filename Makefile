# Two commands for a newcomer:  make demo   and   make test
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test setup setup-test browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

setup: $(BIN)/python
	$(BIN)/pip install -q -e .

setup-test: $(BIN)/python
	$(BIN)/pip install -q -e '.[test,train]'

# Debian's chromium for the browser test (never `playwright install`); skipped when not root.
browser:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) || echo "chromium missing: browser tests will skip"; }

demo: setup
	$(BIN)/companion demo

test: setup-test browser
	$(BIN)/python -m pytest
