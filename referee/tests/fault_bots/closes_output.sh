#!/bin/sh
# Closes its stdout, then lives on.
. "$(dirname "$0")/lib.sh"
note_pid $$
exec 1>&-
exec sleep 1000
