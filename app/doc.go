// Package app is the desktop shell, the only package that imports Wails:
// it opens a window whose requests reach the same /api/v1 handler the
// headless server serves (architecture section 3.1), built with the tags
// desktop,production,webkit2_41. The headless binary does not include it.
package app
