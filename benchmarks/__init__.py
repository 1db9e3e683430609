"""Benchmarks: the engine against micrograd 0.1.0 (``python -m benchmarks``) and the grader's throughput."""
