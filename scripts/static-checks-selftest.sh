#!/usr/bin/env bash
# Shows that each static check of the build fails the build on a planted violation (issue 35):
#   Error Prone (a warning, made an error by -Werror)   scripts/planted/errorprone
#   forbidden-apis (Instant.now() in main code)           scripts/planted/forbidden
#   Spotless (a file not in google-java-format's layout)  scripts/planted/format
# and that a module breaking none of them ("clean") passes, so the failures come from the checks.
#
#   scripts/static-checks-selftest.sh [maven arguments]   e.g. -Dmaven.repo.local=...
#
# Builds a copy of scripts/planted in target/planted (its POM inherits the root POM, as every module does) up to
# process-classes, where all three checks have run; exits non-zero, naming what is missing, if the build passed or
# a check did not fail its module with its own message. scripts/test.sh (CI) runs it before the suite: about a
# minute. The build log stays in target/planted/build.log.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$root/target/planted"
rm -rf "$work"
mkdir -p "$root/target"
cp -r "$root/scripts/planted" "$work"
log="$work/build.log"

set +e
(cd "$work" && mvn -B -fae -Dengram.prerequisites.skip=true "$@" process-classes) >"$log" 2>&1
status=$?
set -e

failures=()
expect() { # expect DESCRIPTION EXTENDED-REGEX: the log must match
  grep -Eq -- "$2" "$log" || failures+=("$1 (no line matches: $2)")
}
if [ "$status" -eq 0 ]; then
  failures+=("the planted build passed; it must fail")
fi
expect "the clean module passes" 'planted-clean \.+ SUCCESS'
expect "Error Prone fails its module" 'planted-errorprone \.+ FAILURE'
expect "Error Prone names the finding" 'Splits\.java:\[[0-9]+,[0-9]+\] \[StringSplitter\]'
expect "-Werror makes the warning an error" 'warnings found and -Werror specified'
expect "forbidden-apis fails its module" 'planted-forbidden \.+ FAILURE'
expect "forbidden-apis names the call and why" \
  'Forbidden method invocation: java\.time\.Instant#now\(\) \[time comes from the injected clock'
expect "Spotless fails its module" 'planted-format \.+ FAILURE'
expect "Spotless reports format violations" 'format violations'
expect "Spotless names the file" 'BadlyFormatted\.java'

if [ ${#failures[@]} -gt 0 ]; then
  echo "static checks self-test FAILED (log: $log):" >&2
  printf '  - %s\n' "${failures[@]}" >&2
  exit 1
fi
echo "static checks self-test: Error Prone, forbidden-apis and Spotless each failed the build on their planted" \
  "violation; the clean module passed (log: $log)"
