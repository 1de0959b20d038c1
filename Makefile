# Convenience targets; the README's two commands are scripts/quickstart.sh and scripts/test.sh.
.PHONY: bench bench-serve bench-cli bench-import test fuzz install uninstall
PREFIX ?= /usr/local
DESTDIR ?=
install:  ## the release build (as you), its manual page and completions under PREFIX (sudo only for the copy, when PREFIX is not yours)
	./scripts/install.sh --prefix "$(PREFIX)" --destdir "$(DESTDIR)"
uninstall:  ## removes exactly the files `make install` puts under PREFIX
	./scripts/install.sh --prefix "$(PREFIX)" --destdir "$(DESTDIR)" --uninstall
bench:   ## the engine table (backends vs the engine baselines and the raw layout, ~35 min), then the CLI round-trip table (~4 min)
	bash bench/run.sh
	bash bench/cli.sh
bench-serve:  ## accounts serve under wrk: GET /v1/me per backend vs a bare route, login/sign-up vs the hashing limit (~6 min)
	bash bench/serve.sh
bench-cli:  ## one accounts process per call on 100,000 users vs sqlite3 / json.load, hyperfine (~4 min)
	bash bench/cli.sh
bench-import:  ## 1,000,000 users moved in from a Django export vs this store's own export, into SQLite (~10 min)
	bash bench/import.sh
test:
	./scripts/test.sh
fuzz:    ## 1,000,000 executions per fuzz target
	./scripts/fuzz.sh
