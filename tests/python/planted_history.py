"""A small seeded history shared by the result tests: two cases over `commits` commits, two
processes of five samples each per commit; case "a" steps up 30 % at the middle commit."""
import numpy as np

import benchreport as br


def planted_history(commits: int):
    rng = np.random.default_rng(5)
    values, offsets, labels = [], [0], {"benchmark": [], "commit": [], "process": []}
    for case, step in (("a", 1.3), ("b", 1.0)):
        for c in range(commits):
            for p in range(2):
                values.extend(rng.lognormal(0, 0.01, 5) * (step if c >= commits // 2 else 1.0))
                offsets.append(len(values))
                labels["benchmark"].append(case)
                labels["commit"].append(f"{c:04d}")
                labels["process"].append(str(p))
    ds = br.Dataset.from_arrays(np.array(values), np.array(offsets), labels, unit="s")
    return br.history(ds, order="commit")
