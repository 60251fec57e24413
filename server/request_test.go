package server

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
)

func buildMultipart(fields [][2]string, file []byte) (body []byte, boundary string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("file", "a.wav")
		fw.Write(file)
	}
	mw.Close()
	return buf.Bytes(), mw.Boundary()
}

func TestReadMultipart(t *testing.T) {
	audio := bytes.Repeat([]byte("RIFFdata"), 1000)
	body, boundary := buildMultipart([][2]string{{"text", "héllo"}, {"language", "en"}, {"protected_terms[]", "a"}, {"protected_terms[]", "b"}}, audio)
	dir := t.TempDir()
	// A one-byte reader proves nothing depends on read sizes.
	f, err := readMultipart(nil, multipart.NewReader(iotest.OneByteReader(bytes.NewReader(body)), boundary), dir)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := f.value("text"); v != "héllo" || !ok || err != nil {
		t.Errorf("value(text) = %q, %v, %v; want héllo", v, ok, err)
	}
	if got := f.values["protected_terms[]"]; len(got) != 2 || got[1] != "b" {
		t.Errorf("repeated field = %v; want [a b]", got)
	}
	sp := f.files["file"]
	if sp == nil || sp.size != int64(len(audio)) || sp.filename != "a.wav" {
		t.Fatalf("file = %+v; want %d bytes named a.wav", sp, len(audio))
	}
	if b, err := os.ReadFile(sp.path); err != nil || !bytes.Equal(b, audio) {
		t.Errorf("spooled file differs from the upload (err %v)", err)
	}
	f.Close()
	if _, err := os.Stat(sp.path); !os.IsNotExist(err) {
		t.Errorf("Close left the spooled file: %v", err)
	}
}

func TestFormValueConflict(t *testing.T) {
	body, boundary := buildMultipart([][2]string{{"audio_track", "0"}, {"audio_track", "0"}, {"audio_channel", "0"}, {"audio_channel", "1"}}, nil)
	f, err := readMultipart(nil, multipart.NewReader(bytes.NewReader(body), boundary), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _, err := f.value("audio_track"); v != "0" || err != nil {
		t.Errorf("same value repeated = %q, %v; want accepted", v, err)
	}
	_, _, err = f.value("audio_channel")
	var se *sotto.Error
	if !errors.As(err, &se) || se.Param != "audio_channel" || !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Errorf("conflicting values error = %v; want 400 with param audio_channel", err)
	}
}

func TestReadMultipartErrors(t *testing.T) {
	body, boundary := buildMultipart([][2]string{{"text", "x"}}, []byte("abc"))
	for name, data := range map[string][]byte{
		"truncated":      body[:len(body)/2],
		"wrong boundary": bytes.ReplaceAll(body, []byte(boundary), []byte("zzz")),
		"garbage":        []byte("not multipart at all"),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := readMultipart(nil, multipart.NewReader(bytes.NewReader(data), boundary), dir)
			if !errors.Is(err, sotto.ErrInvalidRequest) {
				t.Errorf("readMultipart(%s) = %v; want a 400-kind error", name, err)
			}
			// Said in words, not as Go's "multipart: NextPart: EOF".
			if err == nil || !strings.Contains(err.Error(), "ends before its closing boundary") || strings.Contains(err.Error(), "NextPart") {
				t.Errorf("readMultipart(%s) = %v; want the body's missing closing boundary named", name, err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("a failed parse left %d spooled files", len(left))
			}
		})
	}
}

// TestBodyCutShort: a JSON body that ends before its declared length is a
// 400 saying so (it said "reading the request body: unexpected EOF").
func TestBodyCutShort(t *testing.T) {
	r := httptest.NewRequest("POST", "/v1/text/normalizations", io.MultiReader(strings.NewReader(`{"text":`), iotest.ErrReader(io.ErrUnexpectedEOF)))
	r.Header.Set("Content-Type", "application/json")
	r.ContentLength = 100
	for _, read := range []func(*http.Request) ([]byte, error){
		func(r *http.Request) ([]byte, error) { return readBody(r, "bad_request") },
		readGenBody,
	} {
		_, err := read(r)
		if !errors.Is(err, sotto.ErrInvalidRequest) || err == nil || !strings.Contains(err.Error(), "ended before the 100 bytes its Content-Length declares") {
			t.Errorf("a body cut short: %v; want a 400 saying so", err)
		}
		r.Body = io.NopCloser(io.MultiReader(strings.NewReader(`{"text":`), iotest.ErrReader(io.ErrUnexpectedEOF)))
	}
}

func FuzzReadMultipart(f *testing.F) {
	body, boundary := buildMultipart([][2]string{{"text", "hello"}, {"model", "Sotto/Lattice-2"}}, []byte("RIFF...."))
	f.Add(body)
	f.Add(body[:len(body)-7])
	f.Add([]byte("--" + boundary + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--" + boundary + "--\r\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		form, err := readMultipart(nil, multipart.NewReader(bytes.NewReader(data), boundary), dir)
		if err != nil {
			if !errors.Is(err, sotto.ErrInvalidRequest) {
				t.Fatalf("error %v is not a 400-kind error", err)
			}
			return
		}
		defer form.Close()
		for name, s := range form.files {
			b, err := os.ReadFile(s.path)
			if err != nil || int64(len(b)) != s.size {
				t.Fatalf("file %q: spooled %d bytes, size says %d (%v)", name, len(b), s.size, err)
			}
		}
		for name := range form.values {
			if strings.TrimSpace(name) == "" {
				t.Fatalf("empty field name accepted")
			}
		}
	})
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(`{"model": "Sotto/Lattice-1"}`))
	f.Add([]byte(`{"model": 42}`))
	f.Add([]byte(`[1]`))
	f.Add([]byte(`{"model": "a", "extra": {"x": [1, 2]}}`))
	f.Add([]byte("{\"model\": \"a\xff\", \"x\": {\"y\": \"\xc3\"}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v modelRequest
		err := unmarshalStrict(data, &v, true, "")
		if err != nil && !errors.Is(err, sotto.ErrInvalidRequest) {
			t.Fatalf("unmarshalStrict(%q) = %v; want nil or a 400-kind error", data, err)
		}
		if err == nil && !utf8.Valid(data) {
			t.Fatalf("unmarshalStrict(%q) accepted a body that is not UTF-8", data)
		}
	})
}

func jsonBodyString(s string) *strings.Reader { return strings.NewReader(s) }

// TestJSONTypeErrors: a field of the wrong JSON type is named, and an array
// element of the wrong type is told apart from the array field itself.
func TestJSONTypeErrors(t *testing.T) {
	type seg struct {
		Input string `json:"input"`
		jsonShared
	}
	type body struct {
		jsonShared
		Segments []seg `json:"segments"`
		Inner    *struct {
			Tags []string `json:"tags"`
		} `json:"inner"`
		Count int    `json:"count"`
		Opt   *[]seg `json:"opt"`
	}
	tests := []struct{ in, param, msg string }{
		{`{"segments":[5]}`, "segments", `field "segments" must be an array whose elements are each an object; one is a JSON number`},
		{`{"segments":5}`, "segments", `field "segments" must be an array, not a JSON number`},
		{`{"segments":[{"input":3}]}`, "segments.input", `field "segments.input" must be a string, not a JSON number`},
		{`{"inner":{"tags":[true]}}`, "inner.tags", `field "inner.tags" must be an array whose elements are each a string; one is a JSON bool`},
		{`{"opt":[5]}`, "opt", `field "opt" must be an array whose elements are each an object; one is a JSON number`},
		{`{"count":"x"}`, "count", `field "count" must be an integer, not a JSON string`},
		// Promoted fields of an embedded struct are named as the client
		// wrote them (encoding/json reports "jsonShared.temperature").
		{`{"temperature":"hot"}`, "temperature", `field "temperature" must be a number, not a JSON string`},
		{`{"seed":1.5}`, "seed", `field "seed" must be an integer, not a JSON number 1.5`},
		{`{"segments":[{"input":"a"},{"seed":"x"}]}`, "segments.seed", `field "segments.seed" must be an integer, not a JSON string`},
	}
	for _, tt := range tests {
		err := unmarshalStrict([]byte(tt.in), new(body), true, "")
		var se *sotto.Error
		if !errors.As(err, &se) || se.Param != tt.param || se.Message != tt.msg {
			t.Errorf("%s: %v (param %q); want %q (param %q)", tt.in, err, paramOf(se), tt.msg, tt.param)
		}
	}
}

// jsonShared stands for the sampling fields the generation requests embed.
type jsonShared struct {
	Temperature *float64 `json:"temperature"`
	Seed        *int64   `json:"seed"`
}

func paramOf(e *sotto.Error) string {
	if e == nil {
		return ""
	}
	return e.Param
}

// A body that is not UTF-8 is refused, naming the top-level field that holds
// the first bad byte: encoding/json would read it as U+FFFD and shift every
// byte offset after it (normalization spans are offsets into the input).
func TestInvalidUTF8Body(t *testing.T) {
	type body struct {
		Text     string         `json:"text"`
		Language string         `json:"language"`
		Opts     map[string]any `json:"opts"`
	}
	tests := []struct{ in, param string }{
		{"{\"text\":\"bad \xff utf8\",\"language\":\"en\"}", "text"},
		{"{\"text\":\"fine\",\"language\":\"e\xc3\"}", "language"},
		{"{\"text\":\"fine\",\"opts\":{\"k\":[\"\xed\xa0\x80\"]}}", "opts"},
		{"{\"te\xffxt\":\"fine\"}", ""},
	}
	for _, tt := range tests {
		err := unmarshalStrict([]byte(tt.in), new(body), false, "x_code")
		var se *sotto.Error
		if !errors.As(err, &se) || se.Param != tt.param || se.Code != "x_code" || !strings.Contains(se.Message, "UTF-8") {
			t.Errorf("%q: %v (param %q); want a UTF-8 error with param %q", tt.in, err, paramOf(se), tt.param)
		}
	}
	if err := unmarshalStrict([]byte(`{"text":"Zoë ☕ 𝔘"}`), new(body), true, ""); err != nil {
		t.Errorf("valid UTF-8: %v", err)
	}
}
