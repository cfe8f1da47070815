"""`python -m ttt_rl` runs `ttt-rl`, the original program in one command."""

import sys

from .ttt import main

if __name__ == "__main__":
    sys.exit(main())
