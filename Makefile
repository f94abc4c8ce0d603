# paybridge: `make demo` starts the sandbox, `make test` runs every test.
# Both install what is missing first (.ci/setup), idempotently.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
BIN := tests/node_modules/.bin
WASM ?= $(or $(CARGO_TARGET_DIR),target)/wasm32-unknown-unknown/release/paybridge.wasm
WASM_FEATURES := --enable-bulk-memory --enable-reference-types --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-multivalue --enable-mutable-globals
PORT ?= 8080

.PHONY: all setup setup-browser pkg test test-host test-node test-wasm test-browser lint size demo bench fuzz clean

all: pkg

setup:
	@.ci/setup

setup-browser:
	@.ci/setup browser

## The npm package in pkg/: two modules built from the crate (the payment
## module, and the full module with the authorization and verification
## exports), wasm-bindgen's bundler glue for each, and the entries of
## www/lib (browser, Node, mini-program).
pkg: setup
	cargo build --lib --release --target wasm32-unknown-unknown --features wasm-runtime
	mkdir -p target/bindgen && cp $(WASM) target/bindgen/pay.wasm
	cargo build --lib --release --target wasm32-unknown-unknown --features wasm-runtime,web-extra
	cp $(WASM) target/bindgen/full.wasm
	wasm-bindgen --target bundler --no-typescript --out-dir target/bindgen --out-name paybridge target/bindgen/pay.wasm
	wasm-bindgen --target bundler --no-typescript --out-dir target/bindgen --out-name paybridge_full target/bindgen/full.wasm
	rm -rf pkg && mkdir -p pkg
	for m in paybridge paybridge_full; do \
	  $(BIN)/wasm-opt -Oz $(WASM_FEATURES) --strip-debug --strip-producers \
	    target/bindgen/$${m}_bg.wasm -o pkg/$${m}_bg.wasm; \
	  cp target/bindgen/$${m}_bg.js pkg/; \
	done
	cp www/lib/index.js www/lib/node.js www/lib/shared.js www/lib/api.js www/lib/index.d.ts \
	  www/lib/package.json www/lib/README.md pkg/
	ln -sfn ../../pkg tests/node_modules/paybridge
	@echo "pkg/ built"

lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --all-targets --features sandbox -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features wasm-runtime -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features wasm-runtime,web-extra -- -D warnings

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

clean:
	rm -rf pkg target/bindgen
