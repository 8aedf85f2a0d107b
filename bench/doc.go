// Package bench measures CaptionQA's caption engine against
// github.com/asticode/go-astisub, the most used Go subtitle library, on the
// same generated file in the same run, and reads what the EBU STL and
// EBU-TT-D writers write with it, a reader that shares no code with
// CaptionQA's (TestAstisubReadsWriters). It is a module of its own so that
// the product never depends on the library it is compared with.
package bench
