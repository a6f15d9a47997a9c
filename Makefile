# The two set-up commands: `make demo` and `make test` (see README.md).
SWIFT ?= swift

.PHONY: deps build demo test examples bench

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
