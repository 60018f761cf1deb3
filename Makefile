# The developer interface. Every target creates .venv itself and is safe to run again.
#   make run     build everything (release) and run the default simulation, printing a summary
#   make test    check format and lints, then build and run every test (Rust and Python)
#   make lint    cargo fmt --check, cargo clippy -D warnings, ruff format --check and ruff check
#   make format  apply cargo fmt and ruff format
#   make bench   throughput and memory benchmarks (scenarios a, b, c, o, d, m; about 5 minutes)
#   make build   build the Python package with its native extension into .venv

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.deps-installed
PY_DEPS := maturin "typer>=0.12,<0.28" rich numpy pytest hypothesis polars pyarrow matplotlib jinja2 "dask[distributed]" "ruff>=0.15,<0.18"
NATIVE_SOURCES := $(shell find crates -name '*.rs' -o -name Cargo.toml) Cargo.toml Cargo.lock $(wildcard configs/*.toml configs/ecc/*.toml)
NATIVE_STAMP := $(VENV)/.native-built

.PHONY: run test lint format test-rust test-python bench build clean

# The Makefile is a prerequisite: a dependency added to PY_DEPS reaches existing .venv folders.
$(STAMP): Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet $(PY_DEPS)
	touch $(STAMP)

# maturin develop installs the package in editable mode: python/ssdlab is used in place and the
# native module is rebuilt only when Rust sources or presets change.
# The stamp takes the time the build started, so a source edited during the build is newer than it
# and the next `make build` rebuilds.
$(NATIVE_STAMP): $(STAMP) $(NATIVE_SOURCES) pyproject.toml
	touch $(NATIVE_STAMP).started
	VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(BIN)):$$PATH $(BIN)/maturin develop --release --quiet
	mv $(NATIVE_STAMP).started $(NATIVE_STAMP)

build: $(NATIVE_STAMP)

run: build
	$(BIN)/ssdlab run default

# Building the test binaries takes minutes on 2 cores the first time: cargo shows what it compiles,
# then the tests run quietly. They build in the `test-release` profile (Cargo.toml): optimised, but
# without the fat LTO of the extension `make build` makes, which would take most of the time.
test-rust:
	@echo "building Rust test binaries (several minutes on a fresh checkout; cargo prints each crate)"
	cargo test --workspace --profile test-release --no-run
	cargo test --workspace --profile test-release --quiet

test-python: build
	$(BIN)/pytest

# Lints run first: a formatting slip fails in seconds, not after the test suite.
lint: $(STAMP)
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets --release --quiet -- -D warnings
	$(BIN)/ruff format --check python tests bench
	$(BIN)/ruff check python tests bench

format: $(STAMP)
	cargo fmt --all
	$(BIN)/ruff format python tests bench

test: lint test-rust test-python

bench: build
	$(BIN)/ssdlab bench

clean:
	rm -rf $(VENV) target
