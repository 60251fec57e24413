package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestOpenAPICoversRoutes checks both directions: every served route is in
// the document, and every documented operation is routed (answers with
// something other than the router's own 404/405).
func TestOpenAPICoversRoutes(t *testing.T) {
	s, ts := newTestServer(t, Config{})
	r := do(t, ts, "GET", "/v1/openapi.json", nil, nil)
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Info    struct{ Title, Version string }       `json:"info"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil || r.status != 200 {
		t.Fatalf("GET /v1/openapi.json = %d %v", r.status, err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1.") || doc.Info.Title == "" || doc.Info.Version == "" {
		t.Errorf("openapi %q info %+v; want 3.1.x with title and version", doc.OpenAPI, doc.Info)
	}
	for _, rt := range s.routes() {
		if rt.Method == "OPTIONS" {
			continue
		}
		if _, ok := doc.Paths[openAPIPath(rt.Path)][strings.ToLower(rt.Method)]; !ok {
			t.Errorf("route %s %s is not in the OpenAPI document", rt.Method, rt.Path)
		}
	}
	n := 0
	for path, ops := range doc.Paths {
		if path != "/health" && !strings.HasPrefix(path, "/v1/") {
			t.Errorf("documented path %s is outside /v1", path)
		}
		for method := range ops {
			n++
			m := strings.ToUpper(method)
			var body *strings.Reader
			if m == http.MethodPost {
				body = strings.NewReader("{}")
			} else {
				body = strings.NewReader("")
			}
			res := do(t, ts, m, path, body, map[string]string{"Content-Type": "application/json"})
			if res.status == 404 || res.status == 405 {
				var env envelope
				json.Unmarshal(res.body, &env)
				if env.Error.Code == "route_not_found" || env.Error.Code == "method_not_allowed" {
					t.Errorf("documented %s %s is not routed: %d %s", m, path, res.status, res.body)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("the document describes %d operations; want every route", n)
	}
}
