"""How grades are shown to people: the terminal table and the batch's HTML report."""
