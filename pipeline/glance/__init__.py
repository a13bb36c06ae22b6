"""Answers read at a glance: a one-sentence summary, the leaderboard behind a ranking, and its bar chart."""
