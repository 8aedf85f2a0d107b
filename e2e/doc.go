// Package e2e drives the browser UI with chromedp against Debian's
// /usr/bin/chromium and the real server handler, in-process, on a temp
// data folder. TestMain builds the UI once with the esbuild bundler
// (go run ./frontend/bundle) into a temp folder that the server serves.
//
// Without chromium the tests skip; with CI=true they fail instead. Set
// SHOTS_DIR to keep screenshots of every page at 1280x800 and 800x900.
package e2e
