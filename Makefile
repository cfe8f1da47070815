# Everything runs from the checkout with PYTHONPATH=src: nothing to install.
PYTHON ?= python3
GAMES ?= 150000
WEIGHTS ?= ttt_nn.bin
RUN = PYTHONPATH=src $(PYTHON)
# Interpreters for test-all: 3.9 is the oldest supported Python.
INTERPRETERS ?= python3.9 python3.10 python3.11 python3.12 python3.13 pypy3

.PHONY: test test-all net qnet c4 train play eval rl web bench curve clean

# The suite in one process per core, each a group of test modules of about
# equal time (tests/parallel.py); the same tests run in one process with:
# python3 -m unittest discover -s tests -t .
test:
	$(RUN) -m tests.parallel $(TESTFLAGS)

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

# The Quick start: a complete player, both sides, by policy iteration (it
# stops by itself at the stable policy; README, "Four ways to learn").
net:
	$(RUN) -m ttt_rl.train 200 $(WEIGHTS) --method policy-iteration

# Q-learning's documented run (docs/measurements.md, "Two learning rules").
qnet:
	$(RUN) -m ttt_rl.train 200000 $(WEIGHTS) --method q-learning

# Connect four, the C README's first question: expert iteration, as the README's table
# (README, "Connect four: the C's first question"); then `make play WEIGHTS=c4_nn.bin`.
c4:
	$(RUN) -m ttt_rl.train 2600 c4_nn.bin --game connect4 --method expert-iteration

train:
	$(RUN) -m ttt_rl.train $(GAMES) $(WEIGHTS)

play:
	$(RUN) -m ttt_rl.play $(WEIGHTS)

eval:
	$(RUN) -m ttt_rl.lab.ttt_eval $(WEIGHTS)

# The original program in one command: train, then play (and keep learning).
rl:
	$(RUN) -m ttt_rl $(GAMES)

# Play and train in the browser: prints a local address to open.
web:
	$(RUN) -m ttt_rl.web $(WEIGHTS)

# The picture in the README: the C's rule and Q-learning, 200,000 games each
# on seed 1, side by side, in two processes, each saying how far it is every
# 10 s. With PYTHON=pypy3 on a 2-core VM: 15 s quiet (version 1.3), 53 s under
# nice while other work ran (1.6, load 3 to 4); CPython takes several times longer.
curve:
	$(RUN) bench/curve.py 200000 docs/curve.svg --seed 1

bench:
	$(RUN) bench/train_speed.py

# Removes build and cache files; trained weights are kept on purpose.
clean:
	rm -rf build dist src/*.egg-info .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
