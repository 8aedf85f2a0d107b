package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/captionqa/captionqa/assets"
)

// contractJSON reads the embedded v1 contract (OpenAPI YAML) and converts
// it to JSON once, for GET /api/v1/openapi.json. Loading it through
// kin-openapi also refuses a broken contract at start-up.
func contractJSON() ([]byte, error) {
	raw, err := fs.ReadFile(assets.FS, "openapi/openapi.yaml")
	if err != nil {
		return nil, fmt.Errorf("server: read contract: %w", err)
	}
	loader := openapi3.NewLoader()
	loader.Context = context.Background()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("server: load contract: %w", err)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("server: contract to JSON: %w", err)
	}
	return out, nil
}
