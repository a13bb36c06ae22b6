"""Answers read at a glance: a one-sentence summary, the leaderboard behind a ranking, its bar chart, and the
whole answer as plain text."""
