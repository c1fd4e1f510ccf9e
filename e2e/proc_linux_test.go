//go:build linux

package e2e

import (
	"os/exec"
	"syscall"
)

// dieWithTests asks the kernel to kill cmd when the test process dies, so a test binary
// that go test kills at its -timeout leaves no server behind. chromedp does the same for
// Chromium.
func dieWithTests(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
