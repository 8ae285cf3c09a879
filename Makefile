.PHONY: setup demo test sanitize dev bench
setup:
	bash scripts/setup.sh
demo:
	bash scripts/demo.sh
test:
	bash scripts/test.sh
sanitize:
	bash scripts/sanitize.sh
# Incremental developer build: PYTHONPATH=build/dev/python pytest tests/python
dev:
	cmake -S . -B build/dev -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build/dev
# Every bench script once with quick settings against build/dev (a smoke run; bench/run_all.py).
bench: dev
	PYTHONPATH=build/dev/python python3 bench/run_all.py
