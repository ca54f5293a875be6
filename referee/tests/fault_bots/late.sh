#!/bin/sh
# Answers its first turn after $1 seconds.
. "$(dirname "$0")/lib.sh"
note_pid $$
read_turn
sleep "$1"
echo E5
cat > /dev/null
