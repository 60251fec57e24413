package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
)

// maxJSONBody bounds JSON request bodies that are not media uploads. The
// largest legitimate one is a segmentation request with many timed segments.
const maxJSONBody = 64 << 20

// decodeJSON reads a JSON object from r's body into v. With strict set,
// unknown fields are rejected. Errors are 400-kind *sotto.Error values whose
// param names the offending field where it is known; code is the code to use
// for them (e.g. "normalization_invalid_request"), "" for bad_request.
func decodeJSON(r *http.Request, v any, strict bool, code string) error {
	body, err := readBody(r, code)
	if err != nil {
		return err
	}
	return unmarshalStrict(body, v, strict, code)
}

// readBody reads a JSON request body of at most maxJSONBody bytes after
// checking its media type. Read errors are 400s with the given code; the
// body limit is a 413.
func readBody(r *http.Request, code string) ([]byte, error) {
	if err := checkJSONType(r, code); err != nil {
		return nil, err
	}
	if r.ContentLength > maxJSONBody {
		// Answer before reading (and before "100 Continue"): the client
		// would otherwise send the whole body, or wait for the 100 forever.
		return nil, sotto.TooLarge("request_too_large", "", "JSON body of %d bytes exceeds %d MiB", r.ContentLength, maxJSONBody>>20)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	if err != nil {
		if isBodyLimit(err) {
			return nil, err
		}
		return nil, bodyReadError(code, r, err)
	}
	if len(body) > maxJSONBody {
		return nil, sotto.TooLarge("request_too_large", "", "JSON body exceeds %d MiB", maxJSONBody>>20)
	}
	return trimBOM(body), nil
}

// trimBOM drops a UTF-8 byte order mark that starts a JSON body. RFC 8259
// lets a parser ignore it, and some Windows tools (PowerShell's files,
// .NET's UTF8Encoding with its preamble) write one; byte offsets the API
// reports are relative to a text field, not to the body, so none moves.
func trimBOM(body []byte) []byte {
	return bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
}

// checkJSONType refuses a multipart body sent to a JSON endpoint.
func checkJSONType(r *http.Request, code string) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	// Only multipart is refused outright: curl -d labels JSON as
	// application/x-www-form-urlencoded, and the body decides then.
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil && strings.HasPrefix(mt, "multipart/") {
		return sotto.Invalid(code, "", "this endpoint takes a JSON body (Content-Type: application/json), not %s", mt)
	}
	return nil
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// unmarshalStrict decodes one JSON object from body into v.
func unmarshalStrict(body []byte, v any, strict bool, code string) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return sotto.Invalid(code, "", "the request body is empty; send a JSON object")
	}
	if trimmed[0] != '{' {
		return sotto.Invalid(code, "", "the request body must be a JSON object")
	}
	if !utf8.Valid(trimmed) {
		return invalidUTF8(trimmed, code)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		return jsonError(err, code, v)
	}
	if dec.More() {
		return sotto.Invalid(code, "", "unexpected data after the JSON object")
	}
	return nil
}

// invalidUTF8 is the error for a JSON object body that is not UTF-8 (RFC
// 8259 requires it). encoding/json would read each bad byte as U+FFFD, so a
// text's byte offsets (normalization spans, speech marks) would no longer
// match what the client sent; the request is refused instead, naming the
// top-level field whose value holds the first bad byte.
func invalidUTF8(body []byte, code string) error {
	bad := 0
	for bad < len(body) {
		r, n := utf8.DecodeRune(body[bad:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		bad += n
	}
	param := ""
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		for dec.More() {
			k, err := dec.Token()
			if err != nil || int(dec.InputOffset()) > bad {
				break
			}
			start := dec.InputOffset()
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				break
			}
			if int(start) <= bad && bad < int(dec.InputOffset()) {
				param, _ = k.(string)
				break
			}
		}
	}
	if param != "" {
		return sotto.Invalid(code, param, "field %q is not valid UTF-8 (byte %d of the body); JSON text must be UTF-8", param, bad)
	}
	return sotto.Invalid(code, "", "the request body is not valid UTF-8 (byte %d); JSON text must be UTF-8", bad)
}

// unmarshalItem decodes one element of a request's array (a message, an
// input item) into v, strictly. Its errors name the element: param is path
// (e.g. "messages[2]") for an element that is not a JSON object, and
// path.field for a field at fault inside it.
func unmarshalItem(raw []byte, v any, path string) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return sotto.Invalid("bad_request", path, "%s must be a JSON object, not %s", path, jsonValueKind(t))
	}
	err := unmarshalStrict(raw, v, true, "")
	if se, ok := err.(*sotto.Error); ok && se.Param != "" {
		se.Param = path + "." + se.Param
	}
	return err
}

// jsonValueKind names the kind of the JSON value that starts t.
func jsonValueKind(t []byte) string {
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case 'n':
		return "null"
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// jsonError turns a decoding error into a 400 that names the field.
// v is the value decoded into; it tells an array's element of the wrong
// type from the array field itself.
func jsonError(err error, code string, v any) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		ft := fieldType(reflect.TypeOf(v), te.Field)
		field := jsonPath(reflect.TypeOf(v), te.Field)
		if ft != nil && (ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array) &&
			ft.Elem() == te.Type {
			return sotto.Invalid(code, field, "field %q must be an array whose elements are each %s; one is a JSON %s",
				field, jsonTypeName(te.Type.Kind().String()), te.Value)
		}
		return sotto.Invalid(code, field, "field %q must be %s, not a JSON %s", field, jsonTypeName(te.Type.Kind().String()), te.Value)
	case errors.As(err, &se):
		return sotto.Invalid(code, "", "malformed JSON at byte %d: %v", se.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return sotto.Invalid(code, "", "malformed JSON: the body ends early")
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		name := strings.Trim(f, `"`)
		return sotto.Invalid(code, name, "unknown field %q", name)
	}
	return sotto.Invalid(code, "", "invalid JSON: %v", err)
}

// fieldType is the Go type of the struct field that the dotted JSON path
// names inside t (pointers followed, its own too), or nil when the path does not lead
// through struct fields with those JSON names.
func fieldType(t reflect.Type, path string) reflect.Type {
	if t == nil || path == "" {
		return nil
	}
	for _, name := range strings.Split(path, ".") {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil
		}
		var next reflect.Type
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == name || tag == "" && strings.EqualFold(f.Name, name) {
				next = f.Type
				break
			}
		}
		if next == nil {
			return nil
		}
		t = next
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// jsonPath is the dotted path encoding/json reports for a type error (its
// UnmarshalTypeError.Field) as the client wrote it: encoding/json names an
// embedded struct whose fields are promoted (the generation requests' shared
// sampling fields) as a path component of its own ("sampling.temperature"),
// which is no field of the request; such components are dropped.
func jsonPath(t reflect.Type, path string) string {
	if path == "" {
		return path
	}
	var out []string
	for _, name := range strings.Split(path, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		var next reflect.Type
		promoted := false
		if t != nil && t.Kind() == reflect.Struct {
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if tag == name || tag == "" && strings.EqualFold(f.Name, name) {
					next = f.Type
					promoted = f.Anonymous && tag == ""
					break
				}
			}
		}
		if !promoted {
			out = append(out, name)
		}
		t = next
	}
	return strings.Join(out, ".")
}

func jsonTypeName(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "a boolean"
	case "int", "int64", "int32", "uint", "uint64":
		return "an integer"
	case "float64", "float32":
		return "a number"
	}
	return "of type " + kind
}

// maxFormValue bounds one non-file multipart field (a transcript can be
// long, but not gigabytes).
const maxFormValue = 16 << 20

// form is a parsed multipart request: every value of every text field in
// order, and uploaded files spooled to disk.
type form struct {
	values map[string][]string
	files  map[string]*spooled
}

// spooled is an uploaded file written to a temporary file.
type spooled struct {
	filename string
	path     string
	size     int64
}

// Close removes the spooled files.
func (f *form) Close() {
	for _, s := range f.files {
		os.Remove(s.path)
	}
}

// value returns the single value of a field. A field sent several times with
// different values is a 400 naming it; the same value repeated is accepted.
func (f *form) value(name string) (string, bool, error) {
	vs := f.values[name]
	if len(vs) == 0 {
		return "", false, nil
	}
	for _, v := range vs[1:] {
		if v != vs[0] {
			return "", true, sotto.Invalid("bad_request", name, "field %q was sent %d times with conflicting values", name, len(vs))
		}
	}
	return vs[0], true, nil
}

// parseMultipart reads a multipart/form-data body, spooling file parts to
// dir so that uploads up to the body limit never sit in memory. The caller
// must Close the form.
func parseMultipart(r *http.Request, dir string) (*form, error) {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" {
		got := ct
		if got == "" {
			got = "no Content-Type"
		}
		return nil, sotto.Invalid("bad_request", "", "this endpoint takes multipart/form-data (got %s)", got)
	}
	if params["boundary"] == "" {
		return nil, sotto.Invalid("bad_request", "", "multipart/form-data without a boundary parameter")
	}
	return readMultipart(r.Context().Done(), multipart.NewReader(r.Body, params["boundary"]), dir)
}

func readMultipart(done <-chan struct{}, mr *multipart.Reader, dir string) (_ *form, err error) {
	f := &form{values: map[string][]string{}, files: map[string]*spooled{}}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	for {
		select {
		case <-done:
			return nil, errors.New("request cancelled")
		default:
		}
		p, err := mr.NextPart()
		if err == io.EOF {
			return f, nil
		}
		if err != nil {
			return nil, multipartError(err)
		}
		name := p.FormName()
		if name == "" {
			p.Close()
			continue
		}
		if p.FileName() != "" || name == "file" {
			if _, dup := f.files[name]; dup {
				return nil, sotto.Invalid("bad_request", name, "file field %q was sent more than once", name)
			}
			s, err := spool(p, dir)
			if err != nil {
				return nil, err
			}
			s.filename = p.FileName()
			f.files[name] = s
			continue
		}
		b, err := io.ReadAll(io.LimitReader(p, maxFormValue+1))
		if err != nil {
			return nil, multipartError(err)
		}
		if len(b) > maxFormValue {
			return nil, sotto.Invalid("bad_request", name, "field %q exceeds %d MiB", name, maxFormValue>>20)
		}
		f.values[name] = append(f.values[name], string(b))
	}
}

func multipartError(err error) error {
	if isBodyLimit(err) {
		return err
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		// Go says "multipart: NextPart: EOF": the body ran out before the
		// closing boundary, or never held the boundary the header names.
		return sotto.Invalid("bad_request", "", "the multipart body ends before its closing boundary: the upload was cut short, or its parts are not separated by the boundary its Content-Type names")
	}
	return sotto.Invalid("bad_request", "", "malformed multipart body: %v", err)
}

// bodyReadError is the 400 for a request body that could not be read: one
// that ended before the length its Content-Length declares says so.
func bodyReadError(code string, r *http.Request, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		if r.ContentLength > 0 {
			return sotto.Invalid(code, "", "the request body ended before the %d bytes its Content-Length declares: the upload was cut short", r.ContentLength)
		}
		return sotto.Invalid(code, "", "the request body ended early: the upload was cut short")
	}
	return sotto.Invalid(code, "", "reading the request body: %v", err)
}

func spool(p *multipart.Part, dir string) (*spooled, error) {
	tmp, err := os.CreateTemp(dir, "upload-*")
	if err != nil {
		return nil, fmt.Errorf("spooling upload: %w", err)
	}
	n, err := io.Copy(tmp, p)
	cerr := tmp.Close()
	if err != nil {
		os.Remove(tmp.Name())
		return nil, multipartError(err)
	}
	if cerr != nil {
		os.Remove(tmp.Name())
		return nil, fmt.Errorf("spooling upload: %w", cerr)
	}
	return &spooled{path: tmp.Name(), size: n}, nil
}
