# The instances of a tile-puzzle run, for scripts/korf100.sh and scripts/korf24.sh (sourced):
#   korf_instances SIDE PREFIX RANDOM SEED WORK
# fills the array `instances` with "name input-file optimal-length" ("?" when unknown): RANDOM
# random SIDE x SIDE puzzles from `klotski generate` (seeds SEED, SEED+1, ...; their files in
# WORK) when RANDOM > 0, else the PREFIX-* files of $korf/OPTIMAL.tsv. Needs $client and $korf.
korf_instances() {
  local side=$1 prefix=$2 random=$3 seed=$4 work=$5 i s file length
  instances=()
  if [ "$random" -gt 0 ]; then
    for ((i = 0; i < random; i++)); do
      s=$((seed + i))
      "$client" klotski generate --rows "$side" --cols "$side" --seed "$s" > "$work/r$s.in"
      instances+=("random-${side}x$side-seed-$s $work/r$s.in ?")
    done
  else
    while IFS=$'\t' read -r file length; do
      case $file in "$prefix"-*) instances+=("$file $korf/$file $length") ;; esac
    done < "$korf/OPTIMAL.tsv"
  fi
}
