# Convenience targets; the README's two commands are scripts/quickstart.sh and scripts/test.sh.
.PHONY: bench bench-serve bench-cli test fuzz
bench:   ## Swift backends vs the engine baselines and the raw layout, N = 10,000 and 100,000, 3 interleaved runs (~35 min)
	bash bench/run.sh
bench-serve:  ## accounts serve under wrk: GET /v1/me per backend vs a bare route, login/sign-up vs the hashing limit (~6 min)
	bash bench/serve.sh
bench-cli:  ## one accounts process per call on 100,000 users vs sqlite3 / json.load, hyperfine (~4 min)
	bash bench/cli.sh
test:
	./scripts/test.sh
fuzz:    ## 1,000,000 executions per fuzz target
	./scripts/fuzz.sh
