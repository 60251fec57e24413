package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
)

// checkValue validates v against the schemas these tests use (types,
// properties, required, items, enum, maxLength) independently of the
// grammar.
func checkValue(t *testing.T, schema map[string]any, v any) {
	t.Helper()
	if enum, ok := schema["enum"].([]any); ok {
		for _, e := range enum {
			if e == v {
				return
			}
		}
		t.Errorf("%v not in enum %v", v, enum)
		return
	}
	switch schema["type"] {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			t.Errorf("%v is not an object", v)
			return
		}
		props, _ := schema["properties"].(map[string]any)
		for k, pv := range obj {
			ps, ok := props[k].(map[string]any)
			if !ok {
				t.Errorf("unexpected property %q", k)
				continue
			}
			checkValue(t, ps, pv)
		}
		req, _ := schema["required"].([]any)
		for _, r := range req {
			if _, ok := obj[r.(string)]; !ok {
				t.Errorf("required property %q missing in %v", r, obj)
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			t.Errorf("%v is not an array", v)
			return
		}
		for _, it := range arr {
			checkValue(t, schema["items"].(map[string]any), it)
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			t.Errorf("%v is not a string", v)
		}
		if m, ok := schema["maxLength"].(float64); ok && len([]rune(s)) > int(m) {
			t.Errorf("%q longer than %v", s, m)
		}
	case "integer":
		n, ok := v.(json.Number)
		if !ok || strings.ContainsAny(string(n), ".eE") {
			t.Errorf("%v is not an integer", v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			t.Errorf("%v is not a boolean", v)
		}
	}
}

// TestJSONSchemaOnStories constrains stories260K (a model that has never
// seen JSON) to schemas: greedy and sampled outputs must parse and
// validate.
func TestJSONSchemaOnStories(t *testing.T) {
	b := openStories(t, nil)
	schemas := []string{
		`{"type":"object","properties":{"name":{"type":"string","maxLength":12},"age":{"type":"integer"},"happy":{"type":"boolean"}},"required":["name","age","happy"]}`,
		`{"type":"object","properties":{"mood":{"enum":["happy","sad"]},"friends":{"type":"array","items":{"type":"string","maxLength":8},"maxItems":3}},"required":["mood","friends"]}`,
		`{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":4}`,
	}
	for _, sc := range schemas {
		var schema map[string]any
		json.Unmarshal([]byte(sc), &schema)
		for _, o := range []Options{{MaxTokens: 200}, {MaxTokens: 200, Temperature: 1, Seed: new(int64(7))}} {
			o.JSONSchema = json.RawMessage(sc)
			var sb strings.Builder
			rep, err := b.(Reporter).GenerateReport(context.Background(), []Message{{Role: "user", Content: "Lily"}}, o,
				func(tk Token) error { sb.WriteString(tk.Text); return nil })
			if err != nil {
				t.Fatal(err)
			}
			if rep.Stop != StopEnd {
				t.Errorf("schema %s: stopped by %s after %q; want the end of the value", sc, rep.Stop, sb.String())
				continue
			}
			var v any
			dec := json.NewDecoder(strings.NewReader(sb.String()))
			dec.UseNumber()
			if err := dec.Decode(&v); err != nil || dec.More() {
				t.Errorf("schema %s: output %q does not parse: %v", sc, sb.String(), err)
				continue
			}
			checkValue(t, schema, v)
			t.Logf("schema %s (temperature %v): %s", sc, o.Temperature, sb.String())
		}
	}
	err := CheckJSONSchema(json.RawMessage(`{"type":"string","pattern":"^a"}`), "text.format")
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "unsupported_parameter" || se.Param != "text.format" || !strings.Contains(se.Message, "pattern") {
		t.Errorf("CheckJSONSchema(pattern) = %v; want unsupported_parameter naming pattern", err)
	}
}

// TestSchemaErrorCodes: a keyword the grammar cannot enforce is
// unsupported_parameter; a value that is no schema is bad_request, and its
// message speaks of the schema, not of Go types.
func TestSchemaErrorCodes(t *testing.T) {
	for _, tt := range []struct{ schema, code string }{
		{`{"type":"string","pattern":"^a"}`, "unsupported_parameter"},
		{`5`, "bad_request"},
		{`"object"`, "bad_request"},
		{`[{"type":"object"}]`, "bad_request"},
		{`{"type":5}`, "bad_request"},
		{`{"enum":[]}`, "bad_request"},
		{`{"type":"object","properties":[]}`, "bad_request"},
	} {
		err := CheckJSONSchema(json.RawMessage(tt.schema), "text.format.schema")
		e, ok := errors.AsType[*sotto.Error](err)
		if !ok || e.Code != tt.code || e.Param != "text.format.schema" {
			t.Errorf("CheckJSONSchema(%s) = %v; want code %s, param text.format.schema", tt.schema, err, tt.code)
			continue
		}
		if strings.Contains(e.Message, "Go value") || strings.Contains(e.Message, "RawMessage") {
			t.Errorf("CheckJSONSchema(%s): message %q names Go types", tt.schema, e.Message)
		}
	}
}

// TestSchemaErrorSaysItOnce: the error of an unsupported schema names the
// cause once (its message held the cause and wrapped it too, so the
// envelope of POST /v1/chat/completions said it twice).
func TestSchemaErrorSaysItOnce(t *testing.T) {
	_, err := compileSchema(json.RawMessage(`{"$ref": "#/elsewhere"}`), "response_format.json_schema.schema")
	e, ok := errors.AsType[*sotto.Error](err)
	if !ok || e.Param != "response_format.json_schema.schema" || !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Fatalf("compileSchema($ref) = %v; want an invalid request naming the schema", err)
	}
	if msg := err.Error(); strings.Count(msg, "#/elsewhere") != 1 || !strings.HasPrefix(msg, "llm: ") {
		t.Errorf("error %q; want it to start with llm: and name the reference once", msg)
	}
}
