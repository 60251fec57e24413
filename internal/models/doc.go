// Package models manages Sotto's models: the catalog behind GET /v1/models,
// the on-disk store under --data-dir, background downloads with resume and
// verification, and the runtime pool that loads, shares, queues and unloads
// models.
//
// The server builds one [Manager] and calls it from its handlers:
//
//	m, err := models.New(models.Config{DataDir: dataDir, Logger: logger})
//	if err != nil { ... }
//	defer m.Close(ctx)
//	m.RegisterLoader("lattice-2", openAligner)       // one loader per backend
//	job, err := m.Download("Sotto/Lattice-1")        // POST /v1/models/download → 202 job
//	obj, release, err := m.Acquire(ctx, "Sotto/Lattice-2")
//	defer release()
//	aligner := obj.(align.Backend)
//
// Every error a handler should show a client is a [*sotto.Error] whose Kind,
// Code and Param the server maps to the spec's envelope.
//
// # Catalog
//
// The catalog is embedded JSON (default_catalog.json) with three models:
//
//   - Sotto/Skylark: built-in normalization and segmentation; always
//     listed, no lifecycle. Download, cancel, load, unload and acquire of it
//     give a 400-kind error with code "model_builtin" and param "model".
//   - Sotto/Lattice-2: the default alignment model for every language. Its
//     files are the CMU Sphinx US English acoustic model of the Debian
//     package pocketsphinx-en-us and the espeak-ng program; it counts as
//     downloaded as soon as those packages are installed.
//   - Sotto/Lattice-1: alignment for Chinese, English and German, and the
//     default speaker similarity and embedding model. English comes from
//     pocketsphinx-en-us; the Chinese and German CMU Sphinx models are
//     tar.gz archives downloaded from the cmusphinx SourceForge file area
//     and unpacked into zh/ and de/ of the model's store directory.
//
// default_for and supported_endpoints hold API paths
// ("/v1/audio/alignments"); no path is the default of two models. A user
// catalog file ([Config.CatalogFile], same layout) adds models, including
// remote ones (execution_location "remote" with base_url), or overrides
// the fields it names of an existing model. Both files are decoded with
// unknown fields rejected and validated as a whole. An empty sha256 or a
// zero size in a file means "not known": the download is then not verified
// against it (the digest is still computed and recorded). A file may give
// a sha1 instead, or as well, for upstreams that publish only SHA-1
// digests (whisper.cpp's model table); every digest given must match. The German
// archive's SHA-256 is pinned (taken from the Nix base-32 hash of a public
// fetchurl expression for the same SourceForge file, converted to hex); the
// Chinese archive's digest and both sizes are not known offline, so those
// are recorded but not checked.
//
// [Entry.Wire] gives the spec's wire form; the server adds Skylark's
// normalization table under x_sotto.
//
// # Store
//
// Files live in <data>/models/<sanitised id>/ (see [Store]). A model is
// downloaded when every required file is present: downloaded files are
// recorded, with their size and SHA-256, in the marker file
// .sotto-files.json when they have been verified and renamed into place;
// system files (system_path) count when the operating system has them.
//
// # Downloads
//
// A download job ([Downloader]) fetches a model's files in sequence with
// net/http. Progress is bytes_downloaded (partial files included) of
// total_bytes (the sum of the files' sizes, 0 while any is unknown; a HEAD
// request at the start of the job asks for the sizes the catalog lacks). A
// broken transfer resumes from the .part file with a Range request
// (If-Range carries the ETag or Last-Modified of the first response); a
// 200 answer restarts the file, a 206 continues it. Transient failures
// (connection errors, a stalled body, 408, 429, 5xx) are retried with
// exponential back-off, up to [DownloaderConfig.Retries] times without new
// progress. The finished file is checked against its SHA-256 and size and
// renamed into place atomically; an archive is unpacked into a temporary
// directory that is then renamed.
//
// Job states: downloading → completed | failed | cancelling → cancelled.
// Cancellation is asynchronous: [Downloader.Cancel] returns "cancelling"
// and the job ends "cancelled", its partial files deleted. A failed job
// keeps its error and partial files until a new POST restarts it (which
// resumes). Starting a download of a model already downloaded returns a
// completed job at once. Cancelling a job that is not active gives the
// 400-kind error "download_not_active". [Downloader.Watch] iterates over a
// job's progress for the CLI.
//
// # Runtime
//
// [Runtime] loads a model through the [Loader] registered for its backend
// name and hands the loaded object to sessions ([Runtime.Acquire]). Each
// model has MaxRunning session slots (default 1) and a FIFO queue of at
// most MaxQueued waiters (default 16); a full queue gives 503
// "service_busy" with RetryAfter. Acquire of a model that is being
// downloaded gives 503 "model_downloading", of one that is not downloaded
// 400 "model_not_downloaded", of an unknown one 404 "model_not_found". The
// first Acquire loads the model (a cold load, shared by every waiter and
// not cancelled when the first caller goes away). [Runtime.Running] gives
// GET /v1/models/running:
//
//	{"object": "list",
//	 "data": [{"id": "Sotto/Lattice-2", "status": {"value": "loaded"}}],
//	 "runtime": {"state": "running",
//	             "queues": {"Sotto/Lattice-2": {"queued": 0, "running": 1, "limit": 1, "max_queued": 16}}}}
//
// runtime.state is "loading" while any cold load runs; a model being loaded
// is not in data yet but has its queue entry. Unloading a model that a
// session holds (or that requests wait for) is refused with the 409-kind
// error "model_in_use"; unloading a model that is not loaded succeeds with
// status "unloaded". With [RuntimeConfig.KeepAlive] set, a model nobody
// has used for that long is unloaded. With [RuntimeConfig.MaxLoaded] set, a
// cold load beyond the limit first unloads the least recently used idle
// models (a model switch; runtime.state is "loading" meanwhile), and fails
// with 503 "service_busy" when all loaded models are in use.
//
// # Deleting
//
// [Manager.Delete] (DELETE /v1/models/{id}) removes a model's files from the
// data directory: its store directory is renamed aside in one step, then
// removed. A model that the user catalog added (sotto-cli models import)
// also leaves the catalog and the catalog file; a model of the built-in
// catalog stays listed, not downloaded. Files outside the data directory (an
// imported GGUF, system files) are never removed. A loaded model nobody uses
// is unloaded first; one that a request holds, waits for or is loading, or
// whose download runs, is refused with a 409-kind error.
//
// # Errors
//
// The *sotto.Error codes this package returns, by kind (HTTP status):
//
//	404 model_not_found        unknown model ID (param "model")
//	400 model_builtin          lifecycle call or delete on Sotto/Skylark (param "model")
//	400 model_not_deletable    delete of a built-in catalog model made only of system files (param "model")
//	400 model_remote           lifecycle call on a remote model (param "model")
//	400 model_not_downloaded   load or acquire before the files are present, or delete of a
//	                           built-in catalog model with nothing on disk (param "model")
//	400 download_not_active    cancel without an active job (param "model")
//	409 model_in_use           unload or delete while sessions hold or wait for the model, or
//	                           delete while it loads (param "model")
//	409 download_active        delete while the model's download runs (param "model")
//	501 backend_unavailable    no loader registered for the model's backend in this build
//	503 model_downloading      load or acquire while the model downloads (RetryAfter, default 5 s)
//	503 service_busy           the model's queue is full (RetryAfter, default 1 s), or shut down
//	503 download_cancelling    a new download while the previous job is still cancelling (RetryAfter 1 s)
//
// A download failure is not an error of the call: the job ends failed with
// its error field set. Loader failures are returned wrapped, as they are.
package models
