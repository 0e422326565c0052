"""``python -m morrigo.sweep SPEC [--address ADDR] [--results DIR]``: a
sweep spec run as Ray tasks (what ``morrigo sweep SPEC --ray ADDR`` runs).
The function is :func:`morrigo.sweep` (in ``morrigo._sweep``)."""

import sys

from ._sweep import main

if __name__ == "__main__":
    sys.exit(main())
