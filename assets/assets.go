// Package assets embeds the read-only data CaptionQA ships with: the JSON
// Schema of the caption IR, the OpenAPI contract, the presets and the
// standards catalogues. It is a package of its own because
// go:embed cannot reach outside its directory; domain packages never import
// it, the composition root hands them sub-trees of [FS].
package assets

import "embed"

// openapi/openapi.json, the contract as the binary serves it, is generated
// from openapi/openapi.yaml:
//
//go:generate go run ../backend/internal/contract/tojson

// FS holds the embedded data folders (schema, presets, standards,
// openapi); it is read-only.
//
//go:embed schema presets standards openapi
var FS embed.FS

// ReportFont is DejaVu Sans (fonts/DejaVuSans-LICENSE.txt: its licence
// allows embedding), the Unicode TrueType font the QC report's PDF draws
// its text with; the composition root hands it to package report's
// callers. It is read-only.
//
//go:embed fonts/DejaVuSans.ttf
var ReportFont []byte
