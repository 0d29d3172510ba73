"""Reading and writing workflow formats: the syntax tree with spans, one folder per format, and
the reader seam (syntax/reader.py), the only way the layers above reach a format."""
