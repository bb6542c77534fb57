# Replays a `klotski terminal` answer on its board, sharing no code with the solver:
#   awk -f scripts/lib/replay.awk BOARD.in ANSWER
# Prints the number of steps if the answer is in the course's format (`Yes`, the count, one
# `x S` line a step) and ends at the goal (tiles in order, the blank last); else what is wrong,
# with exit code 1. For boards of 1x1 tiles.
FNR == NR { for (i = 1; i <= NF; i++) word[++words] = $i; next }
FNR == 1 { if ($0 != "Yes") { print "first line is not Yes"; bad = 1; exit } next }
FNR == 2 { if ($0 !~ /^[0-9]+$/) { print "second line is not a count"; bad = 1; exit }
           steps = $0 + 0
           rows = word[1]; cols = word[2]
           for (c = 0; c < rows * cols; c++) { cell[c] = word[3 + c] + 0; if (cell[c]) at[cell[c]] = c }
           next }
{ if ($0 !~ /^[0-9]+ [LRUD]$/) { print "line " FNR " is not a step: " $0; bad = 1; exit }
  tile = $1 + 0; if (!(tile in at)) { print "no tile " tile; bad = 1; exit }
  c = at[tile]; r = int(c / cols); k = c % cols
  if ($2 == "L") k--; if ($2 == "R") k++; if ($2 == "U") r--; if ($2 == "D") r++
  if (r < 0 || k < 0 || r >= rows || k >= cols || cell[r * cols + k] != 0) {
    print "step " FNR - 2 " (" $0 ") is illegal"; bad = 1; exit }
  cell[r * cols + k] = tile; cell[c] = 0; at[tile] = r * cols + k; made++ }
END {
  if (bad) exit 1
  if (made != steps) { print "the count says " steps ", there are " made " steps"; exit 1 }
  for (c = 0; c < rows * cols - 1; c++) if (cell[c] != c + 1) { print "not at the goal"; exit 1 }
  print steps
}
