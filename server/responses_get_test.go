package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
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

		// Options that would change the answer are refused, not ignored,
		// as the client library sends them (include[]=…, stream=true).
		var apiErr *openai.Error
		if _, err := c.Responses.Get(ctx, created.ID, oresponses.ResponseGetParams{
			Include: []oresponses.ResponseIncludable{"message.output_text.logprobs"}}); !errors.As(err, &apiErr) ||
			apiErr.StatusCode != http.StatusBadRequest || apiErr.Code != "unsupported_parameter" || apiErr.Param != "include" {
			t.Errorf("GET with include: %v; want 400 unsupported_parameter include", err)
		}
		gs := c.Responses.GetStreaming(ctx, created.ID, oresponses.ResponseGetParams{})
		for gs.Next() {
			t.Errorf("GET with stream=true gave an event %q; want a 400", gs.Current().Type)
		}
		if err := gs.Err(); !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest || apiErr.Param != "stream" {
			t.Errorf("GET with stream=true: %v; want 400 naming stream", err)
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

// The input items of a stored response through the official SDK: the
// conversation it was generated from (the continued history and its own
// input, not the instructions, not its output), newest first by default,
// paged with limit and after; bad paging parameters are 400s naming them,
// and an unknown response is a 404.
func TestResponsesInputItems(t *testing.T) {
	ts := llmServer(t, Config{})
	c := openaiClient(ts)
	ctx := context.Background()
	first, err := c.Responses.New(ctx, oresponses.ResponseNewParams{Model: testLLM, MaxOutputTokens: openai.Int(4),
		Temperature: openai.Float(0), Instructions: openai.String("Be brief."),
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String(prompt)}})
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Responses.New(ctx, oresponses.ResponseNewParams{Model: testLLM, MaxOutputTokens: openai.Int(4),
		Temperature: openai.Float(0), PreviousResponseID: openai.String(first.ID),
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openai.String("And then?")}})
	if err != nil {
		t.Fatal(err)
	}
	type item struct{ typ, role, text string }
	want := []item{{"message", "user", prompt}, {"message", "assistant", first.OutputText()}, {"message", "user", "And then?"}}
	page, err := c.Responses.InputItems.List(ctx, second.ID, oresponses.InputItemListParams{Order: "asc"})
	if err != nil {
		t.Fatal(err)
	}
	var got []item
	for _, it := range page.Data {
		text := ""
		if it.Role == "assistant" {
			for _, part := range it.Content.OfResponseOutputMessageContentArray {
				text += part.Text
			}
		} else {
			for _, part := range it.Content.OfInputItemContentList {
				text += part.Text
			}
		}
		got = append(got, item{it.Type, it.Role, text})
	}
	if len(got) != len(want) {
		t.Fatalf("input items %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d = %+v; want %+v", i, got[i], want[i])
		}
	}
	// Newest first by default, two to a page, the pages joined by after.
	var ids []string
	pager := c.Responses.InputItems.ListAutoPaging(ctx, second.ID, oresponses.InputItemListParams{Limit: openai.Int(2)})
	for pager.Next() {
		ids = append(ids, pager.Current().ID)
	}
	if err := pager.Err(); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 3 || ids[0] != page.Data[2].ID || ids[2] != page.Data[0].ID {
		t.Errorf("pages of 2, newest first: %v; want the reverse of %v %v %v", ids, page.Data[0].ID, page.Data[1].ID, page.Data[2].ID)
	}
	for q, param := range map[string]string{"limit=0": "limit", "limit=101": "limit", "limit=x": "limit",
		"order=up": "order", "after=msg_nope": "after", "include=file_search_call.results": "include"} {
		r := do(t, ts, "GET", "/v1/responses/"+second.ID+"/input_items?"+q, nil, map[string]string{"Authorization": "Bearer " + testKey})
		if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), `"param":"`+param+`"`) {
			t.Errorf("?%s: %d %s; want 400 naming %s", q, r.status, r.body, param)
		}
	}
	var apiErr *openai.Error
	// The client library sends a list as include[]=…
	if _, err := c.Responses.InputItems.List(ctx, second.ID, oresponses.InputItemListParams{
		Include: []oresponses.ResponseIncludable{"message.output_text.logprobs"}}); !errors.As(err, &apiErr) ||
		apiErr.StatusCode != http.StatusBadRequest || apiErr.Param != "include" {
		t.Errorf("input items with include: %v; want 400 naming include", err)
	}
	if _, err := c.Responses.InputItems.List(ctx, "resp_0123", oresponses.InputItemListParams{}); !errors.As(err, &apiErr) ||
		apiErr.StatusCode != http.StatusNotFound || apiErr.Code != "response_not_found" {
		t.Errorf("unknown response: %v; want 404 response_not_found", err)
	}
}
