"""``kgqa chat``: a conversation in the terminal, with line editing and a history kept across sessions (readline),
and the same thread memory as a Slack thread (follow-ups read with the earlier questions)."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pipeline.conversation.talk import Asker, Conversation
from pipeline.glance import textview
from pipeline.names.index import LabelIndex
from pipeline.state.threads.memory import local_memory

PROMPT = "kgqa> "
QUIT = frozenset({"exit", "quit", ":q", "/exit", "/quit"})
HISTORY_LINES = 1000
THREAD = "chat"


def line_editing(history: Path | None) -> Callable[[], None]:
    """Turn on readline's editing and history (kept in ``history``); returns what saves the history at the end."""
    try:
        import readline
    except ImportError:  # no readline on this platform: plain input() still works
        return lambda: None
    if history is not None and history.is_file():
        try:
            readline.read_history_file(str(history))
        except OSError:
            pass
    readline.set_history_length(HISTORY_LINES)

    def save() -> None:
        if history is not None:
            try:
                history.parent.mkdir(parents=True, exist_ok=True)
                readline.write_history_file(str(history))
            except OSError:
                pass

    return save


def chat(pipeline: Asker, index: Callable[[], LabelIndex | None] | None = None, *, as_json: bool = False,
         read: Callable[[str], str] = input, write: Callable[[str], None] = print,
         history: Path | None = None, prompt: str = PROMPT) -> int:
    """Ask each line in one conversation until end of input or ``exit``."""
    save = line_editing(history)
    talk = Conversation(pipeline, local_memory(), index)
    write("Ask about the Open Research Knowledge Graph; follow-ups like 'and on SQuAD2.0?' refer to the earlier "
          "questions. 'exit' or Ctrl-D ends.")
    try:
        while True:
            try:
                line = read(prompt).strip()
            except EOFError:
                break
            if line.lower() in QUIT:
                break
            if not line:
                continue
            answer = talk.ask(THREAD, line)
            write(json.dumps(answer.to_json(), ensure_ascii=False) if as_json else textview.answer(answer))
    except KeyboardInterrupt:
        write("")
    finally:
        save()
    return 0
