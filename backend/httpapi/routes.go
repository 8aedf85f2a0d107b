package httpapi

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/media"
)

// V1Prefix starts every v1 path; breaking changes would ship under
// /api/v2 (see docs/api.md, Versions and the contract).
const V1Prefix = "/api/v1"

// access is what a v1 route demands of the caller beyond a valid key on
// an account with the v1 API enabled: one scope, every feature in all and,
// when anyOf is set, at least one of its features.
type access struct {
	scope string
	all   []string
	anyOf []string
}

func need(scope string, all ...string) access { return access{scope: scope, all: all} }

// allows reports whether an account may use a route of this access, its
// key's scopes aside; when not, it names the first feature it lacks.
func (a access) allows(acct *account.Account) (bool, string) {
	for _, f := range a.all {
		if !acct.Has(f) {
			return false, f
		}
	}
	if len(a.anyOf) > 0 && !hasAny(acct, a.anyOf) {
		return false, a.anyOf[0]
	}
	return true, ""
}

// needAny demands one of the video add-ons: a media upload serves extract
// and render alike.
func needAny(scope string, anyOf ...string) access { return access{scope: scope, anyOf: anyOf} }

// uiFallback is the route of every path no other route claims: the UI's
// files and client-side routes, for GET and HEAD.
const uiFallback = "/*"

// routes registers every route. The v1 table follows the paths of the
// contract (assets/openapi/openapi.yaml) in order; the scope and
// entitlement of each row are the ones the contract names for that
// operation, listed in docs/api.md (Scopes and entitlements).
func (h *handler) routes(e *echo.Echo) {
	e.Pre(h.requestID)
	e.Use(h.accessLog, h.recoverPanic, h.hostGuard, h.rejectKeyInQuery)

	const (
		pro      = account.FeatureProWorkspace
		explain  = account.FeatureExplainAI
		keys     = account.FeatureAPIKeys
		exports  = account.FeatureAdvancedExports
		drift    = account.FeatureCaptionDrift
		extract  = account.FeatureCaptionExtract
		render   = account.FeatureCaptionRender
		procW    = account.ScopeProcessWrite
		exportsR = account.ScopeExportsRead
		exportsW = account.ScopeExportsWrite
		hooksR   = account.ScopeWebhooksRead
		hooksW   = account.ScopeWebhooksWrite
	)
	v1 := e.Group(V1Prefix)
	h.scopeRoutes = map[string][]access{}
	add := func(method, path string, a access, handle echo.HandlerFunc, pre ...echo.MiddlewareFunc) {
		h.scopeRoutes[a.scope] = append(h.scopeRoutes[a.scope], a)
		var mw []echo.MiddlewareFunc
		if strings.Contains(path, "/:") {
			mw = append(mw, h.staticSibling)
		}
		mw = append(append(mw, pre...), h.authenticate, requireAccess(a), h.rateLimit)
		v1.Add(method, path, handle, mw...)
	}
	add("POST", "/process", need(procW), h.uploadSlot(h.process), h.sizeGuard(h.maxRequest))
	add("POST", "/explain", need(procW, pro, explain), h.uploadSlot(h.explain), h.sizeGuard(MaxExplainBodyBytes))
	add("GET", "/me", need(account.ScopeAccountRead), h.me)
	add("GET", "/usage", need(account.ScopeUsageRead), h.usage)
	add("GET", "/api-keys", need(account.ScopeKeysRead, keys), h.listKeys)
	add("POST", "/api-keys", need(account.ScopeKeysWrite, keys), h.createKey, h.sizeGuard(DefaultMaxJSONBytes))
	add("DELETE", "/api-keys/:keyId", need(account.ScopeKeysWrite, keys), h.revokeKey)
	add("GET", "/webhook", need(hooksR, pro), h.withWebhooks(h.getWebhook))
	add("PUT", "/webhook", need(hooksW, pro), h.withWebhooks(h.putWebhook), h.sizeGuard(DefaultMaxJSONBytes))
	// The delivery log, redeliver and test (the OpenAPI operations
	// listWebhookDeliveries, redeliverWebhookDelivery and testWebhook),
	// under the same scopes and entitlement as the webhook itself.
	add("GET", "/webhook/deliveries", need(hooksR, pro), h.withWebhooks(h.listDeliveries))
	add("POST", "/webhook/deliveries/:deliveryId/redeliver", need(hooksW, pro), h.withWebhooks(h.redeliver))
	add("POST", "/webhook/test", need(hooksW, pro), h.withWebhooks(h.testWebhook))
	// Routes that take IR hold an upload slot, as process does: their
	// bodies are as large.
	add("POST", "/projects", need(exportsW), h.withProjects(h.uploadSlot(h.createProject)), h.irBodyGuard)
	add("GET", "/projects", need(exportsR), h.withProjects(h.listProjects))
	add("GET", "/projects/:id", need(exportsR), h.withProjects(h.getProject))
	add("DELETE", "/projects/:id", need(exportsW), h.withProjects(h.deleteProject))
	add("GET", "/projects/:id/revisions", need(exportsR), h.withProjects(h.listRevisions))
	add("PUT", "/projects/:id/ir", need(exportsW), h.withProjects(h.uploadSlot(h.putIR)), h.sizeGuard(MaxIRBodyBytes))
	add("POST", "/projects/:id/diff", need(exportsW, drift), h.withProjects(h.uploadSlot(h.diffProject)), h.sizeGuard(MaxIRBodyBytes))
	add("GET", "/projects/:id/report", need(exportsR), h.withExports(h.projectReport))
	add("POST", "/projects/:id/check", need(exportsW), h.withExports(h.uploadSlot(h.checkDraft)), h.sizeGuard(MaxIRBodyBytes))
	add("POST", "/projects/:id/exports", need(exportsW), h.withExports(h.createExport), h.sizeGuard(DefaultMaxJSONBytes))
	add("POST", "/media/upload", needAny(exportsW, extract, render), h.withMedia(h.createUpload), h.sizeGuard(DefaultMaxJSONBytes))
	// Completing 1,000 parts names 1,000 etags: about 100 KiB of JSON.
	add("POST", "/media/upload/:uploadId/complete", needAny(exportsW, extract, render), h.withMedia(h.completeUpload), h.sizeGuard(MaxCompleteBodyBytes))
	// The session again (a client resumes from it) and the project's
	// media: extensions in the served contract.
	add("GET", "/media/upload/:uploadId", needAny(exportsR, extract, render), h.withMedia(h.getUpload))
	add("GET", "/media/upload/:uploadId/analysis", need(exportsR, pro), h.withMedia(h.getAnalysis))
	add("GET", "/media/upload/:uploadId/link", needAny(exportsR, extract, render), h.withMedia(h.withExports(h.mediaLink)))
	add("GET", "/media", needAny(exportsR, extract, render), h.withMedia(h.listUploads))
	// Template bodies carry a script of up to 256 KiB, escaped in JSON.
	tplBody := h.sizeGuard(MaxTemplateBodyBytes)
	add("GET", "/export-templates", need(exportsR, exports), h.withTemplates(h.listTemplates))
	add("POST", "/export-templates", need(exportsW, exports), h.withTemplates(h.createTemplate), tplBody)
	add("GET", "/export-templates/:id", need(exportsR, exports), h.withTemplates(h.getTemplate))
	add("PUT", "/export-templates/:id", need(exportsW, exports), h.withTemplates(h.updateTemplate), tplBody)
	add("DELETE", "/export-templates/:id", need(exportsW, exports), h.withTemplates(h.deleteTemplate))
	add("POST", "/export-templates/validate", need(exportsW, exports), h.withTemplates(h.validateTemplate), tplBody)
	add("POST", "/export-templates/:id/test", need(exportsW, exports), h.withTemplates(h.testTemplate), h.sizeGuard(DefaultMaxJSONBytes))
	// An account's own presets (docs/presets.md, Your own presets): read
	// and written as the projects they export are.
	add("GET", "/presets", need(exportsR), h.listPresets)
	add("GET", "/presets/:name", need(exportsR), h.getPreset)
	add("PUT", "/presets/:name", need(exportsW), h.putPreset, h.sizeGuard(MaxPresetBodyBytes))
	add("DELETE", "/presets/:name", need(exportsW), h.deletePreset)
	add("POST", "/jobs/extract", need(exportsW, extract), h.withVideos(h.createExtract), h.sizeGuard(DefaultMaxJSONBytes))
	add("POST", "/jobs/render", need(exportsW, render), h.withVideos(h.createRender), h.sizeGuard(DefaultMaxJSONBytes))
	add("POST", "/jobs/analyze", need(exportsW, pro), h.withVideos(h.createAnalyze), h.sizeGuard(DefaultMaxJSONBytes))
	add("GET", "/jobs", need(exportsR), h.withVideos(h.listJobs))
	add("GET", "/jobs/:jobId", need(exportsR), h.withVideos(h.getJob))
	add("DELETE", "/jobs/:jobId", need(exportsW), h.withVideos(h.cancelJob))
	add("GET", "/artifacts/:artifactId", need(exportsR), h.withExports(h.artifactLink))
	v1.GET("/openapi.json", h.openAPI)
	v1.GET("/preset-v1.schema.json", h.presetSchema)

	// The homepage converter and its CSRF token: browser-only, no key.
	e.GET("/api/csrf", h.csrfToken)
	e.POST("/api/process", h.uploadSlot(h.homepageProcess), h.browserOnly, h.sizeGuard(h.maxRequest))

	// Signed artifact downloads and media play links: the link is the
	// credential, no key.
	e.GET(DownloadPrefix+":artifactId", h.withExports(h.download))
	e.HEAD(DownloadPrefix+":artifactId", h.withExports(h.download))
	e.GET(PlayPrefix+":uploadId", h.withMedia(h.withExports(h.play)))
	e.HEAD(PlayPrefix+":uploadId", h.withMedia(h.withExports(h.play)))

	// Signed media uploads: the URL is the credential, no key.
	e.PUT(media.PutPrefix+":uploadId/:part", h.withMedia(h.partLimits(h.putPart)))

	// Dashboard sessions of the browser UI (not part of the v1 contract).
	e.POST("/api/session", h.login, sameOriginOnly, h.sizeGuard(DefaultMaxJSONBytes))
	e.POST("/api/session/link", h.signInLink, sameOriginOnly, h.sizeGuard(DefaultMaxJSONBytes))
	e.GET("/api/session", h.session)
	e.DELETE("/api/session", h.logout, sameOriginOnly)

	e.GET("/healthz", h.healthz)
	e.GET("/readyz", h.readyz)

	// The UI: its files, and index.html for the paths a client-side route
	// may take; any other path is a 404 envelope.
	for _, p := range []string{"/", uiFallback} {
		e.GET(p, h.serveUI)
		e.HEAD(p, h.serveUI)
	}
}
