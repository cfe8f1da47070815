"""The test suite. Run with `make test` (unittest) or pytest.

Importing this package puts src/ on the path, so the tests run from a fresh
checkout without installing anything.
"""

import os
import sys

_SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
if _SRC not in sys.path:
    sys.path.insert(0, _SRC)
