"""Stand-ins and harnesses for the bot's tests and benchmark scripts, never imported by the bot itself: Slack's side
of the wire (``slack``), the real bot over HTTP on loopback (``harness``), bursts, fault scenarios and bot processes."""
