"""``python -m trainlib.tune ...``: the ``trainlib tune`` command on its own."""

import sys

from trainlib.tune.cli import main

if __name__ == "__main__":
    sys.exit(main())
