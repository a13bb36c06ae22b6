# The Slack bot. Same install recipe as CI (scripts/install.sh): torch, then every other package from the hashed
# requirements.lock (hash-checking mode), then pip check.
# Build: docker build -t kgqa-bot:0.1.0 .
#   --build-arg TORCH_INDEX_URL=<index>  where torch's CPU wheel comes from (default: PyTorch's CPU index; empty: pip's
#                                        own configuration, e.g. a wheel on disk)
#   --build-arg BASE_IMAGE=<image>       any Debian 12 image with python3 (3.11) and python3-venv
# scripts/container_check.sh builds and runs it with podman on a base made from Debian's packages.
ARG BASE_IMAGE=python:3.11-slim-bookworm
FROM ${BASE_IMAGE}

ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH \
    KGQA_HOME=/data \
    KGQA_HTTP_PORT=3000 \
    KGQA_ENCODER_CACHE=/opt/kgqa-models

WORKDIR /app
COPY requirements.lock requirements-dev.lock pyproject.toml README.md ./
COPY scripts/install.sh scripts/install.sh
COPY pipeline pipeline
COPY bot bot
# pip's cache stays out of the image; the encoder's ONNX export is made here, once, so a container answers without
# exporting it at start
RUN --mount=type=cache,target=/root/.cache/pip \
    TORCH_INDEX_URL="$TORCH_INDEX_URL" bash scripts/install.sh /opt/venv \
    && python -c "from pipeline.factory import build_encoder; from pipeline.settings import Settings; \
build_encoder(Settings.from_env()).encode(['ready'])" \
    && useradd --create-home --uid 10001 kgqa \
    && mkdir -p /data && chown kgqa /data

USER 10001
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('KGQA_HTTP_PORT', '3000'), timeout=4)"]
CMD ["python", "-m", "bot"]
