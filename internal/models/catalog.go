package models

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/sottolabs/sotto"
)

// Built-in model IDs of the default catalog.
const (
	// Skylark is the built-in text normalization and segmentation model. It
	// is always listed and has no download, load or unload lifecycle.
	Skylark = "Sotto/Skylark"
	// Lattice1 aligns Chinese, English and German and computes speaker
	// similarity and embeddings. It must be requested explicitly for
	// alignment.
	Lattice1 = "Sotto/Lattice-1"
	// Lattice2 is the default alignment model; it covers every language.
	Lattice2 = "Sotto/Lattice-2"
)

// Execution locations of a catalog [Entry].
const (
	Local  = "local"  // runs on this host
	Remote = "remote" // forwarded to Entry.BaseURL
)

// AnyLanguage in Entry.Languages means the model covers every language,
// mixed-language text and "und".
const AnyLanguage = "*"

// ExtractTarGz is the value of File.Extract for a gzip-compressed tar archive
// that is unpacked into the directory File.Name after it is verified.
const ExtractTarGz = "tar.gz"

//go:embed default_catalog.json
var defaultCatalogJSON []byte

// File is one file a model needs. Exactly one of URL and SystemPath is set:
// URL files are downloaded into the store, SystemPath files are provided by
// the operating system (a Debian package) and are never downloaded.
type File struct {
	// Name is the slash-separated path of the file inside the model's store
	// directory, e.g. "en-us/mdef". For an archive (Extract set) it is the
	// directory the archive unpacks into.
	Name string `json:"name"`
	// URL is the http or https address the file is downloaded from.
	URL string `json:"url,omitempty"`
	// Size is the expected size in bytes; 0 means unknown (the download
	// then learns it from Content-Length and does not check it).
	Size int64 `json:"size,omitempty"`
	// SHA256 is the expected lower-case hex SHA-256 of the downloaded bytes;
	// "" means the file is not verified (its digest is still computed and
	// recorded in the store's marker file).
	SHA256 string `json:"sha256,omitempty"`
	// SHA1 is the expected lower-case hex SHA-1, for upstreams that
	// publish only that (whisper.cpp's model table); when both are set
	// both must match. Prefer SHA256.
	SHA1 string `json:"sha1,omitempty"`
	// Language is the BCP 47 tag of the language that needs this file; ""
	// means every language of the model needs it.
	Language string `json:"language,omitempty"`
	// SystemPath is where the operating system installs the file. An
	// absolute path is used as is; a bare name ("espeak-ng") is a program
	// looked up in PATH.
	SystemPath string `json:"system_path,omitempty"`
	// Package names the Debian package that installs SystemPath; it appears
	// in the error that reports the file missing.
	Package string `json:"package,omitempty"`
	// Extract is "" for a plain file or "tar.gz" for an archive.
	Extract string `json:"extract,omitempty"`
	// Members, for an archive, are the paths inside it (slash-separated,
	// as the archive names them) to unpack; each is written into the
	// directory Name under its base name, and the rest of the archive is
	// skipped. A member the archive lacks fails the download. Empty means
	// the whole archive.
	Members []string `json:"members,omitempty"`
	// Optional files do not count when deciding whether a model is
	// downloaded, and a download does not fetch them.
	Optional bool `json:"optional,omitempty"`
	// Pack marks a language pack: like an optional file it does not count
	// when deciding whether a model is downloaded (the model serves its
	// other languages without it), but a download fetches it. It needs a URL.
	Pack bool `json:"pack,omitempty"`
}

// Entry is one model of the catalog: the spec's catalog entry fields plus
// what the store, downloader and runtime need. Entries are values; the
// catalog hands out copies.
type Entry struct {
	ID                 string   `json:"id"`
	Object             string   `json:"object"`
	Created            int64    `json:"created"`
	OwnedBy            string   `json:"owned_by"`
	SupportedEndpoints []string `json:"supported_endpoints"`
	Features           []string `json:"features"`
	// ExecutionLocation is [Local] or [Remote].
	ExecutionLocation string `json:"execution_location"`
	// DefaultFor lists the endpoint paths (e.g. "/v1/audio/alignments") for
	// which this model is the default. No path is claimed twice.
	DefaultFor []string `json:"default_for"`

	// Backend names the loader (see [Runtime.RegisterLoader]) that turns the
	// model's files into a usable object.
	Backend string `json:"backend,omitempty"`
	// Builtin models are compiled in: no files, no lifecycle.
	Builtin bool `json:"builtin,omitempty"`
	// Imported marks an entry that sotto-cli models import wrote into a
	// user catalog file: [Manager.Delete] takes it out of that file again.
	// Entries the user wrote are never rewritten.
	Imported bool `json:"imported,omitempty"`
	// BaseURL is the address requests are forwarded to; remote models only.
	BaseURL string `json:"base_url,omitempty"`
	// Languages are the BCP 47 tags the model covers; [AnyLanguage] means all.
	Languages []string `json:"languages,omitempty"`
	// Files are what the model needs on disk, downloaded in order.
	Files []File `json:"files,omitempty"`
	// Options are handed to the backend as backend.Config.Options.
	Options map[string]string `json:"options,omitempty"`
	// XSotto is a free-form object included in the wire form under
	// "x_sotto" (for Skylark, the server adds the normalization table).
	XSotto map[string]any `json:"x_sotto,omitempty"`
}

// Model is the wire form of a catalog entry, one element of the data array
// of GET /v1/models.
type Model struct {
	ID                 string         `json:"id"`
	Object             string         `json:"object"`
	Created            int64          `json:"created"`
	OwnedBy            string         `json:"owned_by"`
	SupportedEndpoints []string       `json:"supported_endpoints"`
	Features           []string       `json:"features"`
	ExecutionLocation  string         `json:"execution_location"`
	DefaultFor         []string       `json:"default_for"`
	XSotto             map[string]any `json:"x_sotto,omitempty"`
}

// Wire returns the JSON-able form of e for GET /v1/models. Slices are never
// nil, so they encode as [] rather than null. The returned slices and the
// XSotto map are copies: the caller may add keys to XSotto without changing
// the catalog.
func (e Entry) Wire() Model {
	m := Model{
		ID:                 e.ID,
		Object:             cmpOr(e.Object, "model"),
		Created:            e.Created,
		OwnedBy:            e.OwnedBy,
		SupportedEndpoints: nonNil(e.SupportedEndpoints),
		Features:           nonNil(e.Features),
		ExecutionLocation:  e.ExecutionLocation,
		DefaultFor:         nonNil(e.DefaultFor),
	}
	if e.XSotto != nil {
		m.XSotto = maps.Clone(e.XSotto)
	}
	return m
}

// Supports reports whether e serves the endpoint path, e.g.
// "/v1/audio/alignments".
func (e Entry) Supports(endpoint string) bool {
	return slices.Contains(e.SupportedEndpoints, endpoint)
}

// CoversLanguage reports whether e covers the BCP 47 tag lang. A tag
// matches a listed language when it is equal to it or starts with it
// followed by "-" ("en-US" matches "en"); [AnyLanguage] matches everything.
func (e Entry) CoversLanguage(lang string) bool {
	for _, l := range e.Languages {
		if l == AnyLanguage || strings.EqualFold(l, lang) ||
			(len(lang) > len(l) && strings.EqualFold(lang[:len(l)], l) && lang[len(l)] == '-') {
			return true
		}
	}
	return false
}

// RequiredFiles returns the files that decide whether e is downloaded: all
// files that are not Optional.
func (e Entry) RequiredFiles() []File {
	var fs []File
	for _, f := range e.Files {
		if !f.Optional && !f.Pack {
			fs = append(fs, f)
		}
	}
	return fs
}

// DownloadFiles returns what a download fetches: the required files and the
// language packs (File.Pack).
func (e Entry) DownloadFiles() []File {
	var fs []File
	for _, f := range e.Files {
		if !f.Optional || f.Pack {
			fs = append(fs, f)
		}
	}
	return fs
}

func (e Entry) clone() Entry {
	e.SupportedEndpoints = slices.Clone(e.SupportedEndpoints)
	e.Features = slices.Clone(e.Features)
	e.DefaultFor = slices.Clone(e.DefaultFor)
	e.Languages = slices.Clone(e.Languages)
	e.Files = slices.Clone(e.Files)
	for i := range e.Files {
		e.Files[i].Members = slices.Clone(e.Files[i].Members)
	}
	e.Options = maps.Clone(e.Options)
	e.XSotto = maps.Clone(e.XSotto)
	return e
}

// Validate reports the first problem of e, or nil. It is fast and has no
// side effects (it does not look at the disk).
func (e Entry) Validate() error {
	if err := validateID(e.ID); err != nil {
		return err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("models: catalog entry %q: %s", e.ID, fmt.Sprintf(format, args...))
	}
	if e.Object != "model" {
		return bad("object is %q; want \"model\"", e.Object)
	}
	for _, p := range slices.Concat(e.SupportedEndpoints, e.DefaultFor) {
		if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, " ?#") {
			return bad("endpoint %q is not an API path", p)
		}
	}
	for _, p := range e.DefaultFor {
		if !slices.Contains(e.SupportedEndpoints, p) {
			return bad("default_for %q is not in supported_endpoints", p)
		}
	}
	for _, f := range e.Features {
		if f == "" {
			return bad("empty feature")
		}
	}
	switch e.ExecutionLocation {
	case Local:
		if e.BaseURL != "" {
			return bad("base_url is only for remote models")
		}
	case Remote:
		if err := checkHTTPURL(e.BaseURL); err != nil {
			return bad("base_url: %v", err)
		}
		if len(e.Files) > 0 || e.Builtin {
			return bad("a remote model has no files and is not builtin")
		}
	default:
		return bad("execution_location is %q; want %q or %q", e.ExecutionLocation, Local, Remote)
	}
	if e.Builtin && len(e.Files) > 0 {
		return bad("a builtin model has no files")
	}
	if e.ExecutionLocation == Local && !e.Builtin && e.Backend == "" {
		return bad("backend is required for a local model")
	}
	for _, l := range e.Languages {
		if l == "" || strings.ContainsAny(l, " /") {
			return bad("language %q is not a BCP 47 tag", l)
		}
	}
	names := map[string]bool{}
	for i, f := range e.Files {
		if err := f.validate(); err != nil {
			return bad("files[%d]: %v", i, err)
		}
		if names[f.Name] {
			return bad("files[%d]: duplicate name %q", i, f.Name)
		}
		names[f.Name] = true
		if f.Language != "" && !e.CoversLanguage(f.Language) {
			return bad("files[%d]: language %q is not in languages", i, f.Language)
		}
	}
	// A file may not live inside an archive directory of another file.
	for _, f := range e.Files {
		if f.Extract == "" {
			continue
		}
		for _, g := range e.Files {
			if g.Name != f.Name && strings.HasPrefix(g.Name, f.Name+"/") {
				return bad("file %q lies inside archive directory %q", g.Name, f.Name)
			}
		}
	}
	return nil
}

func (f File) validate() error {
	if f.Name == "" {
		return errors.New("name is empty")
	}
	if f.Pack && f.URL == "" {
		return fmt.Errorf("file %q: a language pack (pack: true) needs a url", f.Name)
	}
	if path.IsAbs(f.Name) || path.Clean(f.Name) != f.Name || f.Name == "." ||
		f.Name == ".." || strings.HasPrefix(f.Name, "../") || strings.Contains(f.Name, "\\") {
		return fmt.Errorf("name %q is not a clean relative path", f.Name)
	}
	for _, part := range strings.Split(f.Name, "/") {
		if strings.HasPrefix(part, ".") {
			return fmt.Errorf("name %q has a hidden or dot component", f.Name)
		}
		if strings.HasSuffix(part, partSuffix) || strings.HasSuffix(part, metaSuffix) {
			return fmt.Errorf("name %q ends in a reserved suffix (%q, %q)", f.Name, partSuffix, metaSuffix)
		}
	}
	switch {
	case f.URL != "" && f.SystemPath != "":
		return errors.New("url and system_path are exclusive")
	case f.URL == "" && f.SystemPath == "":
		return errors.New("one of url and system_path is required")
	case f.URL != "":
		if err := checkHTTPURL(f.URL); err != nil {
			return fmt.Errorf("url: %v", err)
		}
		if f.Package != "" {
			return errors.New("package is only for system_path files")
		}
	default:
		if f.Size != 0 || f.SHA256 != "" || f.SHA1 != "" || f.Extract != "" {
			return errors.New("size, sha256, sha1 and extract are only for url files")
		}
		if !path.IsAbs(f.SystemPath) && strings.ContainsAny(f.SystemPath, "/\\") {
			return fmt.Errorf("system_path %q is neither absolute nor a program name", f.SystemPath)
		}
	}
	if f.Size < 0 {
		return fmt.Errorf("size %d is negative", f.Size)
	}
	if f.SHA256 != "" {
		if len(f.SHA256) != 64 || strings.Trim(f.SHA256, "0123456789abcdef") != "" {
			return fmt.Errorf("sha256 %q is not 64 lower-case hex digits", f.SHA256)
		}
	}
	if f.SHA1 != "" {
		if len(f.SHA1) != 40 || strings.Trim(f.SHA1, "0123456789abcdef") != "" {
			return fmt.Errorf("sha1 %q is not 40 lower-case hex digits", f.SHA1)
		}
	}
	if f.Extract != "" && f.Extract != ExtractTarGz {
		return fmt.Errorf("extract %q is not supported (want %q)", f.Extract, ExtractTarGz)
	}
	if len(f.Members) > 0 && f.Extract == "" {
		return errors.New("members are only for archives (extract set)")
	}
	bases := map[string]bool{}
	for _, m := range f.Members {
		if m == "" || path.IsAbs(m) || path.Clean(m) != m || m == ".." || strings.HasPrefix(m, "../") || strings.Contains(m, "\\") {
			return fmt.Errorf("member %q is not a clean relative path", m)
		}
		b := path.Base(m)
		if strings.HasPrefix(b, ".") || strings.HasSuffix(b, partSuffix) || strings.HasSuffix(b, metaSuffix) {
			return fmt.Errorf("member %q has a hidden or reserved base name", m)
		}
		if bases[b] {
			return fmt.Errorf("members share the base name %q", b)
		}
		bases[b] = true
	}
	return nil
}

func validateID(id string) error {
	owner, name, ok := strings.Cut(id, "/")
	if !ok || !validIDPart(owner) || !validIDPart(name) {
		return fmt.Errorf("models: model ID %q is not of the form Owner/Name (letters, digits, '.', '_', '-')", id)
	}
	return nil
}

func validIDPart(s string) bool {
	if s == "" || s == "." || s == ".." || len(s) > 128 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func checkHTTPURL(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http or https URL", s)
	}
	return nil
}

// Catalog is a validated, ordered set of entries. It is safe for concurrent
// use by multiple goroutines. After construction it changes only when
// [Manager.Delete] removes an entry that a user catalog added.
type Catalog struct {
	mu      sync.RWMutex // guards entries and byID
	entries []Entry
	byID    map[string]int
}

// catalogFile is the JSON layout of a catalog file.
type catalogFile struct {
	Models []json.RawMessage `json:"models"`
}

// DefaultCatalog returns the catalog embedded in the binary: Sotto/Skylark,
// Sotto/Lattice-2 and Sotto/Lattice-1.
func DefaultCatalog() *Catalog {
	c, err := ParseCatalog(defaultCatalogJSON)
	if err != nil {
		panic("models: embedded catalog: " + err.Error()) // a build defect
	}
	return c
}

// ParseCatalog decodes a catalog document, {"models": [entry, ...]}, with
// unknown fields rejected, and validates it. An omitted "object" defaults to
// "model".
func ParseCatalog(data []byte) (*Catalog, error) {
	return MergeCatalog(nil, data)
}

// MergeCatalog parses overlay, a user catalog document of the same
// layout as the embedded one, on top of base (nil means an empty catalog).
// An overlay entry whose id is already in base overrides only the fields it
// names, each replaced as a whole (a "files" list replaces the old list);
// any other entry is added at the end. Unknown fields are an error.
// The result is validated as a whole.
func MergeCatalog(base *Catalog, overlay []byte) (*Catalog, error) {
	var doc catalogFile
	if err := decodeStrict(overlay, &doc); err != nil {
		return nil, fmt.Errorf("models: catalog: %w", err)
	}
	c := &Catalog{byID: map[string]int{}}
	if base != nil {
		for _, e := range base.Entries() {
			c.add(e)
		}
	}
	for i, raw := range doc.Models {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
			return nil, fmt.Errorf("models: catalog: models[%d] is not an object", i)
		}
		var id string
		if err := json.Unmarshal(fields["id"], &id); err != nil {
			return nil, fmt.Errorf("models: catalog: models[%d]: id is missing or not a string", i)
		}
		merged := raw
		if j, ok := c.byID[id]; ok {
			// Overlay the named fields on the existing entry's JSON.
			prev, err := json.Marshal(c.entries[j])
			if err != nil {
				return nil, fmt.Errorf("models: catalog: %w", err)
			}
			var all map[string]json.RawMessage
			if err := json.Unmarshal(prev, &all); err != nil {
				return nil, fmt.Errorf("models: catalog: %w", err)
			}
			maps.Copy(all, fields)
			if merged, err = json.Marshal(all); err != nil {
				return nil, fmt.Errorf("models: catalog: %w", err)
			}
		}
		var e Entry
		if err := decodeStrict(merged, &e); err != nil {
			return nil, fmt.Errorf("models: catalog: models[%d] (%s): %w", i, id, err)
		}
		if e.Object == "" {
			e.Object = "model"
		}
		if j, ok := c.byID[id]; ok {
			c.entries[j] = e
		} else {
			c.add(e)
		}
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// LoadCatalog returns the embedded catalog with the user catalog file at
// path applied on top (see [MergeCatalog]); "" means the embedded
// catalog alone.
func LoadCatalog(path string) (*Catalog, error) {
	if path == "" {
		return DefaultCatalog(), nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("models: catalog: %w", err)
	}
	c, err := MergeCatalog(DefaultCatalog(), data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return c, nil
}

func (c *Catalog) add(e Entry) {
	c.byID[e.ID] = len(c.entries)
	c.entries = append(c.entries, e)
}

// remove drops the entry of id, keeping the order of the others, and
// reports whether there was one.
func (c *Catalog) remove(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.byID[id]
	if !ok {
		return false
	}
	c.entries = slices.Delete(c.entries, i, i+1)
	clear(c.byID)
	for j, e := range c.entries {
		c.byID[e.ID] = j
	}
	return true
}

// Validate checks every entry and the catalog as a whole: IDs are unique
// and no default_for path is claimed by two models.
func (c *Catalog) Validate() error {
	c.mu.RLock()
	defer c.mu.RUnlock()
	seen := map[string]bool{}
	claimed := map[string]string{}
	for _, e := range c.entries {
		if err := e.Validate(); err != nil {
			return err
		}
		if seen[e.ID] {
			return fmt.Errorf("models: catalog: duplicate model ID %q", e.ID)
		}
		seen[e.ID] = true
		for _, d := range e.DefaultFor {
			if other, ok := claimed[d]; ok {
				return fmt.Errorf("models: catalog: %q and %q both claim default_for %q", other, e.ID, d)
			}
			claimed[d] = e.ID
		}
	}
	return nil
}

// Entries returns copies of all entries in catalog order.
func (c *Catalog) Entries() []Entry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Entry, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.clone()
	}
	return out
}

// Lookup returns a copy of the entry with the given ID. An unknown ID gives
// a 404-kind *sotto.Error with code "model_not_found" and param "model".
func (c *Catalog) Lookup(id string) (Entry, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	i, ok := c.byID[id]
	if !ok {
		ids := make([]string, len(c.entries))
		for i, e := range c.entries {
			ids[i] = e.ID
		}
		return Entry{}, NotInCatalog(id, ids)
	}
	return c.entries[i].clone(), nil
}

// NotInCatalog is the 404 model_not_found error (param "model") for an ID
// that is not among ids, worded the same wherever a model ID is looked up
// (the lifecycle endpoints, GET and DELETE /v1/models/{id}, and every
// endpoint that takes a model): an ID that differs from a known one only in
// case gets "did you mean" that one (IDs are case-sensitive; a user typing
// them is not), any other the hint that GET /v1/models lists the models.
func NotInCatalog(id string, ids []string) *sotto.Error {
	if known := suggest(id, ids); known != "" {
		return sotto.NotFound("model_not_found", "model", "model %q is not in the catalog; did you mean %s? (GET /v1/models lists the models)", id, known)
	}
	return sotto.NotFound("model_not_found", "model", "model %q is not in the catalog (GET /v1/models lists the models)", id)
}

// suggest returns the first of ids that differs from id only in case, or "".
func suggest(id string, ids []string) string {
	for _, known := range ids {
		if strings.EqualFold(known, id) {
			return known
		}
	}
	return ""
}

// Suggest returns the ID of an entry that differs from id only in case, or
// "" when there is none: what a command-line tool offers as "did you mean"
// for an ID Lookup does not find.
func (c *Catalog) Suggest(id string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, e := range c.entries {
		if strings.EqualFold(e.ID, id) {
			return e.ID
		}
	}
	return ""
}

// DefaultFor returns the entry that is the default for endpoint, if any.
func (c *Catalog) DefaultFor(endpoint string) (Entry, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, e := range c.entries {
		if slices.Contains(e.DefaultFor, endpoint) {
			return e.clone(), true
		}
	}
	return Entry{}, false
}

// Models returns the wire form of every entry, for GET /v1/models.
func (c *Catalog) Models() []Model {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]Model, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.Wire()
	}
	return out
}

// MarshalJSON encodes c in the catalog file layout, so that ParseCatalog
// of the output gives an equal catalog.
func (c *Catalog) MarshalJSON() ([]byte, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return json.Marshal(struct {
		Models []Entry `json:"models"`
	}{c.entries})
}

func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return slices.Clone(s)
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
