package models

import (
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
	// CatalogEntryRemoved is true when the model was added by the user
	// catalog (sotto-cli models import, or an entry of --catalog) and is
	// gone from GET /v1/models; false for a model of the built-in catalog,
	// which stays listed and can be downloaded again.
	CatalogEntryRemoved bool `json:"catalog_entry_removed"`
	// Unloaded is true when the model was loaded (and idle) and was
	// unloaded first.
	Unloaded bool `json:"unloaded"`
}

// Delete removes model id from this host: its files under the data
// directory (downloaded, partial or unpacked) and, for a model that the
// user catalog added (an import, or an entry of Config.CatalogFile that is
// not in the built-in catalog), its entry, from the catalog and from the
// catalog file. A model of the built-in catalog stays listed, not
// downloaded. Files outside the data directory are never touched: the GGUF
// file an import refers to and system files stay where they are.
//
// The model directory is first renamed aside in one step, so a crash
// leaves either the whole model or none of it (a later Delete sweeps what
// was left aside). A loaded model that no request uses is unloaded first.
//
// Errors (all *sotto.Error with param "model"):
//   - 404-kind model_not_found for an unknown ID;
//   - 400-kind model_builtin for a built-in model, and model_not_deletable
//     for a built-in catalog model whose files all belong to the operating
//     system (nothing of it is in the data directory);
//   - 400-kind model_not_downloaded for a built-in catalog model with
//     nothing on disk;
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
	user := shippedErr != nil // the user catalog added it
	if !user {
		if e.Builtin {
			return DeleteResult{}, sotto.Invalid("model_builtin", "model",
				"%s is built in: it ships with Sotto and cannot be deleted", id)
		}
		if !hasStoreFiles(e) {
			return DeleteResult{}, sotto.Invalid("model_not_deletable", "model",
				"%s ships with Sotto and its files belong to the operating system (%s): there is nothing in the data directory to delete",
				id, systemPackages(e))
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
	if trash == "" && !user {
		unlock()
		return DeleteResult{}, sotto.Invalid("model_not_downloaded", "model",
			"%s has nothing in the data directory (no download of it, finished or partial): there is nothing to delete", id)
	}
	res := DeleteResult{ID: id, Object: "model", Deleted: true}
	if user {
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

// removeFromCatalogFile rewrites the catalog file without the entry of id,
// atomically (a temporary file renamed over it). The other entries keep
// their JSON as written. A missing file, or one without that entry, is
// left alone.
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
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("catalog %s: %w", file, err)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(doc["models"], &list); err != nil {
		return fmt.Errorf("catalog %s: models: %w", file, err)
	}
	kept := list[:0:0]
	for _, raw := range list {
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(raw, &head) == nil && head.ID == id {
			continue
		}
		kept = append(kept, raw)
	}
	if len(kept) == len(list) {
		return nil
	}
	if doc["models"], err = json.Marshal(kept); err != nil {
		return err
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(file, append(out, '\n'))
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
