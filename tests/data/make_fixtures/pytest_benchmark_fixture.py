"""Tiny pytest-benchmark tests; make_pytest_benchmark.sh runs them to write tests/data/pytest_benchmark/."""
import pytest


@pytest.mark.parametrize("n", [10, 100])
def test_sum(benchmark, n):
    benchmark(sum, range(n))


@pytest.mark.benchmark(group="strings")
def test_join(benchmark):
    benchmark(",".join, ["a"] * 50)
