# Boardroom's Discord bot. Build:  docker build -t boardroom .
# Run:    docker run -d --name boardroom -e DISCORD_TOKEN=... -v boardroom-data:/data boardroom
# The database lives on the /data volume, so games survive new images and restarts;
# `docker stop` sends SIGTERM, on which the bot disconnects and closes the database cleanly.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY render ./render
COPY bot ./bot
COPY data ./data
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin boardroom \
    && mkdir -p /data \
    && chown boardroom:boardroom /data

USER boardroom
WORKDIR /data
ENV BOARDROOM_DB=/data/boardroom.db
VOLUME ["/data"]

STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
