# paybridge: `make demo` starts the sandbox, `make test` runs every test.
# Both install what is missing first (.ci/setup), idempotently.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
BIN := tests/node_modules/.bin
WASM := target/wasm32-unknown-unknown/release/paybridge.wasm
WASM_FEATURES := --enable-bulk-memory --enable-reference-types --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-multivalue --enable-mutable-globals
PORT ?= 8080

.PHONY: all setup setup-browser pkg test test-host test-node test-wasm test-browser lint size demo bench fuzz clean

all: pkg

setup:
	@.ci/setup

setup-browser:
	@.ci/setup browser

## The npm package in pkg/: one .wasm, wasm-bindgen's bundler glue, and the
## entries of www/lib (browser, Node, mini-program).
pkg: setup
	cargo build --lib --release --target wasm32-unknown-unknown
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
	cargo clippy --lib --target wasm32-unknown-unknown -- -D warnings

test-host:
	cargo test

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

## The sandbox on http://127.0.0.1:$(PORT): www/, pkg/, the merchant server,
## simulated wallets and the authentication API. Ctrl-C stops it.
demo: pkg
	cargo run --release --features sandbox --bin sandbox -- --port $(PORT)

clean:
	rm -rf pkg target/bindgen
