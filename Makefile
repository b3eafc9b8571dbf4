# Two-command quick start: `make chart` (the default variant's bid chart) and `make test`.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

VARIANTS := thousand modern-15 modern classic classic-pass4
CHART_DEALS ?= 500000
RESULTS_DEALS ?= 1000000

.PHONY: install test chart results odds bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest

chart: $(STAMP)
	$(BIN)/pinochle-sim bid-chart --variant thousand --deals $(CHART_DEALS) --seed 1 --out results/thousand

results: $(STAMP)
	for v in $(VARIANTS); do \
	  $(BIN)/pinochle-sim bid-chart --variant $$v --deals $(RESULTS_DEALS) --seed 1 --out results/$$v || exit 1; \
	done
	$(BIN)/pinochle-sim odds --variant classic --deals 2000000 --seed 1 -q --out results/odds_classic.json > /dev/null

odds: $(STAMP)
	$(BIN)/pinochle-sim odds --variant classic --deals 2000000 --seed 1 --out results/odds_classic.json

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) build *.egg-info
