# TextReel — the README's commands. `make demo` and `make test` set everything up first.

PACKAGES := pkg-config libpango1.0-dev libcairo2-dev libcmark-gfm-dev libcmark-gfm-extensions-dev \
            libpng-dev librsvg2-dev libgdk-pixbuf-2.0-dev libchafa-dev tmux \
            fonts-dejavu-core fonts-noto-core fonts-noto-cjk pango1.0-tools
SWIFT ?= swift

.PHONY: setup demo test bench build
.DEFAULT_GOAL := demo

## setup: install the Debian packages the project needs (a no-op when all are present)
setup:
	@missing=$$(for p in $(PACKAGES); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	  done); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "setup: missing packages:" $$missing; \
	if [ "$$(id -u)" != 0 ]; then \
	  echo "setup: not root; run:"; \
	  echo "  sudo apt-get update && sudo apt-get install -y" $$missing; \
	  exit 1; \
	fi; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing

build: setup
	$(SWIFT) build -c release --product textreel

## demo: render the bundled demo document into Output/demo/
demo: build
	$$($(SWIFT) build -c release --show-bin-path)/textreel render Fixtures/documents/demo.md \
	    --script Fixtures/scripts/demo.json5 --out Output/demo

## test: run the test suite
test: setup
	$(SWIFT) test

## bench: release-mode benchmark; prints a table and writes Output/bench/results.json
bench: setup
	$(SWIFT) build -c release --product textreel-bench
	$$($(SWIFT) build -c release --show-bin-path)/textreel-bench
