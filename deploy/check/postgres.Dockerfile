# A stand-in for the official postgres:15 image where no registry is reachable (deploy/check.sh):
# Debian's PostgreSQL 15 on a base made from Debian packages, honouring the same POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB variables and data directory.
ARG OPS_BASE=tourney-ops:bookworm
FROM ${OPS_BASE}
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
EXPOSE 5432
ENTRYPOINT ["/bin/sh", "/usr/local/bin/postgres-entrypoint.sh"]
