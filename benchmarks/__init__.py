"""Benchmarks: micrograph against micrograd and PyTorch (one-element tensors), run in one process."""
