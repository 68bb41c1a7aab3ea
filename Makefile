# The README's commands. `make build` builds the default benchmark offline; `make test` runs the tests.
# `make local-llm` serves a small real model (SmolLM2-135M) at http://127.0.0.1:8089/v1; the tests need it installed.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
OUT ?= output/benchmark
LLM_PORT ?= 8089

.PHONY: install build test lint bench clean local-llm local-llm-install

$(BIN)/dragonforge: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip uv
	# --compile-bytecode: every command starts from .pyc files even where PYTHONDONTWRITEBYTECODE
	# is set (otherwise each run recompiles Prefect's sources: about 4 s per command).
	$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -e '.[dev]'
	# rouge-chinese also ships a copy of the `rouge` package that overwrites the real one when it
	# lands second; reinstall `rouge` so English ROUGE-L in --compat rageval is the real package's.
	$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python --reinstall --no-deps 'rouge==1.0.1'
	touch $@

install: $(BIN)/dragonforge

build: install
	$(BIN)/dragonforge build --out $(OUT)
	$(BIN)/dragonforge validate $(OUT)

# One pytest worker per core (pytest-xdist). Tests that share a session resource (the local model
# server, a Prefect server) run on one worker; the rest are spread by module (tests/conftest.py).
# PYTEST_WORKERS=0 runs the suite in one process.
PYTEST_WORKERS ?= auto

test: install local-llm-install lint
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup

# ruff and mypy on the library and the flows (pyproject.toml [tool.ruff], [tool.mypy]); part of `make test`
lint: install
	$(BIN)/ruff check dragonforge flows
	$(BIN)/mypy

# llama-cpp-python[server] (built once per machine into ~/.cache/dragonforge/wheels) and the GGUF model
local-llm-install: install
	$(BIN)/python scripts/local_llm.py install
	$(BIN)/python scripts/local_llm.py model

local-llm: local-llm-install
	$(BIN)/python scripts/local_llm.py serve --port $(LLM_PORT)

# bench/results/: build.json, cli.json, eval.json (add REFERENCE=.../rageval/evaluation REFERENCE_PYTHON=...
# to time RAGEval's own scripts side by side), llm.json (bench/llm_bench.py)
bench: install
	$(BIN)/python bench/build_bench.py
	$(BIN)/python bench/cli_bench.py
	$(BIN)/python bench/eval_bench.py $(if $(REFERENCE),--reference $(REFERENCE) --python $(REFERENCE_PYTHON))

clean:
	rm -rf output/ .prefect/ .pytest_cache/
