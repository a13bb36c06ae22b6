"""What only the bot keeps, one package per thing kept: ``dedup`` (events already answered) and ``proposals`` (👍
pairs awaiting a maintainer, and long pairs remembered for their button). Each package's ``base`` holds the contract
(a ``Protocol``) with its backends beside it; ``backend`` builds every part, the bot's and the pipeline's it uses,
from settings."""
