// Package userpreset keeps each account's own presets (docs/presets.md,
// Your own presets): a preset file naming a built-in base and what it
// overrides, stored by name, and resolves a preset name a request gives
// for the account that sent it. The files themselves are read, checked
// and derived by package preset; this package adds the account, the
// names and the store.
package userpreset
