"""What it costs a build's main process to know its components' model ids (recorded in every example's provenance),
component by component, in a fresh process:

    OMP_NUM_THREADS=1 python bench/component_ids.py [--recipe multi2claim]
"""

from __future__ import annotations

import argparse
import resource
import time

from claimforge.config import load_recipe
from claimforge.registry import registry


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recipe", default="multi2claim")
    args = ap.parse_args()
    recipe = load_recipe(args.recipe)
    spec = {("name" if k == "pipeline" else k): v for k, v in recipe.items()}
    pipe = registry.build("pipeline", spec)
    for name in pipe.component_kinds:
        t = time.perf_counter()
        component = pipe.component(name)
        model_id = component.model_id if component is not None else None
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{name:12s} {time.perf_counter() - t:6.2f} s  peak RSS {rss:5.0f} MiB  {model_id}")


if __name__ == "__main__":
    main()
