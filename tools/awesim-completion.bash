# awesim-completion.bash: bash completion for awesim and its tools (awesim-plot, awesim-sweep).
#
#   source tools/awesim-completion.bash          # in ~/.bashrc, or install it as
#   /usr/share/bash-completion/completions/awesim  (and links awesim-plot, awesim-sweep)
#
# Subcommands and options are read from the program's own `awesim --help` and
# `awesim COMMAND --help` (once per shell and binary), so they follow the installed version;
# a built-in list is the fallback when the binary cannot be run. Completes: subcommands,
# options, option values written as a|b|c in the help (--method vsm|llt), solver names,
# common --set keys, scenario files (*.yaml), logs (*.h5), and for awesim-plot --channels the
# channel names of the log on the command line (from `awesim-plot RUN.h5 --list`).
# Needs bash 4 or later.

# built-in fallback, from awesim(1)
_awesim_fallback_commands="check simulate polar linearize step-response sweep"
declare -A _awesim_fallback_options=(
  [check]="--set -q --quiet -h --help"
  [sweep]="-o --output --awesim -j --jobs --sbatch --resume --dry-run --merge -q --quiet -h --help"
  [simulate]="-o --output --csv --csv= --set --summary-json -q --quiet -h --help"
  [polar]="--vsm-settings --alpha --beta --speed --ref-point --method --correct-aoa --solver
    --panels --distribution --spanwise -h --help"
  [linearize]="--at --tol --allow-nonequilibrium --keep-torque --inputs --outputs -o --lin --csv
    --csv= --zero-tol --no-modes --set -q --quiet -h --help"
  [step-response]="--input --amplitude --at --duration --band --outputs --compare-linear
    --spring-props --keep-torque --json -o --set -q --quiet -h --help"
)
_awesim_solvers="rkf45 rkck rk8pd msbdf rk4imp bsimp rk2 rk4 rk1imp rk2imp trbdf2 ros34pw2"
_awesim_set_keys="name= model= run.duration= run.dt= run.solver= run.abs_tol= run.rel_tol=
run.vsm_interval= run.steady_state= run.jacobian= inputs= controllers= output.hdf5= settings.environment.v_wind=
settings.environment.upwind_dir= settings.environment.rho_0= settings.environment.profile_law=
settings.system.g_earth= settings.system.sample_freq= settings.tether.cd_tether=
settings.tether.d_tether= settings.winch.drum_radius= settings.winch.gear_ratio="

declare -A _awesim_help_cache=()

# _awesim_help BIN [COMMAND]: the help text, cached
_awesim_help() {
  local key="$1|${2:-}" text
  if [[ -z ${_awesim_help_cache[$key]+set} ]]; then
    text=""
    if [[ -x $1 && ! -d $1 ]]; then
      if [[ -n ${2:-} ]]; then
        text=$(timeout 2 "$1" "$2" --help 2>/dev/null) || text=""
      else
        text=$(timeout 2 "$1" --help 2>/dev/null) || text=""
      fi
    fi
    _awesim_help_cache[$key]=$text
  fi
  printf '%s\n' "${_awesim_help_cache[$key]}"
}

# _awesim_bin WORD: the awesim binary behind the command word
_awesim_bin() {
  local w=${1/#\~/$HOME}
  if [[ $w == */* && -x $w ]]; then printf '%s\n' "$w"
  else command -v "$w" 2>/dev/null || command -v awesim 2>/dev/null
  fi
}

# subcommands: the first words of the "commands:" block of `awesim --help`
_awesim_commands() {
  local cmds
  cmds=$(_awesim_help "$1" |
    awk '/^commands:/ {f = 1; next} f && /^[ \t]+[a-z]/ {print $1; next} f && /^$/ {f = 0}')
  printf '%s\n' "${cmds:-$_awesim_fallback_commands}"
}

# the option column of each option line of a help text ("  -q, --quiet   text" -> "-q, --quiet")
_awesim_option_columns() {
  local line col
  while IFS= read -r line; do
    [[ $line =~ ^[[:space:]]+- ]] || continue
    col=${line#"${line%%[![:space:]]*}"}
    printf '%s\n' "${col%%  *}"
  done < <(_awesim_help "$1" "$2")
}

# options of a subcommand: every -x/--xx of the option columns; "--csv[=P]" gives --csv and --csv=
_awesim_options() {
  local col opts="" re='(^|[ ,])(--?[A-Za-z][A-Za-z0-9-]*)(\[?=)?'
  while IFS= read -r col; do
    while [[ $col =~ $re ]]; do
      opts+=" ${BASH_REMATCH[2]}"
      [[ -n ${BASH_REMATCH[3]} ]] && opts+=" ${BASH_REMATCH[2]}="
      col=${col#*"${BASH_REMATCH[0]}"}
    done
  done < <(_awesim_option_columns "$1" "$2")
  printf '%s\n' "${opts:-${_awesim_fallback_options[$2]:-}}"
}

# the placeholder after an option in the help: "--method vsm|llt" -> "vsm|llt"
_awesim_placeholder() {
  local col re="(^|[ ,])$3[ =]([^ ]+)"
  while IFS= read -r col; do
    if [[ $col =~ $re ]]; then
      printf '%s\n' "${BASH_REMATCH[2]}"
      return
    fi
  done < <(_awesim_option_columns "$1" "$2")
}

# Words of the command line up to the cursor, split at blanks only: bash's own COMP_WORDS are
# also split at '=' and ':' (COMP_WORDBREAKS), which would break --set key=value and globs.
# Sets the caller's words, cword, cur, prev.
_awesim_init() {
  local line=${COMP_LINE:0:COMP_POINT}
  read -ra words <<<"$line"
  [[ $line =~ [[:space:]]$ || ${#words[@]} -eq 0 ]] && words+=("")
  cword=$((${#words[@]} - 1))
  cur=${words[cword]}
  prev=""
  [[ $cword -gt 0 ]] && prev=${words[cword-1]}
  return 0
}

# bash replaces only the part of the word after the last COMP_WORDBREAKS character
# (= and :): drop that prefix from the candidates
_awesim_ltrim() {
  local pre i
  [[ $cur =~ ^(.*[=:]) ]] || return 0
  pre=${BASH_REMATCH[1]}
  for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"$pre"}; done
}

_awesim_files() {  # _awesim_files CUR GLOB-EXTENSIONS (e.g. "yaml|yml"): files and folders
  local IFS=$'\n' f
  COMPREPLY=()
  for f in $(compgen -f -- "$1"); do
    if [[ -d $f ]]; then COMPREPLY+=("$f/")
    elif [[ -z $2 || $f =~ \.($2)$ ]]; then COMPREPLY+=("$f")
    fi
  done
  compopt -o nospace -o filenames 2>/dev/null || true
}

_awesim_dirs() {
  mapfile -t COMPREPLY < <(compgen -d -S / -- "$1")
  compopt -o nospace -o filenames 2>/dev/null || true
}

_awesim_words() {  # _awesim_words CUR "WORDS": COMPREPLY from a word list; no space after '='
  mapfile -t COMPREPLY < <(compgen -W "$2" -- "$1")
  if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]]; then
    compopt -o nospace 2>/dev/null || true
  fi
}

_awesim_main() {
  local bin cmd="" i w
  bin=$(_awesim_bin "${words[0]}")
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    if [[ $w != -* ]]; then cmd=$w; break; fi
  done
  COMPREPLY=()
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      _awesim_words "$cur" "--help --version"
    else
      _awesim_words "$cur" "$(_awesim_commands "$bin")"
    fi
    return 0
  fi

  # a value of the previous option
  case $prev in
    --set)
      case $cur in
        run.solver=*)
          mapfile -t COMPREPLY < <(compgen -P run.solver= -W "$_awesim_solvers" \
            -- "${cur#run.solver=}") ;;
        run.jacobian=*)
          mapfile -t COMPREPLY < <(compgen -P run.jacobian= -W "analytic fd" \
            -- "${cur#run.jacobian=}") ;;
        *) _awesim_words "$cur" "$_awesim_set_keys" ;;
      esac
      return 0 ;;
    -o|--output|--summary-json|--lin)
      if [[ $prev == -o || $prev == --output ]] &&
         [[ $cmd == simulate || $cmd == linearize || $cmd == step-response ]]; then
        _awesim_files "$cur" "h5|hdf5"
      else
        _awesim_files "$cur" ""
      fi
      return 0 ;;
    --vsm-settings) _awesim_files "$cur" "yaml|yml"; return 0 ;;
    --inputs|--outputs|--input|--alpha|--beta|--speed|--panels|--ref-point|--at|--amplitude|--duration|\
    --band|--tol)
      return 0 ;;
    -*)
      local ph
      ph=$(_awesim_placeholder "$bin" "$cmd" "$prev")
      if [[ $ph == *\|* ]]; then
        _awesim_words "$cur" "${ph//|/ }"
        return 0
      fi
      case $prev in
        --method) _awesim_words "$cur" "vsm llt"; return 0 ;;
        --solver) _awesim_words "$cur" "loop newton"; return 0 ;;
        --distribution) _awesim_words "$cur" "linear uniform cosine split_provided"; return 0 ;;
      esac ;;
  esac
  if [[ $cur == -* ]]; then
    _awesim_words "$cur" "$(_awesim_options "$bin" "$cmd")"
  else
    _awesim_files "$cur" "yaml|yml"
  fi
  return 0
}

_awesim_plot_main() {
  local i w run=""
  COMPREPLY=()
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    [[ ($w == *.h5 || $w == *.csv) && -f $w || $w != -* && -f $w/summary.csv ]] && run=$w
  done
  if [[ $prev == --x || $prev == --by || $prev == --y ]]; then
    [[ -n $run ]] && _awesim_words "$cur" "$("${words[0]/#\~/$HOME}" "$run" --list 2>/dev/null)"
    return 0
  fi
  if [[ $prev == -c || $prev == --channels || $cur == --channels=* ]]; then
    local val=${cur#--channels=} head="" names
    [[ $val == *,* ]] && head=${val%,*},
    [[ $cur == --channels=* ]] && head=--channels=$head
    [[ -n $run ]] || return 0
    names=$("${words[0]/#\~/$HOME}" "$run" --list 2>/dev/null | awk '{print $1}')
    mapfile -t COMPREPLY < <(compgen -P "$head" -W "$names" -- "${val##*,}")
    compopt -o nospace 2>/dev/null || true
    return 0
  fi
  case $prev in
    -o|--output) _awesim_files "$cur" "png|pdf|svg"; return 0 ;;
    --size) _awesim_words "$cur" "1600x1000 1200x800 800x600"; return 0 ;;
    --title|--cycle|--label) return 0 ;;
    --aep-mean) _awesim_words "$cur" "5 6 7 8"; return 0 ;;
    --aep-shape) _awesim_words "$cur" "2"; return 0 ;;
    --compare) _awesim_files "$cur" "csv"; return 0 ;;
  esac
  if [[ $cur == -* ]]; then
    _awesim_words "$cur" "-o --output -c --channels --channels= --size --title --list --list-panels --x --by --y
      --power-curve --aep-mean --aep-shape --compare --cycle --with --label --dump -h --help"
  else
    _awesim_files "$cur" "h5|hdf5|csv"
  fi
  return 0
}

_awesim_sweep_main() {
  local i merge=0
  COMPREPLY=()
  for ((i = 1; i < cword; i++)); do [[ ${words[i]} == --merge ]] && merge=1; done
  case $prev in
    --merge) _awesim_dirs "$cur"; return 0 ;;
    -o|--output)
      if [[ $merge -eq 1 ]]; then _awesim_files "$cur" "csv"; else _awesim_dirs "$cur"; fi
      return 0 ;;
    --slurm) _awesim_files "$cur" "sh|slurm|sbatch"; return 0 ;;
    --awesim) _awesim_files "$cur" ""; return 0 ;;
    -j|--jobs) _awesim_words "$cur" "$(seq 1 "$(nproc 2>/dev/null || echo 4)")"; return 0 ;;
    --sbatch) _awesim_words "$cur" "--time= --partition= --account= --mem= --qos="; return 0 ;;
  esac
  if [[ $cur == -* ]]; then
    _awesim_words "$cur" "-j --jobs -o --output --slurm --sbatch --resume --dry-run --merge --awesim
      -q --quiet -h --help"
  else
    _awesim_files "$cur" "yaml|yml"
  fi
  return 0
}

_awesim() {
  local words cword cur prev
  _awesim_init
  _awesim_main
  _awesim_ltrim
}

_awesim_plot() {
  local words cword cur prev
  _awesim_init
  _awesim_plot_main
  _awesim_ltrim
}

_awesim_sweep() {
  local words cword cur prev
  _awesim_init
  _awesim_sweep_main
  _awesim_ltrim
}

complete -F _awesim awesim awesim-asan
complete -F _awesim_plot awesim-plot
complete -F _awesim_sweep awesim-sweep
