"""The hostile gallery's helpers live beside its tests."""
