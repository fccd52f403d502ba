# Two commands for a newcomer:  make demo   and   make test
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test setup setup-test debian fonts

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

# More fonts to print synthetic decks' numbers in (`data crops/cards --fonts`, `bench --font-names`;
# nothing at run time needs them): sans, rounded, condensed, geometric and serif cuts, the way
# off-brand decks print. The shipped weights were taught DejaVu, STIX and Computer Modern only
# (models/ablation.md: teaching these gained nothing measured). Liberation (fonts-liberation) is
# held out for the benchmark, and so are the fonts drawn like its three (Nimbus Sans, Nimbus
# Roman, Nimbus Mono PS, FreeSans, FreeSerif, FreeMono).
FONT_PACKAGES := fonts-lato fonts-roboto-unhinted fonts-open-sans fonts-cabin fonts-comic-neue fonts-dosis \
	fonts-bebas-neue fonts-league-spartan fonts-clear-sans fonts-karla fonts-beteckna fonts-comfortaa \
	fonts-cantarell fonts-inter fonts-junction fonts-jura fonts-eurofurence fonts-averia-sans-gwf \
	fonts-crosextra-carlito fonts-urw-base35
fonts:
	apt-get update -qq && apt-get install -y -qq $(FONT_PACKAGES) >/dev/null

demo: setup
	$(BIN)/companion demo

test: setup-test debian
	$(BIN)/python -m pytest
