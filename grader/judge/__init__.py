"""Judge in the parent: compare a child's observations with the reference's, explain each
failure, draw the diagram; ``reference`` computes (and caches) the expected observations."""
