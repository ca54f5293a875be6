#!/bin/sh
# twixt-bot ($TWIXT_BOT) at 100 playouts a move, with the arguments it is given (`--seed N`
# from `test`): real games, fast and repeatable whatever the clock.
exec "$TWIXT_BOT" --quiet --playouts 100 "$@"
