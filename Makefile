# paybridge: `make demo` starts the sandbox, `make test` runs every test.
# Both install what is missing first (.ci/setup), idempotently.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
BIN := tests/node_modules/.bin
CARGO_TARGET_DIR ?= target
export CARGO_TARGET_DIR
WASM ?= $(CARGO_TARGET_DIR)/wasm32-unknown-unknown/wasm/paybridge.wasm
WASM_FULL ?= $(CARGO_TARGET_DIR)/wasm32-unknown-unknown/wasm-full/paybridge.wasm
# Source paths the standard library and the dependencies leave in the
# .wasm (panic locations) are written short and machine-independent:
# no builder's home directory in the published files. With STD_FLAGS'
# -Zlocation-detail=none no path is left to write (none of the four
# builds holds one without REMAP); it is for a build without those flags
# (`make pkg BUILD_STD= STD_FLAGS= STD_ARGS=`).
CARGO_HOME_DIR := $(or $(CARGO_HOME),$(HOME)/.cargo)
REMAP := --remap-path-prefix=$(shell rustc --print sysroot)/lib/rustlib/src/rust=/rustc \
  $(foreach d,$(wildcard $(CARGO_HOME_DIR)/registry/src/*),--remap-path-prefix=$(d)=/crates)
# The wasm builds compile core and alloc from the toolchain's rust-src
# (.ci/setup adds it) with panics that abort at once, which leaves no
# panic messages, locations or formatting code in the .wasm
# (tests/bench/README.md). What still takes a caller's location
# (wasm-bindgen's unwrap_throw, a bounds check the optimizer keeps) gets
# none either: no source path or line in the published files, and fewer
# bytes. The MIR inliner's two options
# are the same kind (INLINE, below, says what they buy). These are
# unstable options of the stable toolchain rustup runs (no version is
# pinned: no rust-toolchain file), enabled by RUSTC_BOOTSTRAP for these
# builds only; the host builds and tests use the standard toolchain as it
# is.
BUILD_STD := RUSTC_BOOTSTRAP=1
STD_FLAGS := -Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none \
  -Zinline-mir=yes -Zcross-crate-inline-threshold=always
STD_ARGS := -Zbuild-std=core,alloc
# The .wasm builds: profile wasm (wasm-full for the full module), without
# reference types (why: Cargo.toml, profile wasm). `cargo rustc
# --crate-type cdylib` builds the library as a cdylib alone: with the rlib
# beside it (Cargo.toml's crate-type) cargo passes no -C lto, and the
# profile's `lto = true` would not apply.
WASM_BUILD = $(BUILD_STD) RUSTFLAGS="-C target-feature=-reference-types $(STD_FLAGS) $(STACK) $(REMAP) $(INLINE)" \
  cargo rustc --lib --crate-type cdylib --profile $(WASM_PROFILE) --target wasm32-unknown-unknown $(STD_ARGS)
WASM_PROFILE := wasm
# How much is inlined, set below (after BG) for each build. LLVM inlines
# a call when it costs less than --inline-threshold (opt-level "z" sets
# 5). rustc's MIR inliner runs first (-Zinline-mir: on in release builds
# at opt-level 2 and 3, off at "z" unless asked for), and with
# -Zcross-crate-inline-threshold=always it may inline any function of
# another crate (core, alloc, wasm-bindgen), not only the small ones and
# those marked #[inline] (both in STD_FLAGS). The payment and mini-program
# builds take both MIR options and LLVM 28, the smallest
# payment module measured (gzip -9 of the .wasm; smaller than under
# LLVM's best threshold alone; 26 to 30 give the same module, 20 and 32
# or more a larger one; tests/bench/README.md). The full module keeps
# LLVM 9, its smallest (5, 15 and 28 each give a larger one), and is
# built in a profile of its own (Cargo.toml, profile wasm-full) so that
# no build undoes another's standard library. The wasm2js build takes
# neither MIR option and LLVM 0: its translation is the smallest so
# (tests/bench/README.md), a wallet1 page's bytes being raw JavaScript.
INLINE :=
MIR_INLINE := -Zinline-mir=yes -Zcross-crate-inline-threshold=always
# The stack of every .wasm build: 64 KiB, not the linker's 1 MiB. rustc's
# wasm target puts the stack first in memory (an overflow runs below
# address 0 and traps, it cannot reach the data) and the data after it,
# which the code reads at constant addresses: under 1 MiB each is a byte
# shorter in the .wasm (LEB128 of 3 bytes, not 4) and 5 digits in the
# wasm2js translation, not 7; each module's memory also starts 960 KiB
# smaller. The deepest inputs (the plan vectors, the hostile corpus,
# nesting at the depth limit) use a small part of it (tests/bench/README.md).
STACK := -Clink-arg=-zstack-size=65536
# The build wasm2js translates (see Cargo.toml, profile wasm2js).
WASM_JS ?= $(CARGO_TARGET_DIR)/wasm32-unknown-unknown/wasm2js/paybridge.wasm
WASM_FEATURES := --enable-bulk-memory --enable-reference-types --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-multivalue --enable-mutable-globals
# What rustc's standard library still uses under target-cpu=mvp, lowered
# away before wasm2js. Not memory.copy and memory.fill: the wasm2js build
# asks for them (+bulk-memory, below), and wasm2js writes them as the
# typed array's copyWithin() and fill(), native where the standard
# library's memcpy, memmove and memset were loops translated to JavaScript
# (fewer bytes, and faster without a JIT; tests/bench/README.md).
LOWER := --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals \
  --signext-lowering --llvm-nontrapping-fptoint-lowering
ESBUILD := $(BIN)/esbuild --bundle --platform=neutral --target=es2017 --minify --log-level=warning
# terser with its safe defaults, two passes, after esbuild's minifying:
# the browser entry, the full module's glue and the mini-program bundles
# each smaller gzipped (tests/bench/README.md). Not
# on the CommonJS file for Node (miniprogram.cjs), whose export
# annotation for Node's loader looks like dead code.
TERSER := $(BIN)/terser --compress passes=2 --mangle
BG := target/bindgen
BG_JS := target/bindgen-js
STAGE := target/miniprogram
SHORT := $(BG)/short
PORT ?= 8080

.PHONY: all setup setup-browser setup-fuzz pkg pkg-files pack sandbox-bin test test-host test-node test-wasm test-browser test-examples lint lint-pkg size demo bench fuzz fuzz-smoke test-fuzz clean

all: pkg

setup:
	@.ci/setup

setup-browser:
	@.ci/setup browser

setup-fuzz:
	@.ci/setup fuzz

## The npm package in pkg/, from four builds of the crate: the payment
## module (`pay` alone: what pay() loads in a browser), the mini-program
## module (adds planning, detection and the mini-program helpers), the full
## module (adds the authorization and verification exports; Node's, and
## what ready() adds in a browser), and the mini-program module translated
## to JavaScript by wasm2js for runtimes with no WebAssembly.
pkg: setup $(BG)/pay.stamp $(BG)/full.stamp $(BG)/mini.stamp $(BG)/wasm2js.stamp
	@test -f pkg/package.json || rm -f $(BG)/pkg.stamp
	@$(MAKE) --no-print-directory pkg-files
	@ln -sfn ../../pkg tests/node_modules/paybridge

# Each cargo build runs only when the crate's sources changed since it last
# ran (the stamp), and its .wasm is copied on only when it differs, so that
# a `make pkg` with nothing changed runs no compiler, optimizer or bundler
# (the three .wasm builds share one output file: cargo alone would relink
# each of them every time).
CRATE_SRC := $(shell find src -type f) Cargo.toml Cargo.lock Makefile

$(BG)/pay.stamp $(BG)/mini.stamp: INLINE := -Cllvm-args=--inline-threshold=28
$(BG)/wasm2js.stamp: INLINE := -Cllvm-args=--inline-threshold=0

$(BG)/pay.stamp: $(CRATE_SRC)
	$(WASM_BUILD) --features wasm-runtime,platform-url
	@mkdir -p $(BG) && (cmp -s $(WASM) $(BG)/pay.wasm || cp $(WASM) $(BG)/pay.wasm) && touch $@

$(BG)/full.stamp: WASM_PROFILE := wasm-full
$(BG)/full.stamp: INLINE := -Cllvm-args=--inline-threshold=9
$(BG)/full.stamp: $(CRATE_SRC)
	$(WASM_BUILD) --features wasm-runtime,web-extra,platform-url
	@mkdir -p $(BG) && (cmp -s $(WASM_FULL) $(BG)/full.wasm || cp $(WASM_FULL) $(BG)/full.wasm) && touch $@

$(BG)/mini.stamp: $(CRATE_SRC)
	$(WASM_BUILD) --features wasm-runtime,web-tools
	@mkdir -p $(BG) && (cmp -s $(WASM) $(BG)/mini.wasm || cp $(WASM) $(BG)/mini.wasm) && touch $@

$(BG)/wasm2js.stamp: $(CRATE_SRC)
	$(BUILD_STD) RUSTFLAGS="-C target-cpu=mvp -C target-feature=+bulk-memory $(filter-out $(MIR_INLINE),$(STD_FLAGS)) $(STACK) $(REMAP) $(INLINE)" \
	  cargo rustc --lib --crate-type cdylib --profile wasm2js --features wasm2js,web-tools --target wasm32-unknown-unknown $(STD_ARGS)
	@mkdir -p $(BG) && touch $@

$(BG)/pay.wasm: $(BG)/pay.stamp ;
$(BG)/full.wasm: $(BG)/full.stamp ;
$(BG)/mini.wasm: $(BG)/mini.stamp ;
$(WASM_JS): $(BG)/wasm2js.stamp ;

# pkg/ is rebuilt when one of its inputs changed ($(BG)/pkg.stamp).
PKG_INPUTS := $(wildcard www/lib/* www/build/*) $(SHORT)/paybridge_bg.wasm $(SHORT)/paybridge_mini_bg.wasm \
  $(SHORT)/paybridge_full_bg.wasm $(BG_JS)/paybridge.wasm.cjs $(BG_JS)/translated.cjs

pkg-files: $(BG)/pkg.stamp

$(BG)/pkg.stamp: $(PKG_INPUTS)
	rm -rf pkg $(STAGE) && mkdir -p pkg $(STAGE)
	cp $(SHORT)/paybridge_bg.wasm $(SHORT)/paybridge_mini_bg.wasm $(SHORT)/paybridge_full_bg.wasm pkg/
	cp www/lib/node.mjs www/lib/index.d.ts \
	  www/lib/miniprogram.d.ts www/lib/miniprogram.d.cts www/lib/paybridge.wasm.d.cts www/lib/package.json www/lib/README.md pkg/
	# Node's entry: one CommonJS file with the full module's glue, what
	# `require("paybridge")` gives in Node and under Jest; node.mjs, what
	# `import` gives, re-exports it, so a process has one copy whichever way
	# it loads the package. Not minified: Node reads it from disk. Its
	# types are index.d.ts's, read as CommonJS.
	mkdir -p $(STAGE)/node && cp www/lib/node.js www/lib/flows.js www/lib/shared.js www/lib/perform.js www/lib/protocol.js www/lib/api.js \
	  $(SHORT)/paybridge_full_bg.js $(STAGE)/node/
	$(BIN)/esbuild --bundle --format=cjs --platform=node --target=node20 --log-level=warning $(STAGE)/node/node.js --outfile=pkg/node.cjs
	node www/build/embed.mjs --node pkg/node.cjs $(SHORT)/paybridge_full_bg.wasm
	cp www/lib/index.d.ts pkg/index.d.cts
	# The browser entry is one file (shim and the payment module's glue), so
	# a page reaches the .wasm after one module fetch, not four; the full
	# module's glue stays separate and is imported only by ready().
	mkdir -p $(STAGE)/browser && cp www/lib/index.js www/lib/embedded.js www/lib/shared.js www/lib/perform.js www/lib/protocol.js www/lib/api.js $(SHORT)/paybridge_bg.js $(STAGE)/browser/
	# esbuild keeps the identifiers; terser mangles all but the names the
	# entry exports as themselves (www/build/export-names.mjs), so each
	# export's name is written where it is defined and in the export clause,
	# with no short local name beside it.
	$(BIN)/esbuild --bundle --format=esm --platform=browser --target=es2020 --minify-whitespace --minify-syntax --log-level=warning \
	  --define:PAYBRIDGE_BROWSER=true --external:./full.js --external:./inflate.js $(STAGE)/browser/index.js --outfile=$(STAGE)/browser.js
	# terser's compression after esbuild (TERSER's, with the exported
	# names kept) on the entry, what a page fetches before paying.
	$(BIN)/terser --compress passes=2 --mangle "reserved=[$$(node www/build/export-names.mjs $(STAGE)/browser.js)]" --module $(STAGE)/browser.js --output pkg/index.js
	# What the entry imports when it first needs the full module (ready()):
	# the module's glue and its loading, one file.
	# It has no driver of its own: the entry hands it its own (full.js,
	# `load`); of perform.js it bundles `awaited`, what the entry's driver
	# leaves to the full module's runs (OP_AWAIT).
	mkdir -p $(STAGE)/full && cp www/lib/full.js www/lib/flows.js www/lib/perform.js www/lib/protocol.js $(SHORT)/paybridge_full_bg.js $(STAGE)/full/
	$(BIN)/esbuild --bundle --format=esm --platform=browser --target=es2020 --minify --log-level=warning \
	  --define:PAYBRIDGE_BROWSER=true $(STAGE)/full/full.js --outfile=$(STAGE)/full.min.js
	$(TERSER) --module $(STAGE)/full.min.js --output pkg/full.js
	# ... and the payment module's .wasm is carried inside it: one request.
	node www/build/embed.mjs pkg/index.js $(SHORT)/paybridge_bg.wasm
	# fflate's inflater, for a runtime without DecompressionStream.
	NODE_PATH=tests/node_modules $(BIN)/esbuild --bundle --format=esm --platform=browser --target=es2020 --minify --log-level=warning \
	  www/lib/inflate.js --outfile=pkg/inflate.js
	cp www/lib/miniprogram.js www/lib/miniprogram-node.js www/lib/shared.js www/lib/perform.js www/lib/protocol.js www/lib/globals.js www/lib/textcoding.js \
	  $(SHORT)/paybridge_mini_bg.js $(STAGE)/
	# Under Node's conditions (miniprogram-node.js: in Node a plain ready()
	# runs the JavaScript build, paybridge.wasm.cjs). CommonJS for Node as well:
	# platform node adds the annotation from which Node's loader learns the
	# named exports of an import of this file.
	$(ESBUILD) --inject:$(STAGE)/globals.js --format=cjs --platform=node --external:./paybridge.wasm.cjs --define:PAYBRIDGE_ESM=false \
	  $(STAGE)/miniprogram-node.js --outfile=pkg/miniprogram.cjs
	$(ESBUILD) --inject:$(STAGE)/globals.js --format=esm --external:./paybridge.wasm.cjs --define:PAYBRIDGE_ESM=true \
	  $(STAGE)/miniprogram-node.js --outfile=$(STAGE)/miniprogram.min.mjs
	$(TERSER) --module $(STAGE)/miniprogram.min.mjs --output pkg/miniprogram.mjs
	cp $(BG_JS)/paybridge.wasm.cjs pkg/
	# The mini-program folder, pkg/miniprogram/: what wallet1's compiler
	# resolves `paybridge/miniprogram` to by plain file resolution (its
	# index.js), and what wallet2's npm build copies whole (package.json
	# "miniprogram"). The same module as CommonJS index.js, lowered to ES5
	# (www/build/es5.mjs), with the JavaScript build beside it, also ES5,
	# and the .wasm brotli-compressed, the form both runtimes' WebAssembly
	# objects load from a path (README, "Mini-program").
	cp www/lib/miniprogram-npm.js $(STAGE)/
	mkdir -p pkg/miniprogram
	$(ESBUILD) --inject:$(STAGE)/globals.js --format=cjs --external:./paybridge.wasm.js --define:PAYBRIDGE_ESM=false $(STAGE)/miniprogram-npm.js \
	  --outfile=$(STAGE)/miniprogram-npm.min.js
	node www/build/es5.mjs $(STAGE)/miniprogram-npm.min.js $(STAGE)/miniprogram-npm.es5.js
	$(TERSER) --toplevel --ecma 5 $(STAGE)/miniprogram-npm.es5.js --output pkg/miniprogram/index.js
	# The JavaScript build's translated module alone (no glue: index.js
	# hands it the module's own, www/lib/miniprogram-npm.js), checked as
	# ES5, then minified by esbuild (which keeps ES5 as it is at
	# --target=es5), terser's compression (TERSER's) and esbuild again: the
	# fewest raw bytes of the orders measured (tests/bench/README.md); its
	# module function then compiled with the script (wasm2js.mjs --eager).
	node www/build/es5.mjs $(BG_JS)/translated.cjs $(STAGE)/paybridge.wasm.es5.js
	$(BIN)/esbuild --minify --target=es5 --format=cjs --log-level=warning $(STAGE)/paybridge.wasm.es5.js --outfile=$(STAGE)/paybridge.wasm.min.js
	$(TERSER) --toplevel --ecma 5 $(STAGE)/paybridge.wasm.min.js --output $(STAGE)/paybridge.wasm.terser.js
	$(BIN)/esbuild --minify --target=es5 --log-level=warning $(STAGE)/paybridge.wasm.terser.js --outfile=$(STAGE)/paybridge.wasm.final.js
	node www/build/wasm2js.mjs --eager $(STAGE)/paybridge.wasm.final.js pkg/miniprogram/paybridge.wasm.js
	node www/build/brotli.mjs $(SHORT)/paybridge_mini_bg.wasm pkg/miniprogram/paybridge_mini_bg.wasm.br
	cp www/lib/miniprogram-folder.json pkg/miniprogram/package.json
	# What bundlers resolve paybridge/miniprogram to (package.json
	# "exports", all but Node's conditions): the module as ES5 CommonJS
	# with the folder's JavaScript build required at its top, which every
	# bundler follows (www/lib/miniprogram-bundle.js).
	cp www/lib/miniprogram-bundle.js $(STAGE)/
	$(ESBUILD) --inject:$(STAGE)/globals.js --format=cjs --external:./miniprogram/paybridge.wasm.js --define:PAYBRIDGE_ESM=false $(STAGE)/miniprogram-bundle.js \
	  --outfile=$(STAGE)/miniprogram-bundle.min.js
	node www/build/es5.mjs $(STAGE)/miniprogram-bundle.min.js $(STAGE)/miniprogram-bundle.es5.js
	$(TERSER) --toplevel --ecma 5 $(STAGE)/miniprogram-bundle.es5.js --output pkg/miniprogram-bundle.cjs
	touch $(BG)/pkg.stamp
	@echo "pkg/ built"

$(BG)/paybridge_bg.js $(BG)/paybridge_bg.wasm &: $(BG)/pay.wasm
	wasm-bindgen --target bundler --no-typescript --out-dir $(BG) --out-name paybridge $<

$(BG)/paybridge_mini_bg.js $(BG)/paybridge_mini_bg.wasm &: $(BG)/mini.wasm
	wasm-bindgen --target bundler --no-typescript --out-dir $(BG) --out-name paybridge_mini $<

$(BG)/paybridge_full_bg.js $(BG)/paybridge_full_bg.wasm &: $(BG)/full.wasm
	wasm-bindgen --target bundler --no-typescript --out-dir $(BG) --out-name paybridge_full $<

# A function with one caller is inlined into it only when small, not
# always as wasm-opt does by default, because large bodies kept apart from
# the code they call gzip smaller on every module and on the wasm2js
# translation (tests/bench/README.md).
ONE_CALLER := --one-caller-inline-max-function-size 30
# Merging functions that differ only in constants, then flattening and
# re-building the control flow before two -Oz rounds, gzips smaller than
# -Oz alone on these modules (tests/bench/README.md). Flattening writes
# every intermediate value to a local of its own; redundant-set
# elimination (--rse) then drops each write of a value the local already
# holds, before the control flow is rebuilt and -Oz reads the code.
WASM_OPT_PASSES := --merge-similar-functions --flatten --rse --rereloop -Oz -Oz $(ONE_CALLER)
# Only the payment module, what a page downloads before paying, runs the
# passes until nothing changes: it gains most there, and little on the
# larger modules, for four times the build time (tests/bench/README.md).
$(BG)/paybridge_bg.opt.wasm: WASM_OPT_PASSES += --converge

# Kept between runs (make would delete them as intermediates and run
# wasm-opt again on every `make pkg`).
.SECONDARY: $(BG)/paybridge_mini_bg.opt.wasm $(BG)/paybridge_full_bg.opt.wasm

$(BG)/%_bg.opt.wasm: $(BG)/%_bg.wasm Makefile
	$(BIN)/wasm-opt $(WASM_OPT_PASSES) $(WASM_FEATURES) --strip-debug --strip-producers $< -o $@

# Short names between each module and its glue (www/build/short-names.mjs,
# which runs every text rewrite of the glue, www/build/glue.mjs, and stops
# when wasm-bindgen's glue has another shape than one of them reads);
# each glue also exports `bindings`, one plain object, for the bundles that
# hand it to its module (the browser entry, full.js, the mini-program
# bundles); the names given are saved (names.json), for the JavaScript
# build, which is named as the mini-program module.
$(SHORT)/%_bg.wasm $(SHORT)/%_bg.js $(SHORT)/%_bg.names.json &: $(BG)/%_bg.opt.wasm $(BG)/%_bg.js www/build/short-names.mjs www/build/glue.mjs
	@mkdir -p $(SHORT)
	node www/build/short-names.mjs $< $(BG)/$*_bg.js $(SHORT)/$*_bg.wasm $(SHORT)/$*_bg.js --bindings --save-names $(SHORT)/$*_bg.names.json

$(BG_JS)/paybridge_bg.js $(BG_JS)/paybridge_bg.wasm &: $(WASM_JS)
	rm -rf $(BG_JS) && wasm-bindgen --target bundler --no-typescript --out-dir $(BG_JS) $(WASM_JS)

# Lower what wasm2js does not translate, optimize for MVP, name the imports
# and exports as the mini-program module's (www/build/short-names.mjs), so
# that the translation links with that module's glue, which must come out
# the same, translate, and write the translation as the JavaScript build's
# module (www/build/wasm2js.mjs: `instantiate(imports)`, no glue). A
# memory.grow left in the code would leave the glue's views on a stale
# buffer (src/web/arena.rs).
$(BG_JS)/translated.cjs: $(BG_JS)/paybridge_bg.wasm $(BG_JS)/paybridge_bg.js $(SHORT)/paybridge_mini_bg.js $(SHORT)/paybridge_mini_bg.names.json \
  www/build/wasm2js.mjs www/build/short-names.mjs www/build/glue.mjs Makefile
	$(BIN)/wasm-opt $(LOWER) $(BG_JS)/paybridge_bg.wasm -o $(BG_JS)/lowered.wasm
	$(BIN)/wasm-opt --mvp-features --enable-mutable-globals --enable-bulk-memory-opt $(WASM_OPT_PASSES) --strip-debug --strip-producers \
	  $(BG_JS)/lowered.wasm -o $(BG_JS)/mvp.wasm
	if $(BIN)/wasm-dis $(BG_JS)/mvp.wasm | grep -q 'memory.grow'; then \
	  echo "the wasm2js build grows its memory; it must not (src/web/arena.rs)" >&2; exit 1; fi
	node www/build/short-names.mjs $(BG_JS)/mvp.wasm $(BG_JS)/paybridge_bg.js $(BG_JS)/short.wasm $(BG_JS)/short_bg.js \
	  --bindings --names $(SHORT)/paybridge_mini_bg.names.json
	if ! cmp -s $(BG_JS)/short_bg.js $(SHORT)/paybridge_mini_bg.js; then \
	  echo "the wasm2js build's glue differs from the mini-program module's ($(BG_JS)/short_bg.js, $(SHORT)/paybridge_mini_bg.js): both builds must have the same exports and imports" >&2; exit 1; fi
	$(BIN)/wasm2js --enable-bulk-memory-opt -Oz $(ONE_CALLER) $(BG_JS)/short.wasm -o $(BG_JS)/translated.js
	node www/build/wasm2js.mjs $(BG_JS)/translated.js $@

# The JavaScript build for ready({ wasmJs }) (pkg/paybridge.wasm.cjs,
# CommonJS: `.cjs`, so that Node and bundlers read it as such inside this
# `type: module` package): the translation with the glue it links with.
$(BG_JS)/paybridge.wasm.cjs: $(BG_JS)/translated.cjs $(SHORT)/paybridge_mini_bg.js www/lib/wasmjs.js www/lib/globals.js \
  www/lib/textcoding.js Makefile
	cp www/lib/wasmjs.js www/lib/globals.js www/lib/textcoding.js $(SHORT)/paybridge_mini_bg.js $(BG_JS)/
	$(ESBUILD) --inject:$(BG_JS)/globals.js --format=cjs --platform=node $(BG_JS)/wasmjs.js --outfile=$(BG_JS)/wasmjs.bundle.cjs
	node www/build/wasm2js.mjs --printable $(BG_JS)/wasmjs.bundle.cjs $@

## The packed tarball, as a user installs it: examples/ install this file
## (tests/examples/), never the folder, so that no lockfile pins its
## integrity and each run takes the package just built.
PACK := target/pack/paybridge.tgz
pack: pkg
	@rm -rf target/pack && mkdir -p target/pack
	@cd target/pack && npm pack ../../pkg --silent >/dev/null && mv paybridge-*.tgz paybridge.tgz
	@echo "packed $(PACK)"

## Each example of examples/ installed from $(PACK) and built by its own
## tool, then run where it would run (tests/examples/).
test-examples: pack setup-browser sandbox-bin
	node --test --test-concurrency=1 tests/examples/

lint:
	node tests/tools/layout.mjs
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
	# The docs of each module's build (full, payment, mini-program, wasm2js):
	# a link to an item another build compiles out is a broken link in this one.
	for f in wasm-runtime,web-extra,platform-url wasm-runtime,platform-url wasm-runtime,web-tools wasm2js,web-tools; do \
	  RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet --target wasm32-unknown-unknown --features $$f; done
	cargo clippy --workspace --all-targets --features paybridge/serde,paybridge/hmac -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features wasm-runtime,platform-url -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features wasm-runtime,web-tools -- -D warnings
	cargo clippy --lib --target wasm32-unknown-unknown --features wasm-runtime,web-extra,platform-url -- -D warnings
	RUSTFLAGS="-C target-cpu=mvp" cargo clippy --lib --profile wasm2js --features wasm2js,web-tools --target wasm32-unknown-unknown -- -D warnings

## The package as the ecosystem's linters read it: publint, and
## are-the-types-wrong on the packed tarball; and a `make pkg` with nothing
## changed builds nothing. Its one accepted finding: the .wasm assets
## have no types.
lint-pkg: pkg
	@if $(MAKE) --no-print-directory pkg 2>&1 | grep -E 'cargo build|wasm-opt|wasm-bindgen|esbuild'; then \
	  echo "make pkg would build again with nothing changed" >&2; exit 1; fi
	$(BIN)/publint --strict pkg
	$(BIN)/attw --pack pkg --exclude-entrypoints paybridge_bg.wasm paybridge_full_bg.wasm

test-host:
	cargo test --workspace --features paybridge/serde,paybridge/hmac

test-node: pkg
	node --test tests/node/

test-wasm: pkg setup-browser
	CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 \
	  cargo test --target wasm32-unknown-unknown --features web-extra --test web

## The sandbox binary the demo tests start (tests/browser/demo.test.mjs):
## the workspace's crate sandbox/ (host only), into target/release/sandbox.
sandbox-bin:
	cargo build --release -p paybridge-sandbox --bin sandbox

test-browser: pkg setup-browser sandbox-bin
	node --test --test-concurrency=1 tests/browser/

test: setup lint lint-pkg test-host test-node test-wasm test-browser test-examples test-fuzz size
	@echo "all tests passed"

## Gzipped (-9) sizes of what a page downloads, and every shipped module's
## budget (tests/tools/size.mjs): over one, or a file missing, fails.
size: pkg
	@node tests/tools/size.mjs

## paybridge beside pingpp-js, measured in one run (tests/bench/README.md):
## builds the release package, prints the table, writes
## tests/bench/results/latest.json (after a whole run also the README's
## table and the committed results/baseline.json), and exits non-zero
## when a budget is missed. Not part of `make test` (slow, timing-dependent).
## BENCH_LOADS=30 page loads per module, flow and mode; BENCH_ALLOW_MISS=1.
bench: pkg setup-browser
	node tests/bench/bench.mjs

## The sandbox on http://127.0.0.1:$(PORT): the demo pages of www/, pkg/, the
## merchant server, simulated wallets and the authentication API. Ctrl-C
## stops it. PORT, NOTIFY_DELAY_MS, SANDBOX_SECRET, RATE_LIMIT, ... are passed
## on (www/demo/README.md). It says which of its three steps it is on, and
## what a first run costs only on a first run. It needs no browser.
demo:
	@if [ -f $(BG)/pkg.stamp ] && [ -x $(CARGO_TARGET_DIR)/release/sandbox ]; then :; else \
	  echo "make demo: a first run installs and builds (about 6 minutes on a bare 2-core machine); later runs start in seconds"; fi
	@echo "make demo, step 1 of 3: what is missing (the wasm32 target, rust-src, the wasm-bindgen CLI, tests/ Node tooling)"
	@$(MAKE) --no-print-directory setup
	@echo "make demo, step 2 of 3: the npm package in pkg/"
	@$(MAKE) --no-print-directory pkg
	@echo "make demo, step 3 of 3: the sandbox, then http://127.0.0.1:$(PORT)/"
	cargo run --release -p paybridge-sandbox --bin sandbox -- --port $(PORT)

## Coverage-guided fuzzing (nightly + cargo-fuzz; tests/fuzz/): every target
## for FUZZ_SECONDS each; `fuzz-smoke` is the short run. A crash fails the
## run and leaves its input in tests/fuzz/artifacts/<target>/; saved crashes
## (tests/fuzz/regressions/) run in `make test` through tests/fuzz_regressions.rs.
## `make test` runs the smoke (5 s a target, after about 4 minutes of
## building the instrumented targets from a clean tree on 2 cores); on a
## machine without the nightly toolchain it says so and skips it.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5

fuzz: setup setup-fuzz
	tests/fuzz/run.sh $(FUZZ_SECONDS)

fuzz-smoke: setup setup-fuzz
	tests/fuzz/run.sh $(FUZZ_SMOKE_SECONDS)

test-fuzz:
	@if rustc +nightly --version >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory fuzz-smoke; \
	else \
	  echo "FUZZ SMOKE SKIPPED: no nightly toolchain on this machine (make fuzz needs it)"; \
	fi

clean:
	rm -rf pkg $(BG) $(BG_JS) $(STAGE)
