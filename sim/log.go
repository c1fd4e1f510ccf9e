package sim

import "slices"

// LogLimit bounds the commands a simulation keeps in its log. Consecutive steps are merged
// into one entry, so a page that steps every frame adds one entry however long it plays;
// past the limit the oldest entries go.
const LogLimit = 4096

// commandLog is the recent commands applied to a simulation. The steps since the last
// other command are kept as a count until another command comes, so that stepping, which a
// page does every frame, adds nothing to the heap.
type commandLog struct {
	cmds     []Command
	stepping bool // the last command was a step: steps holds the entry after cmds
	steps    int
	dropped  int // commands no longer held
}

// add appends c, merging it into the last entry when both are steps.
func (l *commandLog) add(c Command) {
	if st, ok := c.(StepCmd); ok {
		l.addSteps(st.N)
		return
	}
	if l.stepping {
		l.push(StepCmd{N: l.steps})
		l.stepping, l.steps = false, 0
	}
	l.push(c)
}

// addSteps is add(StepCmd{N: n}).
func (l *commandLog) addSteps(n int) {
	l.stepping = true
	l.steps += n
}

// push appends c as an entry of its own, leaving room for a step entry after it.
func (l *commandLog) push(c Command) {
	if len(l.cmds) >= LogLimit-1 {
		n := copy(l.cmds, l.cmds[len(l.cmds)/2:])
		clear(l.cmds[n:])
		l.dropped += len(l.cmds) - n
		l.cmds = l.cmds[:n]
	}
	l.cmds = append(l.cmds, c)
}

// list returns the entries, oldest first, and how many earlier ones are gone.
func (l *commandLog) list() ([]Command, int) {
	if !l.stepping {
		return l.cmds, l.dropped
	}
	return append(slices.Clip(l.cmds), StepCmd{N: l.steps}), l.dropped
}
