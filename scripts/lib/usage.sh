# Prints the calling script's header comment (its usage), for -h and --help (sourced):
#   usage_if_asked "$0" "$@"    prints it and exits 0 when any argument is -h or --help
usage_if_asked() {
  local script=$1 arg
  shift
  for arg in "$@"; do
    case $arg in
      -h|--help)
        awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$script"
        exit 0 ;;
    esac
  done
}
