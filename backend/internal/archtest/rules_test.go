package archtest

import (
	"strings"
)

const module = "github.com/captionqa/captionqa"

// layer is a package's place in the dependency order; a package may import
// only packages of a lower layer, or of its own layer where rel allows it.
type layer int

const (
	layerLeaf    layer = iota // apperr, caption, jsonw, parallel, gctune
	layerEngine               // codecs, format, rules, preset, fix, standard
	layerUseCase              // engine, drift, explain
	layerDomain               // account, quota, project, blob, ...
	layerPort                 // store (the adapters' common interface), store/jobs, the conformance suites
	layerAdapter              // store/sqlstore and its engines, blob/fsblob, blob/s3blob, jsrun, video/ffmpeg, httpapi
	layerRoot                 // server, cli, app, main
)

// layerOf returns the layer of a package of this module, by its path
// relative to the module root.
func layerOf(rel string) (layer, bool) {
	switch {
	case rel == "backend/apperr", rel == "backend/caption", rel == "backend/jsonw", rel == "backend/parallel", rel == "backend/gctune", rel == "backend/name":
		return layerLeaf, true
	case strings.HasPrefix(rel, "backend/caption/"), in(rel, "backend/rules", "backend/preset", "backend/fix", "backend/standard", "backend/analysis"):
		return layerEngine, true
	case in(rel, "backend/engine", "backend/drift", "backend/explain", "backend/report"):
		return layerUseCase, true
	case in(rel, "backend/account", "backend/quota", "backend/project", "backend/exporttpl", "backend/userpreset", "backend/webhook", "backend/media", "backend/video", "backend/blob", "backend/explain/grant"):
		return layerDomain, true
	case in(rel, "backend/store", "backend/store/jobs", "backend/store/storetest", "backend/blob/blobtest"):
		return layerPort, true
	case in(rel, "backend/store/sqlstore", "backend/store/sqlite", "backend/store/postgres", "backend/blob/s3blob", "backend/jsrun", "backend/video/ffmpeg", "backend/video/ffmpeg/fftest", "backend/video/ffmpeg/fftest/programme", "backend/httpapi", "backend/metrics", "backend/blob/fsblob", "backend/explain/llm", "backend/explain/llm/llmtest"):
		return layerAdapter, true
	case in(rel, "backend/server", "backend/cli", "app", "", "frontend/bundle", "e2e", "docs", "build/package"):
		return layerRoot, true
	case rel == "assets", rel == "frontend":
		// Embedded data: importable by roots only, checked below.
		return layerRoot, true
	}
	return 0, false
}

// technology lists imports only some packages may use (rules 1 to 6).
type technology struct {
	prefix  string
	allowed []string // module-relative package paths
	rule    string
}

func technologies() []technology {
	return []technology{
		{"github.com/wailsapp/", []string{"app", ""}, "rule 1: only app imports Wails"},
		{"github.com/labstack/echo", []string{"backend/httpapi", "backend/server"}, "rule 2: only httpapi and server import echo"},
		{"database/sql", sqlStore, "rule 3: only the SQL store and its engines import database/sql"},
		{"github.com/pressly/goose", sqlStore, "rule 3: only the SQL store and its engines import the migration runner"},
		{"github.com/jackc/pgx", []string{"backend/store/postgres", "backend/internal/pgtest"}, "rule 3: only store/postgres (and its test cluster) imports pgx"},
		{"github.com/aws/aws-sdk-go-v2", []string{"backend/blob/s3blob", "backend/internal/s3test"}, "only blob/s3blob (and the tests' S3 server) imports the S3 client"},
		{"github.com/aws/smithy-go", []string{"backend/blob/s3blob", "backend/internal/s3test"}, "only blob/s3blob (and the tests' S3 server) imports the S3 client's runtime"},
		{"modernc.org/sqlite", []string{"backend/store/sqlite"}, "rule 3: only store/sqlite imports modernc.org/sqlite"},
		{"github.com/u2takey/ffmpeg-go", []string{"backend/video/ffmpeg"}, "rule 4: only video/ffmpeg imports ffmpeg-go"},
		{"os/exec", []string{"backend/video/ffmpeg", "backend/video/ffmpeg/fftest", "backend/video/ffmpeg/fftest/programme", "frontend/bundle", "backend/internal/pgtest", "backend/internal/s3test"}, "rule 4: only video/ffmpeg (and its test fixtures and servers) runs processes"},
		{"modernc.org/quickjs", []string{"backend/jsrun"}, "rule 5: only jsrun imports the JS engine"},
		// jsrun's watchdog reads the engine's JSContext layout (kick.go).
		{"modernc.org/libquickjs", []string{"backend/jsrun"}, "rule 5: only jsrun imports the JS engine"},
		{"github.com/dop251/goja", []string{"backend/jsrun"}, "rule 5: only jsrun imports the JS engine"},
		{"github.com/VictoriaMetrics/", []string{"backend/metrics"}, "only metrics imports the metrics library"},
		// River's types stay in the store adapters, which alone hold the
		// connections and transactions their drivers need, and in
		// store/jobs, the part of the queue no driver changes.
		{"github.com/riverqueue/", append(sqlStore, "backend/store/jobs"), "only the SQL store, its engines and store/jobs import River"},
		{"github.com/evanw/esbuild", []string{"frontend/bundle", "backend/jsrun"}, "rule 5: only frontend/bundle (and jsrun for syntax checks) import esbuild"},
	}
}

// sqlStore is the SQL store and its two engines.
var sqlStore = []string{"backend/store/sqlstore", "backend/store/sqlite", "backend/store/postgres"}

// isSQLEngine reports whether from is an engine of the SQL store to: the
// one pair of adapters where one imports the other, since an engine only
// configures the store's one set of queries (docs/architecture.md).
func isSQLEngine(from, to string) bool {
	return to == "backend/store/sqlstore" && in(from, "backend/store/sqlite", "backend/store/postgres")
}

// isAdapter reports whether rel is an adapter package; adapters may not
// import one another (rule 7) but for [isSQLEngine].
func isAdapter(rel string) bool {
	l, ok := layerOf(rel)
	return ok && l == layerAdapter
}

// netHTTPAllowed reports whether rel may import net/http: domain packages
// (L0 to L3) may not, except webhook's deliverer (rule 6).
func netHTTPAllowed(rel string) bool {
	l, ok := layerOf(rel)
	return !ok || l >= layerAdapter || rel == "backend/webhook" || strings.HasPrefix(rel, "backend/internal/")
}

func in(s string, list ...string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}
