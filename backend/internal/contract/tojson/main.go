// Command tojson writes the v1 contract as JSON,
// assets/openapi/openapi.json, from assets/openapi/openapi.yaml: the
// binary serves that file at GET /api/v1/openapi.json as it is, so that
// no start-up parses YAML or links an OpenAPI library. go generate
// ./assets runs it; the contract package's TestJSONIsCurrent fails while
// the JSON is behind the YAML.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/captionqa/captionqa/backend/internal/contract"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tojson:", err)
		os.Exit(1)
	}
}

func run() error {
	root, err := contract.ModuleRoot()
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(contract.RelPath)))
	if err != nil {
		return err
	}
	out, err := contract.JSON(raw)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(root, filepath.FromSlash(contract.JSONRelPath)), out, 0o644)
}
