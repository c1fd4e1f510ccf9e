//go:build !js

package main

import "testing"

func TestRunExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 2},
		{[]string{"-h"}, 0},
		{[]string{"nope"}, 2},
		{[]string{"dist", "-h"}, 0},
		{[]string{"dist", "-nope"}, 2},
		{[]string{"dist", "extra"}, 2},
		{[]string{"dist", "-brotli-quality", "12"}, 2},
		{[]string{"serve", "-addr", "0.0.0.0:8080"}, 2},
		{[]string{"serve", "-addr", ":8080"}, 2},
		{[]string{"bench-report", "-native", "x"}, 2},
		{[]string{"bench-report", "-native", "missing.txt", "-wasm", "missing.txt"}, 1},
	} {
		if got := run(tc.args); got != tc.want {
			t.Errorf("run(%q) = %d, want %d", tc.args, got, tc.want)
		}
	}
}
