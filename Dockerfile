# One image for every tourney process: the arena, the tournament/league driver and the Ray nodes
# (head and workers must run the same Ray and Python versions, so they share this image).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    RAY_AUTH_MODE=disabled

WORKDIR /app
# Dependencies first, so a code change does not reinstall them (health and reflection: the
# Kubernetes gRPC probes ask the standard health service).
COPY pyproject.toml README.md ./
RUN mkdir -p engine tournament workers \
    && touch engine/__init__.py tournament/__init__.py workers/__init__.py \
    && pip install . grpcio-health-checking grpcio-reflection \
    && pip uninstall -y tourney
COPY engine engine
COPY tournament tournament
COPY workers workers
RUN pip install --no-deps . && tourney games --json > /dev/null

# Not root; Ray keeps its session files under /tmp/ray.
RUN useradd --create-home --uid 10001 tourney
USER tourney

# 50051 arena gRPC, 9464 arena metrics, 9465 driver metrics, 6379 Ray GCS, 8080 Ray metrics, 8265 Ray dashboard
EXPOSE 50051 9464 9465 6379 8080 8265
CMD ["tourney", "--help"]
