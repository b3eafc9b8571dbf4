# Two-command quick start: `make chart` (the default variant's bid chart) and `make test`.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
BASE := $(VENV)/.base
STAMP := $(VENV)/.installed

VARIANTS := thousand modern-15 modern classic classic-pass4 three-hand double-deck
# the four-hand games: calibrated against a side bidding by tricks and under the sampling player
FOUR_HAND := thousand modern-15 modern classic classic-pass4 double-deck
CHART_DEALS ?= 500000
RESULTS_DEALS ?= 1000000
PIMC_DEALS ?= 8000
PIMC_CALIBRATION_DEALS ?= 20000

.PHONY: install test lint chart results docs bidding notebooks lab odds bench clean

# The venv starts without pip (ensurepip takes seconds): the system's pip puts uv into it, and uv
# installs the wheels in parallel, several times faster than pip from a fresh clone (CHANGELOG has
# the times); where that fails, the venv gets pip and pip does the same install. compileall then
# writes the .pyc files on every core (the tests' many processes need them: PYTHONDONTWRITEBYTECODE
# would otherwise recompile on every start). `make chart` (one process, which compiles what it
# imports itself) leaves that to a background run on the core that numba's compiler leaves idle.
COMPILE := $(BIN)/python -m compileall -q -j 0 $(VENV)/lib > /dev/null || true
COMPILE_BEHIND := (nice -n 19 $(BIN)/python -m compileall -q -j 1 $(VENV)/lib > /dev/null 2>&1 &)
define pip_install
	{ { test -x $(BIN)/uv || $(PY) -m pip --python $(BIN)/python install -q uv; } \
	  && $(BIN)/uv pip install -q --python $(BIN)/python -e $(1); } \
	  || { $(BIN)/python -m ensurepip > /dev/null && $(BIN)/python -m pip install -q --no-compile -e $(1); }
endef
define install
	test -x $(BIN)/python || $(PY) -m venv --without-pip $(VENV)
	$(call pip_install,$(1))
	$(2)
endef

# The package and what it runs on (all `make chart` needs) ...
$(BASE): pyproject.toml
	$(call install,.,$(COMPILE_BEHIND))
	touch $(BASE)

# ... and what the tests and notebooks need besides (one pip run from a fresh clone).
$(STAMP): pyproject.toml
	$(call install,'.[dev]',$(COMPILE))
	touch $(BASE) $(STAMP)

install: $(STAMP)

# Two workers (one per core: compiling and the notebooks' kernels are single-threaded);
# --durations: the slowest tests, so that the next slow one is seen.
test: $(STAMP) lint
	$(BIN)/python -m pytest -n 2 --durations=15

lint: $(STAMP)
	$(BIN)/ruff check pinochle_sim scripts tests

# Into a folder of its own: results/thousand is `make results`' chart (1,000,000 deals), which the
# docs quote and their test checks.
chart: $(BASE)
	$(BIN)/pinochle-sim bid-chart --variant thousand --deals $(CHART_DEALS) --seed 1 --out results/quickstart

results: $(BASE)
	for v in $(VARIANTS); do \
	  $(BIN)/pinochle-sim bid-chart --variant $$v --deals $(RESULTS_DEALS) --seed 1 --auction-model \
	    --out results/$$v || exit 1; \
	done
	for v in $(VARIANTS); do \
	  $(BIN)/pinochle-sim bid-chart --variant $$v --policy pimc --deals $(PIMC_DEALS) --seed 1 -q --out results/$$v > /dev/null || exit 1; \
	done
	$(BIN)/pinochle-sim odds --variant classic --deals 2000000 --seed 1 -q --out results/odds_classic.json > /dev/null
	$(BIN)/pinochle-sim odds --variant three-hand --deals 2000000 --seed 1 -q --out results/odds_three-hand.json \
	  > results/odds_three-hand.txt
	$(BIN)/pinochle-sim odds --variant three-hand --with-kitty --deals 2000000 --seed 1 -q \
	  --out results/odds_three-hand_kitty.json > results/odds_three-hand_kitty.txt
	$(BIN)/pinochle-sim odds --variant double-deck --deals 2000000 --seed 1 -q --out results/odds_double-deck.json \
	  > results/odds_double-deck.txt
	$(BIN)/pinochle-sim advise "9S AH TH JH 9H JH 9H AD TD AC TC JC" --variant thousand --deals 4000 --seed 1 \
	  --plot results/advisor_example.png > /dev/null
	$(BIN)/pinochle-sim compare thousand modern-15 modern classic classic-pass4 --deals 200000 --seed 1 -q \
	  --csv results/compare_seed_variants.csv --plot results/compare_seed_variants.png > results/compare_seed_variants.txt
	$(BIN)/pinochle-sim compare classic classic:must_trump=false classic:must_head=false \
	  classic:must_overtrump=false classic:first_lead=dealer_left classic:pass_cards=3 classic:pass_cards=4 \
	  classic:card_points=11/10/4/3/2/0 --deals 200000 --seed 1 -q \
	  --csv results/compare_classic_options.csv --plot results/compare_classic_options.png > results/compare_classic_options.txt
	for v in classic thousand classic-pass4; do \
	  $(BIN)/pinochle-sim tournament --variant $$v --strategies value auction table cautious aggressive formula \
	    meld+20 tricks --matches 20000 --seed 1 -q --csv results/tournament_$$v.csv > results/tournament_$$v.txt || exit 1; \
	done
	$(BIN)/pinochle-sim compare three-hand three-hand:discard_counts=false three-hand:required_tricks=0 \
	  three-hand:short_voids_others=false three-hand:stuck_bid=20 three-hand:must_head=false \
	  --deals 200000 --seed 1 -q --csv results/compare_three-hand_options.csv \
	  --plot results/compare_three-hand_options.png > results/compare_three-hand_options.txt
	$(BIN)/pinochle-sim tournament --variant three-hand --strategies value auction:conf=0.5 auction aggressive formula tricks \
	  --matches 5000 --seed 1 -q --csv results/tournament_three-hand.csv > results/tournament_three-hand.txt
	$(BIN)/pinochle-sim compare double-deck double-deck:pass_cards=0 double-deck:pass_cards=3 double-deck:must_head=false \
	  double-deck:aces_around=10/100/150/1000 double-deck:pinochle=4/30/90/300 --deals 200000 --seed 1 -q \
	  --csv results/compare_double-deck_options.csv --plot results/compare_double-deck_options.png \
	  > results/compare_double-deck_options.txt
	$(BIN)/pinochle-sim tournament --variant double-deck --strategies value auction table cautious aggressive formula \
	  meld+20 tricks --matches 2000 --seed 1 -q --csv results/tournament_double-deck.csv > results/tournament_double-deck.txt
	for v in $(VARIANTS); do \
	  $(BIN)/pinochle-sim calibrate --variant $$v --deals 200000 --seed 11 \
	    --csv results/calibration_$$v.csv --plot results/calibration_$$v.png > results/calibration_$$v.txt || exit 1; \
	done
	for v in $(FOUR_HAND); do \
	  $(BIN)/pinochle-sim calibrate --variant $$v --deals 200000 --seed 11 --against tricks \
	    --csv results/calibration_$${v}_against-tricks.csv > results/calibration_$${v}_against-tricks.txt || exit 1; \
	  $(BIN)/pinochle-sim calibrate --variant $$v --deals $(PIMC_CALIBRATION_DEALS) --seed 11 --policy pimc \
	    --csv results/calibration_$${v}_pimc.csv > results/calibration_$${v}_pimc.txt || exit 1; \
	done
	$(BIN)/python scripts/play_strength.py --deals 2000 > /dev/null
	$(BIN)/python scripts/run_notebooks.py
	$(MAKE) docs

# Every figure the README and docs/ quote, rendered from the result files that hold it (a test
# checks that nothing differs; on a clean checkout this leaves `git status` clean).
docs: $(BASE)
	$(BIN)/python scripts/render_bidding.py
	$(BIN)/python scripts/render_docs.py

# The default bidding's weights, searched afresh in every preset (about an hour; then `make results`).
bidding: $(BASE)
	$(BIN)/python scripts/tune_bidding.py

notebooks: $(STAMP)
	$(BIN)/python scripts/run_notebooks.py

# JupyterLab on the notebooks (installs it into .venv the first time).
lab: $(STAMP)
	$(call pip_install,'.[dev,notebooks]')
	$(BIN)/jupyter lab notebooks/

odds: $(BASE)
	$(BIN)/pinochle-sim odds --variant classic --deals 2000000 --seed 1 --out results/odds_classic.json

bench: $(BASE)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) build *.egg-info
