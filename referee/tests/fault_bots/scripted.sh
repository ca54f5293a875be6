#!/bin/sh
# Answers its arguments in order, one per turn, whatever the position; then stays silent.
. "$(dirname "$0")/lib.sh"
note_pid $$
for mv in "$@"; do
  read_turn || exit 0
  echo "$mv"
done
cat > /dev/null
