# A made-up suite in GNU Go's regression format, for scripts/gtp-regress's test (stonelab's own
# positions). White C3 is in atari; Black captures at C4. The SGF's komi is 5: Black wins this 5x5
# position with almost any move, and at komi 0 the engine's default selection rule (since session
# 26) preferred the atari E2 among the winning moves; at 5 both rules answer C4.
loadsgf atari.sgf
10 reg_genmove black
#? [C4]

# The same test negated: expected to fail.
loadsgf atari.sgf
20 reg_genmove black
#? [!C4]*

# Not engine-neutral: skipped.
loadsgf atari.sgf
30 owl_attack C3
#? [1 C4]
