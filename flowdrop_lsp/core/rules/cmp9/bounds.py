"""How much CMP-9 says and looks at: the caps on a finding's text, related locations and
`consumers` list, when a consumer is crowded (one summary finding instead of one per tool), and
how collisions are found. Read as `bounds.NAME` at call time, so that tests can lower them."""

from __future__ import annotations

from flowdrop_lsp.core.rules.base import FINDINGS_PER_GROUP

MAX_NAMED_OTHERS = 2  # other colliding tools named in a message or a fix title
MAX_NAMED_CONSUMERS = 2  # consumers named in a message
MAX_RELATED_OTHERS = 20  # other colliding tools given as related locations
MAX_RELATED_CONSUMERS = 20  # consumers given as related locations
MAX_RELATED_REFERENCES = 20  # references to a changed name given as related locations
MAX_NAMED_BOXES = 4  # toolboxes named in a route
MAX_CONSUMER_ENTRIES = 50  # consumers listed in a finding's `consumers` (the message counts all)
MAX_COLLIDING_LISTED = 100  # tools in one entry's `colliding_with` (`colliding_count` says all)
MAX_COLLIDING_PER_FINDING = 1000  # tools in all its entries' `colliding_with` together
# Toolboxes in one entry's `route` (`route_length` then says how many): a route is as long as
# the chain, and a finding per tool of a 10,000-node chain listing it whole grew the output (and
# the time) with the chain's length squared.
MAX_ROUTE_LISTED = 100
# At one consumer; beyond it, one summary finding for the consumer. 200k pairs ≈ 630 tools of
# one name: hundreds of same-named tools still get their own findings and fixes.
MAX_COLLIDING_PAIRS = 200_000
MAX_SUMMARY_NAMES = 5  # colliding names quoted in a summary finding
# Crowded consumers summarised one by one; past them, one finding counts the rest (a chain of
# thousands of toolboxes, each to its own agent, has thousands of crowded agents).
MAX_CROWDED_SUMMARIES = FINDINGS_PER_GROUP
NAME_LIMIT = 40  # characters of a label quoted in a message

# Above this many nodes sharing tool names, a consumer's collisions are found from bit sets of
# which of them reach it (core.domain.reach.ReachMasks); below, by checking which of those nodes reach it
# (cached per graph state). Flattening every consumer would cost a long chain of toolboxes,
# each wired to an agent, the square of its length.
MAX_CANDIDATES_FOR_REACH = 64
# Bit sets cost (nodes sharing names) × (toolboxes) bits at most: past this, flatten instead.
MAX_MASK_BITS = 1 << 28
KEPT_OF_CROWDED = MAX_RELATED_OTHERS // MAX_SUMMARY_NAMES  # leaves a summary names per name
