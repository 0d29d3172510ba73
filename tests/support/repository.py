"""What the repository tests share with the docs tests: what reads beside the clone."""

from __future__ import annotations

import re

OUTSIDE = re.compile(r"\.\./shared|parents?\s*/\s*[\"']shared[\"']|[\"']shared[\"']\s*/")
