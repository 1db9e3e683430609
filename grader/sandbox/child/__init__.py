"""Everything that runs inside the untrusted child process, and nothing else.

Imports only the standard library, ``micrograph``, ``grader.spec`` and this folder: never the
parent side of ``grader``.  The cache of expected answers hashes this folder whole.
"""
