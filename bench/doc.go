// Package bench measures CaptionQA's caption engine against
// github.com/asticode/go-astisub, the most used Go subtitle library, on the
// same generated file in the same run. It is a module of its own so that
// the product never depends on the library it is compared with.
package bench
