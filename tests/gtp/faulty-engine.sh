#!/bin/sh
# A GTP engine that fails on purpose, for `morrigo match` tests. It answers
# every command with an empty success until the first `genmove`, then does
# what its argument says:
#   crash    exit with status 3
#   hang     never answer (sleep far past any test's timeout)
#   garbage  answer with a line that is not GTP
#   illegal  answer `A1` to every genmove (occupied from the second one on)
#   slow     as `illegal`, after four seconds (time for a test to kill its match mid-game on a loaded machine)
#   flood    start an answer and never end it
#   blank    print empty lines at full speed, forever
#   longline print one line that never ends
#   noise    print random bytes at full speed
#   pidfile F  write its pid to file F at start, then hang at genmove
#   slowgame answer `pass` after half a second (a game that lasts)
mode="$1"
if [ "$mode" = pidfile ]; then echo $$ >"$2"; fi
while read -r id cmd rest; do
    case "$cmd" in
    genmove)
        case "$mode" in
        crash) exit 3 ;;
        hang) exec sleep 600 ;;
        garbage) printf 'hello, referee\n\n' ;;
        illegal) printf '=%s A1\n\n' "$id" ;;
        flood)
            printf '=%s\n' "$id"
            exec yes 'D4 D4 D4 D4'
            ;;
        blank) exec yes '' ;;
        longline) exec tr '\0' x </dev/zero ;;
        noise) exec cat /dev/urandom ;;
        pidfile) exec sleep 600 ;;
        slowgame)
            sleep 0.5
            printf '=%s pass\n\n' "$id"
            ;;
        slow)
            sleep 4
            printf '=%s A1\n\n' "$id"
            ;;
        esac
        ;;
    quit)
        printf '=%s\n\n' "$id"
        exit 0
        ;;
    *) printf '=%s\n\n' "$id" ;;
    esac
done
