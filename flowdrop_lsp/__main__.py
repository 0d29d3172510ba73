"""`python -m flowdrop_lsp` is the same as the `flowdrop-lsp` console script."""

import sys

from flowdrop_lsp.entry import main

sys.exit(main())
