module github.com/captionqa/captionqa/bench

go 1.26.0

require (
	github.com/asticode/go-astisub v0.34.0
	github.com/captionqa/captionqa v0.0.0
)

require (
	github.com/asticode/go-astikit v0.20.0 // indirect
	github.com/asticode/go-astits v1.8.0 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/captionqa/captionqa => ../
