"""What a workflow means: tool names, the workflow model read from the syntax tree, the tool
graph, and rename fixes."""
