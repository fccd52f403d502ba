# Two commands for a newcomer:  make demo   and   make test
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test setup setup-test debian

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

setup: $(BIN)/python
	$(BIN)/pip install -q -e .

setup-test: $(BIN)/python
	$(BIN)/pip install -q -e '.[test,train]'

# Debian's packages some tests use for real, installed when run as root (their tests skip when
# absent): chromium for the browser tests (never `playwright install`), espeak-ng for speech,
# mosquitto (the broker, with mosquitto_passwd) for club night.
DEBIAN_PACKAGES := chromium espeak-ng mosquitto
debian:
	@missing=""; for p in $(DEBIAN_PACKAGES); do command -v $$p >/dev/null || [ -x /usr/sbin/$$p ] || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $$missing >/dev/null || echo "could not install$$missing: their tests will skip"; \
	else echo "not installed:$$missing (run as root to install them): their tests will skip"; fi

demo: setup
	$(BIN)/companion demo

test: setup-test debian
	$(BIN)/python -m pytest
