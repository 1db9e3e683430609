"""A course: its folder, its catalogue of exercises, the intake of submissions, batch grading."""
