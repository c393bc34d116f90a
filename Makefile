# Every target that runs code depends on the venv stamp, so on a fresh machine
# `make run` or `make test` alone creates .venv and installs the project.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The project is installed editable, so pip does not byte-compile it as it does the packages it
# installs; where PYTHONDONTWRITEBYTECODE is set (as on this machine) every command would then
# compile sim/, policies/ and experiments/ from source on each start (a tenth of a short
# `simulate`). Python still reads bytecode it finds, and ignores it once a source is newer.
BYTECODE := $(BIN)/python -m compileall -q sim policies experiments

.PHONY: setup run test test-slow lint bench sweep calibrate report strength scale notebook play explore browser clean mutants
CONFIG ?= experiments/configs/gauge-by-players.toml

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,play,tune]'
	$(BYTECODE)
	touch $(STAMP)

# The set-up `make run` and `make test` share: install, then compile every policy's kernels into
# numba's cache (one process per core; seconds when nothing changed), so commands start warm.
setup: $(STAMP)
	$(BYTECODE)
	$(BIN)/island-escape compile

# The main job: the worked example, then the difficulty study (minutes on 2 cores once compiled).
run: setup
	$(BIN)/island-escape replay examples/worked-example.json
	$(BIN)/island-escape report

sweep: $(STAMP)
	$(BIN)/island-escape sweep $(CONFIG) --resume

calibrate: $(STAMP)
	$(BIN)/island-escape calibrate

report: $(STAMP)
	$(BIN)/island-escape report

# Each game's search at doubling budgets (reports/strength.md; ARGS="--minutes 10" etc.)
strength: $(STAMP)
	$(BIN)/island-escape strength $(ARGS)

# Every point of the strength scale on Forbidden Island's printed levels (reports/scale.md)
scale: $(STAMP)
	$(BIN)/island-escape scale $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

# The play page's browser test drives Chromium from Debian's packages (browser builds cannot be
# downloaded here); as root we install it when it is missing.
browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	  else echo "make: the browser test needs the packages chromium and chromium-driver (apt-get install as root)"; exit 1; fi; \
	fi

# One pytest worker per core (pytest-xdist), a test file's tests kept on one worker so that its
# module fixtures are built once: the suite is mostly single-threaded compiling and playing.
test: setup lint browser
	$(BIN)/python -m pytest -q -n auto --dist loadfile --durations=15

# A game in the browser: island-escape play with its defaults (ARGS="--players 3 --level hard" etc.)
play: $(STAMP)
	$(BIN)/island-escape play $(ARGS)

# The balance explorer in the browser: island-escape explore (ARGS="--game forbidden-island" etc.)
explore: $(STAMP)
	$(BIN)/island-escape explore $(ARGS)

# Then each game's strong players (expert, tuned, lookahead@1/2/4) on its two strength settings:
# win rate and games per CPU-second (tools/ab_speed.py --players). OLD=PATH (a worktree of an
# earlier version, with its own .venv or a link to one) plays both versions alternately there and
# also every game's random, expert and lookahead.
bench: $(STAMP)
	$(BYTECODE)
	$(BIN)/island-escape bench --out reports/bench.json
	$(BIN)/python tools/ab_speed.py --players $(if $(OLD),$(OLD) .,.)
	@if [ -n "$(OLD)" ]; then $(BIN)/python tools/ab_speed.py $(OLD) . --only \
	  ie:random,ie:expert,ie:lookahead,fi:random,fi:expert,fi:lookahead,sti:random,sti:expert,sti:lookahead; fi

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist loadfile -m slow

# Realistic kernel bugs, each of which `make test` must catch (tests/mutants.py; under a minute a mutant).
mutants: $(STAMP)
	$(BIN)/python tests/mutants.py

notebook: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,notebook]'
	$(BIN)/jupyter lab notebooks/loss_causes.ipynb

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
