"""JSON: the error-tolerant parser and scanner that keep every value's span."""
