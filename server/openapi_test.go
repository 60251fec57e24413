package server

import (
	"encoding/json"
	"net/http"
	"regexp"
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

// TestOpenAPIOperationIDs: every operationId is a unique identifier, as
// code generators need it (braces from path templates made
// "get_v1_models_{id___}").
func TestOpenAPIOperationIDs(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(do(t, ts, "GET", "/v1/openapi.json", nil, nil).body, &doc); err != nil {
		t.Fatal(err)
	}
	ident := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	seen := map[string]string{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			if !ident.MatchString(op.OperationID) {
				t.Errorf("%s %s: operationId %q is not an identifier", method, path, op.OperationID)
			}
			if prev, dup := seen[op.OperationID]; dup {
				t.Errorf("operationId %q of %s %s is also %s's", op.OperationID, method, path, prev)
			}
			seen[op.OperationID] = method + " " + path
		}
	}
	if seen["delete_v1_models_id"] != "delete /v1/models/{id}" {
		t.Errorf("operationId delete_v1_models_id = %q; want delete /v1/models/{id}", seen["delete_v1_models_id"])
	}
}
