package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/llm"
)

// responseStore keeps stored Responses so that a later request can continue
// them with previous_response_id. Each response is one JSON file,
// <dir>/<id>.json, written atomically (temporary file, then rename); with
// no directory the store lives in memory. It is safe for concurrent use.
type responseStore struct {
	dir string
	mu  sync.Mutex
	mem map[string]storedResponse
}

// storedResponse is what a stored response keeps: the model and the whole
// conversation up to and including its output, without the instructions
// (a continuation does not inherit instructions, as in the Responses
// protocol).
type storedResponse struct {
	ID       string        `json:"id"`
	Model    string        `json:"model"`
	Messages []llm.Message `json:"messages"`
	// Response is the response object as it was returned, for
	// GET /v1/responses/{id}; absent in responses stored before it was
	// kept.
	Response json.RawMessage `json:"response,omitempty"`
}

func newResponseStore(dataDir string) *responseStore {
	st := &responseStore{mem: map[string]storedResponse{}}
	if dataDir != "" {
		st.dir = filepath.Join(dataDir, "responses")
	}
	return st
}

// validResponseID reports whether id can name a stored response (and a
// file): the "resp_" prefix and hex digits.
func validResponseID(id string) bool {
	rest, ok := strings.CutPrefix(id, "resp_")
	return ok && len(rest) > 0 && len(rest) <= 64 && strings.Trim(rest, "0123456789abcdef") == ""
}

func (st *responseStore) put(r storedResponse) error {
	if st.dir == "" {
		st.mu.Lock()
		st.mem[r.ID] = r
		st.mu.Unlock()
		return nil
	}
	if err := os.MkdirAll(st.dir, 0o700); err != nil {
		return fmt.Errorf("server: response store: %w", err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(st.dir, ".resp-*")
	if err != nil {
		return fmt.Errorf("server: response store: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("server: response store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("server: response store: %w", err)
	}
	return os.Rename(tmp.Name(), filepath.Join(st.dir, r.ID+".json"))
}

// get returns the stored response id; an unknown id is a 400 with param
// previous_response_id.
func (st *responseStore) get(id string) (storedResponse, error) {
	r, ok, err := st.load(id)
	if err == nil && !ok {
		err = sotto.Invalid("previous_response_not_found", "previous_response_id",
			"previous response with id %q not found", id)
	}
	return r, err
}

// load returns the stored response id and whether there is one.
func (st *responseStore) load(id string) (storedResponse, bool, error) {
	if !validResponseID(id) {
		return storedResponse{}, false, nil
	}
	if st.dir == "" {
		st.mu.Lock()
		defer st.mu.Unlock()
		r, ok := st.mem[id]
		return r, ok, nil
	}
	b, err := os.ReadFile(filepath.Join(st.dir, id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return storedResponse{}, false, nil
	}
	if err != nil {
		return storedResponse{}, false, fmt.Errorf("server: response store: %w", err)
	}
	var r storedResponse
	if err := json.Unmarshal(b, &r); err != nil || r.ID != id {
		return storedResponse{}, false, fmt.Errorf("server: response store: %s is corrupt", id)
	}
	return r, true, nil
}

// find returns the stored response id for GET routes: an unknown id is a
// 404 with param response_id.
func (st *responseStore) find(id string) (storedResponse, error) {
	sr, ok, err := st.load(id)
	if err == nil && !ok {
		err = responseNotFound(id)
	}
	return sr, err
}

// remove deletes the stored response id; an unknown id is a 404 with
// param response_id.
func (st *responseStore) remove(id string) error {
	if !validResponseID(id) {
		return responseNotFound(id)
	}
	if st.dir == "" {
		st.mu.Lock()
		defer st.mu.Unlock()
		if _, ok := st.mem[id]; !ok {
			return responseNotFound(id)
		}
		delete(st.mem, id)
		return nil
	}
	err := os.Remove(filepath.Join(st.dir, id+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return responseNotFound(id)
	}
	if err != nil {
		return fmt.Errorf("server: response store: %w", err)
	}
	return nil
}

func responseNotFound(id string) error {
	return sotto.NotFound("response_not_found", "response_id", "no stored response with id %q", id)
}
