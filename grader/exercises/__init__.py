"""The exercises' tests, one module per exercise (``exNN.py``); see docs/hidden-tests.md."""
