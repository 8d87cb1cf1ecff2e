"""Grading a class: validating runs, reading the students' roster, the leaderboard and its report."""
