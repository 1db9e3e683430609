"""The ``grade`` commands: argument handling and printing only (see ``app`` for the group)."""
