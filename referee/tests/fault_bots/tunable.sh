#!/bin/sh
# A bot with parameters for `tune`: `tunable.sh params` lists two (a fraction and a whole
# number); otherwise it notes its arguments in $TUNE_LOG and answers E5 then F7, whatever
# the board, like scripted.sh.
if [ "$1" = params ]; then
  echo "x 0.5 0.0 1.0 0.1"
  echo "n 4 1 9 1"
  exit 0
fi
. "$(dirname "$0")/lib.sh"
note_pid $$
[ -n "$TUNE_LOG" ] && echo "$*" >> "$TUNE_LOG"
for mv in E5 F7; do
  read_turn || exit 0
  echo "$mv"
done
cat > /dev/null
