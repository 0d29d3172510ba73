"""One workflow document kept analysed as it is edited: whole reads, incremental re-reads,
and the rules run over what changed."""
