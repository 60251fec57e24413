package server

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// Input items of a stored response (GET /v1/responses/{id}/input_items,
// the OpenAI SDK's responses.inputItems.list): the conversation the
// response was generated from — the stored history it continued and the
// request's own input, without instructions, which a stored response does
// not keep — as Responses input items, paged as the protocol pages them.

// inputItemsMaxLimit bounds limit, as the Responses protocol does.
const inputItemsMaxLimit = 100

// inputItem is one input item; fields that do not apply to its type are
// omitted.
type inputItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Status    string          `json:"status"`
	Role      string          `json:"role,omitempty"`
	Content   []inputItemText `json:"content,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments *string         `json:"arguments,omitempty"`
	Output    *string         `json:"output,omitempty"`
}

type inputItemText struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Annotations []any  `json:"annotations,omitempty"`
}

// inputItems renders the conversation as input items. Their IDs are
// derived from the response's ID and the item's place, so they are the
// same on every call (pagination with after depends on it).
func inputItems(respID string, msgs []llm.Message) []inputItem {
	key := strings.TrimPrefix(respID, "resp_")
	var out []inputItem
	id := func(prefix string) string { return fmt.Sprintf("%s_%s_%d", prefix, key, len(out)) }
	for _, m := range msgs {
		switch m.Role {
		case "tool":
			content := m.Content
			out = append(out, inputItem{Type: "function_call_output", ID: id("fco"), Status: "completed", CallID: m.ToolCallID, Output: &content})
		case "assistant":
			if m.Content != "" || len(m.ToolCalls) == 0 {
				out = append(out, inputItem{Type: "message", ID: id("msg"), Status: "completed", Role: "assistant",
					Content: []inputItemText{{Type: "output_text", Text: m.Content, Annotations: []any{}}}})
			}
			for _, c := range m.ToolCalls {
				args := string(c.Arguments)
				out = append(out, inputItem{Type: "function_call", ID: id("fc"), Status: "completed", CallID: c.ID, Name: c.Name, Arguments: &args})
			}
		default: // system, developer, user
			out = append(out, inputItem{Type: "message", ID: id("msg"), Status: "completed", Role: m.Role,
				Content: []inputItemText{{Type: "input_text", Text: m.Content}}})
		}
	}
	return out
}

// handleInputItems lists the input items of a stored response. Query:
// limit (1 to 100, default 20), order ("desc", the default, newest first,
// or "asc"), after (an item ID: the page starts after it) and include
// (accepted when empty; no extra item data is kept).
func (s *Server) handleInputItems(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	q := r.URL.Query()
	limit := 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > inputItemsMaxLimit {
			s.writeError(w, r, sotto.Invalid("bad_request", "limit", "limit %q is not a whole number from 1 to %d", v, inputItemsMaxLimit))
			return
		}
		limit = n
	}
	order := q.Get("order")
	if order == "" {
		order = "desc"
	}
	if order != "asc" && order != "desc" {
		s.writeError(w, r, sotto.Invalid("bad_request", "order", "order %q is not asc or desc", order))
		return
	}
	if queryList(q, "include") != nil {
		s.writeError(w, r, unsupported("include", "no extra input item data is kept"))
		return
	}
	sr, err := s.responses.find(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	msgs := sr.Messages
	if n := len(msgs); n > 0 && msgs[n-1].Role == "assistant" {
		msgs = msgs[:n-1] // the response's own output
	}
	items := inputItems(id, msgs)
	if order == "desc" {
		slices.Reverse(items)
	}
	if after := q.Get("after"); after != "" {
		i := slices.IndexFunc(items, func(it inputItem) bool { return it.ID == after })
		if i < 0 {
			s.writeError(w, r, sotto.Invalid("bad_request", "after", "response %q has no input item %q", id, after))
			return
		}
		items = items[i+1:]
	}
	more := len(items) > limit
	if more {
		items = items[:limit]
	}
	list := map[string]any{"object": "list", "data": items, "has_more": more, "first_id": nil, "last_id": nil}
	if len(items) > 0 {
		list["first_id"], list["last_id"] = items[0].ID, items[len(items)-1].ID
	}
	writeJSON(w, http.StatusOK, list)
}

// queryList returns the non-empty values of the list query parameter name,
// sent as name=a&name=b or, as the OpenAI client libraries send lists, as
// name[]=a&name[]=b; nil when there are none.
func queryList(q url.Values, name string) []string {
	var out []string
	for _, v := range append(q[name], q[name+"[]"]...) {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
