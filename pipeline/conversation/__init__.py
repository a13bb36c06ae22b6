"""Conversations: a thread's earlier turns, and follow-ups read in their light."""
