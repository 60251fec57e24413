package server

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/sottolabs/sotto"

	"github.com/openai/openai-go/v3"
	oresponses "github.com/openai/openai-go/v3/responses"
)

// A stored response can be retrieved (the same object the creating request
// returned, streamed or not) and deleted through the official SDK; a
// deleted or unknown one is a 404, and a deleted one can no longer be
// continued.
func TestResponsesGetDelete(t *testing.T) {
	{
		ts := llmServer(t, Config{})
		c := openaiClient(ts)
		ctx := context.Background()
		params := oresponses.ResponseNewParams{Model: testLLM, MaxOutputTokens: openai.Int(6), Temperature: openai.Float(0),
			Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String(prompt)}}
		created, err := c.Responses.New(ctx, params)
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Responses.Get(ctx, created.ID, oresponses.ResponseGetParams{})
		if err != nil {
			t.Fatal(err)
		}
		if got.ID != created.ID || got.OutputText() != created.OutputText() || got.Status != created.Status ||
			got.Usage.OutputTokens != created.Usage.OutputTokens || got.Model != created.Model {
			t.Errorf("GET = %q %s %+v; want what POST returned: %q %s %+v", got.OutputText(), got.Status, got.Usage,
				created.OutputText(), created.Status, created.Usage)
		}

		// A streamed response is stored as its final object.
		stream := c.Responses.NewStreaming(ctx, params)
		var final oresponses.Response
		for stream.Next() {
			if ev := stream.Current(); ev.Type == "response.completed" || ev.Type == "response.incomplete" {
				final = ev.Response
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatal(err)
		}
		if got, err := c.Responses.Get(ctx, final.ID, oresponses.ResponseGetParams{}); err != nil ||
			got.OutputText() != final.OutputText() || got.OutputText() == "" {
			t.Errorf("GET of a streamed response = %v, %v; want its final text %q", got, err, final.OutputText())
		}

		if err := c.Responses.Delete(ctx, created.ID); err != nil {
			t.Fatalf("DELETE: %v", err)
		}
		for what, call := range map[string]func() error{
			"GET after DELETE":    func() error { _, err := c.Responses.Get(ctx, created.ID, oresponses.ResponseGetParams{}); return err },
			"DELETE after DELETE": func() error { return c.Responses.Delete(ctx, created.ID) },
			"GET unknown":         func() error { _, err := c.Responses.Get(ctx, "resp_0123", oresponses.ResponseGetParams{}); return err },
			"GET malformed id":    func() error { _, err := c.Responses.Get(ctx, "nope", oresponses.ResponseGetParams{}); return err },
		} {
			var apiErr *openai.Error
			if err := call(); !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusNotFound ||
				apiErr.Code != "response_not_found" || apiErr.Param != "response_id" {
				t.Errorf("%s: %v; want 404 response_not_found", what, err)
			}
		}
		_, err = c.Responses.New(ctx, oresponses.ResponseNewParams{Model: testLLM, PreviousResponseID: openai.String(created.ID),
			Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("x")}})
		if err == nil {
			t.Error("a deleted response was continued")
		}
	}
}

// Without a data directory the store keeps responses in memory, with the
// same answers.
func TestResponseStoreMemory(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		st := newResponseStore(dir)
		if err := st.put(storedResponse{ID: "resp_ab", Model: "M", Response: []byte(`{"id":"resp_ab"}`)}); err != nil {
			t.Fatal(err)
		}
		if r, ok, err := st.load("resp_ab"); err != nil || !ok || string(r.Response) != `{"id":"resp_ab"}` {
			t.Errorf("dir %q: load = %+v %v %v", dir, r, ok, err)
		}
		if err := st.remove("resp_ab"); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := st.load("resp_ab"); ok || err != nil {
			t.Errorf("dir %q: load after remove = %v %v", dir, ok, err)
		}
		var se *sotto.Error
		if err := st.remove("resp_ab"); !errors.As(err, &se) || se.Code != "response_not_found" {
			t.Errorf("dir %q: second remove = %v", dir, err)
		}
		if _, err := st.get("resp_ab"); !errors.As(err, &se) || se.Code != "previous_response_not_found" {
			t.Errorf("dir %q: get after remove = %v", dir, err)
		}
	}
}
