package models

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"time"
)

// Config configures a [Manager]. Only DataDir is required; the zero value
// of every other field selects the documented default.
type Config struct {
	// DataDir is the --data-dir; models live in DataDir/models. Required.
	DataDir string
	// CatalogFile is a user catalog applied on top of the embedded one
	// (see [MergeCatalog]); "" means the embedded catalog alone.
	CatalogFile string
	// HTTPClient performs downloads; nil means [DefaultHTTPClient].
	HTTPClient *http.Client
	// UserAgent of downloads; "" means [DefaultUserAgent].
	UserAgent string
	// Logger receives download and runtime events; nil discards them.
	Logger *slog.Logger

	// Retries, RetryDelay and StallTimeout configure downloads; see
	// [DownloaderConfig] for their defaults.
	Retries      int
	RetryDelay   time.Duration
	StallTimeout time.Duration

	// MaxRunning, MaxQueued, MaxLoaded, KeepAlive, BusyRetryAfter and
	// DownloadingRetryAfter configure the runtime; see [RuntimeConfig] for
	// their defaults.
	MaxRunning            int
	MaxQueued             int
	MaxLoaded             int
	KeepAlive             time.Duration
	BusyRetryAfter        time.Duration
	DownloadingRetryAfter time.Duration
}

// Validate reports a configuration error without touching the disk.
func (c Config) Validate() error {
	var errs []error
	if c.DataDir == "" {
		errs = append(errs, errors.New("models: Config.DataDir is required"))
	}
	if c.MaxLoaded < 0 {
		errs = append(errs, fmt.Errorf("models: Config.MaxLoaded %d is negative", c.MaxLoaded))
	}
	if c.KeepAlive < 0 {
		errs = append(errs, fmt.Errorf("models: Config.KeepAlive %v is negative", c.KeepAlive))
	}
	if c.RetryDelay < 0 || c.StallTimeout < 0 || c.BusyRetryAfter < 0 || c.DownloadingRetryAfter < 0 {
		errs = append(errs, errors.New("models: Config durations must not be negative"))
	}
	return errors.Join(errs...)
}

// Manager ties the catalog, the store, the downloader and the runtime
// together for the server. The embedded [*Runtime] provides Load, Unload,
// Running, Acquire and RegisterLoader. A Manager is safe for concurrent
// use by multiple goroutines.
type Manager struct {
	*Runtime
	// Catalog is the merged catalog; only [Manager.Delete] changes it
	// after New.
	Catalog *Catalog
	// Store is the on-disk layout under Config.DataDir.
	Store *Store
	// Downloads runs the download jobs.
	Downloads *Downloader

	shipped     *Catalog // the embedded catalog, to tell user entries apart
	catalogFile string   // Config.CatalogFile, rewritten by Delete
}

// New validates cfg, loads the catalog and returns a Manager. It creates
// no files and starts no goroutines; downloads and loads do.
func New(cfg Config) (*Manager, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cat, err := LoadCatalog(cfg.CatalogFile)
	if err != nil {
		return nil, err
	}
	store := NewStore(cfg.DataDir)
	dl := NewDownloader(store, DownloaderConfig{
		Client: cfg.HTTPClient, UserAgent: cfg.UserAgent, Retries: cfg.Retries,
		RetryDelay: cfg.RetryDelay, StallTimeout: cfg.StallTimeout, Logger: cfg.Logger,
	})
	rt := NewRuntime(cat, store, dl, RuntimeConfig{
		MaxRunning: cfg.MaxRunning, MaxQueued: cfg.MaxQueued, MaxLoaded: cfg.MaxLoaded, KeepAlive: cfg.KeepAlive,
		BusyRetryAfter: cfg.BusyRetryAfter, DownloadingRetryAfter: cfg.DownloadingRetryAfter,
		Logger: cfg.Logger,
	})
	return &Manager{Runtime: rt, Catalog: cat, Store: store, Downloads: dl,
		shipped: DefaultCatalog(), catalogFile: cfg.CatalogFile}, nil
}

// Models returns the wire form of the catalog, for GET /v1/models.
func (m *Manager) Models() []Model { return m.Catalog.Models() }

// Entry returns the catalog entry of id, or a 404-kind model_not_found.
func (m *Manager) Entry(id string) (Entry, error) { return m.Catalog.Lookup(id) }

// Download starts (or reports) the download of model id; see
// [Downloader.Start]. Unknown IDs give a 404-kind model_not_found.
func (m *Manager) Download(id string) (Job, error) {
	e, err := m.Catalog.Lookup(id)
	if err != nil {
		return Job{}, err
	}
	return m.Downloads.Start(e)
}

// CancelDownload cancels the active download of model id; see
// [Downloader.Cancel].
func (m *Manager) CancelDownload(id string) (CancelResult, error) {
	e, err := m.Catalog.Lookup(id)
	if err != nil {
		return CancelResult{}, err
	}
	return m.Downloads.Cancel(e)
}

// DownloadJobs returns every download job, for GET /v1/models/downloads.
func (m *Manager) DownloadJobs() []Job { return m.Downloads.Jobs() }

// WatchDownload iterates over the progress of the download of id; see
// [Downloader.Watch].
func (m *Manager) WatchDownload(ctx context.Context, id string) iter.Seq2[Job, error] {
	return m.Downloads.Watch(ctx, id)
}

// Path returns the absolute path of file name of model id; see
// [Store.Path].
func (m *Manager) Path(id, name string) (string, error) {
	e, err := m.Catalog.Lookup(id)
	if err != nil {
		return "", err
	}
	return m.Store.Path(e, name)
}

// Close stops the downloads (their jobs end cancelled) and unloads every
// model, waiting at most until ctx is done.
func (m *Manager) Close(ctx context.Context) error {
	return errors.Join(m.Downloads.Close(ctx), m.Runtime.Close(ctx))
}
