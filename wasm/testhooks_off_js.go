//go:build js && !bufferscope_testhooks

package main

// The stand-ins for the test hooks (testhooks_on_js.go) in the site readers get: they do
// nothing, and the compiler inlines them away.

func testHook(string) {}

func testMethods(*bridge) []method { return nil }
