"""JSON Schemas shipped with receipt-hooks, loaded through importlib.resources."""
