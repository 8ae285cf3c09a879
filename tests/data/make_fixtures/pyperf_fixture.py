"""A tiny pyperf benchmark; make_pyperf.sh runs it to write tests/data/pyperf/."""
import pyperf

runner = pyperf.Runner()
runner.timeit("sort_small", stmt="sorted(data)", setup="data = list(range(50))[::-1]")
runner.timeit("join_small", stmt="','.join(data)", setup="data = [str(i) for i in range(20)]")
