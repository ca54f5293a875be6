# Shared by the fault bots: read one whole turn input (SPEC's protocol); fails at end of input.
note_pid() { [ -n "$FAULT_PIDS" ] && echo "$1" >> "$FAULT_PIDS"; return 0; }
skip_list() { read -r n || return 1; i=0; while [ "$i" -lt "$n" ]; do read -r _ || return 1; i=$((i + 1)); done; }
read_turn() { read -r _ && skip_list && skip_list && skip_list && skip_list; }
