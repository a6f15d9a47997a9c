# The two set-up commands: `make demo` and `make test` (see README.md).
SWIFT ?= swift

.PHONY: deps build demo serve test examples bench stress fuzz test-sanitized

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

demo: deps
	$(SWIFT) build --product d2s-repl
	D2S_RESOURCES="$(CURDIR)/data" "$$($(SWIFT) build --show-bin-path)/d2s-repl" --demo

# The demo in a browser: http://127.0.0.1:8080 (Ctrl-C stops it).
serve: deps
	$(SWIFT) build --product d2s-serve
	D2S_RESOURCES="$(CURDIR)/data" "$$($(SWIFT) build --show-bin-path)/d2s-serve" --demo

# Lint, build, the fuzz targets type-checked, every test against a throwaway PostgreSQL (set up
# while the package builds), then the outside packages: scripts/test.sh.
test: deps
	SWIFT=$(SWIFT) scripts/with-postgres.sh --in-background scripts/test.sh

# The example plugin packages and the web consumer package, built in the main package's scratch
# folder and tested (scripts/test-examples.sh; `make test` runs it last).
EXAMPLES_SCRATCH ?= $(CURDIR)/.build
examples:
	SWIFT=$(SWIFT) EXAMPLES_SCRATCH="$(EXAMPLES_SCRATCH)" scripts/test-examples.sh

bench: deps
	$(SWIFT) run -c release d2s-bench rules
	$(SWIFT) run -c release d2s-bench list

# Concurrent editors, longer than in `make test`: 4 d2s-repl processes, then 4 HTTP clients of two
# d2s-serve processes, on SQLite and PostgreSQL, each printing saves, conflicts and lost updates
# (which must be 0).
STRESS_ITERATIONS ?= 400
stress: deps
	$(SWIFT) build --build-tests
	D2S_STRESS_ITERATIONS=$(STRESS_ITERATIONS) scripts/with-postgres.sh $(SWIFT) test --skip-build \
	  --filter 'ConcurrentEditorTests|HTTPEditorStressTests' 2>&1 | grep -E '^stress|passed|failed|error'

# Coverage-guided fuzzing (libFuzzer) of the parsers, each target for FUZZ_SECONDS; not part of
# `make test` or CI. The package Fuzz/ builds in .build-fuzz with -sanitize=fuzzer.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= qualifier rules command literal formatter terminal web
fuzz: deps
	$(SWIFT) build --package-path Fuzz --scratch-path .build-fuzz -c release \
	  -Xswiftc -sanitize=fuzzer --product d2s-fuzz
	scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The suite under AddressSanitizer, and the suites that share state across threads (Ctrl-C
# handling, rule caches reached from several threads, concurrent editors, counts and rows read
# ahead) under ThreadSanitizer; each in a scratch folder of its own. Not part of `make test`
# or CI.
TSAN_SUITES ?= ConcurrentPageTests|ConcurrentRequestTests|InterruptionTests|InterruptionThreadTests|RuleCacheTests|RuleCacheConcurrencyTests|ConcurrentEditorTests|PostgreSQLFaultTests|SQLiteFaultTests|ReadAheadTests|BackgroundCountTests|DisplayGroupPagingTests|DependencyTests|DeclaredConformancesTests|PageCacheTests|LexerConcurrencyTests|KindTableTests|PipelinedQueryTests
test-sanitized: deps
	$(SWIFT) build --build-tests --scratch-path .build-asan --sanitize=address
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp \
	  scripts/with-postgres.sh $(SWIFT) test --skip-build --scratch-path .build-asan
	$(SWIFT) build --build-tests --scratch-path .build-tsan --sanitize=thread
	TSAN_OPTIONS=suppressions=$(CURDIR)/scripts/tsan.supp \
	  scripts/with-postgres.sh $(SWIFT) test --skip-build --scratch-path .build-tsan --filter '$(TSAN_SUITES)'
