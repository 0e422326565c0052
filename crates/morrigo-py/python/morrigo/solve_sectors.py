"""``python -m morrigo.solve_sectors RULESET --db DIR --max-pieces N
[--address ADDR] [--whole-game]``: the moving-phase sectors of a Morris
ruleset solved as Ray tasks, one per sector. The function is
:func:`morrigo.solve_sectors` (in ``morrigo._sectors``)."""

import sys

from ._sectors import main

if __name__ == "__main__":
    sys.exit(main())
