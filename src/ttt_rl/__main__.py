"""`python -m ttt_rl` runs `ttt-rl`, the original program in one command."""

import sys

from .ttt import main

sys.exit(main())
