package models

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sottolabs/sotto"
)

// trashPrefix starts the names of model directories moved aside for
// deletion. [SanitizeID] never yields a name starting with ".", so no model
// directory can be mistaken for one.
const trashPrefix = ".deleted-"

// DeleteResult is the answer to a model deletion, in the shape OpenAI
// clients expect of DELETE /v1/models/{id}, plus what Sotto did in x_sotto.
type DeleteResult struct {
	ID      string      `json:"id"`
	Object  string      `json:"object"` // "model"
	Deleted bool        `json:"deleted"`
	XSotto  DeleteExtra `json:"x_sotto"`
}

// DeleteExtra is the x_sotto object of a [DeleteResult].
type DeleteExtra struct {
	// BytesFreed counts the bytes of the files removed from the data
	// directory (downloads, partial downloads and unpacked archives).
	// Files a model only refers to (an imported GGUF, system files) are
	// never removed and never counted.
	BytesFreed int64 `json:"bytes_freed"`
	// CatalogEntryRemoved is true when sotto-cli models import added the
	// model and it is gone from GET /v1/models and its catalog file; false
	// for every other model (built-in catalog, or an entry the user wrote),
	// which stays listed and can be downloaded again.
	CatalogEntryRemoved bool `json:"catalog_entry_removed"`
	// Unloaded is true when the model was loaded (and idle) and was
	// unloaded first.
	Unloaded bool `json:"unloaded"`
}

// Delete removes model id from this host: its files under the data
// directory (downloaded, partial or unpacked) and its runtime state (a
// loaded model, a finished download job). A model that sotto-cli models
// import added ([Entry.Imported]) also leaves the catalog and the catalog
// file it was imported into; every other entry of a catalog file the user
// wrote stays listed, not downloaded, and the file is never rewritten (a
// model of the built-in catalog likewise). Files outside the data
// directory are never touched: the GGUF file an import refers to and
// system files stay where they are.
//
// The model directory is first renamed aside in one step, so a crash
// leaves either the whole model or none of it (a later Delete sweeps what
// was left aside). A loaded model that no request uses is unloaded first.
//
// Errors (all *sotto.Error with param "model"):
//   - 404-kind model_not_found for an unknown ID;
//   - 400-kind model_builtin for a built-in model, and model_not_deletable
//     for a catalog model whose files all belong to the operating system or
//     lie outside the data directory (nothing of it is in the data
//     directory), or a remote one;
//   - 400-kind model_not_downloaded for a catalog model with nothing on
//     disk;
//   - 409-kind model_in_use while a request holds or waits for the model
//     or while it loads, and download_active while its download runs
//     (cancel it first).
//
// ctx bounds only the removal of the files that were moved aside; the
// deletion itself is not interrupted once begun.
func (m *Manager) Delete(ctx context.Context, id string) (DeleteResult, error) {
	e, err := m.Catalog.Lookup(id)
	if err != nil {
		return DeleteResult{}, err
	}
	_, shippedErr := m.shipped.Lookup(id)
	user := shippedErr != nil      // a user catalog file added it
	imported := user && e.Imported // and sotto-cli models import wrote it there
	if !imported {
		if e.Builtin {
			return DeleteResult{}, sotto.Invalid("model_builtin", "model",
				"%s is built in: it ships with Sotto and cannot be deleted", id)
		}
		if !hasStoreFiles(e) {
			return DeleteResult{}, notDeletable(e, user, m.catalogFile)
		}
	}

	d, r := m.Downloads, m.Runtime
	d.mu.Lock()
	if j := d.jobs[id]; j != nil && !j.state.Terminal() {
		d.mu.Unlock()
		if j.state == StateCancelling {
			return DeleteResult{}, sotto.Conflict("download_active", "model",
				"the download of %s is being cancelled; retry when its state is cancelled", id)
		}
		return DeleteResult{}, sotto.Conflict("download_active", "model",
			"%s is being downloaded; cancel the download first (POST /v1/models/download/cancel) and retry", id)
	}
	r.mu.Lock()
	unlock := func() { r.mu.Unlock(); d.mu.Unlock() }
	if _, err := m.Catalog.Lookup(id); err != nil { // a concurrent Delete removed it
		unlock()
		return DeleteResult{}, err
	}
	rn := r.runners[id]
	if rn != nil {
		switch {
		case rn.running > 0 || len(rn.waiters) > 0:
			n, q := rn.running, len(rn.waiters)
			unlock()
			return DeleteResult{}, sotto.Conflict("model_in_use", "model",
				"%s is in use by %s (%d waiting); finish them and retry", id, plural(n, "request"), q)
		case rn.op != nil:
			unlock()
			return DeleteResult{}, sotto.Conflict("model_in_use", "model",
				"%s is being loaded; retry when the load has finished", id)
		}
	}
	trash, err := m.Store.moveAside(id)
	if err != nil {
		unlock()
		return DeleteResult{}, fmt.Errorf("models: delete %s: %w", id, err)
	}
	if trash == "" && !imported {
		unlock()
		return DeleteResult{}, sotto.Invalid("model_not_downloaded", "model",
			"%s has nothing in the data directory (no download of it, finished or partial): there is nothing to delete", id)
	}
	res := DeleteResult{ID: id, Object: "model", Deleted: true}
	if imported {
		if err := removeFromCatalogFile(m.catalogFile, id); err != nil {
			if trash != "" { // put the files back: nothing changed
				os.Rename(filepath.Join(trash, filepath.Base(m.Store.Dir(id))), m.Store.Dir(id))
				os.Remove(trash)
				m.Store.doneWith(trash)
			}
			unlock()
			return DeleteResult{}, fmt.Errorf("models: delete %s: %w", id, err)
		}
		m.Catalog.remove(id)
		res.XSotto.CatalogEntryRemoved = true
	}
	var obj io.Closer
	if rn != nil {
		r.stopIdleLocked(rn)
		obj, rn.obj = rn.obj, nil
		delete(r.runners, id)
	}
	delete(d.jobs, id) // a finished job of files that are gone would mislead
	unlock()

	if obj != nil {
		res.XSotto.Unloaded = true
		r.log.Info("models: unloading to delete", "model", id)
		if err := obj.Close(); err != nil {
			r.log.Error("models: close before delete", "model", id, "error", err)
		}
	}
	if trash != "" {
		res.XSotto.BytesFreed = dirSize(trash)
		m.Store.doneWith(trash) // from now on any emptyTrash may remove it
	}
	if err := m.Store.emptyTrash(ctx); err != nil {
		// The model is deleted: its directory is out of the way and the
		// next Delete sweeps the rest.
		r.log.Error("models: removing deleted files", "model", id, "error", err)
	}
	r.log.Info("models: deleted", "model", id, "bytes_freed", res.XSotto.BytesFreed,
		"catalog_entry_removed", res.XSotto.CatalogEntryRemoved)
	return res, nil
}

// notDeletable is the error for deleting a model with nothing of it in the
// data directory to delete, ever: system files only, or a remote model.
// For an entry of the user's own catalog file it says where to unlist it.
func notDeletable(e Entry, user bool, catalogFile string) error {
	if user {
		where := "no file of it is in the data directory"
		if e.ExecutionLocation == Remote {
			where = "it is a remote model, with no files here"
		}
		return sotto.Invalid("model_not_deletable", "model",
			"%s comes from the catalog file %s, which Sotto does not rewrite, and %s: there is nothing to delete; remove its entry from that file to unlist it",
			e.ID, catalogFile, where)
	}
	return sotto.Invalid("model_not_deletable", "model",
		"%s ships with Sotto and its files belong to the operating system (%s): there is nothing in the data directory to delete",
		e.ID, systemPackages(e))
}

// hasStoreFiles reports whether any file of e is downloaded into the store
// rather than provided by the system.
func hasStoreFiles(e Entry) bool {
	for _, f := range e.Files {
		if f.URL != "" {
			return true
		}
	}
	return false
}

// systemPackages names the Debian packages (or, lacking them, the paths)
// of e's system files, for messages.
func systemPackages(e Entry) string {
	var out []string
	for _, f := range e.Files {
		name := f.Package
		if name == "" {
			name = f.SystemPath
		}
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return strings.Join(out, ", ")
}

// moveAside moves the directory of model id, in one rename, into a fresh
// trash directory in the store root, and returns the trash directory; ""
// when the model has no directory (or an empty one, which it removes).
func (s *Store) moveAside(id string) (string, error) {
	dir := s.Dir(id)
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", err
	case len(entries) == 0:
		return "", os.Remove(dir)
	}
	tmp, err := os.MkdirTemp(s.root, trashPrefix+SanitizeID(id)+"-")
	if err != nil {
		return "", err
	}
	// Into the fresh directory MkdirTemp reserved: one rename, on the
	// same file system.
	if err := os.Rename(dir, filepath.Join(tmp, filepath.Base(dir))); err != nil {
		os.Remove(tmp)
		return "", err
	}
	s.mu.Lock()
	if s.busyTrash == nil {
		s.busyTrash = map[string]bool{}
	}
	s.busyTrash[filepath.Base(tmp)] = true // a concurrent emptyTrash leaves it to its Delete
	s.mu.Unlock()
	return tmp, nil
}

// doneWith marks a trash directory of moveAside as no longer in use by its
// Delete.
func (s *Store) doneWith(trash string) {
	s.mu.Lock()
	delete(s.busyTrash, filepath.Base(trash))
	s.mu.Unlock()
}

// emptyTrash removes every directory moveAside left in the store root,
// including those of an earlier Delete that was interrupted.
func (s *Store) emptyTrash(ctx context.Context) error {
	entries, err := os.ReadDir(s.root)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var errs []error
	for _, e := range entries {
		s.mu.Lock()
		busy := s.busyTrash[e.Name()]
		s.mu.Unlock()
		if !strings.HasPrefix(e.Name(), trashPrefix) || busy {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		errs = append(errs, os.RemoveAll(filepath.Join(s.root, e.Name())))
	}
	return errors.Join(errs...)
}

// DiskBytes is the size of the files of model id in the data directory
// (downloads, partial downloads, unpacked archives): what [Manager.Delete]
// would free. Files outside it (system files, an imported GGUF) do not
// count.
func (s *Store) DiskBytes(id string) int64 { return dirSize(s.Dir(id)) }

// dirSize is the total size of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// removeFromCatalogFile takes the entry of id out of the catalog file,
// atomically (a temporary file renamed over it). Every other byte of the
// file stays as written: the entry is cut out with the comma and space
// that separated it from its neighbour. A missing file, or one without
// that entry, is left alone.
func removeFromCatalogFile(file, id string) error {
	if file == "" {
		return nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	from, to, err := catalogEntrySpan(data, id)
	if err != nil {
		return fmt.Errorf("catalog %s: %w", file, err)
	}
	if from < 0 {
		return nil
	}
	out := append(slices.Clip(data[:from]), data[to:]...)
	return writeFileAtomic(file, out)
}

// catalogEntrySpan finds the entry of id in the "models" array of a
// catalog document and returns the byte range to cut to remove it: the
// entry and, on the side of a neighbour, the separator between them (an
// only entry leaves "[]" with its spacing). from is -1 when no entry has
// that ID.
func catalogEntrySpan(data []byte, id string) (from, to int, err error) {
	arr, err := scanCatalog(data)
	if err != nil {
		return -1, -1, err
	}
	hit := arr.find(id)
	switch {
	case hit < 0:
		return -1, -1, nil
	case len(arr.entries) == 1:
		return arr.entries[0].from, arr.entries[0].to, nil
	case hit+1 < len(arr.entries): // up to the next entry
		return arr.entries[hit].from, arr.entries[hit+1].from, nil
	default: // the last: from the end of the one before
		return arr.entries[hit-1].to, arr.entries[hit].to, nil
	}
}

// CatalogWithEntry returns the catalog document data with e in it: in
// place of the entry of the same ID, else after the last entry (indented
// as an entry of the file models import writes). Every other byte of data
// stays as written, so a catalog the user keeps by hand keeps its layout.
// Empty data is a new document.
func CatalogWithEntry(data []byte, e Entry) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return json.MarshalIndent(struct {
			Models []Entry `json:"models"`
		}{[]Entry{e}}, "", "  ")
	}
	arr, err := scanCatalog(data)
	if err != nil {
		return nil, err
	}
	raw, err := json.MarshalIndent(e, "    ", "  ")
	if err != nil {
		return nil, err
	}
	var out []byte
	switch i := arr.find(e.ID); {
	case arr.open < 0: // no "models" key: add one after the opening brace
		at := bytes.IndexByte(data, '{') + 1
		sep := ","
		if len(bytes.TrimSpace(data[at:])) == 1 { // just the closing brace
			sep = ""
		}
		out = slices.Concat(data[:at], []byte("\n  \"models\": [\n    "), raw, []byte("\n  ]"+sep), data[at:])
	case i >= 0:
		out = slices.Concat(data[:arr.entries[i].from], raw, data[arr.entries[i].to:])
	case len(arr.entries) > 0:
		last := arr.entries[len(arr.entries)-1].to
		out = slices.Concat(data[:last], []byte(",\n    "), raw, data[last:])
	default: // an empty array
		out = slices.Concat(data[:arr.open+1], []byte("\n    "), raw, []byte("\n  "), data[arr.close:])
	}
	return out, nil
}

// catalogArray is where the "models" array of a catalog document lies:
// the offsets of its brackets (-1 when the document has no "models") and
// of each entry, with each entry's ID.
type catalogArray struct {
	open, close int
	entries     []catalogSpan
}

type catalogSpan struct {
	from, to int
	id       string
}

// find returns the index of the first entry with the ID, or -1.
func (a catalogArray) find(id string) int {
	return slices.IndexFunc(a.entries, func(s catalogSpan) bool { return s.id == id })
}

// scanCatalog locates the "models" array of a catalog document (a JSON
// object) and its entries.
func scanCatalog(data []byte) (catalogArray, error) {
	arr := catalogArray{open: -1, close: -1}
	if !json.Valid(data) {
		return arr, errors.New("not valid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return arr, errors.New("not a JSON object")
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return arr, err
		}
		if key != "models" || arr.open >= 0 {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return arr, err
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return arr, errors.New("models: not an array")
		}
		arr.open = int(dec.InputOffset()) - 1
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return arr, fmt.Errorf("models: %w", err)
			}
			end := int(dec.InputOffset())
			var head struct {
				ID string `json:"id"`
			}
			json.Unmarshal(raw, &head)
			arr.entries = append(arr.entries, catalogSpan{end - len(raw), end, head.ID})
		}
		if _, err := dec.Token(); err != nil { // the closing bracket
			return arr, err
		}
		arr.close = int(dec.InputOffset()) - 1
	}
	return arr, nil
}

// writeFileAtomic replaces file with data through a temporary file in the
// same directory, keeping the file's permissions.
func writeFileAtomic(file string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".catalog-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
