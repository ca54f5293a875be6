#!/bin/sh
# A stand-in for `twixt-bot analyze` (scripts/balanced-book screen): values player 0's
# position 0.52 when player 1's last peg is E5, else 0.83; with "mute" as its first argument
# it prints nothing and fails.
if [ "$1" = mute ]; then
  echo "analyze: broken on purpose" >&2
  exit 3
fi
read -r last
cat > /dev/null
case "$last" in
  E5) value=0.520 ;;
  *) value=0.830 ;;
esac
echo "player 0 (rows 1 and 12) to move: 1000 iterations, 900 nodes, 5 ms"
echo "move  visits  share  value  prior  line"
echo "F6       700  70.0%  $value  0.100  F6 G8"
