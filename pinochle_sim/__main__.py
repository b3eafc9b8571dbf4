"""``python -m pinochle_sim``: the same as the ``pinochle-sim`` command."""
import sys

from .present.cli import main

sys.exit(main())
