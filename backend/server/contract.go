package server

import (
	"fmt"
	"io/fs"

	"github.com/captionqa/captionqa/assets"
)

// contractJSON reads the embedded v1 contract as JSON, for GET
// /api/v1/openapi.json. The JSON is generated from the YAML at build time
// (go generate ./assets; a test keeps it current), so that no start-up
// parses YAML.
func contractJSON() ([]byte, error) {
	b, err := fs.ReadFile(assets.FS, "openapi/openapi.json")
	if err != nil {
		return nil, fmt.Errorf("server: read contract: %w", err)
	}
	return b, nil
}

// presetSchemaJSON is the JSON Schema of a user preset file, as embedded
// (docs/presets.md, Your own presets).
func presetSchemaJSON() ([]byte, error) {
	b, err := fs.ReadFile(assets.FS, "schema/preset-v1.schema.json")
	if err != nil {
		return nil, fmt.Errorf("server: read preset schema: %w", err)
	}
	return b, nil
}
