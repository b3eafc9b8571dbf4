"""``python -m pinochle_sim``: the same as the ``pinochle-sim`` command."""
import sys

from .cli import main

sys.exit(main())
