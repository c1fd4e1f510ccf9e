//go:build !js

// Package e2e tests the built site in a real headless Chromium: the Ebiten grid, the
// playback controls, the URL state, the error panel and the JS bridge, against the same
// simulation run natively.
//
// The package has no code of its own; its tests are in *_test.go. They are slow and need a
// browser, so they run only when asked:
//
//	BUFFERSCOPE_BROWSER_TESTS=1 go test -count=1 ./e2e/...
//
// (make test does that). Without the variable every test skips, so go test ./... stays fast.
// With it, a missing Chromium is a failure, never a skip. TestMain compiles ./build once,
// runs "build serve -test-hooks" on a free loopback port (so the pages get the production
// headers of netlify.toml, and the hooks with which faults_test.go makes Go panic and the
// worker die), starts one headless Chromium and gives each test its own tab. A test fails
// on any uncaught exception or console error in its tab, except the ones it declares it
// expects (consoleLog.expect), which it must then see. When a test fails, a screenshot of
// its tab and its console log are written to e2e/testdata/failures/.
//
// Other variables:
//
//	BUFFERSCOPE_CHROMIUM=/path/to/chrome   the browser to use (default: chromium on PATH)
//	BUFFERSCOPE_E2E_URL=http://127.0.0.1:8080/
//	                                       test a site that is already served, for example by
//	                                       go run ./build serve -test-hooks, instead of building one
package e2e
