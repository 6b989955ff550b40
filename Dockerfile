# Boardroom's Discord bot. Build:  docker build -t boardroom .
# Check:  docker run --rm boardroom boardroom check     (the commands fit Discord's limits)
# Run:    docker run -d --name boardroom --restart on-failure:5 \
#             -e DISCORD_TOKEN=... -v boardroom-data:/data boardroom
# The database lives on the /data volume, so games survive new images and restarts;
# `docker stop` sends SIGTERM, on which the bot disconnects and closes the database cleanly.
#
# How a refused start ends: when the bot cannot start as it is (Discord refused the token
# or the command registration, the commands break one of Discord's limits, the database
# is damaged), it says why in one sentence (`docker logs boardroom`) and ends with exit
# status 1; a restart would end the same way. It never exits for a network or Discord
# outage: it waits and tries again itself. Hence `--restart on-failure:5`: a crash is
# restarted, a refused start is tried 5 more times (about half a minute, Docker waiting
# longer each time) and then stays stopped, "Exited (1)" in `docker ps -a`, instead of
# looping; fix what the sentence names, then `docker start boardroom` (which also resets
# the count: Docker counts restarts since the last start by hand, so a bot that crashed 5
# times since then stays stopped too). Not `unless-stopped` or `always`: they restart a
# refused start for ever, once a minute. docs/discord.md says the same.
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
