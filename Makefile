# paybridge: `make demo` starts the sandbox, `make test` runs every test.
# Both install what is missing first (.ci/setup), idempotently.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
BIN := tests/node_modules/.bin
WASM := target/wasm32-unknown-unknown/release/paybridge.wasm
WASM_FEATURES := --enable-bulk-memory --enable-reference-types --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-multivalue --enable-mutable-globals
PORT ?= 8080

.PHONY: all setup setup-browser setup-fuzz pkg test test-host test-node test-wasm test-browser lint size demo bench fuzz fuzz-smoke clean

all: pkg

setup:
	@.ci/setup

setup-browser:
	@.ci/setup browser

setup-fuzz:
	@.ci/setup fuzz

## The npm package in pkg/: one .wasm, wasm-bindgen's bundler glue, and the
## entries of www/lib (browser, Node, mini-program).
pkg: setup
	cargo build --lib --release --target wasm32-unknown-unknown --features wasm-runtime
	rm -rf target/bindgen && wasm-bindgen --target bundler --no-typescript --out-dir target/bindgen $(WASM)
	rm -rf pkg && mkdir -p pkg
	$(BIN)/wasm-opt -Oz $(WASM_FEATURES) --strip-debug --strip-producers \
	  target/bindgen/paybridge_bg.wasm -o pkg/paybridge_bg.wasm
	cp target/bindgen/paybridge_bg.js pkg/
	cp www/lib/index.js www/lib/node.js www/lib/shared.js www/lib/api.js www/lib/index.d.ts \
	  www/lib/package.json www/lib/README.md pkg/
	ln -sfn ../../pkg tests/node_modules/paybridge
	@echo "pkg/ built"

lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --features sandbox -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features wasm-runtime -- -D warnings

test-host:
	cargo test --features sandbox

test-node: pkg
	node --test tests/node/

test-wasm: pkg setup-browser
	CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 \
	  cargo test --target wasm32-unknown-unknown --test web

test-browser: pkg setup-browser
	node --test --test-concurrency=1 tests/browser/

test: setup lint test-host test-node test-wasm test-browser size
	@echo "all tests passed"

## Gzipped (-9) sizes of what a page downloads.
size: pkg
	@node tests/tools/size.mjs

demo: pkg
	@echo "the sandbox arrives with its own issue; pkg/ is built and www/ is served by it"

## Coverage-guided fuzzing (nightly + cargo-fuzz; tests/fuzz/): every target
## for FUZZ_SECONDS each; `fuzz-smoke` is the short run. A crash fails the
## run and leaves its input in tests/fuzz/artifacts/<target>/; saved crashes
## (tests/fuzz/regressions/) run in `make test` through tests/fuzz_regressions.rs.
## The smoke is not part of `make test`: its runs take about 90 s, but
## building the instrumented targets from a clean tree takes about 4 minutes
## more on a 2-core machine.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 10

fuzz: setup setup-fuzz
	tests/fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke: setup setup-fuzz
	tests/fuzz/run.sh $(FUZZ_SMOKE_SECONDS)

clean:
	rm -rf pkg target/bindgen
