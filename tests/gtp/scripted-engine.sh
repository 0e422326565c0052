#!/bin/sh
# A GTP engine playing a fixed script, for the referee's dead-stone tests:
#   scripted-engine.sh MOVES DEAD
# MOVES: the vertices `genmove` (and `kgs-genmove_cleanup`) answer in
# order, separated by spaces, then `pass` forever. DEAD: how it answers
# `final_status_list dead`:
#   list:V1,V2  those vertices (`list:` names none)
#   garbage     a success that is no vertex list
#   hang        never answer (sleep far past any test's timeout)
#   crash       exit with status 3
#   refuse      `? unknown command`, as an engine without the command
# Every other command gets an empty success.
moves="$1"
dead="$2"
n=0
while read -r id cmd rest; do
    case "$cmd" in
    genmove | kgs-genmove_cleanup)
        n=$((n + 1))
        mv=$(echo "$moves" | awk -v n="$n" '{ print $n }')
        [ -z "$mv" ] && mv=pass
        printf '=%s %s\n\n' "$id" "$mv"
        ;;
    final_status_list)
        case "$dead" in
        list:*) printf '=%s %s\n\n' "$id" "$(echo "${dead#list:}" | tr , ' ')" ;;
        garbage) printf '=%s hello, referee\n\n' "$id" ;;
        hang) exec sleep 600 ;;
        crash) exit 3 ;;
        *) printf '?%s unknown command\n\n' "$id" ;;
        esac
        ;;
    quit)
        printf '=%s\n\n' "$id"
        exit 0
        ;;
    *) printf '=%s\n\n' "$id" ;;
    esac
done
