# bash completion for codec(1): commands, their options, and stage names
# inside a pipeline spec (-p/--pipeline, -f/--format, -f/--from, -t/--to),
# taken from `codec list` so they always match the build.
# Installed as $datadir/bash-completion/completions/codec; self-contained
# (no bash-completion helpers needed), so `source codec.bash` works too.

# The stages this codec knows (lines "  NAME   summary" of `codec list`).
_codec_stages()
{
    "${1:-codec}" list 2>/dev/null | awk '/^  [a-z]/ { print $1 }'
}

# The commands `codec --help` lists.
_codec_commands()
{
    "${1:-codec}" --help 2>/dev/null | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } /^$/ { on = 0 }'
}

_codec()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} prog=${COMP_WORDS[0]}
    COMPREPLY=()
    if (( COMP_CWORD == 1 )); then
        COMPREPLY=($(compgen -W "$(_codec_commands "$prog") help --help --version" -- "$cur"))
        return
    fi
    local cmd=${COMP_WORDS[1]}
    case $prev in
        -p|--pipeline|-f|--format|--from|-t|--to)
            # A spec: complete the stage name after the last '|' (or at the start).
            local head=${cur%\|*} stage
            if [[ $cur == *\|* ]]; then
                head="$head|"
                stage=${cur##*\|}
            else
                head=""
                stage=$cur
            fi
            local lead=${stage%%[! ]*}
            stage=${stage#"$lead"}
            [[ $stage == *:* ]] && return
            local IFS=$'\n'
            COMPREPLY=($(compgen -P "$head$lead" -W "$(_codec_stages "$prog")" -- "$stage"))
            return ;;
        -o|--output)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --max-input|--size|--ttl|--timeout|--max-value|--url|--id)
            return ;;
    esac
    local opts
    case $cmd in
        help) opts=$(_codec_commands "$prog") ;;
        pack) opts="-p --pipeline --max-input -h --help" ;;
        unpack) opts="-p --pipeline --max-input -h --help" ;;
        inspect) opts="--max-input -h --help" ;;
        list) opts="-h --help" ;;
        keygen) opts="--id -h --help" ;;
        dict) opts="-o --output --size -h --help" ;;
        validate) opts="-f --format --max-input -h --help" ;;
        convert) opts="-f --from -t --to --pretty --max-input -h --help" ;;
        redis) opts="set get -p --pipeline --url --ttl --timeout --max-value -h --help" ;;
    esac
    if [[ $cur == -* || $cmd == help || $cmd == redis ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _codec codec
