package main

// The UI is built from the repository root with
//
//	go run ./frontend/bundle
//
// (make ui). go generate runs in the directory of the file that holds the
// directive, so this line builds the same way from here.
//
//go:generate go run . -src ../src -dist ../dist
