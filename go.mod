module github.com/captionqa/captionqa

go 1.26
