# TextReel — the README's commands. `make demo` and `make test` set everything up first.

## The packages that install FontSet.standard's files (a test checks each file's owner with dpkg):
## setup installs them and the .deb depends on them, from this one list.
FONT_PACKAGES := fonts-dejavu-core fonts-dejavu-extra fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
PACKAGES := pkg-config libpango1.0-dev libcairo2-dev libcmark-gfm-dev libcmark-gfm-extensions-dev \
            libgumbo-dev libpng-dev zlib1g-dev libisal-dev libdeflate-dev libmicrohttpd-dev chromium librsvg2-dev libgdk-pixbuf-2.0-dev libchafa-dev tmux ruby-tanuki-emoji python3-emoji \
            libwebp-dev ffmpeg nodejs python3-pygments python3-matplotlib python3-pip \
            $(FONT_PACKAGES) pango1.0-tools help2man
SWIFT ?= swift
comma := ,
space := $(subst ,, )
## Warnings are bugs: a warning that a case can never match once kept two step kinds out of
## every exploration. Every build the tests run treats them as errors.
STRICT := -Xswiftc -warnings-as-errors
## Release builds link Swift's runtime and Foundation into the binary: a process then starts
## without resolving them at load time (a first frame of 10^3 paragraphs: 42 ms against 53 ms).
RELEASE := -c release --static-swift-stdlib

FUZZ_TARGETS := FuzzMarkdown FuzzScript FuzzScriptOnDocument FuzzAttachmentURL FuzzGoldenCase FuzzPNG
FUZZ_SECONDS ?= 180
FUZZ_SMOKE_RUNS ?= 2000

.PHONY: setup packages formulas demo test bench bench-peers build fuzz fuzz-build fuzz-smoke explore tsan stress docs documents fidelity install deb
EXPLORE_SECONDS ?= 300
.DEFAULT_GOAL := demo

## Mermaid (GitHub's diagrams) is mermaid.js itself, run in chromium. Debian packages no
## mermaid.js: a pinned PyPI wheel carries it, fetched by hash, its script checked by hash too
## (the wheel asks for Python 3.12 only because its own package does; TextReel reads one file).
MERMAID_VERSION := 11.16.0
MERMAID_WHEEL := artoo-mermaid==$(MERMAID_VERSION) --hash=sha256:fa6d2c8c0fbc4be09a456bfdd62f92eb85e44299a02460b1f4fd4f200a19f01d
MERMAID_SHA256 := 74d7c46dabca328c2294733910a8aa1ed0c37451776e8d5295da38a2b758fb9b
MERMAID_JS := .build/vendor/mermaid-$(MERMAID_VERSION).min.js

## setup: install the Debian packages the project needs and mermaid.js (a no-op when all are present)
setup: packages $(MERMAID_JS)

$(MERMAID_JS): | packages
	@rm -rf $(@D)/wheel && mkdir -p $(@D)/wheel && echo '$(MERMAID_WHEEL)' > $(@D)/wheel/requirements.txt
	/usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 --require-hashes \
	    -r $(@D)/wheel/requirements.txt --dest $(@D)/wheel
	/usr/bin/python3 -c 'import sys, glob, zipfile; \
	    sys.stdout.buffer.write(zipfile.ZipFile(glob.glob(sys.argv[1] + "/*.whl")[0]).read("artoo_mermaid/assets/mermaid.min.js"))' \
	    $(@D)/wheel > $@.tmp
	echo '$(MERMAID_SHA256)  $@.tmp' | sha256sum --check --quiet && mv $@.tmp $@ && rm -rf $(@D)/wheel

packages:
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
	$(SWIFT) build $(RELEASE) --product textreel

## demo: render the bundled demo document into Output/demo/
demo: build
	$$($(SWIFT) build $(RELEASE) --show-bin-path)/textreel render Fixtures/documents/demo.md \
	    --script Fixtures/scripts/demo.json5 --out Output/demo

## test: run the test suite, then a short smoke run of every fuzz target
test: setup
	$(SWIFT) test $(STRICT)
	$(MAKE) fuzz-smoke

## documents: render every Markdown file in DOCS (default Fixtures/documents) whole, at a phone's
## width and a desktop's, into Output/documents/<name>-<width>.png (a tall frame to look at beside
## GitHub's page), and list what could not be drawn as GitHub draws it: errors, warnings (remote
## images not fetched, …) and tables cut at the view's edge
DOCS ?= Fixtures/documents
documents: build
	@bin=$$($(SWIFT) build $(RELEASE) --show-bin-path); mkdir -p Output/documents; problems=0; \
	for f in $(DOCS)/*.md; do for w in 375 800; do \
	  name=$$(basename "$$f" .md)-$$w; out=Output/documents/$$name; rm -rf "$$out"; \
	  if ! $$bin/textreel render "$$f" --width $$w --height 4000 --out "$$out" 2> "$$out.log" > /dev/null; then \
	    echo "$$name: not rendered: $$(tail -n 1 "$$out.log")"; problems=$$((problems + 1)); continue; fi; \
	  mv "$$out/frame-00001.png" "$$out.png"; \
	  warnings=$$(grep -c 'warning' "$$out.log"); cut=$$(grep -o '"clipped":"[^"]*"' "$$out/events.jsonl" | sort -u | wc -l); \
	  echo "$$name: $$warnings warnings, $$cut tables cut at the view's edge  ($$out.png, $$out.log)"; \
	done; done; test $$problems -eq 0

## fidelity: how far TextReel's blocks drift from where GitHub's stylesheet puts them in a browser:
## each document of FIDELITY_DOCS (default Fixtures/fidelity/corpus) laid out by TextReel and, as
## GitHub's page (libcmark-gfm, github-markdown-css 5.9.0, a README's 32 px padding), by headless
## Chromium, both 800 px wide; blocks matched in order by their first words; prints per document the
## share of block tops within 8 px, the median and the last drift in the first 3,000 px and the height
## ratio, beside their targets (a measurement: it exits 0 whatever the drift).
## FIDELITY_FLAGS="--verbose NAME" lists NAME's blocks, the gaps between them and the line pitch by
## kind; "--gaps" those tables over all the documents; "--textreel-theme FILE" tries a theme file.
## Debian's python3 runs it when there is one: its python3-emoji turns :shortcodes: into emoji.
FIDELITY_DOCS ?= Fixtures/fidelity/corpus
FIDELITY_FLAGS ?=
fidelity: build
	@py=/usr/bin/python3; [ -x $$py ] || py=python3; \
	TEXTREEL=$$($(SWIFT) build $(RELEASE) --show-bin-path)/textreel $$py Tests/Browser/fidelity.py $(FIDELITY_FLAGS) $(FIDELITY_DOCS)

## formulas: how many of the formula corpus (Fixtures/formulas/corpus.jsonl: 452 formulas from
## public lecture notes and GitHub's documentation of math) are typeset, and what stops the rest,
## by reason (also in Output/formulas.txt; make test fails when fewer than 96% are)
formulas: setup
	@$(SWIFT) test $(STRICT) --filter FormulaCorpusTests 2>&1 | sed -n '/formulas typeset/,/^Test Case/p' | grep -v '^Test Case'

## install: the CLI into $(DESTDIR)$(PREFIX)/bin (PREFIX /usr/local by default, DESTDIR for
## staging, as GNU makefiles have them), a man page per command made from its --help text (each
## titled after its command, with the one-line description textreel --help gives it), and bash,
## zsh and fish completions written by the CLI from its own option tables
PREFIX ?= /usr/local
COMMANDS := render diff test report review merge-reports merge-renders preview generate version completions explore
install: build
	@bin=$$($(SWIFT) build $(RELEASE) --show-bin-path); root="$(DESTDIR)$(PREFIX)"; \
	install -d "$$root/bin" "$$root/share/man/man1" "$$root/share/bash-completion/completions" \
	  "$$root/share/zsh/site-functions" "$$root/share/fish/vendor_completions.d" || exit 1; \
	install -m 755 "$$bin/textreel" "$$root/bin/textreel" || exit 1; \
	install -D -m 644 $(MERMAID_JS) "$$root/share/textreel/$(notdir $(MERMAID_JS))" || exit 1; \
	version=$$("$$bin/textreel" --version | head -n 1 | awk '{print $$2}'); \
	export LC_ALL=C.UTF-8; \
	help2man --locale=C.UTF-8 --no-info --name="render Markdown into PNG frames of a scrolling text view" \
	  --output="$$root/share/man/man1/textreel.1" "$$bin/textreel" || exit 1; \
	wrappers=$$(mktemp -d); trap 'rm -rf "$$wrappers"' EXIT; \
	for c in $(COMMANDS); do \
	  name=$$("$$bin/textreel" --help | awk -v c="$$c" '$$1 == c { $$1 = ""; sub(/^ +/, ""); sub(/ \(.*\)$$/, ""); print; exit }'); \
	  printf '#!/bin/sh\nexec "%s" %s "$$@"\n' "$$bin/textreel" "$$c" > "$$wrappers/textreel-$$c"; chmod +x "$$wrappers/textreel-$$c"; \
	  help2man --locale=C.UTF-8 --no-info --no-discard-stderr --version-string="textreel-$$c $$version" \
	    --name="$${name:-textreel $$c}" --output="$$root/share/man/man1/textreel-$$c.1" "$$wrappers/textreel-$$c" || exit 1; \
	done; \
	"$$bin/textreel" completions bash > "$$root/share/bash-completion/completions/textreel" && \
	"$$bin/textreel" completions zsh > "$$root/share/zsh/site-functions/_textreel" && \
	"$$bin/textreel" completions fish > "$$root/share/fish/vendor_completions.d/textreel.fish" && \
	echo "installed textreel into $$root/bin, its man pages and completions"

## deb: a Debian package of the CLI (Output/textreel_<version>_<arch>.deb) with dpkg-deb, as
## Debian builds them: the binary stripped, its symbols in textreel-dbgsym_<version>_<arch>.ddeb
## (found by build id), man pages and the changelog compressed, a copyright file; it depends on
## the runtime libraries of the packages make setup installs (the fonts from FONT_PACKAGES).
## With lintian installed, it checks the package; what it still reports: bogus-mail-host (the
## project has no mail address to name as its maintainer).
DEB_DEPENDS := libc6 (>= 2.36), libstdc++6, libgcc-s1, libpango-1.0-0, libpangocairo-1.0-0, libcairo2, libcmark-gfm0.29.0.gfm.6, libcmark-gfm-extensions0.29.0.gfm.6, \
  libgumbo1, libpng16-16, zlib1g, libisal2, libdeflate0, libmicrohttpd12, librsvg2-2, libgdk-pixbuf-2.0-0, libchafa0, libwebpmux3, \
  $(subst $(space),$(comma)$(space),$(FONT_PACKAGES)), ruby-tanuki-emoji, python3, python3-emoji, python3-pygments, python3-matplotlib
## Mermaid diagrams need chromium; without it a diagram is its source and the reason.
DEB_RECOMMENDS := chromium
deb:
	@rm -rf Output/deb Output/deb-dbgsym && $(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/Output/deb PREFIX=/usr || exit 1; \
	set -e; root=Output/deb; dbg=Output/deb-dbgsym; \
	version=$$($$root/usr/bin/textreel --version | head -n 1 | awk '{print $$2}'); arch=$$(dpkg --print-architecture); \
	id=$$(readelf -n $$root/usr/bin/textreel | awk '/Build ID/ {print $$3}'); \
	mkdir -p $$dbg/usr/lib/debug/.build-id/$${id%$${id#??}} $$dbg/DEBIAN $$root/DEBIAN $$root/usr/share/doc/textreel $$dbg/usr/share/doc; \
	objcopy --only-keep-debug --compress-debug-sections $$root/usr/bin/textreel $$dbg/usr/lib/debug/.build-id/$${id%$${id#??}}/$${id#??}.debug; \
	objcopy --strip-unneeded --remove-section=.comment --remove-section=.note $$root/usr/bin/textreel; \
	gzip -9n $$root/usr/share/man/man1/*.1; \
	printf 'textreel (%s) unstable; urgency=medium\n\n  * Release %s; see CHANGELOG.md.\n\n -- TextReel <textreel@localhost>  %s\n' \
	  "$$version" "$$version" "$$(date -R -d @$$(git log -1 --format=%ct 2>/dev/null || echo 0))" | gzip -9n > $$root/usr/share/doc/textreel/changelog.gz; \
	printf 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: textreel\n\nFiles: *\nCopyright: 2026 the TextReel authors\nLicense: none-chosen\n The project has not chosen a licence yet: all rights are reserved by its authors.\n' \
	  > $$root/usr/share/doc/textreel/copyright; \
	ln -s textreel $$dbg/usr/share/doc/textreel-dbgsym; \
	size=$$(du -sk --exclude=DEBIAN $$root | cut -f1); \
	printf 'Package: textreel\nVersion: %s\nArchitecture: %s\nMaintainer: TextReel <textreel@localhost>\nInstalled-Size: %s\nDepends: %s\nRecommends: %s\nSection: graphics\nPriority: optional\nDescription: renders Markdown into PNG frames of a scrolling text view\n TextKit 2 viewport layout rebuilt with Pango and Cairo,\n for golden-image tests of text layout.\n' \
	  "$$version" "$$arch" "$$size" "$(DEB_DEPENDS)" "$(DEB_RECOMMENDS)" > $$root/DEBIAN/control; \
	printf 'Package: textreel-dbgsym\nSource: textreel\nVersion: %s\nArchitecture: %s\nMaintainer: TextReel <textreel@localhost>\nDepends: textreel (= %s)\nSection: debug\nPriority: optional\nAuto-Built-Package: debug-symbols\nBuild-Ids: %s\nDescription: debug symbols for textreel\n' \
	  "$$version" "$$arch" "$$version" "$$id" > $$dbg/DEBIAN/control; \
	dpkg-deb --root-owner-group --build $$root "Output/textreel_$${version}_$${arch}.deb" >/dev/null; \
	dpkg-deb --root-owner-group --build $$dbg "Output/textreel-dbgsym_$${version}_$${arch}.ddeb" >/dev/null; \
	echo "wrote Output/textreel_$${version}_$${arch}.deb and Output/textreel-dbgsym_$${version}_$${arch}.ddeb"; \
	if command -v lintian >/dev/null; then lintian "Output/textreel_$${version}_$${arch}.deb" || true; fi

## tsan: the parsing, typesetting and rendering tests (the parallel stress test among them) under
## ThreadSanitizer, in a build folder of their own so `make test`'s build stays incremental
TSAN_TESTS := ConcurrencyTests|MarkdownReaderTests|LazyReadingTests|LayoutTests|RenderTests|AppearanceTests|AttachmentTests|GoldenSuiteTests|ProjectGoldenTests
tsan: setup
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --scratch-path .build/tsan --sanitize=thread $(STRICT) --filter '$(TSAN_TESTS)'

## stress: a GFM-heavy suite of 16 cases (Fixtures/documents/gfm.md at four widths, two scales,
## light and dark, scrolled) recorded once, then run STRESS_RUNS times (default 1000) on two
## workers, each writing every golden whose bytes differ; prints how many runs gave another
## verdict or another frame's bytes than the first
STRESS_RUNS ?= 1000
stress: build
	@bin=$$($(SWIFT) build $(RELEASE) --show-bin-path); suite=Output/stress; rm -rf $$suite; \
	for w in 320 480 640 800; do for s in 1 2; do for t in light dark; do \
	  mkdir -p $$suite/gfm-$$w-$$s-$$t; \
	  echo "{document: \"../../../Fixtures/documents/gfm.md\", script: \"../scroll.json5\", viewport: {width: $$w, height: 360, scale: $$s}, theme: \"$$t\", frames: \"all\"}" > $$suite/gfm-$$w-$$s-$$t/case.json5; \
	done; done; done; \
	echo '{fps: 10, steps: [{scroll: {by: 400, duration: 0.5}}, {scroll: {toParagraph: 12}}, {wait: 0.2}]}' > $$suite/scroll.json5; \
	$$bin/textreel test $$suite --update all --quiet > /dev/null || exit 1; \
	rm -rf $$suite.recorded; cp -a $$suite $$suite.recorded; \
	differing=0; for i in $$(seq 1 $(STRESS_RUNS)); do \
	  $$bin/textreel test $$suite --update all --fail-on-update --workers 2 --quiet > $$suite.log 2>&1 || { \
	    differing=$$((differing + 1)); cp $$suite.log $$suite-failure-$$i.log; rm -rf $$suite; cp -a $$suite.recorded $$suite; }; \
	done; \
	echo "stress: $$differing of $(STRESS_RUNS) runs of 16 GFM cases on 2 workers differed from the recording (a verdict, or a frame's bytes)"; \
	test $$differing -eq 0

## fuzz-build: the libFuzzer targets (a package of their own under Fuzz/)
fuzz-build: setup
	@for t in $(FUZZ_TARGETS); do \
	  (cd Fuzz && $(SWIFT) build -c release --product $$t --sanitize=fuzzer -Xswiftc -parse-as-library $(STRICT)) || exit 1; \
	done

## fuzz-smoke: each target on its seeds and a couple of thousand mutations from a fixed seed,
## so make test mutates the same inputs on every machine (new inputs go to Output/fuzz-smoke/,
## never into the committed seeds); FUZZ_SEED picks other mutations. GLib criticals (Pango's
## "index out of range") end a run as a crash: each is a bug of ours
FUZZ_SEED ?= 1
fuzz-smoke: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  echo "fuzz smoke: $$t"; \
	  rm -rf Output/fuzz-smoke/$$t && mkdir -p Output/fuzz-smoke/$$t; \
	  G_DEBUG=fatal-criticals SWIFT_BACKTRACE=enable=no Fuzz/.build/release/$$t -seed=$(FUZZ_SEED) -runs=$(FUZZ_SMOKE_RUNS) -max_len=4096 -timeout=20 -rss_limit_mb=2048 \
	    -artifact_prefix=Output/fuzz-smoke/$$t- Output/fuzz-smoke/$$t Fixtures/fuzz/$$t > Output/fuzz-smoke/$$t.log 2>&1 \
	    || { tail -n 40 Output/fuzz-smoke/$$t.log; exit 1; }; \
	  grep -E "^Done" Output/fuzz-smoke/$$t.log; \
	done

## fuzz: each target for FUZZ_SECONDS (default 180), corpora under Output/fuzz/
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p Output/fuzz/$$t && cp -n Fixtures/fuzz/$$t/* Output/fuzz/$$t/ 2>/dev/null; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  G_DEBUG=fatal-criticals SWIFT_BACKTRACE=enable=no Fuzz/.build/release/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -timeout=20 -rss_limit_mb=2048 \
	    -artifact_prefix=Output/fuzz/$$t-crash- Output/fuzz/$$t Fixtures/fuzz/$$t 2>&1 | tail -n 3 || exit 1; \
	done

## explore: random scripts on every fixture document and on generated 2,000- and 20,000-paragraph
## documents, EXPLORE_SECONDS (default 300) each; a failing script is shrunk into Output/explore/
## (make test runs a short fixed-seed exploration as part of the test suite)
EXPLORE_DOCUMENTS ?= Fixtures/documents/demo.md Fixtures/documents/attachments.md Fixtures/documents/emoji.md Fixtures/documents/comments.md \
                     Fixtures/documents/gfm.md Fixtures/documents/code.md Output/explore/generated-2000.md Output/explore/generated-20000.md
explore: build
	@bin=$$($(SWIFT) build $(RELEASE) --show-bin-path); mkdir -p Output/explore; \
	$$bin/textreel generate 2000 --out Output/explore/generated-2000.md || exit 1; \
	$$bin/textreel generate 20000 --out Output/explore/generated-20000.md || exit 1; \
	for d in $(EXPLORE_DOCUMENTS); do \
	  echo "explore: $$d for $(EXPLORE_SECONDS) s"; \
	  $$bin/textreel explore $$d --time $(EXPLORE_SECONDS) --runs 1000000 --steps 12 --out Output/explore/cases || exit 1; \
	done

## docs: the libraries' DocC documentation, from symbol graphs of the debug build, by the
## toolchain's own docc (no plugin); prints how many public symbols still lack documentation
DOCS_MODULES := TextReel TextReelMarkdown TextReelGolden TextReelTesting
docs: setup
	$(SWIFT) build $(STRICT)
	@rm -rf .build/symbol-graphs Output/docs && mkdir -p .build/symbol-graphs Output/docs; \
	includes="$$(pkg-config --cflags-only-I pango cairo librsvg-2.0 cmark-gfm 2>/dev/null | sed 's/-I/-Xcc -I/g')"; \
	for m in $(DOCS_MODULES); do \
	  $(SWIFT) symbolgraph-extract -module-name $$m -target $$($(SWIFT) -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1) \
	    -I .build/debug/Modules -I Sources/CPango -I Sources/CMark -I Sources/CImage -I Sources/CCompress -I .build/debug/CHTMLTree.build -I .build/debug/COptionalLibraries.build $$includes \
	    -minimum-access-level public -output-dir .build/symbol-graphs || exit 1; \
	done; \
	docc convert Sources/TextReel/TextReel.docc --additional-symbol-graph-dir .build/symbol-graphs \
	  --fallback-display-name TextReel --fallback-bundle-identifier org.textreel.TextReel \
	  --experimental-documentation-coverage --coverage-summary-level brief \
	  --output-dir Output/docs/TextReel.doccarchive 2>&1 | tail -n 25

## bench-peers: the same documents through TextReel, headless Chromium (one-shot screenshots and a
## 300-frame scroll over the DevTools protocol) and pango-view, alternately; prints the ratios
PEER_PAIRS ?= 5
bench-peers: setup
	$(SWIFT) build $(RELEASE) --product textreel-bench
	$(SWIFT) build $(RELEASE) --product textreel
	$$($(SWIFT) build $(RELEASE) --show-bin-path)/textreel-bench --peers $(PEER_PAIRS)

## bench: release-mode benchmark; prints a table and writes Output/bench/results.json
bench: setup
	$(SWIFT) build $(RELEASE) --product textreel-bench
	$(SWIFT) build $(RELEASE) --product textreel
	$$($(SWIFT) build $(RELEASE) --show-bin-path)/textreel-bench
