#!/bin/sh
# Answers its moves ($2, $3, ...) in order, each $1 seconds after reading the turn; then stays
# silent.
. "$(dirname "$0")/lib.sh"
note_pid $$
delay=$1
shift
for mv in "$@"; do
  read_turn || exit 0
  sleep "$delay"
  echo "$mv"
done
cat > /dev/null
