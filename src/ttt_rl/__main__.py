"""`python -m ttt_rl` runs `ttt-rl`: train, then play, as antirez's ttt.c."""

import sys

from .ttt import main

sys.exit(main())
