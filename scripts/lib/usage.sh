# `usage` prints the sourcing script's header comment, its usage (sourced). The script's path
# is taken now, since scripts change folder before they read their options.
usage_of=$(realpath "$0")
usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$usage_of"
}
