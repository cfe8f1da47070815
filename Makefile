# Everything runs from the checkout with PYTHONPATH=src: nothing to install.
PYTHON ?= python3
GAMES ?= 150000
WEIGHTS ?= ttt_nn.bin
RUN = PYTHONPATH=src $(PYTHON)
# Interpreters for test-all: 3.9 is the oldest supported Python.
INTERPRETERS ?= python3.9 python3.10 python3.11 python3.12 python3.13 pypy3

.PHONY: test test-all net train play eval rl bench curve clean

test:
	$(RUN) -m unittest discover -s tests -t . $(TESTFLAGS)

# The suite on every interpreter that is present, on PATH or under pyenv;
# missing ones are skipped.
PYENV_ROOT ?= $(HOME)/.pyenv
test-all:
	@status=0; for name in $(INTERPRETERS); do \
	  py=""; \
	  for cand in $$name $(PYENV_ROOT)/versions/*/bin/$$name; do \
	    if $$cand -c "import sys" >/dev/null 2>&1; then py=$$cand; break; fi; \
	  done; \
	  if [ -z "$$py" ]; then echo "== $$name: not found, skipped"; continue; fi; \
	  echo "== $$name: $$py, $$($$py --version 2>&1 | head -n 1)"; \
	  PYTHONPATH=src $$py -m unittest discover -s tests -t . || status=1; \
	done; exit $$status

# The Quick start: 4 runs of 20,000 games in parallel, the best saved
# (about 15 s on 2 cores; unbeatable in 20 of 20 measured tries).
net:
	$(RUN) -m ttt_rl.train 20000 $(WEIGHTS) --runs 4

train:
	$(RUN) -m ttt_rl.train $(GAMES) $(WEIGHTS)

play:
	$(RUN) -m ttt_rl.play $(WEIGHTS)

eval:
	$(RUN) -m ttt_rl.lab.ttt_eval $(WEIGHTS)

# The original program in one command: train, then play (and keep learning).
rl:
	$(RUN) -m ttt_rl $(GAMES)

# The chart in the README: 8 runs of 50000 games, the best one saved, with
# the curves from game 0 and the saved run's heat maps.
curve:
	$(RUN) -m ttt_rl.train 50000 docs/best_of_8.bin --runs 8 --seed 1 --curve docs/curve.svg
	rm -f docs/best_of_8.bin

bench:
	$(RUN) bench/train_speed.py

# Removes build and cache files; trained weights are kept on purpose.
clean:
	rm -rf build dist src/*.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
