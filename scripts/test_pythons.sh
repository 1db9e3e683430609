#!/usr/bin/env bash
# Run the test suite on every Python from 3.10 to 3.13 present on this machine (absent ones are
# skipped and said): one virtual environment per version in .venvs/pyX.Y with the test extra
# installed, then pytest on the whole suite (or on the pytest arguments given).  $PYTHONS picks
# some versions only; a summary line per version ends the run.
#   scripts/test_pythons.sh                          # the whole suite on each Python present
#   PYTHONS="3.10 3.13" scripts/test_pythons.sh      # on those two only
#   scripts/test_pythons.sh tests/engine             # a part, on each
set -uo pipefail
cd "$(dirname "$0")/.."
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(tests)
status=0
summary=()
for version in ${PYTHONS:-3.10 3.11 3.12 3.13}; do
  python=""
  for candidate in "$(command -v "python$version")" $(ls -d "$HOME"/.pyenv/versions/"$version".*/bin/python 2>/dev/null); do
    # a pyenv shim exists for every version but runs only the active ones: try each
    if [ -n "$candidate" ] && "$candidate" -c 'import sys' >/dev/null 2>&1; then python=$candidate; break; fi
  done
  if [ -z "$python" ]; then summary+=("python$version: absent, skipped"); continue; fi
  venv=".venvs/py$version"
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv" || { status=1; continue; }
  "$venv/bin/pip" install -q -e '.[test]' || { summary+=("python$version: install failed"); status=1; continue; }
  full=$("$venv/bin/python" -c 'import platform; print(platform.python_version())')
  echo "== python $full"
  if "$venv/bin/python" -m pytest -q -p no:cacheprovider "${args[@]}"; then
    summary+=("python $full: passed (${args[*]})")
  else
    summary+=("python $full: FAILED (${args[*]})"); status=1
  fi
done
printf '%s\n' "${summary[@]}"
exit $status
