//go:build js && !bufferscope_testhooks

package main

import "syscall/js"

// The stand-ins for the test hooks (testhooks_on.go) in the site readers get: they do
// nothing, and the compiler inlines them away.

func testMessage(string, js.Value) bool { return false }

func testHook() {}
