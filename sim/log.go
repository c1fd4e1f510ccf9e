package sim

// LogLimit bounds the commands a simulation keeps in its log. Consecutive steps are merged
// into one entry, so a page that steps every frame adds one entry however long it plays;
// past the limit the oldest entries go.
const LogLimit = 4096

// commandLog is the recent commands applied to a simulation.
type commandLog struct {
	cmds    []Command
	dropped int // commands no longer held
}

// add appends c, merging it into the last entry when both are steps.
func (l *commandLog) add(c Command) {
	if st, ok := c.(StepCmd); ok && len(l.cmds) > 0 {
		if last, ok := l.cmds[len(l.cmds)-1].(StepCmd); ok {
			l.cmds[len(l.cmds)-1] = StepCmd{N: last.N + st.N}
			return
		}
	}
	if len(l.cmds) >= LogLimit {
		n := copy(l.cmds, l.cmds[len(l.cmds)/2:])
		clear(l.cmds[n:])
		l.dropped += len(l.cmds) - n
		l.cmds = l.cmds[:n]
	}
	l.cmds = append(l.cmds, c)
}
