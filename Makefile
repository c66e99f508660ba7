# dpworkbench — two set-up commands: `make reproduce` and `make test`.
# Both create .venv with the pinned versions of pyproject.toml (idempotent: the
# install step re-runs only when pyproject.toml changes).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PROFILE ?= quick

.PHONY: install reproduce test test-fast bench lab teach report clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@# Spark (issue 14) needs Java 17+: the machine's JRE when it has one, else Debian's headless JRE (root only)
	@v=$$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1); \
	if [ -z "$$v" ] || [ "$$v" -lt 17 ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null) \
	      || echo "warning: could not install openjdk-17-jre-headless; Spark tests will be skipped"; \
	  else echo "warning: no Java 17+ (install openjdk-17-jre-headless); Spark tests will be skipped"; fi; \
	fi
	@# The browser tests drive Debian's chromium and check that an emoji draws in colour (Noto Color Emoji): installed
	@# here when missing (root + apt only; the tests also try, and skip with the reason when they cannot).
	@if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi "Noto Color Emoji"; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing chromium and fonts-noto-color-emoji for the browser tests (apt)"; \
	    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-noto-color-emoji >/dev/null 2>&1 \
	      || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-noto-color-emoji >/dev/null)) \
	      || echo "warning: could not install chromium/fonts-noto-color-emoji; the browser tests will try again or skip"; \
	  else echo "warning: no chromium or Noto Color Emoji (install chromium fonts-noto-color-emoji); browser tests may skip"; fi; \
	fi
	@# pip's and setuptools' build chatter goes to a log (a normal run prints progress and results only); on failure
	@# the log's tail is shown and make stops.
	@echo "installing the pinned dependencies into $(VENV) (log: $(VENV)/install.log)"
	@$(PY) -m pip install --quiet --upgrade pip > $(VENV)/install.log 2>&1 || true
	@$(PY) -m pip install --quiet -e ".[dev]" >> $(VENV)/install.log 2>&1 || (tail -40 $(VENV)/install.log; exit 1)
	@# The class app's own widget manager (dpworkbench/teaching/app.py: Voilà's front end is older than JupyterLab's)
	@$(PY) -c "from dpworkbench.teaching.app import install_app_widget_manager as i; i()" >> $(VENV)/install.log 2>&1 || (tail -20 $(VENV)/install.log; exit 1)
	@$(PY) -c "import dpworkbench, papermill, duckdb, numba, opendp, highspy, pyspark" 
	@touch $(STAMP)

install: $(STAMP)

# Run every notebook headlessly in the quick profile; writes reports/quick/index.html.
# The paper profile resumes by default (RESUME=0 to start over): notebooks that finished with unchanged code are kept.
RESUME ?= $(if $(filter paper,$(PROFILE)),1,0)
# Seconds one cell may run; empty: the profile's own limit (dpworkbench.cli.CELL_TIMEOUT: 1800 s, 4 h in paper).
TIMEOUT ?=
# The paper profile runs two notebooks side by side (one kernel each: the 2 cores of the machine it is timed on).
JOBS ?= $(if $(filter paper,$(PROFILE)),2,1)
# Each kernel may use 90% of the RAM divided among the jobs; past it the notebook is stopped and recorded as "memory".
MAX_MEMORY ?= $(shell awk '/MemTotal/ {printf "%.1f", $$2 / 1048576 * 0.9 / $(JOBS)}' /proc/meminfo 2>/dev/null)
reproduce: $(STAMP)
	@$(PY) -m dpworkbench reproduce --profile $(PROFILE) $(if $(TIMEOUT),--timeout $(TIMEOUT),) --jobs $(JOBS) $(if $(filter 1,$(RESUME)),--resume,) $(if $(MAX_MEMORY),--max-memory $(MAX_MEMORY),)

# The full test suite (unit, privacy audits, notebooks in the ci profile, browser), on two workers (pytest-xdist, one per
# core); the browser tests run one at a time (tests/browser/conftest.py).
test: $(STAMP)
	$(PY) -m pytest -q -n 2 --dist worksteal

test-fast: $(STAMP)
	$(PY) -m pytest -q -m "not notebook and not browser and not slow"

# Every benchmark in benchmarks/, ratios against reference implementations -> reports/bench.csv
bench: $(STAMP)
	$(PY) -m dpworkbench bench

report: $(STAMP)
	$(PY) -m dpworkbench report --profile $(PROFILE)

lab: $(STAMP)
	$(PY) -m dpworkbench lab

# A teaching notebook as a Voilà app for class (no code shown), on localhost:
#   make teach NB=mechanisms/learn_sparse_vector   (without NB: the notebook tree)
NB ?=
teach: $(STAMP)
	$(PY) -m dpworkbench teach $(NB)

clean:
	rm -rf $(VENV) reports results .pytest_cache
