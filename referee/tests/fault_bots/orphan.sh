#!/bin/sh
# Starts a child that keeps stdout open, then dies without answering.
. "$(dirname "$0")/lib.sh"
sleep 1000 &
note_pid $!
exit 0
