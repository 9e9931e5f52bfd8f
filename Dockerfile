# One image for every tourney process: the arena, the tournament/league driver and the Ray nodes
# (head and workers must run the same Ray and Python versions, so they share this image; Ray is
# pinned in pyproject.toml to the version deploy/k8s/raycluster.yaml names).
#
# BASE: any Debian-like image with python3 (3.11+) and its venv module. The default is the official
# Python image; deploy/check.sh passes a base made from Debian packages where no registry is reachable.
# PIP_OPTIONS: extra pip options, e.g. "--no-index --find-links /build" to install from wheels that
# were downloaded into deploy/wheels/ beforehand (a build without access to the package index).
ARG BASE=python:3.11-slim
FROM ${BASE}
ARG PIP_OPTIONS=""

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    RAY_AUTH_MODE=disabled \
    PATH=/opt/tourney/bin:$PATH

# bubblewrap: the sandbox every hosted bot runs in (a base from deploy/check.sh already includes it).
RUN command -v bwrap >/dev/null || (apt-get update && apt-get install -y --no-install-recommends bubblewrap \
    && rm -rf /var/lib/apt/lists/*)

# A virtual environment of its own: the same on the official image and on a Debian base (whose
# system Python refuses pip installs).
RUN python3 -m venv /opt/tourney

WORKDIR /build
# Dependencies first, so a code change does not reinstall them (the empty layer folders stand in for the
# code, which installs as `tourney.engine`, ... by setup.py; health and reflection: the
# Kubernetes gRPC probes ask the standard health service). deploy/wheel[s] copies the downloaded
# wheels when there are any, and nothing otherwise.
COPY pyproject.toml setup.py README.md deploy/wheel[s] /build/
RUN pip install $PIP_OPTIONS setuptools wheel \
    && mkdir -p engine tournament workers web envs \
    && touch engine/__init__.py tournament/__init__.py workers/__init__.py web/__init__.py envs/__init__.py \
    && pip install $PIP_OPTIONS --no-build-isolation . \
    && pip uninstall -y tourney \
    && rm -rf /build/*.whl /build/engine /build/tournament /build/workers /build/web /build/envs /build/build \
              /build/*.egg-info
COPY engine engine
COPY tournament tournament
COPY workers workers
COPY web web
COPY envs envs
# The Python bot SDK is its own package; tourney's tools (`tourney connect`, arena clients) use it.
COPY clients/python clients/python
# The stubs' build directory is gone, so none of them can shadow the real sources (a copied file keeps
# its older time); the last line proves the real packages are installed.
RUN pip install --no-deps --no-build-isolation . ./clients/python \
    && rm -rf /build/build /build/*.egg-info /build/clients/python/build /build/clients/python/*.egg-info \
    && tourney games --json > /dev/null \
    && python -c "from tourney.workers import make_executor; from tourney.tournament.league.arena_loop import LeagueLoop" \
    && python -c "import tourney_bot"

# Not root; Ray keeps its session files under /tmp/ray.
RUN useradd --create-home --uid 10001 tourney
USER tourney
WORKDIR /home/tourney

# 50051 arena gRPC, 9464 arena metrics, 9465 driver metrics, 6379 Ray GCS, 10001 Ray Client,
# 8080 Ray metrics, 8265 Ray dashboard
EXPOSE 50051 9464 9465 6379 10001 8080 8265
CMD ["tourney", "--help"]
