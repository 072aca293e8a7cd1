#!/usr/bin/env bash
# The README's test command: installs what the tests need when it is missing, then runs `mvn -B verify`.
#
#   scripts/test.sh [maven arguments]   as root: install what is missing, then `mvn -B verify [maven arguments]`
#   scripts/test.sh --install           as root: install what is missing, build nothing
#   scripts/test.sh --check             report what is missing and the one command that installs it; exit 1 if
#                                       anything is (the root POM runs this first, so a plain `mvn -B verify` on a
#                                       machine without a prerequisite stops in its first seconds)
#
# What the tests need beyond JDK 17 and Maven: Node.js and npm (the official mem0 and MCP clients, PGlite), Debian's
# Chromium and chromedriver (the console's browser test), wrk (the server benchmark's load tool), PostgreSQL 15 (throwaway clusters) with pgvector (built by
# scripts/install-pgvector.sh; Debian 12 has no package), and the npm packages of the committed lock files. Not root,
# or the registries out of reach: it stops before building and prints the command that installs what is missing; it
# never runs a partial suite.
#   ENGRAM_PG_BIN   PostgreSQL 15's bin folder (default /usr/lib/postgresql/15/bin), as the tests read it
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pg_bin="${ENGRAM_PG_BIN:-/usr/lib/postgresql/15/bin}"
install_line="scripts/test.sh --install"
npm_projects=(engram-server/src/test/node engram-postgres/src/test/node engram-mcp/src/test/node)

missing=()      # what is missing, as people name it
apt_packages=() # the Debian packages that bring it
need_pgvector=0

find_missing() {
  missing=() apt_packages=() need_pgvector=0
  if ! command -v javac >/dev/null 2>&1 || ! javac -version 2>&1 | grep -Eq 'javac (1[7-9]|[2-9][0-9])'; then
    missing+=("JDK 17 (javac)") apt_packages+=(openjdk-17-jdk-headless)
  fi
  command -v mvn >/dev/null 2>&1 || { missing+=("Maven (mvn)"); apt_packages+=(maven); }
  command -v node >/dev/null 2>&1 || { missing+=("Node.js (node)"); apt_packages+=(nodejs); }
  command -v npm >/dev/null 2>&1 || { missing+=("npm"); apt_packages+=(npm); }
  [ -x /usr/bin/chromium ] || { missing+=("Chromium (/usr/bin/chromium)"); apt_packages+=(chromium); }
  [ -x /usr/bin/chromedriver ] || { missing+=("chromedriver (/usr/bin/chromedriver)"); apt_packages+=(chromium-driver); }
  command -v wrk >/dev/null 2>&1 || { missing+=("wrk"); apt_packages+=(wrk); }
  if [ ! -x "$pg_bin/initdb" ]; then
    missing+=("PostgreSQL 15 ($pg_bin/initdb)")
    apt_packages+=(postgresql-15)
    need_pgvector=1
  elif [ ! -f "$("$pg_bin/pg_config" --sharedir 2>/dev/null)/extension/vector.control" ]; then
    need_pgvector=1
  fi
  if [ "$need_pgvector" = 1 ]; then
    missing+=("pgvector in PostgreSQL 15")
  fi
}

# One line: what is missing and the one command that installs it.
report_missing() {
  local joined
  joined="$(printf '%s, ' "${missing[@]}")"
  local prefix=""
  [ "$(id -u)" = 0 ] || prefix="sudo "
  echo "engram tests: missing ${joined%, }; install with: ${prefix}${root}/${install_line}" >&2
}

install_missing() {
  if [ ${#apt_packages[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq "${apt_packages[@]}" || return 1
  fi
  if [ "$need_pgvector" = 1 ]; then
    PG_CONFIG="$pg_bin/pg_config" "$root/scripts/install-pgvector.sh" || return 1
  fi
}

# The npm packages of the committed lock files, installed once so that the tests' own `npm ci` finds them in npm's
# cache; a lock file already installed is skipped.
install_npm_packages() {
  local project
  for project in "${npm_projects[@]}"; do
    local dir="$root/$project"
    if [ -f "$dir/node_modules/.package-lock.json" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
      continue
    fi
    echo "engram tests: npm ci in $project" >&2
    (cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2) || {
      echo "engram tests: npm ci failed in $project (is the npm registry reachable?); run: ${root}/${install_line}" >&2
      return 1
    }
  done
}

install_all() {
  find_missing
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
      report_missing
      echo "engram tests: not root, so nothing was installed and nothing was built" >&2
      exit 2
    fi
    echo "engram tests: installing ${missing[*]}" >&2
    if ! install_missing; then
      find_missing
      report_missing
      echo "engram tests: the install failed (are the Debian registries reachable?); nothing was built" >&2
      exit 2
    fi
    find_missing
    if [ ${#missing[@]} -gt 0 ]; then
      report_missing
      echo "engram tests: still missing after the install; nothing was built" >&2
      exit 2
    fi
  fi
  install_npm_packages || exit 2
}

case "${1:-}" in
  --check)
    find_missing
    if [ ${#missing[@]} -gt 0 ]; then
      report_missing
      exit 1
    fi
    ;;
  --install)
    install_all
    echo "engram tests: everything the tests need is installed" >&2
    ;;
  *)
    install_all
    cd "$root"
    java -version 2>&1
    mvn -B -v
    scripts/static-checks-selftest.sh "$@" # each static check fails a planted violation (about a minute)
    exec mvn -B verify "$@"
    ;;
esac
