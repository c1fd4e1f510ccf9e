# The script runner: every task of the project is a target here.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.NOTPARALLEL:

# WASM_ENV runs go commands as GOOS=js GOARCH=wasm, with go_js_wasm_exec (node) on PATH.
WASM_ENV = PATH="$$PATH:$$(go env GOROOT)/lib/wasm" GOOS=js GOARCH=wasm
# GUARD_IMPORTS prints "P imports Q" for every import of every non-standard package.
GUARD_IMPORTS = {{if not .Standard}}{{$$p := .ImportPath}}{{range .Imports}}{{$$p}} imports {{.}}{{"\n"}}{{end}}{{end}}
BENCH = go test -run '^$$' -bench . -benchmem ./sim/...

.PHONY: serve dist test fmt vet guard unit wasmtest fuzz soak chromium axe browser bench fidelity fidelity-render fidelity-quick vendor-uplot clean

# serve builds the site and serves it on http://127.0.0.1:8080/ with Netlify's headers; needs only Go.
serve:
	go run ./build serve -addr 127.0.0.1:8080

# dist writes the deployable site to dist/; Netlify runs it (netlify.toml).
dist:
	go run ./build dist

# test is what CI runs (.ci/run): every check, cheapest first; fidelity-quick installs one real
# PostgreSQL (npm) and checks the exact counts against it.
test: fmt vet guard unit wasmtest fidelity-quick chromium axe browser

# fmt fails on files gofmt would change, so diffs stay about behaviour.
fmt:
	@files="$$(gofmt -l .)"; \
	if [ -n "$$files" ]; then echo "fmt: run gofmt -w on:"; echo "$$files"; exit 1; fi

# vet checks the native packages, then the js-only ones (wasm/, *_js.go) under GOOS=js, with
# and without the browser tests' hooks (tag bufferscope_testhooks, which only build serve -test-hooks sets).
vet:
	go vet ./...
	GOOS=js GOARCH=wasm go vet ./...
	GOOS=js GOARCH=wasm go vet -tags bufferscope_testhooks ./wasm/...

# guard keeps sim pure Go: it must build and test natively and under node, without a browser.
# Under GOOS=js the standard library itself uses syscall/js, so it lists the imports of non-standard
# packages (tests included) that lead into ebiten or syscall/js from outside ebiten.
guard:
	@imports="$$(GOOS=js GOARCH=wasm go list -deps -test -f '$(GUARD_IMPORTS)' ./sim/...)"; \
	bad="$$(grep -E ' imports .*(ebiten|syscall/js)' <<<"$$imports" | grep -vE '^[^ ]*ebiten' || true)"; \
	if [ -n "$$bad" ]; then \
		echo "guard: sim must not reach ebiten or syscall/js:"; echo "$$bad" | sed 's/^/  /'; \
		echo "sim is the pure-Go simulation core: without ebiten and syscall/js its tests run natively"; \
		echo "and as wasm under node. Put drawing and JS glue in wasm/."; \
		exit 1; \
	fi

# unit runs every Go test natively, with the published reproductions (100GB pools) that a
# plain go test ./... skips to stay quick; browser tests skip themselves unless
# BUFFERSCOPE_BROWSER_TESTS=1.
unit:
	BUFFERSCOPE_REPRODUCE=1 go test ./...

# wasmtest runs sim's tests, and the experiment worker's, as WebAssembly under node, the way the
# page runs them; -short skips the published-table reproductions, whose 100GB pools are tested natively.
wasmtest:
	$(WASM_ENV) go test -short ./sim/... ./wasm/worker/...

# FUZZ_TARGETS are every fuzz target, as package:Target (build's TestMakeFuzzListsEveryTarget keeps
# the list whole); FUZZTIME is how long make fuzz runs each, and FUZZMINIMIZE how long go test may
# shrink an input (60s by default, which for each new input of a slow target stalls the search).
FUZZ_TARGETS = ./sim:FuzzCommands ./sim/param:FuzzParse ./sim/labs:FuzzLabCommands ./sim/labs/pins:FuzzBTree \
	./cmd/bufferscope:FuzzCommandLine ./build:FuzzHeaderRules ./build:FuzzEmbedParse
FUZZTIME ?= 60s
FUZZMINIMIZE ?= 5s

# fuzz runs each fuzz target for FUZZTIME in turn (go test takes one -fuzz target per package); a failing input lands in the package's testdata/fuzz.
fuzz:
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
		pkg="$${t%%:*}"; name="$${t##*:}"; \
		echo "fuzz: $$name ($$pkg) for $(FUZZTIME)"; \
		go test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) "$$pkg" || failed="$$failed $$name"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi

# SOAK is how many random scenarios make soak runs on each lab; SOAK_SEED seeds them (a new seed each run).
SOAK ?= 1000
SOAK_SEED ?= $(shell date +%s)

# soak runs SOAK random scenarios on every lab with the invariants checked after each line, one line per lab; go test runs 20.
soak:
	BUFFERSCOPE_SOAK=$(SOAK) BUFFERSCOPE_SOAK_SEED=$(SOAK_SEED) go test -count=1 -timeout 60m -run '^TestSoak$$' -v ./sim/labs/ | grep -v '^=== RUN'

# chromium installs the browser the e2e tests drive (/usr/bin/chromium) when it is missing.
chromium:
	@if command -v chromium >/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "chromium: installing Debian's chromium package for the browser tests"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -q && apt-get install -y -q chromium; \
	else \
		echo "chromium: the browser tests need Chromium at /usr/bin/chromium."; \
		echo "Install it as root, e.g. 'sudo apt-get install -y chromium' on Debian, then run make test again."; \
		exit 1; \
	fi

# AXE is the version of axe-core (npm, MPL-2.0) the browser tests inject to check accessibility;
# e2e/axe_test.go's axeVersion must say the same.
AXE = 4.14.1
AXE_CACHE = .cache/axe

# axe installs axe-core into .cache/axe (not committed) when it is missing or another version.
axe:
	@v="$$(node -p 'require("./$(AXE_CACHE)/node_modules/axe-core/package.json").version' 2>/dev/null || true)"; \
	if [ "$$v" = "$(AXE)" ]; then exit 0; fi; \
	echo "axe: installing axe-core $(AXE) into $(AXE_CACHE) for the browser tests"; \
	mkdir -p $(AXE_CACHE) && npm install --no-audit --no-fund --no-save --prefix $(AXE_CACHE) axe-core@$(AXE) >/dev/null

# browser runs the e2e tests: the built site in headless Chromium, under the production headers;
# on two shared cores the suite outlasts go test's default 10-minute timeout.
browser: chromium axe
	BUFFERSCOPE_BROWSER_TESTS=1 go test -count=1 -timeout 30m ./e2e/...

# BENCH_ENDURANCE is how long make bench plays each lab at full speed in the browser, the four side by side
# (issue #16 asks 30m; BENCH_ENDURANCE=2m gives a quick look); BENCH_RUNS how many cold loads of each page it times.
BENCH_ENDURANCE ?= 30m
BENCH_RUNS ?= 5

# bench measures sim natively and as wasm under node, the reproductions natively, and the site in headless
# Chromium beside a bare Ebiten app, and writes docs/benchmarks.md with each target of issue #16.
bench: chromium axe
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	echo "native:"; $(BENCH) | tee "$$tmp/native.txt"; \
	echo "wasm (node):"; $(WASM_ENV) $(BENCH) | tee "$$tmp/wasm.txt"; \
	echo "reproductions (native):"; go run ./build bench-reproduce -out "$$tmp/reproduce.json"; \
	echo "browser ($(BENCH_ENDURANCE) per lab at full speed):"; \
	BUFFERSCOPE_BROWSER_TESTS=1 BUFFERSCOPE_BENCH_OUT="$$tmp/browser.json" BUFFERSCOPE_BENCH_ENDURANCE=$(BENCH_ENDURANCE) \
		BUFFERSCOPE_BENCH_RUNS=$(BENCH_RUNS) go test -count=1 -timeout 6h -run '^TestBrowserBench$$' -v ./e2e/ | grep -v '^=== RUN'; \
	go run ./build bench-report -native "$$tmp/native.txt" -wasm "$$tmp/wasm.txt" -browser "$$tmp/browser.json" \
		-reproduce "$$tmp/reproduce.json" -out docs/benchmarks.md

# FIDELITY_CACHE holds the real PostgreSQL servers (npm packages) of the fidelity harness; not committed.
FIDELITY_CACHE = .cache/postgres

# fidelity holds the simulator against real PostgreSQL 13–18 and writes docs/fidelity.md, and the real figures to
# docs/fidelity.json; installs the servers when missing. Then it runs every lab's "Try it on a real server" SQL on
# each of them (TestRealSnippets).
fidelity:
	go run ./cmd/fidelity -majors 13,14,15,16,17,18 -cache $(FIDELITY_CACHE) -out docs/fidelity.md -results docs/fidelity.json
	for m in 13 14 15 16 17 18; do \
		BUFFERSCOPE_FIDELITY=1 BUFFERSCOPE_FIDELITY_MAJOR=$$m go test -count=1 -run '^TestRealSnippets$$' ./fidelity/ || exit 1; \
	done

# fidelity-render rewrites docs/fidelity.md from the committed real figures (docs/fidelity.json), running no server:
# after a change to the simulated side.
fidelity-render:
	go run ./cmd/fidelity -render docs/fidelity.json -out docs/fidelity.md

# fidelity-quick runs the exact-count experiments (rings, LP_DEAD and pins) on real PostgreSQL 17 and 18, the
# simulation beside each, and every lab's "Try it on a real server" SQL on both, in about a minute.
fidelity-quick:
	BUFFERSCOPE_FIDELITY=1 BUFFERSCOPE_FIDELITY_MAJOR=17 go test -count=1 -run '^TestReal' ./fidelity/
	BUFFERSCOPE_FIDELITY=1 BUFFERSCOPE_FIDELITY_MAJOR=18 go test -count=1 -run '^TestReal(Rings|LPDead|Snippets)$$' ./fidelity/

# UPLOT is the version of uPlot (the charts, MIT) vendored in site/vendor/uplot.
UPLOT = 1.6.32

# vendor-uplot refreshes site/vendor/uplot from npm, so that make serve needs nothing but Go.
vendor-uplot:
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	(cd "$$tmp" && npm pack --silent uplot@$(UPLOT) >/dev/null && tar xzf uplot-$(UPLOT).tgz); \
	mkdir -p site/vendor/uplot; \
	cp "$$tmp/package/dist/uPlot.esm.js" "$$tmp/package/dist/uPlot.min.css" "$$tmp/package/LICENSE" site/vendor/uplot/; \
	echo "vendor-uplot: site/vendor/uplot now holds uPlot $(UPLOT)"

# clean removes what dist writes.
clean:
	rm -rf dist
