# sxmj — Shaoxing Mahjong in the browser.
#   make play    install what is missing, build the runtime, serve at http://127.0.0.1:8000/ (PORT=)
#   make test    ruff + mypy + unit tests with coverage + browser tests (installs the tools it needs)
#   make e2e     the browser tests, the friends ones inside a network namespace (root)
#   make typecheck  mypy: --strict over the core, the default checks over sxmj/ui/
#   make site    build _site/ for GitHub Pages
#   make article the site, and another site's article embedding it: http://localhost:8001/ (ARTICLE_PORT=)
#   make bench   run the benchmarks (make bench-boot, make bench-first-visit, make bench-embeds: one browser benchmark; make bench-room: a hostile peer's cost to the host)
#   make sync    rewrite the [files] table of pyscript.toml from sxmj/**/*.py
#   make snapshot  build the compiled standard library and sources bundle the pages boot from (site, play)
#   make clean   remove build output (distclean also removes .venv and node_modules)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
PORT ?= 8000
VENV := .venv
VPY := $(VENV)/bin/python
CHROMIUM := /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -q

.PHONY: help play serve article test lint typecheck unit e2e e2e-friends site vendor snapshot sync bench \
	bench-boot bench-first-visit bench-embeds bench-room clean distclean venv chromium coturn npm

help:
	@sed -n 's/^#   //p' Makefile

# --- runtime: npm packages pinned in package-lock.json, copied to static/vendor ---------

npm:
	@command -v npm >/dev/null || { echo "npm missing: installing Debian's nodejs + npm"; \
	  $(APT) update && $(APT) install nodejs npm; }

# npm ci again whenever package.json or the lock file is newer than the installed tree
node_modules/.package-lock.json: package.json package-lock.json | npm
	npm ci --no-audit --no-fund
	@touch $@

vendor: node_modules/.package-lock.json
	$(PYTHON) scripts/build_vendor.py

sync:
	$(PYTHON) scripts/sync_pyscript_files.py

# static/vendor/snapshot/ (the compiled standard library, the sources bundle, the manifest the
# device's memory snapshot is made from): rebuilt (about 5 s) only when sxmj/ or the runtime changed
snapshot: vendor
	$(PYTHON) scripts/build_snapshot.py

play: vendor snapshot sync
	PORT=$(PORT) $(PYTHON) scripts/serve.py

serve: play

site: vendor snapshot
	$(PYTHON) scripts/build_site.py

# examples/third-party.html on another site (localhost) than the game (127.0.0.1/sxmj/)
article: site
	PORT=$(PORT) $(PYTHON) scripts/serve_article.py

# --- tests ---------------------------------------------------------------------------

$(VENV)/.installed: requirements-dev.txt
	@$(PYTHON) -c 'import venv, ensurepip' 2>/dev/null || $(APT) install python3-venv
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@touch $@

venv: $(VENV)/.installed

# Debian's Chromium, driven by Playwright through executable_path (never `playwright install`),
# Noto CJK (without it the Chinese text of the screenshots renders as empty boxes) and Noto
# Color Emoji (the daily challenge's share text)
chromium:
	@[ -x $(CHROMIUM) ] && dpkg -s fonts-noto-cjk fonts-noto-color-emoji >/dev/null 2>&1 || { \
	  echo "installing Debian chromium, fonts-noto-cjk and fonts-noto-color-emoji"; \
	  $(APT) update && $(APT) install chromium fonts-noto-cjk fonts-noto-color-emoji; }

# Debian's coturn: the friends tests' TURN relay (e2e/test_friends_relay.py starts it inside
# the test's network namespace; the package's own service is never started)
coturn:
	@command -v turnserver >/dev/null || { echo "installing Debian coturn"; \
	  $(APT) update && $(APT) install --no-install-recommends coturn; }

lint: venv
	$(VENV)/bin/ruff check .

# mypy (config: pyproject.toml [tool.mypy]; stubs of pyscript and js: typings/)
MYPY_CORE := $(VENV)/bin/mypy --strict --exclude '^sxmj/ui/' sxmj
MYPY_UI := $(VENV)/bin/mypy --follow-imports=silent sxmj/ui

typecheck: venv
	@failed=""; $(MYPY_CORE) || failed=1; $(MYPY_UI) || failed=1; [ -z "$$failed" ]

# Branch coverage of sxmj/ over the unit tests; the core (sxmj/ without ui/) must stay at or
# above the floor (set just under its figure: docs/testing.md "Quality checks").
COVERAGE_FLOOR := 93.0
PYTEST_COV := --cov --cov-report=
# every run names its slowest tests, so CI's log says where the minutes go (set before
# UNIT_JOBS, which `:=` expands at once)
DURATIONS := --durations=25
# The unit tests run on two processes (pytest-xdist; `worksteal` hands a slow test's
# neighbours to the idle one): about 10 minutes with coverage on 2 cores, where one took 30
UNIT_JOBS := -n 2 --dist worksteal $(DURATIONS)
COVERAGE_REPORT := $(VPY) scripts/coverage_report.py --floor $(COVERAGE_FLOOR)

# pytest exits 5 when it collected no test: that fails the build like any other failure
define pytest
	@$(VPY) -m pytest $(1) $(2) || { rc=$$?; [ $$rc -ne 5 ] || echo "make: no test ran in $(1)/"; exit $$rc; }
endef

unit: venv
	$(call pytest,tests,$(UNIT_JOBS) $(PYTEST_COV))
	$(COVERAGE_REPORT)

# Chromium's renderer crashes now and then on this 2-core machine ("Target crashed", about
# one page boot in a few hundred when the machine is busy): that one error, and nothing
# else, gets a second run of its test; pytest's summary names every rerun
E2E_RERUN := --reruns 1 --only-rerun 'Target crashed' $(DURATIONS)

# The friends-mode tests (WebRTC between browsers, a local PeerServer) run in a network
# namespace of their own (scripts/netns_run: root, as CI); the plain e2e run skips them.
FRIENDS_E2E := scripts/netns_run $(VPY) -m pytest $(E2E_RERUN) $(wildcard e2e/test_friends*.py)

e2e: venv chromium coturn site
	@failed=""; \
	$(VPY) -m pytest $(E2E_RERUN) e2e || failed="$$failed e2e(pytest exit $$?)"; \
	$(FRIENDS_E2E) || failed="$$failed e2e-friends(exit $$?)"; \
	if [ -n "$$failed" ]; then echo "make e2e FAILED:$$failed"; exit 1; fi

e2e-friends: venv chromium coturn site
	$(FRIENDS_E2E)

# Every step runs even when one fails, so one run shows every problem
# (pytest exit 5 means no test was collected: a failure too).
test: venv chromium coturn site
	@failed=""; \
	$(VENV)/bin/ruff check . || failed="$$failed ruff"; \
	$(MYPY_CORE) || failed="$$failed mypy(core)"; \
	$(MYPY_UI) || failed="$$failed mypy(ui)"; \
	if $(VPY) -m pytest tests $(UNIT_JOBS) $(PYTEST_COV); then \
	  $(COVERAGE_REPORT) || failed="$$failed coverage"; \
	else failed="$$failed tests(pytest exit $$?)"; fi; \
	$(VPY) -m pytest $(E2E_RERUN) e2e || failed="$$failed e2e(pytest exit $$?)"; \
	$(FRIENDS_E2E) || failed="$$failed e2e-friends(exit $$?)"; \
	if [ -n "$$failed" ]; then echo "make test FAILED:$$failed"; exit 1; fi

bench: bench-boot bench-first-visit bench-embeds
	$(PYTHON) scripts/bench.py

# boot: the game against bare Pyodide in headless Chromium, the skeleton's paint, warm reloads
bench-boot: venv chromium site
	$(VPY) scripts/bench_boot.py

# a first and a second visit on a phone network (4G, slow 4G: DevTools' network emulation),
# served as GitHub Pages serves the site: bytes until ready, ready, first paint
bench-first-visit: venv chromium site
	$(VPY) scripts/bench_first_visit.py

# what a hostile message costs the friends room's host, in CPython and Pyodide
bench-room: venv npm node_modules/.package-lock.json
	$(VPY) scripts/bench_room.py

# 12 embeds on another site's page: lazy and eager, times to ready and memory
bench-embeds: venv chromium site
	$(VPY) scripts/bench_embeds.py

clean:
	rm -rf _site static/vendor e2e/artifacts .pytest_cache .ruff_cache .hypothesis bench/out \
	  .mypy_cache .coverage .coverage.*
	find . -name __pycache__ -type d -not -path './.venv/*' -not -path './node_modules/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) node_modules
