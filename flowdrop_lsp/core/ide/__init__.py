"""Editor features as plain data: the queries the LSP layer asks, answered from the engine."""
