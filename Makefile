# The README's commands. `make build` builds the default benchmark offline; `make test` runs the tests.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
OUT ?= output/benchmark

.PHONY: install build test bench clean

$(BIN)/dragonforge: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip uv
	$(BIN)/uv pip install -q --python $(BIN)/python -e '.[dev]'
	touch $@

install: $(BIN)/dragonforge

build: install
	$(BIN)/dragonforge build --out $(OUT)
	$(BIN)/dragonforge validate $(OUT)

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/build_bench.py

clean:
	rm -rf output/ .prefect/ .pytest_cache/
