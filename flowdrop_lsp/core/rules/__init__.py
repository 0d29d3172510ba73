"""The rules: one module each (a package for the larger ones), each with a stable code, a default
severity, a check and its documentation; rules/registry.py lists them."""
