#!/usr/bin/env bash
# Installs pgvector 0.8.0 into Debian's PostgreSQL 15, built from Debian's source package (Debian 12 ships no
# pgvector binary package; trixie's source builds against bookworm's postgresql-server-dev-15). Needs root (apt-get,
# make install). Idempotent: does nothing if PostgreSQL 15 already offers the extension (vector.control exists).
# The tests of the pgvector path on native PostgreSQL 15 (engram-postgres, engram-it) need it; .ci/run calls it.
set -euo pipefail

PG_CONFIG="${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}"
VERSION=0.8.0
URL="http://deb.debian.org/debian/pool/main/p/pgvector/pgvector_${VERSION}.orig.tar.gz"
SHA256=867a2c328d4928a5a9d6f052cd3bc78c7d60228a9b914ad32aa3db88e9de27b0

if [ ! -x "$PG_CONFIG" ]; then
  echo "install-pgvector: $PG_CONFIG is missing: install PostgreSQL 15 first (apt-get install postgresql-15)" >&2
  exit 1
fi
control="$("$PG_CONFIG" --sharedir)/extension/vector.control"
if [ -f "$control" ]; then
  echo "install-pgvector: pgvector is already installed ($control)"
  exit 0
fi

need_apt=()
# Both the PGXS makefiles and the server headers: some images carry the first without the second.
{ [ -f "$("$PG_CONFIG" --pgxs)" ] && [ -f "$("$PG_CONFIG" --includedir-server)/postgres.h" ]; } \
  || need_apt+=(postgresql-server-dev-15)
{ command -v make >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1; } || need_apt+=(build-essential)
command -v curl >/dev/null 2>&1 || need_apt+=(curl)
if [ ${#need_apt[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$work/pgvector_${VERSION}.orig.tar.gz"
curl -fsSL --retry 3 -o "$tarball" "$URL"
actual="$(sha256sum "$tarball" | cut -d' ' -f1)"
if [ "$actual" != "$SHA256" ]; then
  echo "install-pgvector: checksum mismatch for $URL" >&2
  echo "  expected $SHA256" >&2
  echo "  got      $actual" >&2
  exit 1
fi
tar xzf "$tarball" -C "$work"
# OPTFLAGS="" leaves out pgvector's default -march=native, so the library runs on any x86-64/arm64 machine.
make -s -C "$work/pgvector-${VERSION}" PG_CONFIG="$PG_CONFIG" OPTFLAGS=""
make -s -C "$work/pgvector-${VERSION}" PG_CONFIG="$PG_CONFIG" OPTFLAGS="" install
if [ ! -f "$control" ]; then
  echo "install-pgvector: make install did not install $control" >&2
  exit 1
fi
echo "install-pgvector: installed pgvector ${VERSION} into PostgreSQL 15 ($control)"
