# The two set-up commands: `make demo` and `make test` (see README.md).
SWIFT ?= swift

.PHONY: deps build demo test examples bench stress

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) build --product d2s-repl
	D2S_RESOURCES="$(CURDIR)/data" "$$($(SWIFT) build --show-bin-path)/d2s-repl" --demo

test: deps
	$(SWIFT) build --build-tests
	scripts/with-postgres.sh $(SWIFT) test --skip-build
	$(MAKE) examples

# The example plugin packages (Plugins/Examples): built and tested through the REPL built for them.
examples:
	cd Plugins/Examples/DVDStoreREPL && $(SWIFT) build --build-tests && $(SWIFT) test --skip-build

bench: deps
	$(SWIFT) run -c release d2s-bench rules

# Concurrent editors, longer than in `make test`: 4 d2s-repl processes on SQLite and PostgreSQL,
# each printing saves, conflicts and lost updates (which must be 0).
STRESS_ITERATIONS ?= 400
stress: deps
	$(SWIFT) build --build-tests
	D2S_STRESS_ITERATIONS=$(STRESS_ITERATIONS) scripts/with-postgres.sh $(SWIFT) test --skip-build \
	  --filter ConcurrentEditorTests 2>&1 | grep -E '^stress|passed|failed|error'
