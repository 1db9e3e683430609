"""What leaves the instructor's machine: the student release, the Gradescope bundle and the
``results.json`` it writes there, and the public-only test modules both ship."""
