#!/bin/sh
# Reads its first turn, then sleeps forever in a child process (which must die with it).
. "$(dirname "$0")/lib.sh"
note_pid $$
read_turn
sleep 1000 &
note_pid $!
wait
