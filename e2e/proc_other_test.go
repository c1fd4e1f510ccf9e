//go:build !js && !linux

package e2e

import "os/exec"

// dieWithTests would tie cmd's life to the test process; only Linux offers that, and the
// server is still stopped when the tests end normally.
func dieWithTests(cmd *exec.Cmd) {}

// residentMB would read a process's resident memory; here it cannot.
func residentMB(pid int64) (float64, bool) { return 0, false }
