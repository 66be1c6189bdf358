#!/bin/bash
# Samples the CPU ticks (utime+stime, 1/100 s) of every local `postgres` process every 0.25 s, one line per sample:
#   <epoch ms> <pid>:<ticks> ...
# With bench/tools/pg-cpu-phases.js it gives PostgreSQL's own CPU per request of each measured target (the bench
# process's CPU column leaves the database out). Needs PostgreSQL on this machine (reads /proc/<pid>/stat).
while true; do
  l="$(date +%s%3N)"
  for p in $(pgrep -x postgres); do s=$(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null); [ -n "$s" ] && l="$l $p:$s"; done
  echo "$l"
  sleep 0.25
done
