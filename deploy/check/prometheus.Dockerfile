# A stand-in for prom/prometheus where no registry is reachable (deploy/check.sh): Debian's
# Prometheus on a base made from Debian packages, with the official image's entry point.
ARG OPS_BASE=tourney-ops:bookworm
FROM ${OPS_BASE}
RUN mkdir -p /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
