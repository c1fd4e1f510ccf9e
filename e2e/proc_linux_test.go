//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// dieWithTests asks the kernel to kill cmd when the test process dies, so a test binary
// that go test kills at its -timeout leaves no server behind. chromedp does the same for
// Chromium.
func dieWithTests(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// residentMB returns the resident memory of process pid in MB (VmRSS), and false when it
// cannot be read (the process has gone).
func residentMB(pid int64) (float64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb float64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%f kB", &kb); err == nil {
				return kb / 1024, true
			}
		}
	}
	return 0, false
}
