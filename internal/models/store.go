package models

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Suffixes of the store's working files, reserved in file names.
const (
	partSuffix = ".part"      // a download in progress, kept for resuming
	metaSuffix = ".part.meta" // the validators (ETag, Last-Modified) of a .part
	markerName = ".sotto-files.json"
)

// Store is the on-disk layout of downloaded models under a data directory:
//
//	<data>/models/<sanitised id>/<file name>         a verified file
//	<data>/models/<sanitised id>/<file name>.part    a partial download
//	<data>/models/<sanitised id>/.sotto-files.json   the marker: one record per verified file
//
// The sanitised ID replaces "/" with "--" (Sotto/Lattice-1 → Sotto--Lattice-1)
// and any byte outside [A-Za-z0-9._-] with "_". A Store is safe for
// concurrent use by multiple goroutines.
type Store struct {
	root string
	mu   sync.Mutex // serialises marker updates; guards busyTrash

	busyTrash map[string]bool // trash directories a Delete still measures (delete.go)
}

// NewStore returns the store under dataDir; it creates nothing until a file
// is downloaded.
func NewStore(dataDir string) *Store {
	return &Store{root: filepath.Join(dataDir, "models")}
}

// Root returns <data>/models.
func (s *Store) Root() string { return s.root }

// Dir returns the directory holding the files of model id.
func (s *Store) Dir(id string) string {
	return filepath.Join(s.root, SanitizeID(id))
}

// SanitizeID turns a model ID into a single safe directory name.
func SanitizeID(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r == '/':
			b.WriteString("--")
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" || strings.HasPrefix(out, ".") {
		out = "_" + out
	}
	return out
}

// marker is the JSON layout of the marker file.
type marker struct {
	Model string                  `json:"model"`
	Files map[string]markerRecord `json:"files"`
}

// markerRecord describes one verified file (or unpacked archive).
type markerRecord struct {
	URL      string    `json:"url"`
	Size     int64     `json:"size"` // bytes of the download (the archive for extracted files)
	SHA256   string    `json:"sha256"`
	SHA1     string    `json:"sha1,omitempty"`
	Verified bool      `json:"verified"` // the catalog's sha256 or sha1 was known and matched
	Time     time.Time `json:"time"`
}

func (s *Store) readMarker(id string) marker {
	m := marker{Model: id, Files: map[string]markerRecord{}}
	data, err := os.ReadFile(filepath.Join(s.Dir(id), markerName))
	if err != nil {
		return m
	}
	var got marker
	if json.Unmarshal(data, &got) == nil && got.Model == id && got.Files != nil {
		return got
	}
	return m
}

// record adds rec for file name to the marker of id, atomically.
func (s *Store) record(id, name string, rec markerRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.readMarker(id)
	m.Files[name] = rec
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	dir := s.Dir(id)
	tmp, err := os.CreateTemp(dir, ".marker-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, markerName))
}

// fileState reports whether f of model id is present and, for a downloaded
// file, verified; size is the download's size in bytes (0 for system files).
func (s *Store) fileState(id string, f File, m marker) (present bool, size int64) {
	if f.SystemPath != "" {
		_, err := systemPath(f)
		return err == nil, 0
	}
	rec, ok := m.Files[f.Name]
	if !ok || rec.URL != f.URL || (f.SHA256 != "" && rec.SHA256 != f.SHA256) || (f.SHA1 != "" && rec.SHA1 != f.SHA1) {
		return false, 0
	}
	fi, err := os.Stat(filepath.Join(s.Dir(id), filepath.FromSlash(f.Name)))
	if err != nil {
		return false, 0
	}
	if f.Extract != "" {
		return fi.IsDir(), rec.Size
	}
	return fi.Mode().IsRegular() && fi.Size() == rec.Size, rec.Size
}

// Missing returns the required files of e that are not on disk: downloaded
// files without a matching marker record or whose size changed, and system
// files not installed. It does not re-hash files; the digest was checked
// when the file was downloaded and is kept in the marker.
func (s *Store) Missing(e Entry) []File {
	m := s.readMarker(e.ID)
	var out []File
	for _, f := range e.RequiredFiles() {
		if ok, _ := s.fileState(e.ID, f, m); !ok {
			out = append(out, f)
		}
	}
	return out
}

// Downloaded reports whether every required file of e is present (see
// [Store.Missing]). A builtin or remote model, having no files, counts as
// downloaded.
func (s *Store) Downloaded(e Entry) bool { return len(s.Missing(e)) == 0 }

// Path returns the absolute path of the file called name of model e: a
// file of e.Files, or a path inside one of its unpacked archives
// ("zh/cmusphinx-zh-cn-5.2/zh_cn.dic"). System files resolve to their system
// path. The error wraps fs.ErrNotExist when the file is not on disk, and
// names the Debian package for a missing system file.
func (s *Store) Path(e Entry, name string) (string, error) {
	for _, f := range e.Files {
		inside := f.Extract != "" && strings.HasPrefix(name, f.Name+"/")
		if f.Name != name && !inside {
			continue
		}
		if f.SystemPath != "" {
			return systemPath(f)
		}
		if inside && (path.Clean(name) != name || strings.Contains(name, "/../")) {
			break
		}
		p := filepath.Join(s.Dir(e.ID), filepath.FromSlash(name))
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("models: %s: %s: %w (download the model with POST /v1/models/download)", e.ID, name, fs.ErrNotExist)
		}
		return p, nil
	}
	return "", fmt.Errorf("models: %s has no file %q: %w", e.ID, name, fs.ErrNotExist)
}

// Paths returns the path of every file of e that is on disk, keyed by
// File.Name.
func (s *Store) Paths(e Entry) map[string]string {
	out := map[string]string{}
	for _, f := range e.Files {
		if p, err := s.Path(e, f.Name); err == nil {
			out[f.Name] = p
		}
	}
	return out
}

// systemPath resolves a system file: an absolute path must be a regular
// file; a bare name is looked up in PATH.
func systemPath(f File) (string, error) {
	hint := ""
	if f.Package != "" {
		hint = fmt.Sprintf(" (install the Debian package %s: apt-get install %s)", f.Package, f.Package)
	}
	if !filepath.IsAbs(f.SystemPath) {
		p, err := exec.LookPath(f.SystemPath)
		if err != nil {
			return "", fmt.Errorf("models: program %s not found in PATH%s: %w", f.SystemPath, hint, fs.ErrNotExist)
		}
		return p, nil
	}
	fi, err := os.Stat(f.SystemPath)
	if err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("models: %s is not installed%s: %w", f.SystemPath, hint, fs.ErrNotExist)
	}
	return f.SystemPath, nil
}

// removePartial deletes the partial download of f and its validators,
// ignoring files that do not exist.
func (s *Store) removePartial(id string, f File) {
	p := filepath.Join(s.Dir(id), filepath.FromSlash(f.Name))
	os.Remove(p + partSuffix)
	os.Remove(p + metaSuffix)
}
