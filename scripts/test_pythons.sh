#!/usr/bin/env bash
# Run the tests on every Python from 3.10 to 3.13 present on this machine (absent ones are
# skipped and said): one virtual environment per version in .venvs/pyX.Y, the test extra
# installed, then pytest.  Arguments go to pytest (default: a representative part: the engine,
# the .ipynb intake, the CLI, the simulated macOS/Windows start).
#   scripts/test_pythons.sh                 # the representative part
#   scripts/test_pythons.sh tests           # the whole suite
set -uo pipefail
cd "$(dirname "$0")/.."
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(tests/engine tests/course/test_notebook_intake.py
                              tests/grader/test_cli.py tests/course/test_platforms.py)
status=0
for version in 3.10 3.11 3.12 3.13; do
  python=""
  for candidate in "$(command -v "python$version")" $(ls -d "$HOME"/.pyenv/versions/"$version".*/bin/python 2>/dev/null); do
    # a pyenv shim exists for every version but runs only the active ones: try each
    if [ -n "$candidate" ] && "$candidate" -c 'import sys' >/dev/null 2>&1; then python=$candidate; break; fi
  done
  if [ -z "$python" ]; then echo "python$version: absent, skipped"; continue; fi
  venv=".venvs/py$version"
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv" || { status=1; continue; }
  "$venv/bin/pip" install -q -e '.[test]' || { echo "python$version: install failed"; status=1; continue; }
  echo "== python$version ($("$venv/bin/python" -c 'import platform; print(platform.python_version())'))"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider "${args[@]}" || status=1
done
exit $status
