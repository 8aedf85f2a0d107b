package cli

import (
	"fmt"
	"io"
	"os"
)

// maxInput bounds what a command reads, so a wrong argument (a video, a
// disk image) fails fast instead of filling memory.
const maxInput = 512 << 20

// readInput reads the file at path, or standard input for "-".
func readInput(path string, env Env) ([]byte, error) {
	var r io.Reader = env.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("%s is larger than %d MiB; it is not a caption file", path, maxInput>>20)
	}
	return b, nil
}
