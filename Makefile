# Convenience targets; the README's two commands are scripts/quickstart.sh and scripts/test.sh.
.PHONY: bench test fuzz
bench:   ## Swift backends vs the raw engines, N = 10,000 and 100,000, 3 interleaved runs (~25 min)
	bash bench/run.sh
test:
	./scripts/test.sh
fuzz:    ## 1,000,000 executions per fuzz target
	./scripts/fuzz.sh
